"""The retained `state` message: built from the table's `state` event, and checked when read."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bgpi.exc import BoardStateError
from bgpi.remote.state import MAX_BYTES, board_state, parse_board_state
from bgpi.rules.ids import MatchKey, match_id
from bgpi.rules.position import Side
from bgpi.table import events as ev
from bgpi.table.phases import Phase

BLACK_ROLLS = match_id(MatchKey(dice_owner=Side.BLACK, turn=Side.BLACK, match_length=5, score=(0, 0)))
ROLL = ev.State(Phase.ROLL, Side.BLACK, None, "4HPwATDgc/ABMA", BLACK_ROLLS, {"white": 0, "black": 0})
OVER = ev.State(Phase.MATCH_OVER, None, None, "4HPwATDgc/ABMA", None, {"white": 2, "black": 5})


def test_the_message_of_a_game_in_play_reads_the_match_id() -> None:
    message = board_state(ROLL, "club-1", Side.WHITE, "connected")
    assert message == {"v": 1, "game": "club-1", "side": "white", "phase": "roll", "turn": "black",
                       "match_length": 5, "score": [0, 0], "position_id": "4HPwATDgc/ABMA",
                       "match_id": BLACK_ROLLS, "crawford": False, "winner": None, "link": "connected"}
    assert parse_board_state(json.dumps(message).encode()).to_json() == message


def test_a_crawford_game_is_said() -> None:
    crawford = match_id(MatchKey(crawford=True, match_length=5, score=(4, 2)))
    message = board_state(replace(ROLL, turn=Side.WHITE, match_id=crawford, score={"white": 4, "black": 2}),
                          "g", Side.BLACK, "away")
    assert (message["crawford"], message["match_length"], message["score"]) == (True, 5, [4, 2])


def test_at_match_over_the_winner_is_named_and_the_length_comes_from_the_caller() -> None:
    message = board_state(OVER, "club-2", Side.BLACK, "connected", match_length=5)
    state = parse_board_state(json.dumps(message).encode())
    assert (state.phase, state.winner, state.match_length, state.side) == (Phase.MATCH_OVER, Side.BLACK, 5, Side.BLACK)
    between = board_state(replace(OVER, phase=Phase.SETUP), "club-2", Side.BLACK, "connected")
    assert (between["winner"], between["match_length"]) == (None, None)


@pytest.mark.parametrize("event, game, link, words", [
    (ROLL, "a/b", "connected", "game ID"),
    (ROLL, "g", "sleepy", "link 'sleepy'"),
])
def test_a_bad_argument_is_refused(event: ev.State, game: str, link: str, words: str) -> None:
    with pytest.raises(BoardStateError, match=words):
        board_state(event, game, Side.WHITE, link)


GOOD = board_state(ROLL, "club-1", Side.WHITE, "connected")


@pytest.mark.parametrize("raw, words", [
    (b"x" * (MAX_BYTES + 1), "bytes: at most"),
    (b"\xff{", "not JSON"),
    (b"{", "not JSON"),
    (b"[1]", "not a JSON object but list"),
    (b"[" * 8000, "not JSON"),
    (json.dumps({**GOOD, "v": 2}).encode(), "version 2"),
    (json.dumps({**GOOD, "v": True}).encode(), "version"),
    (json.dumps({k: v for k, v in GOOD.items() if k != "score"}).encode(), "without 'score'"),
    (json.dumps({**GOOD, "game": "../etc"}).encode(), "game ID"),
    (json.dumps({**GOOD, "game": 7}).encode(), "game is not text"),
    (json.dumps({**GOOD, "side": "purple"}).encode(), "unknown side 'purple'"),
    (json.dumps({**GOOD, "phase": "dancing"}).encode(), "bad value"),
    (json.dumps({**GOOD, "score": [1]}).encode(), "not \\[white, black\\]"),
    (json.dumps({**GOOD, "score": [1, -2]}).encode(), "black's score"),
    (json.dumps({**GOOD, "score": [True, 0]}).encode(), "white's score"),
    (json.dumps({**GOOD, "match_length": 65}).encode(), "match_length is '65'"),
    (json.dumps({**GOOD, "position_id": "nonsense"}).encode(), "bad ID: position ID"),
    (json.dumps({**GOOD, "match_id": "AAAA"}).encode(), "bad ID: match ID"),
    (json.dumps({**GOOD, "crawford": "no"}).encode(), "crawford is not true or false"),
    (json.dumps({**GOOD, "link": "x" * 500}).encode(), "link is 500 characters"),
    (json.dumps({**GOOD, "winner": "white"}).encode(), "once the match is over"),
])
def test_a_hostile_message_is_one_line(raw: bytes, words: str) -> None:
    with pytest.raises(BoardStateError, match=words) as caught:
        parse_board_state(raw)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 200


def test_keys_of_a_later_version_are_allowed() -> None:
    assert parse_board_state(json.dumps({**GOOD, "pips": [167, 167]}).encode()).game == "club-1"
