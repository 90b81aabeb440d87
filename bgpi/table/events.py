"""The table log's events as values: what happened at the table, one kind a class.

Every line of the table log (docs/board-script.md) is one of these events; the journal
is the part of it that changes the game, read back after a power cut.  Each event is a
frozen value with its JSON form: `to_json()` gives the log's dict (its keys in the order
the log has always written them), and `parse` reads one back, the only place a dict
becomes an event.  A reader meets kinds it does not know (the shell's own ``lights``
and ``sensor_fault``, kinds of a later version): `parse` gives those as `Unknown`,
which every reader ignores, as the board script's documentation asks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, ClassVar

from bgpi.board.locations import Location, parse_location
from bgpi.exc import EventError
from bgpi.rules.position import Side
from bgpi.rules.result import GameResult, ResultKind
from bgpi.rules.session import Score, Session
from bgpi.table.phases import CubeWord, Phase

OMITTED = {"omitted": True}
"""Field metadata: the field is left out of the JSON form when None or False."""


class _Event:
    """What every event has: its kind, and its JSON form built from its fields in order."""

    __slots__ = ()
    kind: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        """The event as the table log writes it."""
        data: dict[str, Any] = {"event": self.kind}
        for name, key, omitted in _layout(type(self)):
            value = getattr(self, name)
            if not (omitted and (value is None or value is False)):
                data[key] = _json(value)
        return data


def _layout(cls: type) -> tuple[tuple[str, str, bool], ...]:
    """An event class's fields in order: (attribute, JSON key, left out when None or False).
    Worked out once a class: events are written at every scan that changes the board."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        layout = _LAYOUTS[cls] = tuple(
            (each.name, each.name.removesuffix("_"), bool(each.metadata.get("omitted")))  # from_: a keyword
            for each in fields(cls))
    return layout


_LAYOUTS: dict[type, tuple[tuple[str, str, bool], ...]] = {}


_PLAIN = (int, str, bool, float, type(None))


def _json(value: Any) -> Any:
    if type(value) in _PLAIN:
        return value
    match value:
        case Side():
            return value.label
        case Phase():
            return value.json
        case Enum():
            return value.value
        case tuple() | list():
            return [_json(item) for item in value]
        case dict():
            return {str(key): _json(item) for key, item in value.items()}
    return value


# -- the session ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewSession(_Event):
    """A session begins: its settings, and the practice position it starts from, if any."""

    kind: ClassVar[str] = "session"
    config: dict[str, Any]
    position_id: str | None = field(default=None, metadata=OMITTED)
    turn: Side | None = field(default=None, metadata=OMITTED)
    match_id: str | None = field(default=None, metadata=OMITTED)


@dataclass(frozen=True, slots=True)
class Resumed(_Event):
    """The shell read the journal back: how many events, and what was wrong with it."""

    kind: ClassVar[str] = "resumed"
    events: int
    problems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Start(_Event):
    """A game starts from the position set up."""

    kind: ClassVar[str] = "start"
    position_id: str


@dataclass(frozen=True, slots=True)
class Tie(_Event):
    """An opening roll of doubles: rolled again (the cube turned where automatic doubles are on)."""

    kind: ClassVar[str] = "tie"
    white: int
    black: int
    cube: int


@dataclass(frozen=True, slots=True)
class Opening(_Event):
    """The opening roll: who starts, with both dice."""

    kind: ClassVar[str] = "opening"
    white: int
    black: int
    starts: Side
    cube: int


@dataclass(frozen=True, slots=True)
class Roll(_Event):
    kind: ClassVar[str] = "roll"
    player: Side
    dice: tuple[int, int]


# -- following a turn ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step(_Event):
    """One checker moved on the board, as a part of the play (`hit`: a blot hit on the way)."""

    kind: ClassVar[str] = "step"
    player: Side
    from_: Location
    to: Location
    hit: bool


