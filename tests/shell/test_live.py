"""The live board: the console's hands, `bgpi run` as a service, `bgpi replay` errors."""

from __future__ import annotations

import gc
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from bgpi.cli import main
from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.rules.position import Side
from bgpi.shell.console import Console, Quit, parse_hand
from bgpi.shell.hands import TableHands
from bgpi.shell.journal import read_journal
from bgpi.shell.live import collect_due, run_live
from bgpi.shell.runner import TableRunner
from bgpi.shell.script import Hold, Lift, Move, Place, SetDice, ShortPress, Show, Wait
from bgpi.shell.sinks import FunctionSink
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing


@pytest.mark.parametrize(
    "text, hand",
    [
        ("m 8 5", Move(8, 5)),
        ("m bar:white 22", Move("bar:white", 22)),
        ("l 13", Lift(13)),
        ("u off:white", Place("off:white")),
        ("p wt", ShortPress("white.turn")),
        ("h bc", Hold("black.cube")),
        ("p hint", ShortPress("hint")),
        ("d 6 5", SetDice(6, 5)),
        ("w 1.5", Wait(1.5)),
        ("s", Show("state")),
        ('{"move": [13, 7]}', Move(13, 7)),
        ("q", Quit()),
    ],
)
def test_console_lines_are_hands(text, hand):
    assert parse_hand(text) == hand


@pytest.mark.parametrize("text, message", [
    ("m 8", r"type \? for help"),
    ("m 8 26", "unknown location"),
    ("p white.roll", "unknown button"),
    ("d 7 1", "1 to 6"),
    ('{"move": [8]}', "line 1"),
])
def test_bad_console_lines_say_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        parse_hand(text)


def test_the_live_loop_plays_typed_hands_at_the_pace_of_a_clock():
    profile = load_profile()
    table, opening = Table.new(Sensing(profile.geometry), {})
    events = list(opening)
    runner = TableRunner(table, open_sim_board(profile), seed=1, sinks=[FunctionSink(events.append)])
    hands = TableHands(runner)
    hands.set_position(table.position)
    typed = io.StringIO("d 3 1\np wt\nm 8 5\nm 6 5\np wt\n")
    out = io.StringIO()
    console = Console(typed, out)
    time.sleep(0.2)  # let the reader thread take the lines
    ticks = iter(range(10**6))
    try:
        run_live(runner, threading.Event(), console, clock=lambda: next(ticks) * runner.period, sleep=lambda s: None)
    finally:
        runner.close()
    kinds = [event.kind for event in events]
    assert kinds[:3] == ["session", "start", "opening"]
    last = events[-1]
    assert isinstance(last, ev.Play) and (last.player, last.dice, last.move) == (Side.WHITE, (3, 1), "8/5 6/5")
    assert "13 14 15" in out.getvalue()  # the board was drawn


def test_bgpi_run_as_a_service_journals_and_stops_on_sigterm(tmp_path):
    command = [sys.executable, "-m", "bgpi", "run", "--board", "sim", "--state", str(tmp_path), "--seed", "2",
               "--no-page"]
    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
                          env=os.environ | {"NOTIFY_SOCKET": ""}) as service:
        first = service.stdout.readline()
        service.send_signal(signal.SIGTERM)
        service.wait(timeout=20)
    assert service.returncode == 0
    assert json.loads(first) == {"event": "session", "config": {}}
    assert isinstance(read_journal(tmp_path).events[0], ev.NewSession)
    # A second run resumes the session.
    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True) as service:
        again = service.stdout.readline()
        service.send_signal(signal.SIGTERM)
        service.wait(timeout=20)
    assert json.loads(again)["event"] == "resumed"


def test_bgpi_run_refuses_a_bad_position_in_one_line(capsys, tmp_path):
    status = main(["run", "--board", "sim", "--state", str(tmp_path), "--position", "nonsense"])
    assert status == 2 and "position ID" in capsys.readouterr().err


def test_bgpi_replay_refuses_a_bad_script_listing_every_problem(capsys, tmp_path):
    script = tmp_path / "bad.jsonl"
    script.write_text('{"press": "white.roll"}\nnot json\n{"dice": [7, 1]}\n')
    status = main(["replay", str(script)])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    assert "line 1" in err and "line 2" in err and "line 3" in err


