"""The broker connection: paho-mqtt 2.x between a board and an MQTT broker (docs/remote.md, "Topics").

A `Transport` publishes this board's messages on its own side's topic and subscribes to
the other side's; it keeps a retained ``online`` on its presence topic, with a retained
``offline`` as its last will (the broker publishes it when the board vanishes).  paho
runs the connection in its own thread and reconnects with a growing delay; its callbacks
only put what happened on `Transport.heard` (`Arrived`, `Presence`, `LinkUp`,
`LinkDown`), which the board's live loop drains: nothing here touches the table.
"""

from __future__ import annotations

import json
import os
import queue
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from bgpi.exc import BrokerSetupError
from bgpi.remote.messages import Message
from bgpi.rules.position import Side
from bgpi.table import events as ev

DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883
KEEPALIVE_S = 15  # the broker sends the last will within 1.5 keepalives of a board that vanished silently
RECONNECT_S = (1, 30)  # paho's reconnect delay: doubling from the first to the second
PASSWORD_ENV = "BGPI_BROKER_PASSWORD"

REFUSALS = frozenset({"Bad user name or password", "Not authorized", "Bad authentication method", "Banned",
                      "Client identifier not valid", "Unsupported protocol version"})
"""paho's reason-code names of a broker that answered but will not let this board in
(trying again will not help until the settings change): the link is `refused`, not down."""


def topic(game: str, side: Side, what: str) -> str:
    """The topic of `side`'s `what` (``msg``, ``presence``, ``state``, ``log``) in game `game`."""
    return f"bgpi/v1/{game}/{side.label}/{what}"


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
        """The password, or None; BrokerSetupError if its file cannot be read."""
        if self.password_file is None:
            return os.environ.get(PASSWORD_ENV) or None
        try:
            return self.password_file.read_text().strip()
        except OSError as error:
            raise BrokerSetupError(f"cannot read the broker password file {self.password_file}: "
                                   f"{error.strerror or error}") from None


# -- what the transport hears ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Arrived:
    """A message from the other board, as it came (`messages.parse` it)."""

    raw: bytes


@dataclass(frozen=True, slots=True)
class Presence:
    """The other board's presence: ``online`` (True) or its last will ``offline``."""

    online: bool


@dataclass(frozen=True, slots=True)
class LinkUp:
    """Connected to the broker (again), subscribed: greet the other board (`Peer.reconnected`)."""


@dataclass(frozen=True, slots=True)
class LinkDown:
    """No broker: `link` is ``broker_down`` (unreachable, gone) or ``refused`` (login or TLS refused)."""

    link: str
    line: str


Heard = Arrived | Presence | LinkUp | LinkDown


