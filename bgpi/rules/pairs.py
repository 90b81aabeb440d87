"""Consultation in pairs: two players a side on one board, talking over every decision
(docs/rules.md §11, docs/chouette.md).

The board needs nothing special for the play itself; what a pair session adds is the
players' names, which go into the records, and who rolls: the first named of each pair
throughout, or the two in turn, game after game.

>>> pairs = Pairs.from_config({"white": ["Ann", "Bob"], "black": ["Cat", "Dan"], "rolls": "alternate"})
>>> pairs.names(Side.WHITE), pairs.roller(Side.BLACK, 2)
('Ann & Bob', 'Dan')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bgpi.exc import SessionSettingsError
from bgpi.rules.chouette import why_not_name
from bgpi.rules.position import Side


class Rolls(StrEnum):
    """Who rolls for a pair."""

    FIRST = "first"  # the first named, throughout
    ALTERNATE = "alternate"  # the two in turn, each game (the first named the first game)


@dataclass(frozen=True, slots=True)
class Pairs:
    """The two pairs of a session, each as named (white's, black's), and who rolls."""

    white: tuple[str, str]
    black: tuple[str, str]
    rolls: Rolls = Rolls.FIRST

    KEYS = ("white", "black", "rolls")
    """The keys of a session config's ``pairs`` object."""

    @classmethod
    def from_config(cls, config: object) -> Pairs:
        """The pairs of a session config's ``pairs`` object.  :raises SessionSettingsError:
        for a side without two names, a name that cannot be one, a name twice, or an unknown key."""
        if not isinstance(config, dict):
            raise SessionSettingsError(f"pairs: expected an object with each side's two names, not {config!r}")
        for key in config:
            if key not in cls.KEYS:
                raise SessionSettingsError(f"pairs: unknown key {key!r}: expected one of {', '.join(cls.KEYS)}")
        sides = []
        for side in Side:
            names = config.get(side.label)
            if not isinstance(names, list) or len(names) != 2:
                raise SessionSettingsError(f"pairs: {side.label}: the two players' names, not {names!r}")
            for name in names:
                if (reason := why_not_name(name)) is not None:
                    raise SessionSettingsError(f"pairs: {side.label}: {reason}")
            sides.append((names[0], names[1]))
        everyone = [name.casefold() for pair in sides for name in pair]
        if len(set(everyone)) != len(everyone):
            raise SessionSettingsError("pairs: a player is named twice")
        rolls = config.get("rolls", Rolls.FIRST.value)
        if rolls not in tuple(Rolls):
            raise SessionSettingsError(f"pairs: rolls: one of {', '.join(Rolls)}, not {rolls!r}")
        return cls(sides[0], sides[1], Rolls(rolls))

    def pair(self, side: Side) -> tuple[str, str]:
        return self.white if side is Side.WHITE else self.black

    def names(self, side: Side) -> str:
        """The pair as the records name them: "Ann & Bob"."""
        return " & ".join(self.pair(side))

    def rolling(self, side: Side, game: int) -> int:
        """Which of `side`'s pair rolls in game `game` (from 1): 0, the first named, or 1."""
        return 0 if self.rolls is Rolls.FIRST else (game - 1) % 2

    def roller(self, side: Side, game: int) -> str:
        """The name of who rolls for `side` in game `game` (from 1)."""
        return self.pair(side)[self.rolling(side, game)]
