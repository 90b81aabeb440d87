"""A fault campaign: damaged journals of the scenario suite, resumed by `bgpi replay`.

    python benchmarks/faults.py [--seed S] [--flips N]

Every scenario of `tests/scenarios` (one-part ones) is replayed into a state directory;
then each line of its journal but the first and the last is damaged in every way the
issue (#9) lists: `--flips` random byte flips, an `X` before the line, a garbage line
before it, a line of 100,000 `[`, a bare JSON event that cannot apply (a roll of 9-9),
and a checksummed line that is no event (a play without its fields).  Each damaged journal is resumed by
`bgpi replay --state DIR` with a script that waits 2 s and shows the state, in this
process (`bgpi.cli.main`), and counted:

* resumed: exit status 0, a `resumed` event naming the damaged line, the damaged journal
  kept beside the new one, and the table plays on (a roll taken on a board set as it
  expects);
* anything else is a failure, printed with its scenario, line and kind.

Goal: every damaged journal resumes (before issue 9: 178 of 470 could not).  It takes
about a quarter of a second per journal: `--flips 0` for a quicker campaign.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from bgpi.cli import main
from bgpi.hardware.profile import load_profile
from bgpi.rules.position import Side
from bgpi.shell.journal import encode_record, journal_path, read_journal
from bgpi.table.controller import Table
from bgpi.table.inputs import Press, Rolled, Sensed
from bgpi.table.tracker import Sensing

SCENARIOS = Path(__file__).parent.parent / "tests" / "scenarios"
SENSING = Sensing(load_profile().geometry)


def damages(line: bytes, rng: random.Random, flips: int) -> dict[str, bytes]:
    """Ways to damage `line` (with its newline), by name."""
    found = {}
    for flip in range(flips):
        at = rng.randrange(len(line) - 1)
        damaged = bytearray(line)
        damaged[at] ^= 1 << rng.randrange(8)
        found[f"byte flip {flip + 1} (byte {at})"] = bytes(damaged)
    found["X before the line"] = b"X" + line
    found["a garbage line before it"] = b"garbage\n" + line
    found["100,000 [ before it"] = b"[" * 100_000 + b"\n" + line
    found["a bare event that cannot apply"] = b'{"event": "roll", "player": "black", "dice": [9, 9]}\n' + line
    found["a checksummed line that is no event"] = encode_record({"event": "play", "player": "white"}) + line
    return found


def plays(table: Table) -> bool:
    """Whether `table`, on a board set as it expects, takes a roll within a few presses."""
    table.handle(Sensed(SENSING.of(table.position)))
    for _ in range(12):
        if table.phase == "move":
            return True
        if table.wants_roll:
            table.handle(Rolled(5, 2))
        else:
            if table.phase == "setup":
                table.handle(Sensed(SENSING.of(table.position)))
            # Doubled, or offered a resignation: whoever the board asks takes, or declines (play
            # goes on); else the side on turn (or white) presses turn.
            prompt = table.lighting().prompt
            answers = prompt.answers if prompt is not None else {}
            goes_on = [button for button, answer in answers.items() if answer in ("take", "decline")]
            side = table.turn or Side.WHITE
            table.handle(Press(goes_on[0] if goes_on else f"{side.label}.turn"))
    return table.phase == "move"


def resume(state: Path, script: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["replay", "--seed", "0", "--state", str(state), str(script)])
    return status, out.getvalue(), err.getvalue()


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--flips", type=int, default=2, help="random byte flips per line")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    tried = resumed = 0
    failures = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        more = temp / "more.jsonl"
        more.write_text('{"wait": 2}\n{"show": "state"}\n')
        for scenario in sorted(SCENARIOS.glob("*.jsonl")):
            if scenario.name.endswith(".log.jsonl") or scenario.stem.count("."):
                continue
            origin = temp / scenario.stem
            status, _, _ = resume(origin, scenario)
            if status != 0:
                continue
            lines = journal_path(origin).read_bytes().splitlines(keepends=True)
            for number in range(2, len(lines)):
                for kind, damaged_line in damages(lines[number - 1], rng, args.flips).items():
                    tried += 1
                    state = temp / f"{scenario.stem}-{tried}"
                    state.mkdir()
                    data = b"".join([*lines[:number - 1], damaged_line, *lines[number:]])
                    journal_path(state).write_bytes(data)
                    status, out, err = resume(state, more)
                    events = [json.loads(line) for line in out.splitlines()]
                    kept = sorted(state.glob("journal.damaged.*.jsonl"))
                    table = Table.resume_prefix(list(read_journal(state).events), SENSING)[0]
                    good = (status == 0 and events and events[0]["event"] == "resumed"
                            and any(f"line {number} is damaged" in problem
                                    for problem in events[0]["problems"])
                            and len(kept) == 1 and kept[0].read_bytes() == data
                            and table is not None and plays(table))
                    if good:
                        resumed += 1
                    else:
                        failures.append(f"{scenario.stem} line {number}, {kind}: exit {status}: "
                                        f"{err.strip()[:200]}")
    print(f"{tried} damaged journals from {len(list(SCENARIOS.glob('*.log.jsonl')))} scenarios: "
          f"{resumed} resumed and played on, {len(failures)} did not "
          f"({time.perf_counter() - started:.1f} s)")
    for failure in failures[:20]:
        print(f"  {failure}")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main_())
