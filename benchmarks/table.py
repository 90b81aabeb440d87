"""The table on the simulated board: a long session of random legal games played by hand.

    python benchmarks/table.py [--games N] [--seed S] [--gap SCANS] [--no-freeze] [--positions N]

Every game starts from the starting position with a press of a turn button and the
opening roll; every turn is a random legal play (`legal_plays`) performed the way
hands do it: each step is a lift, a few scans of the board, a placement, a few scans
(a hit also takes the blot to the bar, at random before or after the hitting checker
lands); then the mover's *turn* commits the play and the other player's *turn* rolls.
After the last checker is off the checkers are put back and the next game starts.
The board is scanned through the real scanner and debouncer at 200 Hz of board time,
as `bgpi replay` does (`bgpi.shell.runner.TableRunner`, `bgpi.shell.hands.TableHands`).

0. The roll: what the table builds when the dice land, the play tree and its tracker
   (`Tracker(PlayTree(...))`), for every position and roll of a self-play corpus
   (`--positions`, seed `--seed`); the 20 slowest and the 20 largest are timed
   again, best of 5 (in rounds over them), and the slowest is printed as `roll:
   slowest play tree and tracker T ms (best of 5)`.  Built as the service builds
   them: the heap frozen, no garbage collection inside a frame
   (`bgpi.shell.live.collect_due`), and the last roll's tree freed at its commit.
   Goal (issue 14): at most 8 ms here, about 120 ms on a Pi Zero 2 W, under the
   dice animation.
   The idle frame: what a scan in which nothing happens (the player thinking) costs
   beyond reading the switches, and what a `Tick` fed to the core would add to it.
   Goal (issue 14): the scan alone; the runner feeds Ticks only from the frame at
   which time alone may change something (`TableRunner._frames_due`).
1. The core's time per sensor event: the wall time of `Table.handle(Sensed(...))`
   alone (p50, p99, max).  Goals (issue 14): p99 at most 100 us and max at most
   0.5 ms of CPU time here (a Pi Zero 2 W is about 15x slower).  Like the service
   (`bgpi.shell.live.run_live`), the run calls `gc.freeze()` once everything is
   loaded (`--no-freeze` shows the difference), turns automatic collection off and
   collects between frames (`collect_due`), so that no collection lands in an event;
   the share of any that do is shown.
2. The board time from a checker settling (a lift or a placement on the simulated
   board) to the lights changing (`Table.lighting()`, which the LEDs show), in scans
   of 5 ms.  Goal: within 2 scans, the debounce.  A hand action the switches cannot
   see (a point holding more checkers than switches, an unsensed tray) is not
   timed.  A visible one after which the lights stay as they were is counted apart:
   *accepted with nothing to light* (a step or undo logged, e.g. a bear-off read as
   done on the lift when the trays are not sensed), *undecided* (several partial
   plays explain the board: the table keeps what it knew and lights nothing new
   until the board or the commit decides), or *unexplained*: none of these, a bug;
   the first few are written out as board scripts for `bgpi replay`.

Every play must be committed as played: a `rejected` or `mismatch` event, a play the
table did not log, or a logged play that is not the one performed fails the run (exit
status 1), and the failing game is written out as a board script for `bgpi replay`.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from operator import itemgetter
from pathlib import Path
from typing import TypeVar

from timing import best_of

from bgpi.board.locations import Location, bar, location_of
from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.rules import legal_plays
from bgpi.rules.ids import position_id
from bgpi.rules.play import Dice, Play
from bgpi.rules.playtree import PlayTree
from bgpi.rules.position import Position, Side
from bgpi.rules.selfplay import corpus
from bgpi.shell.hands import TableHands
from bgpi.shell.live import collect_due
from bgpi.shell.runner import TableRunner
from bgpi.shell.sinks import FunctionSink
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Sensed, Tick
from bgpi.table.tracker import Sensing, Tracker

WAIT_LIMIT = 20
"""Scans (0.1 s of board time) to wait for the lights after a visible change before giving up."""

EXAMPLES = 3
"""Failed games and unexplained dark hand actions written out as board scripts."""

KINDS = ("lift", "place", "blot lift", "blot place")

Built = TypeVar("Built")


class Failure(Exception):
    """The table did not follow a legal game played on the board."""


class BenchTable:
    """A table on the simulated board (a runner and its hands) that times the core's
    sensor events and notes when the lights change."""

    def __init__(self, profile, table: Table, emit, seed: int) -> None:
        self.runner = TableRunner(table, open_sim_board(profile), seed=seed, sinks=[FunctionSink(emit)])
        self.hands = TableHands(self.runner)
        self.timings: list[int] = []  # ns per Table.handle(Sensed)
        self.computing: list[int] = []  # the same, less the garbage collector's pauses in them
        self.cpu: list[int] = []  # ns of this thread's CPU time per Table.handle(Sensed)
        self.slowest: list[tuple[int, int, str]] = []  # (ns, ns of it collecting garbage, what)
        self.collecting = 0  # ns spent in the garbage collector so far
        self.doing = ""
        self.lights_frame = 0
        self._shown = None  # the lighting last seen on show
        self.script: list[dict] = []  # the game so far, as a board script
        handle = table.handle
        clock, cpu_clock = time.perf_counter_ns, time.thread_time_ns
        collection = [0]

        def timed(happened):
            if type(happened) is not Sensed:
                return handle(happened)
            collected = self.collecting
            started, cpu_started = clock(), cpu_clock()
            events = handle(happened)
            elapsed = clock() - started
            self.cpu.append(cpu_clock() - cpu_started)
            self.timings.append(elapsed)
            self.computing.append(elapsed - (self.collecting - collected))
            if elapsed > 1_000_000:
                self.slowest.append((elapsed, self.collecting - collected, self.doing))
            return events

        def collector(phase: str, info: dict) -> None:
            if phase == "start":
                collection[0] = clock()
            else:
                self.collecting += clock() - collection[0]

        table.handle = timed  # the shim: only the sensor events are timed
        self.collector = collector
        gc.callbacks.append(collector)

    @property
    def table(self) -> Table:
        return self.runner.table

    @property
    def frames(self) -> int:
        return self.runner.frames

    @property
    def period(self) -> float:
        return self.runner.period

    @property
    def dice(self):
        return self.runner.dice

    def set_position(self, position: Position) -> None:
        self.hands.set_position(position)

    def close(self) -> None:
        gc.callbacks.remove(self.collector)
        self.runner.close()

    def _note_lights(self) -> None:
        """The frame at which the lights on show last changed."""
        if self.runner.lighting is not self._shown:
            self._shown = self.runner.lighting
            self.lights_frame = self.runner.frames

    def scan(self) -> None:
        self.runner.scan()
        self._note_lights()
        collect_due()  # between frames, as the live loop does

    def scan_frames(self, count: int) -> None:
        for _ in range(count):
            self.scan()

    def hand(self, verb: str, location: Location, gap: int) -> int | None:
        """Lift or place one checker and scan at least `gap` frames; the scans until the
        lights changed (-1: not within WAIT_LIMIT), None when the switches cannot see it."""
        self.script.append({verb: location})
        before = self.sensed()
        (self.hands.lift if verb == "lift" else self.hands.place)(location)
        if self.sensed() == before:
            self.scan_frames(gap)
            return None
        settled = self.frames
        for scanned in range(1, max(gap, WAIT_LIMIT) + 1):
            self.scan()
            if scanned >= gap and self.lights_frame > settled:
                break
        return self.lights_frame - settled if self.lights_frame > settled else -1

    def push(self, button: str, gap: int) -> None:
        self.script.append({"press": button})
        self.runner.press(button)
        self._note_lights()
        self.scan_frames(gap)

    def sensed(self):
        """What the switches read of the checkers on the board now (before debouncing)."""
        sensing = self.table.sensing
        return sensing.counts({location: self.hands.board.checkers(location) for location in sensing.locations})


class Session:
    """One table on the simulated board, and the games played on it."""

    def __init__(self, seed: int, gap: int) -> None:
        profile = load_profile()
        self.gap = gap
        self.events: list[ev.Event] = []
        table, opening = Table.new(Sensing(profile.geometry))
        self.events.extend(opening)
        self.sim = BenchTable(profile, table, self.events.append, seed)
        self.lags: dict[str, list[int]] = {kind: [] for kind in KINDS}
        self.quiet: dict[str, int] = dict.fromkeys(KINDS, 0)
        self.dark: list[tuple[str, str, list[dict]]] = []  # (kind, what was done, script)
        self.undecided_dark: dict[str, int] = dict.fromkeys(KINDS, 0)
        self.unseen = 0
        self.turns = self.plays = self.hits = self.ambiguous = 0
        self.since = 0

    def close(self) -> None:
        self.sim.close()

    def game(self, number: int, rng: random.Random) -> dict:
        """Play one game of random legal plays; its game_over event."""
        sim, gap = self.sim, self.gap
        sim.script = [{"board": "start"}]
        self.events.clear()  # keep the heap to what the table itself holds
        sim.set_position(Position.start())
        sim.scan_frames(gap)
        while True:
            white, black = rng.randint(1, 6), rng.randint(1, 6)
            if white != black:
                break
        side = Side.WHITE if white > black else Side.BLACK
        dice = Dice(white, black)
        position = Position.start()
        sim.doing = f"game {number}, the opening roll"
        self.expect(self.roll(rng.choice(("white.turn", "black.turn")), dice), ev.Opening, starts=side)
        while True:
            play = rng.choice(legal_plays(position, side, dice))
            sim.doing = (f"game {number}, {side.label} to play {dice.first}{dice.second} "
                         f"in {position_id(position, side)}")
            self.perform(play, rng)
            self.commit(play, side)
            position = play.position
            if position.winner() is not None:
                return self.expect(self.events[self.since:], ev.GameOver, winner=side)
            side = side.opponent
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            self.expect(self.roll(f"{side.label}.turn", dice), ev.Roll, player=side)

    def roll(self, button: str, dice: Dice) -> list[ev.Event]:
        """Press `button` with `dice` next on the electronic dice; the events it caused."""
        self.sim.script.append({"dice": [dice.first, dice.second]})
        self.sim.dice.add(dice.first, dice.second)
        start = len(self.events)
        self.sim.push(button, self.gap)
        self.check(self.events[start:])
        return self.events[start:]

    def perform(self, play: Play, rng: random.Random) -> None:
        side, start = play.side, len(self.events)
        for step in play.steps:
            source, destination = location_of(side, step.source), location_of(side, step.destination)
            blot_first = step.hit and rng.random() < 0.5
            if blot_first:
                self.hand("blot lift", "lift", destination)
                self.hand("blot place", "place", bar(side.opponent))
            self.hand("lift", "lift", source)
            self.hand("place", "place", destination)
            if step.hit and not blot_first:
                self.hand("blot lift", "lift", destination)
                self.hand("blot place", "place", bar(side.opponent))
            self.hits += step.hit
        self.check(self.events[start:])

    def hand(self, kind: str, verb: str, location: Location) -> None:
        start = len(self.events)
        lag = self.sim.hand(verb, location, self.gap)
        if lag is None:
            self.unseen += 1
        elif lag >= 0:
            self.lags[kind].append(lag)
        elif any(isinstance(event, ev.Step | ev.Undo) for event in self.events[start:]):
            self.quiet[kind] += 1
        elif self.undecided():
            self.undecided_dark[kind] += 1
        else:
            self.dark.append((kind, f"{self.sim.doing}: {verb} {location}", [*self.sim.script, {"show": "lights"}]))

    def undecided(self) -> bool:
        """True when different partial plays explain the board (the switches cannot tell
        colours, nor count past a full point): the table keeps what it knew, and lights
        nothing new until the board or the commit decides."""
        table = self.sim.table
        tracker, tree = table.tracker, table.tree
        readings = [r for r in tracker.explain(table.seen) if tracker.plausible(r) and tree.is_acceptable(r.node)]
        return len({reading.node for reading in readings}) > 1

    def commit(self, play: Play, side: Side) -> None:
        sim = self.sim
        self.since = start = len(self.events)
        sim.push(f"{side.label}.turn", self.gap)
        if sim.table.phase == "choose":  # the switches cannot tell: pick the play made, as a player would
            self.ambiguous += 1
            for _ in range(len(sim.table.candidates)):
                if sim.table.candidates[sim.table.choice].position == play.position:
                    break
                sim.push(f"{side.label}.cube", self.gap)
            sim.push(f"{side.label}.turn", self.gap)
        self.turns += 1
        events = self.events[start:]
        self.check(events)
        made = [event for event in events if isinstance(event, ev.Play)]
        if len(made) != 1:
            raise Failure(f"{sim.doing}: played {describe(play)}, the table logged {len(made)} plays: {events}")
        wanted = position_id(play.position, side.opponent)
        if made[0].position_id != wanted or made[0].player is not side:
            raise Failure(f"{sim.doing}: played {describe(play)} (giving {wanted}), the table logged {made[0]}")
        self.plays += 1

    def check(self, events: list[ev.Event]) -> None:
        for event in events:
            if isinstance(event, ev.Rejected | ev.Mismatch):
                raise Failure(f"{self.sim.doing}: {event}")

    def expect(self, events: list[ev.Event], kind: type[ev.Event], **fields) -> ev.Event:
        for event in events:
            if isinstance(event, kind) and all(getattr(event, key) == value for key, value in fields.items()):
                return event
        raise Failure(f"{self.sim.doing}: expected a {kind.kind} event {fields}, got {events}")


def describe(play: Play) -> str:
    """The play in absolute locations, as the board sees it."""
    side = play.side
    return " ".join(
        f"{location_of(side, s.source)}/{location_of(side, s.destination)}{'*' if s.hit else ''}" for s in play.steps
    ) or "(no play)"


def write_script(folder: Path, name: str, lines: list[dict]) -> Path:
    path = folder / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def percentile(ordered: list, fraction: float):
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def build(make: Callable[[], Built]) -> tuple[float, Built]:
    """(seconds `make()` takes, what it made), as the service builds a roll: the garbage
    of what came before collected first (`collect_due`, between frames); freeing what
    it made is left to the caller, out of the time (the table lets go of a roll's tree
    and tracker at the commit, not at the next roll)."""
    collect_due()
    started = time.perf_counter()
    made = make()
    return time.perf_counter() - started, made


def roll(positions: int, seed: int) -> None:
    """The slowest play tree and tracker of a self-play corpus, built as the service
    builds them: the heap frozen, no garbage collection inside the build (`build`)."""
    sensing = Sensing(load_profile().geometry)

    def built(case: tuple[Position, Side, Dice]) -> Tracker:
        return Tracker(PlayTree(*case), sensing)

    def first(case: tuple[Position, Side, Dice]) -> tuple[float, int, tuple[Position, Side, Dice]]:
        seconds, tracker = build(partial(built, case))
        return seconds, len(tracker.tree.nodes()), case

    once = [first(case) for case in corpus(positions, seed=seed)]
    # The slowest once, and the largest trees: a burst of load from elsewhere on the
    # machine may slow any case once, and hide the slowest among the rest.
    slowest = list(dict.fromkeys(case for by in (0, 1) for *_, case in sorted(once, key=itemgetter(by))[-20:]))
    # Five rounds over them, each case once a round: a burst spoils a round, not the
    # five runs of one case.
    rounds = [[build(partial(built, case))[0] for case in slowest] for _ in range(5)]
    fastest_rounds = map(min, zip(*rounds, strict=True))
    seconds, (position, side, dice) = max(zip(fastest_rounds, slowest, strict=True), key=itemgetter(0))
    tree = PlayTree(position, side, dice)
    alone = min(build(lambda: PlayTree(position, side, dice))[0] for _ in range(5))
    tracker = min(build(lambda: Tracker(tree, sensing))[0] for _ in range(5))
    print(f"roll: slowest play tree and tracker {seconds * 1e3:.1f} ms (best of 5)")
    print(
        f"  {side.label} to play {dice} in {position_id(position, side)}: {len(tree.nodes())} partial plays; "
        f"tree {alone * 1e3:.1f} ms, tracker {tracker * 1e3:.1f} ms (goal: the two at most 8 ms)"
    )


IDLE_FRAMES = 2000


def idle(seed: int) -> None:
    """The cost of a frame in which nothing happens: the opening roll made, the player
    thinking.  The switches' read itself (the scanner's pins) is left out: each frame
    reads the same raw frame, so what is timed is all the loop adds to the read."""
    profile = load_profile()
    table, _ = Table.new(Sensing(profile.geometry))
    sim = TableRunner(table, open_sim_board(profile), seed=seed)
    TableHands(sim).set_position(Position.start())
    sim.advance(0.1)
    sim.dice.add(3, 1)
    sim.press("white.turn")
    sim.advance(0.5)
    frame = sim.board.scanner.scan()
    sim.board.scanner.scan = lambda: frame

    def frames(work) -> float:
        return best_of(5, lambda: [work() for _ in range(IDLE_FRAMES)]) / IDLE_FRAMES * 1e6

    loop = frames(sim.scan)
    scan = frames(lambda: (sim.switches.debouncer.update(frame), sim.board.buttons.next_press(timeout=0)))
    tick = frames(lambda: sim.feed(Tick(sim.now)))
    sim.close()
    print(f"idle frame: {loop:.1f} us beyond the switches' read, of which {scan:.1f} us debouncing "
          f"and polling the buttons (goal: the scan alone); a Tick fed to the core with its "
          f"lights checked would add {tick:.1f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games in the session")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and the dice")
    parser.add_argument("--gap", type=int, default=4, help="scans (5 ms each) after each hand action")
    parser.add_argument("--no-freeze", dest="freeze", action="store_false",
                        help="leave out the gc.freeze() the service makes before it starts")
    parser.add_argument("--positions", type=int, default=20000, help="size of the corpus the roll is timed on")
    args = parser.parse_args()
    if args.games < 1 or args.gap < 1 or args.positions < 1:
        parser.error("--games, --gap and --positions must be at least 1")
    if args.freeze:
        gc.collect()
        gc.freeze()  # what is loaded by now stays: full collections skip it
    gc.disable()  # collected between frames instead, as the live loop does
    roll(args.positions, args.seed)
    idle(args.seed)
    rng = random.Random(args.seed)
    folder: Path | None = None
    started = time.perf_counter()
    sessions = [Session(args.seed, args.gap)]
    failures: list[str] = []
    for number in range(1, args.games + 1):
        session = sessions[-1]
        try:
            session.game(number, rng)
        except Failure as failure:
            folder = folder or Path(tempfile.mkdtemp(prefix="bgpi-bench-table-"))
            failures.append(f"game {number}: {failure}")
            if len(failures) <= EXAMPLES:
                path = write_script(folder, f"failed-game{number}.jsonl", session.sim.script)
                failures[-1] += f"\n  replay: bgpi replay {path}"
            # The table and the driver no longer agree: go on with a new session.
            session.close()
            sessions.append(Session(args.seed + number, args.gap))
    sessions[-1].close()
    elapsed = time.perf_counter() - started

    timings = sorted(t for s in sessions for t in s.sim.timings)
    slowest = sorted((x for s in sessions for x in s.sim.slowest), reverse=True)
    turns, plays = sum(s.turns for s in sessions), sum(s.plays for s in sessions)
    frames, period = sum(s.sim.frames for s in sessions), sessions[0].sim.period
    print(
        f"session: {args.games - len(failures)} of {args.games} games (seed {args.seed}"
        f"{', gc frozen' if args.freeze else ''}), {turns} turns, "
        f"{plays} plays committed, {sum(s.hits for s in sessions)} hits, "
        f"{sum(s.ambiguous for s in sessions)} ambiguous commits resolved with the buttons; "
        f"{frames} scans ({frames * period / 60:.0f} min of board time) in {elapsed:.0f} s"
    )
    p50, p99, worst = percentile(timings, 0.5), percentile(timings, 0.99), timings[-1]
    computing = max(t for s in sessions for t in s.sim.computing)
    cpu = sorted(t for s in sessions for t in s.sim.cpu)
    print(
        f"core: {len(timings)} sensor events, Table.handle(Sensed) p50 {p50 / 1e3:.0f} us, "
        f"p99 {p99 / 1e3:.0f} us, max {worst / 1e6:.2f} ms of wall time; "
        f"max {computing / 1e6:.2f} ms without the garbage collector's pauses; CPU time p50 "
        f"{percentile(cpu, 0.5) / 1e3:.0f} us, p99 {percentile(cpu, 0.99) / 1e3:.0f} us, max {cpu[-1] / 1e6:.2f} ms "
        "(goals: p99 100 us, max 0.5 ms)"
    )
    for elapsed_ns, collecting, doing in slowest[:3]:
        garbage = f", {collecting / 1e6:.2f} ms of it collecting garbage" if collecting else ""
        print(f"  over 1 ms: {elapsed_ns / 1e6:.2f} ms ({doing}{garbage})")
    lit: list[int] = []
    dark = [d for s in sessions for d in s.dark]
    for kind in KINDS:
        lags = [lag for s in sessions for lag in s.lags[kind]]
        quiet = sum(s.quiet[kind] for s in sessions)
        darks = sum(1 for d in dark if d[0] == kind)
        undecided = sum(s.undecided_dark[kind] for s in sessions)
        lit += lags
        if lags:
            print(
                f"lights after a {kind}: {len(lags)} changes, median {statistics.median(lags):g} scans, "
                f"max {max(lags)} scans ({max(lags) * period * 1e3:.0f} ms); "
                f"unchanged: {quiet} accepted with nothing to light, {undecided} undecided (several plays "
                f"explain the board), {darks} unexplained"
            )
    print(f"not seen by the switches (full points, unsensed trays): {sum(s.unseen for s in sessions)} hand actions")
    for index, (kind, what, script) in enumerate(dark[:EXAMPLES]):
        folder = folder or Path(tempfile.mkdtemp(prefix="bgpi-bench-table-"))
        path = write_script(folder, f"dark{index + 1}.jsonl", script)
        print(f"DARK {kind}: {what}\n  replay: bgpi replay {path}")
    for failure in failures:
        print(f"FAILED {failure}")
    print(
        f"table: {len(timings)} sensor events, core p50 {p50 / 1e3:.0f} us, p99 {p99 / 1e3:.0f} us, "
        f"max {worst / 1e6:.2f} ms; lights change {max(lit)} scans after a checker settles (goal 2)"
        + (f"; {len(dark)} hand actions left the lights unexplained" if dark else "")
        + (f"; {len(failures)} FAILED games" if failures else "")
    )
    if failures or plays != turns:
        sys.exit(1)


if __name__ == "__main__":
    main()
