"""`bgpi analyse`: a session's decisions against gnubg's best, from the journal."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.engine import Situation, Strength
from bgpi.engine.process import find_gnubg
from bgpi.hardware.profile import load_profile
from bgpi.rules.ids import decode_match_id
from bgpi.shell.replay import replay
from bgpi.shell.script import parse_script
from tests.engine.conftest import ask_gnubg
from tests.engine.test_gnubg import _gnubg_words

needs_gnubg = pytest.mark.skipif(not find_gnubg(), reason="Debian's gnubg is not installed")

# White opens 3-1 with 24/23 24/21 (gnubg: 8/5 6/5 is better by about 0.22); black plays
# 6-5 as 24/13; white doubles early (a mistake) and black takes (right).
GAME = """\
{"dice": [3, 1]}
{"press": "white.turn"}
{"move": [24, 21]}
{"move": [24, 23]}
{"press": "white.turn"}
{"dice": [6, 5]}
{"press": "black.turn"}
{"move": [1, 7]}
{"move": [7, 12]}
{"press": "black.turn"}
{"press": "black.turn"}
{"press": "white.cube"}
{"press": "black.turn"}
"""


@pytest.fixture
def state(tmp_path):
    profile = load_profile()
    replay(parse_script(GAME, geometry=profile.geometry), profile, lambda event: None, tmp_path)
    return tmp_path


@needs_gnubg
def test_every_decision_with_its_loss(capsys, state):
    assert main(["analyse", "--state", str(state), "--json", "--engine", "gnubg"]) == 0
    report = json.loads(capsys.readouterr().out)
    kinds = [(d["player"], d["kind"], d["chosen"]) for d in report["decisions"]]
    assert kinds == [("white", "play", "24/23 24/21"), ("black", "cube", "no double"),
                     ("black", "play", "24/13"), ("white", "cube", "double"), ("black", "answer", "take")]
    white_play, _, black_play, white_double, black_take = report["decisions"]
    assert white_play["best"] == "8/5 6/5" and white_play["loss"] > 0.16
    assert black_play["loss"] == 0 and black_take["loss"] == 0 and black_take["best"] == "take"
    assert white_double["best"] == "no double" and white_double["loss"] > 0
    assert report["players"]["white"]["blunders"] == 2 and report["players"]["black"]["lost"] == 0
    assert white_play in report["worst"] and white_double in report["worst"]


@needs_gnubg
def test_in_words(capsys, state):
    assert main(["analyse", "--state", str(state), "--engine", "gnubg"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("session 1: 1 game, 5 decisions")
    assert "game 1, white (play): 24/23 24/21; better 8/5 6/5" in out


def test_no_engine_is_one_line_and_exit_2(capsys, state):
    assert main(["analyse", "--state", str(state), "--engine", "none"]) == 2
    assert capsys.readouterr().err == "bgpi analyse: cannot analyse: no engine: none is configured\n"


def test_no_journal(capsys, tmp_path):
    assert main(["analyse", "--state", str(tmp_path)]) == 2
    assert "no journal in" in capsys.readouterr().err


# The chouette of tests/scenarios/chouette_cube_round.jsonl (Bob the box, white; Ann the
# captain, Cat, Dan), decision by decision: who decided, what, on whose cube, that cube's
# value and owner before the decision (the box's colour is white).
CHOUETTE = [
    ("Ann", "cube", "Ann", "double", 1, None), ("Dan", "cube", "Dan", "double", 1, None),
    ("Bob", "answer", "Ann", "take", 1, None), ("Bob", "answer", "Dan", "beaver", 1, None),
    # Dan's take of the beaver is no decision; Cat could still double before the team's roll
    ("Cat", "cube", "Cat", "no double", 1, None), ("Ann", "play", "Ann", "8/5 6/5", 2, "white"),
    ("Bob", "cube", "Ann", "double", 2, "white"), ("Bob", "cube", "Cat", "double", 1, None),
    ("Ann", "answer", "Ann", "drop", 2, "white"), ("Cat", "answer", "Cat", "take", 1, None),
    ("Bob", "cube", "Dan", "no double", 4, "white"), ("Bob", "play", "Cat", "8/2 6/2", 2, "black"),
    ("Dan", "play", "Dan", "13/11 13/8", 4, "white"),
    ("Bob", "cube", "Dan", "double", 4, "white"), ("Dan", "answer", "Dan", "drop", 4, "white"),
]


@needs_gnubg
def test_a_chouettes_plays_and_every_seats_cube_decisions(capsys, tmp_path):
    profile = load_profile()
    script = (Path(__file__).parents[1] / "scenarios" / "chouette_cube_round.jsonl").read_text()
    replay(parse_script(script, geometry=profile.geometry), profile, lambda event: None, tmp_path)
    assert main(["analyse", "--state", str(tmp_path), "--json", "--engine", "gnubg"]) == 0
    report = json.loads(capsys.readouterr().out)
    found = []
    for decision in report["decisions"]:
        key = decode_match_id(decision["match_id"])
        owner = key.cube_owner.label if key.cube_owner is not None else None
        found.append((decision["name"], decision["kind"], decision["seat"], decision["chosen"], key.cube_value,
                      owner))
        assert key.match_length == 0  # each seat's game is a money game
    assert found == CHOUETTE
    assert set(report["players"]) == {"Ann", "Bob", "Cat", "Dan"}
    assert report["players"]["Bob"]["decisions"] == 7
    # Every cube decision's best choice is gnubg's own, on that seat's cube.
    cubes = [decision for decision in report["decisions"] if decision["kind"] != "play"]
    situations = []
    for decision in cubes:
        situation, _ = Situation.from_ids(decision["position_id"], decision["match_id"])
        situations.append(replace(situation, beavers=True))
    expected = ask_gnubg(find_gnubg(), [situation.query(None, Strength()) for situation in situations], tmp_path)
    for decision, answer in zip(cubes, expected, strict=True):
        action, response = _gnubg_words(answer["cube"])
        assert decision["best"] == (action if decision["kind"] == "cube" else response), (decision, answer)
