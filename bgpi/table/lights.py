"""The board's lights: the role each location plays → LED colours and blink pattern.

The controller decides roles (the LED vocabulary of the architecture: `ROLES`) and what
the board asks (a `Prompt`: the situation, who answers, what each button does); this
module turns a `Lighting` into the colour of each LED at a moment of board time, into
the ``lights`` event of the table log, and into one-character marks for the text board.
How each prompt shows on the turn lights and the dice is `PROMPT_LOOKS`, the card
beside the board (hardware/legend.md) in code.  It knows no game rules, no pins and no
clock: time comes in as seconds of board time, so blinking is as deterministic as
everything else in the core.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from bgpi.board.colours import Colour
from bgpi.board.locations import LOCATIONS, Location
from bgpi.board.pips import PIP_PATTERNS
from bgpi.board.profile import DICE, LedConfig
from bgpi.exc import LightingError
from bgpi.rules.position import Side
from bgpi.table import events as ev

ROLES: tuple[str, ...] = (
    "source", "destination", "hit", "rejected", "hint", "missing", "extra", "setup",
)

CHAIR_ROLES: tuple[str, ...] = (
    "box", "partner", "centred", "seat_cube", "box_cube", "out", "marked", "won", "lost",
)
"""A chouette's roles of its chairs (each player's point, `bgpi.table.chairs`): the box
and its partner; a seat's cube centred, the seat's, the box's, or the seat out of the
game; a seat chosen; a player who won or lost the game."""


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
    other: Colour | None = None
    """The colour of the second part of each cycle; None: dark (a plain blink)."""

    def lit(self, now: float) -> bool:
        """Whether the light shows `colour` at board time `now` (else `other`, or dark)."""
        if self.period is None:
            return True
        return now - self._cycle_start(now) < self.duty * self.period

    def colour_at(self, now: float) -> Colour | None:
        """The colour shown at board time `now`; None when dark."""
        return self.colour if self.lit(now) else self.other

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
are full scale: the LED driver applies the profile's brightness cap and current budget.
A chouette's chair blinks in its role's colour: fast while it is asked (`ASKED_PERIOD`),
slowly for the captain (`CAPTAIN_PERIOD`)."""

CHAIR_LOOKS: Mapping[str, Look] = MappingProxyType({
    "box": Look((255, 0, 160), "X"),
    "partner": Look((96, 0, 64), "x"),
    "centred": Look((96, 96, 96), "o"),
    "seat_cube": Look((0, 255, 0), "c"),
    "box_cube": Look((255, 160, 0), "b"),
    "out": Look((96, 0, 0), "-"),
    "marked": Look((0, 200, 255), "*"),
    "won": Look((0, 160, 0), "W"),
    "lost": Look((255, 0, 0), "L"),
})
"""The look of each chair role.  The chairs are lit only where no checker is being moved
or set up, so they share colours with the roles of play (the cube's amber, the seat's
green); side by side among themselves their colours differ."""

ASKED_PERIOD = 0.5
CAPTAIN_PERIOD = 2.0

DICE_COLOUR: Colour = (255, 255, 255)
TURN_COLOUR: Colour = (255, 255, 255)
CUBE_COLOUR: Colour = (255, 160, 0)
"""Amber: on a turn light, the cube button answers (white: the turn button)."""
RED: Colour = (255, 0, 0)
GREEN: Colour = (0, 255, 0)
BLUE: Colour = (0, 64, 255)
DIM_BLUE: Colour = (0, 12, 48)
"""With `BLUE` in turn: the other board's player breathes on their turn light."""

PROMPTS: tuple[str, ...] = (
    "setup", "opening", "roll", "roll_or_double", "move", "no_play", "choose", "confirm_step", "doubled",
    "confirm_drop", "mismatch", "game_over", "match_over", "new_session", "resigning", "resign_offered",
    "remote_turn", "remote_away", "remote_abandoned", "remote_claim", "remote_refused",
    "roll_off", "seats", "seat_doubled", "results", "computer_turn",
)
"""Every situation in which the board waits for someone (see `Prompt`)."""

FULL = 7
"""A die "face" with every pip lit: no die shows it, so it never reads as a roll."""


