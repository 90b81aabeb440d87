"""`bgpi analyse`: a session's decisions against gnubg's best, from the journal."""

from __future__ import annotations

import json

import pytest

from bgpi.cli import main
from bgpi.engine.process import find_gnubg
from bgpi.hardware.profile import load_profile
from bgpi.shell.replay import replay
from bgpi.shell.script import parse_script

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
