"""The chouette, one against all: its settings, the roll-off, the line, and how a game's
result is shared out (docs/chouette.md).

A chouette is three to seven players at one board.  The *box* plays alone against the
*team*: the *captain*, who rolls and moves the team's checkers, and the *crew*.  Everyone
stands in the *line*, the box first, the captain second, the crew after them in order.
The roll-off decides the first line; each game's result decides the next (`rotate`); a
latecomer joins at the end of the line and a player may leave between games.  Each
member of the team has a cube of their own against the box (`bgpi.rules.seats`), so a
game ends with a result for every seat; the box wins or loses minus their sum (shared
with a partner in a big chouette, `box_shares`), and the score sheet always sums to zero.

>>> settings = ChouetteSettings.from_config({"players": ["Ann", "Bob", "Cat"]})
>>> settings.players, settings.box_side.label, settings.consultation.value
(('Ann', 'Bob', 'Cat'), 'white', 'never')
>>> roll_off = RollOff.of(settings.players).rolled(("Ann", "Bob"), (3, 5)).rolled(("Cat",), (3,))
>>> roll_off.done, roll_off.to_roll()
(False, ('Ann', 'Cat'))
>>> roll_off.rolled(("Ann", "Cat"), (2, 6)).line()
('Bob', 'Cat', 'Ann')
>>> rotate(("Bob", "Cat", "Ann"), captain_won=True)
('Cat', 'Ann', 'Bob')
>>> rotate(("Bob", "Cat", "Ann"), captain_won=False)
('Bob', 'Ann', 'Cat')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from bgpi.exc import ChouetteError, DiceError, SessionSettingsError
from bgpi.rules.position import Side

MIN_PLAYERS = 3
MAX_PLAYERS = 7
"""A chouette's players at one time: fewer is a game of two, more is two chouettes."""

PARTNER_FROM = 6
"""The players present from which the box takes a partner, where the session says so."""

CHAIRS = 12
"""The chairs a chouette numbers its players by, on the board's points 1 to 12."""

NAME_LENGTH = 20
"""The longest name a player may have: it goes on the score sheet and into the records."""


class Consultation(StrEnum):
    """When the team may talk about the checker play (cube decisions are never discussed):
    the board cannot hear it, so the setting is recorded and said, not enforced."""

    NEVER = "never"
    ALWAYS = "always"
    OWN_CUBE = "own_cube"  # once your own cube is turned


class LineChange(StrEnum):
    """Why the line changed (the ``line`` event's ``why``)."""

    ROLL_OFF = "roll_off"  # the roll-off placed everyone
    ROTATION = "rotation"  # a game's result
    JOINED = "joined"  # a latecomer came in at the end
    LEFT = "left"  # a player left between games


@dataclass(frozen=True, slots=True)
class ChouetteSettings:
    """How a chouette is played: its players in the order of their chairs (1, 2, ...), the
    colour the box plays (people change chairs, not colours), and the club's options, each
    off by default: the box must take at least half of the doubles offered together and the
    captain's (`box_takes_half`); the box takes a partner from `PARTNER_FROM` players
    (`box_partner`); when the team may consult (`consultation`, never by default).
    `computers` are the players the computer plays (none by default): wherever the line
    puts them, in the box, as captain or in the crew, the engine makes their decisions.

    The money rules each seat plays under (the Jacoby rule, on by default; beavers and
    automatic doubles, off; a cube cap) are the session's `Settings`, as in money play.

    :raises SessionSettingsError: for fewer than 3 or more than 7 players, a name that
        cannot be one, a name twice, or an option of the wrong kind.
    """

    players: tuple[str, ...]
    box_side: Side = Side.WHITE
    box_takes_half: bool = False
    box_partner: bool = False
    consultation: Consultation = Consultation.NEVER
    computers: tuple[str, ...] = ()

    KEYS = ("players", "box", "box_takes_half", "box_partner", "consultation", "computers")
    """The keys of a session config's ``chouette`` object."""

    def __post_init__(self) -> None:
        players = self.players
        if not isinstance(players, tuple) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            count = len(players) if isinstance(players, Sequence) else players
            raise SessionSettingsError(
                f"chouette: players: {MIN_PLAYERS} to {MAX_PLAYERS} names, not {count!r}")
        for name in players:
            if (reason := why_not_name(name)) is not None:
                raise SessionSettingsError(f"chouette: players: {reason}")
        if (twice := _twice(players)) is not None:
            raise SessionSettingsError(f"chouette: players: {twice!r} is named twice")
        for option in ("box_takes_half", "box_partner"):
            if not isinstance(getattr(self, option), bool):
                raise SessionSettingsError(f"chouette: {option}: expected true or false, "
                                           f"not {getattr(self, option)!r}")
        if (problem := _computers_problem(players, self.computers)) is not None:
            raise SessionSettingsError(f"chouette: computers: {problem}")

    @classmethod
    def from_config(cls, config: object) -> ChouetteSettings:
        """The settings of a session config's ``chouette`` object (docs/board-script.md).

        >>> ChouetteSettings.from_config({"players": ["Ann", "Bob"]})
        Traceback (most recent call last):
        ...
        bgpi.exc.SessionSettingsError: chouette: players: 3 to 7 names, not 2
        >>> ChouetteSettings.from_config({"players": ["Ann", "Bob", "Cat"], "partner": True})
        Traceback (most recent call last):
        ...
        bgpi.exc.SessionSettingsError: chouette: unknown option 'partner': expected one of players, box, \
box_takes_half, box_partner, consultation, computers
        >>> ChouetteSettings.from_config({"players": ["Ann", "Gnu", "Bot"], "computers": ["Gnu", "Bot"]}).computers
        ('Gnu', 'Bot')
        """
        if not isinstance(config, Mapping):
            raise SessionSettingsError(f"chouette: expected an object with its players and options, not {config!r}")
        for key in config:
            if key not in cls.KEYS:
                raise SessionSettingsError(f"chouette: unknown option {key!r}: expected one of {', '.join(cls.KEYS)}")
        players = config.get("players")
        if not isinstance(players, list):
            raise SessionSettingsError(f"chouette: players: a list of {MIN_PLAYERS} to {MAX_PLAYERS} names, "
                                       f"not {players!r}")
        computers = config.get("computers", [])
        if not isinstance(computers, list):
            raise SessionSettingsError(f"chouette: computers: a list of the players the computer plays, "
                                       f"not {computers!r}")
        return cls(tuple(players), _side(config.get("box", "white")), config.get("box_takes_half", False),
                   config.get("box_partner", False), _consultation(config.get("consultation", "never")),
                   tuple(computers))


