"""The PCBs, the template and the fabrication files in hardware/ are what the profile gives,
KiCad's own DRC passes on them, and they say what a builder orders."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bgpi.board.profile import CHANNELS
from bgpi.hardware.boards import BUS, BoardLayoutError, adapter, bar_slot_board, board_map, boards, points_board
from bgpi.hardware.fab import files
from bgpi.hardware.header import PI_HEADER
from bgpi.hardware.pcb import Board, Pad, Part, bom_csv, cpl_csv
from bgpi.hardware.picopins import PICO_HEADER
from bgpi.hardware.profile import default_profile_path, load_profile
from bgpi.hardware.router import RoutingError, route
from bgpi.hardware.template import template_pdf

HARDWARE = Path(__file__).parents[2] / "hardware"
KICAD_PYTHON = Path("/usr/bin/python3")


@pytest.fixture(scope="module")
def generated():
    return files(load_profile())


def test_every_fab_file_in_hardware_is_the_profiles_output(generated):
    for name, contents in generated.items():
        assert (HARDWARE / name).read_bytes() == contents, f"regenerate it: make hardware ({name})"


def test_the_adapter_joins_each_bus_line_to_its_profile_pin(profile):
    board = adapter(profile)
    nets = board.net_of()
    physical = {name: pin for pin, name in PI_HEADER.items()}
    for line, gpio in enumerate(profile.sensors.select):
        assert nets[("J1", str(physical[f"GPIO{gpio}"]))] == f"S{line}"
        assert nets[("J2", str(BUS.index(f"S{line}") + 1))] == f"S{line}"
    for mux, gpio in enumerate(profile.sensors.signal):
        assert nets[("J1", str(physical[f"GPIO{gpio}"]))] == f"SIG{mux}"
    assert nets[("J1", "19")] == "LED_DATA_3V3" and nets[("U1", "2")] == "LED_DATA_3V3"
    assert ("J1", "2") not in nets and ("J1", "4") not in nets  # the Pi's 5 V goes nowhere
    assert nets[("J1", "5")] == "BTN_hint" and nets[("R6", "1")] == "BTN_hint"
    assert board.part("R6").value == "220"  # GPIO3's 1.8 kOhm pull-up: a press reads 0.36 V


def test_the_pico_adapter_uses_the_picos_fixed_pins(profile):
    nets = adapter(profile, pico=True).net_of()
    physical = {name: pin for pin, name in PICO_HEADER.items()}
    assert nets[("U2", str(physical["GP2"]))] == "S0" and nets[("U2", str(physical["GP6"]))] == "SIG0"
    assert nets[("U2", str(physical["GP16"]))] == "LED_DATA_3V3"
    assert nets[("U2", str(physical["3V3(OUT)"]))] == "3V3" and ("U2", str(physical["VBUS"])) not in nets


def test_the_points_board_puts_two_reeds_around_each_mark_on_its_channel(profile):
    board = points_board(profile)
    geometry = profile.geometry
    reeds = [part for part in board.parts if part.ref.startswith("SW")]
    assert len(reeds) == 15 * len(geometry.reeds_mm)
    for along, across in geometry.reeds_mm:  # point A's centre line is 21.5 mm from the board's edge
        assert any(abs(part.x - (21.5 + across)) < 0.13 and abs(part.y - (geometry.mark(0) + along)) < 0.13
                   for part in reeds)
    nets = board.net_of()
    # Slot 2 of point B is channel 7: the CD74HC4067's pin 2; both its reeds on that net.
    assert nets[("U1", "2")] == "CH7"
    assert sum(1 for (ref, _), net in nets.items() if net == "CH7" and ref.startswith("SW")) == 2
    assert nets[("U1", "16")] == "CH15" and nets[("J3", "1")] == "CH15"


def test_each_board_says_which_points_it_senses(profile):
    lines = board_map(profile)
    assert lines[0].startswith("mux 0: close JP1; bottom half") and "A = point 1" in lines[0]
    assert lines[7].endswith("J3 = bar:white slot 3")


def test_a_profile_wired_otherwise_is_refused_for_the_boards(tmp_path):
    path = tmp_path / "other.toml"
    path.write_text(default_profile_path().read_text().replace("1 = [[0, 0], [0, 1]", "1 = [[0, 1], [0, 0]"))
    with pytest.raises(BoardLayoutError, match="mux 0 channel 0: the points board puts slot 0 of a point there"):
        points_board(load_profile(path))


def test_every_electronic_line_of_each_bom_has_a_part_number(profile):
    for board in boards(profile):
        rows = list(csv.DictReader(io.StringIO(bom_csv(board))))
        assert rows and all(row["Manufacturer Part Number"] for row in rows), board.name
        assert sum(int(row["Quantity"]) for row in rows) == len(board.parts)
    placements = cpl_csv(adapter(profile)).splitlines()
    assert placements[0] == "Designator,Mid X,Mid Y,Layer,Rotation" and placements[1].startswith("C1,")
    assert not any(line.startswith("JP") for line in cpl_csv(points_board(profile)).splitlines())


def test_the_router_joins_pads_and_says_when_it_cannot():
    pads = (Pad("1", 0, 0, 1.7, 1.7, 1.0),)
    board = Board("test", "two pads", 20.0, 10.0, 1)
    left = board.add(Part("J1", "", "", "", 3.048, 5.08, pads))
    right = board.add(Part("J2", "", "", "", 16.0, 5.08, pads))
    board.connect("A", (left, "1"), (right, "1"))
    routing = route(board)
    assert routing.tracks and {track.net for track in routing.tracks} == {"A"}
    walled = Board("walled", "a pad outside the board", 20.0, 10.0, 1)
    inside = walled.add(Part("J1", "", "", "", 3.0, 5.0, pads))
    outside = walled.add(Part("J2", "", "", "", 25.0, 5.0, pads))
    walled.connect("A", (inside, "1"), (outside, "1"))
    with pytest.raises(RoutingError, match="J2 pad 1 is off the board"):
        route(walled)


def test_the_template_tiles_the_board_on_a4_with_a_scale_bar(profile):
    pdf = template_pdf(profile)
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert pdf.count(b"/Type /Page ") == 8  # 688 x 522 mm on 180 x 267 mm windows
    assert pdf.count(b"(100 mm: measure it) Tj") == 8
    assert b"(+100,100) Tj" in pdf  # a registration cross, named by its board coordinates


def test_the_bar_slot_board_holds_one_slot(profile):
    board = bar_slot_board(profile)
    assert board.quantity == 8 and len(board.nets["CH"]) == 3
    assert len(profile.sensors.signal) * CHANNELS == 128  # 8 points boards of 16 channels


@pytest.mark.skipif(not KICAD_PYTHON.exists(), reason="no /usr/bin/python3")
def test_kicad_builds_the_boards_with_a_clean_drc_and_the_committed_outputs(tmp_path):
    check = subprocess.run([str(KICAD_PYTHON), "-c", "import pcbnew"], capture_output=True)
    if check.returncode:
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's kicad (its pcbnew module): .ci/run")
        pytest.skip("KiCad's pcbnew module is not installed (apt-get install --no-install-recommends kicad)")
    for folder in sorted(path for path in (HARDWARE / "pcb").iterdir() if path.is_dir()):
        (tmp_path / folder.name).mkdir()
        shutil.copy(folder / f"{folder.name}.json", tmp_path / folder.name)
    done = subprocess.run([str(KICAD_PYTHON), str(HARDWARE / "kicad" / "build.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    for folder in sorted(tmp_path.iterdir()):
        assert f"{folder.name}: 0 DRC violations, 0 unconnected pads" in done.stdout
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                committed = HARDWARE / "pcb" / path.relative_to(tmp_path)
                assert committed.read_bytes() == path.read_bytes(), f"regenerate it: make hardware ({committed})"
