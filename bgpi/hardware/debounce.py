"""Debouncing reed switches across frames (pure: counts frames, reads no clock)."""

from __future__ import annotations

from collections import deque

from bgpi.exc import HardwareSettingError
from bgpi.hardware.frames import Frame


class Debouncer:
    """Accepts a switch's change only once it read the same in `frames` consecutive frames.

    A checker sliding over a reed switch makes it chatter; at the default 200 Hz scan and
    two frames, a change is accepted 5-10 ms after it settles.  The first frame is
    accepted as it is: there is no earlier state to hold on to.
    """

    def __init__(self, frames: int = 2) -> None:
        if frames < 1:
            raise HardwareSettingError(f"frames must be at least 1, got {frames}")
        self._recent: deque[Frame] = deque(maxlen=frames)
        self._stable: Frame | None = None

    @property
    def stable(self) -> Frame:
        """The accepted state of every switch (0 before the first frame)."""
        return self._stable or 0

    def update(self, frame: Frame) -> Frame:
        """Add the newest raw frame; return the accepted state of every switch."""
        self._recent.append(frame)
        if frame == self._stable:  # agrees with the accepted state: changes none of it (an idle board)
            return frame
        if self._stable is None:
            self._stable = frame
            return frame
        if len(self._recent) == self._recent.maxlen:
            all_closed = all_open = -1
            for recent in self._recent:
                all_closed &= recent
                all_open &= ~recent
            # Keep the old state except where every recent frame agrees on the other one.
            self._stable = (self._stable | all_closed) & ~all_open
        return self._stable
