"""The table log's events as values: what happened at the table, one kind a class.

Every line of the table log (docs/board-script.md) is one of these events; the journal
is the part of it that changes the game, read back after a power cut.  Each event is a
frozen value: the table returns them (`bgpi.table.controller.Table.handle`) and every
reader takes them as they are; only the edges (the journal, the wire between boards, the
web page's JSON, a command's output) turn them into JSON and back.  `to_json()` gives the
log's dict (its keys in the order the log has always written them), and `parse` reads
one back, the only place a dict becomes an event: it follows each class's fields, one
reader a field's type.  A reader meets kinds it does not know (a later version's):
`parse` gives those as `Unknown`, which every reader ignores, as the board script's
documentation asks.

The events that make the game itself, which both boards of a remote game write alike
and in the same order, say so: `game` is True for their classes (`GAME_EVENTS`, `is_game`).

>>> event = parse({"event": "roll", "player": "white", "dice": [3, 1]})
>>> event, is_game(event)
(Roll(player=<Side.WHITE: 0>, dice=(3, 1)), True)
>>> event.to_json()
{'event': 'roll', 'player': 'white', 'dice': [3, 1]}
"""

from __future__ import annotations

import functools
import operator
import types
from collections.abc import Callable, Mapping
from dataclasses import MISSING, Field, dataclass, field, fields, replace
from enum import Enum
from typing import Any, ClassVar, TypeVar, Union, cast, get_args, get_origin, get_type_hints

from bgpi.board.locations import Location, parse_location
from bgpi.exc import EventError
from bgpi.rules.chouette import LineChange
from bgpi.rules.position import Side
from bgpi.rules.result import GameResult, ResultKind
from bgpi.rules.seats import SeatEnd
from bgpi.rules.session import Score, Session
from bgpi.table.phases import CubeWord, Phase

OMITTED = {"omitted": True}
"""Field metadata: the field is left out of the JSON form when None or False."""

AS_TEXT = {"text": True}
"""Field metadata: the field (a location) is written as its name, ``"6"`` for point 6."""


class _Event:
    """What every event has: its kind, whether it is a move of the game itself, and its
    JSON form built from its fields in order."""

    __slots__ = ()
    kind: ClassVar[str]
    game: ClassVar[bool] = False
    """Whether the event is part of the game itself (see the module docstring)."""

    def to_json(self) -> dict[str, Any]:
        """The event as the table log writes it."""
        data: dict[str, Any] = {"event": self.kind}
        for name, key, omitted, write in _layout(type(self)).written:
            value = getattr(self, name)
            if not (omitted and (value is None or value is False)):
                data[key] = write(value)
        return data


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
    config: dict[str, Any] = field(default_factory=dict)
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
    game: ClassVar[bool] = True
    position_id: str


@dataclass(frozen=True, slots=True)
class Tie(_Event):
    """An opening roll of doubles: rolled again (the cube turned where automatic doubles are on)."""

    kind: ClassVar[str] = "tie"
    game: ClassVar[bool] = True
    white: int
    black: int
    cube: int


@dataclass(frozen=True, slots=True)
class Opening(_Event):
    """The opening roll: who starts, with both dice."""

    kind: ClassVar[str] = "opening"
    game: ClassVar[bool] = True
    white: int
    black: int
    starts: Side
    cube: int


@dataclass(frozen=True, slots=True)
class Roll(_Event):
    kind: ClassVar[str] = "roll"
    game: ClassVar[bool] = True
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
class UnseenStep(_Event):
    """The lit step of a play the board follows (the computer's, the other board's) that
    no switch can see: from a point that stays full, onto one, or into a tray without
    switches.  The hands make it, and the turn button of `by` (None: either player's)
    says so; the play goes on from there."""

    kind: ClassVar[str] = "unseen_step"
    player: Side
    from_: Location
    to: Location
    by: Side | None


@dataclass(frozen=True, slots=True)
class Play(_Event):
    """A play committed: the move, and the IDs after it (the next player on roll)."""

    kind: ClassVar[str] = "play"
    game: ClassVar[bool] = True
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
    game: ClassVar[bool] = True
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
    game: ClassVar[bool] = True
    player: Side
    cube: int


@dataclass(frozen=True, slots=True)
class Take(_Event):
    kind: ClassVar[str] = "take"
    game: ClassVar[bool] = True
    player: Side
    cube: int


