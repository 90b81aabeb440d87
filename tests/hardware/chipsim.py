"""lgpio's kernel layer over a simulated board: the Pi's pin library, minus the kernel.

lgpio's Python module turns every call into one call of its C extension ``_lgpio``,
and each of those is one request to the kernel's GPIO device.  `SimulatedChip` stands
in for ``_lgpio`` alone: gpiozero's lgpio factory and lgpio's Python code run as on a
Pi, every would-be kernel call is counted, and the lines read what the board's circuit
would (`bgpi.hardware.mockboard.SimulatedBoard`: a signal line low while the switch on
the selected channel is closed; buttons and other inputs pulled up).

Lines in `busy` refuse to be claimed with lgpio's "GPIO busy", as a line held by a
kernel driver (the 1-Wire overlay on GPIO4, for one) does.  For tests and
``benchmarks/scan.py``; the real ``_lgpio`` is kept for its error texts.
"""

from __future__ import annotations

import struct
from collections import Counter
from collections.abc import Callable, Iterable
from types import ModuleType

from bgpi.board.profile import CHANNELS
from bgpi.hardware.mockboard import SimulatedBoard

GPIO_BUSY = -79
"""lgpio's LG_GPIO_BUSY."""
GPIO_IS_OUT = 1 << 1
"""lgpio's mode bit of an output line."""


def _unpack(packed: bytes) -> list[int]:
    return [value for (value,) in struct.iter_unpack("I", packed)]


class SimulatedChip:
    """Stands in for lgpio's ``_lgpio`` (install it as ``lgpio._lgpio``).

    `calls` counts the calls by name; `log` can record them.  Only what gpiozero and the scanner use is
    modelled; any other call is counted and answers 0 (success).
    """

    def __init__(self, board: SimulatedBoard, real: ModuleType, busy: Iterable[int] = ()) -> None:
        self.board = board
        self.real = real
        self.busy = set(busy)
        self.calls: Counter[str] = Counter()
        self.log: list[tuple[str, tuple]] | None = None
        """When a list: every call is appended to it, with its arguments."""
        self.driven: dict[int, int] = {}
        """Output lines and the level driven on each."""
        self.groups: dict[int, tuple[int, ...]] = {}
        """Group leader -> its lines."""
        wiring = board.profile.sensors
        self._select = wiring.select
        self._signal = {pin: mux for mux, pin in enumerate(wiring.signal)}

    def __getattr__(self, name: str) -> Callable[..., object]:
        if not name.startswith("_") or name.startswith("__"):
            return getattr(self.real, name)  # constants
        answer = getattr(type(self), "answer" + name, None)

        def call(*args: object) -> object:
            self.calls[name] += 1
            if self.log is not None:
                self.log.append((name, args))
            return answer(self, *args) if answer is not None else 0

        self.__dict__[name] = call  # found at once from now on
        return call

    def total_calls(self) -> int:
        return sum(self.calls.values())

    # -- the lines ---------------------------------------------------------------------

    def level(self, gpio: int) -> int:
        """The level line `gpio` reads now."""
        if gpio in self.driven:
            return self.driven[gpio]
        mux = self._signal.get(gpio)
        if mux is None:
            return 1  # pulled up: an open button
        channel = sum(1 << line for line, pin in enumerate(self._select) if self.driven.get(pin))
        return 0 if self.board.closed >> (mux * CHANNELS + channel) & 1 else 1

    def _claim(self, lines: list[int], levels: list[int] | None) -> int:
        if self.busy.intersection(lines):
            return GPIO_BUSY
        for index, gpio in enumerate(lines):
            if levels is None:
                self.driven.pop(gpio, None)
            else:
                self.driven[gpio] = 1 if levels[index] else 0
        self.groups[lines[0]] = tuple(lines)
        return 0

    # -- the calls modelled (names and arguments as lgpio.py passes them) -------------

    def answer_error_text(self, errnum: int) -> str:
        return self.real._error_text(errnum)

    def answer_gpio_claim_input(self, handle: int, flags: int, gpio: int) -> int:
        return self._claim([gpio], None)

    def answer_gpio_claim_output(self, handle: int, flags: int, gpio: int, level: int) -> int:
        return self._claim([gpio], [level])

    def answer_gpio_claim_alert(self, handle: int, flags: int, edges: int, gpio: int,
                                notify: int) -> int:
        return self._claim([gpio], None)

    def answer_gpio_get_mode(self, handle: int, gpio: int) -> int:
        return GPIO_IS_OUT if gpio in self.driven else 0

    def answer_gpio_read(self, handle: int, gpio: int) -> int:
        return self.level(gpio)

    def answer_gpio_write(self, handle: int, gpio: int, level: int) -> int:
        self.driven[gpio] = 1 if level else 0
        return 0

    def answer_group_claim_input(self, handle: int, flags: int, lines: bytes) -> int:
        return self._claim(_unpack(lines), None)

    def answer_group_claim_output(self, handle: int, flags: int, lines: bytes,
                                  levels: bytes) -> int:
        return self._claim(_unpack(lines), _unpack(levels))

    def answer_group_read(self, handle: int, leader: int) -> list[int]:
        lines = self.groups[leader]
        return [len(lines), sum(self.level(gpio) << bit for bit, gpio in enumerate(lines))]

    def answer_group_write(self, handle: int, leader: int, bits: int, mask: int) -> int:
        for bit, gpio in enumerate(self.groups[leader]):
            if mask >> bit & 1:
                self.driven[gpio] = bits >> bit & 1
        return 0