@dataclass(frozen=True, slots=True)
class Undo(_Event):
    """A step taken back: the checker from `from_` is back on `to`."""

    kind: ClassVar[str] = "undo"
    player: Side
    from_: Location
    to: Location


@dataclass(frozen=True, slots=True)
class Rejected(_Event):
    """A refusal, with the reason a player understands and the points lit for it;
    `lenient`: how the opponent may accept the play as made."""

    kind: ClassVar[str] = "rejected"
    player: Side | None
    reason: str
    points: tuple[Location, ...] = ()
    lenient: str | None = field(default=None, metadata=OMITTED)


@dataclass(frozen=True, slots=True)
class Ambiguous(_Event):
    """The switches cannot tell these plays apart: the mover chooses.  `in_hand`: the
    location a checker may still be in hand from, when a play's last checker may as
    well be hidden on a full point (then the mover puts it down, or commits the play)."""

    kind: ClassVar[str] = "ambiguous"
    player: Side
    candidates: tuple[str, ...]
    in_hand: Location | None = field(default=None, metadata=OMITTED)


@dataclass(frozen=True, slots=True)
class Play(_Event):
    """A play committed: the move, and the IDs after it (the next player on roll)."""

    kind: ClassVar[str] = "play"
    player: Side
    dice: tuple[int, int]
    move: str
    position_id: str
    match_id: str
    lenient: bool = field(default=False, metadata=OMITTED)


@dataclass(frozen=True, slots=True)
class Mismatch(_Event):
    """The board shows what the game cannot explain: play pauses."""

    kind: ClassVar[str] = "mismatch"
    missing: dict[Location, int]
    extra: dict[Location, int]
    hint: str | None = field(default=None, metadata=OMITTED)
    reason: str | None = field(default=None, metadata=OMITTED)


@dataclass(frozen=True, slots=True)
class Restored(_Event):
    """The board shows the game again."""

    kind: ClassVar[str] = "restored"

# -- the cube --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Double(_Event):
    kind: ClassVar[str] = "double"
    player: Side
    cube: int


@dataclass(frozen=True, slots=True)
class DropAsked(_Event):
    """The first press of a drop: the question asked again before the game ends."""

    kind: ClassVar[str] = "drop_asked"
    player: Side
    reason: str


@dataclass(frozen=True, slots=True)
class DropCancelled(_Event):
    kind: ClassVar[str] = "drop_cancelled"
    player: Side


@dataclass(frozen=True, slots=True)
class Beaver(_Event):
    kind: ClassVar[str] = "beaver"
    player: Side
    cube: int


@dataclass(frozen=True, slots=True)
class Take(_Event):
    kind: ClassVar[str] = "take"
    player: Side
    cube: int


@dataclass(frozen=True, slots=True)
class Drop(_Event):
    kind: ClassVar[str] = "drop"
    player: Side
    cube: int


# -- the end of a game -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameOver(_Event):
    """A game won: its kind, the points (cube included) and the score after it."""

    kind: ClassVar[str] = "game_over"
    winner: Side
    result: ResultKind
    points: int
    score: dict[str, int]
    cube: int
    dropped: bool
    resigned: bool = field(default=False, metadata=OMITTED)

    @classmethod
    def of(cls, result: GameResult, score: Score) -> GameOver:
        """The end of a game won as `result`, the session's score `score` after it."""
        return cls(result.winner, result.kind, result.points, score.as_dict(), result.cube, result.dropped,
                   result.resigned)

    def game_result(self) -> GameResult:
        """The result this event records."""
        return GameResult(self.winner, self.result, self.cube, self.dropped, self.resigned)


@dataclass(frozen=True, slots=True)
class ResignOffered(_Event):
    """`player` offers to resign: the opponent wins `result` (times the cube) by accepting."""

    kind: ClassVar[str] = "resign_offered"
    player: Side
    result: ResultKind


@dataclass(frozen=True, slots=True)
class ResignAccepted(_Event):
    """`player` accepts the opponent's resignation: the ``game_over`` follows."""

    kind: ClassVar[str] = "resign_accepted"
    player: Side


