"""A live simulated board with its page served on a free port, scanning on a thread of its own."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field

import pytest

from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.shell.boardfile import put_position
from bgpi.shell.journal import Journal
from bgpi.shell.live import run_live
from bgpi.shell.runner import TableRunner
from bgpi.shell.sinks import FunctionSink
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing
from bgpi.web.bridge import Bridge
from bgpi.web.server import WebServer


@dataclass
class Live:
    """A board being scanned in real time, its bridge and its web server."""

    runner: TableRunner
    bridge: Bridge
    server: WebServer
    log: list[ev.Event] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.server.url

    def request(self, method: str, path: str, body: str | None = None,
                headers: dict | None = None) -> tuple[int, dict]:
        """(status, JSON answer) of one request to the server."""
        url = f"http://127.0.0.1:{self.server.port}{path}"
        request = urllib.request.Request(url, method=method, headers=headers or {},
                                         data=None if body is None else body.encode())
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def act(self, *lines: dict, headers: dict | None = None) -> tuple[int, dict]:
        return self.request("POST", "/api/actions", "\n".join(map(json.dumps, lines)), headers)


def start_live(tmp_path, kind: str = "sim", token: str | None = None, config: dict | None = None,
               position: str | None = None):
    """A live board ("sim", or "board": one without hands, as a real one) and its page,
    from the starting position or a practice `position` (a Position ID, white on roll);
    returns it and the function that closes it all."""
    profile = load_profile()
    journal = Journal.open(tmp_path)
    bridge = Bridge()
    log: list[ev.Event] = []

    def emit(event: ev.Event) -> None:
        journal.append(event)
        log.append(event)
        bridge.hear(event)

    sensing = Sensing(profile.geometry)
    table, opening = Table.new(sensing, config or {}, position)
    board = open_sim_board(profile)
    hands = board.hands
    put_position(hands, table.position)
    if kind != "sim":  # a board without hands: the page sees a real one (on mock pins here)
        board.hands = None
    runner = TableRunner(table, board, seed=1, sinks=[FunctionSink(emit)])
    for event in opening:
        emit(event)
    def start_session(runner: TableRunner, config: dict) -> None:  # `bgpi run` also swaps journals
        new, events = Table.new(sensing, config)
        runner.replace_table(new)
        if runner.board.hands is not None:
            put_position(runner.board.hands, new.position)
        for event in events:
            emit(event)

    bridge.start_session = start_session
    server = WebServer(bridge, profile.geometry, port=0, token=token, state_dir=tmp_path)
    server.start()
    stop = threading.Event()
    thread = threading.Thread(target=run_live, args=(runner, stop), kwargs={"after_scan": bridge.after_scan},
                              daemon=True)
    thread.start()
    while bridge.view is None or runner.table.seen is None:  # the first scans
        time.sleep(0.01)
    live = Live(runner, bridge, server, log)

    def close() -> None:
        server.stop()
        stop.set()
        thread.join(timeout=10)
        runner.close()
        journal.close()

    return live, close


@pytest.fixture
def live(tmp_path):
    board, close = start_live(tmp_path)
    yield board
    close()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: an attack or a check that takes seconds (issue 21); "
                                       "-m 'not slow' leaves them out")


# -- the page in a real browser (test_page, test_match) -----------------------------------

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium driven by Playwright, one for each module that asks for it."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def viewport() -> dict[str, int]:
    """The window `page` opens (a module that needs another overrides this)."""
    return {"width": 1280, "height": 860}


@pytest.fixture
def page(browser, live, viewport):
    """The live board's page in a browser window of `viewport`; no script error on it."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live.url)
    page.wait_for_selector("#button-white-turn")
    yield page
    context.close()
    assert errors == []
