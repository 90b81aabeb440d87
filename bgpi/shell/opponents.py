"""Opponents: whoever gives the table decisions and dice from outside the board.

An `Opponent` is a port of the table.  What it has for the table (the engine's answer,
the other board's play, the dice both boards made, the link to the other board) waits
in its own queue until the runner takes it, between two inputs (`take`); and it hears
the events the table committed, once they are journaled (`hear`).  It never calls the
runner and is never handed it: the runner asks, the opponent answers, so an input is
always taken whole before the next one begins.

Two opponents today: the `Computer`, the engine answering the table's requests for
advice (the computer opponent's decisions, hints, the coach), which every runner has;
and the other board of a remote game (`bgpi.remote.game.RemoteGame`), which makes the
dice with this board too (`bgpi.shell.rolling.DiceSource`).  Whoever comes next (a crew
member at another board, an online server) is one more implementation of `Opponent`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Advised, Input
from bgpi.table.requests import AdviceRequest

Advise = Callable[[AdviceRequest], tuple[Mapping[str, Any] | None, str | None]]
"""Answers the table's request for advice: (answer, None) or (None, why not);
`bgpi.shell.advisor.Advisor` is one."""


class Opponent(Protocol):
    """A port of the table; see the module docstring."""

    def take(self, table: Table) -> Input | None:
        """The next input this opponent has for `table` as it stands now, if any; returns
        at once (an engine's answer within its time limit).  `table` is to read, never fed."""
        ...

    def hear(self, events: Sequence[ev.Event], table: Table) -> None:
        """The events `table` committed for one input (never none), once journaled."""
        ...


def no_engine(request: AdviceRequest) -> tuple[None, str]:
    """The answer of a board without an engine."""
    return None, "no engine: none is configured"


class Computer:
    """The engine at the table: it answers each request for advice (`Table.wants_advice`)
    with `advise` as soon as the table asks, once no dice are wanted first."""

    def __init__(self, advise: Advise = no_engine) -> None:
        self.advise = advise
        """The engine's answers: the service puts a new session's advisor here."""

    def take(self, table: Table) -> Advised | None:
        request = table.wants_advice
        if request is None or table.wants_roll is not None:
            return None
        answer, error = self.advise(request)
        return Advised(request, answer, error)

    def hear(self, events: Sequence[ev.Event], table: Table) -> None:
        """The computer needs nothing of the log: it reads the table's requests when asked."""