@dataclass(frozen=True)
class Prompt:
    """What the board waits for: the situation `asks` (one of `PROMPTS`), the player
    asked (`side`; None: either player), and what each button does now (`answers`:
    button name → a word or two, as the legend says it).

    `number` is what the dice add up to where a prompt shows a number (the points of
    a game won, a match score, a match length; 0 for money play; in a chouette the cube a
    double turns a seat's to, or a seat's result; with pairs, which of the pair rolls, 1
    or 2); `dead_dice` is how many of the roll's dice cannot be played (2: no legal play at all).
    LightingError (a ValueError) for an unknown situation.
    """

    asks: str
    side: Side | None = None
    answers: Mapping[str, str] = field(default_factory=dict)
    number: int | None = None
    dead_dice: int = 0

    def __post_init__(self) -> None:
        if self.asks not in PROMPTS:
            raise LightingError(f"unknown prompt {self.asks!r}: expected one of {', '.join(PROMPTS)}")
        object.__setattr__(self, "answers", MappingProxyType(dict(self.answers)))

@dataclass(frozen=True)
class PromptLook:
    """How a prompt shows: the asked turn light(s) and the dice.

    `dice` is "dark", "roll" (the roll, unplayable dice red), "cube" (one die all
    amber; both when a beaver is an answer, and while a drop is being confirmed) or "number" (faces adding up to the
    prompt's number; every pip of both dice for 0).
    """

    turn: Look | None
    dice: str = "dark"
    dice_look: Look = Look(DICE_COLOUR, "")


def both_buttons(kind: str, word: str, held: bool = False) -> dict[str, str]:
    """A prompt's answers: both players' `kind` button (held: a long press) answers `word`."""
    return {("hold " if held else "") + f"{side.label}.{kind}": word for side in Side}


def own_buttons(side: Side, **words: str) -> dict[str, str]:
    """A prompt's answers: `side`'s buttons answer `turn="roll"`, `cube="double"`."""
    return {f"{side.label}.{kind}": word for kind, word in words.items()}


_SLOW, _FAST = 1.0, 0.25
PROMPT_LOOKS: Mapping[str, PromptLook] = MappingProxyType({
    "setup": PromptLook(None),
    "opening": PromptLook(Look(TURN_COLOUR, "", period=_SLOW)),
    "roll": PromptLook(Look(TURN_COLOUR, "", period=_SLOW), "number"),
    "roll_or_double": PromptLook(Look(TURN_COLOUR, "", period=2 * _SLOW, other=CUBE_COLOUR), "number"),
    "move": PromptLook(Look(TURN_COLOUR, ""), "roll"),
    "no_play": PromptLook(Look(TURN_COLOUR, "", period=_SLOW), "roll"),
    "choose": PromptLook(Look(TURN_COLOUR, "", period=2 * _SLOW, other=CUBE_COLOUR), "roll"),
    "confirm_step": PromptLook(Look(TURN_COLOUR, "", period=_FAST), "roll"),
    "doubled": PromptLook(Look(TURN_COLOUR, "", period=0.5, other=CUBE_COLOUR), "cube",
                          Look(CUBE_COLOUR, "")),
    "confirm_drop": PromptLook(Look(CUBE_COLOUR, "", period=_FAST), "cube",
                               Look(CUBE_COLOUR, "", period=_FAST)),
    "mismatch": PromptLook(Look(RED, ""), "roll"),
    "game_over": PromptLook(Look(GREEN, ""), "number", Look(GREEN, "")),
    "match_over": PromptLook(Look(GREEN, "", period=_SLOW), "number", Look(GREEN, "")),
    "resigning": PromptLook(Look(TURN_COLOUR, "", period=2 * _SLOW, other=CUBE_COLOUR), "number", Look(RED, "")),
    "resign_offered": PromptLook(Look(TURN_COLOUR, "", period=0.5, other=CUBE_COLOUR), "number",
                                 Look(RED, "", period=_SLOW)),
    "new_session": PromptLook(Look(TURN_COLOUR, "", period=2 * _SLOW, other=CUBE_COLOUR),
                              "number", Look(BLUE, "")),
    "remote_turn": PromptLook(Look(BLUE, "", period=2 * _SLOW, other=DIM_BLUE), "roll"),
    "remote_away": PromptLook(Look(CUBE_COLOUR, "", period=_SLOW), "roll"),
    "remote_abandoned": PromptLook(Look(CUBE_COLOUR, "", period=2 * _SLOW, other=RED), "roll"),
    "remote_claim": PromptLook(Look(RED, "", period=2 * _FAST, other=CUBE_COLOUR), "roll"),
    "remote_refused": PromptLook(Look(RED, "", period=_FAST)),
    "roll_off": PromptLook(Look(TURN_COLOUR, "", period=_SLOW)),
    "seats": PromptLook(Look(TURN_COLOUR, "", period=2 * _SLOW, other=CUBE_COLOUR), "number"),
    "seat_doubled": PromptLook(Look(TURN_COLOUR, "", period=0.5, other=CUBE_COLOUR), "number",
                               Look(CUBE_COLOUR, "")),
    "results": PromptLook(Look(GREEN, "", period=2 * _SLOW), "number", Look(GREEN, "")),
    "computer_turn": PromptLook(Look(BLUE, "", period=2 * _SLOW, other=DIM_BLUE), "number"),
})
"""How each prompt shows (hardware/legend.md is the same table for people)."""
DEAD_DIE = Look(RED, "")


