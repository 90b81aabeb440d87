"""Board time in which nothing changes is skipped: an hour of waiting replays in a few
scans, and the table log is the one every frame would have given."""

from __future__ import annotations

from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.shell.hands import TableHands
from bgpi.shell.replay import replay
from bgpi.shell.runner import TableRunner
from bgpi.shell.script import parse_script
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing


def sim() -> TableRunner:
    profile = load_profile()
    table, _ = Table.new(Sensing(profile.geometry))
    runner = TableRunner(table, open_sim_board(profile), seed=0)
    TableHands(runner).set_position(table.position)
    return runner


def replayed(text: str) -> list[ev.Event]:
    """The table log of the board script `text`."""
    events: list[ev.Event] = []
    replay(parse_script(text), load_profile(), events.append, seed=0)
    return events


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
    events: list[ev.Event] = []
    replay(parse_script(text), profile, events.append, seed=0)
    kinds = [event.kind for event in events]
    assert kinds.count("mismatch") == 1 and kinds.count("restored") == 1
    assert kinds.index("mismatch") < kinds.index("restored")


def test_skipping_gives_the_log_of_every_frame(monkeypatch):
    text = ('{"dice": [3, 1]}\n{"press": "white.turn"}\n{"move": [8, 5]}\n{"lift": 6}\n'
            '{"wait": 2}\n{"place": 5}\n{"press": "white.turn"}\n{"press": "black.cube"}\n'
            '{"press": "white.cube"}\n{"wait": 5}\n{"show": "lights"}\n')
    skipped = replayed(text)
    monkeypatch.setattr("bgpi.shell.runner.QUIET_SCANS", 10**9)  # never skip
    every = replayed(text)
    assert skipped == every
    assert any(isinstance(event, ev.DropCancelled) for event in every)


def test_an_idle_frame_feeds_the_core_nothing_and_an_input_finds_its_clock_right():
    runner = sim()
    runner.dice.add(3, 1)
    runner.press("white.turn")
    runner.advance(0.5)
    fed = []
    handle = runner.table.handle
    runner.table.handle = lambda happened: fed.append(happened) or handle(happened)
    for _ in range(200):
        runner.scan()
    assert fed == []  # a second of the player thinking: no Tick, no lights worked out
    runner.press("black.turn")  # handled at the board time of the last scan
    assert [type(happened).__name__ for happened in fed[:2]] == ["Tick", "Press"]
    assert runner.table.now == runner.now


def test_the_ticks_left_out_give_the_log_of_a_tick_every_frame(monkeypatch):
    text = ('{"dice": [3, 1]}\n{"press": "white.turn"}\n{"lift": 12}\n{"wait": 2}\n{"place": 12}\n'
            '{"move": [8, 5]}\n{"lift": 6}\n{"wait": 2}\n{"place": 5}\n{"press": "white.turn"}\n'
            '{"press": "black.cube"}\n{"press": "white.cube"}\n{"wait": 5}\n{"show": "lights"}\n')
    left_out = replayed(text)
    monkeypatch.setattr("bgpi.shell.runner.TableRunner._frames_due", lambda runner: (0.0, 0.0))  # every frame
    every = replayed(text)
    assert left_out == every
    kinds = [event.kind for event in every]
    assert {"mismatch", "restored", "drop_cancelled", "lights"} <= set(kinds)
