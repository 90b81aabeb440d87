"""Anyone on the broker (issue 29, items 5 to 8): what a third client does to two boards.

The third client has no pairing code.  On an open broker (`mosquitto`: anybody may
publish anything, as on a public one) it publishes what it likes on the boards' topics:
forged messages and presences, replays of what the boards sent, a 64 MiB message;
each is dropped before anything acts on it or journals it, counted, and said once.  On a
broker configured as docs/remote.md says (`mosquitto_docs`) it cannot even publish
there, nor take a board's client ID, nor read the boards' messages.  Either way the
boards play their game to its end.
"""

from __future__ import annotations

import queue
import random
import threading
import time

import pytest

from bgpi.remote.drops import Drop
from bgpi.remote.messages import Action, Hello, Message, shared_session
from bgpi.remote.mqtt import Broker, Client, LinkDown, LinkUp, News, Received
from bgpi.remote.outbox import read_outbox
from bgpi.remote.pairing import Pairing
from bgpi.remote.peer import Received as ReceivedLine
from bgpi.remote.peer import Sent
from bgpi.remote.sealing import Seal
from bgpi.remote.topics import Channel, Topic
from bgpi.rules.position import Side
from bgpi.table import events as ev
from bgpi.table.phases import Link, Phase
from tests.remote.boards import SECRET, WAIT_S, Board, boards, login, play_both, scan_until
from tests.remote.conftest import GAME, Mosquitto

WHITE, BLACK = Side.WHITE, Side.BLACK
THEIRS = Seal(Pairing(GAME, bytes([9]) * 16))
"""The third client's own seal: a code of its own, not the boards'."""
BLACK_MSG, BLACK_PRESENCE = (str(Topic(GAME, BLACK, channel)) for channel in (Channel.MSG, Channel.PRESENCE))
WHITE_MSG = str(Topic(GAME, WHITE, Channel.MSG))


class Third:
    """A client of the broker that is neither board: it hears what its subscriptions give
    it (`heard`, every `Received`) and publishes what it likes."""

    def __init__(self, broker: Broker, client_id: str = "mallory", subscriptions: tuple[str, ...] = ("#",)) -> None:
        self.news: queue.Queue[News] = queue.Queue()
        self.heard: list[Received] = []
        self.client = Client(broker, client_id, subscriptions, self.news.put)
        self.client.start()
        self.wait(LinkUp)

    def wait(self, kind: type) -> News:
        give_up = time.monotonic() + WAIT_S
        while time.monotonic() < give_up:
            try:
                news = self.news.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(news, Received):
                self.heard.append(news)
            if isinstance(news, kind):
                return news
        raise AssertionError(f"the third client heard no {kind.__name__}")

    def heard_on(self, topic: str) -> list[bytes]:
        """The payloads heard on `topic` so far, once there is one."""
        give_up = time.monotonic() + WAIT_S
        while not (payloads := [news.payload for news in self.gather() if news.topic == topic]):
            if time.monotonic() > give_up:
                raise AssertionError(f"the third client heard nothing on {topic}")
            time.sleep(0.05)
        return payloads

    def gather(self) -> list[Received]:
        """Everything heard so far."""
        while True:
            try:
                news = self.news.get_nowait()
            except queue.Empty:
                return self.heard
            if isinstance(news, Received):
                self.heard.append(news)

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, retain)

    def forge(self, message: Message) -> None:
        """`message` on its sender's topic, sealed with the third client's own key."""
        topic = str(Topic(GAME, message.sender, Channel.MSG))
        self.publish(topic, THEIRS.seal(message.sender, Channel.MSG, message.seq, message.to_bytes()))

    def stop(self) -> None:
        self.client.stop()


@pytest.fixture
def game(tmp_path, mosquitto):
    """Two boards of a match to 1 on an open broker, met; a third client subscribed to everything."""
    white, black = boards(tmp_path, mosquitto, {"match": 1}, seed=21)
    third = Third(Broker(mosquitto.host, mosquitto.port))
    try:
        scan_until((white, black), lambda board: board.table.link is Link.CONNECTED, "the boards' meeting")
        yield white, black, third
    finally:
        third.stop()
        white.close()
        black.close()


