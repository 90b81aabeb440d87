"""Move notation as gnubg's FormatMove writes it, and its parser."""

import random

import pytest

from bgpi.rules.notation import format_play, parse_play
from bgpi.rules.play import Step
from tests.rules.strategies import scatter

BAR, OFF = 25, 0


def steps(*moves: str) -> list[Step]:
    """Steps from 'source/destination' words, '*' marking a hit: steps('bar/22*', '6/off')."""
    result = []
    for move in moves:
        source, destination = move.rstrip("*").split("/")
        source = BAR if source == "bar" else int(source)
        destination = OFF if destination == "off" else int(destination)
        result.append(
            Step(
                source,
                destination,
                die=min(source - destination, 6),
                hit=move.endswith("*"),
            )
        )
    return result


@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        ((), ""),
        (("8/5", "6/5"), "8/5 6/5"),
        (("6/5", "8/5"), "8/5 6/5"),  # sorted by source, highest first
        (("13/11", "24/18"), "24/18 13/11"),
        (("13/7", "7/2"), "13/2"),  # one checker: the intermediate point is dropped
        (("13/7*", "7/2"), "13/7*/2"),  # ... unless it hit there
        (("7/2", "13/7*"), "13/7*/2"),
        (("13/7", "7/2*"), "13/2*"),
        (("24/18", "24/18", "13/7", "13/7"), "24/18(2) 13/7(2)"),
        (("24/18", "18/12", "13/7", "13/7"), "24/12 13/7(2)"),
        (("24/20", "24/20", "20/16", "20/16"), "24/16(2)"),
        (("8/5", "8/5", "6/3", "6/3"), "8/5(2) 6/3(2)"),
        (("bar/22*",), "bar/22*"),
        (("bar/22*", "13/9"), "bar/22* 13/9"),
        (("bar/20", "bar/20", "bar/20", "20/16"), "bar/16 bar/20(2)"),
        (("bar/23", "23/20*"), "bar/20*"),
        (("6/off",), "6/off"),
        (("6/off", "5/off", "4/off", "3/off"), "6/off 5/off 4/off 3/off"),
        (("6/off", "6/off", "6/off", "6/off"), "6/off(4)"),
        (("6/2", "2/off"), "6/off"),
        (
            ("5/2", "5/2", "2/off", "3/off"),
            "5/off 5/2 3/off",
        ),  # joined moves keep their place
        (("13/9*", "13/9"), "13/9*(2)"),  # the hit is on the point, marked once
        (("6/2*", "5/2"), "6/2* 5/2"),
        (("10/9*", "9/8*", "8/7*", "7/6"), "10/9*/8*/7*/6"),
        (("10/9*", "9/8", "8/7*", "7/6"), "10/9*/7*/6"),
        (("8/5", "5/2"), "8/2"),  # gnubg joins these even if two checkers moved
        (("24/23", "13/8*", "8/7"), "24/23 13/8*/7"),
        (("20/15*", "15/10", "15/10"), "20/15*/10 15/10"),
    ],
)
def test_format_like_gnubg(moves, expected):
    assert format_play(steps(*moves)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("   ", []),
        ("24/18 13/11", [(24, 18), (13, 11)]),
        ("bar/22*", [(25, 22)]),
        ("Bar/22* 6/Off", [(25, 22), (6, 0)]),
        ("25/22 6/0", [(25, 22), (6, 0)]),
        ("8/5(2)", [(8, 5), (8, 5)]),
        ("8/5(2) 6/3(2)", [(8, 5), (8, 5), (6, 3), (6, 3)]),
        ("13/7/2", [(13, 7), (7, 2)]),
        ("13/7*/2", [(13, 7), (7, 2)]),
        ("10/9*/8*/7*/6", [(10, 9), (9, 8), (8, 7), (7, 6)]),
        ("24/20/16(2)", [(24, 20), (20, 16), (24, 20), (20, 16)]),
        ("6/off(4)", [(6, 0)] * 4),
        ("13/9*(2)", [(13, 9), (13, 9)]),
    ],
)
def test_parse(text, expected):
    assert parse_play(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("13", "'13' is not source/destination"),
        ("13-7", "'13-7' is not source/destination"),
        ("13/", "'' is not a point"),
        ("/7", "'' is not a point"),
        ("13//7", "'' is not a point"),
        ("13/x", "'x' is not a point"),
        ("26/20", "point 26 is not on the board"),
        ("100/20", "'100' is not a point"),
        ("off/3", "no checker moves from off"),
        ("6/off/3", "no checker moves from off"),
        ("20/bar", "cannot move to the bar"),
        ("7/13", "7/13 does not move down"),
        ("7/7", "7/7 does not move down"),
        ("13*/7", "'\\*' marks a hit on a landing point"),
        ("8/5(1)", "count \\(1\\) is not 2 to 4"),
        ("8/5(5)", "count \\(5\\) is not 2 to 4"),
        ("8/5(x)", "count \\(x\\) is not 2 to 4"),
        ("8/5(2", "unbalanced parentheses"),
        ("8/5(2))", "unbalanced parentheses"),
        ("8/5(3) 6/3(2)", "has 5 steps; a roll gives at most 4"),
        ("13/7/2/1/0/", "'' is not a point"),
    ],
)
def test_parse_refuses_bad_text(text, message):
    with pytest.raises(ValueError, match=message):
        parse_play(text)


@pytest.mark.parametrize(
    "moves",
    [
        ("24/18", "18/12", "13/7", "13/7"),
        ("13/7*", "7/2"),
        ("bar/20", "bar/20", "bar/20", "20/16"),
    ],
)
def test_parse_reads_what_format_writes(moves):
    played = steps(*moves)
    parsed = parse_play(format_play(played))
    assert sum(s - d for s, d in parsed) == sum(
        s.source - s.destination for s in played
    )


# --- against gnubg's move generator --------------------------------------------------


def apply(board, moves):
    """The board after (source, destination) moves of the player on roll (anBoard[1])."""
    waiting, moving = [list(side) for side in board]
    hits = []
    for source, destination in moves:
        moving[source - 1] -= 1
        assert moving[source - 1] >= 0, (board, moves)
        hit = destination != OFF and waiting[24 - destination] == 1
        if hit:
            waiting[24 - destination] = 0
            waiting[24] += 1
        if destination != OFF:
            moving[destination - 1] += 1
        hits.append(hit)
    return (tuple(waiting), tuple(moving)), hits


def random_board(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A gnubg anBoard that can occur, white on roll."""
    position = scatter(rng)
    return position.black, position.white


def test_gnubg_plays_survive_format_and_parse():
    gnubg = pytest.importorskip(
        "gnubg_nn",
        reason="gnubg-nn (GNU Backgammon's engine, the oracle) is not installed",
    )
    rng = random.Random(11)
    seen = 0
    for _ in range(300):
        board = random_board(rng)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        for key, gnubg_steps in gnubg.moves([list(side) for side in board], *dice, 1):
            expected = tuple(tuple(side) for side in gnubg.board_from_position_key(key))
            _, hits = apply(board, gnubg_steps)
            played = [
                Step(source, destination, die=max(dice), hit=hit)
                for (source, destination), hit in zip(gnubg_steps, hits, strict=True)
            ]
            text = format_play(played)
            assert apply(board, parse_play(text))[0] == expected, (
                board,
                dice,
                gnubg_steps,
                text,
            )
            seen += 1
    assert seen > 1000
