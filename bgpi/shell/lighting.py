"""The runner's fourth job: what the board's LEDs show.

`BoardLights` shows the core's lighting (`Table.lighting`, roles turned into colours and
blink phases by `bgpi.table.lights`) with the runner's alerts where the core lights
nothing (a damaged journal, a faulty switch: "rejected" until a board time), and the
dice tumbling over it while a roll is shown (`bgpi.hardware.dice.Tumble`).  It writes
the LEDs only when something changes: the lighting, a blink edge, a tumbling face; and
it says when time alone next changes what it shows (`next_change`), so that an idle
frame need not ask.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable

from bgpi.board.locations import Location
from bgpi.board.profile import LedConfig
from bgpi.hardware.dice import Tumble, tumble
from bgpi.hardware.leds import Leds
from bgpi.table.lights import DICE_COLOUR, Lighting, colours, next_change


class BoardLights:
    """A board's LEDs as the runner shows them; see the module docstring."""

    def __init__(self, leds: Leds, config: LedConfig) -> None:
        self.leds = leds
        self.config = config
        self.shown: Lighting | None = None
        """The lighting on show (replaced, never changed, when it changes); None before the first."""
        self.alerts: dict[Location, float] = {}
        """Locations lit "rejected" for a fault the table knows nothing of, until a board
        time (infinity: for good)."""
        self._blink: float | None = None  # board time of the next blink edge
        self._tumble: Tumble | None = None  # the dice animation under way
        self._faces: tuple[int, int] | None = None  # the tumbling faces last shown

    def alert(self, locations: Iterable[Location], until: float) -> None:
        """Light `locations` "rejected" until board time `until`, where nothing else is lit."""
        self.alerts.update(dict.fromkeys(locations, until))

    def with_alerts(self, lighting: Lighting, now: float) -> Lighting:
        """`lighting` with the alerts of board time `now` where it lights nothing."""
        alerts = [location for location, until in self.alerts.items() if now < until]
        if not alerts:
            return lighting
        return dataclasses.replace(lighting, roles=dict.fromkeys(alerts, "rejected") | dict(lighting.roles))

    def tumble(self, now: float, dice: tuple[int, int]) -> None:
        """Tumble the dice from board time `now` until they show `dice` (shown frame by
        frame by `show`, while the scans go on)."""
        self._tumble = Tumble(now, tuple(tumble(dice)))

    def show(self, lighting: Lighting, now: float, redraw: bool = False) -> None:
        """Show `lighting` (with the alerts) at board time `now` if it changed, at a blink
        edge, at every step of a dice animation, or when asked to `redraw` (after
        something else was shown on the LEDs)."""
        lighting = self.with_alerts(lighting, now)
        changed = redraw or lighting != self.shown
        tumbling = self._tumble
        faces = None if tumbling is None else tumbling.faces_at(now)
        if faces is None:
            self._tumble = tumbling = None
        if changed or faces != self._faces or (self._blink is not None and now >= self._blink):
            if changed:
                self.shown = lighting
            lit = colours(lighting, self.config, now)
            if tumbling is not None and faces is not None:
                lit = tumbling.over(lit, self.config, faces, DICE_COLOUR)
            self.leds.show(lit)
            self._faces = faces
            self._blink = next_change(lighting, now)

    def next_change(self, now: float) -> float:
        """The board time at which time alone changes what is shown: the next blink edge,
        the end of an alert; 0 while the dice tumble (every frame); infinity if never."""
        if self._tumble is not None:
            return 0.0
        until = min([until for until in self.alerts.values() if until > now], default=math.inf)
        return until if self._blink is None else min(until, self._blink)
