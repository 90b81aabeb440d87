"""The multiplexed reed switches: scanning in Gray-code order, and debouncing by frames.

A frame is a list with one int per multiplexer: bit c set while the switch on channel c
is closed (it pulls the signal line low against its pull-up).  Lists of small ints keep
a scan free of heap allocation on the RP2040.
"""

# ruff: noqa: UP031  (% formatting: MicroPython formats bytes only so; one style for the firmware)

from machine import Pin

try:
    from time import sleep_us
except ImportError:  # CPython: the simulated board needs no settle time
    sleep_us = None

CHANNELS = 16


def gray_code(lines):
    """The 2**lines channels in reflected Gray-code order: one select line changes per step."""
    return [step ^ (step >> 1) for step in range(1 << lines)]


class MuxScanner:
    """Reads frames through CD74HC4067s: shared `select` pins (S0..S3), one `signal` pin each."""

    def __init__(self, select, signal, settle_us):
        order = gray_code(len(select))
        last = order[-1]
        # Parked on the last channel, so the first step of every frame changes one line.
        self.select = [Pin(pin, Pin.OUT, value=last >> line & 1) for line, pin in enumerate(select)]
        self.signal = [Pin(pin, Pin.IN, Pin.PULL_UP) for pin in signal]
        self.settle = settle_us if sleep_us is not None else 0
        self.steps = []
        previous = last
        for channel in order:
            line = len(bin(previous ^ channel)) - 3  # the one select line that changes
            self.steps.append((self.select[line], channel >> line & 1, 1 << channel))
            previous = channel

    def scan(self, frame):
        """Fill `frame` (a list, one int per multiplexer) with the switches read now."""
        signal = self.signal
        muxes = range(len(signal))
        for mux in muxes:
            frame[mux] = 0
        settle = self.settle
        for select, level, bit in self.steps:
            select.value(level)
            if settle:
                sleep_us(settle)
            for mux in muxes:
                if not signal[mux].value():  # a closed switch pulls the line low
                    frame[mux] |= bit


class Debouncer:
    """Accepts a switch's change once it read the same in `frames` consecutive frames.

    The same rule as the host's `bgpi.hardware.debounce.Debouncer`, per multiplexer.
    """

    def __init__(self, muxes, frames):
        self.frames = frames
        self.recent = [[0] * muxes for _ in range(frames)]
        self.stable = [0] * muxes
        self.seen = 0

    def update(self, frame):
        """Add the newest raw frame; return True if the accepted state changed."""
        slot = self.recent[self.seen % self.frames]
        for mux in range(len(frame)):
            slot[mux] = frame[mux]
        self.seen += 1
        changed = False
        stable = self.stable
        if self.seen == 1:  # the first frame is accepted as it is
            for mux in range(len(frame)):
                stable[mux] = frame[mux]
            return True
        if self.seen < self.frames:
            return False
        for mux in range(len(frame)):
            closed = 0xFFFF
            opened = 0xFFFF
            for recent in self.recent:
                closed &= recent[mux]
                opened &= ~recent[mux]
            value = (stable[mux] | closed) & ~opened & 0xFFFF
            if value != stable[mux]:
                stable[mux] = value
                changed = True
        return changed


def frame_hex(frame):
    """A frame as the protocol writes it: 4 hex digits a multiplexer, the last one first."""
    return "".join("%04x" % frame[mux] for mux in range(len(frame) - 1, -1, -1))