@dataclass(frozen=True, slots=True)
class Drop(_Event):
    kind: ClassVar[str] = "drop"
    game: ClassVar[bool] = True
    player: Side
    cube: int


# -- the end of a game -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameOver(_Event):
    """A game won: its kind, the points (cube included) and the score after it."""

    kind: ClassVar[str] = "game_over"
    game: ClassVar[bool] = True
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
    game: ClassVar[bool] = True
    player: Side
    result: ResultKind


@dataclass(frozen=True, slots=True)
class ResignAccepted(_Event):
    """`player` accepts the opponent's resignation: the ``game_over`` follows."""

    kind: ClassVar[str] = "resign_accepted"
    game: ClassVar[bool] = True
    player: Side


@dataclass(frozen=True, slots=True)
class ResignDeclined(_Event):
    """`player` declines the opponent's resignation: the game goes on where it stood."""

    kind: ClassVar[str] = "resign_declined"
    game: ClassVar[bool] = True
    player: Side


@dataclass(frozen=True, slots=True)
class Claimed(_Event):
    """A remote game: `player` claims the game the other board abandoned (away for
    `bgpi.remote.peer.CLAIM_SECONDS`): scored as the other player's resignation of
    `result` (times the cube), the ``game_over`` follows."""

    kind: ClassVar[str] = "claim"
    game: ClassVar[bool] = True
    player: Side
    result: ResultKind


@dataclass(frozen=True, slots=True)
class MatchOver(_Event):
    kind: ClassVar[str] = "match_over"
    game: ClassVar[bool] = True
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


# -- a chouette ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollOff(_Event):
    """A chouette's roll-off: one die for each of `players`, the next one or two still to
    place (in the order they were named); the highest is the box, tied players roll again."""

    kind: ClassVar[str] = "roll_off"
    game: ClassVar[bool] = True
    players: tuple[str, ...]
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Line(_Event):
    """A chouette's line, the box first, the captain second, the crew after them: placed by
    the roll-off, by a game's result (`rotation`), or by a player who `joined` or `left`."""

    kind: ClassVar[str] = "line"
    game: ClassVar[bool] = True
    line: tuple[str, ...]
    why: LineChange
    player: str | None = field(default=None, metadata=OMITTED)


@dataclass(frozen=True, slots=True)
class _SeatCube(_Event):
    """A cube action on one seat's cube: `player` is the colour that acts (the box's or
    the team's), `seat` the member of the team whose cube it is, `cube` its value after."""

    game: ClassVar[bool] = True
    player: Side
    seat: str
    cube: int


@dataclass(frozen=True, slots=True)
class SeatDouble(_SeatCube):
    kind: ClassVar[str] = "seat_double"


@dataclass(frozen=True, slots=True)
class SeatTake(_SeatCube):
    kind: ClassVar[str] = "seat_take"


@dataclass(frozen=True, slots=True)
class SeatDrop(_SeatCube):
    """The double on `seat`'s cube is dropped: the seat settles at `cube`, its value before it."""

    kind: ClassVar[str] = "seat_drop"


@dataclass(frozen=True, slots=True)
class SeatBeaver(_SeatCube):
    kind: ClassVar[str] = "seat_beaver"


@dataclass(frozen=True, slots=True)
class Captain(_Event):
    """The captain is out of the game (dropped, resigned): `player`, the next in line still
    in, rolls and moves for the team for the rest of it."""

    kind: ClassVar[str] = "captain"
    game: ClassVar[bool] = True
    player: str


@dataclass(frozen=True, slots=True)
class SeatResignOffered(_Event):
    """`player` (the box's colour or the team's) offers to resign `result` for `seats`: the
    box to every seat still in, each answering for itself; the captain for the seats that
    agree, the box answering for all of them."""

    kind: ClassVar[str] = "seat_resign_offered"
    game: ClassVar[bool] = True
    player: Side
    seats: tuple[str, ...]
    result: ResultKind


@dataclass(frozen=True, slots=True)
class SeatResignAccepted(_Event):
    """`player` accepts the resignation on offer for `seat`: the seat settles."""

    kind: ClassVar[str] = "seat_resign_accepted"
    game: ClassVar[bool] = True
    player: Side
    seat: str


@dataclass(frozen=True, slots=True)
class SeatResignDeclined(_Event):
    """`player` declines the resignation on offer for `seat`: that seat plays on."""

    kind: ClassVar[str] = "seat_resign_declined"
    game: ClassVar[bool] = True
    player: Side
    seat: str


