"""Positions from records: the position before a play of a game in a .mat or SGF file.

`recorded_position(text, kind, game, play)` reads a record, as bgpi and gnubg write them
(`matfile`, `sgffile` describe the layouts), replays its games with the rules up to the
`play`-th roll of game `game` (both from 1), and gives the position there with the
cube, the score and the Crawford game: a practice position for the board.  Every fault
(a file that is not such a record, a play the rules do not allow, a game or play out of
range) is a RecordFileError with one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from bgpi.exc import BgpiError, CubeError, PlayNotationError, RecordFileError
from bgpi.rules.cube import Cube
from bgpi.rules.ids import MatchKey, match_id, position_id
from bgpi.rules.notation import find_play
from bgpi.rules.play import Dice
from bgpi.rules.position import BAR, OFF, Position, Side, own_point
from bgpi.rules.reference import legal_plays, move

RECORD_KINDS = ("mat", "sgf")
"""The record formats by their file suffix."""


@dataclass(frozen=True, slots=True)
class RecordedPosition:
    """The position before a play of a recorded game, `turn` to roll."""

    game: int
    play: int
    position: Position
    turn: Side
    cube: Cube
    match_length: int
    score: tuple[int, int]
    crawford: bool

    @property
    def position_id(self) -> str:
        return position_id(self.position, self.turn)

    @property
    def match_id(self) -> str:
        return match_id(MatchKey(self.cube.value, self.cube.owner, self.turn, self.crawford, turn=self.turn,
                                 match_length=self.match_length, score=self.score))

    def describe(self) -> str:
        """One line: "game 2, play 5: black to roll, 7-point match at 3-5 (white-black), cube 2 (white's)"."""
        play = f"{self.match_length}-point match at {self.score[0]}-{self.score[1]} (white-black)"
        if not self.match_length:
            play = f"money play, white {self.score[0]} black {self.score[1]}"
        crawford = ", the Crawford game" if self.crawford else ""
        owner = " (centred)" if self.cube.owner is None else f" ({self.cube.owner.label}'s)"
        return (f"game {self.game}, play {self.play}: {self.turn.label} to roll, {play}{crawford}, "
                f"cube {self.cube.value}{owner}")


@dataclass(slots=True)
class _Game:
    """A recorded game being replayed."""

    length: int
    score: tuple[int, int]
    crawford: bool
    position: Position = field(default_factory=Position.start)
    cube: Cube = field(default_factory=Cube)
    plays: int = 0


class _Found(Exception):  # noqa: N818 - not an error: the replay reached the play asked for
    def __init__(self, found: RecordedPosition) -> None:
        self.found = found


class _Replay:
    """Replays the games' actions one by one and stops at the play asked for."""

    def __init__(self, game: int, play: int) -> None:
        self.wanted = (game, play)
        self.games = 0
        self.game: _Game | None = None

    def start(self, game: _Game) -> None:
        self.games += 1
        self.game = game

    def roll(self, side: Side, dice: Dice, steps: list[tuple[int, int]] | str) -> None:
        game = self._current()
        if game.cube.offer is not None and game.cube.offer.beaver:  # .mat: the beaver taken by rolling
            game.cube = game.cube.take(side)
        game.plays += 1
        if (self.games, game.plays) == self.wanted:
            raise _Found(RecordedPosition(self.games, game.plays, game.position, side, game.cube, game.length,
                                          game.score, game.crawford))
        game.position = _played(game.position, side, dice, steps, f"game {self.games}, play {game.plays}")

    def cube(self, side: Side, action: str) -> None:
        game = self._current()
        try:
            if action == "double":
                game.cube = game.cube.double(side) if game.cube.offer is None else game.cube.beaver(side)
            elif action == "take":
                game.cube = game.cube.take(side)
            else:
                self.game = None  # a drop ends the game
        except CubeError as error:
            raise RecordFileError(f"game {self.games}: {side.label}'s {action}: {error}") from None

    def _current(self) -> _Game:
        if self.game is None:
            raise RecordFileError(f"game {self.games}: an action after the game ended")
        return self.game


