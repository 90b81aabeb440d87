"""`bgpi hint` from the outside: output, errors and exit status."""

from __future__ import annotations

import json

import pytest

from bgpi.cli import main
from bgpi.engine.process import find_gnubg
from bgpi.rules.ids import MatchKey, match_id
from bgpi.rules.position import Side

START = "4HPwATDgc/ABMA"
needs_gnubg = pytest.mark.skipif(not find_gnubg(), reason="Debian's gnubg is not installed")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@needs_gnubg
def test_best_plays_as_json(capsys):
    status, out, _ = run(capsys, "hint", START, "--dice", "3", "1", "--json", "--engine", "gnubg")
    plays = json.loads(out)
    assert status == 0
    assert plays[0] == {"move": "8/5 6/5", "position_id": "4HPwATCwZ/ABMA", "equity": plays[0]["equity"]}
    assert [play["equity"] for play in plays] == sorted((play["equity"] for play in plays), reverse=True)


@needs_gnubg
def test_the_dice_of_the_match_id_and_its_player_on_roll(capsys):
    ids = START + ":" + match_id(MatchKey(dice_owner=Side.BLACK, turn=Side.BLACK, dice=(6, 5)))
    status, out, _ = run(capsys, "hint", ids, "--engine", "gnubg")
    assert status == 0
    assert out.splitlines()[:2] == ["Best plays for 65, black on roll:", out.splitlines()[1]]
    assert "24/13" in out.splitlines()[1]


@needs_gnubg
def test_cube_decision_without_dice(capsys):
    status, out, _ = run(capsys, "hint", START, "--json", "--engine", "gnubg")
    assert status == 0
    assert json.loads(out)["action"] == "no double" and json.loads(out)["response"] == "take"
    status, out, _ = run(capsys, "hint", START, "--engine", "gnubg")
    assert out.startswith("white: no double; black, if doubled: take")


def test_no_cube_decision_with_the_opponent_owning_the_cube(capsys):
    ids = START + ":" + match_id(MatchKey(cube_value=2, cube_owner=Side.BLACK))
    status, _, err = run(capsys, "hint", ids)
    assert status == 2 and err.strip() == "bgpi hint: no cube decision: the cube is black's"


def test_no_engine_is_one_line(capsys):
    status, out, err = run(capsys, "hint", START, "--dice", "3", "1", "--engine", "none")
    assert (status, out) == (1, "")
    assert err == "bgpi hint: no engine: none is configured\n"


@pytest.mark.parametrize("argv, message", [
    (["4HPwATDgc/ABMx"], "sets bits beyond the 80-bit key"),
    ([START, "--dice", "7", "1"], "a die shows 1 to 6, not 7"),
    ([START, "--dice", "3", "1", "--limit", "0"], "--limit must be 1 or more"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    status, _, err = run(capsys, "hint", *argv)
    assert status == 2 and message in err and len(err.splitlines()) == 1
