"""gnubg Position ID and Match ID: encode, decode, and agreement with gnubg itself."""

import base64
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgpi.rules.ids import (
    GameState,
    MatchKey,
    Resignation,
    board_id,
    decode_match_id,
    decode_position_id,
    match_id,
    position_from_id,
    position_id,
    result_ids,
)
from bgpi.rules.movegen import legal_results, packed_results
from bgpi.rules.position import Position, Side
from bgpi.rules.selfplay import corpus
from tests.rules.strategies import scatter

WHITE, BLACK = Side.WHITE, Side.BLACK
START_ID = "4HPwATDgc/ABMA"


def random_board(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A gnubg anBoard that can occur, white on roll."""
    position = scatter(rng)
    return position.black, position.white


def position_id_from_key_bits(bits: int) -> str:
    """A Position ID with the given 80 key bits, written the way gnubg writes any key."""
    return base64.b64encode(bits.to_bytes(10, "little")).decode()[:14]


def match_id_from_key_bits(bits: int) -> str:
    return base64.b64encode(bits.to_bytes(9, "little")).decode()


def ones_then_zero(counts):
    """The key bits for a sequence of location counts."""
    text = "".join("1" * count + "0" for count in counts)
    return int(text[::-1], 2)


# --- Position ID -------------------------------------------------------------------


def test_the_starting_position_id():
    assert position_id(Position.start(), WHITE) == START_ID
    assert position_id(Position.start(), BLACK) == START_ID
    assert position_from_id(START_ID, WHITE) == Position.start()


def test_the_board_is_the_player_not_on_roll_then_the_player_on_roll():
    # white on roll with a checker on the bar; black has 2 on its 6-point
    white = [0] * 25
    white[24], white[5] = 1, 14
    black = [0] * 25
    black[5] = 2
    position = Position(tuple(white), tuple(black))
    assert decode_position_id(position_id(position, WHITE)) == (
        tuple(black),
        tuple(white),
    )
    assert decode_position_id(position_id(position, BLACK)) == (
        tuple(white),
        tuple(black),
    )
    assert position_id(position, WHITE) != position_id(position, BLACK)


def test_position_round_trip_for_either_player_on_roll():
    rng = random.Random(7)
    for _ in range(500):
        opponent, own = random_board(rng)
        for side in Side:
            position = Position.of(side, own, opponent)
            assert position_from_id(position_id(position, side), side) == position


def test_board_id_writes_each_location_as_its_checkers_then_a_zero_bit():
    # The definition, one location at a time, against the encoder over self-play positions.
    for position, side, _ in corpus(2000, seed=11):
        board = (position.checkers(side.opponent), position.checkers(side))
        assert board_id(board) == position_id_from_key_bits(ones_then_zero(board[0] + board[1]))


def test_result_ids_are_the_board_ids_of_the_legal_results_in_their_order():
    # Many results hit a blot: the opponent's half of the key is not always the one before the play.
    hits = 0
    for position, side, dice in corpus(3000, seed=12):
        own, opponent = position.checkers(side), position.checkers(side.opponent)
        results = legal_results(own, opponent, dice)
        hits += sum(theirs != opponent for _, theirs in results)
        expected = [board_id((theirs, counts)) for counts, theirs in results]
        assert result_ids(packed_results(own, opponent, dice)) == expected
    assert hits > 1000


def test_packed_results_are_the_legal_results_four_bits_a_location():
    for position, side, dice in corpus(3000, seed=13):
        own, opponent = position.checkers(side), position.checkers(side.opponent)
        unpacked = [
            (tuple(packed >> (4 * index) & 15 for index in range(25)), theirs)
            for packed, theirs in packed_results(own, opponent, dice)
        ]
        assert unpacked == legal_results(own, opponent, dice)


def test_position_id_refuses_a_position_that_cannot_occur():
    crowded = Position.start().white[:-1] + (1,)  # a 16th checker on the bar
    with pytest.raises(ValueError, match="white has 16 checkers"):
        position_id(Position(crowded, Position.start().black), WHITE)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4HPwATDgc/ABM", "has 13 characters, expected 14"),
        ("4HPwATDgc/ABMAA", "has 15 characters, expected 14"),
        ("", "has 0 characters"),
        ("4HPwATDgc/AB-A", "character '-' at position 13 is not base64"),
        ("4HPwATDgc=ABMA", "character '=' at position 10 is not base64"),
        ("4HPwATDgc/ABM=", "character '=' at position 14 is not base64"),
        ("4HPwATDgc/AB\nA", "character '\\\\n' at position 13 is not base64"),
        ("4HPwATDgc/ABMé", "character 'é' at position 14 is not base64"),
        ("4HPwATDgc/ABMB", "last character 'B' sets bits beyond the 80-bit key"),
        ("//////////////", "last character '/' sets bits beyond"),
    ],
)
def test_a_malformed_position_id_is_refused(text, message):
    with pytest.raises(ValueError, match=message):
        decode_position_id(text)


def test_a_key_with_too_many_checkers_runs_past_80_bits():
    with pytest.raises(ValueError, match="run past the 80-bit key"):
        decode_position_id(position_id_from_key_bits((1 << 72) - 1))


def test_more_than_15_checkers_a_side_is_refused():
    bits = ones_then_zero([16] + [0] * 49)
    with pytest.raises(
        ValueError, match="the player not on roll has 16 checkers, more than 15"
    ):
        decode_position_id(position_id_from_key_bits(bits))
    bits = ones_then_zero([0] * 25 + [8, 8] + [0] * 23)
    with pytest.raises(ValueError, match="the player on roll has 16 checkers"):
        decode_position_id(position_id_from_key_bits(bits))


def test_bits_after_the_last_location_are_trailing_garbage():
    bits = ones_then_zero([0] * 50) | 1 << 60
    with pytest.raises(ValueError, match="trailing garbage"):
        decode_position_id(position_id_from_key_bits(bits))


def test_both_colours_on_one_point_is_refused():
    # the player not on roll on its 1-point is the player on roll's 24-point
    bits = ones_then_zero([1] + [0] * 24 + [0] * 23 + [1, 0])
    with pytest.raises(
        ValueError, match="point 24 of the player on roll holds checkers of both"
    ):
        decode_position_id(position_id_from_key_bits(bits))


def test_both_players_on_the_bar_against_closed_boards_is_refused():
    side = [2] * 6 + [0] * 18 + [1]
    with pytest.raises(
        ValueError, match="both players are on the bar against closed boards"
    ):
        decode_position_id(position_id_from_key_bits(ones_then_zero(side + side)))


# --- Position ID against gnubg ------------------------------------------------------


@pytest.fixture(scope="module")
def gnubg():
    return pytest.importorskip(
        "gnubg_nn",
        reason="gnubg-nn (GNU Backgammon's engine, the oracle) is not installed",
    )


def test_position_ids_agree_with_gnubg_both_ways(gnubg):
    rng = random.Random(2024)
    boards = [random_board(rng) for _ in range(3000)]
    for board in boards:
        expected = gnubg.position_id([list(board[0]), list(board[1])])
        assert board_id(board) == expected, board
        decoded = decode_position_id(expected)
        assert decoded == board
        assert [list(side) for side in decoded] == [
            list(side) for side in gnubg.board_from_position_id(expected)
        ]


def test_the_positions_after_gnubg_plays_agree_with_gnubg(gnubg):
    start = [list(side) for side in decode_position_id(START_ID)]
    for first, second in [(3, 1), (6, 6), (5, 2)]:
        for key in gnubg.moves(start, first, second):
            after = tuple(tuple(side) for side in gnubg.board_from_position_key(key))
            assert board_id(after) == gnubg.position_id([list(side) for side in after])


# --- Match ID ------------------------------------------------------------------------

# gnubg manual, "A technical description of the Match ID": score 2-4 in a 9-point
# match, player 0 holds a 2-cube, player 1 has rolled 52.
MANUAL_EXAMPLE = MatchKey(
    cube_value=2,
    cube_owner=WHITE,
    dice_owner=BLACK,
    game_state=GameState.PLAYING,
    turn=BLACK,
    dice=(5, 2),
    match_length=9,
    score=(2, 4),
)


def test_the_manual_example():
    assert match_id(MANUAL_EXAMPLE) == "QYkqASAAIAAA"
    assert decode_match_id("QYkqASAAIAAA") == MANUAL_EXAMPLE


def test_a_money_game_with_player_1_to_roll():
    key = MatchKey(dice_owner=BLACK, turn=BLACK)
    assert match_id(key) == "cAkAAAAAAAAA"
    assert decode_match_id("cAkAAAAAAAAA") == key


def test_the_larger_die_is_written_first_as_gnubg_does():
    assert MatchKey(dice=(2, 5)).dice == (5, 2)
    assert match_id(MatchKey(dice=(2, 5))) == match_id(MatchKey(dice=(5, 2)))


def test_each_field_lands_in_its_bits():
    key = MatchKey(
        cube_value=1 << 15,
        cube_owner=BLACK,
        dice_owner=BLACK,
        crawford=True,
        game_state=GameState.DROPPED,
        turn=BLACK,
        double_offered=True,
        resignation=Resignation.BACKGAMMON,
        dice=(6, 6),
        match_length=64,
        score=(63, 64),
    )
    bits = int.from_bytes(base64.b64decode(match_id(key)), "little")
    assert bits == (
        15 | 1 << 4 | 1 << 6 | 1 << 7 | 4 << 8 | 1 << 11 | 1 << 12 | 3 << 13
        | 6 << 15 | 6 << 18 | 64 << 21 | 63 << 36 | 64 << 51
    )  # fmt: skip
    assert decode_match_id(match_id(key)) == key


match_keys = st.builds(
    MatchKey,
    cube_value=st.sampled_from([1 << n for n in range(16)]),
    cube_owner=st.sampled_from([None, WHITE, BLACK]),
    dice_owner=st.sampled_from(Side),
    game_state=st.sampled_from(GameState),
    turn=st.sampled_from(Side),
    double_offered=st.booleans(),
    resignation=st.sampled_from(Resignation),
    dice=st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    match_length=st.just(0),
    score=st.tuples(st.integers(0, 32767), st.integers(0, 32767)),
)
match_play_keys = st.integers(1, 64).flatmap(
    lambda length: st.builds(
        MatchKey,
        crawford=st.booleans(),
        match_length=st.just(length),
        score=st.tuples(st.integers(0, length), st.integers(0, length)),
        dice=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    )
)


@given(st.one_of(match_keys, match_play_keys))
def test_match_id_round_trip(key):
    text = match_id(key)
    assert len(text) == 12
    assert decode_match_id(text) == key


def test_the_extended_jacoby_bit_is_accepted_and_ignored():
    bits = int.from_bytes(base64.b64decode("QYkqASAAIAAA"), "little") | 1 << 66
    assert decode_match_id(match_id_from_key_bits(bits)) == MANUAL_EXAMPLE


@pytest.mark.parametrize(
    ("bits", "message"),
    [
        (2 << 4 | 1 << 8, "cube owner bits 10"),
        (3 << 4 | 5 << 8, "game state 5 is not 0 to 4"),
        (3 << 4 | 7 << 8, "game state 7"),
        (3 << 4 | 1 << 8 | 7 << 15 | 1 << 18, r"dice \(7, 1\)"),
        (3 << 4 | 1 << 8 | 3 << 15, "both dice are rolled, or neither"),
        (3 << 4 | 1 << 8 | 65 << 21, "match length 65 is not 0"),
        (
            3 << 4 | 1 << 8 | 5 << 21 | 6 << 36,
            r"score \(6, 0\): two scores from 0 to 5",
        ),
        (3 << 4 | 1 << 7 | 1 << 8, "no Crawford game in money play"),
        (3 << 4 | 1 << 8 | 1 << 67, "trailing garbage"),
    ],
)
def test_a_match_id_gnubg_would_not_write_is_refused(bits, message):
    with pytest.raises(ValueError, match=message):
        decode_match_id(match_id_from_key_bits(bits))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("QYkqASAAIAA", "has 11 characters, expected 12"),
        ("QYkqASAAIAAA=", "has 13 characters"),
        ("QYkqASAA AAA", "character ' ' at position 9 is not base64"),
        ("QYkqASAAIA==", "character '=' at position 11 is not base64"),
    ],
)
def test_a_malformed_match_id_is_refused(text, message):
    with pytest.raises(ValueError, match=message):
        decode_match_id(text)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cube_value": 3}, "cube value 3 is not a power of two"),
        ({"cube_value": 1 << 16}, "cube value 65536"),
        ({"dice": (0, 7)}, "two dice of 1 to 6"),
        ({"match_length": 3, "score": (4, 0)}, "two scores from 0 to 3"),
        ({"crawford": True}, "no Crawford game in money play"),
    ],
)
def test_a_match_key_the_id_cannot_hold_is_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        MatchKey(**fields)
