"""Electronic dice: pip patterns, the roll animation, and fairness of `secrets` rolls."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from statistics import NormalDist

import pytest

from bgpi.board.pips import PIP_PATTERNS
from bgpi.hardware.dice import Tumble, roll, tumble
from bgpi.hardware.leds import Leds, SimulatedPixels
from tests.hardware.measure import dice_lights

ROLLS = 60_000
P_VALUE = 0.001


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with `df` degrees of freedom, in closed form.

    For even df: e^(-x/2) * sum_{i < df/2} (x/2)^i / i!.  For odd df:
    erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) * sum_{i=1}^{(df-1)/2} x^(i-1) / (1*3*...*(2i-1)).
    """
    if df % 2 == 0:
        term = total = math.exp(-x / 2)
        for i in range(1, df // 2):
            term *= x / 2 / i
            total += term
        return total
    total = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    for i in range(1, (df - 1) // 2 + 1):
        total += term
        term *= x / (2 * i + 1)
    return total


def chi_square(counts: Counter, categories: list) -> float:
    expected = sum(counts.values()) / len(categories)
    return sum((counts[category] - expected) ** 2 / expected for category in categories)


@pytest.mark.parametrize(("x", "df", "p"), [
    (20.515, 5, 0.001), (66.619, 35, 0.001), (11.070, 5, 0.05), (18.307, 10, 0.05),
    (3.841, 1, 0.05), (5.991, 2, 0.05),
])
def test_chi_square_tail_matches_published_tables(x, df, p):
    assert chi_square_sf(x, df) == pytest.approx(p, rel=1e-3)
    # Wilson-Hilferty, an independent approximation, agrees to a few percent.
    z = NormalDist().inv_cdf(1 - p)
    assert x == pytest.approx(df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3, rel=0.05)


def fairness_p_values() -> list[float]:
    """p-values of 60,000 fresh rolls: the first die, the second die, the pair."""
    rolls = [roll() for _ in range(ROLLS)]
    faces = list(range(1, 7))
    pairs = [(a, b) for a in faces for b in faces]
    return [
        chi_square_sf(chi_square(Counter(r[0] for r in rolls), faces), 5),
        chi_square_sf(chi_square(Counter(r[1] for r in rolls), faces), 5),
        chi_square_sf(chi_square(Counter(rolls), pairs), 35),
    ]


def test_dice_are_fair():
    # Each chi-square test rejects a fair source with probability 0.001, so the three
    # together would fail a correct build about once in 330 runs.  A rejection is
    # therefore checked once more on 60,000 fresh rolls, and only a second rejection of
    # the same test fails: a fair source then fails about once in a million runs, while a
    # biased one fails both times.
    first = fairness_p_values()
    if min(first) > P_VALUE:
        return
    second = fairness_p_values()
    rejected = [name for name, p1, p2 in zip(("die 1", "die 2", "pair"), first, second, strict=True)
                if p1 <= P_VALUE and p2 <= P_VALUE]
    assert not rejected, (rejected, first, second)


def test_pip_patterns_have_as_many_pips_as_the_face():
    assert {face: len(pips) for face, pips in PIP_PATTERNS.items()} == {n: n for n in range(1, 7)}
    assert all(set(pips) <= set(range(7)) for pips in PIP_PATTERNS.values())
    assert PIP_PATTERNS[1] == (3,) and 3 not in PIP_PATTERNS[6]


def test_tumble_ends_on_the_roll_and_always_moves():
    faces = tumble((6, 1), frames=30)
    assert len(faces) == 30 and faces[-1] == (6, 1)
    for before, after in itertools.pairwise(faces):  # the step onto the roll included
        assert before[0] != after[0] and before[1] != after[1]
    assert all(1 <= face <= 6 for pair in faces for face in pair)


def test_dice_light_their_pips(profile):
    leds = Leds(profile.leds, SimulatedPixels(profile.leds.count))
    lit = dice_lights(leds, (2, 5), (0, 0, 255))
    die1, die2 = profile.leds.targets["die:1"], profile.leds.targets["die:2"]
    assert set(lit) == {die1[0], die1[6], *(die2[p] for p in (0, 1, 3, 5, 6))}


def test_a_tumble_shows_each_face_for_its_time_then_ends(profile):
    faces = tuple(tumble((3, 3)))
    animation = Tumble(start=1.0, faces=faces, frame_seconds=0.06)
    assert [animation.faces_at(1.0 + 0.06 * step + 0.01) for step in range(8)] == list(faces)
    assert animation.faces_at(1.0 + 0.06 * 8) is None
    lit = animation.over({0: (255, 0, 0), profile.leds.targets["die:1"][1]: (9, 9, 9)},
                         profile.leds, (3, 3), (0, 0, 255))
    die1, die2 = profile.leds.targets["die:1"], profile.leds.targets["die:2"]
    # The board stays lit; the dice show only the tumbling faces.
    assert lit == {0: (255, 0, 0), **dict.fromkeys((*(die1[p] for p in (0, 3, 6)),
                                                    *(die2[p] for p in (0, 3, 6))), (0, 0, 255))}
