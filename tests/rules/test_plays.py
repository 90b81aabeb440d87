"""One test per rule of docs/rules.md §4–6, on hand-made positions.

Positions are written in each side's own count; white moves in these tests
unless said otherwise, so black's point q is white's point 25 - q.
"""

from bgpi.rules.play import Dice, Step
from bgpi.rules.position import Position, Side
from bgpi.rules.reference import legal_plays
from tests.rules.boards import BAR, OFF, expect, position, results

W = Side.WHITE


def test_opening_three_one_has_sixteen_distinct_plays_including_making_the_five_point():
    start = Position.start()
    found = results(start, W, 3, 1)
    assert len(found) == 16
    assert expect(start, W, [(8, 5), (6, 5)]) <= found


def test_a_point_held_by_two_opposing_checkers_is_closed():
    # Black holds white's 5-point (black's 20): nothing may land there.
    start = position({8: 1, 6: 14}, {20: 2, 1: 13})
    for play in legal_plays(start, W, Dice(3, 1)):
        assert all(step.destination != 5 for step in play.steps)


def test_one_checker_may_take_both_dice_only_through_an_open_point():
    # 13 with 6-5: black holds white's 8 and 7 (its 17 and 18), so neither middle point is open.
    start = position({13: 1}, {17: 2, 18: 2})
    assert results(start, W, 6, 5) == {start}
    # With the 7 open the same checker goes 13/7/2.
    open_start = position({13: 1}, {17: 2})
    assert results(open_start, W, 6, 5) == expect(open_start, W, [(13, 7), (7, 2)])


def test_landing_on_a_blot_hits_it_to_the_bar():
    start = position({13: 15}, {15: 1})  # a black blot on white's 10-point
    (hit,) = expect(start, W, [(13, 10), (13, 12)])
    assert hit in results(start, W, 3, 1)
    assert hit.on_bar(Side.BLACK) == 1
    assert hit.at(10) == (Side.WHITE, 1)


def test_a_checker_on_the_bar_must_enter_before_any_other_moves():
    start = position({13: 14}, {1: 15}, white_bar=1)
    for play in legal_plays(start, W, Dice(4, 2)):
        assert play.steps[0].source == BAR
    # The 4 enters on white's 21-point (black's 4-point).
    assert expect(start, W, [(BAR, 21), (21, 19)]) <= results(start, W, 4, 2)


def test_dance_no_checker_can_enter_a_closed_board():
    closed = {point: 2 for point in range(1, 7)} | {7: 3}
    start = position({13: 14}, closed, white_bar=1)
    (play,) = legal_plays(start, W, Dice(6, 5))
    assert play.steps == () and play.position == start


def test_one_checker_enters_and_the_rest_of_the_roll_is_forfeit_while_another_waits():
    # Two on the bar; only the 3 enters (black's 3-point is open): one enters, nothing else.
    start = position({13: 13}, {1: 2, 2: 2, 4: 2, 5: 2, 6: 2, 13: 5}, white_bar=2)
    assert results(start, W, 5, 3) == expect(start, W, [(BAR, 22)])


def test_both_dice_must_be_played_when_some_sequence_allows_it():
    # 10/4 is blocked (black's 21 is white's 4), but 10/9/3 uses both dice: it is the only play.
    start = position({10: 1}, {21: 2})
    assert results(start, W, 6, 1) == expect(start, W, [(10, 9), (9, 3)])


def test_the_larger_die_must_be_played_when_either_but_not_both_can_be():
    # A lone checker on 12 with 6-2: 12/6 or 12/10, never both (white's 4 is closed).
    start = position({12: 1}, {21: 2})
    assert results(start, W, 6, 2) == expect(start, W, [(12, 6)])


def test_the_smaller_die_is_played_when_only_it_can_be():
    # 12/6 is blocked (black's 19), 12/10 is open and 10/4 blocked again: only the 2 plays.
    start = position({12: 1}, {19: 2, 21: 2})
    assert results(start, W, 6, 2) == expect(start, W, [(12, 10)])


