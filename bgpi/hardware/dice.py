"""Electronic dice: fair rolls from the operating system, shown as pips on the dice LEDs."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bgpi.board.colours import Colour
from bgpi.board.pips import PIP_PATTERNS
from bgpi.board.profile import DICE, LedConfig

RandBelow = Callable[[int], int]
"""randbelow(n): a uniform integer 0 <= k < n."""

ROLL_FRAMES = 8
FRAME_SECONDS = 0.06


def roll(randbelow: RandBelow = secrets.randbelow) -> tuple[int, int]:
    """Two dice, each uniform on 1..6 (from `secrets`: unpredictable, not seedable)."""
    return randbelow(6) + 1, randbelow(6) + 1


def tumble(final: tuple[int, int], frames: int = ROLL_FRAMES,
           randbelow: RandBelow = secrets.randbelow) -> list[tuple[int, int]]:
    """The faces a roll animation shows: `frames - 1` random ones, then `final`.

    Consecutive faces of a die differ, the last random one from `final` too, so every
    frame visibly moves.
    """
    faces = [final]
    first, second = final
    for _ in range(frames - 1):
        # randbelow(5) picks one of the five faces other than the one shown; drawn
        # backwards from `final`, so that the step onto it moves as well.
        first, second = (first + randbelow(5)) % 6 + 1, (second + randbelow(5)) % 6 + 1
        faces.append((first, second))
    return faces[::-1]


def dice_indices(config: LedConfig, faces: tuple[int, int]) -> tuple[int, ...]:
    """The LED indices that show `faces` on the two dice of `config`."""
    return tuple(config.targets[die][pip]
                 for die, face in zip(DICE, faces, strict=True) for pip in PIP_PATTERNS[face])


@dataclass(frozen=True)
class Tumble:
    """A roll's animation on the dice LEDs, in board time: each of `faces` shows for
    `frame_seconds` from `start`.  Nothing waits for it: whoever draws the LEDs asks
    `faces_at` on every frame, so the switches are scanned all the while."""

    start: float
    faces: tuple[tuple[int, int], ...]
    frame_seconds: float = FRAME_SECONDS

    def faces_at(self, now: float) -> tuple[int, int] | None:
        """The faces shown at board time `now`; None once the animation is over."""
        step = int((now - self.start) / self.frame_seconds)
        return self.faces[max(0, step)] if step < len(self.faces) else None

    def over(self, lit: Mapping[int, Colour], config: LedConfig, faces: tuple[int, int],
             colour: Colour) -> dict[int, Colour]:
        """`lit` (LED index -> colour) with the dice showing `faces` instead of what it had."""
        dice = {index for die in DICE for index in config.targets[die]}
        frame = {index: shade for index, shade in lit.items() if index not in dice}
        frame.update(dict.fromkeys(dice_indices(config, faces), colour))
        return frame
