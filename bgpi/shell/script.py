"""Board scripts: hands at a table, written down (docs/board-script.md).

A board script is JSON Lines: one object per line, ``#`` starts a comment line, blank
lines are ignored.  `parse_script` turns its text into a `Script` of typed, immutable
lines, each knowing its line number in the file, or raises one `ScriptError` listing
every problem found as ``line N: what is wrong``, so a script is fixed in one go.
`format_line` writes a line back exactly as the spec writes it.

Each line class validates its values when built, so a line that exists is a line the
spec allows; the parser adds what only the JSON can tell (a point written as a string,
a missing key, a line out of order).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from bgpi.board.locations import BARS, POINTS, TRAYS, Location, describe
from bgpi.board.profile import BUTTON_NAMES, Geometry
from bgpi.exc import (
    EventError,
    MatchIdError,
    PositionIdError,
    RulesError,
    ScriptError,
    ScriptLineError,
    SettingsError,
)
from bgpi.rules.chouette import ChouetteSettings
from bgpi.rules.ids import MatchKey, decode_match_id, position_from_id
from bgpi.rules.pairs import Pairs
from bgpi.rules.position import Position, Side
from bgpi.rules.session import Settings
from bgpi.rules.xgid import xgid_ids
from bgpi.shell.advisor import ENGINE_KEYS, engine_problems
from bgpi.table import events as ev
from bgpi.table.inputs import Join, Leave
from bgpi.table.phases import Link
from bgpi.table.state import OPPONENT_SIDES, REMOTE_SIDES, club_problem

BOARDS: tuple[str, ...] = ("start", "empty", "position")
"""What a ``board`` line may say."""
CONFIG_KEYS: tuple[str, ...] = (*Settings.KEYS, "lenient", "opponent_side", "remote", "chouette", "pairs",
                                *ENGINE_KEYS)
"""The keys of a ``config`` line: the session settings, ``lenient`` and ``remote`` (the side
the other board of a remote game plays) for the table, a chouette's players and options
and the names of two pairs (docs/chouette.md), and the engine's (`bgpi.shell.advisor`):
``engine``, ``opponent``, ``hint_level``."""
SHOWS: tuple[str, ...] = ("lights", "state")
KINDS: tuple[str, ...] = (
    "board", "config", "dice", "lift", "place", "move", "slot", "press", "hold", "wait", "show",
    "remote", "link", "await", "join", "leave",
)
"""The key that names each kind of line, in the spec's order."""
_POSITION_KEYS = ("position_id", "turn", "match_id", "xgid")
_SIDES = {side.label: side for side in Side}


def _number() -> Any:
    # Where a line stands in its file is not what it says: equal lines compare equal.
    return field(default=0, kw_only=True, compare=False)


def _json(value: object) -> str:
    """`value` as the script writes it, for messages: "white.roll", not 'white.roll'."""
    return json.dumps(value)


def _choices(values: tuple[object, ...]) -> str:
    return ", ".join(_json(value) for value in values)


