"""`bgpi diag` on the simulated board, and the wiring tables kept in hardware/."""

from __future__ import annotations

import argparse
import io
import itertools
from pathlib import Path

import pytest

from bgpi.board.profile import Switch
from bgpi.cli import diag as diag_cli
from bgpi.exc import UsageError
from bgpi.hardware.board import open_sim_board, running_on_pi
from bgpi.hardware.profile import default_profile_path
from bgpi.hardware.wiring import wiring_tables

WIRING_FILE = Path(__file__).parents[2] / "hardware" / "wiring.txt"


def diag(*argv: str) -> tuple[int, str]:
    """Run `bgpi diag ARGV` as the command line would; (exit status, output)."""
    parser = argparse.ArgumentParser(prog="bgpi")
    diag_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["diag", *argv])
    out = io.StringIO()
    return args.handler(args, out), out.getvalue()


def test_wiring_file_is_in_sync_with_the_default_profile(profile):
    assert WIRING_FILE.read_text(encoding="utf-8") == wiring_tables(profile), (
        "regenerate it: bgpi diag wiring > hardware/wiring.txt")


def test_wiring_lists_pins_channels_and_leds():
    status, out = diag("wiring")
    assert status == 0
    assert "  GPIO17  select S0 (all multiplexers)" in out
    assert "  GPIO10  the LED data line (SPI0 MOSI)" in out
    assert "  GPIO3   button hint (to ground)" in out
    assert "    channel 15: bar:black slot 0" in out
    assert "   34  die:1 pip 6" in out


def test_wiring_of_another_profile(tmp_path):
    path = tmp_path / "other.toml"
    path.write_text(default_profile_path().read_text().replace("hint = 3", "hint = 18"))
    status, out = diag("wiring", "--profile", str(path))
    assert status == 0 and out.startswith(f"Wiring of {path}")
    assert "GPIO18  button hint (to ground)" in out and "GPIO3 " not in out


def test_bad_profile_is_one_usage_error(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(default_profile_path().read_text().replace("hint = 3", "hint = 17")
                    .replace("count = 44", "count = 40"))
    with pytest.raises(UsageError) as caught:
        diag("--check", "--board", "sim", "--profile", str(path))
    message = str(caught.value)
    assert "\n" not in message
    assert "buttons.pins.hint: GPIO17 is already select line S0" in message
    assert "leds.map.turn:white: LED 42 is out of range" not in message  # keys are quoted
    assert 'leds.map."turn:white": LED 42 is out of range' in message


@pytest.mark.parametrize("argv", [(), ("--check", "sensors")])
def test_a_test_or_check_is_required(argv):
    with pytest.raises(UsageError, match="give either a test"):
        diag(*argv)


@pytest.mark.parametrize(("option", "value"), [("--frames", "-1"), ("--frames", "10000001"),
                                               ("--seconds", "1e300"), ("--seconds", "nan")])
def test_limits_outside_their_range_are_refused(option, value):
    with pytest.raises(UsageError, match=f"^{option}: expected 0..[0-9]+, got "):
        diag("sensors", "--board", "sim", option, value)


def test_check_passes_on_a_good_simulated_board():
    status, out = diag("--check", "--board", "sim")
    assert status == 0
    assert out.splitlines() == [
        "sensors: ok, 128 switches closed and opened, each seen at its location and slot",
        "leds: ok, 44 LEDs addressed, each lit alone",
        "buttons: ok, 5 buttons, each pressed and seen",
        "check passed",
    ]


def test_check_reports_broken_switches_by_location_and_slot(profile):
    out = io.StringIO()
    with open_sim_board(profile) as board:
        board.hands.break_switch(Switch(7, 2), closed=True)
        board.hands.break_switch(Switch("bar:white", 0), closed=False)
        assert not diag_cli.check(board, out)
    lines = out.getvalue().splitlines()
    assert "sensors: point 7 slot 2: stuck closed" in lines
    assert "sensors: bar:white slot 0: stuck open" in lines
    assert lines[-1] == "check FAILED: 2 problems"


def test_check_reports_a_stuck_button(profile):
    out = io.StringIO()
    with open_sim_board(profile) as board:
        board.hands.button_pin("black.cube").drive_low()
        assert not diag_cli.check(board, out)
    assert "buttons: black.cube reads pressed (stuck or shorted)" in out.getvalue()


def test_sensors_prints_one_map_on_the_simulator():
    status, out = diag("sensors", "--board", "sim")
    assert status == 0
    assert out.startswith("frame 1\n  13  14  15  16  17  18 bar  19  20  21  22  23  24\n")
    assert "0 closed" in out and out.count("frame ") == 1


def test_sensors_map_shows_checkers_where_they_stand(profile):
    with open_sim_board(profile) as board:
        board.hands.place(24, 2)
        board.hands.place(1, 5)
        board.hands.place("bar:black")
        out = io.StringIO()
        diag_cli.show_sensors(board, out, frames=2, seconds=None)
    lines = out.getvalue().splitlines()
    top_slot0, bottom_slot0 = lines[2], lines[12]
    assert top_slot0.split() == [".", ".", ".", ".", ".", ".", "o", ".", ".", ".", ".", ".", "o",
                                 "slot", "0"]
    assert bottom_slot0.split()[-3:] == ["o", "slot", "0"]
    assert lines[3].split()[-3:] == ["o", "slot", "1"] and lines[4].split()[-3:] == [".", "slot", "2"]
    assert lines[-2].endswith("; 8 closed") and lines[-1] == ""


def test_sensors_names_a_flapping_switch(profile):
    with open_sim_board(profile) as board:
        scan, closed = board.scanner.scan, itertools.cycle([True, True, False, False])

        def chattering() -> int:
            board.hands.set_switch(Switch(8, 0), next(closed))
            return scan()

        board.scanner.scan = chattering
        out = io.StringIO()
        diag_cli.show_sensors(board, out, frames=60, seconds=None)
    (fault,) = [line for line in out.getvalue().splitlines() if "flapping" in line]
    assert fault.startswith("point 8 slot 0: flapping (21 changes in ")
    assert fault.endswith("(faster than hands: a sensor fault)")


def test_sensors_stops_after_seconds_on_the_simulator():
    status, out = diag("sensors", "--board", "sim", "--seconds", "0.05")
    assert status == 0 and out.startswith("frame 1\n")


def test_leds_walks_every_led_then_every_target():
    status, out = diag("leds", "--board", "sim")
    lines = out.splitlines()
    assert status == 0
    assert lines[:2] == ["LED 0: point 1", "LED 1: point 2"] and "LED 43: turn:black" in lines
    assert "bar:white: LED 24" in lines and "die:2: LED 35, 36, 37, 38, 39, 40, 41" in lines
    assert len(lines) == 44 + 32


def test_buttons_prints_each_press_on_the_simulator():
    status, out = diag("buttons", "--board", "sim")
    assert status == 0
    assert out.splitlines() == [f"{name} short press" for name in
                                ("white.turn", "white.cube", "black.turn", "black.cube", "hint")]


def test_default_board_kind_reads_the_device_tree(tmp_path):
    model = tmp_path / "model"
    assert not running_on_pi(model)
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert running_on_pi(model)
    model.write_bytes(b"Some other board\0")
    assert not running_on_pi(model)
