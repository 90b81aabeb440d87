"""What a board drops of what it hears, before anything acts on it: counted, said now and then.

Anybody on the broker may publish on a game's topics; the boards trust only each other
(`bgpi.remote.sealing`).  What is not the other board's (forged, of another game, too
big), what it said before (a replay, a resend) and what is of an earlier connection is
dropped unread or unbelieved, never journaled.  A flood of it must not flood the log
either: the first drop is said at once, and then at most one line a minute sums up the
drops since (`DropCount`).  The other board's own resends are normal and counted only.

>>> drops = DropCount()
>>> drops.drop(Dropped(Drop.FORGED, "a message on black's msg topic that is not sealed"), 0.0)
"dropped a message on black's msg topic that is not sealed (what is dropped is counted: a line a minute at most)"
>>> drops.drop(Dropped(Drop.FORGED, "another"), 1.0), drops.drop(Dropped(Drop.TOO_BIG, "a big one"), 2.0)
(None, None)
>>> drops.due(30.0), drops.due(61.0)
(None, 'dropped in the last minute: 1 forged, 1 too big')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum

SAY_EVERY_S = 60.0
"""At most one line of drops this often."""


class Drop(Enum):
    """Why something heard was dropped before anything acted on it."""

    FORGED = "forged"  # not sealed with the other board's key there: another client's, another game's
    TOO_BIG = "too big"  # over the largest payload read: dropped unread
    MALFORMED = "malformed"  # sealed by the other board, but no message of this version
    OLD_PRESENCE = "old presence"  # the other board's, but of an earlier connection: a replay
    REPEATED = "repeated"  # a message this board has already: a resend, or a replay
    TOO_FAR = "too far ahead"  # further ahead of a gap than the peer holds


QUIET = frozenset({Drop.REPEATED})
"""Drops counted and never said: the other board resends what it is not sure arrived."""


@dataclass(frozen=True, slots=True)
class Dropped:
    """Something heard was dropped: `why`, and `line` (what it was) for a person."""

    why: Drop
    line: str


class DropCount:
    """The drops so far (`counts`, by kind), and the lines that say them."""

    def __init__(self) -> None:
        self.counts: Counter[Drop] = Counter()
        self._unsaid: Counter[Drop] = Counter()
        self._said_at: float | None = None

    def drop(self, dropped: Dropped, now: float) -> str | None:
        """Count `dropped` (at `now`, in seconds); the line to say, if one is due."""
        self.counts[dropped.why] += 1
        if dropped.why in QUIET:
            return None
        if self._said_at is None:
            self._said_at = now
            return f"dropped {dropped.line} (what is dropped is counted: a line a minute at most)"
        self._unsaid[dropped.why] += 1
        return self.due(now)

    def due(self, now: float) -> str | None:
        """The line that sums up the drops not yet said, once a minute has passed since the last."""
        if not self._unsaid or self._said_at is None or now - self._said_at < SAY_EVERY_S:
            return None
        self._said_at = now
        kinds = ", ".join(f"{count} {why.value}" for why, count in self._unsaid.most_common())
        self._unsaid.clear()
        return f"dropped in the last minute: {kinds}"
