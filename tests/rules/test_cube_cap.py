"""The cube cap (docs/rules.md §8): a session setting, none by default."""

import pytest

from bgpi.exc import CubeError, SettingsError
from bgpi.rules.session import MAX_CUBE, Game, Session, Settings


def test_no_cap_by_default_but_the_match_ids_limit():
    assert Settings().cube_cap == 0 and Settings().cube_limit == MAX_CUBE == 32768


@pytest.mark.parametrize("cap", [1, 3, 6, 65536, -2, True])
def test_a_cap_is_a_power_of_two_from_two(cap):
    with pytest.raises(SettingsError, match="cube_cap"):
        Settings.from_config({"cube_cap": cap})


@pytest.mark.parametrize(("cap", "reason"), [(2, "a beaver would pass the cube's cap of 2"), (4, None), (0, None)])
def test_a_beaver_beyond_the_cap_is_refused_with_the_reason(cap, reason):
    game = Game(Session(Settings(beavers=True, cube_cap=cap))).opening(5, 1).end_turn()
    black = game.turn
    game = game.double(black)
    assert game.why_not_beaver(black.opponent) == reason


def test_automatic_doubles_stop_at_the_cap():
    game = Game(Session(Settings(auto_doubles=3, cube_cap=2))).opening(2, 2).opening(4, 4)
    assert game.cube.value == 2 and game.automatic_doubles == 1


def test_the_cap_refuses_the_double_that_passes_it():
    game = Game(Session(Settings(cube_cap=2))).opening(5, 1).end_turn()  # black to roll
    black = game.turn
    game = game.double(black).take(black.opponent).roll().end_turn()  # white owns the 2-cube and is on roll
    assert game.why_not_double(game.turn) == "the cube is at its cap of 2"
    with pytest.raises(CubeError, match="cap of 2"):
        game.double(game.turn)
