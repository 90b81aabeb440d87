"""Buttons on gpiozero mock pins: short and long presses by name."""

from __future__ import annotations

import dataclasses

import pytest

from bgpi.board.profile import BUTTON_NAMES
from bgpi.hardware.buttons import ButtonPress, Buttons

WAIT = 5.0
"""Upper bound for a callback thread to deliver; never reached when things work."""


@pytest.fixture
def buttons(profile, mock_factory):
    # A short hold time keeps the long-press test quick; no test measures it.
    config = dataclasses.replace(profile.buttons, long_press_s=0.05)
    with_buttons = Buttons(config)  # on the global MockFactory
    yield with_buttons
    with_buttons.close()


@pytest.mark.parametrize("name", BUTTON_NAMES)
def test_short_press(profile, mock_factory, buttons, name):
    pin = mock_factory.pin(profile.buttons.pins[name])
    pin.drive_low()
    pin.drive_high()
    assert buttons.next_press(timeout=WAIT) == ButtonPress(name)
    assert buttons.next_press(timeout=0) is None


def test_long_press_is_reported_once_while_held(profile, mock_factory, buttons):
    pin = mock_factory.pin(profile.buttons.pins["white.cube"])
    pin.drive_low()
    assert buttons.next_press(timeout=WAIT) == ButtonPress("white.cube", long=True)
    assert buttons.pressed() == ["white.cube"]
    pin.drive_high()
    assert buttons.next_press(timeout=0.2) is None
    assert buttons.pressed() == []


def test_presses_keep_their_order(profile, mock_factory, buttons):
    for name in ("hint", "black.turn", "hint"):
        pin = mock_factory.pin(profile.buttons.pins[name])
        pin.drive_low()
        pin.drive_high()
    assert [buttons.next_press(timeout=WAIT).name for _ in range(3)] == ["hint", "black.turn", "hint"]


def test_press_names_read_well():
    assert str(ButtonPress("hint")) == "hint short press"
    assert str(ButtonPress("black.cube", long=True)) == "black.cube long press"
