"""The sensing model (benchmarks/sensing.py) behaves as the reed makers' maps say, and the
profile's geometry counts checkers on their marks."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

PATH = Path(__file__).parents[2] / "benchmarks" / "sensing.py"


@pytest.fixture(scope="module")
def sensing():
    spec = importlib.util.spec_from_file_location("sensing_model", PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules["sensing_model"] = module
    spec.loader.exec_module(module)
    return module


def closes(sensing, design, response, along):
    drives = [2 * abs(response.drive(np.array([along - u]), np.array([-v]))[0]) for u, v in design.offsets]
    return max(drives)


def test_a_flat_reed_has_a_dead_zone_over_its_middle_and_two_lobes(sensing):
    response = sensing.flat_response(sensing.N35_6x2, sensing.MDSR7_15, 4.0)
    middle = abs(response.drive(np.array([0.0]), np.array([0.0]))[0])
    blade = abs(response.drive(np.array([4.0]), np.array([0.0]))[0])
    other_blade = abs(response.drive(np.array([-4.0]), np.array([0.0]))[0])
    assert middle < 0.05 * blade and blade == pytest.approx(other_blade, rel=0.05)
    assert 2 * blade > 20  # over a blade it drives a 15-20 AT reed closed


def test_the_profiles_two_reeds_close_from_the_mark_out_to_about_18_mm(sensing, profile):
    design = sensing.chosen(profile.geometry)
    response = sensing.flat_response(design.magnet, design.reed, design.gap)
    weakest = design.reed.band[1] / sensing.CALIBRATION[0]
    for along in np.arange(-17.0, 17.5, 0.5):
        assert closes(sensing, design, response, along) >= weakest, along
    most_sensitive = design.reed.band[0] / sensing.CALIBRATION[1]
    assert closes(sensing, design, response, 23.0) < most_sensitive  # the next mark's zone


def test_checkers_on_their_marks_are_counted(sensing, profile):
    design = sensing.chosen(profile.geometry)
    responses = {gap: sensing.flat_response(design.magnet, design.reed, gap) for gap in (3.5, 4.0, 4.5)}
    rng = np.random.default_rng(1)
    for scenario in ("marks", "stacked"):
        tally = sensing.simulate(design, responses, profile.geometry, scenario, 2.0, 200, rng)
        assert tally.trials == 200 and tally.wrong == 0, scenario
