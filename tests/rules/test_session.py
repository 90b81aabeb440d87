"""Settings, match and money scoring, Crawford, and who may double when (docs/rules.md §3, §8, §9)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgpi.exc import CubeError
from bgpi.rules.cube import Cube
from bgpi.rules.position import Position, Side
from bgpi.rules.result import GameResult, ResultKind
from bgpi.rules.session import Game, Score, Session, Settings

WHITE, BLACK = Side.WHITE, Side.BLACK


def won(side: Side, points: int) -> GameResult:
    return GameResult(side, ResultKind.SINGLE, points)


def match(length: int, white: int = 0, black: int = 0, crawford: bool = False) -> Session:
    return Session(Settings.match(length), Score(white, black), crawford=crawford)


def gammon_for_white() -> Position:
    return Position.from_absolute({19: (BLACK, 15)})


def started(session: Session, turn: Side = WHITE) -> Game:
    """A game in `session` with `turn` to roll at the start of a turn."""
    return Game(session, turn=turn)


# Settings


def test_money_play_is_the_default_with_jacoby_on_and_beavers_and_automatic_doubles_off():
    settings = Settings()
    assert (settings.is_match, settings.jacoby, settings.beavers, settings.auto_doubles) == (
        False,
        True,
        False,
        0,
    )


def test_a_match_has_no_jacoby():
    assert Settings.match(5) == Settings(match_length=5, jacoby=False)


@pytest.mark.parametrize("setting", [{"jacoby": True}, {"beavers": True}, {"auto_doubles": 1}])
def test_a_match_refuses_money_only_rules_naming_the_setting(setting):
    name = next(iter(setting))
    with pytest.raises(ValueError, match=f"^{name}: only for money play"):
        Settings.from_config({"match": 5, **setting})


def test_config_defaults_follow_the_kind_of_play():
    assert Settings.from_config({}) == Settings()
    assert Settings.from_config({"match": 7, "lenient": True}) == Settings.match(7)
    assert Settings.from_config({"beavers": True, "auto_doubles": 2, "jacoby": False}) == Settings(
        jacoby=False, beavers=True, auto_doubles=2
    )


@pytest.mark.parametrize(
    "config", [{"match": -1}, {"match": "5"}, {"jacoby": 1}, {"auto_doubles": True},
               {"match": 65}, {"auto_doubles": 9}, {"auto_doubles": 10**18}]
)
def test_config_values_of_the_wrong_type_are_refused(config):
    with pytest.raises(ValueError, match=f"^{next(iter(config))}:"):
        Settings.from_config(config)


# Scoring


def test_a_match_is_won_by_the_first_to_reach_n_and_points_beyond_do_not_matter():
    session = match(5, 3, 4).record(GameResult(WHITE, ResultKind.BACKGAMMON, 2))
    assert (session.score, session.is_over, session.winner) == (Score(9, 4), True, WHITE)
    assert session.score.as_dict() == {"white": 9, "black": 4}


def test_a_finished_match_records_no_more_games():
    session = match(3, 3, 0)
    with pytest.raises(ValueError, match="white has won"):
        session.record(won(BLACK, 1))
    with pytest.raises(ValueError):
        session.new_game()


def test_a_match_is_not_over_below_n():
    session = match(5).record(won(WHITE, 4))
    assert (session.is_over, session.winner, session.needs(WHITE), session.needs(BLACK)) == (
        False,
        None,
        1,
        5,
    )


def test_money_play_keeps_running_totals_and_never_ends():
    session = Session()
    for result in (won(WHITE, 4), won(BLACK, 2), GameResult(WHITE, ResultKind.GAMMON, 8)):
        session = session.record(result)
    assert (session.score, session.games, session.game_number) == (Score(20, 2), 3, 4)
    assert (session.is_over, session.winner, session.crawford, session.post_crawford) == (
        False,
        None,
        False,
        False,
    )


# Crawford


def test_the_game_after_a_player_reaches_n_minus_1_is_the_crawford_game():
    session = match(5, 3, 0).record(won(WHITE, 1))
    assert (session.crawford, session.post_crawford) == (True, False)


def test_jumping_to_n_minus_1_with_a_gammon_also_brings_the_crawford_game():
    session = match(5, 2, 1).record(GameResult(BLACK, ResultKind.GAMMON, 1))
    assert session.score == Score(2, 3) and not session.crawford
    session = session.record(GameResult(WHITE, ResultKind.GAMMON, 1))
    assert session.score == Score(4, 3) and session.crawford


def test_only_one_game_is_the_crawford_game_the_next_is_post_crawford():
    session = match(5, 4, 1, crawford=True).record(won(BLACK, 1))
    assert (session.crawford, session.post_crawford) == (False, True)
    session = session.record(won(BLACK, 1))
    assert (session.crawford, session.post_crawford) == (False, True)


def test_the_trailer_reaching_n_minus_1_after_crawford_brings_no_second_crawford_game():
    session = match(5, 4, 3).record(won(BLACK, 1))
    assert session.score == Score(4, 4)
    assert (session.crawford, session.post_crawford) == (False, True)


def test_the_trailer_reaching_n_minus_1_in_the_crawford_game_makes_both_post_crawford():
    session = match(5, 4, 2, crawford=True).record(GameResult(BLACK, ResultKind.GAMMON, 1))
    assert session.score == Score(4, 4)
    assert (session.crawford, session.post_crawford) == (False, True)


def test_winning_the_crawford_game_ends_the_match():
    session = match(5, 4, 2, crawford=True).record(won(WHITE, 1))
    assert (session.is_over, session.winner, session.post_crawford) == (True, WHITE, False)


def test_jumping_past_n_minus_1_to_n_ends_the_match_without_a_crawford_game():
    session = match(5, 3, 0).record(GameResult(WHITE, ResultKind.GAMMON, 1))
    assert (session.is_over, session.crawford) == (True, False)


def test_a_one_point_match_has_no_crawford_game():
    session = match(1)
    assert (session.crawford, session.post_crawford) == (False, False)


def test_a_crawford_flag_that_cannot_be_is_refused():
    for length, white, black in ((5, 4, 4), (5, 3, 2), (0, 0, 0), (1, 0, 0)):
        with pytest.raises(ValueError, match="^crawford:"):
            match(length, white, black, crawford=True)


def test_money_play_has_no_crawford_game():
    with pytest.raises(ValueError, match="^crawford:"):
        Session(Settings(), crawford=True)


@given(
    st.integers(1, 11),
    st.lists(
        st.tuples(st.sampled_from(list(Side)), st.sampled_from([1, 2, 3, 4, 6, 8])), max_size=30
    ),
)
def test_scores_never_fall_and_there_is_at_most_one_crawford_game(length, games):
    session = Session(Settings.match(length))
    crawford_games = 0
    for winner, points in games:
        if session.is_over:
            break
        crawford_games += session.crawford
        before = session.score
        session = session.record(won(winner, points))
        assert session.score[winner] == before[winner] + points
        assert session.score[winner.opponent] == before[winner.opponent]
        assert not (session.crawford and session.post_crawford)
    assert crawford_games + session.crawford <= 1
    assert session.is_over == (max(session.score.white, session.score.black) >= length)


# The opening roll and automatic doubles


def test_the_higher_opening_die_starts_having_rolled():
    game = Session().new_game().opening(3, 5)
    assert (game.turn, game.rolled, game.cube) == (BLACK, True, Cube())


def test_an_opening_tie_without_automatic_doubles_leaves_the_cube_alone():
    game = Session().new_game().opening(4, 4)
    assert (game.turn, game.cube.value) == (None, 1)


def test_automatic_doubles_double_the_centred_cube_up_to_the_cap():
    game = Session(Settings(auto_doubles=2)).new_game()
    for _ in range(3):
        game = game.opening(6, 6)
    game = game.opening(2, 1)
    assert (game.cube.value, game.cube.owner, game.automatic_doubles, game.turn) == (
        4,
        None,
        2,
        WHITE,
    )


def test_the_default_cap_of_one_automatic_double():
    game = Session(Settings.from_config({"auto_doubles": 1})).new_game().opening(1, 1).opening(1, 1)
    assert game.cube.value == 2


def test_an_automatic_double_does_not_turn_the_cube_for_jacoby():
    game = Session(Settings(auto_doubles=1)).new_game().opening(5, 5).opening(5, 2)
    result = game.result(gammon_for_white())
    assert (result.kind, result.points) == (ResultKind.SINGLE, 2)


def test_the_opening_roll_is_made_once_with_real_dice():
    game = Session().new_game()
    with pytest.raises(ValueError):
        game.opening(0, 3)
    with pytest.raises(ValueError, match="has been made"):
        game.opening(3, 1).opening(3, 1)


# Who may double when


def test_no_double_before_the_opening_roll():
    assert Session().new_game().why_not_double(WHITE) == "no double before the opening roll"


def test_the_starter_may_not_double_before_the_first_play():
    game = Session().new_game().opening(6, 1)
    assert game.why_not_double(WHITE) == "white has rolled: double before rolling"


def test_a_player_may_double_at_the_start_of_their_turn():
    game = Session().new_game().opening(6, 1).end_turn()
    assert game.may_double(BLACK)
    assert game.why_not_double(WHITE) == "it is black's turn"


def test_no_double_after_rolling():
    game = started(Session()).roll()
    assert game.why_not_double(WHITE) == "white has rolled: double before rolling"


def test_no_double_in_the_crawford_game():
    game = started(match(5, 4, 2, crawford=True))
    assert game.why_not_double(WHITE) == "the Crawford game allows no double"
    with pytest.raises(CubeError, match="Crawford"):
        game.double(WHITE)


def test_the_trailer_may_double_post_crawford_but_the_leaders_cube_is_dead():
    session = match(5, 4, 2)
    assert started(session, BLACK).may_double(BLACK)
    assert started(session, WHITE).why_not_double(WHITE) == "the cube is dead: white needs only 1"


def test_a_cube_already_worth_the_match_is_dead():
    game = Game(match(7, 3, 0), Cube(4, WHITE), turn=WHITE)
    assert game.why_not_double(WHITE) == "the cube is dead: white needs only 4"


def test_the_cube_owned_by_the_opponent_may_not_be_turned():
    game = Game(Session(), Cube(2, BLACK), turn=WHITE)
    assert game.why_not_double(WHITE) == "black owns the cube"


def test_double_take_then_the_doubler_rolls():
    game = started(Session()).double(WHITE)
    assert game.why_not_double(BLACK) == "white has doubled: black must take or drop first"
    with pytest.raises(ValueError, match="black must take or drop"):
        game.roll()
    game = game.take(BLACK)
    assert (game.turn, game.rolled, game.cube) == (WHITE, False, Cube(2, BLACK))
    assert game.roll().rolled


def test_double_dropped_ends_the_game():
    result = started(Session()).double(WHITE).drop(BLACK)
    assert (result.winner, result.points, result.dropped) == (WHITE, 1, True)


def test_a_turn_ends_only_after_the_roll():
    with pytest.raises(ValueError):
        started(Session()).end_turn()


# Beavers


def test_beaver_in_money_play_when_enabled():
    game = started(Session(Settings(beavers=True))).double(WHITE).beaver(BLACK)
    assert game.take(WHITE).cube == Cube(4, BLACK)


def test_beaver_refused_when_disabled():
    game = started(Session()).double(WHITE)
    assert game.why_not_beaver(BLACK) == "beavers are off in this session"
    with pytest.raises(CubeError, match="beavers are off"):
        game.beaver(BLACK)


def test_beaver_refused_in_match_play():
    game = started(match(7)).double(WHITE)
    assert game.why_not_beaver(BLACK) == "no beavers in match play"


# Results and Jacoby through the game


def test_jacoby_counts_a_gammon_single_on_a_centred_cube():
    result = started(Session()).result(gammon_for_white())
    assert (result.kind, result.points) == (ResultKind.SINGLE, 1)


def test_jacoby_lets_the_gammon_count_after_a_taken_double():
    game = started(Session()).double(WHITE).take(BLACK)
    result = game.result(gammon_for_white())
    assert (result.kind, result.points) == (ResultKind.GAMMON, 4)


def test_jacoby_off_in_money_play_counts_the_gammon():
    assert started(Session(Settings(jacoby=False))).result(gammon_for_white()).points == 2


def test_a_match_counts_gammons_on_a_centred_cube():
    assert started(match(5)).result(gammon_for_white()).points == 2


def test_a_game_recorded_in_the_session():
    session = match(3)
    result = session.new_game().opening(6, 1).result(gammon_for_white())
    session = session.record(result)
    assert (session.score, session.game_number, session.crawford) == (Score(2, 0), 2, True)
