"""The live board: `bgpi run` scanning in real time, on the Pi or on the simulated board.

The loop paces scans by the clock (the profile's scan rate), feeds the core
through a `TableRunner`, journals every event before it is shown, tells systemd
it is alive and what it is doing, and, on the simulated board at a terminal, takes
hands from the keyboard (`bgpi.shell.console`) and draws the board with its lights
after each move.

Board time (`TableRunner.now`, frames x period) stays on the clock: a frame that
runs over its period is counted, and the slots it overran are skipped rather than
scanned back to back, so the board never lags the clock by more than a period.
Overruns are reported in the log and the status line once a minute at most.

An idle board is scanned slower: once nothing has changed for `IDLE_AFTER_S` (the
switches read as debounced, no event, no dice tumbling: `TableRunner.quiet_until`), the
loop scans only every `IDLE_HZ`-th of a second (every 8th slot at 200 Hz) and lets the
slots between pass unscanned (`TableRunner.skip`, board time on the clock as when the
loop falls behind), never past the core's next deadline or the next change of the
lights, so the table log's timed events come at the same board time.  The first frame
that differs (a checker lifted), a button press that does anything, or an event
brings back the full rate at once.  So a lifted checker or a press is seen at most one
idle slot (40 ms at 25 Hz) later than at the full rate; the buttons are edge-driven
(their presses wait in a queue), so none is lost.  A co-processor's board is always
scanned at the full rate: it sends its frames at its own pace.

The garbage collector runs between frames, never inside one (`collect_due`).
"""

from __future__ import annotations

import gc
import math
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from bgpi.shell import sdnotify
from bgpi.shell.console import HELP, Console, console_turn
from bgpi.shell.runner import TableRunner

REPORT_SECONDS = 60.0
"""Overruns are reported at most this often."""
STATUS_SECONDS = 1.0
"""How often the status line is brought up to date (when it changed)."""
IDLE_HZ = 25.0
"""The scan rate of an idle board: a lifted checker is first seen at most 1/IDLE_HZ s late."""
IDLE_AFTER_S = 1.0
"""How long nothing must change before the board is idle: a move's lift and placement,
a second apart at most, are both seen at the full rate."""


@dataclass
class Overruns:
    """Frames that took longer than their period, since the last report."""

    period: float
    """The scan period, in seconds."""
    frames: int = 0
    """Frames that ran over their period."""
    skipped: int = 0
    """Scan slots left out because a frame ran over."""
    worst: float = 0.0
    """The longest frame, in seconds."""

    def add(self, took: float) -> None:
        """Count a frame that took `took` seconds."""
        self.worst = max(self.worst, took)
        if took > self.period:
            self.frames += 1

    def __bool__(self) -> bool:
        return bool(self.frames or self.skipped)

    def __str__(self) -> str:
        return (f"{self.frames} frames ran over their {self.period * 1000:g} ms period, "
                f"{self.skipped} scans skipped, worst frame {self.worst * 1000:.1f} ms")


@dataclass
class IdlePace:
    """How many scan slots to the next scan: one, or `stride` while the board is idle."""

    stride: int
    """Slots per scan while idle (1: always the full rate)."""
    after: int
    """Frames without a change before the board is idle."""
    quiet_since: int = 0
    """The board time (frames) of the last scan at which something changed."""

    @classmethod
    def for_runner(cls, runner: TableRunner, idle_hz: float | None) -> IdlePace:
        """At `idle_hz` while idle (None: the full rate throughout)."""
        stride = 1 if idle_hz is None else max(1, round(1 / (runner.period * idle_hz)))
        return cls(stride, round(IDLE_AFTER_S / runner.period), runner.frames)

    def slots(self, runner: TableRunner, emitted: int) -> int:
        """The slots from the scan just made to the next one; `emitted`: the runner's
        events before it (any new one, as a press's, keeps the full rate)."""
        until = runner.quiet_until
        if until is None or runner.emitted != emitted:
            self.quiet_since = runner.frames
            return 1
        if runner.frames - self.quiet_since < self.after:
            return 1
        # The first frame at or past `until` is scanned: there time alone changes something.
        return max(1, math.ceil(min(self.stride, until - runner.frames) - 1e-9))


