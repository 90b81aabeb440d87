"""Reading every reed switch through the multiplexers.

The select lines S0..S3 are shared by all CD74HC4067s; each multiplexer connects the
switch on the selected channel to its own signal line.  A closed switch pulls the line
to ground against its pull-up, so a low line means a checker.  The pins are reached
through `bgpi.hardware.lines`: lgpio groups on the Pi, gpiozero devices on any other
factory, including the mock pins of `bgpi.hardware.mockboard`; this code is the same
on all of them.
"""

from __future__ import annotations

import time
from typing import Self

from gpiozero.pins import Factory

from bgpi.board.profile import CHANNELS, SensorWiring
from bgpi.hardware.frames import Frame
from bgpi.hardware.lines import MuxLines, open_mux_lines

LONG_SETTLE_S = 500e-6
"""A settle time from which the scanner sleeps instead of busy-waiting: a sleep's
overshoot on Linux (tens of microseconds) is small beside it, and the CPU is free."""


def gray_code(lines: int) -> tuple[int, ...]:
    """The 2**lines channels in reflected Gray-code order.

    Consecutive channels differ in one select line, and so do the last and the first:
    scanning in this order costs one select write per channel, frame after frame.
    """
    return tuple(step ^ (step >> 1) for step in range(1 << lines))


def spread(closed: int) -> int:
    """Multiplexer bits (bit m: mux m reads closed) moved to frame indices m * 16."""
    frame = 0
    mux = 0
    while closed:
        if closed & 1:
            frame |= 1 << (mux * CHANNELS)
        closed >>= 1
        mux += 1
    return frame


class Scanner:
    """Reads raw frames (see `bgpi.hardware.frames`) from the multiplexed switches.

    Each `scan` visits the 16 channels in Gray-code order: per channel it changes one
    select line, waits `settle_us` (busy, or asleep from `LONG_SETTLE_S` on), and reads
    every signal line once.  That is the least
    pin traffic a frame can take; on lgpio groups it is 32 calls (16 writes, 16 reads).

    `pin_factory` is gpiozero's (None: its default, chosen by ``GPIOZERO_PIN_FACTORY``).
    """

    def __init__(self, wiring: SensorWiring, pin_factory: Factory | None = None) -> None:
        self.wiring = wiring
        channels = gray_code(len(wiring.select))
        assert len(channels) == CHANNELS
        # Park the select lines on the last channel of the order, so that the first
        # step of every frame, like every other step, changes exactly one line.
        last = channels[-1]
        self.lines: MuxLines = open_mux_lines(wiring.select, wiring.signal, last, pin_factory)
        self._settle = wiring.settle_us / 1e6
        self._steps = []
        previous = last
        for channel in channels:
            line = (previous ^ channel).bit_length() - 1
            self._steps.append((line, bool(channel >> line & 1), channel))
            previous = channel
        # Frame bits of each pattern of closed multiplexers seen so far (few: mostly 0).
        self._spread: dict[int, int] = {0: 0}

    def scan(self) -> Frame:
        """Read one frame: bit i set where the switch on frame index i is closed."""
        frame = 0
        settle = self._settle
        clock = time.perf_counter
        sleep = time.sleep if settle >= LONG_SETTLE_S else None
        set_select = self.lines.set_select
        read_closed = self.lines.read_closed
        spread_of = self._spread
        for line, level, channel in self._steps:
            set_select(line, level)
            if sleep is not None:
                sleep(settle)
            elif settle:
                # Busy-wait: a sleep would last tens of microseconds at best on Linux.
                deadline = clock() + settle
                while clock() < deadline:
                    pass
            closed = read_closed()
            if closed:
                wide = spread_of.get(closed)
                if wide is None:
                    wide = spread_of[closed] = spread(closed)
                frame |= wide << channel
        return frame

    def close(self) -> None:
        """Release every pin (idempotent)."""
        self.lines.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