def _played(position: Position, side: Side, dice: Dice, steps: list[tuple[int, int]] | str, where: str) -> Position:
    """The position after `side` plays `steps` (SGF's from/to pairs, or .mat's notation)."""
    plays = legal_plays(position, side, dice)
    if isinstance(steps, str):
        try:
            return find_play(position, side, dice, steps, among=plays).position
        except PlayNotationError as error:
            raise RecordFileError(f"{where}: {error}") from None
    own, other = position.checkers(side), position.checkers(side.opponent)
    try:
        for source, destination in steps:
            own, other = move(own, other, source, destination)
        after = Position.of(side, own, other)
    except (ValueError, IndexError):
        after = None
    for play in plays:
        if play.position == after:
            return play.position
    raise RecordFileError(f"{where}: {side.label}'s {dice} is not a legal play there")


def recorded_position(text: str, kind: str, game: int = 1, play: int = 1) -> RecordedPosition:
    """The position before play `play` of game `game` of a record (`kind` "mat" or "sgf")."""
    replay = _Replay(game, play)
    try:
        (_mat if kind == "mat" else _sgf)(text, replay)
    except _Found as found:
        return found.found
    except BgpiError as error:
        if isinstance(error, RecordFileError):
            raise
        raise RecordFileError(str(error)) from None
    if game > replay.games or game < 1:
        raise RecordFileError(f"there is no game {game}: the record holds {replay.games}")
    raise RecordFileError(f"game {game} has no play {play}")


# -- .mat --------------------------------------------------------------------------

_SCORE = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_ROLL = re.compile(r"^([1-6])([1-6]):\s*(.*)$")


def _mat(text: str, replay: _Replay) -> None:
    lines = iter(text.splitlines())
    length = _mat_length(lines)
    crawford_played = False
    for line in lines:
        if not line.strip().startswith("Game "):
            continue
        found = _SCORE.match(next(lines, ""))
        if found is None:
            raise RecordFileError(f"game {replay.games + 1}: no score line after {line.strip()!r}")
        score = (int(found[2]), int(found[4]))
        crawford = bool(length) and not crawford_played and ((score[0] == length - 1) != (score[1] == length - 1))
        crawford_played |= crawford
        replay.start(_Game(length, score, crawford))
        for cells in _mat_rows(lines):
            for side, cell in zip(Side, cells, strict=True):
                _mat_cell(replay, side, cell.strip())


def _mat_length(lines: Iterator[str]) -> int:
    for line in lines:
        if line.startswith((";", "#")) or not line.strip():
            continue
        found = re.match(r"^\s*(\d+) point match\s*$", line)
        if found is None:
            break
        return int(found[1])
    raise RecordFileError("not a .mat file: no 'N point match' line")


def _mat_rows(lines: Iterator[str]) -> Iterator[tuple[str, str]]:
    """The two cells of each line of a game, split as gnubg's importer splits them."""
    for line in lines:
        if not line.strip():
            return
        left = line.split(")", 1)[1] if ")" in line else line
        colons = [i for i, char in enumerate(left) if char == ":"]
        if len(colons) >= 2:
            cut = colons[1] - 2
        else:
            gap = left.find("  ", 12)
            cut = gap if gap > 0 else len(left)
        yield left[:cut], left[cut:]


def _mat_cell(replay: _Replay, side: Side, cell: str) -> None:
    word = cell.split(" ", 1)[0].lower()
    roll = _ROLL.match(cell)
    if roll is not None:
        replay.roll(side, Dice(int(roll[1]), int(roll[2])), roll[3].strip())
    elif word in ("doubles", "beavers"):
        replay.cube(side, "double")
    elif word == "takes":
        replay.cube(side, "take")
    elif word == "drops":
        replay.cube(side, "drop")
    elif word not in ("", "wins"):
        raise RecordFileError(f"game {replay.games}: {cell!r} is not a .mat action")