def check_location(value: object) -> Location:
    """`value` if it names a location as a script writes it; else ValueError saying why.

    A point is a JSON number 1..24; the bar halves and trays are strings.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        if value in POINTS:
            return value
        raise ScriptLineError(f"there is no point {value}: points are 1 to 24")
    if isinstance(value, str):
        if value in BARS or value in TRAYS:
            return value
        if value.strip().isdigit():
            raise ScriptLineError(f"a point is written as a JSON number: {value.strip()}, not {_json(value)}")
    raise ScriptLineError(
        f"unknown location {_json(value)}: expected a point 1..24 (a number) or one of "
        f"{_choices((*BARS, *TRAYS))}"
    )


def _check_button(button: object) -> None:
    if button not in BUTTON_NAMES:
        raise ScriptLineError(f"unknown button {_json(button)}: expected one of {_choices(BUTTON_NAMES)}")


# -- the lines -----------------------------------------------------------------------------


@dataclass(frozen=True)
class StartingBoard:
    """``{"board": "start"}`` / ``{"board": "empty"}``: the checkers on the board at the start."""

    kind: str = "start"
    line: int = _number()

    def __post_init__(self) -> None:
        if self.kind not in ("start", "empty"):
            raise ScriptLineError(f"unknown board {_json(self.kind)}: expected one of {_choices(BOARDS)}")


@dataclass(frozen=True)
class BoardPosition:
    """``{"board": "position", ...}``: practise gnubg Position ID `position_id`, `turn` to roll.

    The ID is encoded for the player on roll, `turn`.  `match_id`, if given, sets the cube
    (value and owner), the match length, the score and the Crawford game; its other
    fields (dice, player on roll, game state) are ignored: `turn` is about to roll.
    Building one decodes both IDs; `position` and `match` are the decoded values.
    """

    position_id: str
    turn: Side
    match_id: str | None = None
    line: int = _number()
    position: Position = field(init=False, repr=False, compare=False)
    match: MatchKey | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.turn, Side):
            # Bad input, reported like any other fault of a script: ValueError.
            raise ScriptLineError(f"turn {self.turn!r}: expected Side.WHITE or Side.BLACK")  # noqa: TRY004
        problems = []
        try:
            object.__setattr__(self, "position", position_from_id(self.position_id, self.turn))
        except PositionIdError as error:
            problems.append(str(error))
        match = None
        if self.match_id is not None:
            try:
                match = decode_match_id(self.match_id)
            except MatchIdError as error:
                problems.append(str(error))
        object.__setattr__(self, "match", match)
        if problems:
            raise ScriptLineError("; ".join(problems))


@dataclass(frozen=True)
class Config:
    """``{"config": {...}}``: session settings (`CONFIG_KEYS`), validated and read-only.

    The rules' keys are checked by `Settings.from_config`; ``lenient`` is the table's and
    is only checked to be true or false here.
    """

    settings: Mapping[str, Any]
    line: int = _number()

    def __post_init__(self) -> None:
        object.__setattr__(self, "settings", MappingProxyType(dict(self.settings)))
        if problems := _config_problems(self.settings):
            raise ScriptLineError("; ".join(problems))


def _config_problems(settings: Mapping[str, Any]) -> list[str]:
    """Every fault of one config object: unknown keys, each value alone, the rules together."""
    problems = [f"unknown config key {_json(key)}: expected one of {_choices(CONFIG_KEYS)}"
                for key in settings if key not in CONFIG_KEYS]
    rules = []
    for key in Settings.KEYS:
        if key in settings:
            try:
                Settings.from_config({key: settings[key]})
            except SettingsError as error:
                rules.append(str(error))
    if not isinstance(settings.get("lenient", False), bool):
        problems.append(f"lenient: expected true or false, not {_json(settings['lenient'])}")
    if settings.get("opponent_side", "black") not in OPPONENT_SIDES:
        problems.append(f"opponent_side: expected one of {_choices(tuple(OPPONENT_SIDES))}, "
                        f"not {_json(settings['opponent_side'])}")
    if not isinstance(remote := settings.get("remote", "white"), str) or remote not in REMOTE_SIDES:
        problems.append(f"remote: expected one of {_choices(tuple(REMOTE_SIDES))}, not {_json(settings['remote'])}")
    elif "remote" in settings and settings.get("opponent"):
        problems.append("remote and opponent: a remote game's other side is the other board, not the computer")
    problems += engine_problems(settings)
    for key, reader in (("chouette", ChouetteSettings.from_config), ("pairs", Pairs.from_config)):
        if key in settings:
            try:
                reader(settings[key])
            except SettingsError as error:
                problems.append(str(error))
    if (clash := club_problem(settings)) is not None:
        problems.append(clash)
    if not rules:
        try:
            Settings.from_config(settings)
        except SettingsError as error:
            rules.append(str(error))
    return problems + rules


@dataclass(frozen=True)
class SetDice:
    """``{"dice": [a, b]}``: the next roll shows a and b (opening roll: a white's, b black's)."""

    first: int
    second: int
    line: int = _number()

    def __post_init__(self) -> None:
        faults = [f"a die shows 1 to 6, not {_json(die)}" for die in (self.first, self.second)
                  if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6]
        if faults:
            raise ScriptLineError("; ".join(faults))


@dataclass(frozen=True)
class Lift:
    """``{"lift": LOC}``: one checker is picked up from `location`."""

    location: Location
    line: int = _number()

    def __post_init__(self) -> None:
        check_location(self.location)


@dataclass(frozen=True)
class Place:
    """``{"place": LOC}``: one checker is put down on `location`."""

    location: Location
    line: int = _number()

    def __post_init__(self) -> None:
        check_location(self.location)


@dataclass(frozen=True)
class Move:
    """``{"move": [FROM, TO]}``: a lift from `source`, then a place on `destination`."""

    source: Location
    destination: Location
    line: int = _number()

    def __post_init__(self) -> None:
        check_location(self.source)
        check_location(self.destination)


@dataclass(frozen=True)
class Slot:
    """``{"slot": [LOC, i, closed]}``: raw sensor: switch `index` (0 = outermost) under
    `location` closes (`closed`) or opens."""

    location: Location
    index: int
    closed: bool
    line: int = _number()

    def __post_init__(self) -> None:
        check_location(self.location)
        if isinstance(self.index, bool) or not isinstance(self.index, int) or self.index < 0:
            raise ScriptLineError(f"a switch index is a whole number from 0 (outermost), "
                             f"not {_json(self.index)}")
        if not isinstance(self.closed, bool):
            raise ScriptLineError(  # noqa: TRY004 (bad input, as any other fault)
                f"a switch is closed (true) or open (false), not {_json(self.closed)}")


@dataclass(frozen=True)
class ShortPress:
    """``{"press": BUTTON}``: a short press of `button` (one of `BUTTON_NAMES`)."""

    button: str
    line: int = _number()

    def __post_init__(self) -> None:
        _check_button(self.button)


@dataclass(frozen=True)
class Hold:
    """``{"hold": BUTTON}``: a long press (held at least 1 s) of `button`."""

    button: str
    line: int = _number()

    def __post_init__(self) -> None:
        _check_button(self.button)


MAX_WAIT = 3600.0
"""The longest wait line, in seconds; longer pauses are several lines.  Board time in
which nothing changes is skipped (`TableRunner.advance`), so waits replay quickly."""


@dataclass(frozen=True)
class Wait:
    """``{"wait": s}``: `seconds` of board time pass (kept as a float)."""

    seconds: float
    line: int = _number()

    def __post_init__(self) -> None:
        seconds = self.seconds
        if (isinstance(seconds, bool) or not isinstance(seconds, int | float)
                or not 0 <= seconds <= MAX_WAIT):
            raise ScriptLineError(f"a wait is a number of seconds, 0 to {MAX_WAIT:g}, not {_json(seconds)}")
        object.__setattr__(self, "seconds", float(seconds))


@dataclass(frozen=True)
class Show:
    """``{"show": "lights"}`` / ``{"show": "state"}``: print that event now."""

    what: str
    line: int = _number()

    def __post_init__(self) -> None:
        if self.what not in SHOWS:
            raise ScriptLineError(f"cannot show {_json(self.what)}: expected one of {_choices(SHOWS)}")


@dataclass(frozen=True)
class FromRemote:
    """``{"remote": EVENT}``: the other board of a remote game committed EVENT (a table-log
    event of its own side); ``{"remote": "roll"}``: it asked for the dice."""

    event: ev.Event | Literal["roll"]
    line: int = _number()

    @classmethod
    def of(cls, value: object, line: int) -> FromRemote:
        if value == "roll":
            return cls(value, line=line)
        if not isinstance(value, dict):
            raise ScriptLineError(f"expected \"roll\" or a table-log event such as {{\"event\": \"take\", ...}}, "
                                  f"got {_json(value)}")
        try:
            return cls(ev.parse(value), line=line)
        except EventError as error:
            raise ScriptLineError(str(error)) from None


@dataclass(frozen=True)
class LinkLine:
    """``{"link": LINK}``: the connection to the other board changed (a `Link` word)."""

    link: Link
    line: int = _number()

    @classmethod
    def of(cls, value: object, line: int) -> LinkLine:
        if not isinstance(value, str) or value not in tuple(Link):
            raise ScriptLineError(f"unknown link {_json(value)}: expected one of {_choices(tuple(Link))}")
        return cls(Link(str(value)), line=line)


AWAIT_SECONDS = 30.0
"""How long an ``await`` line waits for the other board, in real time, before the replay fails."""


@dataclass(frozen=True)
class Await:
    """``{"await": "remote"}``: a remote game's board scans on until the other board's next
    decision (or the dice of an exchange) has arrived and been fed; at most `AWAIT_SECONDS`."""

    what: str
    line: int = _number()

    def __post_init__(self) -> None:
        if self.what != "remote":
            raise ScriptLineError(f"cannot await {_json(self.what)}: expected \"remote\"")


@dataclass(frozen=True)
class Seating:
    """``{"join": NAME}`` / ``{"leave": NAME}``: between a chouette's games a latecomer joins
    at the end of the line, or a player leaves (`bgpi.table.inputs.Join`, `Leave`)."""

    player: str
    joins: bool
    line: int = _number()

    def __post_init__(self) -> None:
        if not isinstance(self.player, str) or not self.player:
            raise ScriptLineError(f"expected a player's name, got {_json(self.player)}")

    def input(self) -> Join | Leave:
        """The table's input this line is."""
        return Join(self.player) if self.joins else Leave(self.player)


