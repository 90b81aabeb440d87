"""How a die shows a face: which of its seven LEDs are lit.

The board's electronic dice are two groups of `PIPS` LEDs each, in the profile's order;
the hardware lights them and the table decides what they show, so both read this.
"""

from __future__ import annotations

PIPS = 7
"""LEDs per die: pips 0..6 are top-left, top-right, middle-left, centre, middle-right,
bottom-left, bottom-right."""

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
