"""bgpi's MQTT client against a real broker (Debian's mosquitto, tests/remote/conftest.py):
the board's `Transport`, and a bare `Client` as a watcher."""

from __future__ import annotations

import queue
import subprocess
import sys
import textwrap

import pytest
from paho.mqtt.client import ConnectFlags, DisconnectFlags
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from bgpi.exc import BrokerSetupError
from bgpi.remote.messages import Bye, Commit
from bgpi.remote.mqtt import (
    Arrived,
    Broker,
    Client,
    Heard,
    LinkDown,
    LinkUp,
    News,
    Presence,
    Received,
    Transport,
)
from bgpi.remote.pairing import Pairing
from bgpi.remote.topics import Channel, Topic, both_sides
from bgpi.rules.position import Side
from bgpi.table import events as ev
from tests.remote.conftest import BROKER_PASSWORD, BROKER_USER, Mosquitto

WAIT_S = 20.0  # only ever reached when something is broken
PAIRING = Pairing("g1", bytes(range(16)))


def heard(transport: Transport, kind: type, where: str = "") -> Heard:
    """The next thing of `kind` the transport hears (others before it are passed over)."""
    return next_of(transport.heard, kind, f"{transport.side.label} heard no {kind.__name__} {where}")


def next_of(heard: queue.Queue, kind: type, failure: str):
    while True:
        try:
            news = heard.get(timeout=WAIT_S)
        except queue.Empty:
            pytest.fail(failure)
        if isinstance(news, kind):
            return news


@pytest.fixture
def pair(mosquitto: Mosquitto):
    white = Transport(Broker(mosquitto.host, mosquitto.port), PAIRING, Side.WHITE)
    black = Transport(Broker(mosquitto.host, mosquitto.port), PAIRING, Side.BLACK)
    for each in (white, black):
        each.start()
        heard(each, LinkUp)
    for each in (white, black):
        assert heard(each, Presence) == Presence(True)  # each sees the other online (retained)
    yield white, black
    for each in (white, black):
        each.stop()


def commit(seq: int, side: Side = Side.WHITE) -> Commit:
    return Commit("g1", side, seq, 1, "ab" * 32)


def test_two_boards_exchange_messages_and_see_each_other_online(pair):
    white, black = pair
    white.publish(commit(1))
    assert heard(black, Arrived).message == commit(1)
    black.publish(Bye("g1", Side.BLACK, 1))
    assert heard(white, Arrived).message == Bye("g1", Side.BLACK, 1)


def test_both_boards_come_back_after_the_broker_restarts(pair, mosquitto):
    white, black = pair
    mosquitto.kill()
    for each in (white, black):
        down = heard(each, LinkDown, "after the broker was killed")
        assert not down.refused
        assert down.line == f"the broker at 127.0.0.1:{mosquitto.port} is down or cannot be reached: trying again"
    mosquitto.start()
    for each in (white, black):
        heard(each, LinkUp, "after the broker came back")
    white.publish(commit(2))
    assert heard(black, Arrived).message == commit(2)


def test_a_broker_that_is_not_there_is_named(tmp_path):
    broker = Mosquitto(tmp_path)  # configured, never started: nothing listens on its port
    transport = Transport(Broker(broker.host, broker.port), PAIRING, Side.WHITE)
    transport.start()
    try:
        down = heard(transport, LinkDown)
        assert down == LinkDown(False, f"the broker at 127.0.0.1:{broker.port} is down or cannot be reached: "
                                       "trying again")
    finally:
        transport.stop()


def test_a_wrong_password_is_refused_and_the_right_one_gets_in(mosquitto_login, tmp_path):
    wrong = tmp_path / "wrong"
    wrong.write_text("not-it\n")
    right = tmp_path / "right"
    right.write_text(BROKER_PASSWORD + "\n")
    refused = Transport(Broker(mosquitto_login.host, mosquitto_login.port, BROKER_USER, wrong), PAIRING, Side.WHITE)
    refused.start()
    try:
        down = heard(refused, LinkDown)
        assert down == LinkDown(True, f"the broker at 127.0.0.1:{mosquitto_login.port} refused the login "
                                      "(Not authorized): check the broker user and its password file")
    finally:
        refused.stop()
    welcome = Transport(Broker(mosquitto_login.host, mosquitto_login.port, BROKER_USER, right), PAIRING, Side.BLACK)
    welcome.start()
    try:
        heard(welcome, LinkUp)
    finally:
        welcome.stop()


def test_an_unreadable_password_file_is_one_line(tmp_path):
    with pytest.raises(BrokerSetupError, match="cannot read the broker password file .*missing"):
        Transport(Broker("127.0.0.1", 1, "u", tmp_path / "missing"), PAIRING, Side.WHITE)


