"""The scanner on mock pins: Gray-code order, minimal pin traffic, frames and counts."""

from __future__ import annotations

import dataclasses
import itertools
import time

import pytest

from bgpi.board.profile import CHANNELS, Switch
from bgpi.hardware.frames import CheckerCounter, closed_switches
from bgpi.hardware.mockboard import MuxSignalPin
from bgpi.hardware.scanner import Scanner, gray_code


def test_gray_code_changes_one_line_per_step_including_the_wrap():
    order = gray_code(4)
    assert sorted(order) == list(range(16))
    for previous, channel in zip(order[-1:] + order[:-1], order, strict=True):
        assert (previous ^ channel).bit_count() == 1


def test_each_step_changes_exactly_one_select_line(sim, scanner, monkeypatch):
    seen: list[int] = []
    original = MuxSignalPin._get_state

    def recording(pin):
        if pin.offset == 0:  # mux 0 is read once per step
            seen.append(sum(weight for weight, select in sim.select_weights if select._state))
        return original(pin)

    monkeypatch.setattr(MuxSignalPin, "_get_state", recording)
    scanner.scan()
    scanner.scan()
    assert seen == list(gray_code(4)) * 2
    for previous, channel in itertools.pairwise(seen):
        assert (previous ^ channel).bit_count() == 1


def test_a_frame_costs_the_minimum_of_pin_operations(profile, sim, scanner):
    sim.pin_writes = sim.pin_reads = 0
    for _ in range(3):
        scanner.scan()
    assert sim.pin_writes == 3 * CHANNELS
    assert sim.pin_reads == 3 * CHANNELS * len(profile.sensors.signal)


def test_every_switch_is_read_at_its_location_and_slot(profile, sim, scanner):
    assert scanner.scan() == 0
    for index, switch in profile.sensors.connected():
        sim.set_switch(switch, True)
        assert list(closed_switches(scanner.scan(), profile.sensors)) == [switch]
        assert scanner.scan() == 1 << index
        sim.release_switch(switch)
    assert scanner.scan() == 0


def test_checkers_fill_a_point_from_the_outer_edge(profile, sim, scanner):
    sim.place(8, 3)
    assert set(closed_switches(scanner.scan(), profile.sensors)) == {Switch(8, s) for s in range(3)}
    sim.lift(8)
    assert set(closed_switches(scanner.scan(), profile.sensors)) == {Switch(8, 0), Switch(8, 1)}


def test_counts_per_location_saturate_at_the_slots(profile, sim, scanner):
    counter = CheckerCounter(profile.sensors, profile.geometry)
    sim.place(6, 5)
    sim.place(13, 7)
    sim.place("bar:white", 2)
    counts = counter.counts(scanner.scan())
    assert {location: n for location, n in counts.items() if n} == {6: 5, 13: 5, "bar:white": 2}
    assert set(counts) == set(profile.geometry.sensed())
    assert counter.is_full(13, counts[13]) and counter.is_full(6, 5)
    assert not counter.is_full("bar:white", 2)


def test_trays_without_switches_hold_checkers_unseen(profile, sim, scanner):
    sim.place("off:white", 3)
    assert sim.checkers("off:white") == 3
    assert scanner.scan() == 0


def test_lifting_more_than_there_is_is_refused(sim):
    sim.place(1)
    with pytest.raises(ValueError, match="cannot lift 2 from point 1: only 1 there"):
        sim.lift(1, 2)


def test_a_broken_switch_wins_over_checkers(profile, sim, scanner):
    sim.break_switch(Switch(3, 0), closed=False)
    sim.place(3, 2)
    assert set(closed_switches(scanner.scan(), profile.sensors)) == {Switch(3, 1)}
    sim.clear()
    assert scanner.scan() == 0


def test_closing_releases_the_pins(profile, sim, scanner):
    scanner.close()
    scanner.close()
    with Scanner(profile.sensors, pin_factory=sim.factory) as again:  # no GPIOPinInUse
        sim.place(1)
        assert again.scan() == 1


@pytest.mark.parametrize(("settle_us", "sleeps"), [(5.0, 0), (1000.0, CHANNELS)])
def test_a_long_settle_time_is_slept_and_a_short_one_busy_waited(profile, sim, monkeypatch, settle_us, sleeps):
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    with Scanner(dataclasses.replace(profile.sensors, settle_us=settle_us), pin_factory=sim.factory) as scanner:
        sim.place(6, 5)
        assert scanner.scan() == sim.closed  # read right either way
    assert slept == [settle_us / 1e6] * sleeps
