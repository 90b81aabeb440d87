"""What the page shows of a table: the `state` event with the board, lights, cube and story.

`table_view` reads a table (and the board under it) once and returns plain JSON-able
data, so the scan loop can hand it to the web server's thread without sharing any live
object.  It is the `state` event of the table log (board-script.md) with extra keys:

* ``checkers``: ``{LOC: {"count": n, "colour": "white" | "black" | null}}`` for every
  location holding checkers, as the switches read them.  A point reading full may hold
  more: then the count is the simulated board's (its hands know), else the game's (between
  games: as the last game left it).  Colour comes from the game, as on the real board;
  a checker the game cannot explain on a point is the mover's during a move, else null.
  Trays without switches show the game's count, or on the simulated board the checkers
  its hands left there.
* ``colours``: ``{LOC: [colour, ...]}``, each checker's colour, bottom first: a hit
  blot still on its point is the bottom one, in its own colour; a checker the game
  cannot explain is null (the page knows where it dropped it).  Between games the
  switches cannot tell colours apart: a board set up has the set-up's colours, a stack as
  the last game left it (or as the set-up wants it) that stack's, any other null.
* ``pips`` and ``off``: each player's pip count and checkers borne off, as the game has
  them (between games: ``pips`` null, ``off`` the checkers in the trays); ``setup``:
  between games, the position to set up (``{LOC: {"count", "colour"}}``), else null;
  ``result``: the last ``game_over`` (winner, result, points, cube) while no game is on,
  else null.
* ``lights``: ``{LOC: {"role", "colour": "#rrggbb", "period": s | null, "duty", "other"}}``,
  the role and look of each lit location (`bgpi.table.lights.LOOKS`), with
  ``"combined": true`` for a destination reached only with both dice; ``leds``: the
  profile's LED map (``targets``: target → LED indices, as ``[leds.map]`` names them:
  points, bars, trays, ``die:1``, ``die:2``, ``turn:white``, ``turn:black``) and the look
  of every lit LED (``looks``: index → look; ``other`` is the colour of the second half
  of a blink, null for dark), dice pips and turn lights included, exactly as the board
  shows them; ``prompt``: what the board waits for (``asks``, ``side``, ``answers``, as
  the ``lights`` event says it) and ``asking``, the same in words.
* ``dice_left``: during a move, the dice not yet played (high first), else null;
  ``computers``: the sides the computer plays; ``resigning``: while a resignation is
  chosen or answered, what (``result``) and the ``points`` at stake, else null.
* ``cube``: value, owner, and the double on offer; ``match_length`` (0: money play),
  ``crawford`` (this game, or the next, is the Crawford game); ``board`` (``"sim"`` or
  ``"pi"``) and ``actions`` (whether the page may move checkers and press buttons);
  ``slots``; ``words``, ``plays`` and a chouette's ``sheet`` (`Story`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bgpi.board.colours import Colour
from bgpi.board.locations import LOCATIONS, Location, checkers_on, is_bar, owner, parse_location, tray
from bgpi.board.profile import Geometry, LedConfig
from bgpi.rules.position import Position, Side
from bgpi.rules.result import ResultKind
from bgpi.shell.words import ask
from bgpi.table.controller import Table
from bgpi.table.lights import Lighting, Look, led_looks, lights_event
from bgpi.table.phases import Phase
from bgpi.table.tracker import Sensing
from bgpi.web.words import Story, prompt_words

Held = Callable[[Location], int]
"""How many checkers stand on a location of the simulated board, switches or not."""


def _hex(colour: Colour | None) -> str | None:
    if colour is None:
        return None
    red, green, blue = colour
    return f"#{red:02x}{green:02x}{blue:02x}"


def look_view(look: Look) -> dict[str, Any]:
    """A look as the page draws it: colours as #rrggbb, the blink's period and duty."""
    return {"colour": _hex(look.colour), "period": look.period, "duty": look.duty, "other": _hex(look.other)}


