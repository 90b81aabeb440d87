"""The sessions kept in a state directory, numbered for `bgpi export --session N`.

A state directory holds the current journal (``journal.jsonl``) and the journals set
aside by ``bgpi run --new`` or a new session from the page (``journal.1.jsonl``,
``journal.2.jsonl``, ...); a journal may also hold several sessions, when a new match
or money session was chosen with the board's buttons (a `session` event in the middle).
`sessions` numbers them all from 1, oldest first: set-aside journals in their order,
then the current one, each split at its `session` events.  The last is the current
session.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bgpi.shell.journal import JOURNAL_NAME, read_journal
from bgpi.table import events as ev

_SET_ASIDE = re.compile(r"journal\.(\d+)\.jsonl")


@dataclass(frozen=True)
class KeptSession:
    """One session: its number, the journal file holding it and its events (the first
    its `session` event), and the damaged lines skipped in that file."""

    number: int
    file: str
    events: tuple[dict[str, Any], ...]
    problems: tuple[str, ...]

    @property
    def practice(self) -> bool:
        """Whether the session starts from a practice position."""
        return "position_id" in self.events[0]

    @property
    def games(self) -> int:
        return sum(1 for event in self.events if event.get("event") == ev.Start.kind)

    def describe(self) -> str:
        """"3: a match to 5, 2 games (journal.2.jsonl)"."""
        head = self.events[0]
        config = head.get("config") or {}
        kind = f"a match to {config['match']}" if config.get("match") else "money play"
        if self.practice:
            kind = f"practice position {head['position_id']}" + (
                f" (Match ID {head['match_id']})" if "match_id" in head else "")
        return f"{self.number}: {kind}, {self.games} game{'s' if self.games != 1 else ''} ({self.file})"


def sessions(state_dir: Path) -> list[KeptSession]:
    """Every session kept in `state_dir`, oldest first, numbered from 1.

    Raises JournalError when a journal cannot be read."""
    state_dir = Path(state_dir)
    aside = sorted((int(match[1]), path.name) for path in state_dir.glob("journal.*.jsonl")
                   if (match := _SET_ASIDE.fullmatch(path.name)))
    found: list[KeptSession] = []
    for name in [name for _, name in aside] + [JOURNAL_NAME]:
        read = read_journal(state_dir, name)
        starts = [i for i, event in enumerate(read.events) if event.get("event") == ev.NewSession.kind]
        for at, end in zip(starts, [*starts[1:], len(read.events)], strict=False):
            found.append(KeptSession(len(found) + 1, name, read.events[at:end], read.problems))
    return found
