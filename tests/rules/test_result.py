"""Game results: single, gammon, backgammon, the cube, drops and Jacoby (docs/rules.md §7, §8)."""

import pytest

from bgpi.rules.position import Position, Side
from bgpi.rules.result import GameResult, ResultKind


def finished(loser: Side, points: dict[int, int], bar: int = 0) -> Position:
    """`loser`'s checkers at absolute points {point: count} and on the bar.

    The winner has borne off all 15."""
    return Position.from_absolute({p: (loser, n) for p, n in points.items()}, {loser: bar})


def test_single_when_the_loser_has_borne_off_one_checker():
    position = finished(Side.BLACK, {19: 14})
    assert ResultKind.of(position) is ResultKind.SINGLE
    assert GameResult.of(position) == GameResult(Side.WHITE, ResultKind.SINGLE, 1)


def test_single_even_with_a_checker_in_the_winners_home_board():
    position = finished(Side.BLACK, {19: 13, 3: 1})
    assert ResultKind.of(position) is ResultKind.SINGLE


def test_gammon_when_the_loser_has_borne_off_none():
    position = finished(Side.BLACK, {19: 15})
    assert ResultKind.of(position) is ResultKind.GAMMON


def test_gammon_with_checkers_in_the_outer_boards_only():
    position = finished(Side.BLACK, {19: 10, 7: 5})
    assert ResultKind.of(position) is ResultKind.GAMMON


def test_backgammon_with_a_checker_in_the_winners_home_board():
    position = finished(Side.BLACK, {19: 14, 6: 1})
    assert ResultKind.of(position) is ResultKind.BACKGAMMON


def test_backgammon_with_a_checker_on_the_bar():
    position = finished(Side.BLACK, {19: 14}, bar=1)
    assert ResultKind.of(position) is ResultKind.BACKGAMMON


def test_black_wins_a_backgammon_against_white_in_blacks_home_board():
    position = finished(Side.WHITE, {6: 14, 24: 1})
    result = GameResult.of(position)
    assert (result.winner, result.loser, result.kind) == (
        Side.BLACK,
        Side.WHITE,
        ResultKind.BACKGAMMON,
    )


def test_points_are_the_multiplier_times_the_cube():
    single, gammon, backgammon = (
        finished(Side.BLACK, {19: 14}),
        finished(Side.BLACK, {19: 15}),
        finished(Side.BLACK, {19: 14, 1: 1}),
    )
    assert [GameResult.of(p, 4).points for p in (single, gammon, backgammon)] == [4, 8, 12]


def test_kind_values_are_the_table_log_names():
    assert [kind.value for kind in ResultKind] == ["single", "gammon", "backgammon"]


def test_a_game_not_over_has_no_result():
    with pytest.raises(ValueError, match="not over"):
        GameResult.of(Position.start())


def test_a_dropped_double_scores_the_cube_before_the_double_and_no_gammon():
    result = GameResult.drop(Side.BLACK, 2)
    assert (result.winner, result.kind, result.points, result.dropped) == (
        Side.BLACK,
        ResultKind.SINGLE,
        2,
        True,
    )


def test_jacoby_counts_a_gammon_as_single_on_an_unturned_cube():
    gammon = finished(Side.BLACK, {19: 15})
    result = GameResult.of(gammon, 1, jacoby=True, cube_turned=False)
    assert (result.kind, result.points) == (ResultKind.SINGLE, 1)


def test_jacoby_counts_a_backgammon_as_single_on_an_unturned_cube():
    backgammon = finished(Side.BLACK, {19: 14}, bar=1)
    assert GameResult.of(backgammon, 2, jacoby=True).points == 2


def test_jacoby_lets_gammons_count_once_the_cube_is_turned():
    gammon = finished(Side.BLACK, {19: 15})
    result = GameResult.of(gammon, 2, jacoby=True, cube_turned=True)
    assert (result.kind, result.points) == (ResultKind.GAMMON, 4)


def test_without_jacoby_gammons_count_on_a_centred_cube():
    gammon = finished(Side.BLACK, {19: 15})
    assert GameResult.of(gammon, 1, jacoby=False).points == 2


def test_a_cube_value_must_be_positive():
    with pytest.raises(ValueError):
        GameResult(Side.WHITE, ResultKind.SINGLE, 0)


def test_a_dropped_double_cannot_be_a_gammon():
    with pytest.raises(ValueError, match="dropped"):
        GameResult(Side.WHITE, ResultKind.GAMMON, 1, dropped=True)