@dataclass(frozen=True, slots=True)
class ChouetteOver(_Event):
    """A chouette game is over: for every seat of the team its cube, the kind of its result
    as scored and how it ended; `points` for every player (the box and a partner too),
    summing to zero; and the score sheet's running `totals` after the game.  `captain` is
    the captain the game began with: their own result decides the rotation.  `played`:
    the kind of win the last position shows, when the game was played out (a seat whose
    cube was not turned counts it as a single game under the Jacoby rule)."""

    kind: ClassVar[str] = "chouette_over"
    game: ClassVar[bool] = True
    box: str
    captain: str
    cubes: dict[str, int]
    results: dict[str, ResultKind]
    ends: dict[str, SeatEnd]
    points: dict[str, int]
    totals: dict[str, int]
    partner: str | None = field(default=None, metadata=OMITTED)
    played: ResultKind | None = field(default=None, metadata=OMITTED)

    def seat_result(self, seat: str, box_side: Side) -> GameResult:
        """`seat`'s game against the box as a game result: who won, how, on which cube."""
        winner = box_side.opponent if self.points[seat] > 0 else box_side
        end = self.ends[seat]
        return GameResult(winner, self.results[seat], self.cubes[seat], end is SeatEnd.DROPPED,
                          end is SeatEnd.RESIGNED)


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
    """The computer's cube decision for `player` (its double, or its answer to one), with
    gnubg's equities; in a chouette, on `seat`'s cube (each seat's is a money game of its
    own), followed by the ``seat_double``, ``seat_take``, ... it makes."""

    kind: ClassVar[str] = "computer_cube"
    player: Side
    decision: CubeWord
    equities: dict[str, float]
    seat: str | None = field(default=None, metadata=OMITTED)


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
    """Where the table stands (`board_position_id`: the board's, partway through a play).
    A session of pairs or a chouette names the `players` of each colour (as the records
    do); pairs say who rolls for each (`rollers`); a chouette adds its line, seats, cubes
    and score sheet (`chouette`, `bgpi.table.chairs.chouette_state`)."""

    kind: ClassVar[str] = "state"
    phase: Phase
    turn: Side | None
    dice: tuple[int, int] | None
    position_id: str
    match_id: str | None
    score: dict[str, int]
    board_position_id: str | None = field(default=None, metadata=OMITTED)
    players: dict[str, str] | None = field(default=None, metadata=OMITTED)
    rollers: dict[str, str] | None = field(default=None, metadata=OMITTED)
    chouette: dict[str, Any] | None = field(default=None, metadata=OMITTED)


# -- the shell's own ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SensorFault(_Event):
    """A reed switch changes faster than hands can (`changes` times in `seconds`): its
    location stays lit red, and it is read from its neighbours from then on."""

    kind: ClassVar[str] = "sensor_fault"
    switch: str  # as messages name it: "point 6 slot 2"
    location: Location = field(metadata=AS_TEXT)
    slot: int
    fault: str  # "flapping"
    changes: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Lights(_Event):
    """The roles of the lit locations (in board order), and what the board asks, if it
    asks anything: the situation `asks`, the player asked (`side`; None: either), what
    each button answers, and the `number` or `dead_dice` some situations show
    (`bgpi.table.lights.Prompt`; `bgpi.table.lights.lights_event` makes the event).  In a
    chouette, the chairs that blink for the question (`asked`) and the captain's chair."""

    kind: ClassVar[str] = "lights"
    roles: dict[Location, str]
    asks: str | None = None
    side: Side | None = None
    answers: dict[str, str] = field(default_factory=dict)
    number: int | None = None
    dead_dice: int = 0
    asked: tuple[Location, ...] = ()
    captain: Location | None = None

    def to_json(self) -> dict[str, Any]:
        """The prompt's keys come with a prompt only, and then all three (``side`` null
        for either player), as the log has always written them; a chouette's chairs
        asked and its captain's chair when there are any."""
        data: dict[str, Any] = {"event": self.kind, "roles": _json(self.roles)}
        if self.asked:
            data["asked"] = _json(self.asked)
        if self.captain is not None:
            data["captain"] = _json(self.captain)
        if self.asks is not None:
            data |= {"asks": self.asks, "side": _json(self.side), "answers": dict(self.answers)}
            if self.number is not None:
                data["number"] = self.number
            if self.dead_dice:
                data["dead_dice"] = self.dead_dice
        return data


