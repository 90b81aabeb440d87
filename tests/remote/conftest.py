"""A real MQTT broker for the tests: Debian's mosquitto on 127.0.0.1, on a free port.

`mosquitto` is an anonymous broker that lets anybody publish anything (as a public
one); `mosquitto_login` one that takes only the user `BROKER_USER` with the password
`BROKER_PASSWORD` (a password file made by mosquitto_passwd); `mosquitto_docs` one
configured as docs/remote.md says (`bgpi.remote.acl`: its settings, and game `GAME`'s
access rules for the users of `DOCS_USERS`: each board's, and a watcher's).  Each is a
`Mosquitto`: `port`, `kill()` (SIGKILL, as a crash), `start()` again on the same port
(its config stays in tmp_path), `log` (its log file, for a failing test's message).
Each is stopped at the end of the test.  Tests that need them are skipped where
/usr/sbin/mosquitto is not installed (.ci/run installs it).

Other test folders use it with ``from tests.remote.conftest import mosquitto  # noqa: F401``,
or by starting `Mosquitto(tmp_path)` themselves.
"""

from __future__ import annotations

import os
import pwd
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bgpi.remote.acl import BROKER_SETTINGS, game_rules

MOSQUITTO = Path("/usr/sbin/mosquitto")
BROKER_USER = "board"
BROKER_PASSWORD = "kalamata-2026"
GAME = "g1"
DOCS_USERS = {"white-board": "w-pass-1", "black-board": "b-pass-2", "club": "c-pass-3", "mallory": "m-pass-4",
              "trudy": "t-pass-5"}
"""The users of the broker configured as the docs say: white's board, black's, a watcher,
and two users of the broker with no rules for the game (another game's, say)."""
START_S = 10.0  # how long a broker may take to listen on a loaded machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Mosquitto:
    """One broker process, which can be killed and started again on the same port."""

    host = "127.0.0.1"

    def __init__(self, folder: Path, users: dict[str, str] | None = None, rules: str | None = None) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.log = folder / "mosquitto.log"
        self.config = folder / "mosquitto.conf"
        # `user`: run as root (as CI does) mosquitto would otherwise become the user mosquitto,
        # who cannot read tmp_path; as anyone else the line changes nothing.
        lines = [f"listener {self.port} {self.host}", f"user {pwd.getpwuid(os.getuid()).pw_name}",
                 "persistence false", f"log_dest file {self.log}", "log_type all"]
        if users:
            passwords = folder / "passwords"
            for number, (user, password) in enumerate(users.items()):
                create = ["-c"] if number == 0 else []
                subprocess.run(["mosquitto_passwd", *create, "-b", str(passwords), user, password], check=True)
            if rules is None:
                lines += ["allow_anonymous false", f"password_file {passwords}"]
            else:  # the docs' settings, with this folder's files
                acl = folder / "bgpi.acl"
                acl.write_text(rules)
                lines += BROKER_SETTINGS.replace("/etc/mosquitto/passwd", str(passwords)) \
                    .replace("/etc/mosquitto/bgpi.acl", str(acl)).splitlines()
        else:
            lines.append("allow_anonymous true")
        self.config.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the broker and return once it listens."""
        self.process = subprocess.Popen([str(MOSQUITTO), "-c", str(self.config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        give_up = time.monotonic() + START_S
        while time.monotonic() < give_up:
            if self.process.poll() is not None:
                log = self.log.read_text()[-2000:] if self.log.exists() else "no log"
                raise RuntimeError(f"mosquitto exited ({self.process.returncode}): {log}")
            try:
                socket.create_connection((self.host, self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port} within {START_S} s")

    def kill(self) -> None:
        """SIGKILL: the broker vanishes as in a crash (its clients' connections drop)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None


def _broker(folder: Path, users: dict[str, str] | None = None, rules: str | None = None) -> Iterator[Mosquitto]:
    if not MOSQUITTO.exists():
        pytest.skip("Debian's mosquitto is not installed (apt-get install mosquitto)")
    broker = Mosquitto(folder, users, rules)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    """An anonymous broker on 127.0.0.1."""
    yield from _broker(tmp_path / "mosquitto")


@pytest.fixture
def mosquitto_login(tmp_path: Path) -> Iterator[Mosquitto]:
    """A broker that takes only BROKER_USER with BROKER_PASSWORD."""
    yield from _broker(tmp_path / "mosquitto-login", {BROKER_USER: BROKER_PASSWORD})


@pytest.fixture
def mosquitto_docs(tmp_path: Path) -> Iterator[Mosquitto]:
    """A broker configured as docs/remote.md says, for game GAME: white's board logs in as
    white-board, black's as black-board, a watcher as club; mallory and trudy have no rules
    for it (passwords: DOCS_USERS)."""
    white, black, watcher, *_ = DOCS_USERS
    yield from _broker(tmp_path / "mosquitto-docs", DOCS_USERS, game_rules(GAME, white, black, [watcher]))