@dataclass(frozen=True, slots=True)
class ResignDeclined(_Event):
    """`player` declines the opponent's resignation: the game goes on where it stood."""

    kind: ClassVar[str] = "resign_declined"
    player: Side


@dataclass(frozen=True, slots=True)
class MatchOver(_Event):
    kind: ClassVar[str] = "match_over"
    winner: Side
    score: dict[str, int]


def game_end(session: Session, result: GameResult) -> list[GameOver | MatchOver]:
    """The events of a game won as `result` in `session`: its ``game_over``, and the
    ``match_over`` when it wins the match."""
    after = session.record(result)
    ended: list[GameOver | MatchOver] = [GameOver.of(result, after.score)]
    winner = after.winner
    if after.is_over and winner is not None:
        ended.append(MatchOver(winner, after.score.as_dict()))
    return ended


# -- advice ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _AdvisedPlay(_Event):
    """The engine's best play of the roll; `position_id` after it, the next player on roll."""

    player: Side
    dice: tuple[int, int]
    move: str
    position_id: str
    equity: float


@dataclass(frozen=True, slots=True)
class Hint(_AdvisedPlay):
    """The engine's best play of the roll, shown to the player who asked."""

    kind: ClassVar[str] = "hint"


@dataclass(frozen=True, slots=True)
class CubeHint(_Event):
    """The engine's cube advice for `player` (a hint too: the log's kind is ``hint``)."""

    kind: ClassVar[str] = "hint"
    player: Side
    advice: CubeWord
    equities: dict[str, float]


@dataclass(frozen=True, slots=True)
class HintOff(_Event):
    """The hint is hidden."""

    kind: ClassVar[str] = "hint_off"

@dataclass(frozen=True, slots=True)
class Coach(_Event):
    """The better play, shown where the play made lost more than the coach allows."""

    kind: ClassVar[str] = "coach"
    player: Side
    played: str
    best: str
    loss: float
    from_: tuple[Location, ...]
    to: tuple[Location, ...]


@dataclass(frozen=True, slots=True)
class ComputerPlay(_AdvisedPlay):
    """The computer's play, which the human then moves on the board."""

    kind: ClassVar[str] = "computer_play"


@dataclass(frozen=True, slots=True)
class ComputerCube(_Event):
    kind: ClassVar[str] = "computer_cube"
    player: Side
    decision: CubeWord
    equities: dict[str, float]


@dataclass(frozen=True, slots=True)
class ComputerStopped(_Event):
    """The engine failed the computer `player` time after time (`reason`, its last
    error): that side is played by hand for the rest of the session."""

    kind: ClassVar[str] = "computer_stopped"
    player: Side
    reason: str


# -- a remote game ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RemotePlay(_Event):
    """The other board's play, checked legal for this roll: the local hands move it on
    the board as lit, and it commits itself as ``play`` once the board shows it."""

    kind: ClassVar[str] = "remote_play"
    player: Side
    dice: tuple[int, int]
    move: str
    position_id: str


@dataclass(frozen=True, slots=True)
class RemoteRefused(_Event):
    """The other board sent an event (`refused`, its kind) the game does not allow where
    it stands: nothing changes; `reason` says why in one line."""

    kind: ClassVar[str] = "remote_refused"
    player: Side
    refused: str
    reason: str


# -- where the table stands --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class State(_Event):
    """Where the table stands (`board_position_id`: the board's, partway through a play)."""

    kind: ClassVar[str] = "state"
    phase: Phase
    turn: Side | None
    dice: tuple[int, int] | None
    position_id: str
    match_id: str | None
    score: dict[str, int]
    board_position_id: str | None = field(default=None, metadata=OMITTED)


@dataclass(frozen=True, slots=True)
class Unknown:
    """An event of a kind this version does not know: kept as read, and ignored."""

    data: Mapping[str, Any]

    @property
    def kind(self) -> str:
        return str(self.data.get("event"))

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)


