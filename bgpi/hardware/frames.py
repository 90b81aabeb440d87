"""Frames: the state of every reed switch at one moment, and what they say.

A frame is an int whose bit *i* is set when the switch on frame index *i* (``mux * 16 +
channel``, see `SensorWiring`) is closed, i.e. a checker stands on it.  Everything here is
pure: no clock, no pins.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bgpi.board.locations import Location
from bgpi.board.profile import Geometry, SensorWiring, Switch

Frame = int
"""Bit i set: the switch on frame index i is closed."""


def closed_switches(frame: Frame, wiring: SensorWiring) -> Iterator[Switch]:
    """The connected switches that `frame` reads closed, in index order."""
    for index, switch in wiring.connected():
        if frame >> index & 1:
            yield switch


class CheckerCounter:
    """Turns frames into checker counts per location.

    A count is the number of closed switches under the location, so it is exact up to
    the location's slots; a location reading full means "at least that many".
    """

    def __init__(self, wiring: SensorWiring, geometry: Geometry) -> None:
        self.geometry = geometry
        masks = {location: 0 for location in geometry.sensed()}
        for index, switch in wiring.connected():
            masks[switch.location] |= 1 << index
        self._masks = masks

    def counts(self, frame: Frame) -> dict[Location, int]:
        """Closed switches per sensed location."""
        return {location: (frame & mask).bit_count() for location, mask in self._masks.items()}

    def is_full(self, location: Location, count: int) -> bool:
        """True if `count` saturates `location`: the real number may be higher."""
        return count >= self.geometry.slots(location)


@dataclass(frozen=True)
class SwitchFault:
    """A switch that did not read what it should have."""

    switch: Switch
    kind: str
    """"stuck closed", "stuck open" or "unreliable"."""
    wrong: int
    """Observations in which it read wrong."""
    observed: int
    """Observations in which its state was known."""

    def __str__(self) -> str:
        if self.kind == "unreliable":
            return f"{self.switch}: unreliable (read wrong {self.wrong} of {self.observed} times)"
        return f"{self.switch}: {self.kind}"


class SwitchTest:
    """Compares what switches should read with what they read, and names the faulty ones.

    Feed it pairs (expected frame, seen frame), e.g. an empty board's frames against 0,
    or a walk that closes one switch after another.  A switch that read closed in every
    observation where it should have been open is stuck closed; the other way round,
    stuck open; any other wrong reading makes it unreliable (a cross-wired or floating
    line).
    """

    def __init__(self, wiring: SensorWiring) -> None:
        self.wiring = wiring
        self._mask = sum(1 << index for index, _ in wiring.connected())
        # Per switch index: [expected open, read closed then, expected closed, read open then]
        self._tally: dict[int, list[int]] = {index: [0, 0, 0, 0] for index, _ in wiring.connected()}

    def observe(self, expected: Frame, seen: Frame) -> None:
        """Record one frame `seen` while the switches in `expected` were closed."""
        wrong = (expected ^ seen) & self._mask
        for index, tally in self._tally.items():
            bit = 1 << index
            side = 2 if expected & bit else 0
            tally[side] += 1
            if wrong & bit:
                tally[side + 1] += 1

    def faults(self) -> list[SwitchFault]:
        """Every switch that read wrong at least once, in index order."""
        faults = []
        for index, (should_open, read_closed, should_close, read_open) in self._tally.items():
            wrong = read_closed + read_open
            if not wrong:
                continue
            switch = self.wiring.switches[index]
            assert switch is not None
            if read_closed == should_open and not read_open:
                kind = "stuck closed"
            elif read_open == should_close and not read_closed:
                kind = "stuck open"
            else:
                kind = "unreliable"
            faults.append(SwitchFault(switch, kind, wrong, should_open + should_close))
        return faults


def frame_of(switches: Iterable[Switch], wiring: SensorWiring) -> Frame:
    """The frame in which exactly `switches` are closed."""
    frame = 0
    for switch in switches:
        frame |= 1 << wiring.index(switch)
    return frame
