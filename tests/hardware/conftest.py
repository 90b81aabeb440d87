"""Fixtures for the hardware layer: the default profile and boards on gpiozero mock pins."""

from __future__ import annotations

import dataclasses

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from bgpi.hardware.board import Board, open_board
from bgpi.hardware.mockboard import SimulatedBoard
from bgpi.hardware.profile import Profile, load_profile
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
def board(profile: Profile) -> Board:
    with open_board(profile, "sim") as board:
        yield board
