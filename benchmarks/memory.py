"""Memory over many games on one board, through the board service and its page.

    python benchmarks/memory.py [--games N] [--every K] [--streams S] [--trace] [--hostile SECONDS]

One `bgpi run` board, in this process: the service (`bgpi.shell.service.BoardService`:
the simulated board, the journal, the page served on a free port) with the page's bridge
after every scan, as the live loop calls it.  Hands play N games of money play on it, a
random legal play each roll (seeded), carried checker by checker with ``lift`` and
``place`` as a board script does, a hit blot to the bar, the checkers set up again
between games; board time passes as it does in ``bgpi replay`` (the scans of a wait
are skipped once nothing changes), so that a thousand games take minutes, not days.
With ``--streams S``, S pages (another process) watch the board's event stream all along.

Every K games, after a full garbage collection: the interpreter's allocated blocks (as
`sys.getallocatedblocks` counts them), the objects the collector tracks, the resident
memory of the board's process and of the page's (`bgpi.web.process`) and, with
``--trace``, the Python heap as tracemalloc traces it (from the middle of the run on:
tracing makes a game some 20 times slower).  Printed: a line every K games, the growth
per game over the second half of the run (the first half warms what is made once:
caches, the allocator's arenas), and with ``--trace`` the ten places whose memory grew
most over that half.

With ``--hostile SECONDS``, after the games the board runs live (`run_live`, real time)
while another process throws the issue's load at the page for that long (`hostile`: 20
clients cutting off bodies, flooding actions, starting sessions, opening event streams), then
10 s idle: the same figures before, after the load and after the idle.

Goal (issue 33): the figure flat over 1,000 games (the growth per game within the noise,
well under the 9 KB a game measured before), and the memory the load took given back
once it stops, but for what is bounded (say what).
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import tracemalloc
from pathlib import Path

from hostile import HostileLoad, board_with_page

from bgpi.board.locations import bar, location_of
from bgpi.hardware.profile import load_profile
from bgpi.rules.play import Dice, Play
from bgpi.rules.position import Position, Side
from bgpi.rules.reference import legal_plays
from bgpi.shell.boardfile import position_checkers
from bgpi.shell.hands import TableHands
from bgpi.shell.script import LINE_SECONDS
from bgpi.shell.service import BoardService
from bgpi.table.phases import Phase

WATCHERS = textwrap.dedent("""
    # Another process: S pages reading the board's event stream until stdin closes.
    import sys, threading, urllib.request
    base, streams = sys.argv[1], int(sys.argv[2])
    def watch():
        while True:
            try:
                with urllib.request.urlopen(base + "api/events", timeout=60) as events:
                    while events.readline():
                        pass
            except OSError:
                pass
    for _ in range(streams):
        threading.Thread(target=watch, daemon=True).start()
    sys.stdin.read()
