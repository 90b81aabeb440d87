"""The bridge between the scan loop and the web server, which run on different threads.

The scan loop owns the table and the board: nothing else touches them.  Once per scan
it calls `Bridge.after_scan`, which carries out the hands the page asked for (one
board-script line at a time, letting board time pass between lines as a script does)
and, when anything the page shows has changed, builds a fresh view (`table_view`) and
hands it, with the events heard since, to the `listener` (the web server, which only
schedules the work on its own event loop: the scan loop never waits for a client).
The web server's thread only ever submits `Request`s and reads `view`, which is
replaced whole, never changed in place.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bgpi.shell.hands import TableHands
from bgpi.shell.runner import TableRunner
from bgpi.shell.script import LINE_SECONDS, Action, Wait
from bgpi.table import events as ev
from bgpi.web.view import table_view
from bgpi.web.words import Story

Listener = Callable[[list[ev.Event], dict[str, Any]], None]
"""Called on the scan loop's thread with the events heard since the last call and the
new view; it must return at once."""
Done = Callable[[list[ev.Event], str | None], None]
"""Called on the scan loop's thread once a request is carried out: the events it caused,
and the problem that stopped it (None if none)."""


@dataclass
class Request:
    """Board-script lines the page asked for, carried out in order between scans.

    `done` is called on the scan loop's thread once the board has settled after the last
    line, with the events they caused and, if a line could not be carried out (lifting
    from an empty point), the problem as ``line N: ...``; the lines after it are skipped.
    """

    lines: tuple[Action | NewSession, ...]
    done: Done
    events: list[ev.Event] = field(default_factory=list)
    next_line: int = 0
    resume_at: int | None = None
    """The scan at which the next line is due."""
    cancelled: str | None = None
    """Why the lines not yet begun are not to be carried out (set by `cancel`, on any thread)."""

    def cancel(self, reason: str) -> None:
        """Carry out no line not begun by now (the asker went away or gave up); `done` is
        still called, with the events caused so far and what was left undone."""
        self.cancelled = reason


@dataclass(frozen=True)
class NewSession:
    """A request's line that starts a new session with `config` (a checked config line)."""

    config: dict[str, Any]
    line: int = 1


MAX_PENDING = 8
"""Requests waiting for the board's hands, the one being carried out included; more are
refused (`Bridge.submit`), so that no queue of them grows without end."""

SessionStarter = Callable[[object, dict[str, Any]], None]
"""Starts a new session with `config` on the runner (on the scan loop's thread); raises
ValueError or OSError with a message for the page if it cannot."""


class Bridge:
    """The page's way into a running table; see the module docstring."""

    def __init__(self, story: Story | None = None, start_session: SessionStarter | None = None) -> None:
        self.story = story if story is not None else Story()
        self.start_session = start_session
        """How this board starts a new session; None if it cannot (the page says so)."""
        self.view: dict[str, Any] | None = None
        """The latest view, replaced whole after each change; None before the first scan."""
        self.listener: Listener | None = None
        self._requests: queue.SimpleQueue[Request] = queue.SimpleQueue()
        self._pending = 0
        """Requests submitted and not yet done."""
        self._count_lock = threading.Lock()
        self._request: Request | None = None
        self._heard: list[ev.Event] = []
        self._shown: tuple[object, ...] = ()

    # -- any thread ------------------------------------------------------------------

    def submit(self, request: Request) -> bool:
        """Queue `request`; requests are carried out one after another, in order.  False
        (and nothing queued) when `MAX_PENDING` requests already wait."""
        with self._count_lock:
            if self._pending >= MAX_PENDING:
                return False
            self._pending += 1
        self._requests.put(request)
        return True

    # -- the scan loop's thread ------------------------------------------------------------

    def hear(self, event: ev.Event) -> None:
        """Every table-log event of the table, as it is emitted (after journaling)."""
        self.story.hear(event)
        self._heard.append(event)
        if self._request is not None:
            self._request.events.append(event)

    def after_scan(self, runner: TableRunner) -> None:
        """Carry out the page's hands that are due, then publish what changed."""
        self._hands(runner)
        table = runner.table
        shown = (table, table.seen, runner.lighting)
        if self._heard or self.view is None or any(a is not b for a, b in zip(shown, self._shown, strict=False)):
            self._shown = shown
            # The simulated board's hands know what lies in its trays, which have no switches.
            hands = runner.board.hands
            self.view = table_view(table, runner.profile.geometry, runner.profile.leds, self.story,
                                   simulated=hands is not None, held=None if hands is None else hands.checkers)
            heard, self._heard = self._heard, []
            if self.listener is not None:
                self.listener(heard, self.view)

    def _hands(self, runner: TableRunner) -> None:
        if self._request is None:
            if self._requests.empty():  # every idle frame: cheaper than raising queue.Empty
                return
            self._request = self._requests.get_nowait()
        request = self._request
        if request.resume_at is None:
            request.resume_at = runner.frames
        while runner.frames >= request.resume_at:
            if request.next_line == len(request.lines):
                self._finish(None)
                return
            line = request.lines[request.next_line]
            if request.cancelled is not None:
                self._finish(f"line {line.line} and the lines after it were not carried out: {request.cancelled}")
                return
            request.next_line += 1
            seconds = line.seconds if isinstance(line, Wait) else LINE_SECONDS
            request.resume_at = runner.frames + max(1, round(seconds / runner.period))
            if isinstance(line, Wait):
                continue
            try:
                if isinstance(line, NewSession):
                    assert self.start_session is not None  # the server asks for none without it
                    self.start_session(runner, line.config)
                    continue
                shown = TableHands(runner).act(line)  # the server asks for hands on a simulated board only
            except (ValueError, OSError) as error:
                self._finish(f"line {line.line}: {error}")
                return
            if shown is not None:
                request.events.append(shown)

    def _finish(self, problem: str | None) -> None:
        request, self._request = self._request, None
        with self._count_lock:
            self._pending -= 1
        if request is not None:
            request.done(request.events, problem)
