"""Flapping switches: a reed switch that changes faster than hands can move checkers.

A chattering switch (a cracked reed, a loose wire, a floating signal line) survives the
debouncer now and then, and each change it gets through looks like a checker lifted or
put down.  `FlapWatch` counts each switch's accepted changes over a sliding window of
frames; a switch that changes more than a hand can make it change is a sensor fault.
From then on its reading is replaced by what its neighbours say (`FlapWatch.mend`), so
that the rest of the board can still be read.

Pure: frames in, faults out; time is counted in frames, as the debouncer counts it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from bgpi.board.locations import Location
from bgpi.board.profile import SensorWiring, Switch
from bgpi.exc import HardwareSettingError
from bgpi.hardware.frames import Frame

WINDOW_S = 3.0
"""The window changes are counted over, in seconds of board time."""
HAND_CHANGES = 20
"""The most changes hands make one switch go through in `WINDOW_S`: lifting and putting
down the same checker more than three times a second, for three seconds on end (a quick
hand manages two or three).  More is a fault."""


@dataclass(frozen=True)
class Flapping:
    """A switch found flapping: `changes` accepted changes within `frames` frames."""

    switch: Switch
    changes: int
    frames: int

    def __str__(self) -> str:
        return f"{self.switch}: flapping ({self.changes} changes in {self.frames} frames)"


class FlapWatch:
    """Watches the debounced frames of one board for switches that flap.

    Feed every accepted (debounced) frame that changed to `update`, with its frame number
    (board time in frames); it returns the switches found flapping in that frame, each
    once.  A flapping switch stays faulty for as long as the
    watch lives (until the board restarts): a switch that flapped once cannot be trusted.
    """

    def __init__(self, wiring: SensorWiring, window: int, limit: int = HAND_CHANGES) -> None:
        """`window` frames; more than `limit` changes within them is flapping."""
        if window < 1 or limit < 1:
            raise HardwareSettingError(f"window and limit must be at least 1, got {window} and {limit}")
        self.wiring = wiring
        self.window = window
        self.limit = limit
        self.faulty: dict[int, Flapping] = {}
        """The flapping switches by frame index."""
        self._mask = 0
        self._previous: Frame | None = None
        # Frame numbers of each switch's recent changes; never more than limit + 1 of them.
        self._changes: dict[int, deque[int]] = {}
        self._above: dict[int, int] = {}
        """For each switch, the mask of the switches further in under the same location."""
        slots: dict[Location, dict[int, int]] = {}
        for index, switch in wiring.connected():
            slots.setdefault(switch.location, {})[switch.slot] = index
        for by_slot in slots.values():
            for slot, index in by_slot.items():
                self._above[index] = sum(1 << other for higher, other in by_slot.items() if higher > slot)

    @classmethod
    def for_wiring(cls, wiring: SensorWiring) -> FlapWatch:
        """A watch over `WINDOW_S` at the wiring's scan rate."""
        return cls(wiring, max(1, round(WINDOW_S * wiring.scan_hz)))

    def update(self, frame: Frame, at: int) -> list[Flapping]:
        """Count the changes from the previous frame to `frame`, scanned at frame number
        `at`; the switches newly found flapping."""
        previous, self._previous = self._previous, frame
        if previous is None:
            return []
        changed = (previous ^ frame) & ~self._mask
        found = []
        while changed:
            bit = changed & -changed
            changed ^= bit
            index = bit.bit_length() - 1
            recent = self._changes.setdefault(index, deque(maxlen=self.limit + 1))
            recent.append(at)
            if len(recent) == recent.maxlen and at - recent[0] < self.window:
                switch = self.wiring.switches[index]
                if switch is None:
                    continue  # an unconnected channel: nothing reads it
                fault = Flapping(switch, len(recent), at - recent[0] + 1)
                self.faulty[index] = fault
                self._mask |= bit
                del self._changes[index]
                found.append(fault)
        return found

    def mend(self, frame: Frame) -> Frame:
        """`frame` with each flapping switch read from its neighbours: closed if a switch
        further in under its location is closed (checkers stand side by side from the
        outer edge), open otherwise.  A checker on a flapping switch at the end of its
        row is missed: the table finds the board one short there, and says so."""
        for index in self.faulty:
            bit = 1 << index
            frame = frame | bit if frame & self._above[index] else frame & ~bit
        return frame
