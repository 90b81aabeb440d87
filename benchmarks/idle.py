"""CPU an idle board takes: the live loop, nobody touching it, at the profile's scan rate
throughout and as `bgpi run` runs it (at `bgpi.shell.live.IDLE_HZ` once idle), in the same run.

Two boards, each run for SECONDS (counted from the `IDLE_AFTER_S` in which the loop finds
them idle) by `bgpi.shell.live.run_live`,
the checkers in the starting position and the table waiting for the opening roll:

- the Pi path: gpiozero's lgpio factory and the scanner's lgpio line groups, with only
  lgpio's kernel calls stubbed (`IdleChip`: `tests.hardware.chipsim.SimulatedChip`, as in
  ``benchmarks/scan.py``, answering the scan from a table of the idle board's levels);
  the stand-in's own time for the frames scanned is measured by replaying one frame's
  calls to it and subtracted.  The LEDs are simulated pixels.
- the simulated board (`bgpi run --board sim` without a keyboard), gpiozero's mock pins.

CPU is the process's (every thread: lgpio's notification thread, the button callbacks),
as a share of one core.  Goal (issue 22): an idle Pi board under 5% of a Pi Zero 2 W
core, which is about 0.33% of one core here, taking the Zero as 15 times slower.

Not all of it is Python that a slower CPU takes longer over, so the Pi path's figure is
split: the settle's busy-wait (16 channels x ``settle_us`` a frame) is wall time, the same
share of a core on a Pi; the sleeps between frames cost the kernel's timer wake-ups
(measured alone, by a loop of the same sleeps); the rest is the loop's Python.  The
estimate for a Zero is 15 x the Python plus the busy-wait (its wake-ups not counted).
The busy-wait and the wake-ups of the frames scanned are a floor no Python can lower,
printed as such: at 25 Hz with the blink edges' scans (281 frames in 10 s) they come to
about 0.32% here, the goal's whole budget.

Where an idle frame goes, in instructions (a noisy machine's CPU time cannot tell a few
percent apart): ``python benchmarks/idle.py --frames N`` runs N idle frames of the Pi
path's loop on a clock of its own (no sleeps, no busy-wait), so that

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/idle.py --frames 500
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/idle.py --frames 2500

give one frame's instructions as the difference of the two counts over 2000 (some
297,000).  For issue 28 the same loop was counted on the code before and after: 307,000
instructions a frame before, of which the stubbed kernel some 200,000, the scanner's own
Python 45,000, the live loop and the runner 60,000; 292,000 after, the loop and the runner
44,500 (an idle frame's debouncing returns at once, the LEDs write only the pixels that
change at a blink edge, the status line reads the phase and the turn, not the whole
state).  Besides, the buttons no longer keep gpiozero's hold threads, which woke fifty
times a second in all (some 0.15% of a core here, not counted above).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

# The simulated chip is test code: it lives in tests/, beside this checkout's bgpi.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bgpi.board.profile import CHANNELS
from bgpi.hardware import board as board_module
from bgpi.hardware.leds import SimulatedPixels
from bgpi.hardware.mockboard import SimulatedBoard
from bgpi.hardware.profile import load_profile
from bgpi.shell.boardfile import position_checkers, put_position
from bgpi.shell.live import IDLE_AFTER_S, IDLE_HZ, run_live
from bgpi.shell.runner import TableRunner
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing
from tests.hardware.chipsim import SimulatedChip

SECONDS = 10.0
ZERO_2_W_REVISION = 0x902120
"""The revision code of a Raspberry Pi Zero 2 W, for gpiozero's pin tables."""
PI_ZERO_FACTOR = 15
GOAL_PERCENT = 5 / PI_ZERO_FACTOR


