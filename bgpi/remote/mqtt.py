"""bgpi's one MQTT client: paho-mqtt 2.x between the broker and a board or `bgpi team` (docs/remote.md).

A `Client` is one connection to the broker: the login and TLS of the `Broker` value, the
subscriptions its user names, a session the broker keeps across a dropped connection,
reconnection with a growing delay and, where its user asks, a retained ``online``
presence (said once the subscriptions stand: the other board answers it at once) whose
last will is a retained ``offline`` (the broker publishes it when the
client vanishes), both made anew for each connection.  It tells the broker the largest
packet it takes (MQTT 5's Maximum Packet Size, `MAX_PACKET`): the broker drops a bigger
message for it rather than send it, and a payload over `MAX_PAYLOAD` that comes anyway
is dropped before anything reads it.  paho runs the connection in its own thread; its
callbacks only hand what happened to the user's `tell` (a queue's put): a message
(`Received`), the link up once the broker has acknowledged the subscriptions (`LinkUp`),
the link down or refused with its one line (`LinkDown`), a payload dropped (`Dropped`).
Nothing here touches a table or a page.

Both users speak MQTT 5, not 3.1.1: its session expiry bounds how long a broker keeps
the session of a client that went away (3.1.1 keeps it for ever), and its CONNACK, SUBACK
and DISCONNECT carry a reason the one line names (Debian's mosquitto 2 speaks it).

`Transport`, below, is the board's use of it: everything it publishes on its ``msg`` and
``presence`` topics is sealed with its pairing's key (`bgpi.remote.sealing`), and
everything it hears there is opened and checked on paho's thread before it is queued, so
that what is forged, of another game or too big never reaches the board's journal.
`bgpi.web.team.TeamWatcher` is the watcher's.  Topics are built and read in
`bgpi.remote.topics`.
"""

from __future__ import annotations

import json
import os
import queue
import ssl
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paho.mqtt.client import Client as PahoClient
from paho.mqtt.client import ConnectFlags, DisconnectFlags, MQTTMessage
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from bgpi.exc import BrokerSetupError, MessageError, SealError
from bgpi.remote import messages
from bgpi.remote.drops import Drop, Dropped
from bgpi.remote.messages import Message
from bgpi.remote.pairing import Pairing
from bgpi.remote.presence import Announcement, Believed
from bgpi.remote.sealing import MAX_SEALED, Seal
from bgpi.remote.topics import Channel, Topic
from bgpi.rules.position import Side
from bgpi.table import events as ev

DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883
KEEPALIVE_S = 15  # the broker sends the last will within 1.5 keepalives of a client that vanished silently
RECONNECT_S = (1, 30)  # paho's reconnect delay: doubling from the first to the second
SESSION_S = 3600
"""How long the broker keeps a client's subscriptions and its missed QoS 1 messages across
a dropped connection (MQTT 5's session expiry): a board back within the hour, or a
watcher, gets what was sent meanwhile; the boards resend in any case (docs/remote.md)."""
PASSWORD_ENV = "BGPI_BROKER_PASSWORD"
MAX_PASSWORD = 65535
"""Bytes an MQTT password may hold (its length is two bytes on the wire)."""
MAX_PAYLOAD = MAX_SEALED
"""The largest payload read: a sealed message (a watcher's state and log are smaller)."""
MAX_PACKET = 16 * 1024
"""The largest MQTT packet taken (the payload with its topic and headers), told the broker
on CONNECT (MQTT 5's Maximum Packet Size): it sends nothing bigger."""

REFUSALS = frozenset({"Bad user name or password", "Not authorized", "Bad authentication method", "Banned",
                      "Client identifier not valid", "Unsupported protocol version"})
"""The reason codes of a broker that answered but will not let this client in (trying
again will not help until the settings change): the link is refused, not down."""