def lights_view(lighting: Lighting) -> dict[str, dict[str, Any]]:
    """The role and look of every lit location, keyed as the table log keys locations."""
    return {str(location): {"role": lighting.roles[location], **look_view(look),
                            **({"combined": True} if location in lighting.combined else {})}
            for location, look in lighting.looks().items()}


def leds_view(lighting: Lighting, leds: LedConfig) -> dict[str, Any]:
    """The LED map and the look of every lit LED."""
    return {"targets": {target: list(indices) for target, indices in leds.targets.items()},
            "looks": {str(index): look_view(look) for index, look in sorted(led_looks(lighting, leds).items())}}


def checkers_view(table: Table, geometry: Geometry, held: Held | None = None) -> dict[str, dict[str, Any]]:
    """The checkers on each location as the switches read them, coloured by the game.

    `held` tells how many checkers the simulated board's hands left on a location that
    has no switches (its trays); without it such a location shows the game's count.
    """
    explained = _explained(table)
    sensing: Sensing = table.sensing
    seen = dict(zip(sensing.locations, table.seen, strict=True)) if table.seen is not None else {}
    mover = table.turn.label if table.phase in ("move", "choose") and table.turn is not None else None
    view: dict[str, dict[str, Any]] = {}
    for location in LOCATIONS:
        game = checkers_on(explained, location)
        if geometry.slots(location):
            count = seen.get(location, game)
        else:
            count = held(location) if held is not None else game
        if count and count == geometry.slots(location):
            # The switches read full and more may stand there: the simulated board's hands
            # know how many, else the game (between games: as the last one left them).
            count = held(location) if held is not None else max(count, game)
        if count:
            view[str(location)] = {"count": count, "colour": _colour(explained, location, game, mover)}
    return view


def _explained(table: Table) -> Position:
    """The checkers as the game explains them: the partial play during a move, between
    games where the last game left them, else the position."""
    if table.node is not None:
        return table.node.position
    left = table.state.left
    return left if table.game is None and left is not None else table.position


def colours_view(table: Table, checkers: dict[str, dict[str, Any]]) -> dict[str, list[str | None]]:
    """Each checker's colour on each location of `checkers` (`checkers_view`), bottom first."""
    if table.game is None:
        return _colours_between_games(table, checkers)
    explained = _explained(table)
    moving = table.state.moving
    pending = set()
    if moving is not None and table.phase == "move":
        pending = {str(point) for point in moving.reading.pending}
    return {key: _colours(table, explained, parse_location(key), stack["count"], key in pending)
            for key, stack in checkers.items()}


def _colour(position: Position, location: Location, game: int, mover: str | None) -> str | None:
    if isinstance(location, str):
        return owner(location).label
    side, _ = position.at(location)
    return side.label if game and side is not None else mover


def _colours(table: Table, position: Position, location: Location, count: int, hit: bool) -> list[str | None]:
    """Each checker's colour, bottom first (see the module docstring)."""
    if isinstance(location, str):
        return [owner(location).label] * count
    side, game = position.at(location)
    known = [side.label] * game if side is not None else []
    if hit and side is not None:  # the hit blot still stands under the hitter
        known.insert(0, side.opponent.label)
    return (known + [None] * count)[:count]


def _colours_between_games(table: Table, checkers: dict[str, dict[str, Any]]) -> dict[str, list[str | None]]:
    """Between games the switches cannot tell colours apart: a board set up has the set-up's
    colours; else a stack as the last game left it has its colour, a stack as the set-up
    wants it the set-up's, and any other is unknown (null: the page knows where it put them)."""
    target = table.position
    set_up = all(checkers.get(str(location), {}).get("count", 0) == checkers_on(target, location)
                 for location in LOCATIONS if not isinstance(location, str) or is_bar(location))
    left = table.state.left
    colours: dict[str, list[str | None]] = {}
    for key, stack in checkers.items():
        location, count = parse_location(key), stack["count"]
        if isinstance(location, str):
            colours[key] = [owner(location).label] * count
            continue
        known = [position for position in ((target,) if set_up else (left, target))
                 if position is not None and checkers_on(position, location) == count]
        side = known[0].at(location)[0] if known else None
        colours[key] = [None if side is None else side.label] * count
    return colours


