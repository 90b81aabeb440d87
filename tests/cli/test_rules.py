"""`bgpi rules` and `bgpi run` from the outside: output, errors and exit status."""

from __future__ import annotations

import io
import itertools
import json
import random
import subprocess
import sys

import pytest

from bgpi.cli import main
from bgpi.cli.rules import ANSWERS_PER_WRITE, answer_batch, batch_line
from bgpi.cli.selfplay import self_play_events
from bgpi.rules.ids import (
    MatchKey,
    board_id,
    decode_match_id,
    match_id,
    position_from_id,
    position_id,
)
from bgpi.rules.position import Position, Side
from bgpi.rules.selfplay import corpus
from bgpi.table import events as ev

START = "4HPwATDgc/ABMA"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_plays_lists_each_play_with_its_notation_and_position_id(capsys):
    status, out, _ = run(capsys, "rules", "plays", "--position-id", START, "--dice", "3", "1")
    assert status == 0
    assert out.startswith("16 legal plays for 31")
    assert "8/5 6/5" in out and "4HPwATCwZ/ABMA" in out


def test_plays_as_json(capsys):
    status, out, _ = run(capsys, "rules", "plays", "--position-id", START, "--dice", "6", "5", "--json")
    answer = json.loads(out)
    assert status == 0 and answer["dice"] == [6, 5] and len(answer["plays"]) == 7
    assert {"move": "24/13", "position_id": "4HPwATDgc/ABAg"} in answer["plays"] or all(
        play["move"] for play in answer["plays"]
    )


def test_a_roll_with_no_legal_play_says_so(capsys):
    # White on the bar against a closed board.
    closed = Position(
        tuple([0] * 12 + [14] + [0] * 11 + [1]),
        tuple([2] * 6 + [3] + [0] * 18),
    )
    identifier = position_id(closed, Side.WHITE)
    status, out, _ = run(capsys, "rules", "plays", "--position-id", identifier, "--dice", "6", "6")
    assert status == 0 and "no legal play" in out.lower()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--position-id", START, "--dice", "3", "7"], "a die shows 1 to 6, not 7"),
        (["--position-id", START, "--dice", "0", "1"], "a die shows 1 to 6, not 0"),
        (["--position-id", "4HPwATDgc/AB", "--dice", "3", "1"], "has 12 characters, expected 14"),
        (["--position-id", "4HPwATDgc/AB!A", "--dice", "3", "1"], "is not base64"),
        (["--position-id", "////////////AA", "--dice", "3", "1"], "position ID"),
        (["--position-id", START], "--dice A B is needed"),
    ],
)
def test_bad_input_is_one_line_with_exit_status_two(capsys, argv, message):
    status, out, err = run(capsys, "rules", "plays", *argv)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "board, message",
    [
        (((16,) + (0,) * 24, (0,) * 25), "16 checkers, more than 15"),
        (((1,) + (0,) * 24, (0,) * 23 + (1, 0)), "both players"),
    ],
)
def test_positions_that_cannot_occur_are_refused_by_name(capsys, board, message):
    identifier = board_id(board)  # board_id trusts its caller, so it can write bad IDs
    status, _, err = run(capsys, "rules", "plays", "--position-id", identifier, "--dice", "3", "1")
    assert status == 2 and message in err


def test_batch_answers_each_line_in_order_and_flags_bad_ones():
    lines = io.StringIO(
        '{"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]}\n'
        "not json\n"
        "\n"
        '{"position_id": "4HPwATDgc/ABMA", "dice": [3, 9]}\n'
        '{"position_id": "4HPwATDgc/ABMA", "dice": [6, 6]}\n'
        '{"position_id": "4HPwATDgc/ABMA"}\n'
    )
    out, errors = io.StringIO(), io.StringIO()
    assert answer_batch(lines, out, errors) == 2
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers[0]["results"]) == 16 and answers[0]["results"] == sorted(answers[0]["results"])
    assert answers[1] == {"line": 2, "error": answers[1]["error"]} and "not JSON" in answers[1]["error"]
    assert answers[2]["line"] == 4 and "not 9" in answers[2]["error"]
    assert answers[3]["dice"] == [6, 6] and answers[3]["results"]
    assert answers[4]["line"] == 6 and "missing" in answers[4]["error"]
    assert errors.getvalue().splitlines()[0].startswith("bgpi rules plays: line 2: not JSON")


def test_batch_with_no_legal_play_answers_the_position_itself():
    closed = Position(tuple([0] * 12 + [14] + [0] * 11 + [1]), tuple([2] * 6 + [3] + [0] * 18))
    identifier = position_id(closed, Side.WHITE)
    out = io.StringIO()
    answer_batch(io.StringIO(json.dumps({"position_id": identifier, "dice": [6, 5]})), out, io.StringIO())
    assert json.loads(out.getvalue())["results"] == [identifier]


def test_batch_results_equal_gnubgs():
    gnubg = pytest.importorskip("gnubg_nn", reason="gnubg-nn wheels: CPython 3.11 on x86_64 only")
    requests = [
        {"position_id": position_id(position, side), "dice": list(dice)}
        for position, side, dice in corpus(400, seed=5)
    ]
    out = io.StringIO()
    answer_batch(io.StringIO("\n".join(map(json.dumps, requests))), out, io.StringIO())
    for request, line in zip(requests, out.getvalue().splitlines(), strict=True):
        board = gnubg.board_from_position_id(request["position_id"])
        keys = gnubg.moves(board, *request["dice"])
        expected = sorted({gnubg.position_id([list(side) for side in gnubg.board_from_position_key(k)]) for k in keys})
        assert json.loads(line)["results"] == (expected or [request["position_id"]])


