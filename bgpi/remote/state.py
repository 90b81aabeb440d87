"""The retained `state` message: where one board's table stands, for the watchers of a match.

Each board publishes it on ``bgpi/v1/<game>/<side>/state`` (retained, so that a watcher
who comes later sees every board at once) after each committed event::

    {"v": 1, "game": "club-1", "side": "white", "phase": "roll", "turn": "black",
     "match_length": 5, "score": [2, 1], "position_id": "4HPwATDgc/ABMA",
     "match_id": "cAkAAAAAAAAA", "crawford": false, "winner": null, "link": "connected"}

`board_state` builds it from the table's own ``state`` event; `parse_board_state` reads
one received from the broker, which anybody may have written: it is checked for size,
shape, types, version and IDs before anything of it is used, and each fault is one
`BoardStateError` line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bgpi.exc import BoardStateError, MatchIdError, PositionIdError
from bgpi.remote.messages import GAME_ID
from bgpi.rules.ids import MAX_MATCH_LENGTH, decode_match_id, position_from_id
from bgpi.rules.position import Position, Side
from bgpi.table import events as ev
from bgpi.table.phases import Link, Phase

VERSION = 1
MAX_BYTES = 8 * 1024
"""The longest `state` message read (a real one is about 250 bytes)."""
MAX_SCORE = 9999
"""The highest score read (a match is at most 64 points; money sessions run on)."""
LINKS = tuple(link.value for link in Link)
"""The words of a board's link to the other board (the table's `Link`)."""


@dataclass(frozen=True, slots=True)
class BoardState:
    """One board's `state` message, checked.

    `match_length` is None where the board's table has no game to read it from
    (between games); `winner` is the match's, named only once the match is over."""

    game: str
    side: Side
    phase: Phase
    turn: Side | None
    match_length: int | None
    score: tuple[int, int]
    position_id: str
    match_id: str | None
    crawford: bool
    winner: Side | None
    link: str

    @property
    def position(self) -> Position:
        """The checkers (the position ID is written with the player on turn, else white, to play)."""
        return position_from_id(self.position_id, self.turn or Side.WHITE)

    def to_json(self) -> dict[str, Any]:
        return {"v": VERSION, "game": self.game, "side": self.side.label, "phase": self.phase.json,
                "turn": _label(self.turn), "match_length": self.match_length, "score": list(self.score),
                "position_id": self.position_id, "match_id": self.match_id, "crawford": self.crawford,
                "winner": _label(self.winner), "link": self.link}


def board_state(event: ev.State, game: str, side: Side, link: str, match_length: int | None = None) -> dict[str, Any]:
    """The `state` message of the board playing `side` in `game`, from its table's ``state``
    event (`bgpi.table.view.TableView.state_event`) and its link word (`LINKS`).

    The match length and the Crawford flag are read from the event's Match ID; between
    games it has none, and `match_length` (the session's, where the caller knows it) is
    written instead.  At match over the winner is the player with the higher score.
    Raises BoardStateError for a bad game or link."""
    crawford = False
    if event.match_id is not None:
        key = decode_match_id(event.match_id)
        match_length, crawford = key.match_length, key.crawford
    score = (event.score.get("white", 0), event.score.get("black", 0))
    winner = None
    if event.phase is Phase.MATCH_OVER:
        winner = Side.WHITE if score[0] > score[1] else Side.BLACK
    state = BoardState(game, side, event.phase, event.turn, match_length, score, event.position_id,
                       event.match_id, crawford, winner, link)
    _check(state)
    return state.to_json()


def parse_board_state(raw: bytes) -> BoardState:
    """The `state` message `raw` holds, checked; BoardStateError (one line) for anything else.

    Keys this version does not know are allowed (a later board's)."""
    if len(raw) > MAX_BYTES:
        raise BoardStateError(f"a state message of {len(raw)} bytes: at most {MAX_BYTES}")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BoardStateError("a state message that is not JSON") from None
    if not isinstance(data, dict):
        raise BoardStateError(f"a state message that is not a JSON object but {type(data).__name__}")
    if data.get("v") != VERSION or isinstance(data.get("v"), bool):
        raise BoardStateError(f"a state message of version {json.dumps(data.get('v'))[:20]}: this bgpi reads "
                              f"version {VERSION}")
    try:
        state = BoardState(
            _text(data, "game"), Side.parse(_text(data, "side")), Phase.parse(_text(data, "phase")),
            _side(data, "turn"), _length(data), _score(data), _text(data, "position_id"),
            _text(data, "match_id") if data.get("match_id") is not None else None,
            _flag(data, "crawford"), _side(data, "winner"), _text(data, "link"))
    except KeyError as error:
        raise BoardStateError(f"a state message without {error}") from None
    except BoardStateError:
        raise
    except ValueError as error:  # SideError and a Phase that is none are ValueErrors
        raise BoardStateError(f"a state message with a bad value: {error}") from None
    _check(state)
    return state


def _check(state: BoardState) -> None:
    """The values a `BoardState` must have that its types cannot say."""
    if not GAME_ID.fullmatch(state.game):
        raise BoardStateError(f"game ID {state.game[:70]!r}: 1 to 64 letters, digits, '-' or '_'")
    if state.link not in LINKS:
        raise BoardStateError(f"link {state.link[:40]!r}: one of {', '.join(LINKS)}")
    try:
        state.position  # noqa: B018 (decoded to check it)
        if state.match_id is not None:
            decode_match_id(state.match_id)
    except (PositionIdError, MatchIdError) as error:
        raise BoardStateError(f"a state message with a bad ID: {error}") from None
    if (state.winner is not None) != (state.phase is Phase.MATCH_OVER):
        raise BoardStateError(f"a state message in phase {state.phase.json} with winner {_label(state.winner)}: "
                              "a winner is named once the match is over, and only then")


def _label(side: Side | None) -> str | None:
    return None if side is None else side.label


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise BoardStateError(f"a state message whose {key} is not text")
    if len(value) > 100:
        raise BoardStateError(f"a state message whose {key} is {len(value)} characters long")
    return value


def _side(data: Mapping[str, Any], key: str) -> Side | None:
    return None if data.get(key) is None else Side.parse(_text(data, key))


def _flag(data: Mapping[str, Any], key: str) -> bool:
    value = data[key]
    if not isinstance(value, bool):
        raise BoardStateError(f"a state message whose {key} is not true or false")
    return value


def _count(value: object, what: str, most: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0 or (most is not None and value > most):
        limit = f" 0 to {most}" if most is not None else " from 0"
        raise BoardStateError(f"a state message whose {what} is {str(value)[:20]!r}: a whole number{limit}")
    return value


def _length(data: Mapping[str, Any]) -> int | None:
    value = data["match_length"]
    return None if value is None else _count(value, "match_length", MAX_MATCH_LENGTH)


def _score(data: Mapping[str, Any]) -> tuple[int, int]:
    value = data["score"]
    if not isinstance(value, list) or len(value) != 2:
        raise BoardStateError("a state message whose score is not [white, black]")
    return _count(value[0], "white's score", MAX_SCORE), _count(value[1], "black's score", MAX_SCORE)
