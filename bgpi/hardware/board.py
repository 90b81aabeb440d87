"""A board, whatever drives it: the one interface the shell runs a table on.

`Board` is what the shell needs of a board and nothing else: its switches to scan
(`SwitchReader`), its LEDs (`Leds`), its buttons (`ButtonReader`), a simulated board's
`Hands`, and the few things boards differ in, as data (`debounced`, `own_pace`,
`animates_dice`) and behaviour (`connected`, `wait`, `status`), never as a kind to test.

There are three implementations: the Pi's own pins and SPI LEDs and the simulated board
on gpiozero's mock pins (`BoardDevices`, here), and a board behind a Pico co-processor
over the serial link, the simulated Pico behind a pseudo-terminal among them
(`bgpi.link.board.LinkBoard`).  Which one runs is chosen once, from the `BoardKind` the
user's text names (`board_kind`: sim, pi, pty or serial:DEVICE), by the one factory
`bgpi.link.board.open_board`, as gpiozero chooses its pin factory by name: it sits in
the link package, which may import this one.

>>> board_kind("serial:/dev/ttyACM0")
BoardKind(name='serial', device='/dev/ttyACM0', simulated=False, pico=True, pi_pins=False, live=True)
>>> str(board_kind("sim")), board_kind("sim").simulated
('sim', True)
"""

from __future__ import annotations

import dataclasses
import errno
import grp
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, Self

from bgpi.board.colours import Colour
from bgpi.board.locations import Location
from bgpi.board.profile import DICE, TURN_LIGHTS, LedConfig, Profile, Switch
from bgpi.exc import BoardError, BoardKindError, PinsBusyError
from bgpi.hardware.bootconfig import pi_model, pin_conflicts, read_boot_config
from bgpi.hardware.buttons import ButtonPress, Buttons
from bgpi.hardware.frames import Frame
from bgpi.hardware.leds import Leds, SimulatedPixels, open_pixels
from bgpi.hardware.scanner import Scanner
from bgpi.hardware.wiring import pin_roles

DEVICE_TREE_MODEL = Path("/proc/device-tree/model")
DEVICES = Path("/dev")
PERMISSION_ADVICE = ("run as a user in the group gpio, with the device given to that group "
                     "(sudo systemd/install.sh adds a udev rule for it where the system has none)")
FAULT_COLOUR: Colour = (255, 0, 0)
SERIAL = "serial:"
"""How a board kind names a co-processor: ``serial:/dev/ttyACM0``."""


# -- the kinds of board ------------------------------------------------------------------


@dataclass(frozen=True)
class BoardKind:
    """A kind of board, as the user names it (`board_kind`), with what the commands must
    know of it before it opens."""

    name: str
    """"sim", "pi", "pty" or "serial"."""
    device: str | None = None
    """The serial device (or pyserial URL) of a co-processor; None for the others."""
    simulated: bool = False
    """A board in memory, whose checkers and buttons hands move (`Board.hands`): sim, pty."""
    pico: bool = False
    """Its switches, LEDs and buttons are wired to a Pico co-processor (its wiring tables)."""
    pi_pins: bool = False
    """Driven by this Raspberry Pi's own pins: its boot configuration must leave them free."""
    live: bool = True
    """`bgpi run` can run it; the simulated Pico runs in lockstep with a replay only."""

    def __str__(self) -> str:
        return self.name if self.device is None else f"{self.name}:{self.device}"


SIM = BoardKind("sim", simulated=True)
"""The simulated board: gpiozero's mock pins, simulated LEDs."""
PI = BoardKind("pi", pi_pins=True)
"""The real board on the Raspberry Pi's pins and SPI LEDs."""
PTY = BoardKind("pty", simulated=True, pico=True, live=False)
"""The simulated Pico: the real firmware behind a pseudo-terminal, in lockstep."""
BOARD_KINDS = (SIM, PI, PTY)
"""Every kind but a co-processor on a serial device, which `serial_board` names."""


def serial_board(device: str) -> BoardKind:
    """A board behind a Pico co-processor on `device` (``/dev/ttyACM0``, a pyserial URL)."""
    return BoardKind("serial", device, pico=True)


def board_kind(text: str) -> BoardKind:
    """The board kind `text` names: sim, pi, pty or serial:DEVICE (also argparse's type);
    BoardKindError (a ValueError) for anything else."""
    for kind in BOARD_KINDS:
        if text == kind.name:
            return kind
    if text.startswith(SERIAL) and text != SERIAL:
        return serial_board(text.removeprefix(SERIAL))
    raise BoardKindError(f"unknown board {text!r}: expected sim, pi, pty or serial:DEVICE")


def running_on_pi(model_file: Path = DEVICE_TREE_MODEL) -> bool:
    """True on a Raspberry Pi, as its device tree names the machine."""
    try:
        return model_file.read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


def default_board_kind() -> BoardKind:
    """The real board (`PI`) on a Raspberry Pi, the simulated one (`SIM`) anywhere else."""
    return PI if running_on_pi() else SIM


# -- what the shell needs of a board ---------------------------------------------------------


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


