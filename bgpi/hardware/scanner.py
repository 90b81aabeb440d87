"""Reading every reed switch through the multiplexers, on gpiozero pins.

The select lines S0..S3 are shared by all CD74HC4067s; each multiplexer connects the
switch on the selected channel to its own signal line.  A closed switch pulls the line
to ground against its pull-up, so a low line means a checker.  The same code runs on the
Pi's pins and on gpiozero's mock pins (`bgpi.hardware.mockboard`).
"""

from __future__ import annotations

import time
from typing import Self

from gpiozero import DigitalOutputDevice, InputDevice
from gpiozero.pins import Factory

from bgpi.hardware.frames import Frame
from bgpi.hardware.profile import CHANNELS, SensorWiring


def gray_code(lines: int) -> tuple[int, ...]:
    """The 2**lines channels in reflected Gray-code order.

    Consecutive channels differ in one select line, and so do the last and the first:
    scanning in this order costs one select write per channel, frame after frame.
    """
    return tuple(step ^ (step >> 1) for step in range(1 << lines))


class Scanner:
    """Reads raw frames (see `bgpi.hardware.frames`) from the multiplexed switches.

    Each `scan` visits the 16 channels in Gray-code order: per channel it changes one
    select line, waits `settle_us`, and reads every signal line once.  That is the least
    pin traffic a frame can take: 16 writes and 16 reads per multiplexer.

    `pin_factory` is gpiozero's (None: its default, chosen by ``GPIOZERO_PIN_FACTORY``).
    """

    def __init__(self, wiring: SensorWiring, pin_factory: Factory | None = None) -> None:
        self.wiring = wiring
        channels = gray_code(len(wiring.select))
        assert len(channels) == CHANNELS
        self._select: list[DigitalOutputDevice] = []
        self._signal: list[InputDevice] = []
        try:
            # Park the select lines on the last channel of the order, so that the first
            # step of every frame, like every other step, changes exactly one line.
            last = channels[-1]
            for line, pin in enumerate(wiring.select):
                self._select.append(DigitalOutputDevice(
                    pin, initial_value=bool(last >> line & 1), pin_factory=pin_factory))
            for pin in wiring.signal:
                self._signal.append(InputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise
        self._settle = wiring.settle_us / 1e6
        self._steps = []
        previous = last
        for channel in channels:
            line = (previous ^ channel).bit_length() - 1
            reads = tuple((signal, 1 << (mux * CHANNELS + channel))
                          for mux, signal in enumerate(self._signal))
            self._steps.append((self._select[line], bool(channel >> line & 1), reads))
            previous = channel

    def scan(self) -> Frame:
        """Read one frame: bit i set where the switch on frame index i is closed."""
        frame = 0
        settle = self._settle
        clock = time.perf_counter
        for select, level, reads in self._steps:
            select.value = level
            if settle:
                # Busy-wait: a sleep would last tens of microseconds at best on Linux.
                deadline = clock() + settle
                while clock() < deadline:
                    pass
            for signal, bit in reads:
                if signal.value:  # active low: pull_up=True makes a low line read 1
                    frame |= bit
        return frame

    def close(self) -> None:
        """Release every pin (idempotent)."""
        for device in (*self._select, *self._signal):
            device.close()
        self._select.clear()
        self._signal.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