def number_faces(number: int) -> tuple[int, int]:
    """Two faces adding up to `number` (0 ≤ number ≤ 12; 0 is every pip of both dice);
    a die shows 0 when dark: 5 is (5, 0), 8 is (6, 2)."""
    if number == 0:
        return FULL, FULL
    return min(number, 6), max(number - 6, 0)


@dataclass(frozen=True)
class Lighting:
    """What the board shows: a role per lit location, the dice and the turn light.

    `combined` must be destinations and `hint_from` hints; LightingError (a ValueError)
    otherwise, and for a role not in `ROLES`, a key that is not a `Location` or a die
    face outside 1..6.
    """

    roles: Mapping[Location, str] = field(default_factory=dict)
    combined: frozenset[Location] = frozenset()
    """Destinations reached only with combined dice: shown dimmer than one die's."""
    hint_from: frozenset[Location] = frozenset()
    """Hinted locations a checker leaves: they blink, where it lands stays steady."""
    dice: tuple[int, int] | None = None
    """The faces shown on the dice LEDs; None leaves the dice dark."""
    turn: Side | None = None
    """The side whose turn light is lit (steady white) when no prompt says otherwise."""
    prompt: Prompt | None = None
    """What the board asks, shown on the turn lights and the dice."""
    asked: frozenset[Location] = frozenset()
    """A chouette's chairs asked (a seat's double, the roll-off): they blink fast."""
    captain: Location | None = None
    """A chouette's captain's chair: it blinks slowly."""

    def __post_init__(self) -> None:
        for location, role in self.roles.items():
            if type(location) not in (int, str) or location not in LOCATIONS:
                raise LightingError(f"unknown location {location!r} lit {role!r}")
            if role not in ROLES and role not in CHAIR_ROLES:
                raise LightingError(f"unknown role {role!r} for {location!r}: "
                                 f"expected one of {', '.join(ROLES + CHAIR_ROLES)}")
        for name, subset, role in (("combined", self.combined, "destination"),
                                   ("hint_from", self.hint_from, "hint")):
            if stray := [location for location in subset if self.roles.get(location) != role]:
                raise LightingError(f"{name} lists {stray!r}, which are not lit {role!r}")
        captain = () if self.captain is None else (self.captain,)
        for name, chairs in (("asked", tuple(self.asked)), ("captain", captain)):
            if stray := [location for location in chairs if location not in self.roles]:
                raise LightingError(f"{name} lists {stray!r}, which are not lit")
        if self.dice is not None and not all(face in PIP_PATTERNS for face in self.dice):
            raise LightingError(f"dice faces must be 1..6, got {self.dice!r}")
        # Frozen all the way down: a Lighting handed to the service cannot change under it.
        object.__setattr__(self, "roles", MappingProxyType(dict(self.roles)))
        object.__setattr__(self, "combined", frozenset(self.combined))
        object.__setattr__(self, "hint_from", frozenset(self.hint_from))
        object.__setattr__(self, "asked", frozenset(self.asked))

    def looks(self) -> dict[Location, Look]:
        """How each lit location shows."""
        return {location: LOOKS["combined destination"] if location in self.combined
                else LOOKS["hint source"] if location in self.hint_from
                else replace(_look(role), period=ASKED_PERIOD) if location in self.asked
                else replace(_look(role), period=CAPTAIN_PERIOD) if location == self.captain
                else _look(role)
                for location, role in self.roles.items()}