def received_lines(board: Board) -> list[Message]:
    return [line.message for line in read_outbox(board.folder).lines if isinstance(line, ReceivedLine)]


def sent_lines(board: Board) -> list[Message]:
    return [line.message for line in read_outbox(board.folder).lines if isinstance(line, Sent)]


def dropped(board: Board, why: Drop, count: int, what: str) -> None:
    scan_until((board,), lambda board: board.remote.drops.counts[why] >= count, what)


def only_the_other_boards(white: Board, black: Board) -> None:
    """Each board journaled, of what it received, only what the other one sent, each once."""
    for board, other in ((white, black), (black, white)):
        received, sent = received_lines(board), sent_lines(other)
        assert len({message.seq for message in received}) == len(received)
        assert all(message in sent for message in received)


def client_id(board: Board) -> str:
    return board.remote.transport.client._paho._client_id.decode()


def drop_lines(board: Board) -> list[str]:
    return [line for line in board.said if line.startswith("dropped")]


def play_on(white: Board, black: Board, plays: int = 2) -> None:
    """The boards play on, `plays` more plays, and agree."""
    play_both(white, black, plays=max(board.plays() for board in (white, black)) + plays)
    agree(white, black)


def play_to_the_end(white: Board, black: Board) -> None:
    play_both(white, black)
    assert white.table.phase is black.table.phase is Phase.MATCH_OVER
    agree(white, black)


def agree(white: Board, black: Board) -> None:
    """The boards' games are the same so far (one may be an event ahead), neither said they
    disagree, and each journaled only what the other one sent."""
    ours, theirs = sorted((white.game_events(), black.game_events()), key=len)
    assert theirs[:len(ours)] == ours and len(theirs) - len(ours) <= 1
    assert not [line for line in white.said + black.said if "disagree" in line or "differ" in line]
    only_the_other_boards(white, black)


# -- items 5 and 6: forged messages, at the next number and ahead of it -------------------------


def test_a_forged_play_with_the_next_number_is_dropped_and_never_journaled(game):
    white, black, third = game
    play_both(white, black, plays=1)
    seen, lines = white.remote.peer.seen, len(read_outbox(white.folder).lines)
    state = white.table.state_event()
    forged = Action(GAME, BLACK, seen + 1, ev.Double(BLACK, 2), len(white.game_events()), state.match_id,
                    state.position_id)
    third.forge(forged)
    third.publish(BLACK_MSG, forged.to_bytes())  # unsealed, as the boards' messages used to be
    dropped(white, Drop.FORGED, 2, "the forged messages' drop")
    assert white.remote.peer.seen == seen and len(read_outbox(white.folder).lines) == lines
    assert white.table.phase is not Phase.DOUBLED
    assert drop_lines(white) == [f"dropped a message on black's msg topic that is not sealed with black's key for "
                                 f"game {GAME} (what is dropped is counted: a line a minute at most)"]
    play_on(white, black)


def test_forged_messages_2_to_257_ahead_are_never_held_and_never_fill_a_gap(game):
    white, black, third = game
    seen = white.remote.peer.seen
    for ahead in range(2, 258):
        third.forge(Hello(GAME, BLACK, seen + ahead, 0, shared_session({"match": 1}), 0) if ahead % 2 else
                    Action(GAME, BLACK, seen + ahead, ev.Double(BLACK, 2), 0, None, "4HPwATDgc/ABMA"))
    dropped(white, Drop.FORGED, 256, "the forged messages' drop")
    assert all(message in sent_lines(black) for message in white.remote.peer.held.values())
    assert len(drop_lines(white)) <= 2  # once, and a line a minute at most
    play_on(white, black)


# -- item 7: a forged hello ------------------------------------------------------------------------