@dataclass(frozen=True, slots=True)
class Broker:
    """Where the broker is and how to log in.  The password is read from `password_file`
    (or, without one, from $BGPI_BROKER_PASSWORD), never from the command line."""

    host: str
    port: int | None = None  # None: 1883, or 8883 with TLS
    user: str | None = None
    password_file: Path | None = None
    tls: bool = False
    ca_file: Path | None = None  # None: the system's certificate authorities

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port_used}"

    def __str__(self) -> str:
        return self.address

    @property
    def port_used(self) -> int:
        if self.port is not None:
            return self.port
        return DEFAULT_TLS_PORT if self.tls else DEFAULT_PORT

    def password(self) -> str | None:
        """The password, or None.

        :raises BrokerSetupError: if its file cannot be read, is longer than MQTT allows
            or is not UTF-8 text.
        """
        if self.password_file is None:
            return os.environ.get(PASSWORD_ENV) or None
        try:
            with self.password_file.open("rb") as file:
                data = file.read(MAX_PASSWORD + 1)
        except OSError as error:
            raise BrokerSetupError(f"cannot read the broker password file {self.password_file}: "
                                   f"{error.strerror or error}") from None
        if len(data) > MAX_PASSWORD:
            raise BrokerSetupError(f"the broker password file {self.password_file} holds more than "
                                   f"{MAX_PASSWORD} bytes, more than an MQTT password may")
        try:
            return data.decode("utf-8").strip()
        except UnicodeDecodeError as error:
            raise BrokerSetupError(f"the broker password file {self.password_file} is not UTF-8 text "
                                   f"(byte {error.start})") from None


# -- what a client hears ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Received:
    """A message on `topic`, as it came: anybody may have written it."""

    topic: str
    payload: bytes


@dataclass(frozen=True, slots=True)
class LinkUp:
    """Connected to the broker (again), every subscription acknowledged: what is published
    on them from now on is heard."""


@dataclass(frozen=True, slots=True)
class LinkDown:
    """No broker: it is down or cannot be reached (trying again), or, `refused`, it turned
    this client's login or a subscription away (trying again changes nothing until the
    settings do).  `line` says which, for a person."""

    refused: bool
    line: str


News = Received | LinkUp | LinkDown | Dropped


Announce = Callable[[], tuple[bytes, bytes]]
"""Makes a new connection's presences: its ``online`` and its last will's ``offline`` payloads."""


