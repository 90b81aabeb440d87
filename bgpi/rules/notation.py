"""Move notation as GNU Backgammon writes it: ``24/18 13/11``, ``bar/22*``, ``8/5(2)``.

Points are in the mover's own count; the bar is ``bar`` (25) and borne off is
``off`` (0).  `parse_play` reads a play written so, and `find_play` finds the legal
play it names.  `format_play` follows gnubg's FormatMove (drawboard.c) step for step:

1. Sort the steps by source point, highest first (ties: highest destination first).
2. Join one checker's steps: when a step ends where a later one starts, the two
   become one move.  The intermediate point is dropped (``13/7 7/2`` is ``13/2``)
   unless a blot was hit there, which stays as ``13/7*/2``.  Like gnubg, this
   joins any such pair, even when two different checkers made them.
3. Identical moves (intermediate points included) are written once with a
   count: ``8/5(2)``.
4. A move ending on a point where a blot was hit gets ``*``, the first time that
   point is written only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from bgpi.exc import PlayNotationError
from bgpi.rules.play import Dice, Play, Step
from bgpi.rules.position import BAR, OFF, Position, Side
from bgpi.rules.reference import legal_plays

MAX_MOVES = 4  # the most steps one roll gives, and the most gnubg's ParseMove takes

_MOVE = re.compile(r"(?P<body>[^()]*)(?:\((?P<count>[^()]*)\))?")
_POINT = re.compile(r"(?P<point>bar|off|[0-9]{1,2})(?P<hit>\*?)", re.IGNORECASE)
_HIT = re.compile(r"(?P<point>off|[0-9]{1,2})\*", re.IGNORECASE)  # a landing point marked as a hit


def find_play(
    position: Position, side: Side, dice: Dice, notation: str, among: Sequence[Play] | None = None
) -> Play:
    """The legal play of `dice` by `side` that `notation` names, as gnubg writes plays.

    A play is named by where its checkers go: ``13/5`` is ``13/7 7/5`` and
    ``13/8 8/5`` alike, ``8/5(2)`` is ``8/5 8/5``.  Hits (``*``) may be left out,
    unless they tell two plays apart: ``13/5`` then is the one that hits nothing on
    the way, ``13/10*/5`` the one that hits on the 10-point.  "" names the empty play
    of a roll that cannot be played.  `among` is the legal plays when the caller has
    them already (`legal_plays` of the same position, side and dice).

    >>> from bgpi.rules.position import Position, Side
    >>> start, white = Position.start(), Side.WHITE
    >>> format_play(find_play(start, white, Dice(3, 1), "6/5 8/5").steps)
    '8/5 6/5'
    >>> find_play(start, white, Dice(3, 1), "8/3")
    Traceback (most recent call last):
    ...
    bgpi.exc.PlayNotationError: '8/3' is not a legal play of 31 for white

    :raises PlayNotationError: for a notation that cannot be read (the message names
        the fault, as `parse_play` does), or that names no legal play, or several.
    """
    moved = list(position.checkers(side))
    for source, destination in parse_play(notation):
        moved[source - 1] -= 1
        if destination != OFF:
            moved[destination - 1] += 1
    plays = legal_plays(position, side, dice) if among is None else among
    named = [play for play in plays if list(play.position.checkers(side)) == moved]
    hits = {int(point) if point.isdigit() else OFF for point in _HIT.findall(notation)}
    if len(named) > 1:  # the same checkers moved, hitting on different points: the hits written decide
        exact = [play for play in named if _hit_points(play) == hits]
        named = exact if exact or hits else named
    if len(named) > 1:
        choices = " or ".join(repr(format_play(play.steps)) for play in named)
        raise PlayNotationError(f"{notation!r} names {len(named)} legal plays of {dice} for {side.label}: {choices}")
    if not named or not hits <= _hit_points(named[0]):
        raise PlayNotationError(f"{notation!r} is not a legal play of {dice} for {side.label}")
    return named[0]


def _hit_points(play: Play) -> set[int]:
    """The points where `play` hits a blot."""
    return {step.destination for step in play.steps if step.hit}


def format_play(steps: Sequence[Step]) -> str:
    """The play in gnubg's notation; "" when there is no step."""
    hit_points = {step.destination for step in steps if step.hit}
    moves = _join_checker_moves(steps, hit_points)
    starred: set[int] = set()
    return " ".join(
        _format_move(move, count, hit_points, starred)
        for move, count in _count_identical(moves)
    )


def _join_checker_moves(steps: Sequence[Step], hit_points: set[int]) -> list[list[int]]:
    """Moves as point lists [source, hit points on the way..., destination], in order."""
    ordered = sorted(((s.source, s.destination) for s in steps), reverse=True)
    moves: list[list[int] | None] = [list(pair) for pair in ordered]
    for i, move in enumerate(moves):
        for j in range(i + 1, len(moves)):
            later = moves[j]
            if move is None or later is None or move[-1] != later[0]:
                continue
            if move[-1] in hit_points:
                move.append(later[-1])
            else:
                move[-1] = later[-1]
            moves[j] = None
    return [move for move in moves if move is not None]