class IdleChip(SimulatedChip):
    """The stand-in for an idle board's kernel: nothing moves, so each channel's signal
    levels are worked out once.  Its own time, subtracted from the figure, then stays
    small beside it (`SimulatedChip` works out every line of every read)."""

    def answer_group_claim_output(self, handle: int, flags: int, lines: bytes, levels: bytes) -> int:
        answer = super().answer_group_claim_output(handle, flags, lines, levels)
        self.channel = sum(self.driven.get(pin, 0) << line for line, pin in enumerate(self._select))
        self.reads: dict[int, list[int]] = {}
        return answer

    def answer_group_write(self, handle: int, leader: int, bits: int, mask: int) -> int:
        self.channel = self.channel & ~mask | bits  # the scan writes only the select group
        return 0

    def answer_group_read(self, handle: int, leader: int) -> list[int]:
        read = self.reads.get(self.channel)
        if read is None:
            self.driven.update((pin, self.channel >> line & 1) for line, pin in enumerate(self._select))
            read = self.reads[self.channel] = super().answer_group_read(handle, leader)
        return read


def cpu_percent(runner: TableRunner, idle_hz: float | None) -> tuple[float, int]:
    """(CPU the live loop takes over SECONDS at `idle_hz` once idle (None: the full
    rate), as % of one core; frames scanned).  Counted from the first scan after
    `IDLE_AFTER_S`, when the board has become idle: an idle board has been so for long."""
    stop = threading.Event()
    start: list[tuple[float, float, int]] = []

    def mark(runner: TableRunner) -> None:
        if not start and runner.now >= IDLE_AFTER_S:
            start.append((time.process_time(), time.perf_counter(), runner.scans))
            threading.Timer(SECONDS, stop.set).start()

    run_live(runner, stop, after_scan=mark, log=open(os.devnull, "w"), idle_hz=idle_hz)  # noqa: SIM115
    (cpu, wall, scans), = start
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return 100 * cpu / wall, runner.scans - scans


def stand_in_seconds_per_frame(runner: TableRunner, chip: SimulatedChip) -> float:
    """What the stubbed kernel itself costs a frame: one frame's calls, replayed to it."""
    chip.log = []
    runner.board.scanner.scan()
    calls, chip.log = [(getattr(chip, name), args) for name, args in chip.log], None
    rounds = 2000
    start = time.perf_counter()
    for _ in range(rounds):
        for call, args in calls:
            call(*args)
    return (time.perf_counter() - start) / rounds


def sleeps_percent(period: float, seconds: float = 2.0) -> float:
    """CPU a loop of nothing but the live loop's sleeps takes, as % of one core: the
    kernel's timer wake-ups, which every frame pays however little it does."""
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(round(seconds / period)):
        time.sleep(period)
    return 100 * (time.process_time() - cpu) / (time.perf_counter() - wall)


def on_stubbed_lgpio(profile, table: Table) -> tuple[TableRunner, IdleChip]:
    """A runner of `table` on the Pi path, lgpio's kernel calls answered by `IdleChip`."""
    import lgpio
    from gpiozero import Device
    from gpiozero.pins.lgpio import LGPIOFactory
    from gpiozero.pins.local import LocalPiFactory

    switches = SimulatedBoard(profile)  # only its switches: the pins are lgpio's here
    for location, count in position_checkers(table.position).items():
        switches.set_checkers(location, count)
    chip = IdleChip(switches, lgpio._lgpio)
    lgpio._lgpio = chip
    LocalPiFactory._get_revision = lambda self: ZERO_2_W_REVISION
    Device.pin_factory = LGPIOFactory(chip=0)
    board_module.open_pixels = lambda config: SimulatedPixels(config.count)
    return TableRunner(table, board_module.open_pi_board(profile)), chip


def on_the_pi_path(profile, table: Table, idle_hz: float | None) -> tuple[float, int, float]:
    """(CPU %, frames, the stand-in's share in % of a core) on lgpio line groups."""
    from gpiozero import Device

    runner, chip = on_stubbed_lgpio(profile, table)
    try:
        percent, frames = cpu_percent(runner, idle_hz)
        stand_in = 100 * stand_in_seconds_per_frame(runner, chip) * frames / SECONDS
    finally:
        runner.close()
        Device.pin_factory.close()
    return percent, frames, stand_in