def test_a_recorded_session_replays_to_the_same_plays(tmp_path):
    from bgpi.board.locations import location_of
    from bgpi.hardware.frames import closed_switches
    from bgpi.rules import legal_plays
    from bgpi.rules.play import Dice
    from bgpi.shell.recorder import Recorder
    from bgpi.shell.replay import replay
    from bgpi.shell.script import load_script

    profile = load_profile()
    table, opening = Table.new(Sensing(profile.geometry), {})
    played: list[ev.Event] = list(opening)
    runner = TableRunner(table, open_sim_board(profile), seed=7, sinks=[FunctionSink(played.append)])
    hands = TableHands(runner)
    hands.set_position(table.position)
    runner.advance(0.1)
    recording = tmp_path / "recorded.jsonl"
    with recording.open("w") as file:
        runner.recorder = Recorder(file, closed_switches(runner.switches.debouncer.stable, profile.sensors), runner.now)
        runner.press("white.turn")  # the opening roll, from the seeded dice
        runner.advance(0.3)
        opened = next(event for event in played if isinstance(event, ev.Opening))
        mover = opened.starts
        runner.press(f"{mover.label}.turn")  # commit at once: refused, nothing moved
        runner.advance(2.0)
        play = legal_plays(table.position, mover, Dice(opened.white, opened.black))[0]
        for step in play.steps:
            hands.lift(location_of(mover, step.source))
            runner.advance(0.05)
            hands.place(location_of(mover, step.destination))
            runner.advance(0.05)
        runner.press(f"{mover.label}.turn")
        runner.advance(0.1)
    runner.close()
    replayed: list[ev.Event] = []
    replay(load_script(recording, profile.geometry), profile, replayed.append)
    def kinds(events: list[ev.Event]) -> list[ev.Event]:
        return [e for e in events if isinstance(e, ev.Opening | ev.Rejected | ev.Play)]

    assert kinds(replayed) == kinds(played)
    assert isinstance(kinds(played)[-1], ev.Play)


def test_blinking_lights_are_redrawn_at_each_blink_edge():
    profile = load_profile()
    table, _ = Table.new(Sensing(profile.geometry), {})
    runner = TableRunner(table, open_sim_board(profile), seed=3)
    hands = TableHands(runner)
    try:
        hands.set_position(table.position)
        runner.dice.add(3, 1)
        runner.advance(0.1)
        runner.press("white.turn")
        runner.advance(0.1)
        hands.lift(8)  # the source blinks (1 s period)
        runner.advance(0.1)
        frames = []
        for _ in range(4):
            runner.advance(0.25)
            frames.append(tuple(runner.board.leds.pixels.shown))
        assert len(set(frames)) == 2  # on, off: the source's LED blinks
    finally:
        runner.close()


def test_garbage_is_collected_between_frames_never_inside_one():
    profile = load_profile()
    table, _ = Table.new(Sensing(profile.geometry), {})
    runner = TableRunner(table, open_sim_board(profile), seed=1)
    hands = TableHands(runner)
    hands.set_position(table.position)
    stop = threading.Event()
    collecting: list[bool] = []
    scan = runner.scan

    def scan_and_litter() -> None:
        collecting.append(gc.isenabled())
        scan()
        for _ in range(gc.get_threshold()[0] + 1):  # cycles only a collection frees
            litter: list = []
            litter.append(litter)
        if len(collecting) == 3:
            stop.set()

    runner.scan = scan_and_litter
    ticks = iter(range(10**6))
    try:
        run_live(runner, stop, clock=lambda: next(ticks) * runner.period, sleep=lambda s: None)
    finally:
        runner.close()
    assert collecting == [False] * 3  # no automatic collection during a frame
    assert gc.isenabled()  # back on after the loop
    assert gc.get_count()[0] < gc.get_threshold()[0]  # the last frame's litter collected after it


def test_collect_due_collects_the_oldest_generation_due():
    gc.disable()
    try:
        gc.collect()
        for _ in range(gc.get_threshold()[0] + 1):
            litter: list = []
            litter.append(litter)
        collect_due()
        assert gc.get_count()[:2] == (0, 1)  # the young generation, once
    finally:
        gc.enable()
