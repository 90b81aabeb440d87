"""What happens at the table, as the controller receives it.

The shell turns switches, buttons, the clock and the dice into these values; the
controller (`bgpi.table.controller.Table.handle`) takes one at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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


Input = Sensed | Press | Tick | Rolled | Advised
