"""The engine at the table: how long a hint and the computer's play take.

    python benchmarks/engine.py [--positions N] [--seed S] [--factor F]

Positions and rolls come from a self-play corpus (`bgpi.rules.selfplay.corpus`).
Debian's gnubg runs behind the bridge (`bgpi.engine.process`), started once before
timing, as on the board.

1. Hint press to hint lights, at the default hint level (`DEFAULT_HINT_LEVEL`, 2-ply) and
   at 0-ply (`DEFAULT_LEVEL`, the computer's default): the wall
   time of `TableRunner.press("hint")` on the simulated board after the roll, which
   asks the engine, applies its answer as the journaled `hint` event and works out the
   lights the LEDs show.  Goal (issue 11): under 300 ms here, and on a Pi estimated at
   `--factor` (15) times this machine.
2. The computer's think time per play: `Advisor` answering the table's request for the
   computer's play, at each level from 0 to 2 plies, and the cube decision before its roll.
3. Reference in the same run: the bridge's round trip alone (`ProcessBackend.ask` of the
   same request), and PyPI's gnubg in-process (`findbestmoves`) where it is installed,
   so the share of the pipe and of bgpi's own work can be read off.

Prints p50, p90 and max per line; exit status 1 if gnubg is missing.

Read the Pi estimate with care: Debian's gnubg 1.07 takes about 10 ms for any
evaluation called from its Python, even a 0-ply one that PyPI's module does in
0.03 ms (the reference lines), so most of a 0-ply answer is a wait that does not
grow on a slower CPU; the x`--factor` column multiplies it all and is the pessimistic bound.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bgpi.engine import DEFAULT_HINT_LEVEL, DEFAULT_LEVEL, LEVELS, Situation, Strength, open_engine
from bgpi.engine.module import ModuleBackend, import_module
from bgpi.engine.process import find_gnubg
from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.rules.ids import MatchKey, match_id, position_id
from bgpi.rules.selfplay import corpus
from bgpi.shell.advisor import Advisor
from bgpi.shell.hands import TableHands
from bgpi.shell.opponents import Computer
from bgpi.shell.runner import TableRunner
from bgpi.table.controller import Table
from bgpi.table.requests import AdviceRequest, Purpose, Question
from bgpi.table.tracker import Sensing


def summary(name: str, seconds: list[float], factor: float) -> str:
    ordered = sorted(seconds)
    p50 = statistics.median(ordered)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (f"{name:<44} p50 {p50 * 1e3:7.1f} ms  p90 {p90 * 1e3:7.1f} ms  max {ordered[-1] * 1e3:7.1f} ms"
            f"  (Pi x{factor:g}: p50 {p50 * factor * 1e3:6.0f} ms, max {ordered[-1] * factor * 1e3:6.0f} ms)")


def hint_presses(cases, advisor: Advisor) -> list[float]:
    """Wall time of each hint press, on a practice table set to the case's position, after its roll."""
    profile = load_profile()
    sensing = Sensing(profile.geometry)
    times = []
    for position, side, dice in cases:
        table, _ = Table.new(sensing, {}, position_id(position, side), side)
        sim = TableRunner(table, open_sim_board(profile), computer=Computer(advisor))
        TableHands(sim).set_position(position)
        sim.dice.add(*dice)
        sim.advance(0.05)
        sim.press(f"{side.label}.turn")  # start: the practice position's player rolls
        if table.phase != "move" or table.tree.most_dice == 0:
            sim.close()
            continue
        started = time.perf_counter()
        sim.press("hint")
        times.append(time.perf_counter() - started)
        assert table.hint is not None, "the hint did not arrive"
        sim.close()
    return times


def computer_requests(cases, kind: str) -> list[AdviceRequest]:
    """The table's requests for the computer's play ("plays") or cube decision ("cube"),
    one per case, the mover as the computer, in money play."""
    return [AdviceRequest(Question(kind), Purpose.COMPUTER, side, position_id(position, side),
                          match_id(MatchKey(dice_owner=side, turn=side,
                                            dice=tuple(dice) if kind == "plays" else (0, 0))),
                          jacoby=True, beavers=False)
            for position, side, dice in cases]


def bridge_query(request: AdviceRequest, strength: Strength) -> dict:
    """The backend's request for a table's request (as `Engine.plays` makes it)."""
    situation, dice = Situation.from_ids(request.position_id, request.match_id)
    return {"op": "plays", "limit": 1, **situation.query(dice, strength)}


def timed(call, items) -> list[float]:
    times = []
    for item in items:
        started = time.perf_counter()
        call(item)
        times.append(time.perf_counter() - started)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200, help="positions of the corpus (default 200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--factor", type=float, default=15.0, help="how much slower a Pi is (default 15)")
    args = parser.parse_args()
    if not find_gnubg():
        print("benchmarks/engine.py: Debian's gnubg is not installed (apt-get install gnubg)", file=sys.stderr)
        return 1
    cases = corpus(args.positions, args.seed)
    engine = open_engine("gnubg")
    started = time.perf_counter()
    engine.cube(Situation.from_ids("4HPwATDgc/ABMA")[0])
    print(f"gnubg start and first answer: {(time.perf_counter() - started) * 1e3:.0f} ms "
          f"({args.positions} positions, seed {args.seed})")
    hint = LEVELS[DEFAULT_LEVEL]
    for level in dict.fromkeys((DEFAULT_HINT_LEVEL, DEFAULT_LEVEL)):
        strength = LEVELS[level]
        print(summary(f"hint press to hint lights ({level})",
                      hint_presses(cases, Advisor(engine, strength, hint)), args.factor))
    requests = computer_requests(cases, "plays")
    for plies in (0, 1, 2):
        advisor = Advisor(engine, hint, Strength(plies))
        print(summary(f"computer's play, {plies}-ply", timed(advisor, requests), args.factor))
    print(summary(f"computer's cube decision ({DEFAULT_LEVEL})",
                  timed(Advisor(engine, hint, hint), computer_requests(cases, "cube")), args.factor))
    queries = [bridge_query(request, hint) for request in requests]
    print(summary("reference: the bridge's round trip, 0-ply",
                  timed(lambda query: engine.backend.ask(query, 10.0), queries), args.factor))
    try:
        module = ModuleBackend(import_module())
    except Exception as missing:  # noqa: BLE001 - an optional reference
        print(f"reference: PyPI's gnubg in-process: not installed ({missing})")
    else:
        print(summary("reference: PyPI's gnubg in-process, 0-ply",
                      timed(lambda query: module.ask(query, 10.0), queries), args.factor))
    engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
