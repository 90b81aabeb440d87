"""Flapping switches: found by their rate of change, then read from their neighbours."""

from __future__ import annotations

import pytest

from bgpi.board.profile import Switch
from bgpi.hardware.flapping import HAND_CHANGES, WINDOW_S, FlapWatch
from bgpi.hardware.frames import frame_of

CHATTER = Switch(8, 2)


def row(location, count: int) -> list[Switch]:
    """The switches under `count` checkers on `location`, from the outer edge."""
    return [Switch(location, slot) for slot in range(count)]


def test_a_switch_changing_faster_than_hands_is_flapping_once(profile):
    wiring = profile.sensors
    watch = FlapWatch.for_wiring(wiring)
    assert watch.window == round(WINDOW_S * wiring.scan_hz)
    steady = frame_of(row(6, 5), wiring)
    found = []
    for frame in range(200):
        closed = frame_of([CHATTER], wiring) if frame % 4 < 2 else 0
        found += watch.update(steady | closed, frame)
    (fault,) = found
    assert fault.switch == CHATTER and fault.changes == HAND_CHANGES + 1
    assert str(fault).startswith("point 8 slot 2: flapping (21 changes in ")
    assert list(watch.faulty) == [wiring.index(CHATTER)]


def test_hands_at_work_are_not_flapping(profile):
    """Checkers lifted and put down as fast as hands go: three times a second, for a minute."""
    wiring = profile.sensors
    watch = FlapWatch.for_wiring(wiring)
    half = int(wiring.scan_hz / 6)
    for frame in range(int(60 * wiring.scan_hz)):
        lifted = frame // half % 2
        assert watch.update(frame_of(row(13, 5 - lifted) + row(7, 1 + lifted), wiring), frame) == []
    assert watch.faulty == {}


def test_changes_spread_beyond_the_window_are_not_counted(profile):
    wiring = profile.sensors
    watch = FlapWatch(wiring, window=100, limit=3)
    bit = frame_of([CHATTER], wiring)
    frames = [bit if (n // 40) % 2 else 0 for n in range(400)]  # a change every 40 frames
    assert not any(watch.update(frame, at) for at, frame in enumerate(frames))
    wider = FlapWatch(wiring, window=200, limit=3)
    assert [fault.switch for at, frame in enumerate(frames) for fault in wider.update(frame, at)] == [CHATTER]


def test_a_flapping_switch_is_read_from_its_neighbours(profile):
    wiring = profile.sensors
    watch = FlapWatch(wiring, window=10, limit=2)
    for at, frame in enumerate((0, frame_of([CHATTER], wiring), 0, frame_of([CHATTER], wiring))):
        watch.update(frame, at)
    (fault,) = watch.faulty.values()
    assert fault.switch == CHATTER
    # Under four checkers on point 8 the chattering slot 2 must be covered, whatever it reads.
    four = frame_of(row(8, 4), wiring)
    assert watch.mend(four & ~frame_of([CHATTER], wiring)) == four
    # Under two checkers it reads open (a third checker on it goes unseen).
    two = frame_of(row(8, 2), wiring)
    assert watch.mend(two | frame_of([CHATTER], wiring)) == two
    # It is counted no more: its chatter goes unnoticed.
    assert watch.update(frame_of([CHATTER], wiring), 5) == []


def test_a_watch_needs_a_window_and_a_limit(profile):
    with pytest.raises(ValueError):
        FlapWatch(profile.sensors, window=0)
