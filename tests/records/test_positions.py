"""`bgpi run --position FILE.sgf|FILE.mat#GAME.PLAY`: practise a position from a record,
with its cube, score and Crawford game; one line and exit 2 for what cannot be read."""

from __future__ import annotations

import pytest

from bgpi.exc import RecordFileError
from bgpi.records.matfile import mat_record
from bgpi.records.reading import recorded_position
from bgpi.records.sgffile import sgf_record
from bgpi.rules.ids import decode_match_id
from bgpi.rules.position import Side
from bgpi.shell.journal import read_journal
from bgpi.table import events as ev
from tests.cli.test_run import bgpi, one_line_exit_2
from tests.records.test_round_trip import replayed

# A 5-point match: black wins game 1 on white's drop; in game 2 black doubles, white takes,
# black plays on.
MATCH = """{"config": {"match": 5}}
{"dice": [3, 1]}
{"press": "white.turn"}
{"move": [8, 5]}
{"move": [6, 5]}
{"press": "white.turn"}
{"press": "black.cube"}
{"press": "white.cube"}
{"press": "white.cube"}
{"move": [5, 6]}
{"move": [5, 8]}
{"dice": [4, 6]}
{"press": "black.turn"}
{"move": [1, 7]}
{"move": [7, 11]}
{"press": "black.turn"}
{"dice": [2, 1]}
{"press": "white.turn"}
{"move": [6, 4]}
{"move": [6, 5]}
{"press": "white.turn"}
{"press": "black.cube"}
{"press": "white.turn"}
{"dice": [2, 1]}
{"press": "black.turn"}
{"move": [19, 20]}
{"move": [19, 21]}
{"press": "black.turn"}
"""


@pytest.fixture(scope="module")
def records() -> dict[str, str]:
    events = replayed(MATCH)
    return {"mat": mat_record(events).text, "sgf": sgf_record(events).text}


def before_black_plays() -> str:
    """The Position ID after white's 21 of game 2, as the table logged it."""
    return [event for event in replayed(MATCH) if isinstance(event, ev.Play)][-2].position_id


@pytest.mark.parametrize("kind", ["mat", "sgf"])
def test_the_position_before_a_play_with_its_cube_and_score(records, kind):
    found = recorded_position(records[kind], kind, 2, 3)
    assert (found.turn, found.cube.value, found.cube.owner) == (Side.BLACK, 2, Side.WHITE)
    assert (found.match_length, found.score, found.crawford) == (5, (0, 1), False)
    assert found.describe() == ("game 2, play 3: black to roll, 5-point match at 0-1 (white-black), "
                                "cube 2 (white's)")
    assert found.position_id == before_black_plays() == "qHPwATDgc/AFIA"


@pytest.mark.parametrize("kind", ["mat", "sgf"])
@pytest.mark.parametrize(("game", "play", "words"), [
    (3, 1, "there is no game 3: the record holds 2"), (2, 4, "game 2 has no play 4"),
    (1, 2, "game 1 has no play 2"),
])
def test_a_game_or_play_out_of_range_is_refused(records, kind, game, play, words):
    with pytest.raises(RecordFileError, match=words):
        recorded_position(records[kind], kind, game, play)


def test_run_practises_the_position_and_says_it_in_one_line(records, tmp_path):
    path = tmp_path / "match.sgf"
    path.write_text(records["sgf"])
    state = tmp_path / "state"
    done = bgpi("run", "--board", "sim", "--state", str(state), "--position", f"{path}#2.3", "--json",
                stdin="q\n")
    assert done.returncode == 0, done.stderr
    assert f"bgpi run: practising {path}, game 2, play 3: black to roll" in done.stderr
    session = read_journal(state).events[0]
    assert isinstance(session, ev.NewSession) and session.match_id is not None
    key = decode_match_id(session.match_id)
    assert session.turn is Side.BLACK and session.position_id == before_black_plays()
    assert (key.cube_value, key.cube_owner, key.match_length, key.score) == (2, Side.WHITE, 5, (0, 1))


@pytest.mark.parametrize(("name", "text", "where", "words"), [
    ("m.mat", None, "#1.1", "cannot read"),
    ("m.mat", "hello\n", "#1.1", "not a .mat file"),
    ("m.sgf", "(;FF[4]GM[1])", "", "not a backgammon SGF file"),
    ("m.sgf", "(;FF[4]GM[6]MI[length:5];W[31hefe])", "#1.x", "expected FILE.sgf#GAME.PLAY"),
    ("m.sgf", "(;FF[4]GM[6]MI[length:5];W[31hefe])", "#4.1", "there is no game 4"),
    ("m.sgf", "(;FF[4]GM[6]MI[length:5];W[31hhee])", "#1.2", "not a legal play"),
])
def test_bad_files_and_numbers_are_one_line_and_exit_2(tmp_path, name, text, where, words):
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    done = bgpi("run", "--board", "sim", "--state", str(tmp_path / "state"), "--position", f"{path}{where}")
    one_line_exit_2(done, words)
    assert not (tmp_path / "state").exists()
