"""The virtual Pi's multiplexers: CD74HC4067s emulated through gpio-sim's sysfs.

On a real board the select lines S0..S3 choose one channel of every multiplexer, and
each multiplexer's signal line is pulled low by the reed switch on that channel when
it is closed, else held high by its pull-up.  Here the board drives the select lines
of the simulated chip as usual; this process polls their levels (gpio-sim's
``sim_gpioN/value``: the chip has no events for a line another program drives) and,
for the channel they choose, sets each signal line's ``pull``: down where that
multiplexer's switch on the channel is closed, up where it is open.

    mux.py PROFILE     the board profile the board runs with (its pins and switches)

Which switches are closed comes on stdin, one line at a time: the frame as a decimal
integer (bit ``mux * 16 + channel`` set: that switch is closed), as
`bgpi.hardware.frames` numbers them.  It prints ``ready`` once it follows the select
lines, and when stdin closes, one line of figures: its polls, the channel changes it
followed, and its gaps between two polls (a gap is the most it can lag the board).
Only the standard library: it runs on the guest's own python3.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import tomllib
from pathlib import Path

SIM = Path("/sys/kernel/config/gpio-sim/pi")
CHANNELS = 16


def line_file(pin: int, name: str) -> Path:
    """gpio-sim's sysfs file `name` (value, pull) of line `pin`."""
    device = (SIM / "dev_name").read_text().strip()
    chip = (SIM / "bank0" / "chip_name").read_text().strip()
    return Path("/sys/devices/platform") / device / chip / f"sim_gpio{pin}" / name


class Switches:
    """The closed switches, as the latest line on stdin gave them."""

    def __init__(self) -> None:
        self.closed = 0
        self.done = threading.Event()

    def follow(self, lines) -> None:
        for line in lines:
            self.closed = int(line)
        self.done.set()


class Gaps:
    """The gaps between polls, in seconds: how many, the changes of channel, the longest,
    and how many were longer than `limit` (the settle time: a read may have come too soon)."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.polls = self.changes = self.over = 0
        self.total = self.worst = 0.0

    def add(self, gap: float) -> None:
        self.polls += 1
        self.total += gap
        self.worst = max(self.worst, gap)
        self.over += gap > self.limit

    def __str__(self) -> str:
        return (f"{self.polls} polls, {self.changes} channel changes followed, gap mean "
                f"{self.total / max(1, self.polls) * 1e3:.3f} ms, worst {self.worst * 1e3:.1f} ms, "
                f"{self.over} longer than the settle time ({self.limit * 1e3:g} ms)")


def take_a_cpu() -> None:
    """Keep the last CPU for this thread alone, at real-time priority.

    Else the board, waking from its sleep between frames, takes this process's CPU
    (the scheduler favours a task that slept over one that polls) and the first
    channels of every frame read stale levels, the same ones frame after frame, which
    no debouncing hides.  The kernel's real-time throttling still leaves the CPU to
    others 50 ms a second: one frame of the test profile, which debouncing does hide."""
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))


def emulate(profile: dict, switches: Switches) -> Gaps:
    """Follow the select lines until stdin closes (the thread reading it must be started
    first: it must not share this thread's CPU and priority)."""
    take_a_cpu()
    sensors = profile["sensors"]
    select = [os.open(line_file(pin, "value"), os.O_RDONLY) for pin in sensors["select"]]
    pulls = [os.open(line_file(pin, "pull"), os.O_WRONLY) for pin in sensors["signal"]]
    shown: list[bool | None] = [None] * len(pulls)  # the pull each signal line has: True is down
    gaps = Gaps(sensors["settle_us"] / 1e6)
    last_poll, last_channel = time.perf_counter(), None
    print("ready", flush=True)
    while not switches.done.is_set():
        channel = 0
        for line, value in enumerate(select):
            if os.pread(value, 1, 0) == b"1":
                channel |= 1 << line
        gaps.changes += channel != last_channel
        last_channel = channel
        closed = switches.closed
        for mux, pull in enumerate(pulls):
            down = bool(closed >> (mux * CHANNELS + channel) & 1)
            if shown[mux] is not down:
                os.pwrite(pull, b"pull-down" if down else b"pull-up", 0)
                shown[mux] = down
        now = time.perf_counter()
        gaps.add(now - last_poll)
        last_poll = now
    return gaps


def main(profile_path: str) -> None:
    profile = tomllib.loads(Path(profile_path).read_text())
    switches = Switches()
    threading.Thread(target=switches.follow, args=(sys.stdin,), daemon=True).start()
    print(emulate(profile, switches), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
