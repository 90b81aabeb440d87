"""A board's presence on the broker, sealed, and what this board believes of the other's.

Each connection of a board to the broker has its own random ID and the time it was made
(`Announcement.fresh`).  The board publishes, retained, its ``online`` presence when the
connection is up, and gives the broker the ``offline`` presence of the same connection
as its last will; both are sealed (`bgpi.remote.sealing`), so nobody else can write one.
A sealed presence can still be replayed: `Believed` takes an ``online`` only if it is of
a later connection than the last believed (or the same one again), and an ``offline``
only if it is the last will of the connection believed online; an older one is dropped.
The same ``online`` again says nothing new (`bgpi.remote.mqtt.Transport` drops it
unbelieved: greeting the other board at each replay would let anybody make it talk).

>>> first = Announcement(True, "aa" * 8, 1000)
>>> believed = Believed()
>>> believed.hear(first), believed.hear(first.gone()), believed.hear(first)
(True, True, True)
>>> later = Announcement(True, "bb" * 8, 2000)
>>> believed.hear(later), believed.hear(first.gone())
(True, False)
"""

from __future__ import annotations

import json
import re
import secrets
import time
from dataclasses import dataclass, replace

from bgpi.exc import MessageError

_CONNECTION = re.compile(r"[0-9a-f]{16}")


@dataclass(frozen=True, slots=True)
class Announcement:
    """``online`` (True) or ``offline`` for the connection `connection`, made at `since`
    (milliseconds of the sending board's clock)."""

    online: bool
    connection: str
    since: int

    @classmethod
    def fresh(cls) -> Announcement:
        """The ``online`` presence of a new connection."""
        return cls(True, secrets.token_hex(8), time.time_ns() // 1_000_000)

    def gone(self) -> Announcement:
        """The ``offline`` presence of the same connection: its last will."""
        return replace(self, online=False)

    def to_bytes(self) -> bytes:
        return json.dumps({"presence": "online" if self.online else "offline", "connection": self.connection,
                           "since": self.since}).encode()

    @classmethod
    def parse(cls, raw: bytes) -> Announcement:
        """The presence `raw` holds (opened from its seal).

        :raises MessageError: (one line) for anything else."""
        try:
            data = json.loads(raw)
            word, connection, since = data["presence"], data["connection"], data["since"]
        except (ValueError, KeyError, TypeError):
            raise MessageError("a presence of the other board that is not one") from None
        if word not in ("online", "offline") or not isinstance(connection, str) \
                or not _CONNECTION.fullmatch(connection) or type(since) is not int:
            raise MessageError("a presence of the other board that is not one")
        return cls(word == "online", connection, since)


class Believed:
    """The other board's presence as this board believes it: the last one taken."""

    def __init__(self) -> None:
        self.last: Announcement | None = None

    def hear(self, presence: Announcement) -> bool:
        """Whether `presence` is taken (and so told): False for a replay of an earlier one."""
        last = self.last
        same = last is not None and presence.connection == last.connection
        if last is not None and not same and (not presence.online or presence.since <= last.since):
            return False
        self.last = presence
        return True
