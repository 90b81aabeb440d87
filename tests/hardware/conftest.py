"""Fixtures for the hardware layer: the default profile and boards on gpiozero mock pins."""

from __future__ import annotations

import dataclasses

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from bgpi.board.profile import Profile
from bgpi.hardware.board import BoardDevices, open_sim_board
from bgpi.hardware.mockboard import SimulatedBoard
from bgpi.hardware.profile import load_profile
from bgpi.hardware.scanner import Scanner


@pytest.fixture(scope="session")
def profile() -> Profile:
    return load_profile()


@pytest.fixture
def mock_factory():
    """gpiozero's global pin factory set to a fresh MockFactory, restored afterwards."""
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = previous


@pytest.fixture
def sim(profile: Profile, mock_factory: MockFactory) -> SimulatedBoard:
    return SimulatedBoard(profile, mock_factory)


@pytest.fixture
def scanner(profile: Profile, sim: SimulatedBoard):
    wiring = dataclasses.replace(profile.sensors, settle_us=0.0)
    with Scanner(wiring, pin_factory=sim.factory) as scanner:
        yield scanner


@pytest.fixture
def board(profile: Profile) -> BoardDevices:
    with open_sim_board(profile) as board:
        yield board


PI_4B_REVISION = 0xC03111
"""A Raspberry Pi 4 Model B's revision code, for gpiozero's pin tables."""


@pytest.fixture
def lgpio_board(profile: Profile, tmp_path, monkeypatch):
    """(simulated board, `SimulatedChip`, gpiozero's lgpio factory): the Pi's pin stack with
    only lgpio's kernel calls simulated, as on a Pi 4 whose switches are the board's."""
    monkeypatch.chdir(tmp_path)  # lgpio makes its notification pipe here when imported
    lgpio = pytest.importorskip("lgpio")
    from gpiozero.pins.lgpio import LGPIOFactory
    from gpiozero.pins.local import LocalPiFactory

    from tests.hardware.chipsim import SimulatedChip

    board = SimulatedBoard(profile)
    chip = SimulatedChip(board, lgpio._lgpio)
    monkeypatch.setattr(lgpio, "_lgpio", chip)
    monkeypatch.setattr(LocalPiFactory, "_get_revision", lambda self: PI_4B_REVISION)
    factory = LGPIOFactory(chip=0)
    yield board, chip, factory
    factory.close()
