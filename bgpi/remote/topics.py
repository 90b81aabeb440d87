"""The topics of a remote game (docs/remote.md, "Topics"): built and read here, nowhere else.

Every topic is ``bgpi/v1/<game>/<side>/<channel>``: the game ID both boards are given, the
side of the board that publishes on it, and what it carries.  A `Topic` is one of them;
`str` gives its text, `Topic.parse` reads one back from the broker (which anybody may
have written to: a `TopicError` line for anything else); `both_sides` is the filter a
watcher subscribes to.

>>> topic = Topic("club-7", Side.BLACK, Channel.MSG)
>>> str(topic)
'bgpi/v1/club-7/black/msg'
>>> Topic.parse("bgpi/v1/club-7/black/msg") == topic
True
>>> both_sides("club-7", Channel.STATE)
'bgpi/v1/club-7/+/state'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bgpi.exc import TopicError
from bgpi.remote.messages import GAME_ID
from bgpi.rules.position import Side

ROOT = "bgpi/v1"
"""The root of every bgpi topic: its version changes with the topics' layout."""


class Channel(StrEnum):
    """What a board publishes on one of its topics."""

    MSG = "msg"  # the messages to the other board (`bgpi.remote.messages`)
    PRESENCE = "presence"  # retained ``online``, or the last will ``offline``
    STATE = "state"  # retained: where its game stands, for watchers (`bgpi.remote.state`)
    LOG = "log"  # every committed table-log event, for watchers


@dataclass(frozen=True, slots=True)
class Topic:
    """The topic on which the board playing `side` of game `game` publishes `channel`."""

    game: str
    side: Side
    channel: Channel

    def __str__(self) -> str:
        return f"{ROOT}/{self.game}/{self.side.label}/{self.channel.value}"

    @classmethod
    def parse(cls, text: str) -> Topic:
        """The topic `text` names.

        >>> Topic.parse("bgpi/v1/club-7/purple/state")
        Traceback (most recent call last):
        ...
        bgpi.exc.TopicError: 'bgpi/v1/club-7/purple/state': 'purple' is no side

        :raises TopicError: for text that is no topic of a bgpi game (one line).
        """
        parts = text.split("/")
        if len(parts) != 5 or "/".join(parts[:2]) != ROOT:
            raise TopicError(f"{text[:120]!r} is no topic {ROOT}/<game>/<side>/<channel>")
        game, side, channel = parts[2:]
        if GAME_ID.fullmatch(game) is None:
            raise TopicError(f"{text[:120]!r}: {game[:70]!r} is no game ID")
        if side not in (Side.WHITE.label, Side.BLACK.label):
            raise TopicError(f"{text[:120]!r}: {side[:20]!r} is no side")
        if channel not in tuple(Channel):
            raise TopicError(f"{text[:120]!r}: {channel[:20]!r} is no channel ({', '.join(Channel)})")
        return cls(game, Side.parse(side), Channel(channel))


def both_sides(game: str, channel: Channel) -> str:
    """The filter of both boards' `channel` topics in game `game` (a subscription)."""
    return f"{ROOT}/{game}/+/{channel.value}"
