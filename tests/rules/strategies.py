"""Random positions: hypothesis strategies and a seeded generator for oracle corpora."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from bgpi.rules.ids import board_problems
from bgpi.rules.position import CHECKERS, Position, Side


def scatter(rng: random.Random, home_bias: float = 0.0) -> Position:
    """A random position that can occur: each side's 15 checkers spread over
    points, bar and tray, never two colours on one point.  `home_bias` is the
    chance that a white checker is put in white's home board (for bear-offs)."""
    white = [0] * 25
    black = [0] * 25
    for _ in range(CHECKERS):
        if rng.random() < home_bias:
            location = rng.randint(0, 6)  # 0 is borne off
        else:
            location = rng.choice([0] + [rng.randint(1, 24)] * 6 + [25])
        if location:
            white[location - 1] += 1
    for _ in range(CHECKERS):
        location = rng.choice([0] + [rng.randint(1, 24)] * 6 + [25])
        if location == 25:
            black[24] += 1
        elif location and not white[24 - location]:  # black's point q is white's 25 - q
            black[location - 1] += 1
    if board_problems((tuple(black), tuple(white))):  # both on the bar against closed boards
        return scatter(rng, home_bias)
    return Position(tuple(white), tuple(black))


@st.composite
def positions(draw) -> Position:
    """Hypothesis: any position that can occur."""
    return scatter(random.Random(draw(st.integers(0, 2**32 - 1))), draw(st.sampled_from([0.0, 0.5, 0.9])))


sides = st.sampled_from(list(Side))
dice_values = st.integers(1, 6)
