"""The scan loop with its page quiet and under hostile load, on one board in one run.

    python benchmarks/scanload.py [--seconds S] [--clients N] [--state DIR]

One `bgpi run --board sim` board, in this process: the service (`BoardService`: the
simulated board, its journal, the page on a free port) scanned live by `run_live` with
the page's bridge after every scan, as `bgpi run` does, but at the full rate throughout
(no idle pace: the quiet board scans as often as the busy one, and a skipped scan is
always one the loop fell behind on).  After 2 s of warming up, S seconds quiet (nobody
on the page), then S seconds under issue 33's load from another process
(`hostile.HostileLoad`: N clients cutting off bodies, flooding /api/actions, starting
new sessions, opening event streams).

For each half: the frames scanned, the frame time (from the scan's start to the end of
the bridge, as the board's own overrun report counts it) p50 / p99 / max, the frames
that started a whole period late, and the scans skipped (slots the loop left out
because a frame or the machine ran late); then how the page answered the load, and
the worst frame and p99 on a Pi Zero 2 W, taken as 15 times slower than this machine.

Goal (issue 33): under the load, the worst frame within 2 scan periods and no scan
skipped, here.  The figures are the machine's as much as the board's: run it on a
machine with no other work for them to mean the board alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from hostile import HostileLoad

from bgpi.hardware.profile import load_profile
from bgpi.shell.live import run_live
from bgpi.shell.service import BoardService, ServiceSettings, SessionSetup
from bgpi.web.page import BoardPage, PageSettings

PI_ZERO_FACTOR = 15
"""How much slower a Pi Zero 2 W runs this Python than this machine (benchmarks/scan.py)."""
WARM_UP = 2.0
"""Seconds scanned before the quiet half (code loaded, caches made): left out."""


def _schedstat() -> tuple[int, int]:
    """This thread's time on a CPU and waiting for one, in ns, as Linux counts them."""
    try:
        with open("/proc/thread-self/schedstat") as stat:
            running, waiting, _ = stat.read().split()
    except OSError:
        return 0, 0
    return int(running), int(waiting)


@dataclass
class Half:
    """The frames of one half of the run."""

    name: str
    frames: list[tuple[float, float, float, bool]] = field(default_factory=list)
    """Each frame's time, and of it the time on a CPU and waiting for one, in seconds; and
    whether it emitted an event (journaled, synced to the disk, in the frame)."""
    skipped: int = 0
    """Scan slots left out because the loop fell behind."""

    def at(self, share: float) -> float:
        times = sorted(frame for frame, *_ in self.frames)
        return times[min(len(times) - 1, int(share * len(times)))]

    def report(self) -> str:
        ms = sorted(frame * 1000 for frame, *_ in self.frames)
        slowest = sorted(self.frames, reverse=True)[: max(1, len(ms) // 100)]
        took = sum(frame for frame, *_ in slowest)
        running = sum(run for _, run, *_ in slowest) / took
        waiting = sum(wait for _, _, wait, _ in slowest) / took
        journaled = [frame for frame, _, _, emitted in self.frames if emitted]
        others = [frame for frame, _, _, emitted in self.frames if not emitted]
        return (f"{self.name:>6}: {len(ms):6d} frames, frame p50 {statistics.median(ms):6.3f}  "
                f"p99 {self.at(0.99) * 1000:6.3f}  max {ms[-1]:7.3f} ms, scans skipped {self.skipped}; "
                f"the slowest 1% of frames ran {running:.0%} of their time, waited for a CPU {waiting:.0%}, "
                f"for anything else (the interpreter lock, the disk) {1 - running - waiting:.0%}; "
                f"{len(journaled)} frames emitted events (journaled in the frame), the slowest "
                f"{max(journaled, default=0) * 1000:.3f} ms; the slowest of the others {max(others) * 1000:.3f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each half (default 30)")
    parser.add_argument("--clients", type=int, default=20, help="hostile clients under load (default 20)")
    parser.add_argument("--state", type=Path, default=None, metavar="DIR",
                        help="the board's state directory (default: a new one in the temporary directory)")
    parser.add_argument("--seed", type=int, default=33)
    args = parser.parse_args(argv)
    profile = load_profile()
    period = 1 / profile.sensors.scan_hz
    with tempfile.TemporaryDirectory(dir=args.state) as temp:
        state = Path(temp)
        settings = ServiceSettings("sim", profile, state, SessionSetup({}), seed=args.seed)
        page = BoardPage(PageSettings(port=0), profile.geometry, state)
        stop = threading.Event()
        with open(os.devnull, "w") as out, BoardService(settings, stop, page, out=out) as service:
            runner = service.runner
            assert runner is not None and page.url is not None
            load = HostileLoad(page.url, args.seconds, args.clients)  # started ahead
            warming, quiet, loaded = Half("warm"), Half("quiet"), Half("loaded")
            now = [warming]
            scan, skip = runner.scan, runner.skip
            begun = [(0, 0, 0.0, 0)]

            def timed_scan() -> None:
                running, waiting = _schedstat()
                begun[0] = (running, waiting, time.perf_counter(), runner.emitted)
                scan()

            def bridge(ran: object) -> None:
                page.after_scan(runner)
                took = time.perf_counter() - begun[0][2]
                running, waiting = _schedstat()
                now[0].frames.append((took, (running - begun[0][0]) / 1e9, (waiting - begun[0][1]) / 1e9,
                                      runner.emitted != begun[0][3]))

            def counted_skip(slots: int) -> None:
                now[0].skipped += slots  # at the full rate, only the slots the loop fell behind on
                skip(slots)

            runner.scan = timed_scan  # type: ignore[method-assign]
            runner.skip = counted_skip  # type: ignore[method-assign]
            live = threading.Thread(target=run_live, args=(runner, stop),
                                    kwargs={"after_scan": bridge, "idle_hz": None}, name="live")
            live.start()
            time.sleep(WARM_UP)
            now[0] = quiet
            time.sleep(args.seconds)
            now[0] = loaded
            load.go()
            answers = load.wait()
            stop.set()
            live.join(timeout=30)
    print(f"scan period {period * 1000:g} ms; {args.seconds:g} s quiet, then {args.seconds:g} s under "
          f"{args.clients} hostile clients, on the simulated board at the full rate; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for half in (quiet, loaded):
        print(half.report())
    print(f"the page answered {sum(answers.values())} requests: "
          + ", ".join(f"{kind} x{count}" for kind, count in answers.items()))
    for half in (quiet, loaded):
        p99, worst = half.at(0.99) * PI_ZERO_FACTOR, half.at(1.0) * PI_ZERO_FACTOR
        print(f"on a Pi Zero 2 W ({PI_ZERO_FACTOR}x slower), {half.name}: frame p99 {p99 * 1000:.1f} ms, "
              f"worst {worst * 1000:.1f} ms ({worst / period:.1f} periods)")
    met = loaded.at(1.0) <= 2 * period and loaded.skipped == 0
    print(f"goal: under the load, the worst frame within 2 periods ({2 * period * 1000:g} ms) and no scan "
          f"skipped, here: {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