def side_counts(table: Table, checkers: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each player's pip count and checkers borne off; between games no pips, and the
    checkers in each tray (`checkers`, as `checkers_view` has them)."""
    if table.game is None:
        return {"pips": None, "off": {side.label: checkers.get(str(tray(side)), {}).get("count", 0) for side in Side}}
    position = table.node.position if table.node is not None else table.position
    return {"pips": {side.label: position.pips(side) for side in Side},
            "off": {side.label: position.borne_off(side) for side in Side}}


def setup_view(table: Table) -> dict[str, Any] | None:
    """Between games: the position the players set up, location by location."""
    if table.game is not None:
        return None
    target = table.position
    view = {}
    for location in LOCATIONS:
        count = checkers_on(target, location)
        if count:
            view[str(location)] = {"count": count, "colour": _colour(target, location, count, None)}
    return view


def result_view(table: Table) -> dict[str, Any] | None:
    """The last game's result while no game is on."""
    result = table.state.last_result
    if table.game is not None or result is None:
        return None
    return {"winner": result.winner.label, "result": result.result.value, "points": result.points,
            "cube": result.cube}


def cube_view(table: Table) -> dict[str, Any]:
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


def _resigned(table: Table) -> ResultKind | None:
    """What is being resigned while a player chooses it or the opponent answers it."""
    state = table.state
    if state.phase not in (Phase.RESIGNING, Phase.RESIGNED):
        return None
    return state.resignation.result if state.resignation is not None else state.resigning


def resigning_view(table: Table) -> dict[str, Any] | None:
    """What is being resigned (``result``: single, gammon or backgammon) and the points at
    stake, while a player chooses it or the opponent answers it; else None."""
    kind = _resigned(table)
    if kind is None:
        return None
    return {"result": kind.value, "points": kind.multiplier * table.state.current_game().cube.value}


def table_view(table: Table, geometry: Geometry, leds: LedConfig, story: Story,
               simulated: bool, held: Held | None = None) -> dict[str, Any]:
    """The page's whole view of `table` now (see the module docstring); `held` as for
    `checkers_view`."""
    lighting = table.lighting()
    checkers = checkers_view(table, geometry, held)
    shown = lights_event(lighting)
    prompt = {key: value for key, value in shown.to_json().items() if key not in ("event", "roles")}
    colours = colours_view(table, checkers)
    if table.game is None:  # between games a stack has the colour its checkers are known to have
        for key, stack in checkers.items():
            stack["colour"] = colours[key][-1]
    return {
        **table.state_event().to_json(),
        "board": "sim" if simulated else "pi",
        "actions": simulated,
        "checkers": checkers,
        "colours": colours,
        **side_counts(table, checkers),
        "setup": setup_view(table),
        "result": result_view(table),
        "slots": {"point": geometry.point_slots, "bar": geometry.bar_slots},
        "lights": lights_view(lighting),
        "leds": leds_view(lighting, leds),
        "prompt": prompt or None,
        "asking": ask(shown) or None,
        "prompt_words": prompt_words(shown, table.state.setup.computers, _resigned(table)) or None,
        "cube": cube_view(table),
        "dice_left": list(table.node.dice_left) if table.node is not None and table.phase == Phase.MOVE else None,
        "computers": sorted(side.label for side in table.state.setup.computers),
        "resigning": resigning_view(table),
        "match_length": table.settings.match_length,
        "crawford": table.session.crawford,
        **story.as_dict(),
    }
