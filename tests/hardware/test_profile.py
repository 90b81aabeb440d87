"""The board profile: the default one, and every way a profile is refused."""

from __future__ import annotations

import pytest

from bgpi.board.locations import LOCATIONS, describe, parse_location
from bgpi.board.profile import BUTTON_NAMES, RANGES, Switch, parse_profile
from bgpi.exc import ProfileError
from bgpi.hardware.profile import default_profile_path, load_profile

DEFAULT = default_profile_path().read_text(encoding="utf-8")


def edited(*edits: tuple[str, str]) -> str:
    """The default profile's text with each (old, new) replaced once; old must be there."""
    text = DEFAULT
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def line_of(text: str, start: str) -> int:
    """The number of the first line of `text` starting with `start`."""
    return next(number for number, line in enumerate(text.splitlines(), start=1)
                if line.startswith(start))


def problems(text: str) -> list[str]:
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "test.toml")
    return caught.value.problems


def test_default_profile_is_the_documented_board(profile):
    wiring = profile.sensors
    assert profile.source == "the default profile"
    assert len(wiring.select) == 4 and len(wiring.signal) == 8
    assert sum(1 for _ in wiring.connected()) == 24 * 5 + 2 * 4 == 128
    assert wiring.scan_hz == 200 and wiring.debounce_frames == 2
    assert profile.geometry.sensed() == (*range(1, 25), "bar:white", "bar:black")
    assert profile.leds.driver == "spi" and profile.leds.pin == 10
    assert profile.leds.count == 44 and len(profile.leds.targets["die:1"]) == 7
    assert set(profile.buttons.pins) == set(BUTTON_NAMES)
    assert wiring.switches[wiring.index(Switch(1, 0))] == Switch(1, 0)


@pytest.mark.parametrize(("scan_hz", "debounce_ms", "frames"), [
    (200, 5, 2), (100, 5, 2), (100, 10, 2), (100, 11, 3), (400, 5, 3), (50, 0, 1),
])
def test_debouncing_is_set_in_milliseconds(scan_hz, debounce_ms, frames):
    wiring = parse_profile(edited(("scan_hz = 200", f"scan_hz = {scan_hz}"),
                                  ("debounce_ms = 5", f"debounce_ms = {debounce_ms}"))).sensors
    assert wiring.debounce_frames == frames
    # The frames that must agree span at least debounce_ms, and one frame fewer would not.
    assert (frames - 1) * 1000 / scan_hz >= debounce_ms > (frames - 2) * 1000 / scan_hz


def test_debouncing_in_frames_is_refused_with_the_new_key():
    (problem,) = problems(edited(("debounce_ms = 5", "debounce_frames = 2")))
    assert "sensors.debounce_frames: unknown key" in problem and "debounce_ms" in problem


