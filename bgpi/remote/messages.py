"""The messages two boards send each other, version 1 (docs/remote.md, "Messages").

Every message is one JSON object of at most `MAX_BYTES`, with the version ``"v": 1``, the
game ID, the sender's own side (``"from"``), its sequence number (``"seq"``: 1, 2, ... per
sender, never reused) and its ``"kind"``.  One frozen class a kind; `parse` is the only
place bytes from the broker become a message, and it trusts nothing: a message that is not
exactly one of these raises `MessageError` with one line saying what is wrong with it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, get_args

from bgpi.exc import BgpiError, MessageError
from bgpi.rules.position import Side
from bgpi.table import events as ev

VERSION = 1
MAX_BYTES = 8 * 1024
"""The largest message read: a session and one event fit many times over."""
MAX_LINE = 500
"""The longest line a `Disagree` carries."""

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_HEX64 = re.compile(r"[0-9a-f]{64}")

ActionEvent = ev.Double | ev.Take | ev.Drop | ev.Beaver | ev.Play | ev.ResignOffered | ev.ResignAccepted \
    | ev.ResignDeclined | ev.Claimed
"""The table-log events a board sends as its own side's actions: the decisions of its players."""

ACTION_KINDS: frozenset[str] = frozenset(cls.kind for cls in get_args(ActionEvent))
"""The kinds of `ActionEvent`, as the wire names them."""

LOCAL_KEYS = ("engine", "opponent", "opponent_side", "hint_level", "coach", "remote")
"""Session keys each board keeps to itself (its own engine and hints, which side is remote)."""


