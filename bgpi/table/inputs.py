"""What happens at the table, as the controller receives it.

The shell turns switches, buttons, the clock and the dice into these values; the
controller (`bgpi.table.controller.Table.handle`) takes one at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bgpi.table import events as ev
from bgpi.table.phases import Link
from bgpi.table.requests import AdviceRequest
from bgpi.table.tracker import Counts


@dataclass(frozen=True, slots=True)
class Sensed:
    """The debounced switch counts changed."""

    counts: Counts


@dataclass(frozen=True, slots=True)
class Press:
    """A button was pressed: short, or held (`long`)."""

    button: str
    long: bool = False


@dataclass(frozen=True, slots=True)
class Tick:
    """Board time is now `now` seconds."""

    now: float


@dataclass(frozen=True, slots=True)
class Rolled:
    """The dice the shell rolled when the controller asked (`Table.wants_roll`)."""

    first: int
    second: int


@dataclass(frozen=True, slots=True)
class Advised:
    """The engine's answer to the table's request (`Table.wants_advice`, made by
    `bgpi.table.advice`): `answer` as the engine gave it, or `error`, one line saying
    why there is none."""

    request: AdviceRequest
    answer: Mapping[str, Any] | None = None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class RollWanted:
    """The remote player asked for the dice: their board sent the first dice commitment
    of a roll (the shell then runs the dice exchange and feeds `Rolled`)."""


@dataclass(frozen=True, slots=True)
class Remote:
    """The other board committed `event` for its own side (a remote game): a cube
    action, a play, a resignation or its answer, or `RollWanted`.  Checked as a press
    would be (`bgpi.table.remoting`): anything else is refused (``remote_refused``)."""

    event: ev.Event | RollWanted


@dataclass(frozen=True, slots=True)
class LinkChanged:
    """The shell's view of the connection to the other board changed."""

    link: Link


@dataclass(frozen=True, slots=True)
class Join:
    """A latecomer joins a chouette, at the end of the line (between games): the page or a
    script names them, as the buttons cannot."""

    player: str


@dataclass(frozen=True, slots=True)
class Leave:
    """A player leaves a chouette (between games)."""

    player: str


@dataclass(frozen=True, slots=True)
class ComputerUnavailable:
    """The engine the session's computer opponent needs is missing (gnubg removed or
    broken since the journal was written): both sides are played by hand from now on,
    with the "no engine" look a hint without an engine has.  Not journaled, as
    `LinkChanged` is not: the journal keeps the opponent, and the next start with an
    engine has it play again."""


Input = Sensed | Press | Tick | Rolled | Advised | Remote | LinkChanged | ComputerUnavailable | Join | Leave