def test_the_last_will_says_offline_when_a_board_dies(mosquitto):
    watcher = Transport(Broker(mosquitto.host, mosquitto.port), PAIRING, Side.WHITE)
    watcher.start()
    heard(watcher, LinkUp)
    board = textwrap.dedent(f"""
        import sys
        from bgpi.remote.mqtt import Broker, LinkUp, Transport
        from bgpi.remote.pairing import Pairing
        from bgpi.rules.position import Side
        transport = Transport(Broker("127.0.0.1", {mosquitto.port}), Pairing("g1", bytes(range(16))), Side.BLACK)
        transport.start()
        while not isinstance(transport.heard.get(timeout=20), LinkUp):
            pass
        print("up", flush=True)
        sys.stdin.read()
    """)
    dying = subprocess.Popen([sys.executable, "-c", board], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert dying.stdout is not None
        assert dying.stdout.readline() == b"up\n"
        assert heard(watcher, Presence) == Presence(True)
        dying.kill()  # no disconnect: the broker must notice and send the will
        dying.wait()
        assert heard(watcher, Presence, "after the other board died") == Presence(False)
    finally:
        dying.kill()
        watcher.stop()


def test_watchers_get_the_retained_state_and_the_log(pair, mosquitto):
    white, _ = pair
    white.publish_state({"v": 1, "game": "g1", "side": "white", "phase": "roll"})
    got: queue.Queue[News] = queue.Queue()
    watcher = Client(Broker(mosquitto.host, mosquitto.port), "watcher",
                     [both_sides("g1", Channel.STATE), both_sides("g1", Channel.LOG)], got.put)
    watcher.start()
    state, log = (str(Topic("g1", Side.WHITE, channel)) for channel in (Channel.STATE, Channel.LOG))
    try:
        while (news := next_of(got, Received, "the watcher heard no state")).topic != state:
            pass
        assert news.payload == b'{"v": 1, "game": "g1", "side": "white", "phase": "roll"}'
        white.publish_log(ev.Double(Side.WHITE, 2), 7)
        while (news := next_of(got, Received, "the watcher heard no log")).topic != log:
            pass
        assert news.payload == b'{"event": "double", "player": "white", "cube": 2, "seq": 7}'
    finally:
        watcher.stop()


def test_a_subscription_the_broker_refuses_is_named():
    """Debian's mosquitto grants every subscription (its access rules apply when it delivers),
    so the broker's answer is given here as paho hands it over: the first refused
    subscription is named, and the link is refused, not up."""
    told: list[News] = []
    msg, presence = (str(Topic("g1", Side.BLACK, channel)) for channel in (Channel.MSG, Channel.PRESENCE))
    client = Client(Broker("127.0.0.1", 1), "w", [msg, presence], told.append)
    client._subscribing = 7  # the subscription this connection sent
    granted, denied = ReasonCode(PacketTypes.SUBACK, "Granted QoS 1"), ReasonCode(PacketTypes.SUBACK, "Not authorized")
    client._subscribed(client._paho, None, 6, [denied, denied], None)  # another subscription's answer: not this one
    client._subscribed(client._paho, None, 7, [granted, denied], None)
    assert told == [LinkDown(True, f"the broker at 127.0.0.1:1 refused the subscription to {presence} "
                                   "(Not authorized): its access rules must let this user read it")]


def test_the_link_is_told_once_a_change():
    """paho's callbacks as a refused login and a lost broker give them: a down while down is
    no news, nor anything but up once refused."""
    told: list[News] = []
    client = Client(Broker("127.0.0.1", 1), "w", [], told.append)
    paho, lost = client._paho, DisconnectFlags(False)
    refused, busy = ReasonCode(PacketTypes.CONNACK, "Not authorized"), ReasonCode(PacketTypes.CONNACK, "Server busy")
    unspecified = ReasonCode(PacketTypes.DISCONNECT, "Unspecified error")
    client._connect_failed(paho, None)
    client._connected(paho, None, ConnectFlags(False), busy, None)  # still down: the first line stands
    client._connected(paho, None, ConnectFlags(False), refused, None)
    client._disconnected(paho, None, lost, unspecified, None)  # the refusal's own disconnection
    client._connect_failed(paho, None)
    client._connected(paho, None, ConnectFlags(False), ReasonCode(PacketTypes.CONNACK, "Success"), None)
    client._disconnected(paho, None, DisconnectFlags(True), ReasonCode(PacketTypes.DISCONNECT, "Session taken over"),
                         None)
    assert told == [
        LinkDown(False, "the broker at 127.0.0.1:1 is down or cannot be reached: trying again"),
        LinkDown(True, "the broker at 127.0.0.1:1 refused the login (Not authorized): "
                       "check the broker user and its password file"),
        LinkUp(),  # no subscriptions to wait for
        LinkDown(False, "the broker at 127.0.0.1:1 closed the connection (Session taken over): trying again"),
    ]


def test_a_broker_over_tls_that_is_not_there_names_the_certificate_too(tmp_path):
    broker = Mosquitto(tmp_path)  # configured, never started
    transport = Transport(Broker(broker.host, broker.port, tls=True), PAIRING, Side.WHITE)
    transport.start()
    try:
        assert heard(transport, LinkDown) == LinkDown(False, f"the broker at 127.0.0.1:{broker.port} is down or "
                                                             "cannot be reached (or its TLS certificate is not "
                                                             "trusted: --broker-ca FILE): trying again")
    finally:
        transport.stop()


def test_online_is_said_once_the_subscriptions_stand(mosquitto):
    """The other board answers ``online`` with a hello at once: said before the broker
    has the subscriptions, the hello would reach nobody and the board would wait for one
    for ever (issue 29, a restarted board).  The broker's log has the order."""
    board = Transport(Broker(mosquitto.host, mosquitto.port), PAIRING, Side.WHITE)
    board.start()
    try:
        heard(board, LinkUp)
    finally:
        board.stop()
    log = [line for line in mosquitto.log.read_text().splitlines()
           if f"from {PAIRING.client_id(Side.WHITE)}" in line]
    subscribed = next(at for at, line in enumerate(log) if "SUBSCRIBE" in line)
    online = next(at for at, line in enumerate(log) if "PUBLISH" in line and "/presence'" in line)
    assert subscribed < online, log