def test_a_forged_hello_with_another_session_does_not_end_the_game(game):
    white, black, third = game
    third.forge(Hello(GAME, BLACK, white.remote.peer.seen + 1, 0, shared_session({"match": 7}), 0))
    dropped(white, Drop.FORGED, 1, "the forged hello's drop")
    assert white.table.link is Link.CONNECTED and white.remote.peer.disagreement is None
    play_on(white, black)


# -- item 8: replays, other games, a huge message, presences, client IDs, `#` ----------------------


def test_replayed_messages_are_dropped_and_never_journaled(game):
    white, black, third = game
    play_both(white, black, plays=2)
    theirs = third.heard_on(BLACK_MSG)
    lines, repeated = len(read_outbox(white.folder).lines), white.remote.drops.counts[Drop.REPEATED]
    said = len(white.said)
    for payload in theirs * 3:
        third.publish(BLACK_MSG, payload)
    dropped(white, Drop.REPEATED, repeated + 3 * len(theirs), "the replays' drop")
    assert len(read_outbox(white.folder).lines) == lines
    assert white.said[said:] == []  # a resend is normal: counted, not said
    play_on(white, black)


def test_a_message_of_another_game_does_not_open_here(game):
    white, black, third = game
    other_game = Seal(Pairing("g2", SECRET))  # the same code, another game ID
    message = Hello("g2", BLACK, white.remote.peer.seen + 1, 0, shared_session({"match": 1}), 0)
    third.publish(BLACK_MSG, other_game.seal(BLACK, Channel.MSG, message.seq, message.to_bytes()))
    # And one of this game's messages, moved to another game's topic, opens there no more.
    [payload, *_] = third.heard_on(BLACK_MSG)
    with pytest.raises(ValueError, match="not sealed with black's key for game g2"):
        other_game.open(BLACK, Channel.MSG, payload)
    dropped(white, Drop.FORGED, 1, "the other game's message's drop")
    assert not [message for message in received_lines(white) if message.game != GAME]
    play_on(white, black)


def test_a_64_mib_message_never_reaches_the_board(game, mosquitto):
    white, black, third = game
    third.publish(BLACK_MSG, bytes(64 * 1024 * 1024))
    third.publish(WHITE_MSG, b"x" * (64 * 1024 * 1024))
    # The broker sends neither: each board told it the largest packet it takes.  The boards
    # play on: what is sent after the two arrives (the broker keeps the order).
    play_on(white, black)
    assert white.remote.drops.counts[Drop.TOO_BIG] == black.remote.drops.counts[Drop.TOO_BIG] == 0
    log = mosquitto.log.read_text()
    for board in (white, black):
        assert f"Dropping too large outgoing PUBLISH for {client_id(board)} (67108889 bytes)" in log


def test_a_forged_retained_offline_does_not_show_the_other_board_gone(game):
    white, black, third = game
    third.publish(BLACK_PRESENCE, b"offline", retain=True)
    third.publish(BLACK_PRESENCE, THEIRS.seal(BLACK, Channel.PRESENCE, 0, b'{"presence": "offline"}'), retain=True)
    dropped(white, Drop.FORGED, 2, "the forged presences' drop")
    assert white.table.link is Link.CONNECTED
    play_on(white, black)


def test_replays_of_the_other_board_s_online_presence_make_it_say_nothing(game):
    white, black, third = game
    play_both(white, black, plays=1)
    [*_, online] = third.heard_on(BLACK_PRESENCE)  # black's online, sealed by black

    def hellos() -> int:
        return sum(isinstance(message, Hello) for message in sent_lines(white))

    greeted, repeated = hellos(), white.remote.drops.counts[Drop.REPEATED]
    for _ in range(200):
        third.publish(BLACK_PRESENCE, online)
    dropped(white, Drop.REPEATED, repeated + 200, "the replayed presences' drop")
    assert hellos() == greeted  # no hello for any of them
    play_on(white, black)


