"""The page in a process of its own: no load on the page can slow the scan.

Python threads share one interpreter lock.  Served on a thread beside the scan loop, a
page under a flood of requests held that lock half the time, and was preempted by the
machine while holding it: the scan waited whole time slices for it (issue 33:
benchmarks/scanload.py).  So the server (`bgpi.web.server`) runs in a child process,
at a lower priority than the board (`PAGE_NICE`), and the board's process keeps only
the `Bridge`, which its scan loop feeds as before.  Two threads of the board's process
carry the bridge's traffic over a pipe, and hold the lock only for what the board
itself makes, never for what a client sends:

* ``bgpi-page-out`` sends what the listener hears (the events and each new view) and the
  answers to the page's requests.  The page's process handles each message before it
  reads the next; while it is slow to, what the board hands over waits as one message
  (every event, the latest view only): a page that cannot keep up costs the board a view;
* ``bgpi-page-in`` takes the page's requests (board-script lines, at most
  `bgpi.web.bridge.MAX_PENDING` at once: the page's process counts them too) and their
  cancellations, and submits them to the bridge.

The board's process binds the page's port (so that its address is known, and a busy
or forbidden one said, at once) and hands the socket to the page's process, which
serves on it once it has started (importing aiohttp takes seconds on a Pi Zero: the
board does not wait for it; connections made meanwhile wait in the socket's backlog).
In the page's process a `ForwardingBridge` stands in for the bridge: its view and its
listener are fed from the pipe, and a request submitted to it is forwarded.  The page's
process ends when the pipe closes (the board stopped, or died), and ignores Ctrl-C,
which is the board's to hear.

If the page's process ends while the board runs (killed, out of memory, a fault of its
own), the board says so and starts another on the same port after a pause (`PAUSES`:
twice as long each time one ends within a minute, so that a process that keeps ending
costs the board, in the end, a line a minute); the new one is handed the latest view.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bgpi.board.profile import Geometry
from bgpi.shell.script import Action
from bgpi.table import events as ev
from bgpi.web import page_url
from bgpi.web.bridge import MAX_PENDING, Bridge, NewSession, Request

PAGE_NICE = 10
"""How much lower the page's process runs than the board's: on a busy machine the scan
comes first."""

STOP_SECONDS = 5.0
"""How long the page's process may take to end its connections once the board stops."""

PAUSES = (1.0, 60.0)
"""How long the board waits before starting the page's process again: the first, after one
that served longer than the last (a minute); twice the last pause otherwise, up to it."""

Lines = tuple[Action | NewSession, ...]


class ForwardingBridge(Bridge):
    """The bridge as the page's process sees it: `view` and the listener are fed by
    `feed` (from the board's process), and a submitted request is forwarded to the
    board's bridge by `send`; `done` comes back through `settle`."""

    def __init__(self, send: Callable[[tuple[Any, ...]], None], sessions: bool) -> None:
        super().__init__(start_session=_on_the_board if sessions else None)
        self._send = send
        self._waiting: dict[int, Request] = {}
        self._numbers = itertools.count()

    def submit(self, request: Request) -> bool:
        """Forward `request`; False when `MAX_PENDING` requests already wait."""
        with self._count_lock:
            if len(self._waiting) >= MAX_PENDING:
                return False
            number = next(self._numbers)
            self._waiting[number] = request
        request.on_cancel = lambda reason: self._send(("cancel", number, reason))
        self._send(("request", number, request.lines))
        return True

    def feed(self, heard: list[ev.Event], view: dict[str, Any]) -> None:
        """What the board's bridge told its listener."""
        self.view = view
        if self.listener is not None:
            self.listener(heard, view)

    def settle(self, number: int, caused: list[ev.Event], problem: str | None) -> None:
        """The board carried out request `number` (or gave it up)."""
        with self._count_lock:
            request = self._waiting.pop(number, None)
        if request is not None:
            request.events[:] = caused
            request.done(caused, problem)


