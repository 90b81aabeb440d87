"""Opening a state directory: the journal, and the table it leaves behind, whatever befell it.

A board under systemd must always come back able to play.  `open_state` reads the
journal and resumes the table from the longest run of events that can be trusted and
applied.  When a line is damaged (a flipped byte, garbage, an event the game cannot
take where it stands) the whole journal is set aside, never deleted, the journal goes
on with the good events only, and one line says so, naming the file and the line.
When not even the first event can be used, a new session starts: the checkers are set
up again.  The shell shows the damage on the lights: both bar halves blink red for
`JOURNAL_ALERT_S`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bgpi.shell.journal import Journal, read_journal
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing

JOURNAL_ALERT_S = 10.0
"""Seconds of board time both bar halves blink red after a damaged journal was set aside."""


@dataclass
class Opened:
    """An open journal and what it holds."""

    journal: Journal
    table: Table | None
    """The resumed table; None when there is none to resume (a new session is the caller's)."""
    events: int = 0
    """The events the table was resumed from."""
    notes: list[str] = field(default_factory=list)
    """One line for each thing wrong with the journal and what was done about it."""
    damaged: Path | None = None
    """Where a damaged journal was set aside."""
    history: tuple[ev.Event, ...] = ()
    """The events the table was resumed from (the page tells the session's story from them)."""

    def resumed_event(self) -> ev.Resumed | None:
        """The ``resumed`` event that tells the table log what was read back (None if
        nothing was: a fresh journal)."""
        if self.table is None and not self.notes:
            return None
        return ev.Resumed(self.events, tuple(self.notes))

    def opening(self) -> list[ev.Event]:
        """The events to journal and show first: ``resumed``, then what the journal
        still owes (the ``game_over`` of a game cut short after its last play)."""
        resumed = self.resumed_event()
        owed = self.table.owed() if self.table is not None else []
        return ([] if resumed is None else [resumed]) + owed


def open_state(state_dir: Path, sensing: Sensing) -> Opened:
    """Open (and lock) the journal of `state_dir` and resume its table.

    Raises JournalError only when the journal cannot be read or written at all (a
    directory without permission); damage inside it never stops the board.
    """
    earlier = read_journal(state_dir)
    journal = Journal.open(state_dir)  # repairs a last line cut short: offsets before it hold
    try:
        events = list(earlier.events)
        table, applied = Table.resume_prefix(events, sensing)
        opened = Opened(journal, table, applied, list(earlier.problems), history=tuple(events[:applied]))
        if applied < len(events):
            bad_line: int | None = earlier.lines[applied]
        else:
            bad_line = earlier.damaged
        if bad_line is not None:
            kept = journal.keep_prefix(earlier.ends[applied - 1] if applied else 0)
            outcome = (f"resumed from the {applied} events before it" if table is not None
                       else "a new session: set up the checkers")
            opened.notes.append(f"journal {journal.path} line {bad_line} is damaged: "
                                f"kept as {kept.name}; {outcome}")
            opened.damaged = kept
    except BaseException:
        journal.close()
        raise
    return opened
