"""The doubling cube: double, take, drop, beaver, automatic doubles (docs/rules.md §3, §8)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgpi.exc import CubeError
from bgpi.rules.cube import Cube, Offer
from bgpi.rules.position import Side
from bgpi.rules.result import ResultKind

WHITE, BLACK = Side.WHITE, Side.BLACK


def test_the_cube_starts_centred_at_1():
    cube = Cube()
    assert (cube.value, cube.owner, cube.offer, cube.centred, cube.turned) == (
        1,
        None,
        None,
        True,
        False,
    )


def test_either_player_may_double_a_centred_cube():
    assert Cube().why_not_double(WHITE) is None
    assert Cube().why_not_double(BLACK) is None


def test_a_double_is_an_offer_that_leaves_the_value_until_taken():
    cube = Cube().double(WHITE)
    assert (cube.value, cube.owner, cube.offer, cube.offered_value) == (1, None, Offer(WHITE), 2)


def test_take_doubles_the_value_and_gives_the_taker_the_cube():
    cube = Cube().double(WHITE).take(BLACK)
    assert (cube.value, cube.owner, cube.offer, cube.turned) == (2, BLACK, None, True)


def test_drop_loses_the_value_before_the_double():
    result = Cube(4, WHITE).double(WHITE).drop(BLACK)
    assert (result.winner, result.kind, result.points, result.dropped) == (
        WHITE,
        ResultKind.SINGLE,
        4,
        True,
    )


def test_only_the_owner_may_redouble():
    cube = Cube(2, BLACK)
    assert cube.why_not_double(WHITE) == "black owns the cube"
    assert cube.why_not_double(BLACK) is None
    with pytest.raises(CubeError, match="black owns the cube"):
        cube.double(WHITE)


def test_redouble_take_passes_the_cube_back():
    cube = Cube(2, BLACK).double(BLACK).take(WHITE)
    assert (cube.value, cube.owner) == (4, WHITE)


def test_no_double_while_one_is_on_offer():
    cube = Cube().double(WHITE)
    assert cube.why_not_double(BLACK) == "white has doubled: black must take or drop first"
    with pytest.raises(CubeError):
        cube.double(WHITE)


def test_the_doubler_cannot_answer_their_own_double():
    cube = Cube().double(WHITE)
    with pytest.raises(CubeError, match="cannot take"):
        cube.take(WHITE)
    with pytest.raises(CubeError, match="cannot drop"):
        cube.drop(WHITE)


def test_take_or_drop_needs_a_double():
    with pytest.raises(CubeError, match="no double"):
        Cube().take(BLACK)
    with pytest.raises(CubeError, match="no double"):
        Cube().drop(BLACK)


def test_the_value_has_no_cap():
    cube = Cube(1 << 15, WHITE).double(WHITE).take(BLACK).double(BLACK).take(WHITE)
    assert cube.value == 1 << 17


def test_beaver_offers_four_times_the_value_from_the_beaverer_who_owns_the_cube():
    cube = Cube().double(WHITE).beaver(BLACK)
    assert (cube.value, cube.owner, cube.offer, cube.offered_value) == (
        2,
        BLACK,
        Offer(BLACK, beaver=True),
        4,
    )


def test_beaver_taken_leaves_the_cube_at_4_with_the_beaverer():
    cube = Cube().double(WHITE).beaver(BLACK).take(WHITE)
    assert (cube.value, cube.owner, cube.offer) == (4, BLACK, None)


def test_beaver_dropped_loses_the_value_after_the_first_double():
    result = Cube().double(WHITE).beaver(BLACK).drop(WHITE)
    assert (result.winner, result.points, result.kind) == (BLACK, 2, ResultKind.SINGLE)


def test_beaver_of_a_redouble():
    cube = Cube(2, WHITE).double(WHITE).beaver(BLACK)
    assert cube.take(WHITE) == Cube(8, BLACK)
    assert cube.drop(WHITE).points == 4


def test_a_beaver_cannot_be_beavered():
    cube = Cube().double(WHITE).beaver(BLACK)
    assert cube.why_not_beaver(WHITE) == "a beaver cannot be beavered: take it or drop it"
    with pytest.raises(CubeError):
        cube.beaver(WHITE)


def test_only_the_doubled_player_may_beaver():
    assert Cube().why_not_beaver(BLACK) == "no double has been offered"
    assert (
        Cube().double(WHITE).why_not_beaver(WHITE)
        == "white offered the double and cannot beaver it"
    )


def test_automatic_double_doubles_a_centred_cube_and_leaves_it_centred_and_unturned():
    cube = Cube().automatic_double().automatic_double()
    assert (cube.value, cube.owner, cube.turned) == (4, None, False)


def test_automatic_double_needs_an_untouched_cube():
    with pytest.raises(CubeError):
        Cube(2, WHITE).automatic_double()


def test_a_cube_value_is_a_power_of_two():
    for bad in (0, 3, 6, -2, 2.0, True):
        with pytest.raises(ValueError):
            Cube(bad)


def test_a_beaver_offer_belongs_to_the_cubes_owner():
    with pytest.raises(ValueError):
        Cube(2, WHITE, Offer(BLACK, beaver=True))


@given(
    st.lists(st.sampled_from(["double", "take", "drop", "beaver", "auto"]), max_size=40), st.data()
)
def test_the_value_stays_a_power_of_two_and_never_falls(actions, data):
    cube = Cube()
    for action in actions:
        side = data.draw(st.sampled_from(list(Side)))
        try:
            if action == "double":
                after = cube.double(side)
            elif action == "take":
                after = cube.take(side)
            elif action == "beaver":
                after = cube.beaver(side)
            elif action == "auto":
                after = cube.automatic_double()
            else:
                result = cube.drop(side)
                assert result.points == cube.value
                return
        except CubeError:
            continue
        assert after.value >= cube.value
        assert after.value & (after.value - 1) == 0
        assert after.offered_value in (after.value, 2 * after.value)
        cube = after
