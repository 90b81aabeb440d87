"""The board's lights: the role each location plays → LED colours and blink pattern.

The controller decides roles (the LED vocabulary of the architecture: `ROLES`); this
module turns a `Lighting` into the colour of each LED at a moment of board time, into
the ``roles`` of the table log's ``lights`` event, and into one-character marks for the
text board.  It knows no game rules, no pins and no clock: time comes in as seconds of
board time, so blinking is as deterministic as everything else in the core.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from bgpi.hardware.dice import PIP_PATTERNS, dice_indices
from bgpi.hardware.leds import Colour
from bgpi.hardware.locations import LOCATIONS, Location
from bgpi.hardware.profile import LedConfig
from bgpi.rules.position import Side

ROLES: tuple[str, ...] = (
    "source", "destination", "hit", "rejected", "hint", "missing", "extra", "setup",
)


@dataclass(frozen=True)
class Look:
    """How a role shows: a colour, steady or blinking, and its mark on the text board.

    A blinking look is lit for the first `duty` of each `period`, counted from board
    time 0, so every light with the same period blinks in step.
    """

    colour: Colour
    mark: str
    period: float | None = None
    """Seconds of one blink cycle; None for a steady light."""
    duty: float = 0.5

    def lit(self, now: float) -> bool:
        """Whether the light is on at board time `now`."""
        if self.period is None:
            return True
        return now - self._cycle_start(now) < self.duty * self.period

    def next_edge(self, now: float) -> float | None:
        """The first board time after `now` at which the light turns on or off."""
        if self.period is None:
            return None
        start = self._cycle_start(now)
        off = start + self.duty * self.period
        return off if off > now else start + self.period

    def _cycle_start(self, now: float) -> float:
        assert self.period is not None
        return math.floor(now / self.period) * self.period


LOOKS: Mapping[str, Look] = MappingProxyType({
    "source": Look((255, 255, 255), "S", period=1.0),
    "destination": Look((0, 255, 0), "D"),
    "combined destination": Look((0, 72, 0), "d"),
    "hit": Look((255, 120, 0), "H"),
    "rejected": Look((255, 0, 0), "R", period=0.25),
    "hint": Look((0, 0, 255), "h"),
    "hint source": Look((0, 0, 255), "h", period=1.0),
    "missing": Look((255, 0, 0), "M"),
    "extra": Look((160, 0, 255), "E"),
    "setup": Look((64, 64, 64), "+"),
})
"""The default look of each role, and of the two variants `Lighting` can ask for: a
destination reached only with combined dice, and the source of a hinted step.  Colours
are full scale: the LED driver applies the profile's brightness cap and current budget."""

DICE_COLOUR: Colour = (255, 255, 255)
TURN_COLOUR: Colour = (255, 255, 255)


@dataclass(frozen=True)
class Lighting:
    """What the board shows: a role per lit location, the dice and the turn light.

    `combined` must be destinations and `hint_from` hints; ValueError otherwise, and for
    a role not in `ROLES`, a key that is not a `Location` or a die face outside 1..6.
    """

    roles: Mapping[Location, str] = field(default_factory=dict)
    combined: frozenset[Location] = frozenset()
    """Destinations reached only with combined dice: shown dimmer than one die's."""
    hint_from: frozenset[Location] = frozenset()
    """Hinted locations a checker leaves: they blink, where it lands stays steady."""
    dice: tuple[int, int] | None = None
    """The faces shown on the dice LEDs; None leaves the dice dark."""
    turn: Side | None = None
    """The side whose turn light is lit."""

    def __post_init__(self) -> None:
        for location, role in self.roles.items():
            if type(location) not in (int, str) or location not in LOCATIONS:
                raise ValueError(f"unknown location {location!r} lit {role!r}")
            if role not in ROLES:
                raise ValueError(f"unknown role {role!r} for {location!r}: "
                                 f"expected one of {', '.join(ROLES)}")
        for name, subset, role in (("combined", self.combined, "destination"),
                                   ("hint_from", self.hint_from, "hint")):
            if stray := [location for location in subset if self.roles.get(location) != role]:
                raise ValueError(f"{name} lists {stray!r}, which are not lit {role!r}")
        if self.dice is not None and not all(face in PIP_PATTERNS for face in self.dice):
            raise ValueError(f"dice faces must be 1..6, got {self.dice!r}")
        # Frozen all the way down: a Lighting handed to the service cannot change under it.
        object.__setattr__(self, "roles", MappingProxyType(dict(self.roles)))
        object.__setattr__(self, "combined", frozenset(self.combined))
        object.__setattr__(self, "hint_from", frozenset(self.hint_from))

    def looks(self) -> dict[Location, Look]:
        """How each lit location shows."""
        return {location: LOOKS["combined destination"] if location in self.combined
                else LOOKS["hint source"] if location in self.hint_from
                else LOOKS[role]
                for location, role in self.roles.items()}


def colours(lighting: Lighting, leds: LedConfig, now: float) -> dict[int, Colour]:
    """LED index → colour of every LED lit at board time `now`; every other LED is off.

    A location lights all of its LEDs in the profile; one the profile gives no LED (a
    board without tray LEDs) is skipped.
    """
    lit: dict[int, Colour] = {}
    for location, look in lighting.looks().items():
        if look.lit(now):
            for index in leds.targets.get(str(location), ()):
                lit[index] = look.colour
    if lighting.dice is not None:
        lit.update(dict.fromkeys(dice_indices(leds, lighting.dice), DICE_COLOUR))
    if lighting.turn is not None:
        lit.update(dict.fromkeys(leds.targets.get(f"turn:{lighting.turn.label}", ()),
                                 TURN_COLOUR))
    return lit


def next_change(lighting: Lighting, now: float) -> float | None:
    """The first board time after `now` at which a light blinks on or off; None if none blinks."""
    edges = [edge for look in set(lighting.looks().values())
             if (edge := look.next_edge(now)) is not None]
    return min(edges, default=None)


def log_roles(lighting: Lighting) -> dict[str, str]:
    """The ``roles`` of a ``lights`` event: ``{"24": "source", "bar:white": "hit"}``.

    Keys in board order (points 1..24, bars, trays), so equal lightings log equal lines.
    """
    return {str(location): lighting.roles[location]
            for location in LOCATIONS if location in lighting.roles}


def marks(lighting: Lighting) -> dict[Location, str]:
    """One character per lit location, for `bgpi.shell.textboard.draw`; see `legend`."""
    return {location: look.mark for location, look in lighting.looks().items()}


def legend() -> str:
    """One line explaining the characters of `marks`."""
    meanings: dict[str, str] = {}
    for name, look in LOOKS.items():
        # The hint's source shares the hint's mark: on paper nothing blinks.
        meanings.setdefault(look.mark, name)
    return "lights: " + ", ".join(f"{mark} {name}" for mark, name in meanings.items())