@dataclass(frozen=True, slots=True)
class Unknown:
    """An event of a kind this version does not know: kept as read, and ignored."""

    data: Mapping[str, Any]
    game: ClassVar[bool] = False

    @property
    def kind(self) -> str:
        return str(self.data.get("event"))

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)


Event = (NewSession | Resumed | Start | Tie | Opening | Roll | Step | Undo | Rejected | Ambiguous | UnseenStep | Play
         | Mismatch | Restored | Double | DropAsked | DropCancelled | Beaver | Take | Drop | GameOver
         | ResignOffered | ResignAccepted | ResignDeclined | Claimed | MatchOver | Hint | CubeHint | HintOff | Coach
         | ComputerPlay | ComputerCube | ComputerStopped | RemotePlay | RemoteRefused | State | SensorFault
         | Lights | RollOff | Line | SeatDouble | SeatTake | SeatDrop | SeatBeaver | Captain | SeatResignOffered
         | SeatResignAccepted | SeatResignDeclined | ChouetteOver | Unknown)
"""Every event: a new kind is a class above, named here (`parse` reads every class named)."""


Emit = Callable[[Event], None]
"""How a part of the table (or the shell, for its own events) reports an event."""

_CLASSES: tuple[type[_Event], ...] = tuple(cls for cls in get_args(Event) if cls is not Unknown)

GAME_EVENTS: tuple[type[_Event], ...] = tuple(cls for cls in _CLASSES if cls.game)
"""The classes of the events that make the game itself (``start``, the rolls, the plays,
the cube, resignations, the ends of games and of the match): both boards of a remote game
write them alike, in the same order; the steps, hints and lights are each board's own."""


def is_game(event: Event) -> bool:
    """Whether `event` is part of the game itself (`GAME_EVENTS`)."""
    return event.game


# -- reading the JSON form -----------------------------------------------------------------

E = TypeVar("E", bound=_Event)


def parse(data: Any) -> Event:
    """The event a table-log dict holds.  Keys it does not know are allowed (a later
    version's); a kind it does not know is `Unknown`.  Raises EventError for a dict that
    is no event, or an event of a known kind without its keys or with wrong values.

    >>> parse({"event": "take", "player": "black"})
    Traceback (most recent call last):
    ...
    bgpi.exc.EventError: a malformed take event (missing 'cube'): {'event': 'take', 'player': 'black'}
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("event"), str):
        raise EventError(f"not a table-log event: {data!r}")
    kind = data["event"]
    read = _READERS.get(kind)
    if read is None:
        return Unknown(data)
    try:
        event = read(data)
    except (KeyError, TypeError, ValueError) as error:
        reason = f"missing {error}" if isinstance(error, KeyError) else str(error)
        raise EventError(f"a malformed {kind} event ({reason}): {data!r}") from error
    return cast(Event, event)  # each class read is one of Event's


def _read(cls: type[E], data: Mapping[str, Any]) -> E:
    """An event of class `cls` from its dict, field by field (`_layout`): KeyError for a
    key missing, TypeError or ValueError (naming the key) for a wrong value."""
    values = []
    for key, read, missing in _layout(cls).read:
        value = data.get(key, _ABSENT)
        if value is _ABSENT:
            if missing is None:
                raise KeyError(key)
            values.append(missing())
            continue
        try:
            values.append(read(value))
        except (TypeError, ValueError) as error:
            raise ValueError(f"{key}: {error}") from None
    return cls(*values)


def _session(data: Mapping[str, Any]) -> NewSession:
    """A ``session`` event: its practice fields count only with a position, which
    needs a turn; an empty Match ID is none."""
    event = _read(NewSession, data)
    if event.position_id is None:
        return NewSession(event.config)
    if event.turn is None:
        raise KeyError("turn") if "turn" not in data else TypeError(f"turn: {data['turn']!r}")
    return replace(event, match_id=event.match_id or None)


_SHAPES: dict[str, Callable[[Mapping[str, Any]], _Event]] = {
    "hint": lambda data: _read(Hint if "move" in data else CubeHint, data),
    "session": _session,
}
"""The kinds a class's fields alone do not read: a hint of a play and one of the cube
share their kind, and a session's practice fields go together."""

_READERS: dict[str, Callable[[Mapping[str, Any]], _Event]] = {
    **{cls.kind: functools.partial(_read, cls) for cls in _CLASSES}, **_SHAPES}
