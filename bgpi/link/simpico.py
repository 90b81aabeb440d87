"""The simulated Pico: the real firmware in its own process, behind a pseudo-terminal.

`SimPico` starts ``firmware/sim/run.py`` (the firmware with a simulated `machine`) and
talks to it on a control pipe: which switches are closed, button presses, the clock
(`step`), the cable (`unplug`, `plug`).  The host reaches the firmware as it would a
real one: pyserial on the device at `port`.  `PicoHands` is the simulated board's hands
(`bgpi.hardware.mockboard.SimulatedBoard`) with every change sent to that process.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Self

from bgpi.board.profile import BUTTON_NAMES, Profile
from bgpi.exc import SimPicoError
from bgpi.hardware.buttons import ButtonPress
from bgpi.hardware.mockboard import SimulatedBoard

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
"""The firmware's source: a source checkout (or editable install) of bgpi has it."""
START_S = 10.0


class SimPico:
    """A simulated Pico process with its port at ``directory/ttyPICO``.

    `realtime`: the firmware scans by the clock (for `bgpi run`); otherwise only when
    told to `step` (lockstep with a replay, so board time is the same on both ends)."""

    def __init__(self, directory: Path, realtime: bool = False) -> None:
        runner = FIRMWARE / "sim" / "run.py"
        if not runner.is_file():
            raise SimPicoError(f"the firmware source is not at {FIRMWARE}: the simulated Pico "
                               "needs a source checkout of bgpi")
        self.port = Path(directory) / "ttyPICO"
        command = [sys.executable, str(runner), str(self.port), "--store", str(Path(directory) / "pico.cfg")]
        if realtime:
            command.append("--realtime")
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        assert self.process.stdin is not None and self.process.stdout is not None  # piped just above
        self._orders, self._replies = self.process.stdin, self.process.stdout
        deadline = time.monotonic() + START_S
        while not self.port.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise SimPicoError("the simulated Pico did not start")
            time.sleep(0.005)
        self._last = "-"

    def _tell(self, line: str) -> None:
        try:
            self._orders.write(line + "\n")
        except (BrokenPipeError, ValueError) as error:
            raise SimPicoError(f"the simulated Pico has stopped: {error}") from None

    def _ask(self, line: str) -> str:
        self._tell(line)
        reply = self._replies.readline()
        if not reply:
            raise SimPicoError("the simulated Pico has stopped")
        return reply.strip()

    def closed(self, frame: int) -> None:
        """From now on the switches of `frame` are closed, the others open."""
        self._tell(f"closed {frame:x}")

    def press(self, button: str, long: bool = False) -> None:
        """A press of `button`, down and up at once (held long enough for a long one)."""
        self._tell(f"{'hold' if long else 'press'} {BUTTON_NAMES.index(button)}")

    def step(self, frames: int = 1) -> int | None:
        """Let `frames` scan periods pass; the number of the last frame the firmware has
        sent by then (None while unplugged or before it sent any)."""
        last = self._ask(f"step {frames}").split()[-1]
        return None if last == "-" else int(last)

    def unplug(self) -> None:
        """Pull the cable: the port goes away and the Pico loses power."""
        self._ask("unplug")

    def plug(self) -> None:
        """Plug the cable back: a new port at the same path, the firmware boots again."""
        self._ask("plug")

    def leds(self) -> list[tuple[int, int, int]]:
        """The colours the chain shows now."""
        text = self._ask("leds").partition(" ")[2]
        return [(int(text[i:i + 2], 16), int(text[i + 2:i + 4], 16), int(text[i + 4:i + 6], 16))
                for i in range(0, len(text), 6)]

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self._tell("quit")
                self._orders.close()
                self.process.wait(timeout=5)
            except (SimPicoError, OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self._replies.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class PicoHands(SimulatedBoard):
    """The simulated board's checkers and switches, kept by the simulated Pico."""

    def __init__(self, profile: Profile, pico: SimPico) -> None:
        self.pico = pico
        super().__init__(profile)

    def _rewire(self) -> None:
        super()._rewire()
        self.pico.closed(self.closed)

    def press(self, name: str, long: bool = False) -> ButtonPress | None:
        """Press (or hold) button `name` in the firmware, which reports it with its frames."""
        self.pico.press(name, long)
        return None
