"""The sensor recorder: a real board's switches, written as a board script that replays them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgpi.board.locations import LOCATIONS
from bgpi.board.profile import Geometry, Switch
from bgpi.exc import ServiceError
from bgpi.shell.recorder import Recorder
from bgpi.shell.script import LINE_SECONDS, Slot, StartingBoard, Wait, parse_script


def recording(closed=(), start_s=0.0):
    lines: list[str] = []
    return Recorder(lines.append, closed, start_s), lines


def board_times(text: str) -> list[tuple[float, object]]:
    """(board time in seconds, line) for each line of the script `text` other than ``wait``:
    each such line happens at the board time reached so far, then lets 0.1 s pass."""
    script = parse_script(text, geometry=Geometry())
    assert script.board == StartingBoard("empty")
    ms, timed = 0, []
    for line in (script.board, *script.lines):
        if isinstance(line, Wait):
            ms += round(line.seconds * 1000)
        else:
            timed.append((ms / 1000, line))
            ms += round(LINE_SECONDS * 1000)
    return timed


def test_starts_from_an_empty_board_and_the_switches_already_closed():
    _, lines = recording(closed=[Switch("bar:white", 0), Switch(6, 1), Switch(24, 0),
                                 Switch(6, 0)])
    assert lines == [
        '{"board": "empty"}\n',
        '{"slot": [6, 0, true]}\n',
        '{"slot": [6, 1, true]}\n',
        '{"slot": [24, 0, true]}\n',
        '{"slot": ["bar:white", 0, true]}\n',
    ]


def test_waits_leave_out_the_time_the_lines_themselves_take():
    recorder, lines = recording()
    # Recording starts as the board line has happened and let its 0.1 s pass.
    recorder.switch_changed(2.5, 8, 2, False)
    recorder.switch_changed(3.25, 5, 1, True)   # the slot line took 0.1 s of the 0.75
    recorder.button(4.5, "white.turn")
    recorder.button(7.0, "black.cube", long=True)
    assert lines[1:] == [
        '{"wait": 2.5}\n',
        '{"slot": [8, 2, false]}\n',
        '{"wait": 0.65}\n',
        '{"slot": [5, 1, true]}\n',
        '{"wait": 1.15}\n',
        '{"press": "white.turn"}\n',
        '{"wait": 2.4}\n',
        '{"hold": "black.cube"}\n',
    ]


def test_whole_second_waits_are_written_as_integers():
    recorder, lines = recording()
    recorder.switch_changed(3.0, 8, 0, True)
    assert lines[1] == '{"wait": 3}\n'


def test_times_are_kept_to_the_millisecond():
    recorder, lines = recording(start_s=100.0)
    recorder.switch_changed(100.4567, 8, 0, True)
    assert lines[1] == '{"wait": 0.457}\n'


def test_a_long_pause_is_several_waits_each_within_bounds():
    recorder, lines = recording()
    recorder.switch_changed(2 * 3600 + 5.0, 8, 0, True)
    assert lines[1:] == ['{"wait": 3600}\n', '{"wait": 3600}\n', '{"wait": 5}\n',
                         '{"slot": [8, 0, true]}\n']


def test_zero_waits_are_left_out():
    recorder, lines = recording(start_s=10.0)
    recorder.switch_changed(10.0, 8, 0, True)
    recorder.switch_changed(10.1, 8, 1, True)
    assert lines[1:] == ['{"slot": [8, 0, true]}\n', '{"slot": [8, 1, true]}\n']


def test_crowded_changes_get_no_negative_wait_and_time_catches_up():
    recorder, lines = recording()
    # One scan closes three switches at once; the script needs 0.1 s per line.
    for slot in range(3):
        recorder.switch_changed(1.0, 13, slot, True)
    recorder.switch_changed(1.25, 13, 3, True)
    recorder.switch_changed(2.0, 13, 4, True)
    assert lines[1:] == [
        '{"wait": 1}\n',
        '{"slot": [13, 0, true]}\n',
        '{"slot": [13, 1, true]}\n',
        '{"slot": [13, 2, true]}\n',
        '{"slot": [13, 3, true]}\n',   # 0.05 s late: no wait, never a negative one
        '{"wait": 0.6}\n',              # back on time: the lateness does not carry over
        '{"slot": [13, 4, true]}\n',
    ]
    assert [time for time, line in board_times("".join(lines))
            if isinstance(line, Slot)] == [1.1, 1.2, 1.3, 1.4, 2.1]


def test_writes_to_a_file_and_flushes_each_line(tmp_path):
    path = tmp_path / "record.jsonl"
    with path.open("w", encoding="utf-8") as file:
        recorder = Recorder(file, [Switch(1, 0)])
        recorder.switch_changed(0.5, 1, 0, False)
        # Read while the file is still open: nothing may wait in a buffer.
        assert path.read_text(encoding="utf-8").splitlines() == [
            '{"board": "empty"}', '{"slot": [1, 0, true]}', '{"wait": 0.5}',
            '{"slot": [1, 0, false]}',
        ]


def test_a_pipe_takes_the_recording_though_it_cannot_be_synced():
    reading, writing = os.pipe()
    with os.fdopen(writing, "w", encoding="utf-8") as file:
        Recorder(file, [Switch(1, 0)])
    with os.fdopen(reading, encoding="utf-8") as file:
        assert file.read() == '{"board": "empty"}\n{"slot": [1, 0, true]}\n'


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_line_the_disk_refuses_is_one_line_naming_the_file_and_nothing_is_left_to_fail_at_close():
    with open("/dev/full", "w", encoding="utf-8") as file, \
            pytest.raises(ServiceError, match="^--record: cannot write /dev/full: No space left on device$"):
        Recorder(file)


def test_each_line_is_written_as_soon_as_it_is_known():
    recorder, lines = recording()
    assert len(lines) == 1
    recorder.switch_changed(1.0, 7, 0, True)
    assert len(lines) == 3
    assert all(line.endswith("\n") and line.count("\n") == 1 for line in lines)
    assert all(isinstance(json.loads(line), dict) for line in lines)


switches = st.builds(Switch, st.sampled_from(LOCATIONS[:26]), st.integers(0, 3))
events = st.lists(
    st.tuples(st.integers(100, 5000),  # ms since the previous event: room for its line
              st.one_of(st.tuples(switches, st.booleans()),
                        st.tuples(st.sampled_from(["white.turn", "hint"]), st.booleans()))),
    max_size=30)


@given(st.sets(switches, max_size=8), st.integers(0, 10**7), events)
def test_a_recording_replays_the_same_switches_at_the_same_board_times(initial, start_ms,
                                                                       recorded):
    recorder, lines = recording(initial, start_ms / 1000)
    expected: list[tuple[float, object]] = []
    time_ms = start_ms
    for gap_ms, (what, flag) in recorded:
        time_ms += gap_ms
        if isinstance(what, Switch):
            recorder.switch_changed(time_ms / 1000, what.location, what.slot, flag)
            expected.append((time_ms - start_ms, Slot(what.location, what.slot, flag)))
        else:
            recorder.button(time_ms / 1000, what, long=flag)
            expected.append((time_ms - start_ms, ("hold" if flag else "shortpress", what)))

    timed = board_times("".join(lines))
    header = 1 + len(initial)
    assert timed[0][1] == StartingBoard("empty")
    assert {line for _, line in timed[1:header]} == {Slot(s.location, s.slot, True)
                                                      for s in initial}
    # The script shows the start state once its header lines have happened.
    origin = header * LINE_SECONDS
    replayed = []
    for time, line in timed[header:]:
        described = line if isinstance(line, Slot) else (
            type(line).__name__.lower(), line.button)
        replayed.append((round((time - origin) * 1000), described))
    assert replayed == [(ms, what) for ms, what in expected]
