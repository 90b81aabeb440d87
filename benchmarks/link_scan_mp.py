"""The firmware's scan frame, timed where it runs: under MicroPython (or CPython).

    micropython benchmarks/link_scan_mp.py FIRMWARE_DIR [MUXES] [FRAMES]

Prints one line: ``muxes=M frames=N scan_us=... tick_us=... pin_ops=...``: the time of
`MuxScanner.scan` alone and of a whole `Firmware.tick` (scan, debounce, buttons,
heartbeat) per frame, and the pin operations a frame makes, on the simulated `machine`
(its Pin is Python: slower than the RP2040's C one).  benchmarks/link.py runs it.
"""

# ruff: noqa: UP031  (% formatting, as in the firmware it measures)

import sys

FIRMWARE = sys.argv[1]
MUXES = int(sys.argv[2]) if len(sys.argv) > 2 else 8
FRAMES = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
sys.path.insert(0, FIRMWARE)
sys.path.insert(0, FIRMWARE + "/sim")

import machine
from bgfw.app import Firmware
from bgfw.scan import MuxScanner
from bgfw.wire import encode

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    import time

    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b

SIGNAL = list(range(6, 6 + MUXES))
CONFIG = ("sel=2,3,4,5 sig=%s settle=0 hz=200 deb=2 led=16 n=44 order=GRB btn=17,18,19,20,21 "
          "long=1000 bounce=20" % ",".join(str(pin) for pin in SIGNAL))


def best(work):
    result = None
    for _ in range(3):
        start = ticks_us()
        for _ in range(FRAMES):
            work()
        took = ticks_diff(ticks_us(), start) / FRAMES
        result = took if result is None else min(result, took)
    return result


machine.BOARD.wire((2, 3, 4, 5), SIGNAL)
machine.BOARD.closed = 0x0123456789ABCDEF0123456789ABCDEF
scanner = MuxScanner((2, 3, 4, 5), SIGNAL, 0)
frame = [0] * MUXES
scan_us = best(lambda: scanner.scan(frame))
reads, writes = machine.BOARD.reads, machine.BOARD.writes
scanner.scan(frame)
pin_ops = machine.BOARD.reads - reads + machine.BOARD.writes - writes

sent = []
firmware = Firmware(sent.append, None, 0)
firmware.receive(encode(1, "HELLO", "proto=1") + encode(2, "CONFIG", CONFIG), 0)
clock = [0]


def tick():
    clock[0] += 5
    firmware.tick(clock[0])


tick_us = best(tick)
print("muxes=%d frames=%d scan_us=%.1f tick_us=%.1f pin_ops=%d" % (MUXES, FRAMES, scan_us, tick_us, pin_ops))