def test_a_good_profile_loads_from_a_file(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text(edited(("count = 44", "count = 45")))
    assert load_profile(path).leds.count == 45


def test_the_pwm_led_driver_is_refused_with_the_reason():
    (problem,) = problems(edited(('driver = "spi"', 'driver = "pwm"')))
    assert "leds.driver: the pwm driver is not supported: it needs root" in problem
    assert "Pi 5" in problem and 'driver = "spi"' in problem


def test_syntax_error_names_line():
    (problem,) = problems(edited(("count = 44", "count = = 44")))
    assert problem.startswith("syntax error:") and "line" in problem


def test_unreadable_file(tmp_path):
    with pytest.raises(ProfileError, match=r"missing\.toml: cannot read it"):
        load_profile(tmp_path / "missing.toml")


MOON, RED_TURN = '"moon"', '"red.turn"'


def test_unknown_keys_everywhere():
    text = edited(("[geometry]", "colour = 1\n[geometry]"),
                            ("point_slots = 5", "point_slots = 5\nslots = 5"),
                            ('"white.turn" = 19', '"white.turn" = 19\n"red.turn" = 2'),
                            ('"turn:black" = 43', '"turn:black" = 43\n"moon" = 44'))
    found = problems(text)
    assert [p.split(": ")[0] for p in found] == [
        f"line {line_of(text, 'colour')}, colour",
        f"line {line_of(text, 'slots')}, geometry.slots",
        f"line {line_of(text, MOON)}, leds.map.moon",
        f"line {line_of(text, RED_TURN)}, buttons.pins.{RED_TURN}"]
    assert all("unknown key" in p for p in found)


def test_pin_used_twice():
    found = problems(edited(("signal = [24, 25,", "signal = [24, 17,"), ("hint = 3", "hint = 24")))
    assert any("sensors.signal[1]: GPIO17 is already select line S0" in p for p in found)
    assert any("buttons.pins.hint: GPIO24 is already signal line of mux 0" in p for p in found)


def test_pin_taken_by_the_led_driver():
    (problem,) = problems(edited(("select = [17,", "select = [10,")))
    assert "sensors.select[0]: GPIO10 is already the LED data line (SPI0 MOSI)" in problem


def test_pin_out_of_range():
    (problem,) = problems(edited(("hint = 3", "hint = 40")))
    assert "buttons.pins.hint: expected a GPIO pin number 2..27" in problem


@pytest.mark.parametrize("pin", [0, 1])
def test_the_hat_eeprom_pins_are_refused(pin):
    (problem,) = problems(edited(("hint = 3", f"hint = {pin}")))
    assert f"buttons.pins.hint: GPIO{pin} is reserved for the HAT EEPROM" in problem


def test_channel_mapped_twice():
    (problem,) = problems(edited(("7 = [[2, 0]", "7 = [[1, 14]")))
    assert problem.endswith("sensors.switches.7[0]: mux 1 channel 14 is already point 6 slot 4")


def test_location_without_switches():
    line = next(line for line in DEFAULT.splitlines() if line.startswith("9 = [["))
    (problem,) = problems(edited((line + "\n", "")))
    assert problem.endswith("sensors.switches: point 9 has no switches")


def test_wrong_number_of_switches_and_bad_channels():
    found = problems(edited(('"bar:white" = [[4, 15], ', '"bar:white" = [[8, 8], [7, 16], [4, 15], '),
                            ("1 = [[0, 0]", "1 = [[0, 0, 1]")))
    text = "\n".join(found)
    assert "sensors.switches.1[0]: expected [mux, channel], got [0, 0, 1]" in text
    assert '"bar:white": 6 switches, but bar:white has 4 slots' in text
    assert '"bar:white"[0]: mux 8 does not exist (sensors.signal lists 8: 0..7)' in text
    assert '"bar:white"[1]: channel 16 does not exist (0..15)' in text


def test_unknown_and_unsensed_locations():
    extra = '[sensors.switches]\n25 = [[0, 0]]\n"off:white" = [[0, 1]]\n'
    found = problems(edited(("[sensors.switches]\n", extra)))
    text = "\n".join(found)
    assert "sensors.switches.25: unknown location '25'" in text
    assert '"off:white": off:white is not sensed (geometry.trays_sensed = false)' in text


def test_led_index_out_of_range_and_twice():
    found = problems(edited(("\n5 = 4\n", "\n5 = 44\n"), ("\n6 = 5\n", "\n6 = [5, 0]\n")))
    text = "\n".join(found)
    assert "leds.map.5: LED 44 is out of range (leds.count = 44: 0..43)" in text
    assert "leds.map.6[1]: LED 0 already lights 1" in text
    assert "leds.map: point 5" not in text


def test_target_without_led_and_short_die():
    found = problems(edited(('"turn:white" = 42\n', ""), ('"die:2" = [35, ', '"die:2" = [')))
    text = "\n".join(found)
    assert "leds.map: turn:white has no LED" in text
    assert '"die:2": a die has 7 pips, got 6 LEDs' in text


def test_bad_values():
    found = problems(edited(('order = "GRB"', 'order = "GRX"'), ("brightness = 0.6", "brightness = 2"),
                            ("point_slots = 5", "point_slots = 0"), ("scan_hz = 200", 'scan_hz = "fast"'),
                            ("select = [17, 27, 22, 23]", "select = [17, 27, 22]")))
    text = "\n".join(found)
    assert "leds.order: expected one of RGB, RBG, GRB, GBR, BRG, BGR, got 'GRX'" in text
    assert "leds.brightness: expected a number in (0, 1], got 2" in text
    assert "geometry.point_slots: expected an integer 1..15, got 0" in text
    assert "sensors.scan_hz: expected a number 10..1000, got 'fast'" in text
    assert "sensors.select: a CD74HC4067 needs 4 select pins (S0..S3), got 3" in text


def test_every_problem_in_one_message_in_file_order():
    text = edited(("hint = 3", "hint = 17"), ("point_slots = 5", "point_slots = 5\nx = 1"),
                  ("\n5 = 4\n", "\n5 = 99\n"))
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "bad.toml")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"bad board profile bad.toml: line {line_of(text, 'x =')}, geometry.x")
    assert message.count("; ") == 2
    lines = [int(problem.split(",")[0].removeprefix("line ")) for problem in caught.value.problems]
    assert lines == sorted(lines)