class Transport:
    """One board's connection to the broker for game `game`, playing `side`."""

    def __init__(self, broker: Broker, game: str, side: Side) -> None:
        self.broker = broker
        self.game = game
        self.side = side
        self.heard: queue.Queue[Heard] = queue.Queue()
        self._own = {what: topic(game, side, what) for what in ("msg", "presence", "state", "log")}
        self._theirs = {what: topic(game, side.opponent, what) for what in ("msg", "presence")}
        self._last: Heard | None = None  # paho's thread only: the last link news, not repeated
        self._stopping = False
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bgpi-{game}-{side.label}",
                             clean_session=False, protocol=mqtt.MQTTv311)
        client.max_inflight_messages_set(20)
        client.reconnect_delay_set(*RECONNECT_S)
        client.will_set(self._own["presence"], b"offline", qos=1, retain=True)
        if broker.user is not None:
            client.username_pw_set(broker.user, broker.password())
        if broker.tls:
            ca = broker.ca_file
            if ca is not None and not ca.is_file():
                raise BrokerSetupError(f"the broker CA file {ca} does not exist")
            client.tls_set(ca_certs=str(ca) if ca is not None else None, cert_reqs=ssl.CERT_REQUIRED)
        client.on_connect = self._connected
        client.on_connect_fail = self._connect_failed
        client.on_disconnect = self._disconnected
        client.on_message = self._message
        client.on_subscribe = self._subscribed
        self._subscribing: int | None = None  # the mid of the subscription that ends a connect
        self._client = client

    # -- the board's side -------------------------------------------------------------------

    def start(self) -> None:
        """Connect in paho's thread (returns at once; `LinkUp` or `LinkDown` follows)."""
        self._client.connect_async(self.broker.host, self.broker.port_used, keepalive=KEEPALIVE_S)
        self._client.loop_start()

    def publish(self, message: Message) -> None:
        """Send a message (already journaled) to the other board: QoS 1, kept by paho
        while the broker is away and sent when it is back."""
        self._client.publish(self._own["msg"], message.to_bytes(), qos=1)

    def publish_log(self, event: ev.Event, seq: int) -> None:
        """A committed table-log event, for watchers: its JSON form, with ``"seq"``, its
        number in the board's journal (a watcher drops one it has)."""
        self._client.publish(self._own["log"], json.dumps({**event.to_json(), "seq": seq}), qos=1)

    def publish_state(self, state: dict[str, Any]) -> None:
        """The board's state message (retained: a watcher joining late sees it at once)."""
        self._client.publish(self._own["state"], json.dumps(state), qos=1, retain=True)

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
        self._stopping = True
        self._client.publish(self._own["presence"], b"offline", qos=1, retain=True)
        self._client.disconnect()
        self._client.loop_stop()

    # -- paho's thread: queue only ---------------------------------------------------------

    def _connected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode,
                   properties: Any) -> None:
        if reason.is_failure:
            self._tell(self._down(reason))
            return
        # Subscribing again on every connection: a broker that restarted has forgotten.
        # `LinkUp` waits for the broker's answer (`_subscribed`): a message the other
        # board sends before the subscription stands would reach nobody.
        _, self._subscribing = client.subscribe([(self._theirs["msg"], 1), (self._theirs["presence"], 1)])
        client.publish(self._own["presence"], b"online", qos=1, retain=True)

    def _subscribed(self, client: mqtt.Client, userdata: Any, mid: int, reasons: list[ReasonCode],
                    properties: Any) -> None:
        if mid != self._subscribing:
            return
        if any(reason.is_failure for reason in reasons):
            self._tell(LinkDown("refused", f"the broker at {self.broker.address} refused this board's "
                                           f"subscriptions: check the broker's access rules"))
            return
        self._tell(LinkUp())

    def _connect_failed(self, client: mqtt.Client, userdata: Any) -> None:
        self._tell(LinkDown("broker_down", f"cannot reach the broker at {self.broker.address}: trying again"))

    def _disconnected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode,
                      properties: Any) -> None:
        refused = isinstance(self._last, LinkDown) and self._last.link == "refused"
        if self._stopping or reason.getName() in REFUSALS or refused:
            return  # leaving on purpose; or _connected said so already (paho then names no reason over MQTT 3.1.1)
        self._tell(LinkDown("broker_down", f"lost the broker at {self.broker.address} ({reason.getName()}): "
                                           f"trying again"))

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == self._theirs["presence"]:
            self.heard.put(Presence(message.payload == b"online"))
        else:
            self.heard.put(Arrived(bytes(message.payload)))  # checked by messages.parse, size first

    def _tell(self, news: LinkUp | LinkDown) -> None:
        if news != self._last:
            self._last = news
            self.heard.put(news)

    def _down(self, reason: ReasonCode) -> LinkDown:
        name = reason.getName()
        if name in REFUSALS:
            return LinkDown("refused", f"the broker at {self.broker.address} refused this board ({name}): "
                                       f"check the broker user and its password file")
        return LinkDown("broker_down", f"the broker at {self.broker.address} cannot take this board now "
                                       f"({name}): trying again")