Action = (SetDice | Lift | Place | Move | Slot | ShortPress | Hold | Wait | Show | FromRemote | LinkLine | Await
          | Seating)
"""A line that happens at the table, in `Script.lines`."""
ScriptLine = StartingBoard | BoardPosition | Config | Action

LINE_SECONDS = 0.1
"""Board time each line other than ``wait`` lets pass, so checkers settle between lines."""


# -- scripts ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Script:
    """A parsed board script.

    `board` is its board line or the default ``StartingBoard("start")``; `config` the merged
    settings of its config lines (a later key wins); `lines` everything else, in order.
    """

    board: StartingBoard | BoardPosition = field(default_factory=StartingBoard)
    config: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    lines: tuple[Action, ...] = ()

    @property
    def settings(self) -> Settings:
        """The rules of the session: `config`, with the match length of the board's Match ID."""
        config = dict(self.config)
        if isinstance(self.board, BoardPosition) and self.board.match is not None:
            config["match"] = self.board.match.match_length
        return Settings.from_config(config)

    @property
    def lenient(self) -> bool:
        """Whether the opponent may accept an illegal committed play (default off)."""
        return bool(self.config.get("lenient", False))


def load_script(path: str | Path, geometry: Geometry | None = None) -> Script:
    """Read and parse the board script at `path` (see `parse_script`).

    Raises ScriptError for a file that cannot be read or is not UTF-8, as for any
    other problem.
    """
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ScriptError(source, [f"cannot read it: {error.strerror or error}"]) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        fault = f"line {line}: not UTF-8 text (byte 0x{data[error.start]:02x})"
        raise ScriptError(source, [fault]) from None
    return parse_script(text, source, geometry)


