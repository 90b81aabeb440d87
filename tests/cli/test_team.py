"""`bgpi team`: its help, a bad match file or broker option as one line, and a run against
a broker that is not there (one line, the page still served), stopped by Ctrl-C."""

from __future__ import annotations

import queue
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bgpi.cli import main
from tests.cli.test_run import bgpi, one_line_exit_2

MATCH = """name = "Club evening"
teams = ["Lions", "Tigers"]

[[pair]]
game = "club-1"
white = "Lions"
length = 5
"""


def test_help_names_the_match_file_and_the_broker() -> None:
    done = bgpi("team", "--help")
    assert done.returncode == 0
    for words in ("MATCHFILE", "--broker HOST[:PORT]", "--broker-password-file", "--export DIR", "two of three"):
        assert words in " ".join(done.stdout.split()), words
    assert "team" in bgpi("--help").stdout


@pytest.mark.parametrize("text, words", [
    (MATCH + MATCH.split("\n\n")[1], "2 pairs: a team match has an odd number"),
    (MATCH.replace('white = "Lions"', 'white = "Bears"'), "pair 1: white 'Bears' is not a team"),
    ("name = ", "not TOML"),
    ("name = " + "[" * 5000 + "]" * 5000, "not TOML this board reads: nested too deeply"),
])
def test_a_bad_match_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                      words: str) -> None:
    match = tmp_path / "match.toml"
    match.write_text(text)
    assert main(["team", str(match), "--broker", "127.0.0.1"]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"bgpi team: {match}: {words}") and said.count("\n") == 1, said


@pytest.mark.parametrize("options, words", [
    (["--broker", "host:port"], "the port must be a number"),
    (["--broker", "host:70000"], "a port is 1 to 65535"),
    (["--broker", "h", "--broker-user", "u", "--broker-password-file", "/nonexistent"], "No such file"),
    (["--broker", "h", "--broker-ca", "/etc/hostname"], "--broker-ca is for --broker-tls"),
    (["--broker", "h", "--export", "/nonexistent"], "--export /nonexistent: no such directory"),
])
def test_a_bad_option_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str],
                                  words: str) -> None:
    match = tmp_path / "match.toml"
    match.write_text(MATCH)
    assert main(["team", str(match), *options]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and said.startswith("bgpi team: ") and words in said, said


def test_a_match_file_that_is_not_there_is_one_line(tmp_path: Path) -> None:
    one_line_exit_2(bgpi("team", str(tmp_path / "missing.toml"), "--broker", "h"), "cannot read")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_broker_that_is_not_there_is_one_line_and_ctrl_c_ends_it(tmp_path: Path) -> None:
    match = tmp_path / "match.toml"
    match.write_text(MATCH)
    broker, page = _free_port(), _free_port()
    process = subprocess.Popen([sys.executable, "-m", "bgpi", "team", str(match), "--broker", f"127.0.0.1:{broker}",
                                "--port", str(page)], stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stderr], daemon=True).start()
    try:
        first, second = lines.get(timeout=30), lines.get(timeout=30)
    finally:
        process.send_signal(signal.SIGINT)
        status = process.wait(timeout=30)
    assert first == f"bgpi team: 'Club evening': 1 pair, the page is at http://127.0.0.1:{page}/\n"
    assert second == f"bgpi team: the broker at 127.0.0.1:{broker} is down or cannot be reached: trying again\n"
    assert status == 0
