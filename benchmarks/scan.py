"""Scanner speed on gpiozero mock pins: pin operations and software time per frame.

The mock pins count every select write and signal read the scanner makes; the minimum
for a frame is one select write per channel (Gray-code order) plus one read per signal
line per channel.  Time is what the software adds: settle time is zero here.
"""

from __future__ import annotations

import dataclasses
import time

from bgpi.hardware.mockboard import SimulatedBoard
from bgpi.hardware.profile import CHANNELS, load_profile
from bgpi.hardware.scanner import Scanner

FRAMES = 2000


def main() -> None:
    profile = load_profile()
    board = SimulatedBoard(profile)
    wiring = dataclasses.replace(profile.sensors, settle_us=0.0)
    board.place(6, 5)
    board.place(13, 7)
    board.place("bar:white", 2)
    with Scanner(wiring, pin_factory=board.factory) as scanner:
        scanner.scan()  # warm up
        board.pin_writes = board.pin_reads = 0
        start = time.perf_counter()
        for _ in range(FRAMES):
            scanner.scan()
        elapsed = time.perf_counter() - start
    operations = (board.pin_writes + board.pin_reads) / FRAMES
    minimum = CHANNELS + len(wiring.signal) * CHANNELS
    print(f"{FRAMES} frames: {board.pin_writes / FRAMES:g} select writes and "
          f"{board.pin_reads / FRAMES:g} signal reads per frame")
    print(f"scan: {operations:g} pin operations per frame (minimum {minimum}), "
          f"{elapsed / FRAMES * 1e6:.0f} us per frame")


if __name__ == "__main__":
    main()
