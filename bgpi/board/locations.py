"""Names of the places a checker can be, as board scripts and logs write them.

Points are the integers 1..24 in absolute numbering (white's count); the bar halves and
the bear-off trays are the strings ``"bar:white"``, ``"bar:black"``, ``"off:white"`` and
``"off:black"``.
"""

from __future__ import annotations

from collections.abc import Iterable

from bgpi.exc import LocationError
from bgpi.rules.position import BAR, OFF, Position, Side, absolute_point, own_point

Location = int | str
"""A point 1..24 (int) or one of `BARS` / `TRAYS` (str)."""

POINTS: tuple[int, ...] = tuple(range(1, 25))
BARS: tuple[str, ...] = ("bar:white", "bar:black")
TRAYS: tuple[str, ...] = ("off:white", "off:black")
LOCATIONS: tuple[Location, ...] = (*POINTS, *BARS, *TRAYS)


def parse_location(text: str | int) -> Location:
    """The location named by `text` ("7", 7, "bar:white"); LocationError if there is none."""
    if isinstance(text, int) or text.isdigit():
        point = int(text)
        if point in POINTS:
            return point
    elif text in BARS or text in TRAYS:
        return text
    raise LocationError(
        f"unknown location {text!r}: expected a point 1..24, "
        "'bar:white', 'bar:black', 'off:white' or 'off:black'"
    )


def describe(location: Location, side: Side | None = None) -> str:
    """How messages name a location: "point 7", "bar:white"; with `side`, a point in that
    player's own count, as the page's labels and gnubg's notation name it for them.

    >>> describe(19), describe(19, Side.BLACK), describe("bar:black", Side.BLACK)
    ('point 19', 'point 6', 'bar:black')
    """
    if not isinstance(location, int):
        return location
    return f"point {location if side is not Side.BLACK else 25 - location}"


def bar(side: Side) -> str:
    """`side`'s half of the bar: "bar:white"."""
    return f"bar:{side.label}"


def tray(side: Side) -> str:
    """`side`'s bear-off tray: "off:white"."""
    return f"off:{side.label}"


def owner(location: str) -> Side:
    """Whose bar half or tray `location` is."""
    return Side.parse(location.partition(":")[2])


def is_bar(location: Location) -> bool:
    """Whether `location` is a half of the bar."""
    return location in BARS


def location_of(side: Side, point: int) -> Location:
    """The board location of `side`'s own point 0..25 (0 its tray, 25 its bar half)."""
    if point == BAR:
        return bar(side)
    if point == OFF:
        return tray(side)
    return absolute_point(side, point)


def own_count(side: Side, location: Location) -> int:
    """`side`'s own number 0..25 of a location it moves from or to (the inverse of
    `location_of`): its tray 0, its bar half 25, a point in its own count.

    >>> own_count(Side.BLACK, 19), own_count(Side.BLACK, "bar:black"), own_count(Side.WHITE, "off:white")
    (6, 25, 0)
    """
    if location == bar(side):
        return BAR
    return OFF if location == tray(side) else own_point(side, int(location))


def checkers_on(position: Position, location: Location) -> int:
    """How many checkers (of either colour) stand on a board location in `position`."""
    if isinstance(location, int):
        return position.at(location)[1]
    side = owner(location)
    return position.on_bar(side) if is_bar(location) else position.borne_off(side)


def in_order(locations: Iterable[Location]) -> list[Location]:
    """Locations in board order: points 1..24, then the bar halves and trays."""
    return sorted(locations, key=LOCATIONS.index)