""")

class Hands:
    """A player's hands on the service's simulated board, in board time."""

    def __init__(self, service: BoardService, seed: int) -> None:
        runner = service.runner
        assert runner is not None
        self.runner = runner
        self.hands = TableHands(runner)
        self.rng = random.Random(seed)
        self.played: Play | None = None

    def advance(self, seconds: float = LINE_SECONDS) -> None:
        self.runner.advance(seconds)

    def lift(self, location: str | int) -> None:
        self.hands.lift(location)
        self.advance(LINE_SECONDS / 2)

    def place(self, location: str | int) -> None:
        self.hands.place(location)
        self.advance(LINE_SECONDS / 2)

    def press(self, button: str) -> None:
        self.hands.press(button)
        self.advance()

    def roll(self, button: str, dice: Dice) -> None:
        self.runner.dice.add(dice.first, dice.second)
        self.press(button)

    def play_game(self) -> None:
        """Set up, then play one game to its end (money play, no cube)."""
        games = self.runner.table.session.games
        for _ in range(5_000):
            table = self.runner.table
            phase = table.phase
            if table.session.games > games:
                return
            if phase is Phase.SETUP:
                self.set_up()
            elif phase is Phase.OPENING:
                self.opening()
            elif phase is Phase.ROLL:
                self.roll(f"{table.turn.label}.turn", Dice(self.rng.randint(1, 6), self.rng.randint(1, 6)))
            elif phase is Phase.MOVE:
                self.move()
            elif phase is Phase.CHOOSE:
                self.choose()
            else:
                raise AssertionError(f"the board asks for {phase}")
        raise AssertionError("a game that does not end")

    def set_up(self) -> None:
        wanted = position_checkers(Position.start())
        board = {location: self.hands.board.checkers(location) for location in wanted}
        extra = [loc for loc in wanted for _ in range(board[loc] - wanted[loc])]
        missing = [loc for loc in wanted for _ in range(wanted[loc] - board[loc])]
        for source, destination in zip(extra, missing, strict=True):
            self.lift(source)
            self.place(destination)
        self.opening()

    def opening(self) -> None:
        white, black = self.rng.sample(range(1, 7), 2)
        self.roll(f"{self.rng.choice(list(Side)).label}.turn", Dice(white, black))

    def move(self) -> None:
        table = self.runner.table
        side, dice = table.turn, table.dice
        assert side is not None and dice is not None
        play = self.rng.choice(legal_plays(table.position, side, dice))
        self.played = play
        for step in play.steps:
            source, destination = location_of(side, step.source), location_of(side, step.destination)
            if step.hit:
                self.lift(destination)
                self.place(bar(side.opponent))
            self.lift(source)
            self.place(destination)
        self.press(f"{side.label}.turn")

    def choose(self) -> None:
        table = self.runner.table
        assert table.turn is not None and self.played is not None
        for _ in range(len(table.candidates)):
            if table.candidates[table.choice].position == self.played.position:
                break
            self.press(f"{table.turn.label}.cube")
        self.press(f"{table.turn.label}.turn")


def resident_kb(pid: int | str = "self") -> int:
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def page_kb() -> int:
    """The resident memory of the page's process (`bgpi.web.process`)."""
    return sum(resident_kb(child.pid) for child in multiprocessing.active_children()
               if child.name == "bgpi-page" and child.pid is not None)


def measure() -> dict[str, int]:
    """The figures after a full collection (of everything: the live loop freezes what
    exists when it starts, which the collector then neither collects nor counts)."""
    gc.unfreeze()
    gc.collect()
    figures = {"blocks": sys.getallocatedblocks(), "objects": len(gc.get_objects()), "rss_kb": resident_kb(),
               "page_kb": page_kb()}
    if tracemalloc.is_tracing():
        figures["traced"] = tracemalloc.get_traced_memory()[0]
    return figures


def describe(figures: dict[str, int]) -> str:
    traced = f"heap {figures['traced'] / 1024:8.0f} KB, " if "traced" in figures else ""
    return (f"{traced}{figures['blocks']:8d} blocks, {figures['objects']:7d} objects, "
            f"RSS {figures['rss_kb'] / 1024:6.1f} MB, the page's process {figures['page_kb'] / 1024:6.1f} MB")


def grew(since: tracemalloc.Snapshot) -> None:
    """The ten places whose memory grew most since `since`, each where it was allocated and
    the three calls before."""
    gc.collect()
    for stat in tracemalloc.take_snapshot().compare_to(since, "traceback")[:10]:
        frames = list(stat.traceback)[::-1][:4]  # the allocation first
        print(f"  {stat.size_diff / 1024:+8.1f} KB {stat.count_diff:+6d} blocks  "
              + " <- ".join(f"{frame.filename.rsplit('/', 2)[-1]}:{frame.lineno}" for frame in frames))