class Client:
    """One connection to `broker` as `client_id`, subscribed at QoS 1 to `subscriptions`
    (topics or filters); `tell` hears what happens, on paho's thread.  With `presence` (a
    topic), the client keeps a retained ``online`` there and its last will is ``offline``,
    the payloads `announce` makes for each connection.

    :raises BrokerSetupError: for a password file that cannot be read, a CA file missing,
        unreadable or holding no certificate.
    """

    def __init__(self, broker: Broker, client_id: str, subscriptions: Sequence[str],
                 tell: Callable[[News], None], presence: str | None = None,
                 announce: Announce = lambda: (b"online", b"offline")) -> None:
        self.broker, self.subscriptions, self.presence = broker, tuple(subscriptions), presence
        self._tell, self._announce = tell, announce
        self._last: LinkUp | LinkDown | None = None  # paho's thread only: the last link news told
        self._subscribing: int | None = None  # the mid of the subscription that ends a connect
        self._stopping = False
        self._online = self._offline = b""  # this connection's presences
        paho = PahoClient(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=MQTTProtocolVersion.MQTTv5)
        paho.reconnect_delay_set(*RECONNECT_S)
        self._paho = paho
        self._arm()
        if broker.user is not None:
            paho.username_pw_set(broker.user, broker.password())
        if broker.tls:
            ca = broker.ca_file
            if ca is not None and not ca.is_file():
                raise BrokerSetupError(f"the broker CA file {ca} does not exist")
            try:
                paho.tls_set(ca_certs=str(ca) if ca is not None else None, cert_reqs=ssl.CERT_REQUIRED)
            except OSError as error:  # ssl.SSLError: a CA file that holds no certificate; one not readable
                raise BrokerSetupError(str(error)) from None
        paho.on_connect = self._connected
        paho.on_connect_fail = self._connect_failed
        paho.on_disconnect = self._disconnected
        paho.on_subscribe = self._subscribed
        paho.on_message = self._message

    def _arm(self) -> None:
        """The next connection's presences: its last will set, its ``online`` kept to publish."""
        if self.presence is not None:
            self._online, self._offline = self._announce()
            self._paho.will_set(self.presence, self._offline, qos=1, retain=True)

    def start(self) -> None:
        """Connect in paho's thread (returns at once; `LinkUp` or `LinkDown` follows)."""
        properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        properties.SessionExpiryInterval = SESSION_S
        properties.MaximumPacketSize = MAX_PACKET
        # No clean start: a client that comes back within the session's expiry (a board
        # restarted, its client ID the same) gets what the broker kept for it.
        self._paho.connect_async(self.broker.host, self.broker.port_used, keepalive=KEEPALIVE_S,
                                 clean_start=False, properties=properties)
        self._paho.loop_start()

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        """Publish at QoS 1: paho keeps the message while the broker is away and sends it
        when it is back."""
        self._paho.publish(topic, payload, qos=1, retain=retain)

    def stop(self) -> None:
        """Leave on purpose (a retained ``offline`` first, with a presence), then disconnect:
        the last will is not sent."""
        self._stopping = True
        if self.presence is not None:
            self._paho.publish(self.presence, self._offline, qos=1, retain=True)
        self._paho.disconnect()
        self._paho.loop_stop()

    # -- paho's thread: tell only ----------------------------------------------------------

    def _connected(self, paho: PahoClient, userdata: Any, flags: ConnectFlags, reason: ReasonCode,
                   properties: Properties | None) -> None:
        if reason.is_failure:
            name = reason.getName()
            if name in REFUSALS:
                self._link(LinkDown(True, f"the broker at {self.broker} refused the login ({name}): "
                                          "check the broker user and its password file"))
            else:
                self._link(LinkDown(False, f"the broker at {self.broker} cannot take this client now ({name}): "
                                           "trying again"))
            return
        if not self.subscriptions:
            self._up(paho)
            return
        # Subscribing again on every connection: a broker that restarted has forgotten.
        # `LinkUp` and ``online`` wait for the broker's answer (`_subscribed`): a message
        # published before the subscriptions stand would reach nobody, and the other
        # board answers ``online`` with a hello at once.
        _, self._subscribing = paho.subscribe([(topic, 1) for topic in self.subscriptions])

    def _subscribed(self, paho: PahoClient, userdata: Any, mid: int, reasons: list[ReasonCode],
                    properties: Properties | None) -> None:
        if mid != self._subscribing:
            return
        for topic, reason in zip(self.subscriptions, reasons, strict=False):
            if reason.is_failure:
                self._link(LinkDown(True, f"the broker at {self.broker} refused the subscription to {topic} "
                                          f"({reason.getName()}): its access rules must let this user read it"))
                return
        self._up(paho)

    def _up(self, paho: PahoClient) -> None:
        """Connected and subscribed: ``online`` (with a presence), and the link is up."""
        if self.presence is not None:
            paho.publish(self.presence, self._online, qos=1, retain=True)
        self._link(LinkUp())

    def _connect_failed(self, paho: PahoClient, userdata: Any) -> None:
        self._link(self._unreachable())

    def _disconnected(self, paho: PahoClient, userdata: Any, flags: DisconnectFlags, reason: ReasonCode,
                      properties: Properties | None) -> None:
        if self._stopping:
            return
        self._arm()  # the next connection is another one: a replay of this one's last will is known
        if flags.is_disconnect_packet_from_server:
            self._link(LinkDown(False, f"the broker at {self.broker} closed the connection ({reason.getName()}): "
                                       "trying again"))
        else:
            self._link(self._unreachable())

    def _message(self, paho: PahoClient, userdata: Any, message: MQTTMessage) -> None:
        size = len(message.payload)
        if size > MAX_PAYLOAD:
            self._tell(Dropped(Drop.TOO_BIG, f"a message of {size} bytes on {message.topic[:120]}: at most "
                                             f"{MAX_PAYLOAD} are read"))
            return
        self._tell(Received(message.topic, bytes(message.payload)))

    def _unreachable(self) -> LinkDown:
        tls = " (or its TLS certificate is not trusted: --broker-ca FILE)" if self.broker.tls else ""
        return LinkDown(False, f"the broker at {self.broker} is down or cannot be reached{tls}: trying again")

    def _link(self, news: LinkUp | LinkDown) -> None:
        """Tell a change of the link: up, down, refused.  A down while down says nothing new
        (the first line stands while paho tries again), nor does anything but up once
        refused (a refused login is followed by its disconnection)."""
        last = self._last
        if isinstance(news, LinkDown) and isinstance(last, LinkDown) and (last.refused or not news.refused):
            return
        self._last = news
        self._tell(news)


# -- the board's connection ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Arrived:
    """A message from the other board: its seal opened, read, and where it claims to be from checked."""

    message: Message


@dataclass(frozen=True, slots=True)
class Presence:
    """The other board's presence, believed: ``online`` (True) or its last will ``offline``."""

    online: bool


Heard = Arrived | Presence | LinkUp | LinkDown | Dropped


