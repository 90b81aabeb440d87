"""Issue 21: nothing a page sends keeps the board from starting again, and a journal whose
settings cannot be honoured now (no engine for its computer opponent) still resumes."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from bgpi.engine import LEVELS, parse_opponent
from bgpi.hardware.board import SIM
from bgpi.hardware.profile import load_profile
from bgpi.shell import sdnotify
from bgpi.shell.boardfile import BOARD_FILE
from bgpi.shell.journal import SPARE_NAME, Journal, journal_path, read_journal
from bgpi.shell.service import BoardService, ServiceSettings, SessionSetup
from bgpi.table import events as ev

NO_ENGINE_OPPONENT = {"opponent": "gnubg", "engine": "none"}


def start(tmp_path, env: dict | None = None) -> subprocess.Popen:
    command = [sys.executable, "-m", "bgpi", "run", "--board", "sim", "--state", str(tmp_path), "--seed", "3",
               "--port", "0"]
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=os.environ | {"NOTIFY_SOCKET": ""} | (env or {}))


def stop(service: subprocess.Popen) -> int:
    service.send_signal(signal.SIGTERM)
    service.wait(timeout=20)
    return service.returncode


def post(url: str, path: str, body: bytes) -> tuple[int, dict]:
    request = urllib.request.Request(url + path, data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def page_url(first_line: str) -> str:
    return first_line.rsplit("its page: ", 1)[1].strip()


@pytest.mark.slow
def test_a_page_cannot_write_a_session_the_board_cannot_open_and_the_board_starts_again(tmp_path):
    service = start(tmp_path)
    try:
        url = page_url(service.stderr.readline())
        status, answer = post(url, "api/session", json.dumps({"config": NO_ENGINE_OPPONENT}).encode())
    finally:
        assert stop(service) == 0
    assert status == 409 and "the computer opponent needs an engine" in answer["problems"][0]
    assert "opponent" not in read_journal(tmp_path).events[0].config
    again = start(tmp_path)
    try:
        assert "its page:" in again.stderr.readline()
    finally:
        assert stop(again) == 0


@pytest.mark.slow
def test_a_journal_whose_opponent_has_no_engine_resumes_played_by_hand(tmp_path):
    """As on a Pi where gnubg went missing after an update: the board starts, says so in one
    line (and in systemd's STATUS=), and black's buttons are black's again."""
    journal = Journal.open(tmp_path)
    journal.append(ev.NewSession(NO_ENGINE_OPPONENT))
    journal.close()
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(str(tmp_path / "notify"))
        systemd.settimeout(20)
        service = start(tmp_path, {"NOTIFY_SOCKET": str(tmp_path / "notify")})
        try:
            first = service.stderr.readline()
            assert first == ("bgpi run: the computer opponent has no engine (no engine: none is configured): "
                             "black plays by hand\n")
            assert "its page:" in service.stderr.readline()
            statuses = []
            while not any("scanning at" in line for line in statuses):
                statuses.append(systemd.recv(4096).decode())
        finally:
            assert stop(service) == 0
    assert any(line.startswith("STATUS=") and line.endswith("black plays by hand") for line in statuses)
    running = next(line for line in statuses if "scanning at" in line)
    assert running.endswith("; the computer opponent has no engine (no engine: none is configured): "
                            "black plays by hand")
    assert read_journal(tmp_path).events[0].config == NO_ENGINE_OPPONENT  # kept, for when gnubg is back


def service(tmp_path, config: dict) -> BoardService:
    settings = ServiceSettings(SIM, load_profile(None), tmp_path, SessionSetup(config), seed=1)
    return BoardService(settings, threading.Event(), out=io.StringIO())


def test_resumed_without_an_engine_the_lights_show_it_and_black_is_played_by_hand(tmp_path):
    journal = Journal.open(tmp_path)
    journal.append(ev.NewSession(NO_ENGINE_OPPONENT))
    journal.close()
    said = []
    settings = ServiceSettings(SIM, load_profile(None), tmp_path, seed=1)
    with BoardService(settings, threading.Event(), say=said.append, out=io.StringIO()) as board:
        table = board.runner.table
        assert not table.computers
        assert table.state.advice.hint_failed is not None  # the "no engine" look
        assert any("black plays by hand" in line for line in said)
    assert not sdnotify._standing  # withdrawn once that board closed


# -- issue 2: a new session from the page takes its own engine settings --------------------


def test_a_new_session_takes_the_opponents_level_and_coach_without_a_restart(tmp_path):
    with service(tmp_path, {"engine": "module"}) as board:
        board.start_session({"engine": "module", "opponent": "gnubg:expert", "coach": 0.1})
        assert board.runner.computer.advise.computer == parse_opponent("gnubg:expert")
        assert board.runner.table.computers
        assert board.runner.table.state.setup.coach == 0.1
        board.start_session({"engine": "module", "opponent": "gnubg:beginner"})
        assert board.runner.computer.advise.computer == parse_opponent("gnubg:beginner")
        assert board.runner.table.state.setup.coach is None
        board.start_session({"engine": "none", "hint_level": "beginner"})
        advisor = board.runner.computer.advise
        assert advisor.kind == "none" and not advisor.engine.available
        assert advisor.hint == LEVELS["beginner"] and not board.runner.table.computers


# -- issue 7: the state is its owner's only -------------------------------------------------


def test_the_state_directory_journal_and_board_file_are_the_owners_only(tmp_path):
    state = tmp_path / "state"
    with service(state, {}) as board:
        board.start_session({"match": 3})
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    assert stat.S_IMODE(journal_path(state).stat().st_mode) == 0o600
    assert stat.S_IMODE((state / BOARD_FILE).stat().st_mode) == 0o600


@pytest.fixture(autouse=True)
def _umask():
    """The usual umask of someone running the board by hand."""
    old = os.umask(0o022)
    yield
    os.umask(old)


# -- 9: set-aside sessions are bounded, the current one is never lost --------------------------


def test_set_aside_sessions_are_bounded_and_keep_their_order(tmp_path, monkeypatch):
    from bgpi.shell import sessions as kept

    monkeypatch.setattr(kept, "MAX_SET_ASIDE", 3)
    monkeypatch.setattr(kept.trim_set_aside, "__defaults__", (3,))
    with service(tmp_path, {}) as board:
        for match in range(1, 8):
            board.start_session({"match": match})
        deadline = time.monotonic() + 10
        while len(set_aside(tmp_path)) > 3 and time.monotonic() < deadline:
            time.sleep(0.05)  # trimmed on a thread of its own
        assert set_aside(tmp_path) == ["journal.5.jsonl", "journal.6.jsonl", "journal.7.jsonl"]
        found = kept.sessions(tmp_path)
        assert [session.head.config for session in found] == [
            {"match": 4}, {"match": 5}, {"match": 6}, {"match": 7}]  # the current one last, kept
    assert read_journal(tmp_path).events[0].config == {"match": 7}


def set_aside(state) -> list[str]:
    return sorted(path.name for path in state.glob("journal.[0-9]*.jsonl"))


def test_a_new_session_uses_the_spare_journal_and_a_power_cut_before_its_renames_settle_loses_nothing(tmp_path):
    """The spare journal, made ready off the scan frame, becomes the journal with two renames;
    if a power cut undid them, the next start finds the spare with the session's events in it."""
    with service(tmp_path, {}) as board:
        for thread in board._readying:
            thread.join()
        spare = board._spare
        assert spare is not None and (tmp_path / SPARE_NAME).exists()
        board.start_session({"match": 5})
        assert board._journal is spare and spare.path == journal_path(tmp_path)
    assert read_journal(tmp_path).events[0].config == {"match": 5}
    # The power cut: the directory as it was before the renames.
    os.rename(journal_path(tmp_path), tmp_path / SPARE_NAME)
    os.rename(tmp_path / "journal.1.jsonl", journal_path(tmp_path))
    said = []
    settings = ServiceSettings(SIM, load_profile(None), tmp_path, seed=1)
    with BoardService(settings, threading.Event(), say=said.append, out=io.StringIO()) as board:
        assert board.runner.table.config == {"match": 5}
    assert any("not yet settled on the disk" in line for line in said)
    assert read_journal(tmp_path, "journal.1.jsonl").events[0].config == {}