def parse_script(text: str, source: str = "<script>",
                 geometry: Geometry | None = None) -> Script:
    """The Script written in `text`; `source` names it in messages.

    With a `geometry`, ``slot`` lines are also checked against the switches the board
    has.  Raises ScriptError listing every problem found.
    """
    parser = _Parser(geometry)
    # Not splitlines(): it also breaks at characters editors do not, and line numbers must agree.
    for number, raw in enumerate(text.split("\n"), start=1):
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            parser.read(number, raw)
    return parser.script(source)


class _Parser:
    """Reads lines one by one, collecting problems instead of stopping at the first."""

    def __init__(self, geometry: Geometry | None) -> None:
        self.geometry = geometry
        self.problems: list[tuple[int, str]] = []
        self.board: StartingBoard | BoardPosition | None = None
        self.configs: list[Config] = []
        self.lines: list[Action] = []
        self.first: tuple[int, str] | None = None
        """The number and kind of the first line read."""
        self.first_action: tuple[int, str] | None = None
        """The number and kind of the first line other than board and config."""

    def problem(self, number: int, message: str) -> None:
        self.problems.append((number, f"line {number}: {message}"))

    def read(self, number: int, text: str) -> None:
        try:
            document = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as error:
            self.problem(number, f"not JSON: {error.msg} (column {error.colno})")
            return
        except ValueError as error:
            self.problem(number, f"not JSON: {error}")
            return
        except RecursionError:
            self.problem(number, "not JSON this board reads: nested too deeply")
            return
        kind = self.kind(number, document)
        if kind is None:
            return
        self.check_order(number, kind)
        try:
            line = self.build(number, kind, document)
        except ValueError as error:
            self.problem(number, str(error))
            return
        if isinstance(line, StartingBoard | BoardPosition):
            self.board = self.board or line
        elif isinstance(line, Config):
            self.configs.append(line)
        else:
            if isinstance(line, Slot) and self.geometry is not None:
                self.check_switch(line)
            self.lines.append(line)

    def kind(self, number: int, document: Any) -> str | None:
        """The kind of line `document` is, after checking its shape; None if it has none."""
        if not isinstance(document, dict):
            self.problem(number, f"expected a JSON object such as {{\"move\": [8, 5]}}, "
                                 f"got {_json(document)}")
            return None
        kinds: tuple[str, ...] = tuple(key for key in document if key in KINDS)
        if not kinds:
            keys = f"key {_choices(tuple(document))}" if document else "no key"
            self.problem(number, f"unknown line with {keys}: expected one of {_choices(KINDS)}")
            return None
        if len(kinds) > 1:
            self.problem(number, f"one line does one thing, this one has {_choices(kinds)}")
            return None
        kind: str = kinds[0]
        allowed = _POSITION_KEYS if kind == "board" and document[kind] == "position" else ()
        for key in document:
            if key != kind and key not in allowed:
                self.problem(number, f"unexpected key {_json(key)} in a {_json(kind)} line")
        return kind

    def check_order(self, number: int, kind: str) -> None:
        if kind == "board" and self.first is not None:
            self.problem(number, f"\"board\" must be the first line (line {self.first[0]} "
                                 f"is a {_json(self.first[1])} line)")
        elif kind == "config" and self.first_action is not None:
            self.problem(number, f"\"config\" must come before any line other than \"board\" "
                                 f"(line {self.first_action[0]} is a "
                                 f"{_json(self.first_action[1])} line)")
        self.first = self.first or (number, kind)
        if kind not in ("board", "config"):
            self.first_action = self.first_action or (number, kind)

    def build(self, number: int, kind: str, document: dict[str, Any]) -> ScriptLine:
        """The line of `kind`: JSON shapes are checked here, values by the line classes."""
        value = document[kind]
        match kind:
            case "board" if value == "position":
                return self.position(number, document)
            case "board":
                return StartingBoard(value, line=number)
            case "config":
                if not isinstance(value, dict):
                    raise ScriptLineError(  # noqa: TRY004 (bad input, as any other fault)
                        f"expected an object of settings such as {{\"match\": 5}}, "
                        f"got {_json(value)}")
                return Config(value, line=number)
            case "dice":
                first, second = _items(value, 2, "[a, b]")
                return SetDice(first, second, line=number)
            case "lift":
                return Lift(value, line=number)
            case "place":
                return Place(value, line=number)
            case "move":
                source, destination = _items(value, 2, "[FROM, TO]")
                return Move(source, destination, line=number)
            case "slot":
                location, index, closed = _items(value, 3, "[LOC, i, true|false]")
                return Slot(location, index, closed, line=number)
            case "press":
                return ShortPress(value, line=number)
            case "hold":
                return Hold(value, line=number)
            case "wait":
                return Wait(value, line=number)
            case "remote":
                return FromRemote.of(value, number)
            case "link":
                return LinkLine.of(value, number)
            case "await":
                return Await(value, line=number)
            case "join" | "leave":
                return Seating(value, kind == "join", line=number)
            case _:
                return Show(value, line=number)

    @staticmethod
    def position(number: int, document: dict[str, Any]) -> BoardPosition:
        xgid_text = document.get("xgid")
        if xgid_text is not None:
            return _Parser.xgid_position(number, xgid_text, len(document) > 2)
        faults = []
        position_id = document.get("position_id")
        if not isinstance(position_id, str):
            faults.append("\"position_id\": expected a gnubg Position ID (a string), got "
                          + ("nothing" if position_id is None else _json(position_id)))
        turn = document.get("turn")
        side = _SIDES.get(turn) if isinstance(turn, str) else None
        if side is None:
            faults.append(f"\"turn\": expected \"white\" or \"black\", got "
                          f"{_json(document.get('turn', 'nothing'))}")
        match_id = document.get("match_id")
        if match_id is not None and not isinstance(match_id, str):
            faults.append(f"\"match_id\": expected a gnubg Match ID (a string), got {_json(match_id)}")
        if faults or not isinstance(position_id, str) or side is None:  # either of the last two is a fault
            raise ScriptLineError("; ".join(faults))
        return BoardPosition(position_id, side, match_id, line=number)

    @staticmethod
    def xgid_position(number: int, text: object, more: bool) -> BoardPosition:
        """``{"board": "position", "xgid": "XGID=..."}``: the XGID's position, player on
        turn and match (as a Match ID)."""
        if more:
            raise ScriptLineError("\"xgid\" gives the position, the turn and the match: leave out the other keys")
        if not isinstance(text, str):
            raise ScriptLineError(f"\"xgid\": expected an XGID (a string), got {_json(text)}")
        try:
            ids = xgid_ids(text)  # as `read_ids` reads an XGID; the key says it is one
            key = ids.key
        except RulesError as error:
            raise ScriptLineError(f"\"xgid\": {error}") from None
        turn = key.dice_owner if key is not None else Side.WHITE  # an XGID always gives a Match ID
        return BoardPosition(ids.position_id, turn, ids.match_id, line=number)

    def check_switch(self, line: Slot) -> None:
        assert self.geometry is not None
        slots = self.geometry.slots(line.location)
        if not slots:
            self.problem(line.line, f"{describe(line.location)} has no switches on this board")
        elif line.index >= slots:
            self.problem(line.line, f"{describe(line.location)} has switches 0 to {slots - 1} "
                                    f"on this board, not {line.index}")

    def script(self, source: str) -> Script:
        config: dict[str, Any] = {}
        for line in self.configs:
            config.update(line.settings)
        script = Script(self.board or StartingBoard(), MappingProxyType(config), tuple(self.lines))
        if not self.problems:
            self.check_together(script)
        if self.problems:
            self.problems.sort(key=lambda problem: problem[0])
            raise ScriptError(source, [text for _, text in self.problems])
        return script

    def check_together(self, script: Script) -> None:
        """Faults no single line shows: config lines that clash with each other or the board."""
        board = script.board
        if isinstance(board, BoardPosition) and board.match is not None:
            length = board.match.match_length
            for line in self.configs:
                if line.settings.get("match", length) != length:
                    self.problem(line.line, f"match {line.settings['match']} contradicts the "
                                            f"board's match ID (line {board.line}), which says "
                                            + (f"a match to {length}" if length else "money play"))
        if self.problems:
            return
        if isinstance(board, BoardPosition) and (clash := club_problem(script.config, board.match_id)) is not None:
            self.problem(board.line, clash)
            return
        try:
            script.settings  # noqa: B018 (validating is the point)
        except SettingsError as error:
            where = self.configs[-1].line if self.configs else board.line
            self.problem(where, f"the settings together: {error}")


