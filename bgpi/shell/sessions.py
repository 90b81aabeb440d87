"""The sessions kept in a state directory, numbered for `bgpi export --session N`.

A state directory holds the current journal (``journal.jsonl``) and the journals set
aside by ``bgpi run --new`` or a new session from the page (``journal.1.jsonl``,
``journal.2.jsonl``, ...); a journal may also hold several sessions, when a new match
or money session was chosen with the board's buttons (a `session` event in the middle).
`sessions` numbers them all from 1, oldest first: set-aside journals in their order,
then the current one, each split at its `session` events.  The last is the current
session.  A session whose `session` event the table would refuse (settings the rules
refuse) is listed, with its fault, but gives no games (`KeptSession.fault`).

At most `MAX_SET_ASIDE` set-aside journals are kept: `trim_set_aside` removes the oldest
beyond them (never the current journal), so that a page asking for new sessions without
end cannot fill the disk.  A journal set aside takes the number after the highest
(`next_set_aside`), so the numbers keep their order once the oldest are gone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from bgpi.exc import JournalStartError, RulesError
from bgpi.shell.journal import JOURNAL_NAME, read_journal
from bgpi.table import events as ev
from bgpi.table.state import Setup

_SET_ASIDE = re.compile(r"journal\.(\d+)\.jsonl")
MAX_SET_ASIDE = 50
"""Set-aside journals kept in a state directory (each a `bgpi run --new` or a page's new session)."""


def _set_aside_numbers(state_dir: Path) -> list[int]:
    return sorted(int(match[1]) for path in Path(state_dir).glob("journal.*.jsonl")
                  if (match := _SET_ASIDE.fullmatch(path.name)))


def next_set_aside(state_dir: Path) -> Path:
    """Where the current journal goes when it is set aside: the number after the highest."""
    numbers = _set_aside_numbers(state_dir)
    return Path(state_dir) / f"journal.{numbers[-1] + 1 if numbers else 1}.jsonl"


def trim_set_aside(state_dir: Path, keep: int = MAX_SET_ASIDE) -> list[Path]:
    """Remove the oldest set-aside journals beyond `keep`; the paths removed.  Never raises
    (it runs on a thread of its own after a new session): what it cannot remove stays."""
    removed = []
    numbers = _set_aside_numbers(state_dir)
    for number in numbers[: max(0, len(numbers) - keep)]:
        path = Path(state_dir) / f"journal.{number}.jsonl"
        try:
            path.unlink()
        except OSError:
            continue
        removed.append(path)
    return removed


@dataclass(frozen=True)
class KeptSession:
    """One session: its number, the journal file holding it, its `session` event and the
    events after it, and the damaged lines skipped in that file."""

    number: int
    file: str
    head: ev.NewSession
    played: tuple[ev.Event, ...]
    problems: tuple[str, ...]

    @property
    def events(self) -> tuple[ev.Event, ...]:
        """The session's events, its `session` event first."""
        return (self.head, *self.played)

    @property
    def practice(self) -> bool:
        """Whether the session starts from a practice position."""
        return self.head.position_id is not None

    @property
    def games(self) -> int:
        return sum(1 for event in self.played if isinstance(event, ev.Start))

    @property
    def fault(self) -> str | None:
        """Why the session cannot be read (a damaged `session` line: settings the rules
        refuse, a bad practice ID), as a resumed table would refuse it; None when it can."""
        try:
            Setup.of(self.head)
        except RulesError as error:
            return str(error)
        return None

    def describe(self) -> str:
        """"3: a match to 5, 2 games (journal.2.jsonl)"."""
        head = self.head
        match = head.config.get("match")
        kind = f"a match to {match}" if match else "money play"
        if self.fault is not None:
            kind = f"a damaged session event ({self.fault})"
        elif "chouette" in head.config:
            kind = "a chouette"
        elif head.position_id is not None:
            kind = f"practice position {head.position_id}" + (
                f" (Match ID {head.match_id})" if head.match_id is not None else "")
        return f"{self.number}: {kind}, {self.games} game{'s' if self.games != 1 else ''} ({self.file})"


def sessions(state_dir: Path) -> list[KeptSession]:
    """Every session kept in `state_dir`, oldest first, numbered from 1; none if it holds
    no journal.  A record of the games: a sound line that is no event is skipped, and its
    `problems` say so, as they say where damage ended a journal.

    Raises JournalError when a journal cannot be read, JournalStartError (saying what is
    wrong with them) when there are journals but no session in them."""
    found: list[KeptSession] = []
    empty: list[str] = []
    for name in [f"journal.{number}.jsonl" for number in _set_aside_numbers(state_dir)] + [JOURNAL_NAME]:
        read = read_journal(state_dir, name, skip_non_events=True)
        problems = (*read.problems, *filter(None, [read.damage]))
        starts = [at for at, event in enumerate(read.events) if isinstance(event, ev.NewSession)]
        if not starts and (Path(state_dir) / name).exists():
            empty.append(f"{Path(state_dir) / name} holds no session event"
                         + (f": {'; '.join(problems)}" if problems else " (it is empty)" if not read.events else ""))
        for at, end in zip(starts, [*starts[1:], len(read.events)], strict=False):
            head = read.events[at]
            assert isinstance(head, ev.NewSession)
            found.append(KeptSession(len(found) + 1, name, head, read.events[at + 1:end], problems))
    if not found and empty:
        raise JournalStartError("; ".join(empty))
    return found