Event = (NewSession | Resumed | Start | Tie | Opening | Roll | Step | Undo | Rejected | Ambiguous | Play
         | Mismatch | Restored | Double | DropAsked | DropCancelled | Beaver | Take | Drop | GameOver
         | ResignOffered | ResignAccepted | ResignDeclined | MatchOver | Hint | CubeHint | HintOff | Coach
         | ComputerPlay | ComputerCube | ComputerStopped | RemotePlay | RemoteRefused | State | Unknown)


Emit = Callable[[Event], None]
"""How a part of the table reports an event: applied to the state, and logged."""


# -- reading the JSON form -----------------------------------------------------------------


def parse(data: Any) -> Event:
    """The event a table-log dict holds.  Keys it does not know are allowed (a later
    version's); a kind it does not know is `Unknown`.  Raises EventError for a dict that
    is no event, or an event of a known kind without its keys or with wrong values."""
    if not isinstance(data, Mapping) or not isinstance(data.get("event"), str):
        raise EventError(f"not a table-log event: {data!r}")
    kind = data["event"]
    reader = _READERS.get(kind)
    if reader is None:
        return Unknown(data)
    try:
        return reader(_Fields(data))
    except (KeyError, TypeError, ValueError) as error:
        reason = f"missing {error}" if isinstance(error, KeyError) else str(error)
        raise EventError(f"a malformed {kind} event ({reason}): {data!r}") from error