def test_batch_answers_are_written_as_json_dumps_writes_them():
    # The answer is formatted without json.dumps: the bytes must be the same.
    for position, side, dice in corpus(500, seed=6):
        identifier = position_id(position, side)
        answer = batch_line(json.dumps({"position_id": identifier, "dice": [str(dice.first), dice.second]}))
        results = json.loads(answer)["results"]
        assert answer == json.dumps({"position_id": identifier, "dice": list(dice), "results": results})


class Writes(io.StringIO):
    """A text stream that counts its writes."""

    count = 0

    def write(self, text: str) -> int:
        self.count += 1
        return super().write(text)


def test_batch_answers_are_written_in_blocks_and_all_written_when_stopped():
    # One write per line would be a system call per line when Python runs unbuffered.
    good = '{"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]}\n'
    out = Writes()
    answer_batch(io.StringIO(good * 1000), out, io.StringIO())
    assert len(out.getvalue().splitlines()) == 1000 and out.count == -(-1000 // ANSWERS_PER_WRITE)

    def stopped():
        yield from [good] * 10
        raise KeyboardInterrupt

    out = Writes()
    with pytest.raises(KeyboardInterrupt):
        answer_batch(stopped(), out, io.StringIO())
    assert len(out.getvalue().splitlines()) == 10


def test_batch_from_a_missing_file_is_one_line(capsys):
    status, _, err = run(capsys, "rules", "plays", "--batch", "/nonexistent/file.jsonl")
    assert status == 2 and "cannot read /nonexistent/file.jsonl" in err


def test_show_draws_the_position_with_cube_score_and_turn(capsys):
    status, out, _ = run(capsys, "rules", "show", f"{START}:QYkqASAAIAAA")
    assert status == 0
    assert "pips 167" in out and "cube 2, owned by white" in out
    assert "score white 2, black 4 in a match to 9" in out and "black rolled 52" in out


def test_show_refuses_a_bad_match_id(capsys):
    status, _, err = run(capsys, "rules", "show", f"{START}:nonsense")
    assert status == 2 and "match ID" in err


def test_self_play_is_a_complete_money_game_as_a_table_log():
    events = list(self_play_events(random.Random(1)))
    over = events[-2]
    assert isinstance(events[0], ev.Opening) and isinstance(over, ev.GameOver)
    assert isinstance(events[-1], ev.State)
    plays = [event for event in events if isinstance(event, ev.Play)]
    for before, after in itertools.pairwise(plays):
        assert before.player is not after.player
    last = plays[-1]
    final = position_from_id(last.position_id, over.winner.opponent)
    assert final.winner() is over.winner
    assert decode_match_id(last.match_id).match_length == 0


def test_the_console_command_runs_without_a_traceback():
    done = subprocess.run(
        [sys.executable, "-m", "bgpi", "selfplay", "--seed", "4"], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout.splitlines()[-1])["event"] == "state"


@pytest.mark.parametrize(
    ("key", "words"),
    [
        (MatchKey(match_length=5, score=(4, 2), crawford=True), "white to roll"),
        (MatchKey(cube_value=2, cube_owner=Side.BLACK), "white to roll"),
        (MatchKey(cube_value=2, cube_owner=Side.WHITE), "white to roll or double"),
        (MatchKey(match_length=5, score=(4, 2)), "white to roll or double"),  # post-Crawford
        (MatchKey(dice_owner=Side.BLACK, turn=Side.BLACK), "black to roll or double"),
    ],
)
def test_show_says_to_roll_where_no_double_is_allowed(capsys, key, words):
    status, out, _ = run(capsys, "rules", "show", f"{START}:{match_id(key)}")
    assert status == 0
    assert out.rstrip().splitlines()[-1].strip() == words


OPENING_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"
"""The opening position, white on roll with 31: `START` with the Match ID MIEFAAAAAAAA."""


def test_show_takes_an_xgid_as_the_ids_it_holds(capsys):
    status, out, _ = run(capsys, "rules", "show", OPENING_XGID)
    _, by_ids, _ = run(capsys, "rules", "show", f"{START}:MIEFAAAAAAAA")
    assert status == 0 and out == by_ids
    assert "pips 167" in out and "money play" in out and "white rolled 31" in out


def test_show_takes_the_issues_xgid_of_a_match_with_the_doubler_on_roll(capsys):
    status, out, _ = run(capsys, "rules", "show", "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:D:1:2:0:5:10")
    assert status == 0 and "cube 2, owned by black" in out and "score white 1, black 2 in a match to 5" in out
    assert out.rstrip().splitlines()[-1].strip() == "black doubled: white to take or drop"


def test_show_refuses_a_bad_xgid_in_one_line(capsys):
    status, _, err = run(capsys, "rules", "show", "XGID=-b----E:0")
    assert status == 2 and err.count("\n") == 1 and "XGID" in err and "expected 10" in err
