"""Random self-play: games between two players who pick any legal play.

Used by `make run` (until the board runs) and to build corpora of positions for
the oracle tests and benchmarks.  The random source is passed in, so a seed
gives the same game every time.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from bgpi.rules.play import Dice, Play
from bgpi.rules.position import Position, Side
from bgpi.rules.reference import legal_plays


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a game: who rolled what in which position, and what they played."""

    position: Position
    side: Side
    dice: Dice
    play: Play


def opening_roll(rng: random.Random) -> tuple[int, int]:
    """One die each (white's, black's), rolled again while they tie (docs/rules.md §3)."""
    while True:
        white, black = rng.randint(1, 6), rng.randint(1, 6)
        if white != black:
            return white, black


def roll(rng: random.Random) -> Dice:
    return Dice(rng.randint(1, 6), rng.randint(1, 6))


def random_game(rng: random.Random, start: Position | None = None) -> Iterator[Turn]:
    """The turns of one game of random legal plays, from the opening roll to the last checker off."""
    position = start or Position.start()
    white, black = opening_roll(rng)
    side = Side.WHITE if white > black else Side.BLACK
    dice = Dice(white, black)
    while position.winner() is None:
        play = rng.choice(legal_plays(position, side, dice))
        yield Turn(position, side, dice, play)
        position = play.position
        side = side.opponent
        dice = roll(rng)


def corpus(size: int, seed: int = 0) -> list[tuple[Position, Side, Dice]]:
    """`size` positions with a roll each, from random self-play games."""
    rng = random.Random(seed)
    found: list[tuple[Position, Side, Dice]] = []
    while len(found) < size:
        for turn in random_game(rng):
            found.append((turn.position, turn.side, turn.dice))
            if len(found) == size:
                break
    return found
