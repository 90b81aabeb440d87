"""A mosquitto broker for remote games: its settings, and the access rules of one game (docs/remote.md).

`BROKER_SETTINGS` are the lines of the broker's configuration that bgpi asks for: no
anonymous clients, a password file and an access-rules file, each client's ID its user
name (nobody takes over a board's session without its password), and size limits: a
client that sends a packet over `MAX_PACKET` is disconnected once its length is read
(mosquitto logs "disconnected due to oversize packet"), and a message over
`MAX_PAYLOAD` is not passed on.  `game_rules` gives one game's lines of the
access-rules file: each board's user writes only its own side's topics and reads only
the other side's ``msg`` and ``presence``; a watcher's user (`bgpi team`) reads only
the ``state`` and ``log`` topics.

>>> print(game_rules("club-7", "anna", "ben", ["club"]), end="")
# bgpi game club-7
user anna
topic write bgpi/v1/club-7/white/#
topic read bgpi/v1/club-7/black/msg
topic read bgpi/v1/club-7/black/presence
<BLANKLINE>
user ben
topic write bgpi/v1/club-7/black/#
topic read bgpi/v1/club-7/white/msg
topic read bgpi/v1/club-7/white/presence
<BLANKLINE>
user club
topic read bgpi/v1/club-7/+/state
topic read bgpi/v1/club-7/+/log
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bgpi.remote.mqtt import MAX_PACKET, MAX_PAYLOAD
from bgpi.remote.topics import ROOT, Channel, Topic, both_sides
from bgpi.rules.position import Side

USER = re.compile(r"[A-Za-z0-9_.-]{1,64}")
"""A broker user name bgpi writes into a rules file: nothing that could start another line or a pattern."""

BROKER_SETTINGS = f"""\
allow_anonymous false
password_file /etc/mosquitto/passwd
acl_file /etc/mosquitto/bgpi.acl
use_username_as_clientid true
max_packet_size {MAX_PACKET}
message_size_limit {MAX_PAYLOAD}
"""
"""The broker's settings for bgpi (beside a listener, and TLS over the internet)."""


def game_rules(game: str, white: str, black: str, watchers: Sequence[str] = ()) -> str:
    """The access rules of game `game` whose white board logs in as `white`, black's as
    `black`, each of `watchers` a watcher.  Raises ValueError for a user name that is not
    `USER`, or a user named twice."""
    users = [white, black, *watchers]
    for user in users:
        if not USER.fullmatch(user):
            raise ValueError(f"broker user {user[:70]!r}: 1 to 64 letters, digits, '.', '-' or '_'")
    if len(set(users)) < len(users):
        raise ValueError("each board and each watcher logs in as a user of its own")
    blocks = [f"# bgpi game {game}"]
    for side, user in ((Side.WHITE, white), (Side.BLACK, black)):
        other = side.opponent
        blocks.append("\n".join([
            f"user {user}", f"topic write {ROOT}/{game}/{side.label}/#",
            *(f"topic read {Topic(game, other, channel)}" for channel in (Channel.MSG, Channel.PRESENCE))]))
    watched = [f"topic read {both_sides(game, channel)}" for channel in (Channel.STATE, Channel.LOG)]
    blocks += ["\n".join([f"user {user}", *watched]) for user in watchers]
    return blocks[0] + "\n" + "\n\n".join(blocks[1:]) + "\n"
