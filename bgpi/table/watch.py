"""Whether the board shows the game: an unexplained board's grace, and the mismatch.

Checkers are knocked, hands hover, a switch chatters: a board that does not read as
the game is tolerated for `GRACE` seconds of board time before play pauses with a
``mismatch`` (what is missing, what is extra), and a board that reads right again ends
a mismatch at once (``restored``).
"""

from __future__ import annotations

from bgpi.board.locations import Location, describe
from bgpi.table import events as ev
from bgpi.table.events import Emit
from bgpi.table.state import Board, TableState

GRACE = 1.5
"""Seconds of board time an unexplained board is tolerated before play pauses."""

STEADY = 0.5
"""Seconds a board must read right on end to end an unexplained spell: a chattering
switch that reads right now and then does not start the grace period anew each time."""

class Watch:
    """The part of the table that watches the board against the game.

    Reads the board (`now`, `seen`) and the position (the roll's partial play while
    moving); changes `state.trouble`; emits ``mismatch`` and ``restored``."""

    def __init__(self, state: TableState, board: Board, emit: Emit) -> None:
        self.state, self.board, self.emit = state, board, emit

    def settle(self, explained: bool) -> None:
        """Start or stop the grace period of an unexplained board.

        A board that reads right again ends a mismatch at once, but ends an unexplained
        spell only once it has read right for `STEADY` on end (`check`)."""
        trouble = self.state.trouble
        if not explained:
            trouble.explained_since = None
            if trouble.unexplained_since is None:
                trouble.unexplained_since = self.board.now
        elif trouble.mismatch is not None:
            trouble.mismatch = trouble.unexplained_since = trouble.explained_since = None
            self.emit(ev.Restored())
        elif trouble.unexplained_since is not None and trouble.explained_since is None:
            trouble.explained_since = self.board.now

    def check(self) -> None:
        """Board time went on: end a steady spell, or pause play once the grace is over."""
        trouble, now = self.state.trouble, self.board.now
        if trouble.explained_since is not None:
            if now - trouble.explained_since + 1e-9 >= STEADY:
                trouble.unexplained_since = trouble.explained_since = None
            return  # reading right now: no mismatch
        if trouble.unexplained_since is None or trouble.mismatch is not None:
            return
        if now - trouble.unexplained_since + 1e-9 < GRACE:
            return
        moving = self.state.moving
        expected = moving.node.position if moving is not None else self.state.position
        self.pause(*self.board.sensing.difference(self.board.seen or (), self.board.expected(expected)))

    def pause(self, missing: dict[Location, int], extra: dict[Location, int], reason: str | None = None) -> None:
        """Pause play: the board shows what the game cannot explain.  One checker short or
        one too many on one location is most often a checker resting between two of its
        marks (it closes no slot, or two: hardware/sensors.md), or a faulty switch: the
        hint says which location to push a checker on."""
        hint = None
        if reason is None and sum(missing.values()) + sum(extra.values()) == 1:
            where = describe(next(iter(missing or extra)))
            hint = (f"a checker should stand on {where}: push it onto a mark there (between two marks it closes "
                    "no switch); if it stands on one, a switch under it may be faulty" if missing else
                    f"one checker too many on {where}: if none was put there, one stands between two marks: "
                    "push it onto a mark")
        self.state.trouble.mismatch = mismatch = ev.Mismatch(missing, extra, hint, reason)
        self.emit(mismatch)

    def deadlines(self) -> list[float]:
        """The board times at which a Tick alone ends a grace period or a steady spell."""
        trouble = self.state.trouble
        found = []
        if trouble.unexplained_since is not None and trouble.mismatch is None:
            found.append(trouble.unexplained_since + GRACE)
        if trouble.explained_since is not None:
            found.append(trouble.explained_since + STEADY)
        return found
