"""Properties every legal play has, on positions hypothesis draws."""

from hypothesis import given, settings

from bgpi.rules.movegen import legal_results
from bgpi.rules.play import Dice
from bgpi.rules.playtree import PlayTree
from bgpi.rules.position import CHECKERS, Position
from bgpi.rules.reference import legal_plays
from tests.rules.strategies import dice_values, positions, sides


def checkers_of(position: Position, side) -> int:
    return sum(position.checkers(side)) + position.borne_off(side)


@given(positions(), sides, dice_values, dice_values)
def test_each_side_keeps_fifteen_checkers(start, side, a, b):
    for play in legal_plays(start, side, Dice(a, b)):
        assert not play.position.problems()
        for anyone in (side, side.opponent):
            assert checkers_of(play.position, anyone) == CHECKERS


@given(positions(), sides, dice_values, dice_values)
def test_pips_drop_by_exactly_the_dice_used_unless_bearing_off(start, side, a, b):
    for play in legal_plays(start, side, Dice(a, b)):
        if not any(step.bears_off for step in play.steps):
            assert start.pips(side) - play.position.pips(side) == sum(play.dice_used)
        # Being hit only ever sets the opponent back.
        assert play.position.pips(side.opponent) >= start.pips(side.opponent)


@given(positions(), sides, dice_values, dice_values)
def test_the_fast_results_equal_the_full_search(start, side, a, b):
    own, opponent = start.checkers(side), start.checkers(side.opponent)
    fast = {Position.of(side, *counts) for counts in legal_results(own, opponent, Dice(a, b))}
    assert fast == {play.position for play in legal_plays(start, side, Dice(a, b))}


@settings(max_examples=60)
@given(positions(), sides, dice_values, dice_values)
def test_the_play_trees_complete_nodes_are_the_legal_plays(start, side, a, b):
    tree = PlayTree(start, side, Dice(a, b))
    complete = {node.position for node in tree.complete_plays()}
    assert complete == {play.position for play in legal_plays(start, side, Dice(a, b))}
    # Every acceptable node leads on to a complete one; the root always is acceptable.
    assert tree.is_acceptable(tree.root)
    for node in tree.nodes():
        if tree.is_acceptable(node) and not tree.is_complete(node):
            assert any(tree.is_acceptable(child) for _, child in tree.steps(node))
