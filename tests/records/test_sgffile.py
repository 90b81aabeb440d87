"""SGF export: the letters and setup properties gnubg writes, and gnubg loads what we write
(practice positions with cube, score and Crawford, bar entries, cube actions, matches)."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from bgpi.cli.selfplay import self_play_events
from bgpi.records.matfile import mat_record
from bgpi.records.sgffile import sgf_record
from bgpi.rules.ids import decode_match_id
from bgpi.rules.position import Side
from bgpi.table import events as ev

SCENARIOS = Path(__file__).parents[1] / "scenarios"
GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="Debian's gnubg is not installed (.ci/run installs it)")


def scenario(name: str) -> list[ev.Event]:
    return [ev.parse(json.loads(line)) for line in (SCENARIOS / f"{name}.log.jsonl").read_text().splitlines()]


def test_a_practice_position_is_set_up_as_gnubg_writes_it():
    text = sgf_record(scenario("practice_match")).text
    root, setup, value, owner, *moves = text.rstrip(")\n").split("\n;")
    assert root.startswith("(;FF[4]GM[6]CA[UTF-8]")
    assert "MI[length:7][game:0][ws:3][bs:5]" in root and "RU[Crawford]" in root
    assert setup.startswith("PL[W]AE[a:y]AW[d][e][e]") and "AB[t][t]" in setup
    assert (value, owner) == ("CV[2]", "CP[w]")
    assert moves == ["W[double]", "B[take]", "W[31mjji]"]  # 13/10*/9: m-j, j-i


def test_letters_are_white_points_from_a_with_the_bar_y_and_off_z():
    text = sgf_record(scenario("bar_entry")).text
    assert "AW[f][f][f][f][f][h][h][h][m][m][m][m][x][x][y]" in text  # white on the bar: y
    assert text.rstrip(")\n").endswith("W[32yvmk]")  # bar/22 13/11


def test_a_game_from_the_start_needs_no_setup_and_money_play_says_jacoby():
    events = [ev.NewSession({}), ev.Start("4HPwATDgc/ABMA"), *self_play_events(random.Random(4))]
    record = sgf_record(events)
    assert record.games == 1 and record.warnings == ()
    assert "AE[" not in record.text and "RU[Jacoby]" in record.text


def test_a_play_that_does_not_follow_is_left_out_with_a_warning():
    events = scenario("bar_entry")
    at = next(i for i, event in enumerate(events) if isinstance(event, ev.Play))
    events[at] = replace(events[at], position_id="4HPwATDgc/ABMA")
    record = sgf_record(events)
    assert record.warnings and "does not follow from the position" in record.warnings[0]


def test_an_event_out_of_place_is_skipped_with_a_warning_naming_it():
    events = scenario("bar_entry")
    session = max(i for i, event in enumerate(events) if isinstance(event, ev.NewSession))
    events.insert(session + 1, ev.Take(Side.BLACK, 2))  # before any game has started
    record = sgf_record(events)
    assert record.warnings == ("take event 1 of the session skipped: no game has started (no start event before it)",)
    assert record.text == sgf_record(scenario("bar_entry")).text  # the rest is written as it was


def gnubg_load(tmp_path: Path, text: str) -> str:
    path = tmp_path / "session.sgf"
    path.write_text(text)
    done = subprocess.run([GNUBG, "-t", "-q", "-r"], input=f"load match {path}\nshow score\n",
                          capture_output=True, text=True, timeout=30, check=False, cwd=tmp_path,
                          env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "C"})
    output = done.stdout + done.stderr
    for complaint in ("Illegal", "illegal", "nparsable", "WARNING", "not a valid"):
        assert complaint not in output, output
    return output


def first_session(events: list[ev.Event]) -> list[ev.Event]:
    """The events of a scenario's first session (a new match chosen on the board starts
    another)."""
    starts = [i for i, event in enumerate(events) if isinstance(event, ev.NewSession)]
    return events[: starts[1]] if len(starts) > 1 else events


@needs_gnubg
@pytest.mark.parametrize("name", ["practice_match", "bar_entry", "contradicted_reading", "crawford",
                                  "money_totals", "match_over", "gammon", "bearoff_after_hit"])
def test_gnubg_loads_each_game_to_its_last_position_and_score(tmp_path, name):
    events = first_session(scenario(name))
    record = sgf_record(events)
    assert record.games >= 1 and record.warnings == ()
    output = gnubg_load(tmp_path, record.text)
    plays = [event for event in events if isinstance(event, ev.Play)]
    assert plays[-1].position_id in re.findall(r"Position ID: (\S+)", output), output
    # gnubg counts the games before the one it stands in, or all of them once the last
    # ended with a drop: either way its score is ours at that point.
    session = events[0]
    assert isinstance(session, ev.NewSession)
    start = decode_match_id(session.match_id).score if session.match_id else (0, 0)
    scores = [start, *((e.score["white"], e.score["black"]) for e in events if isinstance(e, ev.GameOver))]
    found = re.findall(r"The score \(after (\d+) games?\) is: white (\d+), black (\d+)", output)
    assert found, output
    games, white, black = map(int, found[-1])
    assert games in (len(scores) - 1, len(scores) - 2) and (white, black) == scores[games], output


@needs_gnubg
def test_gnubg_takes_the_practice_matchs_score_and_cube(tmp_path):
    output = gnubg_load(tmp_path, sgf_record(scenario("practice_match")).text)
    assert "white 3, black 5 (match to 7 points)" in output
    assert "(Cube: 4)" in output  # the 2-cube white owned, redoubled and taken


def test_a_cube_beyond_gnubgs_4096_is_left_out_with_a_warning_in_both_formats():
    events: list[ev.Event] = [ev.NewSession({}), ev.Start("4HPwATDgc/ABMA"), ev.Opening(3, 1, Side.WHITE, 1)]
    for doubling in range(13):  # hand-made: redoubles alone, up to 8192
        doubler = Side.WHITE if doubling % 2 == 0 else Side.BLACK
        events += [ev.Double(doubler, 2 << doubling), ev.Take(doubler.opponent, 2 << doubling)]
    mat, sgf = mat_record(events), sgf_record(events)
    for record in (mat, sgf):
        (warning,) = record.warnings
        assert warning.startswith("game 1") and "white doubles to 8192" in warning
        assert "beyond the cube of 4096 gnubg holds" in warning
    assert "Doubles => 4096" in mat.text and "8192" not in mat.text
    assert sgf.text.count("[double]") == 12
