"""The page in a process of its own (issue 33): it serves the board's page, carries its
hands to the board and back, and whatever becomes of it, the board plays on."""

from __future__ import annotations

import json
import multiprocessing
import os
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from bgpi.hardware.board import SIM
from bgpi.hardware.profile import load_profile
from bgpi.shell.service import BoardService, ServiceSettings
from bgpi.table import events as ev
from bgpi.web.bridge import MAX_PENDING, Bridge, Request
from bgpi.web.page import BoardPage, PageSettings
from bgpi.web.process import ForwardingBridge, PageProcess


@contextmanager
def served(tmp_path: Path, said: list[str] | None = None):
    """A simulated board scanned live, its page served (port 0) by the page's process; what
    the board says goes to `said`."""
    profile = load_profile()
    page = BoardPage(PageSettings(port=0), profile.geometry, tmp_path)
    stop = threading.Event()
    say = (said if said is not None else []).append
    with open(os.devnull, "w") as out, BoardService(ServiceSettings(SIM, profile, tmp_path, seed=3), stop,
                                                      page, say=say, out=out) as service:
        live = threading.Thread(target=service.run)
        live.start()
        try:
            yield service, page
        finally:
            stop.set()
            live.join(timeout=30)


def call(page: BoardPage, path: str, body: str | None = None) -> tuple[int, dict]:
    assert page.url is not None
    request = urllib.request.Request(page.url + path.lstrip("/"), data=None if body is None else body.encode())
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_page_is_served_by_another_process_which_ends_with_the_board(tmp_path):
    with served(tmp_path) as (service, page):
        children = multiprocessing.active_children()
        assert [child.name for child in children] == ["bgpi-page"]
        assert call(page, "api/state")[1]["phase"] == "setup"
        status, answer = call(page, "api/actions", json.dumps({"lift": 6}))
        assert status == 200 and answer["events"] == []  # a lift in the setup says nothing
        assert service.runner is not None and service.runner.board.hands is not None
        assert service.runner.board.hands.checkers(6) == 4
        status, answer = call(page, "api/actions", json.dumps({"lift": 3}))
        assert status == 409 and answer["problems"] == ["line 1: cannot lift 1 from point 3: there is no checker there"]
        status, answer = call(page, "api/session", json.dumps({"config": {"match": 3}}))
        assert status == 200 and answer["events"] == [{"event": "session", "config": {"match": 3}}]
        assert call(page, "api/state")[1]["match_length"] == 3
    assert not children[0].is_alive()
    assert (tmp_path / "journal.1.jsonl").exists()  # the page's new session set the journal aside


def serving(page: BoardPage) -> multiprocessing.process.BaseProcess:
    """The page's process now: read from the board's side, not waited for from here (the
    board waits for it to end, and two waits for one process race for its exit code)."""
    assert page._server is not None and page._server._process is not None
    return page._server._process


def served_again(page: BoardPage, child: multiprocessing.process.BaseProcess) -> dict:
    """The page's state once another process than `child` serves it again."""
    give_up = time.monotonic() + 30
    while time.monotonic() < give_up:
        if serving(page) is not child:
            try:
                return call(page, "api/state")[1]
            except (urllib.error.URLError, ConnectionError):
                pass  # not yet listening: the board binds the port again only after its pause
        threading.Event().wait(0.1)
    raise AssertionError("the page is not served again")


def test_the_board_plays_on_when_the_pages_process_dies_and_serves_its_page_again(tmp_path):
    said: list[str] = []
    with served(tmp_path, said) as (service, page):
        before = call(page, "api/state")[1]["checkers"]
        child = serving(page)
        child.kill()
        runner = service.runner
        assert runner is not None
        frames = runner.frames
        assert runner.board.hands is not None
        runner.board.hands.lift(6)  # hands at the board: still scanned, heard and shown
        while runner.frames < frames + 100:
            threading.Event().wait(0.05)
        assert runner.board.hands.checkers(6) == 4
        # The page comes back at the same address, showing the board as it is now.
        state = served_again(page, child)
        assert page._bridge is not None and page._bridge.view is not None
        assert state["checkers"] == page._bridge.view["checkers"] != before
        assert "the page's process ended (exit code -9): serving the page again in 1 s" in said
        # Ended again soon after it started: the next pause is twice as long.
        child = serving(page)
        child.kill()
        served_again(page, child)
        assert said[-1] == "the page's process ended (exit code -9): serving the page again in 2 s"
    assert service.stop.is_set()
    assert multiprocessing.active_children() == []


def test_an_address_the_pages_process_cannot_bind_is_an_oserror_as_the_page_opens(tmp_path):
    profile = load_profile()
    page = BoardPage(PageSettings(port=0, listen="192.0.2.1"), profile.geometry, tmp_path)  # not this machine's
    with pytest.raises(OSError, match="ssign"):  # cannot assign requested address
        page.open((), lambda runner, config: None, print)
    assert multiprocessing.active_children() == []


def sent_to_the_board() -> tuple[ForwardingBridge, list[tuple]]:
    sent: list[tuple] = []
    return ForwardingBridge(sent.append, sessions=True), sent


def test_the_pages_process_forwards_at_most_max_pending_requests():
    bridge, sent = sent_to_the_board()
    answers: list[tuple] = []
    requests = [Request((), lambda caused, problem: answers.append((caused, problem))) for _ in range(MAX_PENDING + 1)]
    assert [bridge.submit(request) for request in requests] == [True] * MAX_PENDING + [False]  # the last: a 503
    assert [message[:2] for message in sent] == [("request", number) for number in range(MAX_PENDING)]
    started = ev.NewSession({"match": 3})
    bridge.settle(0, [started], None)
    assert answers == [([started], None)] and requests[0].events == [started]
    assert bridge.submit(requests[-1])  # a place is free again
    bridge.settle(0, [], None)  # settled already: nothing
    assert len(answers) == 1


def test_a_cancelled_request_is_cancelled_on_the_board_too():
    bridge, sent = sent_to_the_board()
    request = Request((), lambda caused, problem: None)
    bridge.submit(request)
    request.cancel("the page went away")
    assert sent[-1] == ("cancel", 0, "the page went away")


def test_the_pages_view_and_streams_are_fed_from_the_board():
    bridge, _ = sent_to_the_board()
    heard: list[tuple] = []
    bridge.feed([], {"phase": "setup"})
    assert bridge.view == {"phase": "setup"}
    bridge.listener = lambda events, view: heard.append((events, view))
    bridge.feed([ev.NewSession({})], {"phase": "opening"})
    assert heard == [([ev.NewSession({})], {"phase": "opening"})] and bridge.view == {"phase": "opening"}
    assert ForwardingBridge(lambda message: None, sessions=False).start_session is None  # the page says so


def test_a_page_slow_to_read_costs_the_board_one_view_and_the_events(tmp_path):
    """What the scan loop hands over while the page's process reads nothing is kept as one
    message: every event, and the latest view only."""
    page = PageProcess(Bridge(), load_profile().geometry, "127.0.0.1", [0], None, tmp_path, print)  # never started
    heard = [ev.Start(f"{number}") for number in range(1000)]
    for number, event in enumerate(heard):
        page._hear([event], {"view": number})
    page._answer(("done", 0, [], None))
    messages, stopping = page._outbox()
    assert messages == [("heard", heard, {"view": 999}), ("done", 0, [], None)] and not stopping