def test_doubles_are_played_four_times():
    start = position({13: 2}, {1: 2})
    assert expect(start, W, [(13, 11)] * 2 + [(11, 9)] * 2) <= results(start, W, 2, 2)
    assert all(len(play.steps) == 4 for play in legal_plays(start, W, Dice(2, 2)))


def test_doubles_are_played_as_far_as_they_can_go():
    # 4-4 for a lone checker on 13: 13/9, then white's 5 is closed (black's 20).
    start = position({13: 1}, {20: 2})
    (play,) = legal_plays(start, W, Dice(4, 4))
    assert play.position == expect(start, W, [(13, 9)]).pop()


def test_bearing_off_needs_every_checker_home():
    start = position({7: 1, 3: 14}, {1: 15})
    found = results(start, W, 6, 3)
    # 7/1 then the 3 bears off from 3; or 7/4 then the 6 bears off from the highest point, 4.
    assert expect(start, W, [(7, 1), (3, OFF)], [(7, 4), (4, OFF)]) <= found
    for play in legal_plays(start, W, Dice(6, 3)):
        assert play.steps[0].source == 7


def test_bearing_off_exactly():
    start = position({4: 1, 2: 1}, {1: 15})
    assert expect(start, W, [(4, OFF), (2, OFF)]) <= results(start, W, 4, 2)


def test_a_die_larger_than_the_highest_point_bears_off_from_the_highest():
    start = position({3: 1, 1: 1}, {1: 15})
    assert results(start, W, 6, 5) == expect(start, W, [(3, OFF), (1, OFF)])


def test_a_die_with_checkers_above_must_move_not_bear_off_from_below():
    # 5-5 with checkers on 6 and 2: the first 5 may not bear off the 2; it moves 6/1.
    start = position({6: 1, 2: 1}, {1: 15})
    assert results(start, W, 5, 5) == expect(start, W, [(6, 1), (2, OFF), (1, OFF)])


def test_bearing_off_is_not_compulsory():
    start = position({6: 2, 2: 1}, {1: 15})
    found = results(start, W, 5, 2)
    assert expect(start, W, [(6, 4), (6, 1)], [(2, OFF), (6, 1)]) <= found


def test_a_hit_checker_must_come_home_before_bearing_off_resumes():
    start = position({5: 2, 1: 12}, {1: 15}, white_bar=1)
    for play in legal_plays(start, W, Dice(6, 5)):
        assert play.steps[0].source == BAR
        assert not any(step.bears_off for step in play.steps)


def test_doubles_mixing_bear_offs_with_other_steps():
    start = position({3: 1, 2: 1, 1: 1}, {1: 15})
    assert expect(start, W, [(1, OFF), (2, 1), (1, OFF), (3, 2)]) <= results(start, W, 1, 1)
    assert all(len(play.steps) == 4 for play in legal_plays(start, W, Dice(1, 1)))


def test_plays_are_distinct_by_result():
    plays = legal_plays(Position.start(), W, Dice(6, 5))
    assert len({play.position for play in plays}) == len(plays)
    # 24/18/13 and 24/13/... lead to one position, listed once: gnubg lists 7 plays for 65.
    assert len(plays) == 7


def test_black_moves_in_its_own_count():
    start = Position.start()
    made = expect(start, Side.BLACK, [(8, 5), (6, 5)]).pop()
    assert made in results(start, Side.BLACK, 3, 1)
    assert made.at(20) == (Side.BLACK, 2)  # black's 5-point is absolute 20


def test_a_checker_that_can_use_both_dice_must_not_stop_at_one():
    # 6-1 for a lone checker on 3: 3/off with the 6 uses one die, 3/2/off uses both: only the latter.
    start = position({3: 1}, {1: 15})
    (play,) = legal_plays(start, W, Dice(6, 1))
    assert play.steps == (Step(3, 2, 1), Step(2, OFF, 6))
