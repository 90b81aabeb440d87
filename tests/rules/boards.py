"""Small helpers to write positions and plays by hand in tests."""

from __future__ import annotations

from bgpi.rules.play import Dice
from bgpi.rules.position import BAR, OFF, Checkers, Position, Side
from bgpi.rules.reference import legal_plays, move


def side_counts(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    """25 counts in a side's own count from {own point: count}."""
    counts = [0] * 25
    for point, count in points.items():
        counts[point - 1] = count
    counts[24] = bar
    return tuple(counts)


def position(
    white: dict[int, int],
    black: dict[int, int],
    white_bar: int = 0,
    black_bar: int = 0,
) -> Position:
    """A position from each side's {own point: count}; a checker short of 15 is borne off."""
    made = Position(side_counts(white, white_bar), side_counts(black, black_bar))
    assert not made.problems(), made.problems()
    return made


def result(start: Position, side: Side, moves: list[tuple[int, int]]) -> Position:
    """The position after `moves` ((source, destination) in the mover's count; BAR=25, OFF=0)."""
    own, opponent = start.checkers(side), start.checkers(side.opponent)
    for source, destination in moves:
        own, opponent = move(own, opponent, source, destination)
    return Position.of(side, own, opponent)


def results(start: Position, side: Side, a: int, b: int) -> set[Position]:
    """The distinct positions the legal plays lead to."""
    return {play.position for play in legal_plays(start, side, Dice(a, b))}


def reference_results(own: Checkers, opponent: Checkers, dice: Dice) -> set[tuple[Checkers, Checkers]]:
    """Where the reference search's legal plays lead, as the (own, opponent) counts that
    `movegen.legal_results` gives: what the counted-out results are checked against."""
    plays = legal_plays(Position(own, opponent), Side.WHITE, dice)
    return {(play.position.white, play.position.black) for play in plays}


def expect(start: Position, side: Side, *plays: list[tuple[int, int]]) -> set[Position]:
    """The positions `plays` lead to, to compare with `results`."""
    return {result(start, side, moves) for moves in plays}


__all__ = ["BAR", "OFF", "expect", "position", "reference_results", "result", "results", "side_counts"]
