"""The guided switch walk (`bgpi diag walk`): checker by checker, which switches should
close, and what it means when others do.

For each location the builder puts checkers down one at a time, then takes them all
off: after n checkers exactly slots 0..n-1 of that location should read closed and
nothing else on the board.  Comparing each settled frame with that names stuck-open
switches, swapped channels and magnets that close a neighbour; `WalkReport` sums it
up.  Pure: frames in, text out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bgpi.board.locations import Location, describe
from bgpi.board.profile import CHANNELS, Geometry, SensorWiring, Switch
from bgpi.hardware.frames import Frame, SwitchTest, closed_switches, frame_of


@dataclass(frozen=True)
class WalkStep:
    """After this step `checkers` stand on `location` (and nothing anywhere else)."""

    location: Location
    checkers: int
    expected: Frame

    def instruction(self) -> str:
        where = describe(self.location)
        if self.checkers == 0:
            return f"take every checker off {where}"
        return f"put checker {self.checkers} on {where}"


def walk_steps(wiring: SensorWiring, geometry: Geometry,
               locations: Iterable[Location]) -> list[WalkStep]:
    """The steps for `locations`: each filled one checker at a time, then emptied."""
    steps = []
    for location in locations:
        for count in range(1, geometry.slots(location) + 1):
            switches = [Switch(location, slot) for slot in range(count)]
            steps.append(WalkStep(location, count, frame_of(switches, wiring)))
        steps.append(WalkStep(location, 0, 0))
    return steps


def differences(expected: Frame, seen: Frame, wiring: SensorWiring) -> list[str]:
    """What `seen` gets wrong against `expected`, one line each; [] if it is right.

    One switch missing and one extra at once reads as the checker seen at the wrong
    switch: swapped wiring, or a magnet closing the neighbour instead.
    """
    missing = list(closed_switches(expected & ~seen, wiring))
    extra = list(closed_switches(seen & ~expected, wiring))
    if len(missing) == 1 and len(extra) == 1:
        wrong = (f"{missing[0]} read as {extra[0]} ({_channel(missing[0], wiring)} and "
                 f"{_channel(extra[0], wiring)}): swapped wires, or the magnet closes the wrong switch")
        return [wrong]
    return ([f"{switch} did not close ({_channel(switch, wiring)}): stuck open, or not wired"
             for switch in missing]
            + [(f"{switch} closed too ({_channel(switch, wiring)}): a magnet reaching it, or "
                "its channel wired to this switch") for switch in extra])


def _channel(switch: Switch, wiring: SensorWiring) -> str:
    mux, channel = divmod(wiring.index(switch), CHANNELS)
    return f"mux {mux} channel {channel}"


@dataclass
class WalkReport:
    """The walk's observations; `lines` is what to print at the end."""

    wiring: SensorWiring
    steps: int = 0
    wrong: int = 0
    test: SwitchTest = field(init=False)
    _walked: Frame = 0
    _closed: Frame = 0

    def __post_init__(self) -> None:
        self.test = SwitchTest(self.wiring)

    def observe(self, step: WalkStep, seen: Frame) -> list[str]:
        """Record the frame `seen` after `step`; return its differences."""
        self.steps += 1
        self.test.observe(step.expected, seen)
        self._walked |= step.expected
        self._closed |= seen
        found = differences(step.expected, seen, self.wiring)
        self.wrong += bool(found)
        return found

    def lines(self) -> list[str]:
        """The summary: faulty switches, silent multiplexers, and the count of steps."""
        lines = [f"walk: {fault}" for fault in self.test.faults()]
        for mux in range(len(self.wiring.signal)):
            mask = ((1 << CHANNELS) - 1) << (mux * CHANNELS)
            if self._walked & mask and not self._closed & mask:
                lines.append(f"walk: no switch of mux {mux} ever closed: is it plugged in and "
                             "powered (3.3 V, E to ground)? An absent multiplexer reads like an "
                             "empty board")
        lines.append(f"walk: {self.steps} steps, {self.steps - self.wrong} read as expected")
        return lines
