"""A board whose switches, buttons and LEDs are the co-processor's, over the link; and
`open_board`, the one factory of every kind of board.

`open_link_board` gives the `Board` the shell drives on the Pi (`bgpi.hardware.board`):
`scanner.scan()` returns the latest frame the firmware reported (already debounced
there: the shell does not debounce it again), `buttons` hands over its presses and
`leds` sends the colours.  While the link is down the last frame stands and
`connected` is False: the shell pauses play until it is back.  The simulated Pico
(`open_pty_board`) is such a board, its hands inside the firmware's process.

`open_board` opens the board a `BoardKind` names, the one place that tells the kinds
apart; it lives here because this package may import `bgpi.hardware`, not the reverse.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bgpi.board.profile import BUTTON_NAMES, Profile
from bgpi.exc import BoardKindError, LinkUnavailableError
from bgpi.hardware.board import Board, BoardDevices, BoardKind, open_pi_board, open_sim_board
from bgpi.hardware.buttons import ButtonPress
from bgpi.hardware.frames import Frame
from bgpi.hardware.leds import Leds, SimulatedPixels
from bgpi.link.link import Link
from bgpi.link.pinout import config_args

if TYPE_CHECKING:
    from bgpi.link.simpico import SimPico

CONNECT_S = 5.0
"""How long `connect` waits for the handshake."""


class LinkScanner:
    """Frames from the firmware: `scan` pumps the link and returns the newest frame.

    `step`, if given, is called before each scan (a simulated Pico in lockstep moves its
    clock there and says which frame it sent last; the scan waits for it)."""

    def __init__(self, link: Link, step: Callable[[], int | None] | None = None) -> None:
        self.link = link
        self.step = step
        self.scans = 0

    def scan(self) -> Frame:
        link = self.link
        self.scans += 1
        if self.step is None:
            link.pump()
            return link.frame
        last = self.step()
        link.pump()
        if last is not None and link.connected:
            # In lockstep every frame the firmware wrote this step is read before the scan.
            for _ in range(200):
                if link.receiver.reached(last) or not link.connected:
                    break
                link.pump(wait=0.01)
        return link.frame

    def close(self) -> None:
        self.link.close()


class LinkPixels(SimulatedPixels):
    """The LED chain as `Leds` sees it: each `show` also sends the colours to the firmware."""

    def __init__(self, link: Link, count: int) -> None:
        super().__init__(count)
        self.link = link

    def show(self) -> None:
        super().show()
        self.link.show(self.shown)


class LinkButtons:
    """The presses the firmware reported, as `bgpi.hardware.buttons.Buttons` hands them over."""

    def __init__(self, link: Link) -> None:
        self.link = link

    def next_press(self, timeout: float | None = None) -> ButtonPress | None:
        """The oldest press not yet taken, waiting up to `timeout` s (None: for ever)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.link.presses:
            left = 0.05 if deadline is None else deadline - time.monotonic()
            if left <= 0:
                return None
            self.link.pump(wait=min(left, 0.05))
        index, kind = self.link.presses.popleft()
        if index >= len(BUTTON_NAMES):
            return None
        return ButtonPress(BUTTON_NAMES[index], long=kind == "long")

    def pressed(self) -> list[str]:
        return [name for i, name in enumerate(BUTTON_NAMES) if self.link.keys >> i & 1]

    def close(self) -> None:
        pass


@dataclass
class LinkBoard(BoardDevices):
    """A `Board` on the co-processor; `link` says whether it is connected.  Its frames
    come debounced and at the firmware's own pace, and the live loop sleeps on the link,
    woken by what the firmware sends."""

    debounced: bool = True
    own_pace: bool = True
    link: Link = field(kw_only=True)

    @property
    def connected(self) -> bool:
        return self.link.connected

    def wait(self, seconds: float) -> None:
        self.link.wait(seconds)

    def status(self) -> str:
        return self.link.status()

    def connect(self, timeout: float = CONNECT_S) -> None:
        """Wait for the handshake; LinkUnavailableError naming why if it is not done in `timeout` s.

        Raises `bgpi.link.link.FirmwareRefusedError` for a firmware this host cannot use."""
        deadline = time.monotonic() + timeout
        while not self.link.connected:
            if time.monotonic() > deadline:
                raise LinkUnavailableError(self.link.status())
            self.link.pump(wait=0.02)


@dataclass
class PtyBoard(LinkBoard):
    """A `LinkBoard` on the simulated Pico, in lockstep: each scan is one of its periods.

    `hands` hold the checkers and press the buttons (`PicoHands`); nobody watches its
    LEDs, so the dice do not tumble."""

    animates_dice: bool = False
    pico: SimPico = field(kw_only=True)
    directory: tempfile.TemporaryDirectory[str] = field(kw_only=True)

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.pico.close()
            self.directory.cleanup()


def open_link_board(profile: Profile, url: str, clock: Callable[[], float] = time.monotonic,
                    step: Callable[[], int | None] | None = None) -> LinkBoard:
    """The board behind the firmware at `url` (``/dev/ttyACM0``, or a pyserial URL).

    Raises PinoutError for a profile the Pico pinout cannot wire.  The link connects on
    the first scans; see `bgpi.link.link.Link` for `clock`, and `LinkScanner` for `step`."""
    link = Link(url, config_args(profile), clock=clock)
    return LinkBoard(profile, LinkScanner(link, step), Leds(profile.leds, LinkPixels(link, profile.leds.count)),
                     LinkButtons(link), link=link)


def open_pty_board(profile: Profile) -> PtyBoard:
    """The simulated Pico's board, connected.  Its link's clock is its scans: board time."""
    # The simulated Pico runs on gpiozero's mock pins: imported only for it.
    from bgpi.link.simpico import PicoHands, SimPico

    directory = tempfile.TemporaryDirectory(prefix="bgpi-pico-")
    pico = SimPico(Path(directory.name))
    try:
        scanner = LinkScanner(Link(str(pico.port), config_args(profile)), pico.step)
        period = 1 / profile.sensors.scan_hz
        scanner.link.clock = lambda: scanner.scans * period
        link = scanner.link
        board = PtyBoard(profile, scanner, Leds(profile.leds, LinkPixels(link, profile.leds.count)),
                         LinkButtons(link), hands=PicoHands(profile, pico), link=link, pico=pico,
                         directory=directory)
        board.connect()
    except BaseException:
        pico.close()
        directory.cleanup()
        raise
    return board


def open_board(profile: Profile, kind: BoardKind) -> Board:
    """The board `kind` names (`bgpi.hardware.board.board_kind`): the one place that tells
    the kinds apart, as gpiozero's pin factory is chosen by name.

    A co-processor on serial connects on the first scans (and reconnects whenever it
    must; `Board.connect` waits for it); the simulated Pico is connected at once."""
    match kind.name:
        case "sim":
            return open_sim_board(profile)
        case "pi":
            return open_pi_board(profile)
        case "pty":
            return open_pty_board(profile)
        case "serial" if kind.device is not None:
            return open_link_board(profile, kind.device)
    raise BoardKindError(f"no such board kind: {kind}")  # board_kind makes none other
