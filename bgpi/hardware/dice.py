"""Electronic dice: fair rolls from the operating system, shown as pips on the dice LEDs."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping

from bgpi.hardware.leds import Colour, Leds
from bgpi.hardware.profile import DICE, LedConfig

RandBelow = Callable[[int], int]
"""randbelow(n): a uniform integer 0 <= k < n."""

PIP_PATTERNS: dict[int, tuple[int, ...]] = {
    1: (3,),
    2: (0, 6),
    3: (0, 3, 6),
    4: (0, 1, 5, 6),
    5: (0, 1, 3, 5, 6),
    6: (0, 1, 2, 4, 5, 6),
}
"""The pips lit for each face, numbered as the profile lists a die's seven LEDs:
0 top-left, 1 top-right, 2 middle-left, 3 centre, 4 middle-right, 5 bottom-left,
6 bottom-right."""

ROLL_FRAMES = 8
FRAME_SECONDS = 0.06


def roll(randbelow: RandBelow = secrets.randbelow) -> tuple[int, int]:
    """Two dice, each uniform on 1..6 (from `secrets`: unpredictable, not seedable)."""
    return randbelow(6) + 1, randbelow(6) + 1


def tumble(final: tuple[int, int], frames: int = ROLL_FRAMES,
           randbelow: RandBelow = secrets.randbelow) -> list[tuple[int, int]]:
    """The faces a roll animation shows: `frames - 1` random ones, then `final`.

    Consecutive faces of a die differ, so every frame visibly moves.
    """
    faces = []
    shown = final
    for _ in range(frames - 1):
        # randbelow(5) picks one of the five faces other than the one shown.
        shown = tuple((face + randbelow(5)) % 6 + 1 for face in shown)  # type: ignore[assignment]
        faces.append(shown)
    faces.append(final)
    return faces


def dice_indices(config: LedConfig, faces: tuple[int, int]) -> tuple[int, ...]:
    """The LED indices that show `faces` on the two dice of `config`."""
    return tuple(config.targets[die][pip]
                 for die, face in zip(DICE, faces) for pip in PIP_PATTERNS[face])


def dice_lights(leds: Leds, faces: tuple[int, int], colour: Colour) -> dict[int, Colour]:
    """LED index -> colour lighting `faces` on the two dice."""
    return dict.fromkeys(dice_indices(leds.config, faces), colour)


def show_roll(leds: Leds, final: tuple[int, int], colour: Colour,
              around: Mapping[int, Colour] | None = None,
              frame_seconds: float = FRAME_SECONDS,
              sleep: Callable[[float], None] = time.sleep) -> None:
    """Tumble the dice on the LEDs for a moment, then leave `final` showing.

    `around` (LED index -> colour) stays lit on the rest of the board meanwhile.
    """
    for faces in tumble(final):
        leds.show({**(around or {}), **dice_lights(leds, faces, colour)})
        sleep(frame_seconds)
