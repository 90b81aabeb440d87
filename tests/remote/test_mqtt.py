"""The broker connection against a real broker (Debian's mosquitto, tests/remote/conftest.py)."""

from __future__ import annotations

import queue
import subprocess
import sys
import textwrap

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from bgpi.exc import BrokerSetupError
from bgpi.remote import messages
from bgpi.remote.messages import Bye, Commit
from bgpi.remote.mqtt import Arrived, Broker, Heard, LinkDown, LinkUp, Presence, Transport, topic
from bgpi.rules.position import Side
from bgpi.table import events as ev
from tests.remote.conftest import BROKER_PASSWORD, BROKER_USER, Mosquitto

WAIT_S = 20.0  # only ever reached when something is broken


def heard(transport: Transport, kind: type, where: str = "") -> Heard:
    """The next thing of `kind` the transport hears (others before it are passed over)."""
    while True:
        try:
            news = transport.heard.get(timeout=WAIT_S)
        except queue.Empty:
            pytest.fail(f"{transport.side.label} heard no {kind.__name__} {where}")
        if isinstance(news, kind):
            return news


@pytest.fixture
def pair(mosquitto: Mosquitto):
    white = Transport(Broker(mosquitto.host, mosquitto.port), "g1", Side.WHITE)
    black = Transport(Broker(mosquitto.host, mosquitto.port), "g1", Side.BLACK)
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


def test_the_topics():
    assert topic("club-7", Side.BLACK, "msg") == "bgpi/v1/club-7/black/msg"


def test_two_boards_exchange_messages_and_see_each_other_online(pair):
    white, black = pair
    white.publish(commit(1))
    arrived = heard(black, Arrived)
    assert messages.parse(arrived.raw) == commit(1)
    black.publish(Bye("g1", Side.BLACK, 1))
    assert messages.parse(heard(white, Arrived).raw) == Bye("g1", Side.BLACK, 1)


def test_both_boards_come_back_after_the_broker_restarts(pair, mosquitto):
    white, black = pair
    mosquitto.kill()
    for each in (white, black):
        down = heard(each, LinkDown, "after the broker was killed")
        assert down.link == "broker_down"
        assert f"127.0.0.1:{mosquitto.port}" in down.line
    mosquitto.start()
    for each in (white, black):
        heard(each, LinkUp, "after the broker came back")
    white.publish(commit(2))
    assert messages.parse(heard(black, Arrived).raw) == commit(2)


def test_a_broker_that_is_not_there_is_named(tmp_path):
    broker = Mosquitto(tmp_path)  # configured, never started: nothing listens on its port
    transport = Transport(Broker(broker.host, broker.port), "g1", Side.WHITE)
    transport.start()
    try:
        down = heard(transport, LinkDown)
        assert down == LinkDown("broker_down", f"cannot reach the broker at 127.0.0.1:{broker.port}: trying again")
    finally:
        transport.stop()


def test_a_wrong_password_is_refused_and_the_right_one_gets_in(mosquitto_login, tmp_path):
    wrong = tmp_path / "wrong"
    wrong.write_text("not-it\n")
    right = tmp_path / "right"
    right.write_text(BROKER_PASSWORD + "\n")
    refused = Transport(Broker(mosquitto_login.host, mosquitto_login.port, BROKER_USER, wrong), "g1", Side.WHITE)
    refused.start()
    try:
        down = heard(refused, LinkDown)
        assert down.link == "refused"
        assert "refused this board (Not authorized)" in down.line or "Bad user name or password" in down.line
    finally:
        refused.stop()
    welcome = Transport(Broker(mosquitto_login.host, mosquitto_login.port, BROKER_USER, right), "g1", Side.BLACK)
    welcome.start()
    try:
        heard(welcome, LinkUp)
    finally:
        welcome.stop()


def test_an_unreadable_password_file_is_one_line(tmp_path):
    with pytest.raises(BrokerSetupError, match="cannot read the broker password file .*missing"):
        Transport(Broker("127.0.0.1", 1, "u", tmp_path / "missing"), "g1", Side.WHITE)


def test_the_last_will_says_offline_when_a_board_dies(mosquitto):
    watcher = Transport(Broker(mosquitto.host, mosquitto.port), "g1", Side.WHITE)
    watcher.start()
    heard(watcher, LinkUp)
    board = textwrap.dedent(f"""
        import sys
        from bgpi.remote.mqtt import Broker, LinkUp, Transport
        from bgpi.rules.position import Side
        transport = Transport(Broker("127.0.0.1", {mosquitto.port}), "g1", Side.BLACK)
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
    got: queue.Queue[tuple[str, bytes]] = queue.Queue()
    watcher = mqtt.Client(CallbackAPIVersion.VERSION2)
    watcher.on_message = lambda client, userdata, message: got.put((message.topic, message.payload))
    watcher.on_connect = lambda client, *rest: client.subscribe("bgpi/v1/g1/+/+", 1)
    watcher.connect(mosquitto.host, mosquitto.port)
    watcher.loop_start()
    try:
        seen = {}
        while "bgpi/v1/g1/white/state" not in seen:
            topic_, payload = got.get(timeout=WAIT_S)
            seen[topic_] = payload
        assert seen["bgpi/v1/g1/white/state"] == b'{"v": 1, "game": "g1", "side": "white", "phase": "roll"}'
        white.publish_log(ev.Double(Side.WHITE, 2), 7)
        while (item := got.get(timeout=WAIT_S))[0] != "bgpi/v1/g1/white/log":
            pass
        assert item[1] == b'{"event": "double", "player": "white", "cube": 2, "seq": 7}'
    finally:
        watcher.loop_stop()
        watcher.disconnect()