def why_not_name(name: object) -> str | None:
    """Why `name` cannot be a player's name (it goes on the sheet and into .mat files,
    whose reader ends a name at a colon), or None."""
    if (not isinstance(name, str) or not 1 <= len(name) <= NAME_LENGTH or name != name.strip()
            or not name.isprintable() or ":" in name or "Game " in name):
        return f"a player's name is 1 to {NAME_LENGTH} printable characters, without a colon, not {name!r}"
    return None


def _computers_problem(players: tuple[str, ...], computers: object) -> str | None:
    """What is wrong with the players the computer plays, or None: each must be one of
    `players`, named once, and one player at least is a person (the buttons are theirs)."""
    if not isinstance(computers, tuple):
        return f"a list of the players the computer plays, not {computers!r}"
    for name in computers:
        if name not in players:
            return f"{name!r} is not one of the players"
    if (twice := _twice(computers)) is not None:
        return f"{twice!r} is named twice"
    if len(computers) >= len(players):
        return "one player at least is a person at the board, who sets up and presses the buttons"
    return None


def _twice(names: Iterable[str]) -> str | None:
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            return name
        seen.add(name.casefold())
    return None


def _side(value: Any) -> Side:
    if value not in [side.label for side in Side]:
        raise SessionSettingsError(f"chouette: box: the colour the box plays, white or black, not {value!r}")
    return Side.parse(value)


def _consultation(value: Any) -> Consultation:
    if value not in tuple(Consultation):
        choices = ", ".join(item.value for item in Consultation)
        raise SessionSettingsError(f"chouette: consultation: one of {choices}, not {value!r}")
    return Consultation(value)


# -- the roll-off --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollOff:
    """The roll-off: everyone rolls one die, the highest is the box, the next the captain,
    the rest the crew in order; players who tie roll again among themselves.

    `groups` are the places decided so far, best first: a group of one is placed, a
    larger group is tied and rolls again.  `dice` are the dice of the round under way,
    which the players still to roll (`to_roll`) complete.
    """

    groups: tuple[tuple[str, ...], ...]
    dice: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, players: Sequence[str]) -> RollOff:
        """Nobody has rolled: everyone is tied."""
        return cls((tuple(players),))

    @property
    def done(self) -> bool:
        """Whether everyone is placed."""
        return all(len(group) == 1 for group in self.groups)

    @property
    def under_way(self) -> bool:
        """Whether a round has begun and players are still to roll in it."""
        return bool(self.dice)

    def to_roll(self) -> tuple[str, ...]:
        """Who still rolls in this round, in order: every tied player without a die yet."""
        rolled = {name for name, _ in self.dice}
        return tuple(name for group in self.groups if len(group) > 1 for name in group if name not in rolled)

    def rolled(self, players: Sequence[str], dice: Sequence[int]) -> RollOff:
        """`players`, the next to roll, rolled `dice`, a die each.  Once the round is
        complete every tied group is placed by its dice, highest first; equal dice stay tied.

        :raises ChouetteError: when they are not the next to roll.
        :raises DiceError: for a die outside 1..6.
        """
        due = self.to_roll()
        if not players or tuple(players) != due[:len(players)] or len(dice) != len(players):
            raise ChouetteError(f"the roll-off's next dice are {_names(due[:2])}'s, not {_names(players)}'s")
        for die in dice:
            if type(die) is not int or not 1 <= die <= 6:
                raise DiceError(f"a die shows 1 to 6, not {die!r}")
        dice_now = self.dice + tuple(zip(players, dice, strict=True))
        if due[len(players):]:
            return replace(self, dice=dice_now)
        rolls = dict(dice_now)
        groups: list[tuple[str, ...]] = []
        for group in self.groups:
            if len(group) == 1:
                groups.append(group)
                continue
            for value in sorted({rolls[name] for name in group}, reverse=True):
                groups.append(tuple(name for name in group if rolls[name] == value))
        return RollOff(tuple(groups))

    def line(self) -> tuple[str, ...]:
        """The line the roll-off gave.  :raises ChouetteError: while players are tied."""
        if not self.done:
            raise ChouetteError(f"the roll-off is not over: {_names(self.to_roll())} roll again")
        return tuple(group[0] for group in self.groups)


