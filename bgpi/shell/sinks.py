"""Where the table log goes: the journal's gate first, then the sinks, in order.

Every event a `bgpi.shell.runner.TableRunner` emits (the table's, the shell's own
``sensor_fault``, a session's opening) goes first to its `Gate`, the journal: nothing
shows an event before it is on the disk, and through a full disk play pauses until it
is (`JournalGate`, over `bgpi.shell.diskfull.append_patiently`).  Then it goes to each
`Sink`, in the order they were registered: `bgpi run` registers the simulated checkers'
file (`bgpi.shell.boardfile.BoardFile`), the page, the console's words or the JSON lines
(`JsonLines`), and in a remote game the other board's log topic
(`bgpi.remote.game.LogTopic`).  A new reader of the table log is one more sink.

>>> import io
>>> from bgpi.table import events as ev
>>> out = io.StringIO()
>>> JsonLines(out).hear(ev.HintOff())
>>> out.getvalue()
'{"event": "hint_off"}\\n'
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TextIO

from bgpi.exc import JournalError
from bgpi.shell.diskfull import append_patiently
from bgpi.shell.journal import Journal
from bgpi.table import events as ev


class Sink(Protocol):
    """A reader of the table log: it hears each event once it is journaled, in order."""

    def hear(self, event: ev.Event) -> None:
        """One event, journaled; returns at once."""
        ...


class Gate(Protocol):
    """The journal, before every sink: an event it does not keep is shown nowhere."""

    def keep(self, event: ev.Event) -> bool:
        """Journal `event`; False if it could not be kept (the board is stopping)."""
        ...


class JournalGate:
    """`bgpi run`'s gate: each event appended to `journal` however long the disk refuses
    it (`append_patiently`: `pause` at the first refusal, `go_on` once it is written),
    until `stop` is set."""

    def __init__(self, journal: Journal, stop: threading.Event, pause: Callable[[JournalError], None],
                 go_on: Callable[[], None]) -> None:
        self.journal = journal
        """The session's journal: a new session's replaces it."""
        self._stop, self._pause, self._go_on = stop, pause, go_on

    def keep(self, event: ev.Event) -> bool:
        return append_patiently(lambda: self.journal.append(event), self._stop, self._pause, self._go_on)


@dataclass(frozen=True)
class Journaled:
    """`bgpi replay`'s gate: each event appended to `journal`; a refused write stops the
    replay (JournalError), where nobody waits for the disk."""

    journal: Journal

    def keep(self, event: ev.Event) -> bool:
        self.journal.append(event)
        return True


class JsonLines:
    """Each event as a line of JSON on `out` (``bgpi run --json``, or a pipe)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def hear(self, event: ev.Event) -> None:
        self.out.write(json.dumps(event.to_json()) + "\n")
        self.out.flush()


@dataclass(frozen=True)
class FunctionSink:
    """A function as a sink: `bgpi replay`'s output, a test's list of events."""

    call: Callable[[ev.Event], None]

    def hear(self, event: ev.Event) -> None:
        self.call(event)
