"""What the page shows of a table: the `state` event with the board, lights, cube and story.

`table_view` reads a table (and the board under it) once and returns plain JSON-able
data, so the scan loop can hand it to the web server's thread without sharing any live
object.  It is the `state` event of the table log (board-script.md) with extra keys:

* ``checkers``: ``{LOC: {"count": n, "colour": "white" | "black" | null}}`` for every
  location holding checkers, as the switches read them.  A point reading full may hold
  more: then the count is the game's.  Colour comes from the game, as on the real board;
  a checker the game cannot explain on a point is the mover's during a move, else null.
  Trays without switches show the game's count.
* ``lights``: ``{LOC: {"role", "colour": "#rrggbb", "period": s | null, "duty", "other"}}``,
  the role and look of each lit location (`bgpi.table.lights.LOOKS`); ``leds``: the
  profile's LED map (``targets``: target → LED indices, as ``[leds.map]`` names them:
  points, bars, trays, ``die:1``, ``die:2``, ``turn:white``, ``turn:black``) and the look
  of every lit LED (``looks``: index → look; ``other`` is the colour of the second half
  of a blink, null for dark), dice pips and turn lights included, exactly as the board
  shows them; ``prompt``: what the board waits for (``asks``, ``side``, ``answers``, as
  the ``lights`` event says it) and ``asking``, the same in words.
* ``cube``: value, owner, and the double on offer; ``match_length`` (0: money play),
  ``crawford`` (this game, or the next, is the Crawford game); ``board`` (``"sim"`` or
  ``"pi"``) and ``actions`` (whether the page may move checkers and press buttons);
  ``slots``; ``words`` and ``plays`` (`Story`).
"""

from __future__ import annotations

from bgpi.board.colours import Colour
from bgpi.board.locations import LOCATIONS, Location, checkers_on, owner
from bgpi.board.profile import Geometry, LedConfig
from bgpi.shell.words import ask
from bgpi.table.controller import Table
from bgpi.table.lights import Lighting, Look, led_looks
from bgpi.table.tracker import Sensing
from bgpi.web.words import Story


def _hex(colour: Colour | None) -> str | None:
    if colour is None:
        return None
    red, green, blue = colour
    return f"#{red:02x}{green:02x}{blue:02x}"


def look_view(look: Look) -> dict:
    """A look as the page draws it: colours as #rrggbb, the blink's period and duty."""
    return {"colour": _hex(look.colour), "period": look.period, "duty": look.duty, "other": _hex(look.other)}


def lights_view(lighting: Lighting) -> dict[str, dict]:
    """The role and look of every lit location, keyed as the table log keys locations."""
    return {str(location): {"role": lighting.roles[location], **look_view(look)}
            for location, look in lighting.looks().items()}


def leds_view(lighting: Lighting, leds: LedConfig) -> dict:
    """The LED map and the look of every lit LED."""
    return {"targets": {target: list(indices) for target, indices in leds.targets.items()},
            "looks": {str(index): look_view(look) for index, look in sorted(led_looks(lighting, leds).items())}}


def checkers_view(table: Table, geometry: Geometry) -> dict[str, dict]:
    """The checkers on each location as the switches read them, coloured by the game."""
    explained = table.node.position if table.node is not None else table.position
    sensing: Sensing = table.sensing
    seen = dict(zip(sensing.locations, table.seen, strict=True)) if table.seen is not None else {}
    mover = table.turn.label if table.phase in ("move", "choose") and table.turn is not None else None
    view: dict[str, dict] = {}
    for location in LOCATIONS:
        game = checkers_on(explained, location)
        count = seen.get(location, game) if geometry.slots(location) else game
        if count and count == geometry.slots(location) and game > count:
            count = game  # the switches read full: the game knows how many stand there
        if count:
            view[str(location)] = {"count": count, "colour": _colour(explained, location, game, mover)}
    return view


def _colour(position, location: Location, game: int, mover: str | None) -> str | None:
    if isinstance(location, str):
        return owner(location).label
    if game:
        side, _ = position.at(location)
        return side.label
    return mover


def cube_view(table: Table) -> dict:
    """The cube: its value, who owns it, and a double on offer (offered value and doubler)."""
    game = table.game
    if game is None:
        return {"value": 1, "owner": None, "offered": None, "doubler": None}
    cube = game.cube
    return {
        "value": cube.value,
        "owner": None if cube.owner is None else cube.owner.label,
        "offered": cube.offered_value if cube.offer is not None else None,
        "doubler": cube.offer.doubler.label if cube.offer is not None else None,
    }


def table_view(table: Table, geometry: Geometry, leds: LedConfig, story: Story,
               simulated: bool) -> dict:
    """The page's whole view of `table` now (see the module docstring)."""
    lighting = table.lighting()
    prompt = lighting.prompt.log() if lighting.prompt is not None else None
    return {
        **table.state_event(),
        "board": "sim" if simulated else "pi",
        "actions": simulated,
        "checkers": checkers_view(table, geometry),
        "slots": {"point": geometry.point_slots, "bar": geometry.bar_slots},
        "lights": lights_view(lighting),
        "leds": leds_view(lighting, leds),
        "prompt": prompt,
        "asking": ask(prompt) if prompt else None,
        "cube": cube_view(table),
        "match_length": table.settings.match_length,
        "crawford": table.session.crawford,
        **story.as_dict(),
    }
