"""Opening a whole board, real or simulated, from its profile.

A board is `BoardDevices`: switches to scan (`SwitchReader`), LEDs (`Leds`, over any
`bgpi.hardware.leds.Pixels`) and buttons (`ButtonReader`), whoever provides them: pins
here, the co-processor's link in `bgpi.link.board`.
"""

from __future__ import annotations

import dataclasses
import errno
import grp
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Self

from gpiozero.pins import Factory

from bgpi.board.colours import Colour
from bgpi.board.profile import DICE, TURN_LIGHTS, LedConfig, Profile, SensorWiring
from bgpi.exc import BoardError, BoardKindError, PinsBusyError
from bgpi.hardware.bootconfig import pi_model, pin_conflicts, read_boot_config
from bgpi.hardware.buttons import ButtonPress, Buttons
from bgpi.hardware.frames import Frame
from bgpi.hardware.leds import Leds, SimulatedPixels, open_pixels
from bgpi.hardware.scanner import Scanner
from bgpi.hardware.wiring import pin_roles

if TYPE_CHECKING:
    from bgpi.hardware.mockboard import SimulatedBoard

BOARD_KINDS = ("sim", "pi")
DEVICE_TREE_MODEL = Path("/proc/device-tree/model")
DEVICES = Path("/dev")
PERMISSION_ADVICE = ("run as a user in the group gpio, with the device given to that group "
                     "(sudo systemd/install.sh adds a udev rule for it where the system has none)")
FAULT_COLOUR: Colour = (255, 0, 0)


def fault_lights(config: LedConfig) -> dict[int, Colour]:
    """The LEDs of a board that cannot start: every pip of both dice and both turn
    lights steady red (hardware/legend.md)."""
    return dict.fromkeys((index for target in (*DICE, *TURN_LIGHTS)
                          for index in config.targets[target]), FAULT_COLOUR)


def running_on_pi(model_file: Path = DEVICE_TREE_MODEL) -> bool:
    """True on a Raspberry Pi, as its device tree names the machine."""
    try:
        return model_file.read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


def default_board_kind() -> str:
    """"pi" on a Raspberry Pi, "sim" anywhere else."""
    return "pi" if running_on_pi() else "sim"


class SwitchReader(Protocol):
    """What the shell needs of a board's reed switches: `Scanner` on pins has it, and
    `bgpi.link.board.LinkScanner` on a co-processor."""

    def scan(self) -> Frame:
        """The switches now: bit i set where the switch on frame index i is closed."""
        ...

    def close(self) -> None:
        """Let the switches go (idempotent)."""
        ...


class ButtonReader(Protocol):
    """What the shell needs of a board's buttons: `Buttons` on pins has it, and
    `bgpi.link.board.LinkButtons` on a co-processor."""

    def next_press(self, timeout: float | None = None) -> ButtonPress | None:
        """The oldest press not yet taken, waiting up to `timeout` s (None: for ever)."""
        ...

    def pressed(self) -> list[str]:
        """The buttons down right now."""
        ...

    def close(self) -> None:
        """Let the buttons go (idempotent)."""
        ...


@dataclass
class BoardDevices:
    """A board's scanner, LEDs and buttons; `sim` is its `SimulatedBoard`, if simulated."""

    profile: Profile
    scanner: SwitchReader
    leds: Leds
    buttons: ButtonReader
    sim: SimulatedBoard | None = None

    @property
    def connected(self) -> bool:
        """True while the board can be read: always, on pins (a co-processor's link may drop)."""
        return True

    def close(self) -> None:
        """Lights off, pins released."""
        self.leds.off()
        self.scanner.close()
        self.buttons.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_board(profile: Profile, kind: str) -> BoardDevices:
    """The board `kind` ("pi": the real pins and LEDs; "sim": mock pins, simulated LEDs).

    A simulated board scans without settle time: mock pins need none.  The real board
    opens its LEDs first: if the pins then fail, the LEDs show `fault_lights` (and keep
    showing them after the program ends).  Whatever stops the real board comes out as
    one `BoardError`.
    """
    if kind == "sim":
        # gpiozero's mock pins are imported only here: a real board starts without them.
        from bgpi.hardware.mockboard import SimulatedBoard

        sim = SimulatedBoard(profile)
        wiring = dataclasses.replace(profile.sensors, settle_us=0.0)
        leds = Leds(profile.leds, SimulatedPixels(profile.leds.count))
        scanner, buttons = _open_pins(wiring, profile, sim.factory)
        return BoardDevices(profile, scanner, leds, buttons, sim)
    if kind != "pi":
        raise BoardKindError(f"unknown board kind {kind!r}: expected one of {', '.join(BOARD_KINDS)}")
    # The pin and LED libraries and the kernel each fail in their own way: every one of
    # those failures, whatever its type, is the builder's to fix, so each is explained.
    try:
        leds = Leds(profile.leds, open_pixels(profile.leds))
    except Exception as error:
        raise BoardError(explain(error, profile)) from error
    try:
        scanner, buttons = _open_pins(profile.sensors, profile, None)
    except Exception as error:
        leds.show(fault_lights(profile.leds))
        raise BoardError(explain(error, profile)) from error
    return BoardDevices(profile, scanner, leds, buttons)


