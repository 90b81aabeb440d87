"""What the tests measure the LEDs by: the current a frame draws, the LEDs a roll lights.

Test code: the board itself never needs either (`limit_frame` works in channel steps,
the dice are drawn by `Tumble.over`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bgpi.board.colours import Colour
from bgpi.hardware.dice import dice_indices
from bgpi.hardware.leds import MA_PER_CHANNEL, Leds


def frame_current_ma(colours: Sequence[Colour]) -> float:
    """The current `colours` draw, taking it as linear in each channel's duty."""
    return sum(map(sum, colours)) * MA_PER_CHANNEL / 255


def dice_lights(leds: Leds, faces: tuple[int, int], colour: Colour) -> dict[int, Colour]:
    """LED index -> colour lighting `faces` on the two dice."""
    return dict.fromkeys(dice_indices(leds.config, faces), colour)
