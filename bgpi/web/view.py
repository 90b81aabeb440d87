"""What the page shows of a table: the `state` event with the board, lights, cube and story.

`table_view` reads a table (and the board under it) once and returns plain JSON-able
data, so the scan loop can hand it to the web server's thread without sharing any live
object.  It is the `state` event of the table log (board-script.md) with extra keys:

* ``checkers``: ``{LOC: {"count": n, "colour": "white" | "black" | null}}`` for every
  location holding checkers, as the switches read them.  A point reading full may hold
  more: then the count is the game's.  Colour comes from the game, as on the real board;
  a checker the game cannot explain on a point is the mover's during a move, else null.
  Trays without switches show the game's count.
* ``lights``: ``{LOC: {"role", "colour": "#rrggbb", "period": s | null, "duty"}}``, the
  looks of the lit locations (`bgpi.lights.LOOKS`), blinking in board time;
  ``dice_lights`` the faces on the dice LEDs, ``turn_light`` the side whose turn light
  is on; ``leds`` how many LEDs each target of the profile's LED map has.
* ``cube``: value, owner, and the double on offer; ``match_length`` (0: money play),
  ``crawford`` (this game, or the next, is the Crawford game); ``board`` (``"sim"`` or ``"pi"``) and ``actions`` (whether the page
  may move checkers and press buttons); ``slots``; ``words`` and ``plays`` (`Story`).
"""

from __future__ import annotations

from bgpi.hardware.locations import LOCATIONS, Location
from bgpi.hardware.profile import Geometry, LedConfig
from bgpi.rules.position import Side
from bgpi.table.controller import Table
from bgpi.table.lights import Lighting, Look
from bgpi.table.tracker import Sensing, checkers_on
from bgpi.web.words import Story


def _hex(look: Look) -> str:
    red, green, blue = look.colour
    return f"#{red:02x}{green:02x}{blue:02x}"


def lights_view(lighting: Lighting) -> dict[str, dict]:
    """The look of every lit location, keyed as the table log keys locations."""
    return {str(location): {"role": lighting.roles[location], "colour": _hex(look),
                            "period": look.period, "duty": look.duty}
            for location, look in lighting.looks().items()}


def checkers_view(table: Table, geometry: Geometry) -> dict[str, dict]:
    """The checkers on each location as the switches read them, coloured by the game."""
    explained = table.node.position if table.node is not None else table.position
    sensing: Sensing = table.sensing
    seen = dict(zip(sensing.locations, table.seen)) if table.seen is not None else {}
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
        return location.split(":")[1]
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
    return {
        **table.state_event(),
        "board": "sim" if simulated else "pi",
        "actions": simulated,
        "checkers": checkers_view(table, geometry),
        "slots": {"point": geometry.point_slots, "bar": geometry.bar_slots},
        "lights": lights_view(lighting),
        "dice_lights": list(lighting.dice) if lighting.dice else None,
        "turn_light": lighting.turn.label if isinstance(lighting.turn, Side) else None,
        "leds": {target: len(indices) for target, indices in leds.targets.items()},
        "cube": cube_view(table),
        "match_length": table.settings.match_length,
        "crawford": table.session.crawford,
        **story.as_dict(),
    }
