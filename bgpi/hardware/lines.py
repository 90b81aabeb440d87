"""The multiplexers' lines as the scanner uses them: set one select line, read every signal line.

Two ways to drive them, chosen by the pin factory (`open_mux_lines`):

- `GroupLines` on gpiozero's lgpio factory (the Pi's default): the select lines are one
  lgpio output group and the signal lines one input group, so a channel costs one
  ``group_write`` and one ``group_read`` however many multiplexers there are.  A frame
  of 16 channels is 32 calls into lgpio.
- `DeviceLines` on any other factory (RPi.GPIO, gpiozero's ``MockFactory`` in the
  tests and the simulator): one gpiozero device per line, read one by one.

The scanner (`bgpi.hardware.scanner`) runs the same code over either.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Protocol

from gpiozero import Device, DigitalOutputDevice, InputDevice
from gpiozero.pins import Factory

from bgpi.exc import PinsBusyError


@contextmanager
def claiming(pins: Sequence[int], which: Callable[[], Sequence[int]] | None = None) -> Iterator[None]:
    """Claim `pins` inside: a pin library's "GPIO busy" comes out as `PinsBusyError`.

    A group is refused whole when one of its lines is busy; `which` then says which
    lines are (the builder is told the one pin to free, not the whole group).
    """
    try:
        yield
    except Exception as error:
        if "busy" in str(error).lower():
            raise PinsBusyError((which() if which is not None else ()) or pins) from error
        raise


class MuxLines(Protocol):
    """What a scan does to the pins."""

    def set_select(self, line: int, level: bool) -> None:
        """Drive select line `line` (0 is S0) to `level`, leaving the others as they are."""

    def read_closed(self) -> int:
        """Bit m set where the signal line of multiplexer m reads low: its switch is closed."""

    def close(self) -> None:
        """Release every line (idempotent)."""


class DeviceLines:
    """The lines as gpiozero devices, on any pin factory."""

    def __init__(self, select: Sequence[int], signal: Sequence[int], initial: int,
                 pin_factory: Factory | None) -> None:
        self._select: list[DigitalOutputDevice] = []
        self._signal: list[InputDevice] = []
        try:
            for line, pin in enumerate(select):
                with claiming([pin]):
                    self._select.append(DigitalOutputDevice(
                        pin, initial_value=bool(initial >> line & 1), pin_factory=pin_factory))
            for pin in signal:
                with claiming([pin]):
                    self._signal.append(InputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise
        # Read through the pins themselves: gpiozero's `value` on each of them cost more than
        # half of a frame on the simulated board.
        self._weighted = tuple((1 << mux, device.pin) for mux, device in enumerate(self._signal))

    def set_select(self, line: int, level: bool) -> None:
        self._select[line].value = level

    def read_closed(self) -> int:
        closed = 0
        for weight, pin in self._weighted:
            if not pin.state:  # a closed switch pulls its line low against the pull-up
                closed |= weight
        return closed

    def close(self) -> None:
        for device in (*self._select, *self._signal):
            device.close()
        self._select.clear()
        self._signal.clear()


GroupWrite = Callable[[int | None, int, int, int], int]
"""lgpio's C call (handle, group, bits, mask) -> status: drive the group's lines of `mask` to `bits`."""
GroupRead = Callable[[int | None, int], tuple[int, int]]
"""lgpio's C call (handle, group) -> (status, levels): read the group's lines, bit n for line n."""


class GroupLines:
    """The lines as two lgpio groups on the chip of gpiozero's lgpio factory.

    The groups are claimed on a handle of their own, so closing it frees them; gpiozero
    never sees these pins (the profile gives every pin one job).
    """

    def __init__(self, select: Sequence[int], signal: Sequence[int], initial: int,
                 chip: int) -> None:
        import lgpio

        self._lgpio = lgpio
        # A scan's two calls go straight to lgpio's C layer (`lgpio._lgpio`, whose every
        # function is one request to the kernel), and their status is checked here as
        # lgpio's Python wrappers would check it: the wrappers took half the Python time
        # of an idle frame.  (lgpio ships no types: `GroupWrite` and `GroupRead` say what
        # the calls take and give; they refuse the handle None, a closed chip's.)
        self._write: GroupWrite = lgpio._lgpio._group_write
        self._read: GroupRead = lgpio._lgpio._group_read
        self._handle: int | None = lgpio.gpiochip_open(chip)
        self._select = select[0]  # lgpio names a group by its first line
        self._signal = signal[0]
        self._all_high = (1 << len(signal)) - 1
        try:
            with claiming(select, lambda: self._busy(select)):
                lgpio.group_claim_output(self._handle, list(select),
                                         [initial >> line & 1 for line in range(len(select))])
            with claiming(signal, lambda: self._busy(signal)):
                lgpio.group_claim_input(self._handle, list(signal), lgpio.SET_PULL_UP)
        except BaseException:
            self.close()
            raise

    def _busy(self, pins: Sequence[int]) -> list[int]:
        """The `pins` another holder has: each is claimed alone as an input, and let go."""
        busy: list[int] = []
        for pin in pins:
            try:
                self._lgpio.gpio_claim_input(self._handle, pin)
            except self._lgpio.error as error:
                if "busy" in str(error).lower():
                    busy.append(pin)
            else:
                self._lgpio.gpio_free(self._handle, pin)
        return busy

    def set_select(self, line: int, level: bool) -> None:
        status = self._write(self._handle, self._select, level << line, 1 << line)
        if status < 0:
            raise self._lgpio.error(self._lgpio.error_text(status))

    def read_closed(self) -> int:
        status, levels = self._read(self._handle, self._signal)
        if status < 0:
            raise self._lgpio.error(self._lgpio.error_text(status))
        return levels ^ self._all_high  # a closed switch pulls its line low

    def close(self) -> None:
        if self._handle is not None:
            # Closing the chip handle frees both groups.
            self._lgpio.gpiochip_close(self._handle)
            self._handle = None


def open_mux_lines(select: Sequence[int], signal: Sequence[int], initial: int,
                   pin_factory: Factory | None = None) -> MuxLines:
    """The select and signal lines, select lines first driven to channel `initial`.

    `pin_factory` None means gpiozero's default (``GPIOZERO_PIN_FACTORY``, else lgpio
    where it is installed); on gpiozero's lgpio factory the lines are lgpio groups.
    """
    if pin_factory is None:
        Device.ensure_pin_factory()
        pin_factory = Device.pin_factory
    # Only a factory from gpiozero's lgpio module can be one, and then it is imported.
    lgpio_pins = sys.modules.get("gpiozero.pins.lgpio")
    if lgpio_pins is not None and isinstance(pin_factory, lgpio_pins.LGPIOFactory):
        return GroupLines(select, signal, initial, pin_factory.chip)
    return DeviceLines(select, signal, initial, pin_factory)
