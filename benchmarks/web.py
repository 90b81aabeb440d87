"""The page beside the scan loop: how late scan frames start, without and with the page.

    python benchmarks/web.py [--seconds S] [--streams N]

`bgpi run` scans the board at the profile's rate (200 Hz: a frame every 5 ms) in its
main thread (`bgpi.shell.live.run_live`); the page's server (aiohttp) runs on a thread
of its own and the scan loop only hands it a fresh view when something changed
(`bgpi.web.bridge`).  Python threads share one interpreter lock, so the server could
still delay a frame.  This runs the live loop on the simulated board, in this process,
for S seconds in each of three runs, one after another, and measures when each frame
really starts against the loop's schedule:

1. *no page*: the scan loop alone (the reference);
2. *page idle*: the server running, no one connected;
3. *page streaming*: N event streams open (phones watching) and a player in another
   process dragging checkers through ``POST /api/actions`` as fast as the board answers
   (each line takes 0.1 s of board time), plus ``GET /api/state`` ten times a second.

For each kind, the median and the worst of its rounds: lateness p50 / p99 / p99.9 / max
in ms and how many frames started later than one period (a whole frame late); and the
time the scan loop itself spends in the bridge after each scan (`Bridge.after_scan`:
carrying out the page's hands, building and handing over a view), p99 and max in
microseconds, the worst round's.  While the page is served its server shortens the
interpreter's switch interval to 0.5 ms (`bgpi.web.server.SWITCH_INTERVAL`).  Goal (issue 13): the page adds no
frame later than one period and keeps p99 within 1 ms of the reference, here; on a Pi
Zero 2 W (about 15x slower) the margin is what matters.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from tempfile import TemporaryDirectory

from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.shell.hands import TableHands
from bgpi.shell.journal import Journal
from bgpi.shell.live import run_live
from bgpi.shell.runner import TableRunner
from bgpi.shell.sinks import FunctionSink
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing
from bgpi.web.bridge import Bridge
from bgpi.web.server import WebServer

PLAYER = textwrap.dedent("""
    # Another process: N event streams read to the end, a player moving checkers, a poller.
    import json, sys, threading, time, urllib.request
    base, streams, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    sys.stdin.readline()  # started before the scan loop: go when it runs
    end = time.monotonic() + seconds - 1  # and stop before it does
    counts = {"messages": 0, "actions": 0, "polls": 0}
    def stream():
        with urllib.request.urlopen(base + "api/events", timeout=seconds + 10) as events:
            while time.monotonic() < end:
                if events.readline().startswith(b"data: "):
                    counts["messages"] += 1
    def act(lines):
        body = "\\n".join(map(json.dumps, lines)).encode()
        urllib.request.urlopen(urllib.request.Request(base + "api/actions", data=body), timeout=30).read()
        counts["actions"] += len(lines)
    def player():
        while time.monotonic() < end:  # the setup phase: every hand relights the board
            act([{"lift": 13}])
            act([{"place": 13}])
    def poller():
        while time.monotonic() < end:
            urllib.request.urlopen(base + "api/state", timeout=30).read()
            counts["polls"] += 1
            time.sleep(0.1)
    threads = [threading.Thread(target=stream, daemon=True) for _ in range(streams)]
    threads += [threading.Thread(target=player), threading.Thread(target=poller)]
    for thread in threads:
        thread.start()
    for thread in threads[streams:]:
        thread.join()
    print(json.dumps(counts))
