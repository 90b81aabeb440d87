"""Board time in which nothing changes is skipped: an hour of waiting replays in a few
scans, and the table log is the one every frame would have given."""

from __future__ import annotations

from bgpi.hardware.profile import load_profile
from bgpi.shell.replay import replay
from bgpi.shell.script import parse_script
from bgpi.shell.simtable import SimulatedTable
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing


def sim() -> SimulatedTable:
    profile = load_profile()
    table, _ = Table.new(Sensing(profile.geometry))
    runner = SimulatedTable(profile, table, lambda event: None, seed=0)
    runner.set_position(table.position)
    return runner


def test_an_hour_of_quiet_costs_a_few_scans():
    runner = sim()
    runner.advance(3600)
    assert runner.now >= 3600
    assert runner.scans < 100


def test_a_deadline_inside_a_long_wait_still_fires_on_time():
    # A black checker knocked off point 12 on white's turn, in a long wait: the mismatch comes after the
    # grace period, exactly as when every frame is scanned.
    text = '{"dice": [3, 1]}\n{"press": "white.turn"}\n{"lift": 12}\n{"wait": 3600}\n{"place": 12}\n'
    profile = load_profile()
    events: list[dict] = []
    replay(parse_script(text), profile, events.append, seed=0)
    kinds = [event["event"] for event in events]
    assert kinds.count("mismatch") == 1 and kinds.count("restored") == 1
    assert kinds.index("mismatch") < kinds.index("restored")


def test_skipping_gives_the_log_of_every_frame(monkeypatch):
    text = ('{"dice": [3, 1]}\n{"press": "white.turn"}\n{"move": [8, 5]}\n{"lift": 6}\n'
            '{"wait": 2}\n{"place": 5}\n{"press": "white.turn"}\n{"press": "black.cube"}\n'
            '{"press": "white.cube"}\n{"wait": 5}\n{"show": "lights"}\n')
    profile = load_profile()
    skipped: list[dict] = []
    replay(parse_script(text), profile, skipped.append, seed=0)
    monkeypatch.setattr("bgpi.shell.simtable.QUIET_SCANS", 10**9)  # never skip
    every: list[dict] = []
    replay(parse_script(text), profile, every.append, seed=0)
    assert skipped == every
    assert any(event["event"] == "drop_cancelled" for event in every)