def _open_pins(wiring: SensorWiring, profile: Profile, factory: Factory | None) -> tuple[Scanner, Buttons]:
    scanner = Scanner(wiring, pin_factory=factory)
    try:
        return scanner, Buttons(profile.buttons, pin_factory=factory)
    except BaseException:
        scanner.close()
        raise


def explain(error: Exception, profile: Profile) -> str:
    """One line for the builder: why the real board did not open, and what to do."""
    if isinstance(error, PinsBusyError):
        roles = pin_roles(profile)
        busy = {pin: roles.get(pin, "a pin of the board") for pin in error.pins}
        boot = read_boot_config(pi_model())
        if boot is not None and (holders := pin_conflicts(boot, busy)):
            return "; ".join(holders)
        named = ", ".join(f"GPIO{pin} ({role})" for pin, role in busy.items())
        return (f"{named} busy: another program holds it (a second bgpi? stop the service "
                "first: sudo systemctl stop bgpi) or a kernel driver does")
    if isinstance(error, ImportError):
        return (f"a Raspberry Pi package is missing ({error}): install bgpi with them "
                "(sudo systemd/install.sh, or pip install 'bgpi[pi]')")
    if isinstance(error, PermissionError):
        return (f"no permission to open {error.filename or 'a device'}: run as a user in the "
                "groups gpio and spi (the service's user bgpi is)")
    text = str(error)
    if len(text) > 1 and text[0] == text[-1] == "'":  # lgpio quotes its messages
        text = text[1:-1]
    if isinstance(error, AttributeError) and "'board'" in text:
        return (f"Blinka does not take this machine for a Raspberry Pi ({text}): run it on "
                "the Pi, or use --board sim")
    if "spidev" in text:
        return f"the LEDs' SPI bus is off ({text}): add dtparam=spi=on to config.txt and reboot"
    if "gpiochip" in text:
        return f"{text} (/dev/gpiochip*): {why_no_chip()}"
    return f"{type(error).__name__}: {text}"


def why_no_chip() -> str:
    """Why a GPIO chip would not open, found by opening each one in `DEVICES` again.

    lgpio's message carries no errno, and the usual cause on a system without the
    Raspberry Pi OS udev rules is a device only root may open.
    """
    chips = sorted(DEVICES.glob("gpiochip*"))
    for chip in chips:
        try:
            os.close(os.open(chip, os.O_RDWR))
        except OSError as error:
            if error.errno == errno.EACCES:
                return f"no permission to open {chip} ({_ownership(chip)}): {PERMISSION_ADVICE}"
            if error.errno == errno.EPERM:
                return (f"{chip} is refused to this process (EPERM): a service's DevicePolicy= "
                        "without DeviceAllow=char-gpiochip rw?")
            return f"{chip}: {error.strerror}"
    if chips:
        return f"the chip asked for is not among {', '.join(chip.name for chip in chips)}, which open"
    return "not a Raspberry Pi, or its GPIO device is missing"


def _ownership(device: Path) -> str:
    """"group root, mode 0600": who may open `device`."""
    info = device.stat()
    try:
        group = grp.getgrgid(info.st_gid).gr_name
    except KeyError:
        group = str(info.st_gid)
    return f"group {group}, mode {stat.S_IMODE(info.st_mode):04o}"
