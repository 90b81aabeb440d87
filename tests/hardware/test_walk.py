"""The guided switch walk: its steps, what a wrong reading means, the report; and
`bgpi diag walk` on the simulated board, with switches broken on purpose."""

from __future__ import annotations

import io

import pytest

from bgpi.board.profile import Switch
from bgpi.cli import main
from bgpi.cli.diag import walk
from bgpi.hardware.frames import frame_of
from bgpi.hardware.walk import WalkReport, differences, walk_steps


def test_each_location_is_filled_checker_by_checker_then_emptied(profile):
    steps = walk_steps(profile.sensors, profile.geometry, [7, "bar:black"])
    assert [step.instruction() for step in steps[:6]] == [
        *(f"put checker {n} on point 7" for n in range(1, 6)), "take every checker off point 7"]
    assert len(steps) == 6 + 5
    assert steps[2].expected == frame_of([Switch(7, 0), Switch(7, 1), Switch(7, 2)], profile.sensors)
    assert steps[5].expected == 0


def test_a_checker_read_at_another_switch_names_both_channels(profile):
    wiring = profile.sensors
    (problem,) = differences(frame_of([Switch(7, 0)], wiring), frame_of([Switch(9, 3)], wiring), wiring)
    assert problem == ("point 7 slot 0 read as point 9 slot 3 (mux 2 channel 0 and mux 2 channel 13): "
                       "swapped wires, or the magnet closes the wrong switch")


def test_a_missing_and_an_extra_switch_are_each_named(profile):
    wiring = profile.sensors
    expected = frame_of([Switch(7, 0), Switch(7, 1)], wiring)
    seen = frame_of([Switch(7, 0), Switch(8, 0), Switch(8, 1)], wiring)
    assert differences(expected, seen, wiring) == [
        "point 7 slot 1 did not close (mux 2 channel 1): stuck open, or not wired",
        "point 8 slot 0 closed too (mux 2 channel 5): a magnet reaching it, or its channel wired to this switch",
        "point 8 slot 1 closed too (mux 2 channel 6): a magnet reaching it, or its channel wired to this switch"]


def test_a_multiplexer_that_never_closes_is_named_as_maybe_absent(profile):
    report = WalkReport(profile.sensors)
    for step in walk_steps(profile.sensors, profile.geometry, [1, 2, 3, 5]):
        report.observe(step, step.expected & ((1 << 16) - 1))  # mux 1 (point 5) reads nothing
    lines = report.lines()
    assert any(line.startswith("walk: no switch of mux 1 ever closed: is it plugged in and powered")
               for line in lines)
    assert not any("mux 0 ever closed" in line for line in lines)


def test_the_walk_on_the_simulated_board_passes(capsys):
    assert main(["diag", "walk", "--board", "sim"]) == 0
    out = capsys.readouterr().out
    assert out.count("put checker") == 24 * 5 + 2 * 4
    assert out.endswith("walk: 154 steps, 154 read as expected\n")


def test_the_walk_finds_a_stuck_open_switch(board):
    board.hands.break_switch(Switch(7, 1), closed=False)
    out = io.StringIO()
    assert walk(board, out, [7]) is False
    text = out.getvalue()
    assert "  point 7 slot 1 did not close (mux 2 channel 1): stuck open, or not wired" in text
    assert "walk: point 7 slot 1: stuck open\n" in text
    assert text.endswith("walk: 6 steps, 2 read as expected\n")  # 1 checker, and none


@pytest.mark.parametrize(("option", "message"), [
    ("7,nowhere", "--locations: "), ("off:white", "--locations: off:white has no switches"),
])
def test_bad_locations_are_one_usage_error(capsys, option, message):
    assert main(["diag", "walk", "--board", "sim", "--locations", option]) == 2
    assert message in capsys.readouterr().err
