"""The live loop against a clock: the watchdog at half of systemd's interval, overruns
reported, board time kept on the clock, STATUS= lines; with a NOTIFY_SOCKET the test
listens on and a clock the test turns."""

from __future__ import annotations

import io
import random
import socket
import threading

import pytest

from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.shell import live
from bgpi.shell.hands import TableHands
from bgpi.shell.runner import TableRunner
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing


class Clock:
    """Time that passes only when the loop sleeps or a frame is made to take long."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def notify_socket(tmp_path, monkeypatch):
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.setblocking(False)
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        monkeypatch.delenv("WATCHDOG_PID", raising=False)
        monkeypatch.delenv("WATCHDOG_USEC", raising=False)
        yield sock


def messages(sock: socket.socket) -> list[str]:
    received = []
    while True:
        try:
            received.append(sock.recv(4096).decode())
        except BlockingIOError:
            return received


def run(frames: int, slow: dict[int, float] | None = None, jitter: random.Random | None = None,
        press: dict[int, str] | None = None, idle_hz: float | None = None,
        lift: dict[int, int] | None = None, queued: dict[int, str] | None = None,
        trace: list[tuple[float, float, int]] | None = None) -> tuple[TableRunner, Clock, str]:
    """Run the live loop for `frames` scans; scan k takes slow[k] periods (0 otherwise,
    or a random share of a period with `jitter`); before scan k, press[k] is pressed
    (straight to the core), the checker on lift[k] lifted, and queued[k] pressed on the
    board's button (queued as gpiozero's callback queues it).  At the full rate
    throughout unless `idle_hz` is given; `trace` gets (clock, board time, events so far)
    after each scan."""
    profile = load_profile()
    table, _ = Table.new(Sensing(profile.geometry), {})
    runner = TableRunner(table, open_sim_board(profile), seed=1)
    hands = TableHands(runner)
    hands.set_position(table.position)
    clock = Clock()
    stop = threading.Event()
    scan = runner.scan
    scans = 0

    def timed_scan() -> None:
        nonlocal scans
        scans += 1
        if press and scans in press:
            runner.press(press[scans])
        if lift and scans in lift:
            hands.lift(lift[scans])
        if queued and scans in queued:
            runner.board.buttons._on_pressed(queued[scans])  # gpiozero's callbacks: down, then up
            runner.board.buttons._on_released(queued[scans])
        scan()
        took = (slow or {}).get(scans, 0.0)
        if jitter is not None:
            took = jitter.uniform(0.2, 1.6)
        if trace is not None:
            trace.append((clock.now, runner.now, runner.emitted))
        clock.now += took * runner.period
        if scans == frames:
            stop.set()

    runner.scan = timed_scan
    log = io.StringIO()
    try:
        live.run_live(runner, stop, clock=clock, sleep=clock.sleep, log=log, idle_hz=idle_hz)
    finally:
        runner.close()
    return runner, clock, log.getvalue()


def test_the_status_line_names_the_idle_rate_too(notify_socket):
    run(50, idle_hz=25)
    assert messages(notify_socket)[:2] == ["READY=1", "STATUS=scanning at 200 Hz (25 Hz while idle); setup"]


def test_the_watchdog_is_pinged_at_half_of_watchdog_usec(notify_socket, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")  # 2 s: a ping every second
    run(590)  # 2.95 s at 200 Hz
    sent = messages(notify_socket)
    assert sent[:2] == ["READY=1", "STATUS=scanning at 200 Hz; setup"]
    assert sent.count("WATCHDOG=1") == 2
    assert sent[-2:] == ["STOPPING=1", "STATUS=stopping"]


@pytest.mark.parametrize("environment", [{}, {"WATCHDOG_USEC": "0"},
                                         {"WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "1"}])
def test_no_pings_when_systemd_expects_none(notify_socket, monkeypatch, environment):
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    run(590)
    assert "WATCHDOG=1" not in messages(notify_socket)


def test_overruns_are_reported_in_the_log_and_the_status(notify_socket, monkeypatch):
    monkeypatch.setattr(live, "REPORT_SECONDS", 1.0)
    runner, _, log = run(400, slow={100: 3.5, 150: 1.2})
    report = "2 frames ran over their 5 ms period, 2 scans skipped, worst frame 17.5 ms"
    assert log.startswith("bgpi run: in the last 1 s: ") and report in log
    assert log.count("\n") == 1  # one report; no overrun after it
    assert f"STATUS=scanning at 200 Hz; setup; {report}" in messages(notify_socket)
    assert runner.frames == 400 + 2  # the 3.5-period frame overran 2 whole slots


def test_board_time_stays_on_the_clock_however_long_frames_take():
    runner, clock, _ = run(2000, jitter=random.Random(5))
    # The loop scans the slot it is in: board time is never a period behind the clock.
    assert clock.now - runner.period <= runner.now <= clock.now + runner.period


def test_the_status_follows_the_game(notify_socket):
    run(600, press={300: "white.turn"})
    statuses = [text for text in messages(notify_socket) if text.startswith("STATUS=")]
    assert statuses[0] == "STATUS=scanning at 200 Hz; setup"
    assert "STATUS=scanning at 200 Hz; move, black on turn" in statuses  # after the opening roll


def test_the_dice_tumble_while_the_switches_are_scanned():
    profile = load_profile()
    table, _ = Table.new(Sensing(profile.geometry), {})
    runner = TableRunner(table, open_sim_board(profile), seed=1)
    hands = TableHands(runner)
    runner.board.animates_dice = True  # as on the real board's LEDs
    dice = {index for die in ("die:1", "die:2") for index in profile.leds.targets[die]}
    try:
        hands.set_position(table.position)
        runner.dice.add(6, 5)
        runner.advance(0.1)
        runner.press("white.turn")
        shown = []
        for _ in range(120):  # 0.6 s, one scan per period, none skipped or waited for
            runner.scan()
            pixels = runner.board.leds.pixels.shown
            shown.append(frozenset(i for i in dice if pixels[i] != (0, 0, 0)))
        faces = [pips for index, pips in enumerate(shown) if index == 0 or pips != shown[index - 1]]
        assert len(faces) == 8  # seven tumbling faces, then the roll, one every 60 ms
        final = {profile.leds.targets["die:1"][p] for p in (0, 1, 2, 4, 5, 6)} | \
            {profile.leds.targets["die:2"][p] for p in (0, 1, 3, 5, 6)}
        assert shown[-1] == final
    finally:
        runner.close()


def gaps(trace: list[tuple[float, float, int]], period: float) -> list[int]:
    """The scan slots from each scan in `trace` to the next."""
    return [round((b[1] - a[1]) / period) for a, b in zip(trace, trace[1:], strict=False)]


def test_an_idle_board_is_scanned_at_the_idle_rate_with_board_time_on_the_clock():
    trace: list[tuple[float, float, int]] = []
    runner, clock, _ = run(400, idle_hz=25, trace=trace)
    after = round(live.IDLE_AFTER_S / runner.period)  # 200 frames: 1 s without a change
    steps = gaps(trace, runner.period)
    assert set(steps[:after - 1]) == {1} and steps[after - 1:after + 11] == [8] * 12  # 200 Hz / 25 Hz
    assert max(steps) == 8
    assert all(abs(time - board) < 1e-9 for time, board, _ in trace)  # board time on the clock
    # The prompt blinks every 0.5 s: each edge is still scanned, at its own board time.
    scanned = {round(board, 6) for _, board, _ in trace}
    assert all(round(edge * 0.5, 6) in scanned for edge in range(1, int(runner.now / 0.5)))


def test_a_checker_lifted_while_idle_brings_back_the_full_rate_at_once():
    trace: list[tuple[float, float, int]] = []
    runner, _, _ = run(500, idle_hz=25, lift={300: 13}, trace=trace)
    hands = TableHands(runner)
    steps = gaps(trace, runner.period)
    assert steps[298] == 8  # scan 300 came at an idle slot: the lift is first seen there
    assert set(steps[299:]) == {1}  # from then on every slot is scanned (debouncing, play)
    assert hands.board.checkers(13) == 4 and runner.switches.settled  # lifted, and debounced
    assert all(abs(time - board) < 1e-9 for time, board, _ in trace)


def test_a_press_while_idle_is_handled_at_the_next_scan():
    trace: list[tuple[float, float, int]] = []
    runner, _, _ = run(400, idle_hz=25, queued={300: "white.turn"}, trace=trace)
    steps = gaps(trace, runner.period)
    assert steps[298] == 8  # idle until the press
    assert trace[299][2] > trace[298][2]  # the opening roll, at the scan after the press
    assert runner.table.state_event().turn is not None
    assert set(steps[299:]) == {1}
    assert all(abs(time - board) < 1e-9 for time, board, _ in trace)


def test_the_watchdog_is_pinged_in_time_while_idle(notify_socket, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")  # 2 s: a ping every second
    pinged: list[float] = []
    clock_of: list[Clock] = []
    monkeypatch.setattr(live.sdnotify, "watchdog", lambda: pinged.append(clock_of[0]()))
    real_run_live = live.run_live

    def run_live(*args, clock, **kwargs):
        clock_of.append(clock)
        real_run_live(*args, clock=clock, **kwargs)

    monkeypatch.setattr(live, "run_live", run_live)
    runner, clock, _ = run(335, idle_hz=25)  # 1 s at 200 Hz, then idle (25 Hz and the blink edges)
    assert 5 < clock.now < 6
    # Every second, at the first scan from then on: one idle slot (40 ms) late at most.
    assert [round(t, 2) for t in pinged] == [1.0, 2.0, 3.0, 4.0, 5.0]
