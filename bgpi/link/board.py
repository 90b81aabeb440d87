"""A board whose switches, buttons and LEDs are the co-processor's, over the link.

`open_link_board` gives the same `Board` the shell drives on the Pi: `scanner.scan()`
returns the latest frame the firmware reported (already debounced there; debouncing it
again costs the host a frame or two, nothing more), `buttons` hands over its presses and
`leds` sends the colours.  While the link is down the last frame stands and
`link.connected` is False: the shell pauses play until it is back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Self

from bgpi.hardware.board import Board
from bgpi.hardware.buttons import ButtonPress
from bgpi.hardware.frames import Frame
from bgpi.hardware.leds import Leds, SimulatedPixels
from bgpi.hardware.profile import BUTTON_NAMES, Profile
from bgpi.link.link import Link
from bgpi.link.pinout import config_args

SCHEME = "serial:"
"""How a board kind names a co-processor: ``serial:/dev/ttyACM0``."""


class LinkScanner:
    """Frames from the firmware: `scan` pumps the link and returns the newest frame.

    `step`, if given, is called before each scan (a simulated Pico in lockstep moves its
    clock there and says which frame it sent last; the scan waits for it)."""

    def __init__(self, link: Link, step: Callable[[], int | None] | None = None) -> None:
        self.link = link
        self.step = step

    def scan(self) -> Frame:
        link = self.link
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
        """The oldest press not yet taken (the link is pumped by the scans, so no wait)."""
        if not self.link.presses:
            return None
        index, kind = self.link.presses.popleft()
        if index >= len(BUTTON_NAMES):
            return None
        return ButtonPress(BUTTON_NAMES[index], long=kind == "long")

    def pressed(self) -> list[str]:
        return [name for i, name in enumerate(BUTTON_NAMES) if self.link.keys >> i & 1]

    def close(self) -> None:
        pass


@dataclass
class LinkBoard(Board):
    """A `Board` on the co-processor; `link` says whether it is connected."""

    link: Link | None = None

    def __enter__(self) -> Self:
        return self


def open_link_board(profile: Profile, url: str, clock: Callable[[], float] | None = None,
                    step: Callable[[], int | None] | None = None, **link_options) -> LinkBoard:
    """The board behind the firmware at `url` (``/dev/ttyACM0``, or a pyserial URL).

    Raises ValueError for a profile the Pico pinout cannot wire.  The link connects on
    the first scans; see `bgpi.link.link.Link` for `clock` and the other options."""
    options = dict(link_options)
    if clock is not None:
        options["clock"] = clock
    link = Link(url, config_args(profile), **options)
    return LinkBoard(profile, LinkScanner(link, step), Leds(profile.leds, LinkPixels(link, profile.leds.count)),
                     LinkButtons(link), sim=None, link=link)
