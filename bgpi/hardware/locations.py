"""Names of the places a checker can be, as board scripts and logs write them.

Points are the integers 1..24 in absolute numbering (white's count); the bar halves and
the bear-off trays are the strings ``"bar:white"``, ``"bar:black"``, ``"off:white"`` and
``"off:black"``.
"""

from __future__ import annotations

Location = int | str
"""A point 1..24 (int) or one of `BARS` / `TRAYS` (str)."""

POINTS: tuple[int, ...] = tuple(range(1, 25))
BARS: tuple[str, ...] = ("bar:white", "bar:black")
TRAYS: tuple[str, ...] = ("off:white", "off:black")
LOCATIONS: tuple[Location, ...] = (*POINTS, *BARS, *TRAYS)


def parse_location(text: str | int) -> Location:
    """The location named by `text` ("7", 7, "bar:white"); ValueError if there is none."""
    if isinstance(text, int) or text.isdigit():
        point = int(text)
        if point in POINTS:
            return point
    elif text in BARS or text in TRAYS:
        return text
    raise ValueError(
        f"unknown location {text!r}: expected a point 1..24, "
        "'bar:white', 'bar:black', 'off:white' or 'off:black'"
    )


def describe(location: Location) -> str:
    """How messages name a location: "point 7", "bar:white"."""
    return f"point {location}" if isinstance(location, int) else location