def test_a_replayed_last_will_of_an_earlier_connection_is_not_believed(tmp_path, game, mosquitto):
    white, black, third = game
    black.crash()  # its connection drops: the broker publishes its last will, offline
    scan_until((white,), lambda board: board.table.link is Link.AWAY, "the last will")
    [will, *_] = [news.payload for news in third.gather() if news.topic == BLACK_PRESENCE][-1:]
    black = Board(tmp_path / "black", BLACK, Broker(mosquitto.host, mosquitto.port), {}, seed=21)
    try:
        scan_until((white, black), lambda board: board.table.link is Link.CONNECTED, "the restarted board")
        third.publish(BLACK_PRESENCE, will, retain=True)  # the old will again: sealed by black, but old
        dropped(white, Drop.OLD_PRESENCE, 1, "the old will's drop")
        assert white.table.link is Link.CONNECTED
        play_on(white, black)
    finally:
        black.close()


def test_a_client_with_a_board_s_old_client_id_takes_nothing_over(game, mosquitto):
    white, black, third = game
    where = Broker(mosquitto.host, mosquitto.port)
    takers = [Third(where, f"bgpi-{GAME}-{side.label}", ()) for side in (WHITE, BLACK)]  # the IDs of before
    try:
        play_both(white, black, plays=2)
        for board in (white, black):
            assert not [news for news in board.remote.transport.drain() if isinstance(news, LinkDown)]
            assert board.table.link is Link.CONNECTED
    finally:
        for taker in takers:
            taker.stop()
    play_on(white, black)


def test_everything_shows_only_the_seals_of_the_boards_messages(game):
    white, black, third = game
    play_both(white, black, plays=2)
    heard = third.gather()
    sealed = [news for news in heard if news.topic.endswith(("/msg", "/presence"))]
    assert {news.topic for news in sealed} == {str(Topic(GAME, side, channel)) for side in (WHITE, BLACK)
                                               for channel in (Channel.MSG, Channel.PRESENCE)}
    secrets = [secret.hex().encode() for board in (white, black) for secret in board.secrets]
    for news in sealed:
        assert not any(word in news.payload for word in (b'"kind"', b'"session"', b"online", *secrets))
        with pytest.raises(ValueError):
            THEIRS.open(Topic.parse(news.topic).side, Topic.parse(news.topic).channel, news.payload)
    # What watchers read is in clear: the boards' state and their table logs.
    assert any(news.topic.endswith("/state") and b'"phase"' in news.payload for news in heard)


# -- a broker configured as the docs say --------------------------------------------------------


def attack(third: Third, stop: threading.Event, rng: random.Random) -> None:
    """Forgeries, replays and forged presences, again and again, until `stop`."""
    seq = 1
    while not stop.is_set():
        seq += rng.randrange(1, 5)
        side = rng.choice((WHITE, BLACK))
        third.forge(Hello(GAME, side, seq, 0, shared_session({"match": 7}), 0))
        third.forge(Action(GAME, side, seq + 1, ev.Double(side, 2), 0, None, "4HPwATDgc/ABMA"))
        third.publish(str(Topic(GAME, side, Channel.PRESENCE)), b"offline", retain=True)
        theirs = [news.payload for news in third.gather() if news.topic.endswith("/msg")]
        if theirs:
            third.publish(rng.choice((BLACK_MSG, WHITE_MSG)), rng.choice(theirs))
        stop.wait(0.05)


