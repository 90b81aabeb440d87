"""Scanner cost on the Pi's pin library, here: pin-library calls and Python time per frame.

The scanner runs on gpiozero's lgpio factory and lgpio's Python module, exactly as on a
Pi; only ``_lgpio``, the C extension whose every function is one request to the kernel
(an ioctl on /dev/gpiochip0), is replaced: by `tests.hardware.chipsim.SimulatedChip`,
which counts the calls and answers from a simulated board with checkers on it.  The
time the stand-in itself takes to answer (measured by replaying a frame's calls to it)
is subtracted, so what remains is the Python a frame costs on a Pi, minus the kernel.

Two ways are measured in the same run:
- "gpiozero devices": one gpiozero device per line (how the scanner drove lgpio before;
  still its way on other factories, e.g. gpiozero's MockFactory in the tests);
- "lgpio groups": the select lines and the signal lines as two lgpio groups, one write
  and one read per channel (`bgpi.hardware.lines.GroupLines`, the way on a Pi now).

Goals (issue 10): at most 32 pin-library calls per frame (16 channels x one write and
one read), and Python time per frame that keeps a Pi Zero 2 W under 25% of one core at
100 Hz: 2.5 ms there, taking the Zero as 15 times slower than this machine, so at most
167 us here.  Settle time is zero here: it is a busy-wait of the profile's choosing.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# The simulated chip is test code: it lives in tests/, beside this checkout's bgpi.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bgpi.hardware.lines import DeviceLines
from bgpi.hardware.mockboard import SimulatedBoard
from bgpi.hardware.profile import load_profile
from bgpi.hardware.scanner import Scanner, gray_code
from tests.hardware.chipsim import SimulatedChip

FRAMES = 2000
ROUNDS = 5
ZERO_2_W_REVISION = 0x902120
"""The revision code of a Raspberry Pi Zero 2 W, for gpiozero's pin tables."""
PI_ZERO_FACTOR = 15
BUDGET_US = 1e6 / 100 * 0.25 / PI_ZERO_FACTOR


def best_us(work: Callable[[], object]) -> float:
    """The best time of `work` over ROUNDS rounds of FRAMES calls, in us per call."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(FRAMES):
            work()
        best = min(best, (time.perf_counter() - start) / FRAMES)
    return best * 1e6


def measure(scanner: Scanner, chip: SimulatedChip, board: SimulatedBoard) -> tuple[int, float]:
    """(pin-library calls per frame, Python time per frame in us, the stand-in's excluded)."""
    with scanner:
        assert scanner.scan() == board.closed  # it reads the board right
        chip.log = []
        scanner.scan()
        frame_calls, chip.log = chip.log, None
        answers = [(getattr(chip, name), args) for name, args in frame_calls]

        def answer_frame() -> None:
            for call, args in answers:
                call(*args)

        stand_in = best_us(answer_frame)
        total = best_us(scanner.scan)
    return len(frame_calls), total - stand_in


def main() -> None:
    # Importing lgpio makes its notification pipe in the working directory.
    os.chdir(tempfile.mkdtemp(prefix="bgpi-scan-"))
    import lgpio
    from gpiozero.pins.lgpio import LGPIOFactory
    from gpiozero.pins.local import LocalPiFactory

    profile = load_profile()
    board = SimulatedBoard(profile)  # only its switches: the pins are lgpio's here
    board.place(6, 5)
    board.place(13, 5)
    board.place(8, 3)
    board.place("bar:white", 1)
    chip = SimulatedChip(board, lgpio._lgpio)
    lgpio._lgpio = chip
    # gpiozero reads the board's revision for its pin tables: say it is a Zero 2 W.
    LocalPiFactory._get_revision = lambda self: ZERO_2_W_REVISION
    factory = LGPIOFactory(chip=0)
    wiring = dataclasses.replace(profile.sensors, settle_us=0.0)

    on_devices = Scanner(wiring, pin_factory=factory)
    on_devices.lines.close()
    on_devices.lines = DeviceLines(wiring.select, wiring.signal, gray_code(len(wiring.select))[-1],
                                   factory)  # parked on the last channel, as Scanner does
    before = measure(on_devices, chip, board)
    after = measure(Scanner(wiring, pin_factory=factory), chip, board)
    factory.close()
    for name, (calls, us) in (("gpiozero devices", before), ("lgpio groups", after)):
        print(f"{name:>16}: {calls} pin-library calls, {us:.0f} us Python time per frame")
    met = after[0] <= 32 and after[1] <= BUDGET_US
    print(f"goal: at most 32 calls and {BUDGET_US:.0f} us per frame (a Pi Zero 2 W at 100 Hz "
          f"under 25% of a core, {PI_ZERO_FACTOR}x slower than here): {'met' if met else 'NOT met'}")
    print(f"scan: {after[0]} pin-library calls per frame, {after[1]:.0f} us Python time "
          f"per frame (lgpio, kernel stubbed)")


if __name__ == "__main__":
    main()
