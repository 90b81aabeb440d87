"""Records of issue 19: resigned games (the .mat ``Wins`` line and SGF's ``RE[W+2R]``, as
gnubg writes them, read back by gnubg to the same score), and games after a practice game."""

from __future__ import annotations

import re

import pytest

from bgpi.records.matfile import mat_record
from bgpi.records.sgffile import sgf_record
from bgpi.rules.position import Side
from bgpi.table import events as ev
from tests.cli.test_export import final_score, gnubg_import
from tests.records.test_sgffile import gnubg_load, needs_gnubg, scenario

RESIGNED = ["resign_match_accepted", "resign_money", "remote_claim"]  # a claimed game is scored as resigned


@pytest.mark.parametrize("name", RESIGNED)
def test_a_resigned_game_ends_with_its_points_as_gnubg_writes_it(name):
    events = scenario(name)
    over = next(event for event in events if isinstance(event, ev.GameOver))
    assert over.resigned is True
    winner = "W" if over.winner is Side.WHITE else "B"
    assert f"RE[{winner}+{over.points}R]" in sgf_record(events).text
    assert f"Wins {over.points} points" in mat_record(events).text


def test_a_declined_resignation_leaves_no_trace_in_the_records():
    events = scenario("resign_match_declined")
    without = [event for event in events if not event.kind.startswith("resign_")]
    assert sgf_record(events).text == sgf_record(without).text
    assert mat_record(events).text == mat_record(without).text


@needs_gnubg
@pytest.mark.parametrize("name", RESIGNED)
def test_gnubg_scores_a_resigned_game_from_the_mat_record(tmp_path, name):
    events = scenario(name)
    over = next(event for event in events if isinstance(event, ev.GameOver))
    output = gnubg_import(tmp_path, events, "show score")
    assert final_score(output) == (1, over.score["white"], over.score["black"])


@needs_gnubg
@pytest.mark.parametrize("name", RESIGNED)
def test_gnubg_scores_a_resigned_game_from_the_sgf_record(tmp_path, name):
    events = scenario(name)
    over = next(event for event in events if isinstance(event, ev.GameOver))
    output = gnubg_load(tmp_path, sgf_record(events).text)
    found = re.findall(r"The score \(after (\d+) games?\) is: white (\d+), black (\d+)", output)
    assert found and found[-1] == ("1", str(over.score["white"]), str(over.score["black"])), output


def test_a_game_after_a_practice_game_starts_from_the_standard_position():
    first, second = sgf_record(scenario("practice_then_standard")).text.split("\n(;")
    assert "AE[a:y]" in first and "RE[W+2]" in first
    assert "AE[" not in second and "CV[" not in second and "MI[length:7][game:1][ws:5][bs:5]" in second
