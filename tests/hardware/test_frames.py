"""Pure frame logic: debouncing and the switch self-test."""

from __future__ import annotations

import pytest

from bgpi.board.profile import Switch
from bgpi.hardware.debounce import Debouncer
from bgpi.hardware.frames import SwitchTest, frame_of


def test_first_frame_is_accepted_as_it_is():
    assert Debouncer(2).update(0b101) == 0b101


def test_a_change_needs_n_consecutive_frames():
    debouncer = Debouncer(2)
    debouncer.update(0b00)
    assert debouncer.update(0b01) == 0b00
    assert debouncer.update(0b01) == 0b01
    assert debouncer.stable == 0b01


def test_chatter_is_ignored_switch_by_switch():
    debouncer = Debouncer(3)
    debouncer.update(0b10)
    # switch 0 chatters and never holds 3 frames; switch 1 opens and stays open.
    for raw, accepted in ((0b01, 0b10), (0b00, 0b10), (0b01, 0b00), (0b00, 0b00), (0b01, 0b00)):
        assert debouncer.update(raw) == accepted
    assert debouncer.update(0b01) == 0b00
    assert debouncer.update(0b01) == 0b01


def test_a_single_frame_debouncer_follows_every_frame():
    debouncer = Debouncer(1)
    assert [debouncer.update(f) for f in (1, 0, 1)] == [1, 0, 1]


def test_debouncer_needs_a_frame():
    with pytest.raises(ValueError):
        Debouncer(0)


def test_switch_test_names_stuck_switches_by_location_and_slot(profile):
    wiring = profile.sensors
    stuck_closed, stuck_open, flaky = Switch(7, 2), Switch("bar:black", 3), Switch(24, 0)
    test = SwitchTest(wiring)
    for observation, (_, switch) in enumerate(wiring.connected()):
        expected = frame_of([switch], wiring)
        seen = expected | frame_of([stuck_closed], wiring)
        if switch == stuck_open:
            seen &= ~expected
        test.observe(expected, seen)
        flaky_frame = frame_of([flaky], wiring) if observation == 5 else 0
        test.observe(0, frame_of([stuck_closed], wiring) | flaky_frame)
    faults = {str(fault) for fault in test.faults()}
    assert faults == {"point 7 slot 2: stuck closed", "bar:black slot 3: stuck open",
                      "point 24 slot 0: unreliable (read wrong 1 of 256 times)"}


def test_an_empty_board_finds_stuck_closed_switches_only(profile):
    test = SwitchTest(profile.sensors)
    for _ in range(5):
        test.observe(0, frame_of([Switch(1, 0)], profile.sensors))
    (fault,) = test.faults()
    assert (fault.switch, fault.kind, fault.wrong, fault.observed) == (Switch(1, 0), "stuck closed", 5, 5)