"""The reader of each kind: its class's fields, or its shape."""


# -- one reader a field's type ---------------------------------------------------------------

Reader = Callable[[Any], Any]
"""A JSON value to a field's value; TypeError or ValueError for a value of the wrong kind."""

_ABSENT = object()


def _as_is(value: Any) -> Any:
    return value


def _whole(value: Any) -> int:
    if type(value) is not int:  # a bool is no number here
        raise TypeError(repr(value))
    return value


def _number(value: Any) -> float:
    if type(value) not in (int, float):
        raise TypeError(repr(value))
    number: float = value  # as written: 0 stays 0
    return number


def _text(value: Any) -> str:
    if type(value) is not str:
        raise TypeError(repr(value))
    return value


def _flag(value: Any) -> bool:
    if type(value) is not bool:
        raise TypeError(repr(value))
    return value


def _location(value: Any) -> Location:
    if type(value) not in (int, str):
        raise TypeError(f"location {value!r}")
    return parse_location(value)


_PLAIN_READERS: dict[Any, Reader] = {
    Any: _as_is, int: _whole, float: _number, str: _text, bool: _flag, Location: _location,
    Side: lambda value: Side.parse(_text(value)),
    Phase: lambda value: Phase.parse(_text(value)),
}


@functools.cache
def _reader(hint: Any) -> Reader:
    """The reader of a field typed `hint` (worked out once a type)."""
    plain = _PLAIN_READERS.get(hint)
    if plain is not None:
        return plain
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType) and type(None) in args:
        present = _reader(functools.reduce(operator.or_, [arg for arg in args if arg is not type(None)]))
        return lambda value: None if value is None else present(value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return lambda value: hint(_text(value))
    if origin is tuple and args[-1:] == (...,):
        return functools.partial(_sequence, _reader(args[0]))
    if origin is tuple:
        return functools.partial(_fixed, tuple(_reader(arg) for arg in args))
    if origin is dict:
        return functools.partial(_mapping, _reader(args[0]), _reader(args[1]))
    raise TypeError(f"no reader for a field of type {hint!r}")  # a new event's field: give it one


def _sequence(item: Reader, value: Any) -> tuple[Any, ...]:
    if type(value) is not list:
        raise TypeError(repr(value))
    return tuple(item(each) for each in value)


def _fixed(items: tuple[Reader, ...], value: Any) -> tuple[Any, ...]:
    if type(value) is not list or len(value) != len(items):
        raise TypeError(repr(value))
    return tuple(read(each) for read, each in zip(items, value, strict=True))


def _mapping(key: Reader, item: Reader, value: Any) -> dict[Any, Any]:
    if type(value) is not dict:
        raise TypeError(repr(value))
    return {key(each): item(count) for each, count in value.items()}


# -- a class's layout, worked out once --------------------------------------------------------

Written = tuple[str, str, bool, Callable[[Any], Any]]
"""A field as `to_json` writes it: attribute, JSON key, left out when None or False, writer."""
Read = tuple[str, Reader, Callable[[], Any] | None]
"""A field as `parse` reads it: JSON key, reader, and its value when the key is missing
(None: the key is required)."""


@dataclass(frozen=True, slots=True)
class _Layout:
    written: tuple[Written, ...]
    read: tuple[Read, ...]


def _layout(cls: type) -> _Layout:
    """An event class's fields in order, as they are written and read.  Worked out once a
    class: events are written at every scan that changes the board.  A field's key is its
    name without a trailing ``_`` (``from_``: a keyword); a field with a default, or one
    that may be None, may be missing."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        hints = get_type_hints(cls)
        written, read = [], []
        for each in fields(cls):
            key = each.name.removesuffix("_")
            written.append((each.name, key, bool(each.metadata.get("omitted")),
                            str if each.metadata.get("text") else _json))
            read.append((key, _reader(hints[each.name]), _missing(each, hints[each.name])))
        layout = _LAYOUTS[cls] = _Layout(tuple(written), tuple(read))
    return layout


def _missing(each: Field[Any], hint: Any) -> Callable[[], Any] | None:
    """A field's value when its key is missing: its default, None where it may be None."""
    if each.default is not MISSING:
        return functools.partial(_as_is, each.default)
    if each.default_factory is not MISSING:
        return each.default_factory
    if type(None) in get_args(hint):
        return functools.partial(_as_is, None)
    return None


_LAYOUTS: dict[type, _Layout] = {}