class _Fields:
    """An event's dict, read one typed value at a time (KeyError, TypeError or
    ValueError for a value that is missing or wrong)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, kind: type | tuple[type, ...]) -> Any:
        value = self.data[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, float, (int, float))):
            raise TypeError(f"{key}: {value!r}")
        return value

    def whole(self, key: str) -> int:
        return int(self.get(key, int))

    def number(self, key: str) -> float:
        value: float = self.get(key, (int, float))  # as written: 0 stays 0
        return value

    def text(self, key: str) -> str:
        return str(self.get(key, str))

    def flag(self, key: str) -> bool:
        return bool(self.get(key, bool))

    def optional_text(self, key: str) -> str | None:
        return self.text(key) if self.data.get(key) is not None else None

    def side(self, key: str) -> Side:
        return Side.parse(self.text(key))

    def optional_side(self, key: str) -> Side | None:
        return self.side(key) if self.data.get(key) is not None else None

    def dice(self, key: str) -> tuple[int, int]:
        first, second = self.get(key, list)
        if not all(isinstance(die, int) and not isinstance(die, bool) for die in (first, second)):
            raise TypeError(f"{key}: {self.data[key]!r}")
        return first, second

    def location(self, value: Any) -> Location:
        if not isinstance(value, int | str) or isinstance(value, bool):
            raise TypeError(f"location {value!r}")
        return parse_location(value)

    def locations(self, key: str) -> tuple[Location, ...]:
        return tuple(self.location(value) for value in self.get(key, list))

    def counts(self, key: str) -> dict[Location, int]:
        return {self.location(place): int(count) for place, count in self.get(key, dict).items()}

    def mapping(self, key: str) -> dict[str, Any]:
        return dict(self.get(key, dict))

    def strings(self, key: str) -> tuple[str, ...]:
        return tuple(str(value) for value in self.get(key, list))


def _session(f: _Fields) -> NewSession:
    config = f.mapping("config") if f.has("config") else {}
    if not f.has("position_id"):
        return NewSession(config)
    return NewSession(config, f.text("position_id"), f.side("turn"), f.optional_text("match_id") or None)


def _hint(f: _Fields) -> Hint | CubeHint:
    if f.has("move"):
        return Hint(f.side("player"), f.dice("dice"), f.text("move"), f.text("position_id"), f.number("equity"))
    return CubeHint(f.side("player"), CubeWord(f.text("advice")), f.mapping("equities"))


def _mismatch(f: _Fields) -> Mismatch:
    return Mismatch(f.counts("missing"), f.counts("extra"), f.optional_text("hint"), f.optional_text("reason"))


def _rejected(f: _Fields) -> Rejected:
    points = f.locations("points") if f.has("points") else ()
    return Rejected(f.optional_side("player"), f.text("reason"), points, f.optional_text("lenient"))


def _play(f: _Fields) -> Play:
    return Play(f.side("player"), f.dice("dice"), f.text("move"), f.text("position_id"), f.text("match_id"),
                bool(f.data.get("lenient", False)))


def _state(f: _Fields) -> State:
    dice = f.dice("dice") if f.data.get("dice") is not None else None
    return State(Phase.parse(f.text("phase")), f.optional_side("turn"), dice, f.text("position_id"),
                 f.optional_text("match_id"), f.mapping("score"), f.optional_text("board_position_id"))


_READERS: dict[str, Callable[[_Fields], Event]] = {
    "session": _session,
    "resumed": lambda f: Resumed(f.whole("events"), f.strings("problems") if f.has("problems") else ()),
    "start": lambda f: Start(f.text("position_id")),
    "tie": lambda f: Tie(f.whole("white"), f.whole("black"), f.whole("cube")),
    "opening": lambda f: Opening(f.whole("white"), f.whole("black"), f.side("starts"), f.whole("cube")),
    "roll": lambda f: Roll(f.side("player"), f.dice("dice")),
    "step": lambda f: Step(f.side("player"), f.location(f.data["from"]), f.location(f.data["to"]),
                           f.flag("hit")),
    "undo": lambda f: Undo(f.side("player"), f.location(f.data["from"]), f.location(f.data["to"])),
    "rejected": _rejected,
    "ambiguous": lambda f: Ambiguous(f.side("player"), f.strings("candidates"),
                                     f.location(f.data["in_hand"]) if f.data.get("in_hand") is not None else None),
    "play": _play,
    "mismatch": _mismatch,
    "restored": lambda f: Restored(),
    "double": lambda f: Double(f.side("player"), f.whole("cube")),
    "drop_asked": lambda f: DropAsked(f.side("player"), f.text("reason")),
    "drop_cancelled": lambda f: DropCancelled(f.side("player")),
    "beaver": lambda f: Beaver(f.side("player"), f.whole("cube")),
    "take": lambda f: Take(f.side("player"), f.whole("cube")),
    "drop": lambda f: Drop(f.side("player"), f.whole("cube")),
    "game_over": lambda f: GameOver(f.side("winner"), ResultKind(f.text("result")), f.whole("points"),
                                    f.mapping("score"), f.whole("cube"), f.flag("dropped"),
                                    f.flag("resigned") if f.has("resigned") else False),
    "resign_offered": lambda f: ResignOffered(f.side("player"), ResultKind(f.text("result"))),
    "resign_accepted": lambda f: ResignAccepted(f.side("player")),
    "resign_declined": lambda f: ResignDeclined(f.side("player")),
    "match_over": lambda f: MatchOver(f.side("winner"), f.mapping("score")),
    "hint": _hint,
    "hint_off": lambda f: HintOff(),
    "coach": lambda f: Coach(f.side("player"), f.text("played"), f.text("best"), f.number("loss"),
                             f.locations("from"), f.locations("to")),
    "computer_play": lambda f: ComputerPlay(f.side("player"), f.dice("dice"), f.text("move"),
                                            f.text("position_id"), f.number("equity")),
    "computer_cube": lambda f: ComputerCube(f.side("player"), CubeWord(f.text("decision")), f.mapping("equities")),
    "computer_stopped": lambda f: ComputerStopped(f.side("player"), f.text("reason")),
    "remote_play": lambda f: RemotePlay(f.side("player"), f.dice("dice"), f.text("move"), f.text("position_id")),
    "remote_refused": lambda f: RemoteRefused(f.side("player"), f.text("refused"), f.text("reason")),
    "state": _state,
}