def _look(role: str) -> Look:
    return LOOKS[role] if role in LOOKS else CHAIR_LOOKS[role]


def colours(lighting: Lighting, leds: LedConfig, now: float) -> dict[int, Colour]:
    """LED index → colour of every LED lit at board time `now`; every other LED is off."""
    return {index: colour for index, look in led_looks(lighting, leds).items()
            if (colour := look.colour_at(now)) is not None}


def led_looks(lighting: Lighting, leds: LedConfig) -> dict[int, Look]:
    """LED index → the look of every LED `lighting` lights, blinking ones included
    (`colours` samples them at a moment; the board's page shows them blinking).

    A location lights all of its LEDs in the profile; one the profile gives no LED (a
    board without tray LEDs) is skipped.
    """
    looks: dict[int, Look] = {}
    for location, look in lighting.looks().items():
        looks.update(dict.fromkeys(leds.targets.get(str(location), ()), look))
    for faces, look in _dice_looks(lighting):
        looks.update(dict.fromkeys(_pips(leds, faces), look))
    for side, look in _turn_lights(lighting).items():
        looks.update(dict.fromkeys(leds.targets.get(f"turn:{side.label}", ()), look))
    return looks


def _turn_lights(lighting: Lighting) -> dict[Side, Look]:
    prompt = lighting.prompt
    if prompt is None:
        return {} if lighting.turn is None else {lighting.turn: Look(TURN_COLOUR, "")}
    look = PROMPT_LOOKS[prompt.asks].turn
    if look is None:
        return {}
    return dict.fromkeys(Side if prompt.side is None else (prompt.side,), look)


def _dice_looks(lighting: Lighting) -> list[tuple[tuple[int, int], Look]]:
    """(faces, look) of what the dice show; a face 0 is a dark die."""
    prompt = lighting.prompt
    shows = "roll" if prompt is None else PROMPT_LOOKS[prompt.asks].dice
    if prompt is None or shows == "roll":
        if lighting.dice is None:
            return []
        dead = 0 if prompt is None else prompt.dead_dice
        first, second = lighting.dice
        if dead == 0:
            return [((first, second), Look(DICE_COLOUR, ""))]
        if dead == 1:
            return [((first, 0), Look(DICE_COLOUR, "")), ((0, second), DEAD_DIE)]
        return [((first, second), DEAD_DIE)]
    look = PROMPT_LOOKS[prompt.asks].dice_look
    if shows == "cube":
        both = prompt.asks == "confirm_drop" or "beaver" in prompt.answers.values()
        return [((FULL, FULL if both else 0), look)]
    if shows == "number" and prompt.number is not None:
        return [(number_faces(min(prompt.number, 12)),
                 Look(look.colour, "", period=_SLOW) if prompt.number > 12 else look)]
    return []


def _pips(leds: LedConfig, faces: tuple[int, int]) -> list[int]:
    indices: list[int] = []
    for die, face in zip(DICE, faces, strict=True):
        if face == FULL:
            indices.extend(leds.targets[die])
        elif face:
            indices.extend(leds.targets[die][pip] for pip in PIP_PATTERNS[face])
    return indices


def next_change(lighting: Lighting, now: float) -> float | None:
    """The first board time after `now` at which a light blinks on or off; None if none blinks."""
    looks = {*lighting.looks().values(), *_turn_lights(lighting).values(),
             *(look for _, look in _dice_looks(lighting))}
    edges = [edge for look in looks if (edge := look.next_edge(now)) is not None]
    return min(edges, default=None)


def lights_event(lighting: Lighting) -> ev.Lights:
    """The table log's ``lights`` event: the roles, and what the board asks (`Prompt`)."""
    prompt = lighting.prompt
    roles = {location: lighting.roles[location] for location in LOCATIONS if location in lighting.roles}
    asked = tuple(location for location in LOCATIONS if location in lighting.asked)
    if prompt is None:
        return ev.Lights(roles, asked=asked, captain=lighting.captain)
    return ev.Lights(roles, prompt.asks, prompt.side, dict(prompt.answers), prompt.number, prompt.dead_dice,
                     asked, lighting.captain)


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
