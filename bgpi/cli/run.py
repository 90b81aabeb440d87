"""`bgpi run`: the board, live.

On a Raspberry Pi it runs the real board; elsewhere, or with `--board sim`, the
simulated one, and serves the board's page at http://127.0.0.1:8700 (`--port`,
`--listen` with an access token, `--no-page`; with `--settings`, as its [page] table
says).  The journal in the state directory records every event; a run that finds a
journal resumes that session where it stopped (after a power cut too), and `--new`
starts a fresh one.  On the simulated board the keyboard (or a pipe) moves the
checkers; without either (as under systemd) it runs until stopped.

This command reads and checks its arguments; the board service (`bgpi.shell.service`)
does the rest.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bgpi.board.profile import Profile
from bgpi.cli.broker import add_broker_options, broker_of
from bgpi.cli.config import SETTINGS_HELP, check_config, parse_config
from bgpi.cli.settings import RunSettings, load_settings
from bgpi.engine import DEFAULT_HINT_LEVEL, DEFAULT_LEVEL, KINDS, LEVELS
from bgpi.exc import (
    JournalError,
    MatchIdError,
    PageSettingsError,
    ProfileError,
    RecordFileError,
    ScriptLineError,
    ServiceError,
    SettingsFileError,
    UsageError,
    XgidError,
)
from bgpi.hardware.board import board_kind, default_board_kind
from bgpi.hardware.profile import load_profile
from bgpi.records.reading import RECORD_KINDS, recorded_position
from bgpi.remote.joining import RemoteSettings
from bgpi.remote.messages import GAME_ID
from bgpi.rules.position import Side
from bgpi.rules.xgid import read_ids
from bgpi.shell import sdnotify
from bgpi.shell.console import stdin_is_terminal
from bgpi.shell.journal import default_state_dir, journal_path, read_journal
from bgpi.shell.script import BoardPosition
from bgpi.shell.service import BoardService, ServiceSettings, SessionSetup
from bgpi.table import events as ev
from bgpi.table.tracker import Sensing
from bgpi.web.page import BoardPage, add_page_options, page_settings


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the board (the simulated one when no board is attached)",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
        epilog=SETTINGS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--settings", metavar="FILE", type=Path,
                        help="the service's settings file (board, profile, brightness, session "
                             "rules; see systemd/bgpi.toml); options given here win over it")
    parser.add_argument("--board", type=board_kind, default=None, metavar="BOARD",
                        help="pi: the real board; sim: the simulated one; serial:DEVICE: a board "
                             "behind a Pico co-processor (firmware/README.md), e.g. "
                             "serial:/dev/ttyACM0 (default: pi on a Raspberry Pi, else sim)")
    parser.add_argument("--profile", metavar="FILE", help="board profile (default: the packaged one)")
    parser.add_argument("--state", metavar="DIR", type=Path,
                        help="state directory with the journal (default: $BGPI_STATE or ~/.local/state/bgpi)")
    parser.add_argument("--new", action="store_true",
                        help="start a new session; the old journal is kept beside the new one")
    parser.add_argument("--match", type=int, metavar="N",
                        help="a new session: a match to N points (default: money play)")
    parser.add_argument("--config", metavar="JSON",
                        help='a new session\'s settings (below), e.g. \'{"beavers": true, "lenient": true}\'')
    parser.add_argument("--position", metavar="ID[:MATCHID]",
                        help="a new session practising a gnubg position; a Match ID also gives "
                             "the player on roll, cube, score, match length and Crawford game; "
                             "an XGID (XGID=...) gives all of these, and money play's Jacoby and beavers. "
                             "Or FILE.sgf / FILE.mat[#GAME.PLAY]: the position before that play "
                             "(the roll, from 1; default 1.1) of that game of a record")
    parser.add_argument("--turn", choices=("white", "black"), default=None,
                        help="who is on roll in --position (default: the Match ID's, else white)")
    parser.add_argument("--record", metavar="FILE", type=Path,
                        help="record the switches and buttons as a board script (slot, press, wait lines)")
    parser.add_argument("--json", action="store_true",
                        help="on the simulator at a terminal: print the table log as JSON, not in words")
    parser.add_argument("--seed", type=int, help="seed of the simulated dice (default: the OS's random source)")
    parser.add_argument("--opponent", metavar="gnubg[:LEVEL]",
                        help="a new session against the computer, which plays black (--opponent-side): "
                             "GNU Backgammon at "
                             f"LEVEL (0, 1, 2 plies, or {', '.join(LEVELS)}; default {DEFAULT_LEVEL}); "
                             f"hints think at {DEFAULT_HINT_LEVEL} (2-ply) unless the hint_level setting says so")
    parser.add_argument("--opponent-side", dest="opponent_side", choices=("white", "black", "both"),
                        help="the side the computer plays with --opponent (default black); both: computer "
                             "against computer, a demonstration in which you move the checkers as lit")
    parser.add_argument("--engine", choices=KINDS,
                        help="a new session's GNU Backgammon for hints and the opponent (default: auto)")
    parser.add_argument("--remote", metavar="GAME",
                        help="a remote game: play GAME (a game ID both boards are given: letters, digits, - and "
                             "_) with another board through an MQTT broker (docs/remote.md); with --side and --broker")
    parser.add_argument("--side", choices=("white", "black"),
                        help="with --remote: the side played at this board (the other board plays the other)")
    add_broker_options(parser, what="with --remote: the")
    add_page_options(parser)
    parser.set_defaults(handler=_run)


@dataclass(frozen=True)
class _NewSession:
    """What the arguments ask of a new session; checked before anything is touched."""

    setup: SessionSetup
    asked: bool
    """Whether the command line asks for anything of a new session."""


def _run(args: argparse.Namespace) -> int:
    # From the start, so that a stop asked for while the board opens still ends cleanly.
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    try:
        settings, page = _service_settings(args)
        with BoardService(settings, stop, page, say=_say) as service:
            service.run()
    except (UsageError, ServiceError) as error:
        # Under systemd this is what `systemctl status bgpi` shows (exit 2: no restart).
        sdnotify.status(f"stopped: {error}")
        raise UsageError(str(error)) from None
    return 0


def _say(line: str) -> None:
    print(f"bgpi run: {line}", file=sys.stderr, flush=True)


def _service_settings(args: argparse.Namespace) -> tuple[ServiceSettings, BoardPage | None]:
    """The service's settings and its page, from the arguments over the settings file.

    Every argument is checked here, before the board opens and the state directory is
    touched; UsageError for the first fault."""
    try:
        file = load_settings(args.settings) if args.settings else RunSettings()
    except SettingsFileError as error:
        raise UsageError(str(error)) from None
    kind = args.board or file.board or default_board_kind()
    if not kind.live:
        raise UsageError(f"--board {kind} (the simulated Pico) is for `bgpi replay --link {kind}` and "
                         "`bgpi diag`; `bgpi run` takes sim, pi or serial:DEVICE")
    state = args.state or default_state_dir()
    profile = _profile(args.profile or file.profile, file.brightness)
    remote = _remote(args, file)
    new = _new_session(args, file, remote)
    _check_state(state, args, new, profile)
    try:
        shown = page_settings(args, file.page)
    except PageSettingsError as error:
        raise UsageError(f"cannot serve the page: {error}") from None
    settings = ServiceSettings(kind, profile, state, new.setup, args.new, args.seed, args.record,
                               hands=kind.simulated and _interactive(stdin_is_terminal()), words=not args.json,
                               remote=remote)
    return settings, None if shown is None else BoardPage(shown, profile.geometry, state)


def _profile(path: str | None, brightness: float | None) -> Profile:
    try:
        profile = load_profile(path)
    except ProfileError as error:
        raise UsageError(str(error)) from None
    if brightness is None:
        return profile
    return dataclasses.replace(profile, leds=dataclasses.replace(profile.leds, brightness=brightness))


def _check_state(state: Path, args: argparse.Namespace, new: _NewSession, profile: Profile) -> None:
    """A new session's arguments are refused where a session with other settings is in
    progress, unless --new; the same settings resume it."""
    if state.exists() and not state.is_dir():
        raise UsageError(f"the state directory {state} is not a directory")
    journal_exists = journal_path(state).exists()
    asked = new.asked or args.turn or args.config is not None
    if journal_exists and not args.new and asked:
        differ = _differences(state, new.setup, profile)
        if differ:
            raise UsageError(f"a session with other settings ({', '.join(differ)}) is in progress in {state}: "
                             "run with its settings, or without --match, --config, --position, --turn and "
                             "--opponent, to resume it, or add --new to start a new one (the old journal is kept)")
    if args.new and journal_exists and not os.access(state, os.W_OK):
        raise UsageError(f"cannot set the journal in {state} aside: permission denied")


def _differences(state: Path, setup: SessionSetup, profile: Profile) -> list[str]:
    """What the session `setup` describes differently from the session in progress in
    `state` (its last `session` event): the settings' names, "position"; empty when the
    same session would begin (then it is resumed)."""
    try:
        events = read_journal(state).events
    except JournalError:
        return ["unreadable journal"]
    sessions = [event for event in events if isinstance(event, ev.NewSession)]
    if not sessions:
        return ["no session"]
    now = sessions[-1]
    _, (wanted,) = setup.table(Sensing(profile.geometry))
    assert isinstance(wanted, ev.NewSession)  # a new table's first event
    config, before = wanted.config, now.config
    differ = sorted(key for key in config.keys() | before.keys() if config.get(key) != before.get(key))
    if (wanted.position_id, wanted.turn, wanted.match_id) != (now.position_id, now.turn, now.match_id):
        differ.append("position")
    return differ


def _interactive(terminal: bool) -> bool:
    """Hands come from stdin at a terminal, and from a pipe (`printf 'p wt\\nq\\n' | bgpi run`)."""
    return terminal or (sys.stdin is not None and not sys.stdin.isatty() and not _stdin_is_null())


def _stdin_is_null() -> bool:
    """Under systemd stdin is /dev/null: no hands, the board runs until stopped."""
    try:
        return os.path.samefile("/dev/null", f"/proc/self/fd/{sys.stdin.fileno()}")
    except (OSError, ValueError, AttributeError):
        return True


def _remote(args: argparse.Namespace, settings: RunSettings) -> RemoteSettings | None:
    """The remote game the arguments (over the settings file's [remote]) name; None for
    none; UsageError for a fault."""
    file = settings.remote
    game, side = args.remote or file.get("game"), args.side or file.get("side")
    if game is None:
        if args.side or args.broker:
            raise UsageError("--side and --broker are for a remote game: give --remote GAME too")
        return None
    if not isinstance(game, str) or GAME_ID.fullmatch(game) is None:
        raise UsageError(f"--remote {game!r}: a game ID is 1 to 64 letters, digits, - and _")
    if side not in ("white", "black"):
        raise UsageError("--remote GAME needs --side white or --side black: the side played at this board")
    return RemoteSettings(game, Side.parse(side), broker_of(args, file))


def _new_session(args: argparse.Namespace, settings: RunSettings, remote: RemoteSettings | None = None) -> _NewSession:
    """The new session the arguments (over the settings file) describe; UsageError for any
    fault in them.  `asked` is only what the command line asks."""
    if args.settings:  # the file's own session settings, named by their place when wrong
        check_config(settings.config({}), f"settings {args.settings} [session]/[money]")
    given = parse_config(args.config, args.match)
    if remote is not None:  # the other board plays the other side
        given["remote"] = remote.side.opponent.label
    given |= {key: getattr(args, key) for key in ("opponent", "opponent_side", "engine")
              if getattr(args, key) is not None}
    if "opponent_side" in given and not (given.get("opponent") or settings.config({}).get("opponent")):
        raise UsageError("--opponent-side says which side the computer plays: give --opponent gnubg too")
    if args.position is None:
        if args.turn is not None:
            raise UsageError("--turn says who is on roll in --position; give --position too")
        return _NewSession(SessionSetup(check_config(settings.config(given))), bool(given))
    recorded = _recorded(args.position)
    if recorded is not None:
        if args.turn is not None or "match" in given:
            raise UsageError("--position FILE takes the player on roll and the match length from the "
                             "record: leave out --turn and --match")
        return _NewSession(SessionSetup(check_config(settings.config(given)), recorded), True)
    position, config = _given_position(args, given)
    return _NewSession(SessionSetup(check_config(settings.config(config)), position), True)


def _given_position(args: argparse.Namespace, given: dict[str, Any]) -> tuple[BoardPosition, dict[str, Any]]:
    """``--position ID[:MATCHID]`` or ``XGID=...`` with --turn: the position, and the
    session's config with an XGID's Jacoby and beavers; UsageError for any fault."""
    try:
        ids = read_ids(args.position)
        key = ids.key
    except (XgidError, MatchIdError) as error:
        raise UsageError(f"--position: {error}") from None
    config = dict(ids.money) | given  # an XGID's Jacoby and beavers, unless the settings say otherwise
    turn = Side.parse(args.turn) if args.turn else None
    key_turn = None
    if key is not None:
        key_turn = key.dice_owner
        if turn is not None and turn is not key_turn:
            raise UsageError(f"--turn {turn.label} disagrees with the Match ID, which has "
                             f"{key_turn.label} on roll")
        if "match" in config:
            raise UsageError("--position with a Match ID takes the match length from it: "
                             "leave out --match")
    try:
        return BoardPosition(ids.position_id, turn or key_turn or Side.WHITE, ids.match_id), config
    except ScriptLineError as error:
        raise UsageError(f"--position: {error}") from None


def _recorded(text: str) -> BoardPosition | None:
    """``--position FILE.sgf|FILE.mat[#GAME.PLAY]``: the position before that play of that
    game (said in one line); None when `text` names no record (a Position ID)."""
    name, _, where = text.partition("#")
    kind = Path(name).suffix.lower().removeprefix(".")
    if kind not in RECORD_KINDS:
        return None
    game, dot, play = (where or "1.1").partition(".")
    if not (game.isdigit() and play.isdigit() and dot):
        raise UsageError(f"--position {text}: expected FILE.{kind}#GAME.PLAY with two numbers, e.g. {name}#2.5")
    try:
        found = recorded_position(Path(name).read_text(encoding="utf-8-sig"), kind, int(game), int(play))
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"--position: cannot read {name}: {getattr(error, 'strerror', None) or error}") from None
    except RecordFileError as error:
        raise UsageError(f"--position {name}: {error}") from None
    _say(f"practising {name}, {found.describe()}")
    return BoardPosition(found.position_id, found.turn, found.match_id)
