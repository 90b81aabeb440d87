"""The board service: a new session asked for by the page brings its own engine settings
(issue 18: the previous session's engine stayed until a restart)."""

from __future__ import annotations

import io
import threading

import pytest

from bgpi.engine import LEVELS
from bgpi.exc import ServiceError
from bgpi.hardware.board import SIM
from bgpi.hardware.profile import load_profile
from bgpi.shell.journal import read_journal
from bgpi.shell.service import BoardService, ServiceSettings, SessionSetup
from bgpi.table import events as ev


def service(tmp_path, config: dict) -> BoardService:
    settings = ServiceSettings(SIM, load_profile(None), tmp_path, SessionSetup(config), seed=1)
    return BoardService(settings, threading.Event(), out=io.StringIO())


def test_a_new_session_takes_its_strengths_and_keeps_an_engine_of_the_same_kind(tmp_path):
    with service(tmp_path, {"engine": "none"}) as board:
        first = board.runner.computer.advise
        board.start_session({"engine": "none", "hint_level": "expert", "coach": 0.04})
        advisor = board.runner.computer.advise
        assert advisor.hint == LEVELS["expert"] and first.hint != advisor.hint
        assert advisor.engine is first.engine
        assert board.runner.table.config == {"engine": "none", "hint_level": "expert", "coach": 0.04}
    session = read_journal(tmp_path).events[0]
    assert isinstance(session, ev.NewSession) and session.config["hint_level"] == "expert"
    assert (tmp_path / "journal.1.jsonl").exists()


def test_a_new_session_with_another_kind_of_engine_opens_it(tmp_path):
    with service(tmp_path, {"engine": "none"}) as board:
        first = board.runner.computer.advise
        board.start_session({"engine": "module"})
        assert board.runner.computer.advise.kind == "module" and board.runner.computer.advise.engine is not first.engine


def test_a_computer_opponent_without_an_engine_is_refused_and_the_session_goes_on(tmp_path):
    with service(tmp_path, {"engine": "none"}) as board:
        table = board.runner.table
        with pytest.raises(ServiceError, match="the computer opponent needs an engine"):
            board.start_session({"engine": "none", "opponent": "gnubg"})
        assert board.runner.table is table
    assert not (tmp_path / "journal.1.jsonl").exists()