def shared_session(config: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a session's config both boards must agree on (the rules of the match)."""
    return {key: value for key, value in config.items() if key not in LOCAL_KEYS}


@dataclass(frozen=True, slots=True)
class _Message:
    """What every message has: the game, the sender's side and its sequence number."""

    kind: ClassVar[str]
    game: str
    sender: Side
    seq: int

    def to_bytes(self) -> bytes:
        """The message as it goes on the wire: compact JSON, its keys in a fixed order."""
        data: dict[str, Any] = {"v": VERSION, "game": self.game, "from": self.sender.label, "seq": self.seq,
                                "kind": self.kind}
        data.update(self._body())
        return json.dumps(data, separators=(",", ":")).encode()

    def _body(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True, slots=True)
class Hello(_Message):
    """Sent on every (re)connection: what the sender has received, its session and its game so far."""

    kind: ClassVar[str] = "hello"
    seen: int  # the last seq received from the other board (0: none)
    session: dict[str, Any]  # `shared_session` of the sender's session config
    at: int  # game events in the sender's journal

    def _body(self) -> dict[str, Any]:
        return {"seen": self.seen, "session": self.session, "at": self.at}


@dataclass(frozen=True, slots=True)
class Action(_Message):
    """One of the sender's own side's committed events, and where its game stood before it."""

    kind: ClassVar[str] = "action"
    event: ActionEvent
    at: int  # game events before it
    match_id: str | None
    position_id: str

    def _body(self) -> dict[str, Any]:
        return {"event": self.event.to_json(), "at": self.at, "match_id": self.match_id,
                "position_id": self.position_id}


@dataclass(frozen=True, slots=True)
class Commit(_Message):
    """The hash of the sender's secret for roll `roll` of the session (docs/remote.md, "Dice")."""

    kind: ClassVar[str] = "commit"
    roll: int
    hash: str  # 64 lowercase hex digits

    def _body(self) -> dict[str, Any]:
        return {"roll": self.roll, "hash": self.hash}


@dataclass(frozen=True, slots=True)
class Reveal(_Message):
    """The sender's secret for roll `roll`, sent once both commitments are known."""

    kind: ClassVar[str] = "reveal"
    roll: int
    secret: bytes  # 32 bytes; 64 hex digits on the wire

    def _body(self) -> dict[str, Any]:
        return {"roll": self.roll, "secret": self.secret.hex()}


@dataclass(frozen=True, slots=True)
class Bye(_Message):
    """The sender stops on purpose (its board is switched off, the session ended)."""

    kind: ClassVar[str] = "bye"


@dataclass(frozen=True, slots=True)
class Disagree(_Message):
    """The sender found the boards disagree (its `line` says how): play stops on both boards."""

    kind: ClassVar[str] = "disagree"
    line: str

    def _body(self) -> dict[str, Any]:
        return {"line": self.line}


Message = Hello | Action | Commit | Reveal | Bye | Disagree


# -- reading ---------------------------------------------------------------------------


def parse(raw: bytes) -> Message:
    """The message `raw` holds.

    :raises MessageError: (one line) for anything else: too big, not a JSON object, another
        version, a field missing or of the wrong type, an action that is not one of the
        sender's own side's decisions."""
    if len(raw) > MAX_BYTES:
        raise MessageError(f"a message of {len(raw)} bytes from the other board: at most {MAX_BYTES} are read")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise MessageError("a message from the other board that is not JSON") from None
    if not isinstance(data, dict):
        raise MessageError("a message from the other board that is not a JSON object")
    if data.get("v") != VERSION:
        raise MessageError(f"a message of version {data.get('v')!r} from the other board: this board reads "
                           f"version {VERSION}")
    kind = data.get("kind")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise MessageError(f"a message of unknown kind {kind!r} from the other board")
    try:
        f = _Fields(data)
        return reader(f, f.game(), f.side(), f.seq())
    except MessageError:
        raise
    except (KeyError, TypeError, ValueError, BgpiError) as error:
        reason = f"no {error}" if isinstance(error, KeyError) else str(error)
        raise MessageError(f"a malformed {kind} message from the other board ({reason})") from None


class _Fields:
    """A message's dict, read one checked value at a time."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def whole(self, key: str, least: int = 0) -> int:
        value = self.data[key]
        if type(value) is not int or value < least:
            raise ValueError(f"{key} must be a whole number >= {least}, not {value!r}")
        return value

    def text(self, key: str, pattern: re.Pattern[str]) -> str:
        value = self.data[key]
        if not isinstance(value, str) or not pattern.fullmatch(value):
            raise ValueError(f"{key} {value!r} is not of the form {pattern.pattern}")
        return value

    def game(self) -> str:
        return self.text("game", GAME_ID)

    def side(self) -> Side:
        value = self.data["from"]
        if value not in ("white", "black"):
            raise ValueError(f"from must be 'white' or 'black', not {value!r}")
        return Side.parse(value)

    def seq(self) -> int:
        return self.whole("seq", 1)

    def mapping(self, key: str) -> dict[str, Any]:
        value = self.data[key]
        if not isinstance(value, dict):
            raise TypeError(f"{key} must be a JSON object")
        return value

    def line(self) -> str:
        value = self.data["line"]
        if not isinstance(value, str) or not value.isprintable() or len(value) > MAX_LINE:
            raise ValueError(f"line must be one printable line of at most {MAX_LINE} characters")
        return value

    def optional_text(self, key: str) -> str | None:
        value = self.data[key]
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{key} must be text or null")
        return value

    def event(self, sender: Side) -> ActionEvent:
        data = self.mapping("event")
        if data.get("event") not in ACTION_KINDS:
            raise ValueError(f"the event {data.get('event')!r} is not a player's decision")
        event = ev.parse(data)
        assert isinstance(event, ActionEvent)  # parse gives the class of the kind checked above
        if event.player is not sender:
            raise ValueError(f"a {event.kind} of {event.player.label}, sent by {sender.label}")
        return event


def _action(f: _Fields, game: str, sender: Side, seq: int) -> Action:
    position_id = f.data["position_id"]
    if not isinstance(position_id, str):
        raise TypeError("position_id must be text")
    return Action(game, sender, seq, f.event(sender), f.whole("at"), f.optional_text("match_id"), position_id)


def _reveal(f: _Fields, game: str, sender: Side, seq: int) -> Reveal:
    return Reveal(game, sender, seq, f.whole("roll", 1), bytes.fromhex(f.text("secret", _HEX64)))


_READERS: dict[str, Callable[[_Fields, str, Side, int], Message]] = {
    "hello": lambda f, game, sender, seq: Hello(game, sender, seq, f.whole("seen"), f.mapping("session"),
                                                f.whole("at")),
    "action": _action,
    "commit": lambda f, game, sender, seq: Commit(game, sender, seq, f.whole("roll", 1), f.text("hash", _HEX64)),
    "reveal": _reveal,
    "bye": lambda f, game, sender, seq: Bye(game, sender, seq),
    "disagree": lambda f, game, sender, seq: Disagree(game, sender, seq, f.line()),
}
