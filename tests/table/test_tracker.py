"""The tracker: explaining switch counts as partial plays, and reading a board as made."""

from __future__ import annotations

from itertools import combinations

import pytest

from bgpi.board.locations import bar, checkers_on
from bgpi.board.profile import Geometry
from bgpi.rules.notation import describe_change
from bgpi.rules.play import Dice
from bgpi.rules.playtree import PlayTree
from bgpi.rules.position import Position, Side
from bgpi.rules.selfplay import corpus
from bgpi.table.tracker import Sensing, Tracker, position_as_made
from tests.rules.boards import position, result

W = Side.WHITE
SENSING = Sensing(Geometry())
FEW_SWITCHES = Sensing(Geometry(point_slots=3, bar_slots=2, trays_sensed=True))
"""Points full at 3, bar halves at 2, trays counted: every way a count is cut short."""


def counts(board: Position, **changes: int) -> tuple[int, ...]:
    """What the switches read for `board`, with {location: +n/-n} changes (p8=-1, bar_black=1)."""
    raw = SENSING.raw(board)
    for name, change in changes.items():
        location = int(name[1:]) if name.startswith("p") else name.replace("_", ":")
        raw[SENSING.index[location]] += change
    return SENSING.saturate(raw)


def tracker(start: Position, a: int, b: int, side: Side = W) -> Tracker:
    return Tracker(PlayTree(start, side, Dice(a, b)), SENSING)


def test_the_untouched_board_is_the_root_settled():
    track = tracker(Position.start(), 3, 1)
    (reading,) = [r for r in track.explain(SENSING.of(Position.start())) if r.settled]
    assert reading.node == track.tree.root


def test_a_lifted_checker_is_in_hand_at_the_same_node():
    track = tracker(Position.start(), 3, 1)
    readings = track.explain(counts(Position.start(), p8=-1))
    assert any(r.node == track.tree.root and r.in_hand == 8 for r in readings)


def test_a_step_is_a_settled_node():
    start = Position.start()
    track = tracker(start, 3, 1)
    after = result(start, W, [(8, 5)])
    (reading,) = [r for r in track.explain(SENSING.of(after)) if r.settled]
    assert reading.node.position == after and reading.node.dice_left == (1,)


def test_a_hit_blot_still_on_its_point_is_pending():
    start = position({13: 15}, {15: 1, 1: 14})  # a black blot on white's 10
    track = tracker(start, 3, 1)
    after = result(start, W, [(13, 10)])
    # The hitter has landed, the blot is still there: 10 reads 2, black's bar 0.
    readings = track.explain(counts(after, p10=1, bar_black=-1))
    assert [(r.node.position, r.pending) for r in readings if r.in_hand is None] == [(after, frozenset({10}))]


def test_a_blot_put_on_the_bar_before_the_hit_is_early():
    start = position({13: 15}, {15: 1, 1: 14})
    track = tracker(start, 3, 1)
    readings = track.explain(counts(start, p10=-1, bar_black=1))
    assert any(r.node == track.tree.root and r.early == frozenset({10}) for r in readings)


def test_a_checker_put_on_a_full_point_reads_like_one_in_hand():
    # Six white checkers on the 6-point read full (5): 8/6 cannot be told from a checker lifted from 8.
    start = position({8: 3, 6: 6, 13: 6}, {1: 15})
    track = tracker(start, 2, 1)
    readings = track.explain(counts(start, p8=-1))
    assert any(r.in_hand == 8 and r.node == track.tree.root for r in readings)
    assert any(r.settled and r.node.position == result(start, W, [(8, 6)]) for r in readings)


def test_lifting_an_opponents_made_point_is_not_plausible():
    track = tracker(Position.start(), 3, 1)
    (reading,) = [r for r in track.explain(counts(Position.start(), p12=-1)) if r.in_hand == 12]
    assert not track.plausible(reading)


def test_position_as_made_reads_an_illegal_play():
    start = Position.start()
    after = result(start, W, [(8, 4), (6, 4)])
    assert position_as_made(SENSING, SENSING.of(after), start, W) == after
    assert describe_change(start, after, W) == "8/4 6/4"


def test_position_as_made_counts_a_hit():
    start = position({13: 15}, {15: 1, 1: 14})
    after = result(start, W, [(13, 10), (13, 12)])
    assert position_as_made(SENSING, SENSING.of(after), start, W) == after


def test_position_as_made_refuses_a_board_it_cannot_read():
    start = Position.start()
    with pytest.raises(ValueError, match="does not hold black's checkers"):
        position_as_made(SENSING, counts(start, p12=-1, p11=1), start, W)


@pytest.mark.parametrize("sensing", [SENSING, FEW_SWITCHES])
def test_a_positions_counts_are_the_checkers_on_each_sensed_location(sensing):
    for board, _, _ in corpus(500, seed=5):
        assert sensing.raw(board) == [checkers_on(board, location) for location in sensing.locations]


@pytest.mark.parametrize("sensing", [SENSING, FEW_SWITCHES])
def test_every_node_reads_as_itself_with_any_of_its_hits_pending(sensing):
    """The tracker's index, counted a side at a time, against counting each location."""
    for start, side, dice in corpus(150, seed=6):
        track = Tracker(PlayTree(start, side, dice), sensing)
        blots = [point for point in range(1, 25) if start.at(point) == (side.opponent, 1)]
        for node in track.tree.nodes():
            hits = [point for point in blots if node.position.at(point)[0] is not side.opponent]
            for size in range(len(hits) + 1):
                for pending in combinations(hits, size):
                    raw = [checkers_on(node.position, location) + (location in pending)
                           - (location == bar(side.opponent)) * size for location in sensing.locations]
                    readings = track.explain(sensing.saturate(raw))
                    assert any(r.node == node and r.pending == frozenset(pending)
                               and r.in_hand is None and not r.early for r in readings), (node, pending)