def _names(names: Sequence[str]) -> str:
    return " and ".join(names) or "nobody"


# -- the line ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Roles:
    """Who plays what in a game, from the line: the box (and their partner), the captain,
    and the team's seats in line order, the captain first."""

    box: str
    captain: str
    crew: tuple[str, ...]
    partner: str | None = None

    @property
    def team(self) -> tuple[str, ...]:
        """The seats of the team, each with its own cube: the captain and the crew."""
        return (self.captain, *self.crew)


def roles(line: Sequence[str], partner: bool = False) -> Roles:
    """The roles the line gives.  With a partner (the option on and `PARTNER_FROM` players
    or more) the partner is the last in line: they share the box's result this game and
    take their place in the rotation as any player at the foot of the line does.

    >>> roles(("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"), partner=True)
    Roles(box='Ann', captain='Bob', crew=('Cat', 'Dan', 'Eve'), partner='Fay')
    """
    if len(line) < MIN_PLAYERS:
        raise ChouetteError(f"a chouette needs {MIN_PLAYERS} players at least, not {len(line)}")
    if partner and len(line) >= PARTNER_FROM:
        return Roles(line[0], line[1], tuple(line[2:-1]), line[-1])
    return Roles(line[0], line[1], tuple(line[2:]))


def rotate(line: Sequence[str], captain_won: bool) -> tuple[str, ...]:
    """The next game's line, decided by the captain's own result against the box: the
    captain who beat the box takes the box and the old box goes to the end of the line;
    a box who beat the captain stays, and the captain goes to the end."""
    box, captain, *rest = line
    if captain_won:
        return (captain, *rest, box)
    return (box, *rest, captain)


def join(line: Sequence[str], player: str) -> tuple[str, ...]:
    """The line with `player`, a latecomer, at its end.

    :raises ChouetteError: for a name that cannot be one, one already in the line, or a
        chouette that is full.
    """
    if (reason := why_not_name(player)) is not None:
        raise ChouetteError(reason)
    if _twice([*line, player]) is not None:
        raise ChouetteError(f"{player} is in the chouette already")
    if len(line) >= MAX_PLAYERS:
        raise ChouetteError(f"a chouette has {MAX_PLAYERS} players at most: {player} waits for a place")
    return (*line, player)


def leave(line: Sequence[str], player: str) -> tuple[str, ...]:
    """The line without `player`.  :raises ChouetteError: for a player not in it, or when
    fewer than `MIN_PLAYERS` would be left."""
    if player not in line:
        raise ChouetteError(f"{player!r} is not in the chouette")
    if len(line) <= MIN_PLAYERS:
        raise ChouetteError(f"a chouette needs {MIN_PLAYERS} players: {player} cannot leave")
    return tuple(name for name in line if name != player)


def seat_chairs(chairs: Mapping[str, int], line: Iterable[str]) -> dict[str, int]:
    """Each player's chair (1 to `CHAIRS`), kept from `chairs` for those still in `line`; a
    newcomer takes the lowest chair free."""
    line = tuple(line)
    kept = {name: chair for name, chair in chairs.items() if name in line}
    free = (chair for chair in range(1, CHAIRS + 1) if chair not in kept.values())
    return {name: kept[name] if name in kept else next(free) for name in line}


def box_shares(points: int, partner: bool) -> tuple[int, int]:
    """What the box and their partner each get of the box's `points`: half each, the odd
    point (won or lost) to the box.

    >>> box_shares(-5, partner=True), box_shares(5, partner=True), box_shares(5, partner=False)
    ((-3, -2), (3, 2), (5, 0))
    """
    if not partner:
        return points, 0
    half = (abs(points) + 1) // 2
    box = half if points >= 0 else -half
    return box, points - box
