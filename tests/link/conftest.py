"""Fixtures for the link: the default profile and a simulated Pico behind a pty."""

from __future__ import annotations

import time

import pytest

from bgpi.board.profile import Profile
from bgpi.hardware.profile import load_profile
from bgpi.link.board import LinkBoard, open_link_board
from bgpi.link.simpico import PicoHands, SimPico


@pytest.fixture(scope="session")
def profile() -> Profile:
    return load_profile()


class Clock:
    """Board time for a link in lockstep: `tick` moves it one scan on."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def pico(tmp_path):
    with SimPico(tmp_path) as pico:
        yield pico


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def board(profile: Profile, pico: SimPico, clock: Clock):
    board = open_link_board(profile, str(pico.port), clock=clock, step=pico.step)
    connect(board)
    yield board
    board.close()


@pytest.fixture
def hands(profile: Profile, pico: SimPico) -> PicoHands:
    return PicoHands(profile, pico)


def connect(board: LinkBoard) -> None:
    deadline = time.monotonic() + 5
    while not board.link.connected and time.monotonic() < deadline:
        board.link.pump(wait=0.01)
    assert board.link.connected, board.link.status()


def scan(board: LinkBoard, clock: Clock, frames: int = 1) -> int:
    for _ in range(frames):
        clock.now += 0.005
        frame = board.scanner.scan()
    return frame
