"""What bgpi asks an engine and how it reads the answers: no engine needed."""

from __future__ import annotations

import pytest

from bgpi.engine import CubeAdvice, Situation, Strength, parse_level
from bgpi.engine.advice import rank_plays
from bgpi.exc import EngineError
from bgpi.rules.ids import GameState, MatchKey, decode_match_id, match_id
from bgpi.rules.play import Dice
from bgpi.rules.position import Position, Side

START = "4HPwATDgc/ABMA"


def test_levels_by_name_or_plies():
    assert parse_level("Beginner") == Strength(0, 0.06)
    assert parse_level("worldclass") == Strength(2, 0.0)
    assert parse_level("1") == Strength(1, 0.0)
    with pytest.raises(ValueError, match="unknown engine level 'grandmaster'"):
        parse_level("grandmaster")
    with pytest.raises(ValueError, match="plies"):
        Strength(3)
    with pytest.raises(ValueError, match="noise"):
        Strength(0, -0.1)


def test_situation_from_ids_reads_cube_score_and_dice():
    key = MatchKey(cube_value=4, cube_owner=Side.WHITE, dice_owner=Side.BLACK, turn=Side.BLACK,
                   dice=(5, 2), match_length=7, score=(2, 5))
    situation, dice = Situation.from_ids(START, match_id(key))
    assert (situation.mover, situation.cube_value, situation.cube_owner) == (Side.BLACK, 4, Side.WHITE)
    assert (situation.match_length, situation.score, dice) == (7, (2, 5), Dice(5, 2))
    assert Situation.from_ids(START) == (Situation(Position.start(), Side.WHITE), None)


def test_query_is_seen_from_the_mover():
    situation = Situation(Position.start(), Side.BLACK, cube_value=2, cube_owner=Side.WHITE,
                          match_length=5, score=(1, 3))
    query = situation.query(Dice(6, 1), Strength(1, 0.015))
    assert query["position_id"] == START
    assert query["cube"] == [2, 1, 5, [3, 1], 0]  # owned by the opponent; the mover's score first
    key = decode_match_id(query["match_id"])
    assert (key.dice_owner, key.cube_owner, key.score, key.dice) == (Side.WHITE, Side.BLACK, (3, 1), (6, 1))
    assert (query["jacoby"], query["beavers"], query["plies"], query["noise"]) == (False, False, 1, 0.015)
    money = Situation(Position.start(), Side.WHITE, beavers=True).query(None, Strength())
    assert (money["dice"], money["jacoby"], money["beavers"]) == (None, True, True)


def test_a_match_id_of_a_finished_game_is_refused():
    with pytest.raises(ValueError, match="not of a game in play"):
        Situation.from_ids(START, match_id(MatchKey(game_state=GameState.OVER)))


@pytest.mark.parametrize("equities, beavers, action, response", [
    ((0.08, -0.19, 1.0), False, "no double", "take"),
    ((0.6, 0.7, 1.0), False, "double", "take"),
    ((0.9, 1.3, 1.0), False, "double", "drop"),
    ((1.2, 1.6, 1.0), False, "too good", "drop"),
    ((1.1, 0.9, 1.0), False, "too good", "take"),
    ((-0.3, -0.6, 1.0), True, "no double", "beaver"),
    ((-0.3, -0.6, 1.0), False, "no double", "take"),
])
def test_cube_advice_from_equities(equities, beavers, action, response):
    advice = CubeAdvice(*equities, beavers=beavers)
    assert (advice.action, advice.response) == (action, response)
    assert advice.as_json()["action"] == action


def test_an_illegal_engine_play_is_an_error():
    situation = Situation(Position.start(), Side.WHITE)
    with pytest.raises(EngineError, match="not a legal play of 31"):
        rank_plays(situation, Dice(3, 1), [{"move": "13/7", "equity": 0.1}])
    ranked = rank_plays(situation, Dice(3, 1), [{"move": "8/5 6/5", "equity": 0.2}])
    assert ranked[0].as_json() == {"move": "8/5 6/5", "position_id": "4HPwATCwZ/ABMA", "equity": 0.2}
