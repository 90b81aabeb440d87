"""Legal plays: the engine against GNU Backgammon's C generator, side by side in one run.

    python benchmarks/plays.py [--positions N] [--seed S]

1. Generation alone: `movegen.result_keys` (the distinct resulting positions)
   against `gnubg_nn.moves` on the same corpus of self-play positions and rolls.
2. The whole batch job, process start included: `bgpi rules plays --batch FILE`
   against the same job done with gnubg-nn's C functions (parse, generate,
   encode each result, write JSON), also as its own process.
3. The slowest play tree of any position and roll in the corpus.

Goals (issue 14): generation at most 2x gnubg; the batch job at most 3x; the
slowest play tree at most 25 ms here (issue 2; a Pi Zero 2 W is about 15x slower).
Engine and reference are timed in turns, best of 5 each, so that the load of the
machine falls on both alike.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import best_of

from bgpi.rules.ids import position_id
from bgpi.rules.movegen import result_keys
from bgpi.rules.playtree import PlayTree
from bgpi.rules.selfplay import corpus

try:
    import gnubg_nn
except ImportError:  # the reference needs the gnubg-nn wheel (CPython 3.11, x86_64)
    gnubg_nn = None

# The reference batch job: what `bgpi rules plays --batch` does, with gnubg's C functions.
GNUBG_BATCH = """
import json, sys
import gnubg_nn as g
out = []
for line in open(sys.argv[1]):
    request = json.loads(line)
    board = g.board_from_position_id(request["position_id"])
    keys = g.moves(board, *request["dice"])
    results = sorted({g.position_id([list(s) for s in g.board_from_position_key(k)]) for k in keys})
    out.append(json.dumps({"position_id": request["position_id"], "dice": request["dice"],
                           "results": results or [request["position_id"]]}))
sys.stdout.write("\\n".join(out) + "\\n")
"""


def best_in_turns(runs: int, engine, reference) -> tuple[float, float]:
    """`best_of` for two jobs, run in turns."""
    timings = [(best_of(1, engine), best_of(1, reference)) for _ in range(runs)]
    return min(t[0] for t in timings), min(t[1] for t in timings)


def generation(cases) -> None:
    ours = [(p.checkers(s), p.checkers(s.opponent), d) for p, s, d in cases]

    def engine_job():
        return [result_keys(own, theirs, dice) for own, theirs, dice in ours]

    if gnubg_nn is None:
        engine = best_of(5, engine_job)
        print(f"generation: engine {engine / len(cases) * 1e6:.1f} us per position (no gnubg-nn here: no reference)")
        return
    boards = [([list(theirs), list(own)], dice.first, dice.second) for own, theirs, dice in ours]
    engine, reference = best_in_turns(
        5, engine_job, lambda: [gnubg_nn.moves(board, a, b) for board, a, b in boards]
    )
    print(
        f"generation: engine {engine / len(cases) * 1e6:.1f} us per position, "
        f"gnubg {reference / len(cases) * 1e6:.1f} us: {engine / reference:.1f}x gnubg's time (goal 2x)"
    )


def batch(cases) -> None:
    with tempfile.TemporaryDirectory() as folder:
        requests = Path(folder, "requests.jsonl")
        requests.write_text(
            "".join(
                json.dumps({"position_id": position_id(p, s), "dice": list(d)}) + "\n"
                for p, s, d in cases
            )
        )
        ours = [sys.executable, "-m", "bgpi", "rules", "plays", "--batch", str(requests)]

        def engine_job():
            subprocess.run(ours, check=True, capture_output=True)

        if gnubg_nn is None:
            engine = best_of(5, engine_job)
            print(f"batch job ({len(cases)} lines, process start included): engine {engine:.2f} s "
                  "(no gnubg-nn here: no reference)")
            return
        script = Path(folder, "gnubg_batch.py")
        script.write_text(GNUBG_BATCH)
        theirs = [sys.executable, str(script), str(requests)]
        engine, reference = best_in_turns(
            5, engine_job, lambda: subprocess.run(theirs, check=True, capture_output=True)
        )
        print(f"batch job ({len(cases)} lines, process start included): engine {engine:.2f} s", end="")
        same = (
            subprocess.run(ours, check=True, capture_output=True).stdout
            == subprocess.run(theirs, check=True, capture_output=True).stdout
        )
        print(
            f", gnubg-nn {reference:.2f} s: {engine / reference:.1f}x (goal 3x); "
            f"outputs {'identical' if same else 'DIFFER'}"
        )


def trees(cases) -> None:
    """Every tree once; then the 20 slowest again, best of 5, with the heap frozen as the
    service freezes it (`gc.freeze()`), so that collector pauses do not pass for tree time."""
    timings = []
    for position, side, dice in cases:
        started = time.perf_counter()
        PlayTree(position, side, dice)
        timings.append((time.perf_counter() - started, position, side, dice))
    timings.sort(key=lambda timing: timing[0])
    once = timings[-1][0]
    gc.collect()
    gc.freeze()
    retimed = [
        (best_of(5, lambda p=position, s=side, d=dice: PlayTree(p, s, d)), position, side, dice)
        for _, position, side, dice in timings[-20:]
    ]
    seconds, position, side, dice = max(retimed, key=lambda timing: timing[0])
    p99 = timings[int(len(timings) * 0.99)][0]
    print(
        f"play tree: median {statistics.median(t[0] for t in timings) * 1e3:.2f} ms, "
        f"p99 {p99 * 1e3:.2f} ms, slowest {seconds * 1e3:.2f} ms "
        f"({side.label} to play {dice} in {position_id(position, side)}; goal 25 ms); "
        f"{once * 1e3:.2f} ms the slowest single run, collector pauses included"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20000, help="size of the corpus")
    parser.add_argument("--seed", type=int, default=1, help="seed of the self-play corpus")
    args = parser.parse_args()
    cases = corpus(args.positions, seed=args.seed)
    print(f"corpus: {len(cases)} positions with their rolls from random self-play (seed {args.seed})")
    generation(cases)
    batch(cases)
    trees(cases)


if __name__ == "__main__":
    main()