def _on_the_board(runner: object, config: dict[str, Any]) -> None:
    raise AssertionError("a new session is started by the board's process")  # never called here


def serve_page(board: Connection, bridge_sessions: bool, geometry: Geometry, sock: socket.socket, host: str,
               token: str | None, state_dir: Path) -> None:
    """The page's process: serve on `sock` (bound to `host` by the board's process) and
    carry the bridge's traffic until `board` closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(PAGE_NICE)
    from bgpi.web.server import WebServer  # aiohttp: only in this process

    bridge = ForwardingBridge(board.send, bridge_sessions)
    server = WebServer(bridge, geometry, host, sock.getsockname()[1], token, state_dir, sock)
    try:
        server.start()
    except OSError as error:  # the board plays on without its page
        print(f"bgpi run: the page cannot be served: {error.strerror or error}", file=sys.stderr, flush=True)
        return
    try:
        while (message := board.recv())[0] != "stop":
            # Each handled before the next is read: a page too busy to keep up lets the
            # pipe fill, and the board's side keeps only the latest view (`PageProcess`).
            if message[0] == "heard":
                server.call_and_wait(bridge.feed, message[1], message[2])
            elif message[0] == "done":
                server.call_and_wait(bridge.settle, message[1], message[2], message[3])
    except (EOFError, OSError):
        pass  # the board has stopped
    finally:
        server.stop()


def bind(host: str, ports: list[int]) -> socket.socket:
    """A socket listening on `host` at the first of `ports` no other program holds (0: a
    free one); OSError if none can be bound."""
    for port in ports:
        try:
            return socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET,
                                        backlog=128)
        except OSError as error:
            if port == ports[-1] or error.errno != errno.EADDRINUSE:
                raise
    raise OSError(errno.EINVAL, "no port to serve on")


class PageProcess:
    """The board's side of the page's process: start it (`start`), carry the bridge's
    traffic, start it again if it ends (saying so with `say`), stop it (`stop`)."""

    def __init__(self, bridge: Bridge, geometry: Geometry, host: str, ports: list[int], token: str | None,
                 state_dir: Path, say: Callable[[str], None]) -> None:
        self.bridge = bridge
        self.port = ports[0]
        self.url = ""
        self._host, self._ports, self._token = host, ports, token
        self._geometry, self._state_dir = geometry, state_dir
        self._say = say
        self._context = multiprocessing.get_context("spawn")  # never fork a process with threads
        self._connection: Connection | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        self._started = 0.0
        self._pause = PAUSES[0]
        self._stop = threading.Event()
        self._spawning = threading.Lock()
        """Held while a process is started, and while `stop` is set: none starts after it."""
        self._lock = threading.Lock()
        self._ready = threading.Event()
        """Set when there is something to send (`_outbox`)."""
        self._heard: list[ev.Event] = []
        self._view: dict[str, Any] | None = None
        self._answers: list[tuple[Any, ...]] = []
        self._requests: dict[int, Request] = {}
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        """Bind the page's port (its address is `url` then) and start the page's process,
        which serves on it once it has started: the board does not wait for it.  OSError
        if no port can be bound, or no process started."""
        sock = bind(self._host, self._ports)
        self.port = sock.getsockname()[1]
        self.url = page_url(self._host, self.port, self._token)
        self._spawn(sock)
        self.bridge.listener = self._hear
        for target, name in ((self._send, "bgpi-page-out"), (self._receive, "bgpi-page-in")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def _spawn(self, sock: socket.socket) -> None:
        """Start a page's process serving on `sock`, and its pipe."""
        ours, theirs = self._context.Pipe()
        process = self._context.Process(
            target=serve_page, name="bgpi-page", daemon=True,
            args=(theirs, self.bridge.start_session is not None, self._geometry, sock, self._host, self._token,
                  self._state_dir))
        try:
            process.start()
        finally:
            sock.close()  # the process has its own
            theirs.close()
        self._connection, self._process, self._started = ours, process, time.monotonic()

    def _serve_again(self) -> bool:
        """The page's process has ended while the board runs: say so, and after a pause
        start another on the same port, handed the latest view.  False (and the board plays
        on without its page) when the board is stopping or the port cannot be bound."""
        process, connection = self._process, self._connection
        assert process is not None and connection is not None
        process.join()
        connection.close()
        if self._stop.is_set():
            return False
        pause = PAUSES[0] if time.monotonic() - self._started > PAUSES[1] else self._pause
        self._pause = min(2 * pause, PAUSES[1])
        code = "" if process.exitcode is None else f" (exit code {process.exitcode})"  # None: another waited for it
        self._say(f"the page's process ended{code}: serving the page again in {pause:.0f} s")
        if self._stop.wait(pause):
            return False
        with self._spawning:
            if self._stop.is_set():
                return False
            try:
                self._spawn(bind(self._host, [self.port]))
            except OSError as error:
                self.bridge.listener = None  # nothing more kept for a page gone
                self._say(f"the page cannot be served again: {error.strerror or error}")
                return False
        if self.bridge.view is not None:
            self._hear([], self.bridge.view)
        return True

    def _hear(self, heard: list[ev.Event], view: dict[str, Any]) -> None:
        """The bridge's listener (on the scan loop's thread): kept for the sender, the view
        in place of one not yet sent, so that a page slow to read costs the board one view."""
        with self._lock:
            self._heard += heard
            self._view = view
        self._ready.set()

    def _answer(self, message: tuple[Any, ...]) -> None:
        with self._lock:
            self._answers.append(message)
        self._ready.set()

    def _outbox(self) -> tuple[list[tuple[Any, ...]], bool]:
        """What there is to send, taken; and whether to stop after it."""
        self._ready.wait()
        with self._lock:
            self._ready.clear()
            messages = [] if self._view is None else [("heard", self._heard, self._view)]
            messages += self._answers  # after the view: an answer's events are on the page by then
            self._heard, self._view, self._answers = [], None, []
            return messages, self._stop.is_set()

    def _send(self) -> None:
        stopping = False
        while not stopping:
            messages, stopping = self._outbox()
            connection = self._connection
            assert connection is not None
            try:
                for message in messages:
                    connection.send(message)
                if stopping:
                    connection.send(("stop",))
            except OSError:  # the page's process is gone: what was for it goes with it
                pass

    def _receive(self) -> None:
        while True:
            connection = self._connection
            assert connection is not None
            try:
                while True:
                    message = connection.recv()
                    if message[0] == "request":
                        self._forward(message[1], message[2])
                    elif message[0] == "cancel" and (request := self._requests.get(message[1])) is not None:
                        request.cancel(str(message[2]))
            except (EOFError, OSError):
                pass  # the page's process is gone, or `stop` closed the pipe
            if not self._serve_again():
                return

    def _forward(self, number: int, lines: Lines) -> None:
        def done(caused: list[ev.Event], problem: str | None) -> None:  # on the scan loop's thread
            self._requests.pop(number, None)
            self._answer(("done", number, caused, problem))

        request = Request(lines, done)
        self._requests[number] = request
        if not self.bridge.submit(request):  # never, while the page counts as the bridge does
            done([], "the board's hands are busy with other requests: try again in a moment")

    def stop(self) -> None:
        """End the page's process (its streams, its connections) and the threads that talk to it."""
        self.bridge.listener = None
        with self._spawning:
            self._stop.set()
        self._ready.set()
        process = self._process
        if process is not None:
            process.join(timeout=STOP_SECONDS)
            if process.is_alive():
                process.kill()
                process.join()
        for thread in self._threads:  # the pipe's other end is closed now: they end
            thread.join(timeout=STOP_SECONDS)
        if self._connection is not None:
            self._connection.close()