class Transport:
    """One board's connection to the broker for the game of `pairing`, playing `side`: it
    publishes on its own side's topics, hears the other side's ``msg`` and ``presence``
    (`Transport.heard`, drained by the board's live loop), and keeps its own presence.
    Its client ID is the pairing's: another client cannot take it over.  The ``state``
    and ``log`` topics, for watchers, are not sealed (docs/remote.md, "What others see")."""

    def __init__(self, broker: Broker, pairing: Pairing, side: Side) -> None:
        self.broker, self.game, self.side = broker, pairing.game, side
        self.seal = Seal(pairing)
        self.heard: queue.Queue[Heard] = queue.Queue()
        self._msg, self._state, self._log = (str(Topic(self.game, side, channel))
                                             for channel in (Channel.MSG, Channel.STATE, Channel.LOG))
        self._their_msg, self._their_presence = (str(Topic(self.game, side.opponent, channel))
                                                 for channel in (Channel.MSG, Channel.PRESENCE))
        self._believed = Believed()  # paho's thread only
        self.client = Client(broker, pairing.client_id(side), [self._their_msg, self._their_presence], self._hear,
                             presence=str(Topic(self.game, side, Channel.PRESENCE)), announce=self._announce)

    def start(self) -> None:
        """Connect in paho's thread (returns at once; `LinkUp` or `LinkDown` follows)."""
        self.client.start()

    def publish(self, message: Message) -> None:
        """Send a message (already journaled) to the other board, sealed."""
        self.client.publish(self._msg, self.seal.seal(self.side, Channel.MSG, message.seq, message.to_bytes()))

    def publish_log(self, event: ev.Event, seq: int) -> None:
        """A committed table-log event, for watchers: its JSON form, with ``"seq"``, its
        number in the board's journal (a watcher drops one it has)."""
        self.client.publish(self._log, json.dumps({**event.to_json(), "seq": seq}).encode())

    def publish_state(self, state: dict[str, Any]) -> None:
        """The board's state message (retained: a watcher joining late sees it at once)."""
        self.client.publish(self._state, json.dumps(state).encode(), retain=True)

    def drain(self) -> list[Heard]:
        """What was heard since the last drain, oldest first (never blocks)."""
        heard: list[Heard] = []
        while True:
            try:
                heard.append(self.heard.get_nowait())
            except queue.Empty:
                return heard

    def stop(self) -> None:
        """Leave on purpose: ``offline`` retained, then disconnect (the last will is not sent)."""
        self.client.stop()

    def _announce(self) -> tuple[bytes, bytes]:
        """A new connection's presences, sealed: ``online``, and ``offline`` for its last will."""
        online = Announcement.fresh()
        online_bytes, offline_bytes = (self.seal.seal(self.side, Channel.PRESENCE, 0, said.to_bytes())
                                       for said in (online, online.gone()))
        return online_bytes, offline_bytes

    # -- paho's thread: open, check, queue ------------------------------------------------------

    def _hear(self, news: News) -> None:
        if not isinstance(news, Received):
            self.heard.put(news)
        elif news.topic == self._their_presence:
            self.heard.put(self._presence(news.payload))
        else:
            self.heard.put(self._message(news.payload))

    def _message(self, payload: bytes) -> Arrived | Dropped:
        """A payload of the other side's ``msg`` topic: its message, or why it is dropped."""
        other = self.side.opponent
        try:
            number, plain = self.seal.open(other, Channel.MSG, payload)
        except SealError as error:
            return Dropped(Drop.FORGED, str(error))
        try:
            message = messages.parse(plain)
        except MessageError as error:
            return Dropped(Drop.MALFORMED, f"a message from the other board that is not one: {error}")
        if message.seq != number or message.game != self.game or message.sender is not other:
            return Dropped(Drop.MALFORMED, f"message {number} of the other board says it is {message.sender.label}'s "
                                           f"message {message.seq} of game {message.game!r}")
        return Arrived(message)

    def _presence(self, payload: bytes) -> Presence | Dropped:
        """A payload of the other side's ``presence`` topic: the presence believed, or why not."""
        try:
            _, plain = self.seal.open(self.side.opponent, Channel.PRESENCE, payload)
            said = Announcement.parse(plain)
        except SealError as error:
            return Dropped(Drop.FORGED, str(error))
        except MessageError as error:
            return Dropped(Drop.MALFORMED, str(error))
        if said.online and said == self._believed.last:  # the broker's retained copy again, or a replay
            return Dropped(Drop.REPEATED, "the other board's online presence, again")
        if not self._believed.hear(said):
            return Dropped(Drop.OLD_PRESENCE, f"an {'online' if said.online else 'offline'} presence of an earlier "
                                              f"connection of the other board ({self.side.opponent.label}): a replay")
        return Presence(said.online)