def status_line(runner: TableRunner, stride: int = 1) -> str:
    """What `systemctl status` shows: the board's rate (and its idle rate: every `stride`th
    slot) and where the game stands."""
    table = runner.table
    turn = f", {table.turn.label} on turn" if table.turn is not None else ""
    idle = f" ({1 / (runner.period * stride):g} Hz while idle)" if stride > 1 else ""
    return f"scanning at {1 / runner.period:g} Hz{idle}; {table.phase.json}{turn}"


def collect_due() -> None:
    """Run the collection the garbage collector would have run by now on its own (by its
    thresholds; the oldest generation due, as it does).

    The live loop turns automatic collection off and calls this after each frame, in time
    it would sleep: a collection never lands inside a frame, such as the roll's, which
    builds thousands of objects (the play tree, its tracker) that all live until the next
    roll; collecting in the middle of that only delays the lights."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    for generation in (2, 1, 0):
        if counts[generation] > thresholds[generation]:
            gc.collect(generation)
            return


def run_live(
    runner: TableRunner,
    stop: threading.Event,
    console: Console | None = None,
    after_scan: Callable[[TableRunner], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    log: TextIO | None = None,
    idle_hz: float | None = IDLE_HZ,
) -> None:
    """Scan at the profile's rate until `stop` is set (or the console quits), at
    `idle_hz` while the board is idle (`IdlePace`; None: the full rate throughout).

    `after_scan` is called after every scan, on this thread (the web page's bridge);
    it must return at once.  Pings systemd's watchdog at half its interval
    (``$WATCHDOG_USEC``), keeps ``STATUS=`` up to date and writes overrun reports to
    `log` (stderr).  Garbage is collected between frames (`collect_due`).
    """
    log = log or sys.stderr
    # Everything loaded so far lives as long as the board: keeping it out of the
    # collector's reach keeps its pauses short (a full collection of it costs
    # milliseconds here, and some 15 times more on a Pi Zero 2 W).
    gc.freeze()
    period = runner.period
    watchdog = sdnotify.watchdog_interval()
    started = clock() - runner.frames * period  # board time 0 was that long ago
    last_watchdog = last_status_check = last_report = clock()
    overruns = Overruns(period)
    pace = IdlePace.for_runner(runner, idle_hz)
    slots = 1
    shown_status = status_line(runner, pace.stride)
    sdnotify.ready()
    sdnotify.status(shown_status)
    if console is not None:
        print(HELP, file=console.out)
        console.draw(runner.table)
    gc.disable()
    try:
        while not stop.is_set():
            now = clock()
            due = started + (runner.frames + slots) * period
            if now < due:
                sleep(due - now)
            elif (behind := int((now - due) / period)) > 0:
                runner.skip(behind)
                overruns.skipped += behind
            runner.skip(slots - 1)  # idle: the slots slept through pass unscanned
            emitted = runner.emitted
            begun = clock()
            runner.scan()
            if runner.paused:  # the co-processor is away: board time stands still until it is back
                started += period
            if after_scan is not None:
                after_scan(runner)
            if console is not None and not console_turn(runner, console):
                break
            if console is not None and console.redraw_at is not None and runner.frames >= console.redraw_at:
                console.redraw_at = None
                console.draw(runner.table)
            slots = pace.slots(runner, emitted)
            now = clock()
            overruns.add(now - begun)
            if watchdog is not None and now - last_watchdog >= watchdog:
                sdnotify.watchdog()
                last_watchdog = now
            if now - last_report >= REPORT_SECONDS and overruns:
                print(f"bgpi run: in the last {now - last_report:.0f} s: {overruns}", file=log, flush=True)
                sdnotify.status(f"{status_line(runner, pace.stride)}; {overruns}")
                overruns = Overruns(period)
                last_report = now
            elif now - last_status_check >= STATUS_SECONDS:
                last_status_check = now
                if (line := status_line(runner, pace.stride)) != shown_status:
                    sdnotify.status(line)
                    shown_status = line
            collect_due()
    finally:
        gc.enable()
    sdnotify.stopping()
    sdnotify.status("stopping")
