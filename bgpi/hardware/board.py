"""Opening a whole board, real or simulated, from its profile."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Self

from bgpi.hardware.buttons import Buttons
from bgpi.hardware.leds import Leds, SimulatedPixels, open_pixels
from bgpi.hardware.profile import Profile
from bgpi.hardware.scanner import Scanner

if TYPE_CHECKING:
    from bgpi.hardware.mockboard import SimulatedBoard

BOARD_KINDS = ("sim", "pi")
DEVICE_TREE_MODEL = Path("/proc/device-tree/model")


def running_on_pi(model_file: Path = DEVICE_TREE_MODEL) -> bool:
    """True on a Raspberry Pi, as its device tree names the machine."""
    try:
        return model_file.read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


def default_board_kind() -> str:
    """"pi" on a Raspberry Pi, "sim" anywhere else."""
    return "pi" if running_on_pi() else "sim"


@dataclass
class Board:
    """A board's scanner, LEDs and buttons; `sim` is its `SimulatedBoard`, if simulated."""

    profile: Profile
    scanner: Scanner
    leds: Leds
    buttons: Buttons
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


def open_board(profile: Profile, kind: str) -> Board:
    """The board `kind` ("pi": the real pins and LEDs; "sim": mock pins, simulated LEDs).

    A simulated board scans without settle time: mock pins need none.
    """
    if kind == "sim":
        # gpiozero's mock pins are imported only here: a real board starts without them.
        from bgpi.hardware.mockboard import SimulatedBoard

        sim = SimulatedBoard(profile)
        factory = sim.factory
        wiring = dataclasses.replace(profile.sensors, settle_us=0.0)
        leds = Leds(profile.leds, SimulatedPixels(profile.leds.count))
    elif kind == "pi":
        sim = factory = None
        wiring = profile.sensors
        leds = Leds(profile.leds, open_pixels(profile.leds))
    else:
        raise ValueError(f"unknown board kind {kind!r}: expected one of {', '.join(BOARD_KINDS)}")
    scanner = Scanner(wiring, pin_factory=factory)
    try:
        buttons = Buttons(profile.buttons, pin_factory=factory)
    except BaseException:
        scanner.close()
        raise
    return Board(profile, scanner, leds, buttons, sim)