def _items(value: Any, count: int, shape: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != count:
        raise ScriptLineError(f"expected {shape}, got {_json(value)}")
    return value


def _no_constant(name: str) -> float:
    raise ScriptLineError(f"{name} is not a number JSON allows")


# -- writing ------------------------------------------------------------------------------


_ONE_VALUE: dict[type, tuple[str, str]] = {
    Lift: ("lift", "location"), Place: ("place", "location"), ShortPress: ("press", "button"),
    Hold: ("hold", "button"), Show: ("show", "what"), Await: ("await", "what"),
}
"""The lines written as their key and one attribute's value: ``{"press": "white.turn"}``."""


def format_line(line: ScriptLine) -> str:
    """`line` as one line of compact JSON, written the way the spec writes it (no newline)."""
    if (one := _ONE_VALUE.get(type(line))) is not None:
        key, attribute = one
        return json.dumps({key: getattr(line, attribute)})
    match line:
        case StartingBoard(kind=kind):
            document: dict[str, Any] = {"board": kind}
        case BoardPosition():
            document = {"board": "position", "position_id": line.position_id,
                        "turn": line.turn.label}
            if line.match_id is not None:
                document["match_id"] = line.match_id
        case Config(settings=settings):
            document = {"config": dict(settings)}
        case SetDice(first=first, second=second):
            document = {"dice": [first, second]}
        case Move(source=source, destination=destination):
            document = {"move": [source, destination]}
        case Slot(location=location, index=index, closed=closed):
            document = {"slot": [location, index, closed]}
        case Wait(seconds=seconds):
            document = {"wait": int(seconds) if seconds.is_integer() else seconds}
        case FromRemote(event=event):
            document = {"remote": event if event == "roll" else event.to_json()}
        case LinkLine(link=link):
            document = {"link": link.value}
        case Seating(player=player, joins=joins):
            document = {"join" if joins else "leave": player}
        case _:
            raise TypeError(f"not a script line: {line!r}")
    return json.dumps(document)