def slope(points: list[tuple[int, int]]) -> float:
    """The least-squares growth per game of (game, value) points."""
    count = len(points)
    mean_x = sum(x for x, _ in points) / count
    mean_y = sum(y for _, y in points) / count
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--every", type=int, default=50, help="measure every K games")
    parser.add_argument("--streams", type=int, default=0, help="pages watching the event stream")
    parser.add_argument("--trace", action="store_true", help="tracemalloc: the heap, and where it grew")
    parser.add_argument("--hostile", type=float, default=0.0, metavar="SECONDS",
                        help="then the page under hostile load for SECONDS, and 10 s idle")
    parser.add_argument("--seed", type=int, default=33)
    args = parser.parse_args(argv)
    profile = load_profile()
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as temp:
        state = Path(temp)
        with board_with_page(profile, state, args.seed) as (service, page):
            runner = service.runner
            assert runner is not None
            scan = runner.scan

            def scanned() -> None:  # the bridge after every scan, as the live loop calls it
                scan()
                page.after_scan(runner)

            runner.scan = scanned  # type: ignore[method-assign]
            url = page.url or ""
            watchers = None
            if args.streams:
                watchers = subprocess.Popen([sys.executable, "-c", WATCHERS, url, str(args.streams)],
                                            stdin=subprocess.PIPE, text=True)
                time.sleep(1)
            hands = Hands(service, args.seed)
            points: list[tuple[int, dict[str, int]]] = [(0, measure())]
            first_snapshot = None
            started = time.perf_counter()
            print(f"game {0:5d}: {describe(points[0][1])}")
            for game in range(1, args.games + 1):
                if args.trace and game == args.games // 2 + 1:
                    tracemalloc.start(6)
                    points.append((game - 1, measure()))
                    first_snapshot = tracemalloc.take_snapshot()
                hands.play_game()
                if game % args.every == 0:
                    points.append((game, measure()))
                    print(f"game {game:5d}: {describe(points[-1][1])}  "
                          f"({(time.perf_counter() - started) / game:.2f} s a game)", flush=True)
            half = [(game, figures) for game, figures in points if game >= args.games // 2]
            for key in ("traced", "blocks", "objects", "rss_kb", "page_kb"):
                series = [(game, figures[key] * (1024 if key.endswith("_kb") else 1))
                          for game, figures in half if key in figures]
                if len(series) > 1:
                    per_game = slope(series)
                    name = {"traced": "heap bytes", "blocks": "blocks", "objects": "objects",
                            "rss_kb": "RSS bytes", "page_kb": "bytes of the page's process"}[key]
                    print(f"growth over games {series[0][0]}..{series[-1][0]}: {per_game:+.1f} {name} a game")
            if first_snapshot is not None:
                print(f"where the heap grew most, game {args.games // 2} to the last:")
                grew(first_snapshot)
            if args.hostile:
                hostile_phase(service, url, args.hostile, first_snapshot is not None)
            if watchers is not None:
                watchers.stdin.close()
                watchers.wait(timeout=30)
    return 0


def hostile_phase(service: BoardService, url: str, seconds: float, trace: bool) -> None:
    """The board live under the issue's load, then idle: the figures at each point."""
    load = HostileLoad(url, seconds)  # started ahead: starting a process stalls this one
    before = measure()
    snapshot = tracemalloc.take_snapshot() if trace else None
    print(f"live, before the load: {describe(before)}")
    stop = service.stop
    live = threading.Thread(target=service.run, name="live")
    live.start()
    load.go()
    answers = load.wait()
    after = measure()
    print(f"after {seconds:g} s of load ({sum(answers.values())} requests): {describe(after)}")
    time.sleep(10)
    stop.set()
    live.join(timeout=30)
    idle = measure()
    print(f"after 10 s idle: {describe(idle)}")
    print(f"kept from the load: {(idle['rss_kb'] - before['rss_kb']) / 1024:+.1f} MB RSS, "
          f"the page's process {(idle['page_kb'] - before['page_kb']) / 1024:+.1f} MB, "
          f"{idle['blocks'] - before['blocks']:+d} blocks, {idle['objects'] - before['objects']:+d} objects")
    if snapshot is not None:
        print("where the heap grew most, before the load to after the idle:")
        grew(snapshot)


if __name__ == "__main__":
    sys.exit(main())
