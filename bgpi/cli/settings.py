"""The service's settings file (`bgpi run --settings`, /etc/bgpi/bgpi.toml).

The installer writes the default one (systemd/bgpi.toml, which documents every key).
Only the file's shape is checked here; the values of the session's rules are checked
where they are used (`bgpi.rules.session.Settings`, the table), like ``--config``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bgpi.exc import BoardKindError, SettingsFileError
from bgpi.hardware.board import BoardKind, board_kind

TOP_KEYS = ("board", "profile", "brightness", "session", "money", "page", "remote")
SESSION_KEYS = ("match", "lenient", "engine", "opponent", "hint_level", "coach")
MONEY_KEYS = ("jacoby", "beavers", "auto_doubles")
PAGE_KEYS = ("enabled", "listen", "port")
REMOTE_KEYS = ("game", "side", "broker", "user", "password_file", "tls", "ca")


@dataclass(frozen=True)
class RunSettings:
    """What the file sets; None where it leaves the choice to `bgpi run`'s defaults."""

    board: BoardKind | None = None
    profile: str | None = None
    brightness: float | None = None
    session: dict[str, Any] = field(default_factory=dict)
    """The [session] table: match, lenient, and the engine's keys (`bgpi.shell.advisor`)."""
    money: dict[str, Any] = field(default_factory=dict)
    """The [money] table: rules for money play only."""
    page: dict[str, Any] | None = None
    """The [page] table: enabled, listen, port (`bgpi.web.page`); None without a settings
    file, where the page is served on 127.0.0.1 unless --no-page."""
    remote: dict[str, Any] = field(default_factory=dict)
    """The [remote] table: a remote game's game ID, side and broker (`bgpi.cli.broker`)."""

    def config(self, given: dict[str, Any]) -> dict[str, Any]:
        """A new session's settings (as ``--config`` takes them): `given` (from the
        command line) over the file's; the [money] rules only if it is money play."""
        config = {**self.session, **given}
        if not config.get("match"):
            config = {**self.money, **config}
        return config


def load_settings(path: Path) -> RunSettings:
    """The settings in `path`.  Raises SettingsFileError (a ValueError) naming the file and every problem."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise SettingsFileError(f"settings {path}: cannot read it: {error.strerror or error}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise SettingsFileError(f"settings {path}: {error}") from None
    problems: list[str] = []
    _known(document, TOP_KEYS, "", problems)
    board = document.get("board")
    kind = None
    if board is not None:
        try:
            kind = board_kind(board if isinstance(board, str) else "")
        except BoardKindError:
            problems.append(f"board: expected \"pi\", \"sim\" or \"serial:DEVICE\", got {board!r}")
    profile = document.get("profile", "")
    if not isinstance(profile, str):
        problems.append(f"profile: expected a file name, got {profile!r}")
    brightness = document.get("brightness")
    if brightness is not None and not (type(brightness) in (int, float) and 0 < brightness <= 1):
        problems.append(f"brightness: expected a number in (0, 1], got {brightness!r}")
    tables = []
    for name, keys in (("session", SESSION_KEYS), ("money", MONEY_KEYS), ("page", PAGE_KEYS),
                       ("remote", REMOTE_KEYS)):
        table = document.get(name, {})
        if not isinstance(table, dict):
            problems.append(f"{name}: expected a table [{name}]")
            table = {}
        _known(table, keys, f"{name}.", problems)
        tables.append(table)
    if problems:
        raise SettingsFileError(f"settings {path}: " + "; ".join(problems))
    return RunSettings(kind, profile or None, brightness, *tables)


def _known(table: dict[str, Any], keys: tuple[str, ...], prefix: str, problems: list[str]) -> None:
    for key in table:
        if key not in keys:
            problems.append(f"{prefix}{key}: unknown key (expected one of {', '.join(keys)})")