@pytest.mark.parametrize("broker", ["open", "docs"])
def test_a_whole_game_with_a_third_client_attacking_throughout_ends_normally(tmp_path, request, broker):
    """On the open broker the third client's publications reach the boards and are
    dropped; on the docs' broker, as the watcher ``club``, it cannot publish there at all,
    cannot take the boards' client IDs, and reads only what watchers read.

    Only the docs' broker meets clients that have the boards' own client IDs: an open
    broker hands an ID to whoever connects with it last (MQTT's takeover), so there a
    client knowing the ID could keep a board off the broker; it cannot know it without the
    code, and a client with an ID the boards used before takes nothing over
    (`test_a_client_with_a_board_s_old_client_id_takes_nothing_over`)."""
    docs = broker == "docs"
    server: Mosquitto = request.getfixturevalue("mosquitto_docs" if docs else "mosquitto")
    white, black = boards(tmp_path, server, {"match": 1}, seed=23,
                          users=("white-board", "black-board") if docs else None)
    third = Third(login(server, "club" if docs else None, tmp_path / "third"))
    # On the docs' broker, two more clients, each logged in as a user of its own, try the
    # boards' own client IDs: the broker lets each use only its user name.
    takers = [Third(login(server, user, tmp_path / "third"), client_id(board), ())
              for user, board in (("mallory", white), ("trudy", black)) if docs]
    stop = threading.Event()
    attacker = threading.Thread(target=attack, args=(third, stop, random.Random(5)))
    try:
        scan_until((white, black), lambda board: board.table.link is Link.CONNECTED, "the boards' meeting")
        attacker.start()
        play_to_the_end(white, black)
    finally:
        stop.set()
        if attacker.is_alive():
            attacker.join()
        for client in (third, *takers):
            client.stop()
        white.close()
        black.close()
    drops = white.remote.drops.counts + black.remote.drops.counts
    topics = {news.topic for news in third.gather()}
    if docs:  # nothing the third client published reached a board; it read only what watchers read
        assert drops[Drop.FORGED] == drops[Drop.OLD_PRESENCE] == 0
        assert topics and all(topic.endswith(("/state", "/log")) for topic in topics), topics
    else:
        assert drops[Drop.FORGED] > 0 and drops[Drop.REPEATED] > 0
    for board in (white, black):
        assert len(drop_lines(board)) <= 2 + 1  # the first drop, and a line a minute at most


@pytest.fixture
def docs_game(tmp_path, mosquitto_docs):
    """Two boards of a match to 1 on the broker configured as the docs say, met."""
    white, black = boards(tmp_path, mosquitto_docs, {"match": 1}, seed=24, users=("white-board", "black-board"))
    try:
        scan_until((white, black), lambda board: board.table.link is Link.CONNECTED, "the boards' meeting")
        yield white, black
    finally:
        white.close()
        black.close()


def test_the_docs_broker_turns_a_64_mib_message_away(tmp_path, mosquitto_docs, docs_game):
    """The broker reads the packet's length and disconnects its sender (max_packet_size)."""
    white, black = docs_game
    third = Third(login(mosquitto_docs, "mallory", tmp_path / "third"), "mallory", ())
    try:
        third.publish(BLACK_MSG, bytes(64 * 1024 * 1024))
        third.wait(LinkDown)
    finally:
        third.stop()
    play_on(white, black)
    drops = white.remote.drops.counts + black.remote.drops.counts
    assert drops[Drop.TOO_BIG] == drops[Drop.FORGED] == 0
    assert "Client mallory disconnected due to oversize packet." in mosquitto_docs.log.read_text()


def test_the_docs_broker_refuses_a_client_without_a_user(tmp_path, mosquitto_docs):
    told: queue.Queue[News] = queue.Queue()
    client = Client(Broker(mosquitto_docs.host, mosquitto_docs.port), "anonymous", ["#"], told.put)
    client.start()
    try:
        news = told.get(timeout=WAIT_S)
        assert isinstance(news, LinkDown) and news.refused, news
    finally:
        client.stop()


def test_a_board_cannot_write_the_other_side_s_topics_on_the_docs_broker(tmp_path, mosquitto_docs, docs_game):
    """White's board user writes only white's topics: what it publishes as black reaches nobody."""
    white, black = docs_game
    impostor = Third(login(mosquitto_docs, "white-board", tmp_path / "impostor"), "impostor", ())
    try:
        hello = Hello(GAME, BLACK, 99, 0, shared_session({"match": 1}), 0)
        impostor.publish(BLACK_MSG, Seal(Pairing(GAME, SECRET)).seal(BLACK, Channel.MSG, 99, hello.to_bytes()))
        play_both(white, black, plays=1)
        assert white.remote.drops.counts[Drop.TOO_FAR] == 0 and 99 not in white.remote.peer.held
        assert "Denied PUBLISH from white-board" in mosquitto_docs.log.read_text()
    finally:
        impostor.stop()