def _count_identical(moves: list[list[int]]) -> list[tuple[list[int], int]]:
    """Each distinct move with how many times it occurs, in order of first occurrence."""
    counted: list[tuple[list[int], int]] = []
    for move in moves:
        for k, (seen, count) in enumerate(counted):
            if seen == move:
                counted[k] = (seen, count + 1)
                break
        else:
            counted.append((move, 1))
    return counted


def _format_move(
    move: list[int], count: int, hit_points: set[int], starred: set[int]
) -> str:
    """One move, a/b*/c(n); `starred` collects the points already marked as hit."""
    text = _point_name(move[0])
    for point in move[1:-1]:  # kept only because a blot was hit there
        text += f"/{_point_name(point)}*"
        starred.add(point)
    destination = move[-1]
    text += f"/{_point_name(destination)}"
    if destination in hit_points and destination not in starred:
        text += "*"
        starred.add(destination)
    if count > 1:
        text += f"({count})"
    return text


def _point_name(point: int) -> str:
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def parse_play(text: str) -> list[tuple[int, int]]:
    """The (source, destination) steps of a play written in gnubg's notation.

    Moves are separated by spaces.  ``13/7/2`` and ``13/7*/2`` give (13, 7),
    (7, 2); ``8/5(2)`` gives (8, 5) twice (a count repeats the whole move, as in
    gnubg's ParseMove).  ``bar`` or 25 is the bar, ``off`` or 0 borne off; ``*``
    after a landing point is accepted and ignored.  Steps come out in the order
    written.  "" (or only spaces) is no play.

    :raises PlayNotationError: naming the fault: an unreadable move, a point outside
    0..25, a move from off or to the bar, a move that does not go down, a
    count outside 2..4, more than four steps.
    """
    steps: list[tuple[int, int]] = []
    for word in text.split():
        steps.extend(_parse_move(word))
    if len(steps) > MAX_MOVES:
        raise PlayNotationError(
            f"play {text!r} has {len(steps)} steps; a roll gives at most {MAX_MOVES}"
        )
    return steps


def _parse_move(word: str) -> list[tuple[int, int]]:
    match = _MOVE.fullmatch(word)
    if match is None:
        raise PlayNotationError(f"move {word!r}: unbalanced parentheses")
    parts = match["body"].split("/")
    if len(parts) < 2:
        raise PlayNotationError(f"move {word!r} is not source/destination")
    points = [
        _parse_point(part, word, first=index == 0) for index, part in enumerate(parts)
    ]
    hops = list(pairwise(points))
    for source, destination in hops:
        if source == OFF:
            raise PlayNotationError(f"move {word!r}: no checker moves from off")
        if destination == BAR:
            raise PlayNotationError(f"move {word!r}: a checker cannot move to the bar")
        if destination >= source:
            raise PlayNotationError(
                f"move {word!r}: {source}/{destination} does not move down"
            )
    return hops * _parse_count(match["count"], word)


def _parse_point(part: str, word: str, first: bool) -> int:
    match = _POINT.fullmatch(part)
    if match is None:
        raise PlayNotationError(
            f"move {word!r}: {part!r} is not a point (1-24, bar, off, 25, 0)"
        )
    if first and match["hit"]:
        raise PlayNotationError(
            f"move {word!r}: '*' marks a hit on a landing point, not on the source"
        )
    name = match["point"].lower()
    point = BAR if name == "bar" else OFF if name == "off" else int(name)
    if point > BAR:
        raise PlayNotationError(f"move {word!r}: point {point} is not on the board (0..25)")
    return point


def _parse_count(text: str | None, word: str) -> int:
    if text is None:
        return 1
    if not text.isdigit() or not 2 <= int(text) <= MAX_MOVES:
        raise PlayNotationError(f"move {word!r}: count ({text}) is not 2 to {MAX_MOVES}")
    return int(text)


def describe_change(before: Position, after: Position, side: Side) -> str:
    """Notation for the checkers `side` moved from `before` to `after`, legal or not.

    For a play accepted as made (lenient mode), which no dice explain: the checkers
    that left points are paired with the points that gained, highest with highest.
    """
    own_before, own_after = before.checkers(side), after.checkers(side)
    theirs_before, theirs_after = before.checkers(side.opponent), after.checkers(side.opponent)
    sources, destinations = [], []
    for index in range(24, -1, -1):
        change = own_after[index] - own_before[index]
        point = index + 1  # own count; 25 is the bar
        sources += [point] * -change
        destinations += [point] * change
    destinations += [OFF] * (after.borne_off(side) - before.borne_off(side))
    steps = [
        Step(source, destination, 0, destination != OFF and theirs_before[24 - destination] == 1
             and not theirs_after[24 - destination])
        for source, destination in zip(sources, destinations, strict=False)  # an illegal play may not pair up
    ]
    return format_play(steps)
