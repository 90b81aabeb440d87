"""Colours of the board's LEDs, as the table chooses them and the LED chain shows them."""

from __future__ import annotations

Colour = tuple[int, int, int]
"""Red, green, blue, each 0..255, at full scale: the LED chain applies the profile's
brightness cap and current budget (`bgpi.hardware.leds.limit_frame`)."""

DARK: Colour = (0, 0, 0)
"""An LED that is off."""