# -- SGF ---------------------------------------------------------------------------

_PROPERTY = re.compile(r"([A-Z]+)((?:\s*\[(?:[^\]\\]|\\.)*\])+)")
_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]")


def _sgf(text: str, replay: _Replay) -> None:
    trees = _sgf_trees(text)
    if not trees:
        raise RecordFileError("not an SGF file: no game tree")
    for nodes in trees:
        root = nodes[0]
        if root.get("GM", ["6"])[0] != "6":
            raise RecordFileError("not a backgammon SGF file (GM is not 6)")
        info = dict(item.split(":", 1) for item in root.get("MI", []) if ":" in item)
        crawford = "CrawfordGame" in root.get("RU", [""])[0]
        game = _Game(int(info.get("length", 0)), (int(info.get("ws", 0)), int(info.get("bs", 0))), crawford)
        replay.start(game)
        for node in nodes[1:]:
            _sgf_node(replay, game, node)


def _sgf_trees(text: str) -> list[list[dict[str, list[str]]]]:
    """Each game tree's nodes (the main line), each node its properties."""
    trees: list[list[dict[str, list[str]]]] = []
    for tree in re.split(r"\)\s*\(", text.strip().strip("()")):
        nodes = []
        for node in _split_nodes(tree):
            properties = {name: _VALUE.findall(values) for name, values in _PROPERTY.findall(node)}
            if properties:
                nodes.append(properties)
        if nodes:
            trees.append(nodes)
    return trees


def _split_nodes(tree: str) -> list[str]:
    """The nodes of a tree: split at each ';' outside a property value."""
    nodes: list[str] = []
    current: list[str] = []
    inside = escaped = False
    for char in tree:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            inside = True
        elif char == "]":
            inside = False
        elif char == ";" and not inside:
            nodes.append("".join(current))
            current = []
            continue
        current.append(char)
    nodes.append("".join(current))
    return nodes


_SIDES = {"W": Side.WHITE, "B": Side.BLACK}


def _sgf_node(replay: _Replay, game: _Game, node: dict[str, list[str]]) -> None:
    if "AE" in node or "AW" in node or "AB" in node:
        game.position = _sgf_setup(node)
    if "CV" in node:
        game.cube = Cube(int(node["CV"][0]), game.cube.owner)
    if "CP" in node:
        game.cube = Cube(game.cube.value, Side.parse({"w": "white", "b": "black"}[node["CP"][0][:1].lower()]))
    for name, side in _SIDES.items():
        for value in node.get(name, []):
            if value in ("double", "take", "drop"):
                replay.cube(side, value)
            elif re.fullmatch(r"[1-6][1-6](?:[a-z]{2}){0,4}", value):
                pairs = [(_own(side, value[i]), _own(side, value[i + 1])) for i in range(2, len(value), 2)]
                replay.roll(side, Dice(int(value[0]), int(value[1])), pairs)
            elif value != "resign" and not value.startswith("resign"):
                raise RecordFileError(f"game {replay.games}: {name}[{value}] is not an SGF action")


def _own(side: Side, letter: str) -> int:
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    return own_point(side, ord(letter) - ord("a") + 1)


def _sgf_setup(node: dict[str, list[str]]) -> Position:
    points: dict[int, tuple[Side, int]] = {}
    bar: dict[Side, int] = {}
    for name, side in (("AW", Side.WHITE), ("AB", Side.BLACK)):
        for letter in node.get(name, []):
            if letter == "y":
                bar[side] = bar.get(side, 0) + 1
            elif "a" <= letter <= "x":
                absolute = ord(letter) - ord("a") + 1
                points[absolute] = (side, points.get(absolute, (side, 0))[1] + 1)
    return Position.from_absolute(points, bar)
