"""The team match: its file, the team score (two of three) and the pairs' records."""

from __future__ import annotations

import json

import pytest

from bgpi.exc import TeamMatchError
from bgpi.records.reading import recorded_position
from bgpi.remote.state import BoardState, parse_board_state
from bgpi.remote.team import Pair, TeamMatch, pair_records, parse_team_match, team_score
from bgpi.rules.position import Side
from bgpi.table import events as ev
from tests.remote.team_logs import match_log, over_state, playing_state, winner_of

FILE = """
name = "Club evening"
teams = ["Lions", "Tigers"]

[[pair]]
game = "club-1"
white = "Lions"
length = 1

[[pair]]
game = "club-2"
white = "Tigers"
length = 1

[[pair]]
game = "club-3"
white = "Lions"
length = 3
"""


def test_the_match_file_is_read() -> None:
    match = parse_team_match(FILE)
    assert match == TeamMatch("Club evening", ("Lions", "Tigers"), (
        Pair("club-1", "Lions", "Tigers", 1), Pair("club-2", "Tigers", "Lions", 1),
        Pair("club-3", "Lions", "Tigers", 3)))
    assert match.needed == 2
    assert match.pair("club-2") == match.pairs[1] and match.pair("club-9") is None


PAIR = '[[pair]]\ngame = "g1"\nwhite = "A"\nlength = 5\n'


@pytest.mark.parametrize("text, words", [
    ("name = ", "not TOML"),
    ("name = " + "[" * 5000 + "]" * 5000, "not TOML this board reads: nested too deeply"),
    ('name = "M"\nteams = ["A", "B"]\ncolour = 1\n' + PAIR, "unknown key 'colour'"),
    ('teams = ["A", "B"]\n' + PAIR, "name: the match is named"),
    ('name = "M"\nteams = ["A"]\n' + PAIR, "teams: two team names"),
    ('name = "M"\nteams = ["A", "A"]\n' + PAIR, "both are named 'A'"),
    ('name = "M"\nteams = ["A", 3]\n' + PAIR, "a team is named"),
    ('name = "M"\nteams = ["A:1", "B"]\n' + PAIR, "cannot hold ':'"),
    ('name = "M"\nteams = ["A", "B"]\n', "no \\[\\[pair\\]\\] tables"),
    ('name = "M"\nteams = ["A", "B"]\n' + PAIR * 2, "2 pairs: a team match has an odd number"),
    ('name = "M"\nteams = ["A", "B"]\n' + PAIR * 3, "game ID 'g1' names two pairs"),
    ('name = "M"\nteams = ["A", "B"]\n' + PAIR.replace('"g1"', '"g/1"'), "pair 1: game 'g/1'"),
    ('name = "M"\nteams = ["A", "B"]\n' + PAIR.replace('"A"', '"C"'), "white 'C' is not a team"),
    ('name = "M"\nteams = ["A", "B"]\n' + PAIR.replace("5", "0"), "length '0': a match of 1 to 64"),
    ('name = "M"\nteams = ["A", "B"]\n' + PAIR.replace("5", '"5"'), "length '5'"),
    ('name = "M"\nteams = ["A", "B"]\n' + PAIR + "lenght = 3\n", "pair 1: unknown key 'lenght'"),
])
def test_a_bad_match_file_is_one_line(text: str, words: str) -> None:
    with pytest.raises(TeamMatchError, match=words) as caught:
        parse_team_match(text)
    assert "\n" not in str(caught.value)


def _state(message: dict) -> BoardState:
    return parse_board_state(json.dumps(message).encode())


def _over(game: str, winner: Side, length: int = 1) -> list[BoardState]:
    """Both boards of `game` at match over, `winner` having won `length`-0."""
    log: list[ev.Event] = [ev.NewSession({"match": length}),
                           ev.MatchOver(winner, {winner.label: length, winner.opponent.label: 0})]
    return [_state(over_state(game, side, log)) for side in Side]


def test_two_of_three_win_the_team_match_while_the_third_pair_still_plays() -> None:
    match = parse_team_match(FILE)
    states = {"club-1": _over("club-1", Side.WHITE),  # Lions play white there
              "club-2": _over("club-2", Side.BLACK),  # and black here
              "club-3": [_state(playing_state("club-3", Side.WHITE, 3))]}
    score = team_score(match, states)
    assert [result.winner for result in score.results] == ["Lions", "Lions", None]
    assert (score.wins, score.winner, score.playing) == ((2, 0), "Lions", 1)
    assert score.describe() == "Lions 2, Tigers 0: Lions win the team match"


def test_one_all_with_a_pair_still_playing_is_undecided() -> None:
    match = parse_team_match(FILE)
    states = {"club-1": _over("club-1", Side.WHITE), "club-2": _over("club-2", Side.WHITE)}
    score = team_score(match, states)
    assert (score.wins, score.winner, score.playing) == ((1, 1), None, 1)
    assert score.describe() == "Lions 1, Tigers 1 (2 of 3 to win)"
    states["club-3"] = _over("club-3", Side.BLACK, 3)[:1]  # one board is enough
    assert team_score(match, states).winner == "Tigers"


def test_boards_that_disagree_or_play_another_match_are_not_counted() -> None:
    match = parse_team_match(FILE)
    white_says, black_says = _over("club-1", Side.WHITE)[0], _over("club-1", Side.BLACK)[1]
    result = team_score(match, {"club-1": [white_says, black_says]}).results[0]
    assert (result.winner, result.problem) == (None, "the two boards name different winners")
    longer = _state(playing_state("club-1", Side.BLACK, 7))
    result = team_score(match, {"club-1": [longer]}).results[0]
    assert result.problem == "the black board plays a match to 7, the match file says 1"


def test_a_pairs_match_is_written_as_mat_and_sgf_with_the_teams_as_players() -> None:
    log = match_log(seed=3, length=3)
    pair = Pair("club-3", "Lions", "Tigers", 3)
    mat, sgf = pair_records(pair, log)
    assert mat.games == sgf.games >= 1 and not mat.warnings
    assert "Lions : 0" in mat.text and "Tigers : 0" in mat.text
    plays = [event for event in log if isinstance(event, ev.Play)]
    first_game = log.index(next(event for event in log if isinstance(event, ev.GameOver)))
    last = len([event for event in log[:first_game] if isinstance(event, ev.Play)])
    for text, kind in ((mat.text, "mat"), (sgf.text, "sgf")):
        before_last = recorded_position(text, kind, game=1, play=last)
        assert before_last.position_id == plays[last - 2].position_id
    assert winner_of(log) in Side


def test_a_log_that_lost_its_session_event_is_the_files_match() -> None:
    log = match_log(seed=4, length=1)[1:]
    mat, _ = pair_records(Pair("club-1", "Lions", "Tigers", 1), log)
    assert mat.text.startswith(" 1 point match") and mat.games == 1


def test_a_session_the_board_starts_after_the_match_is_left_out() -> None:
    log = match_log(seed=5, length=1)
    after = [ev.NewSession({"match": 7}), *match_log(seed=6, length=1)[1:3]]
    mat, sgf = pair_records(Pair("club-1", "Lions", "Tigers", 1), log + after)
    assert mat.text == pair_records(Pair("club-1", "Lions", "Tigers", 1), log)[0].text
    assert mat.text.startswith(" 1 point match") and sgf.games == 1