""")


WARM_UP = 0.5
"""Seconds at the start of each run left out of the figures."""


def lateness_run(seconds: float, page: str, streams: int) -> tuple[list[float], dict]:
    """Scan live for `seconds`; the lateness of every frame in seconds, and the client's counts."""
    profile = load_profile()
    with TemporaryDirectory() as state:
        journal = Journal.open(Path(state))
        bridge = Bridge()

        def emit(event: ev.Event) -> None:
            journal.append(event)
            bridge.hear(event)

        table, opening = Table.new(Sensing(profile.geometry), {})
        runner = TableRunner(table, open_sim_board(profile), seed=1, sinks=[FunctionSink(emit)])
        TableHands(runner).set_position(table.position)
        for event in opening:
            emit(event)
        server = None
        if page != "none":
            server = WebServer(bridge, profile.geometry, port=0, state_dir=Path(state))
            server.start()
        starts: list[tuple[int, float]] = []
        bridge_time: list[float] = []
        stop = threading.Event()

        def after_scan(runner) -> None:
            start = time.perf_counter()
            starts.append((runner.frames, start))
            bridge.after_scan(runner)
            bridge_time.append(time.perf_counter() - start)

        loop = threading.Thread(target=run_live, args=(runner, stop), kwargs={"after_scan": after_scan})
        client = None
        if page == "streaming":  # started first: starting a process would stall this one
            client = subprocess.Popen([sys.executable, "-c", PLAYER, server.url, str(streams), str(seconds)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            time.sleep(1)
        loop.start()
        if client is not None:
            client.stdin.write("go\n")
            client.stdin.flush()
        time.sleep(seconds)
        stop.set()
        loop.join()
        counts = json.loads(client.communicate(timeout=60)[0]) if client is not None else {}
        if server is not None:
            server.stop()
        runner.close()
        journal.close()
    period = runner.period
    # The loop keeps an absolute schedule: frame k is due k periods after frame 0's due
    # time, which is when the earliest frame (relative to its slot) started.
    # Frames the loop skipped to keep board time on the clock count in runner.frames.
    offsets = [start - frame * period for frame, start in starts]
    due = min(offsets)
    warm = round(WARM_UP / period)  # the first frames load code: not the page's doing
    counts["bridge p99 us"] = round(sorted(bridge_time)[int(0.99 * len(bridge_time))] * 1e6)
    counts["bridge max us"] = round(max(bridge_time) * 1e6)
    return [offset - due for offset in offsets[warm:]], counts


def figures(late: list[float], period: float) -> dict[str, float]:
    """p50, p99, p99.9 and max lateness in ms, and the frames a whole period late."""
    ms = sorted(x * 1000 for x in late)

    def at(share: float) -> float:
        return ms[min(len(ms) - 1, int(share * len(ms)))]

    return {"p50": statistics.median(ms), "p99": at(0.99), "p99.9": at(0.999), "max": ms[-1],
            "late": sum(x > period * 1000 for x in ms)}


def report(name: str, rounds: list[dict[str, float]], counts: dict) -> None:
    """The median round and the worst round of one kind: one stall of the machine (another
    program taking the cores) spoils a round, not the comparison."""
    for label, pick in (("median", statistics.median_low), ("worst", max)):
        shown = {key: pick(round_[key] for round_ in rounds) for key in rounds[0]}
        print(f"{name:15} {label:6}  p50 {shown['p50']:6.3f}  p99 {shown['p99']:7.3f}  "
              f"p99.9 {shown['p99.9']:7.3f}  max {shown['max']:7.3f} ms  late > 1 frame: {shown['late']:.0f}")
    print(f"{'':15} {', '.join(f'{key} {value}' for key, value in counts.items())}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each run (default 5)")
    parser.add_argument("--streams", type=int, default=3, help="event streams open while streaming (default 3)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="runs of each kind, taken in turn so that the machine's other load "
                             "falls on all of them alike (default 5)")
    parser.add_argument("--switch-interval", type=float, default=None, metavar="S",
                        help="the interpreter's thread switch interval with no page (the server sets its own)")
    parser.add_argument("--only", choices=("none", "idle", "streaming"), help="run one kind only")
    args = parser.parse_args()
    if args.switch_interval is not None:
        sys.setswitchinterval(args.switch_interval)
    period = 1 / load_profile().sensors.scan_hz
    print(f"scan period {period * 1000:.1f} ms; {args.rounds} rounds of {args.seconds:g} s per kind, "
          f"the first {WARM_UP} s of each left out; frame lateness against the schedule, per round:")
    kinds = tuple((name, page) for name, page in (("no page", "none"), ("page idle", "idle"),
                                                  ("page streaming", "streaming"))
                  if args.only in (None, page))
    rounds: dict[str, list[dict[str, float]]] = {name: [] for name, _ in kinds}
    counts: dict[str, dict] = {name: {} for name, _ in kinds}
    for _ in range(args.rounds):
        for name, page in kinds:
            frames, client = lateness_run(args.seconds, page, args.streams)
            rounds[name].append(figures(frames, period))
            for key, value in client.items():
                merge = max if key.startswith("bridge") else int.__add__
                counts[name][key] = merge(counts[name].get(key, 0), value)
    for name, _ in kinds:
        report(name, rounds[name], counts[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