def test_missing_tables():
    found = problems("[geometry]\npoint_slots = 5\n")
    assert {p.split(": ")[0] for p in found} >= {"sensors", "leds", "buttons"}


@pytest.mark.parametrize("location", LOCATIONS)
def test_locations_parse_from_their_names(location):
    assert parse_location(str(location)) == location
    assert describe(location) in (f"point {location}", location)


@pytest.mark.parametrize("text", ["0", "25", "bar", "off:red", ""])
def test_unknown_location(text):
    with pytest.raises(ValueError, match="unknown location"):
        parse_location(text)


# (key as written in the default profile, its line there, a value just outside its range)
OUT_OF_RANGE = [
    ("point_slots = 5", "point_slots = 16"),
    ("bar_slots = 4", "bar_slots = 0"),
    ("tray_slots = 15", "tray_slots = 16"),
    ("settle_us = 5", "settle_us = 1e300"),
    ("scan_hz = 200", "scan_hz = 1e9"),
    ("scan_hz = 200", "scan_hz = inf"),
    ("scan_hz = 200", "scan_hz = nan"),
    ("debounce_ms = 5", "debounce_ms = 1e18"),
    ("debounce_ms = 5", "debounce_ms = -1"),
    ("count = 44", "count = 1000000000"),
    ("current_budget_ma = 1500", "current_budget_ma = -inf"),
    ("long_press_s = 1.0", "long_press_s = 1e18"),
    ("bounce_ms = 20", "bounce_ms = true"),
]


@pytest.mark.parametrize(("old", "new"), OUT_OF_RANGE)
def test_every_number_is_refused_outside_its_range_with_its_place(old, new):
    text = edited((old, new))
    key = old.split(" = ")[0]
    (problem,) = [p for p in problems(text) if key in p]
    (full_key,) = [k for k in RANGES if k.endswith("." + key)]
    low, high = RANGES[full_key].low, RANGES[full_key].high
    assert problem.startswith(f"line {line_of(text, key)}, {full_key}: expected a")
    assert f"{low:g}..{high:g}, got " in problem


def test_the_default_profile_documents_every_range():
    for key, limits in RANGES.items():
        name = key.split(".")[-1]
        line = next(line for line in DEFAULT.splitlines()
                    if line.startswith(f"{name} =") or (name == "signal" and "muxes" in line))
        assert f"{limits.low:g}..{limits.high:g}" in line, key


def test_the_ends_of_each_range_are_accepted():
    profile = parse_profile(edited(("scan_hz = 200", "scan_hz = 1000"), ("settle_us = 5", "settle_us = 0"),
                                   ("debounce_ms = 5", "debounce_ms = 100"),
                                   ("long_press_s = 1.0", "long_press_s = 10"), ("bounce_ms = 20", "bounce_ms = 0")))
    wiring = profile.sensors
    assert (wiring.scan_hz, wiring.settle_us, wiring.debounce_ms) == (1000, 0, 100)
    assert (profile.buttons.long_press_s, profile.buttons.bounce_ms) == (10, 0)


def test_settle_time_must_fit_in_a_frame():
    (problem,) = problems(edited(("settle_us = 5", "settle_us = 400")))
    assert problem.startswith(f"line {line_of(DEFAULT, 'settle_us')}, sensors.settle_us: 16 channels x 400 us")


def test_too_many_multiplexers():
    pins = ", ".join(str(pin) for pin in range(2, 19))  # 17 pins (GPIO0 and 1 are refused)
    found = problems(edited(("signal = [24, 25, 5, 6, 12, 13, 16, 26]", f"signal = [{pins}]")))
    assert any("sensors.signal: multiplexers: expected an integer 1..16, got 17" in p for p in found)


def test_the_reeds_of_a_slot_are_read_from_the_geometry():
    geometry = parse_profile(edited(("reeds_mm = [[-4.0, -1.3], [4.0, 1.3]]", "reeds_mm = [[0, 0]]"))).geometry
    assert geometry.reeds_mm == ((0.0, 0.0),) and geometry.mark(1) == 62.0


@pytest.mark.parametrize(("value", "words"), [
    ("[[-4.0, -1.3], [21, 0]]", "geometry.reeds_mm: reed offsets: expected a number -20..20, got 21"),
    ("[]", "geometry.reeds_mm: expected 1..4 pairs [along, across] (mm from the mark), got []"),
    ("[[1, 2, 3]]", "expected 1..4 pairs"),
])
def test_bad_reed_offsets_are_refused(value, words):
    (problem,) = problems(edited(("reeds_mm = [[-4.0, -1.3], [4.0, 1.3]]", f"reeds_mm = {value}")))
    assert words in problem
