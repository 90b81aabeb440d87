"""The runner's first job: each frame read into the counts the core is fed.

`Switches` keeps what the board's switches read: the last raw frame, the debounced one
(a co-processor's come debounced already), the switches found flapping, which are read
from their neighbours from then on (`bgpi.hardware.flapping`), and the checkers counted
per location (`bgpi.hardware.frames.CheckerCounter`).  An idle frame, where the debounced
switches stand, costs the debouncer's update and one comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgpi.board.profile import SensorWiring, Switch
from bgpi.hardware.board import Board
from bgpi.hardware.debounce import Debouncer
from bgpi.hardware.flapping import Flapping, FlapWatch
from bgpi.hardware.frames import CheckerCounter, Frame, closed_switches
from bgpi.table.tracker import Counts, Sensing


@dataclass(frozen=True)
class Change:
    """The debounced switches changed from `before` (None: the first frame) to `after`;
    `faults` are the switches found flapping with this change."""

    before: Frame | None
    after: Frame
    faults: list[Flapping]


class Switches:
    """A board's switches as the core is fed them; see the module docstring."""

    def __init__(self, board: Board) -> None:
        wiring = board.profile.sensors
        self.wiring = wiring
        # A co-processor reports switches already debounced: once more would only cost a frame.
        self.debouncer = Debouncer(1 if board.debounced else wiring.debounce_frames)
        self.flaps = FlapWatch.for_wiring(wiring)
        self.counter = CheckerCounter(wiring, board.profile.geometry)
        self.raw: Frame | None = None
        """The last frame read."""
        self.stable: Frame | None = None
        """The debounced frame the core was last fed; None before the first (or for a new table)."""
        self.counts: Counts | None = None
        """The counts the core was last fed."""

    @property
    def settled(self) -> bool:
        """True when the last frame read is the debounced one: no checker is on its way."""
        return self.stable is not None and self.raw == self.stable

    def read(self, raw: Frame, frame: int) -> Change | None:
        """Frame number `frame` read `raw`: the change it brings to the debounced switches, if any."""
        self.raw = raw
        stable = self.debouncer.update(raw)
        if stable == self.stable:
            return None
        before, self.stable = self.stable, stable
        return Change(before, stable, self.flaps.update(stable, frame))

    def counted(self, sensing: Sensing) -> Counts | None:
        """The checkers the debounced switches count now (a flapping switch read from its
        neighbours), if they differ from those the core was last fed."""
        assert self.stable is not None  # counted after a change only
        counts = sensing.counts(self.counter.counts(self.flaps.mend(self.stable)))
        if counts == self.counts:
            return None
        self.counts = counts
        return counts

    def forget(self) -> None:
        """A new table: the next frame is fed to it as the first."""
        self.stable = self.counts = None


def changed_switches(before: Frame, after: Frame, wiring: SensorWiring) -> list[tuple[Switch, bool]]:
    """The switches that differ between two frames, each with whether it is closed now,
    by location name and slot (the order a recording lists them in)."""
    closed_before, closed_after = set(closed_switches(before, wiring)), set(closed_switches(after, wiring))
    changed = sorted(closed_before ^ closed_after, key=lambda switch: (str(switch.location), switch.slot))
    return [(switch, switch in closed_after) for switch in changed]
