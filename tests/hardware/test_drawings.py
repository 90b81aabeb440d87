"""The drawings and tables kept in hardware/ are what the profile gives, byte for byte, and
they say what a builder needs: physical pin numbers, every switch and LED, the Pico's pins."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from bgpi.exc import HeaderPinError, PinoutError, UsageError
from bgpi.hardware.header import PI_HEADER
from bgpi.hardware.layout import layout_svg
from bgpi.hardware.profile import default_profile_path, load_profile
from bgpi.hardware.schematic import chain_runs, channel_runs, header_jobs, schematic_svg
from bgpi.hardware.wiring import pi_host
from bgpi.link.pinout import PICO_HEADER, pico_host, pico_wiring_tables
from tests.hardware.test_diag import diag

HARDWARE = Path(__file__).parents[2] / "hardware"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize(("name", "argv"), [
    ("schematic.svg", ("schematic",)),
    ("layout.svg", ("layout",)),
    ("wiring-pico.txt", ("wiring", "--board", "serial:/dev/ttyACM0")),
    ("schematic-pico.svg", ("schematic", "--board", "serial:/dev/ttyACM0")),
    ("layout-pico.svg", ("layout", "--board", "serial:/dev/ttyACM0")),
])
def test_files_in_hardware_are_the_profiles_output(name, argv):
    status, out = diag(*argv)
    assert status == 0
    assert (HARDWARE / name).read_text(encoding="utf-8") == out, (
        f"regenerate it: bgpi diag {' '.join(argv)} > hardware/{name}")


@pytest.mark.parametrize("test", ["wiring", "schematic", "layout"])
def test_a_simulated_pico_is_wired_like_a_real_one(test):
    assert diag(test, "--board", "pty") == diag(test, "--board", "serial:/dev/ttyACM0")


def test_the_header_map_gives_each_job_its_physical_pin(profile):
    host = pi_host(profile)
    jobs = header_jobs(host)
    assert len(jobs) == 40
    assert [jobs[pin][0].split()[0] for pin in (11, 13, 15, 16)] == ["S0", "S1", "S2", "S3"]
    signals = [18, 22, 29, 31, 32, 33, 36, 37]
    assert [jobs[pin][0].split()[0] for pin in signals] == [f"SIG{mux}" for mux in range(8)]
    assert jobs[19][0].startswith("LED data")
    assert jobs[5][0] == "button hint" and jobs[2] == jobs[4] == ("leave unconnected", "p5v")
    assert {jobs[pin][0] for pin in (6, 9, 14, 20, 25, 30, 34, 39)} == {"ground"}
    assert host.physical(24) == 18 and host.physical(0) == 27
    with pytest.raises(HeaderPinError, match="GPIO28 is not a pin of a Raspberry Pi"):
        host.physical(28)


def test_the_schematic_lists_every_channel_and_the_chain(profile):
    runs = [run for mux in range(8) for run in channel_runs(profile, mux)]
    assert runs[0] == "C0-C4 point 1 slots 0-4" and runs[-1] == "C15 bar:white slot 3"
    assert chain_runs(profile) == ["0-23  points 1-24", "24  bar:white", "25  bar:black", "26  off:white",
                                   "27  off:black", "28-34  die:1 pips 0-6", "35-41  die:2 pips 0-6",
                                   "42  turn:white", "43  turn:black"]
    root = ElementTree.fromstring(schematic_svg(profile, pi_host(profile)))
    texts = [node.text for node in root.iter(f"{SVG}text")]
    assert "S0 <- GPIO17 (pin 11)" in texts and "LED data from GPIO10 (pin 19)" in texts
    pins = {"VCC 24", "GND 12", "E 15", "SIG (COM) 1", "10 S0", "C0 9", "C15 16"}
    assert pins | {"220 Ohm", "fuse T3.15A"} <= set(texts)


def test_the_layout_places_every_switch_and_led(profile):
    root = ElementTree.fromstring(layout_svg(profile, pi_host(profile)))
    reeds = [node for node in root.iter(f"{SVG}rect") if node.get("class") == "reed"]
    leds = [node for node in root.iter(f"{SVG}circle") if node.get("class") == "led"]
    assert len(reeds) == 2 * 128 + 2 + 1  # two a slot, the two of the detail and the side view's
    assert len(leds) == 44
    labels = {node.text for node in root.iter(f"{SVG}text") if node.get("class") == "tiny"}
    assert labels == {f"{mux}.{channel}" for mux in range(8) for channel in range(16)}


def test_the_layout_is_drawn_in_millimetres_with_a_scale_bar_and_the_dimensions(profile):
    svg = layout_svg(profile, pi_host(profile))
    root = ElementTree.fromstring(svg)
    assert root.get("width").endswith("mm") and root.get("viewBox").startswith("0 0 ")
    assert float(root.get("width")[:-2]) == float(root.get("viewBox").split()[2])  # 1 unit = 1 mm
    texts = {node.text for node in root.iter(f"{SVG}text")}
    assert {"100 mm: measure it on a print", "bar 56", "tray 56", "522", "point 210", "22", "40"} <= texts
    assert "frame 688 mm (the frame itself 16 mm wide)" in texts and "6 points x 44 = 264 mm" in texts


def test_the_dice_pips_leave_room_for_10_mm_carriers():
    from bgpi.hardware.layout import led_places

    pips = led_places()["die:1"]
    assert min(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a in pips for b in pips if a != b) >= 14


def test_another_profile_gives_other_drawings(tmp_path):
    path = tmp_path / "other.toml"
    path.write_text(default_profile_path().read_text().replace("hint = 3", "hint = 18"))
    profile = load_profile(path)
    jobs = header_jobs(pi_host(profile))
    assert jobs[12][0] == "button hint" and jobs[5][0] == "-"
    assert "GPIO18 (pin 12)" in layout_svg(profile, pi_host(profile))


def test_the_pico_tables_give_gp_numbers_and_pico_pins(profile):
    tables = pico_wiring_tables(profile)
    # GPIO24 on the Pi (mux 0's signal) is GP6 on the Pico.
    assert "  GP6     signal of mux 0 (10 kOhm pull-up to 3.3 V), Pico pin 9" in tables
    assert "  GP16    the LED data line (to the 74AHCT125), Pico pin 21" in tables
    assert "  GP21    button hint (to ground), Pico pin 27" in tables
    assert "GPIO" not in tables.split("\n", 3)[3]  # below the heading
    host = pico_host(profile)
    assert host.physical(28) == 34 and set(PI_HEADER) == set(PICO_HEADER) == set(range(1, 41))
    with pytest.raises(HeaderPinError, match="GP23 is not a pin of a Raspberry Pi Pico"):
        host.physical(23)
    jobs = header_jobs(host)
    assert jobs[9][0].startswith("SIG0") and jobs[21][0].startswith("LED data") and jobs[27][0] == "button hint"
    assert jobs[36][0] == "multiplexers' VCC, pull-ups" and jobs[40][0] == "leave unconnected"


def test_the_pico_tables_refuse_more_multiplexers_than_pins(tmp_path):
    text = default_profile_path().read_text().replace(
        "signal = [24, 25, 5, 6, 12, 13, 16, 26]", "signal = [24, 25, 5, 6, 12, 13, 16, 26, 14, 15, 18]")
    path = tmp_path / "big.toml"
    path.write_text(text)
    with pytest.raises(PinoutError, match="a Pico has signal pins for 10"):
        pico_wiring_tables(load_profile(path))
    for test in ("wiring", "schematic"):
        with pytest.raises(UsageError, match="a Pico has signal pins for 10"):
            diag(test, "--board", "pty", "--profile", str(path))
    assert diag("schematic", "--profile", str(path))[0] == 0  # the Pi has pins for them