class Hands(Protocol):
    """The hands of a simulated board: they move its checkers, hold its switches and press
    its buttons (`bgpi.hardware.mockboard.SimulatedBoard` on mock pins, and
    `bgpi.link.simpico.PicoHands`, which does it all inside the simulated Pico)."""

    def checkers(self, location: Location) -> int:
        """Checkers standing on `location`."""
        ...

    def place(self, location: Location, count: int = 1) -> None:
        """Put `count` checkers down on `location`."""
        ...

    def lift(self, location: Location, count: int = 1) -> None:
        """Pick `count` checkers up from `location`; HandsError if there are fewer."""
        ...

    def set_checkers(self, location: Location, count: int) -> None:
        """Make `location` hold exactly `count` checkers."""
        ...

    def clear(self) -> None:
        """Take every checker off and release every held switch."""
        ...

    def set_switch(self, switch: Switch, closed: bool) -> None:
        """Hold `switch` closed or open whatever stands on it, until `release_switch`."""
        ...

    def release_switch(self, switch: Switch) -> None:
        """Let `switch` follow the checkers again."""
        ...

    def press(self, name: str, long: bool = False) -> ButtonPress | None:
        """Press button `name` (hold it, if `long`) through the board, which reports it
        (`Board.buttons`); or, where the board cannot in its own time, return the press
        for the table to be handed straight (a hold on mock pins would take a second)."""
        ...


class Board(Protocol):
    """A board as the shell runs a table on it; see the module docstring."""

    @property
    def profile(self) -> Profile: ...

    @property
    def scanner(self) -> SwitchReader: ...

    @property
    def leds(self) -> Leds: ...

    @property
    def buttons(self) -> ButtonReader: ...

    @property
    def hands(self) -> Hands | None:
        """A simulated board's hands; None on a real one."""
        ...

    @property
    def debounced(self) -> bool:
        """Its frames come debounced already (a co-processor's): once more would cost a frame."""
        ...

    @property
    def own_pace(self) -> bool:
        """It sends frames at its own pace (a co-processor): scanned at the full rate, never
        left out while idle."""
        ...

    @property
    def animates_dice(self) -> bool:
        """Its LEDs are seen (a real board): the dice tumble before they show a roll."""
        ...

    @property
    def connected(self) -> bool:
        """True while it can be read (a co-processor's link may drop: play pauses)."""
        ...

    def connect(self, timeout: float = ...) -> None:
        """Wait until it can be read (a co-processor's handshake); LinkUnavailableError
        if it cannot be within `timeout` s."""
        ...

    def wait(self, seconds: float) -> None:
        """How the live loop sleeps between frames: `seconds` at most."""
        ...

    def status(self) -> str:
        """One line on its connection, said when `connected` changes."""
        ...

    def close(self) -> None:
        """Lights off, pins (or the link) released."""
        ...


def fault_lights(config: LedConfig) -> dict[int, Colour]:
    """The LEDs of a board that cannot start: every pip of both dice and both turn
    lights steady red (hardware/legend.md)."""
    return dict.fromkeys((index for target in (*DICE, *TURN_LIGHTS)
                          for index in config.targets[target]), FAULT_COLOUR)


# -- the boards on pins ----------------------------------------------------------------------


@dataclass
class BoardDevices:
    """A `Board` on pins: the Pi's own (`open_pi_board`) or gpiozero's mock pins
    (`open_sim_board`, whose `hands` move its checkers)."""

    profile: Profile
    scanner: SwitchReader
    leds: Leds
    buttons: ButtonReader
    hands: Hands | None = None
    debounced: bool = False
    own_pace: bool = False
    animates_dice: bool = True

    @property
    def connected(self) -> bool:
        """Pins are always there to be read."""
        return True

    def connect(self, timeout: float = 0.0) -> None:
        """Nothing to wait for: the pins are open."""

    def wait(self, seconds: float) -> None:
        time.sleep(seconds)

    def status(self) -> str:
        return "the board's pins are open"

    def close(self) -> None:
        """Lights off, pins released."""
        self.leds.off()
        self.scanner.close()
        self.buttons.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_sim_board(profile: Profile) -> BoardDevices:
    """The simulated board: mock pins, simulated LEDs, hands to move its checkers.

    Mock pins need no settle time, and bounce no more than a hand lets them: a script's
    presses come as fast as the machine goes."""
    # gpiozero's mock pins are imported only here: a real board starts without them.
    from bgpi.hardware.mockboard import SimulatedBoard

    hands = SimulatedBoard(profile)
    wiring = dataclasses.replace(profile.sensors, settle_us=0.0)
    leds = Leds(profile.leds, SimulatedPixels(profile.leds.count))
    scanner = Scanner(wiring, pin_factory=hands.factory)
    try:
        buttons = Buttons(dataclasses.replace(profile.buttons, bounce_ms=0.0), pin_factory=hands.factory)
    except BaseException:
        scanner.close()
        raise
    return BoardDevices(profile, scanner, leds, buttons, hands, animates_dice=False)


def open_pi_board(profile: Profile) -> BoardDevices:
    """The real board: the Pi's pins and its SPI LEDs.

    It opens its LEDs first: if the pins then fail, the LEDs show `fault_lights` (and keep
    showing them after the program ends).  Whatever stops it comes out as one `BoardError`.
    """
    # The pin and LED libraries and the kernel each fail in their own way: every one of
    # those failures, whatever its type, is the builder's to fix, so each is explained.
    try:
        leds = Leds(profile.leds, open_pixels(profile.leds))
    except Exception as error:
        raise BoardError(explain(error, profile)) from error
    try:
        scanner, buttons = _open_pins(profile)
    except Exception as error:
        leds.show(fault_lights(profile.leds))
        raise BoardError(explain(error, profile)) from error
    return BoardDevices(profile, scanner, leds, buttons)


def _open_pins(profile: Profile) -> tuple[Scanner, Buttons]:
    """The switches and buttons on gpiozero's default pin factory (lgpio on a Pi)."""
    scanner = Scanner(profile.sensors)
    try:
        return scanner, Buttons(profile.buttons)
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