def report(profile, sensing: Sensing, idle_hz: float | None) -> None:
    """Both boards' figures at `idle_hz` once idle (None: the profile's rate throughout)."""
    rate = f"{profile.sensors.scan_hz:g} Hz throughout" if idle_hz is None else \
        f"{idle_hz:g} Hz once idle (IDLE_HZ, with the blink edges' scans)"
    print(f"idle for {SECONDS:g} s, after {IDLE_AFTER_S:g} s untouched, at {rate}:")
    pi, frames, stand_in = on_the_pi_path(profile, Table.new(sensing, {})[0], idle_hz)
    net = pi - stand_in
    print(f"  Pi path (lgpio groups, kernel stubbed): {net:.2f}% of a core "
          f"({pi:.2f}% less {stand_in:.2f}% for the stubbed kernel), {frames} frames")
    settle = 100 * CHANNELS * profile.sensors.settle_us / 1e6 * frames / SECONDS
    sleeps = sleeps_percent(SECONDS / frames)
    python = net - settle - sleeps
    print(f"    of which the settle's busy-wait {settle:.2f}% ({CHANNELS} x {profile.sensors.settle_us:g} us "
          f"a frame), the sleeps' wake-ups {sleeps:.2f}%, Python {python:.2f}%")
    print(f"    the busy-wait and the wake-ups of {frames} frames are a floor no Python lowers: {settle + sleeps:.2f}%")

    table, _ = Table.new(sensing, {})
    sim = TableRunner(table, board_module.open_sim_board(profile), seed=1)
    put_position(sim.board.hands, table.position)
    try:
        percent, sim_frames = cpu_percent(sim, idle_hz)
    finally:
        sim.close()
    print(f"  simulated board (mock pins):            {percent:.2f}% of a core, {sim_frames} frames")
    on_zero = PI_ZERO_FACTOR * python + settle
    print(f"  goal: an idle Pi board under 5% of a Pi Zero 2 W core ({GOAL_PERCENT:.2f}% here, "
          f"the Zero {PI_ZERO_FACTOR}x slower): {'met' if net <= GOAL_PERCENT else 'NOT met'}; "
          f"on a Zero about {on_zero:.1f}% ({PI_ZERO_FACTOR} x the Python, the busy-wait as it is, "
          f"its wake-ups not counted)")


def idle_frames(profile, frames: int) -> None:
    """`frames` idle frames of the Pi path's live loop at `IDLE_HZ`, on a clock of its own
    that the sleeps move on and without the settle's busy-wait: for an instruction counter."""
    table, _ = Table.new(Sensing(profile.geometry), {})
    runner, _ = on_stubbed_lgpio(profile, table)
    runner.board.scanner._settle = 0.0  # wall time, not instructions
    now = [0.0]
    stop = threading.Event()

    def counted(runner: TableRunner) -> None:
        if runner.scans >= frames:
            stop.set()

    def sleep(seconds: float) -> None:
        now[0] += seconds

    run_live(runner, stop, after_scan=counted, clock=lambda: now[0], sleep=sleep,
             log=open(os.devnull, "w"), idle_hz=IDLE_HZ)  # noqa: SIM115
    runner.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, metavar="N",
                        help="run N idle frames on a clock of its own, for an instruction counter (see above)")
    args = parser.parse_args()
    # Importing lgpio makes its notification pipe in the working directory.
    os.chdir(tempfile.mkdtemp(prefix="bgpi-idle-"))
    profile = load_profile()
    if args.frames is not None:
        idle_frames(profile, args.frames)
        return
    sensing = Sensing(profile.geometry)
    report(profile, sensing, None)
    report(profile, sensing, IDLE_HZ)


if __name__ == "__main__":
    main()
