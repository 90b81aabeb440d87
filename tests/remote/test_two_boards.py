"""Two simulated boards play each other through a real broker (Debian's mosquitto).

Each board has its own state directory and its hands play their own side from what
their own table shows (`tests/remote/boards.py`): the other side's play arrives over
the broker, is lit, and is carried out by hand.  Both tables must write the same game.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from bgpi.remote import dice
from bgpi.remote.messages import Commit, Hello, Reveal, shared_session
from bgpi.remote.mqtt import Arrived, Broker, Transport
from bgpi.remote.pairing import CODE_ENV
from bgpi.rules.position import Side
from bgpi.shell.journal import read_journal
from bgpi.table import events as ev
from bgpi.table.phases import Link, Phase
from tests.remote.boards import CODE, GAME, WAIT_S, Board, boards, pairing, play_both, scan_until
from tests.remote.conftest import Mosquitto, free_port


def test_a_match_to_3_is_played_to_its_end_on_both_boards_alike(tmp_path, mosquitto):
    white, black = boards(tmp_path, mosquitto, {"match": 3})
    try:
        play_both(white, black)
        for board in (white, black):
            assert board.table.phase is Phase.MATCH_OVER
            assert board.table.link is Link.CONNECTED
        assert white.game_events() == black.game_events()
        kinds = [event.kind for event in white.game_events()]
        assert kinds.count("match_over") == 1 and kinds.count("play") > 20
        assert not [line for line in white.said + black.said if "disagree" in line or "differ" in line]
    finally:
        white.close()
        black.close()


def test_both_boards_resume_the_same_game_after_the_broker_is_killed_and_restarted(tmp_path, mosquitto):
    white, black = boards(tmp_path, mosquitto, {"match": 1}, seed=2)
    try:
        play_both(white, black, plays=6)
        mosquitto.kill()
        scan_until((white, black), lambda board: board.table.link is Link.UNREACHABLE, "the broker's loss")
        assert [board.table.prompt().asks for board in (white, black)] == ["remote_away"] * 2
        mosquitto.start()
        scan_until((white, black), lambda board: board.table.link is Link.CONNECTED, "the other board again")
        play_both(white, black)
        assert white.game_events() == black.game_events()
        assert white.table.phase is Phase.MATCH_OVER
    finally:
        white.close()
        black.close()


def test_a_board_restarted_from_its_state_directory_resynchronises_to_the_same_game(tmp_path, mosquitto):
    white, black = boards(tmp_path, mosquitto, {"match": 1}, seed=3)
    try:
        play_both(white, black, plays=5)
        black.crash()  # as kill -9: no goodbye, journals as they stand
        black = Board(tmp_path / "black", Side.BLACK, Broker(mosquitto.host, mosquitto.port), {}, seed=3)
        scan_until((white, black), lambda board: board.table.link is Link.CONNECTED, "the restarted board")
        play_both(white, black)
        assert white.game_events() == black.game_events()
        assert black.table.phase is Phase.MATCH_OVER
    finally:
        white.close()
        black.close()


class Tampered:
    """The black board's side of the wire, played by hand: it says what a tampered client would."""

    def __init__(self, broker: Mosquitto, config: dict) -> None:
        self.transport = Transport(Broker(broker.host, broker.port), pairing(), Side.BLACK)
        self.config, self.seq = config, 0
        self.transport.start()

    def send(self, kind: type, *fields) -> None:
        self.seq += 1
        self.transport.publish(kind(GAME, Side.BLACK, self.seq, *fields))

    def hello(self) -> None:
        self.send(Hello, 0, shared_session(self.config), 0)

    def greeted_by(self, board: Board) -> None:
        """Wait for `board`'s hello, which it sends once the broker has acknowledged its
        subscriptions: only then does what this side sends reach it."""
        heard: list = []

        def greeted(board: Board) -> bool:
            heard.extend(self.transport.drain())
            return any(isinstance(news, Arrived) and isinstance(news.message, Hello) for news in heard)

        scan_until((board,), greeted, f"{board.side.label}'s hello")


def refused_with(board: Board, line: str) -> None:
    scan_until((board,), lambda board: board.table.link is Link.DISAGREE, "the disagreement")
    assert board.table.prompt().asks == "remote_refused"
    assert any(line in said for said in board.said), board.said


def test_a_reveal_that_does_not_match_its_commitment_is_caught(tmp_path, mosquitto):
    white = Board(tmp_path / "white", Side.WHITE, Broker(mosquitto.host, mosquitto.port), {"match": 1}, seed=4)
    black = Tampered(mosquitto, {"match": 1})
    try:
        black.greeted_by(white)
        black.hello()
        scan_until((white,), lambda board: board.table.link is Link.CONNECTED, "the tampered board's hello")
        black.send(Commit, 1, dice.commitment(bytes(32)))
        white.do({"press": "white.turn"})  # the opening roll: white commits and reveals
        black.send(Reveal, 1, bytes([1]) * 32)  # another secret than the one committed: dice of its choosing
        refused_with(white, "does not match its commitment")
        assert white.table.phase is Phase.OPENING  # no dice were made
    finally:
        black.transport.stop()
        white.close()


def test_a_second_commitment_for_the_same_roll_is_caught(tmp_path, mosquitto):
    white = Board(tmp_path / "white", Side.WHITE, Broker(mosquitto.host, mosquitto.port), {"match": 1}, seed=5)
    black = Tampered(mosquitto, {"match": 1})
    try:
        black.greeted_by(white)
        black.hello()
        scan_until((white,), lambda board: board.table.link is Link.CONNECTED, "the tampered board's hello")
        black.send(Commit, 1, dice.commitment(bytes(32)))
        black.send(Commit, 1, dice.commitment(bytes([7]) * 32))
        refused_with(white, "sent a second, different dice commitment for roll 1")
    finally:
        black.transport.stop()
        white.close()


def test_duplicated_and_reordered_messages_change_nothing(tmp_path, mosquitto):
    white = Board(tmp_path / "white", Side.WHITE, Broker(mosquitto.host, mosquitto.port), {"match": 1}, seed=6)
    black = Tampered(mosquitto, {"match": 1})
    try:
        black.greeted_by(white)
        secret = bytes(range(32))
        hello = Hello(GAME, Side.BLACK, 1, 0, shared_session({"match": 1}), 0)
        commit = Commit(GAME, Side.BLACK, 2, 1, dice.commitment(secret))
        for message in (commit, hello, hello, commit):  # the commitment first, then twice each
            black.transport.publish(message)
        scan_until((white,), lambda board: board.remote.peer.seen == 2, "the two messages")
        white.do({"press": "white.turn"})
        black.transport.publish(Reveal(GAME, Side.BLACK, 3, 1, secret))
        scan_until((white,), lambda board: board.table.phase is not Phase.OPENING, "the opening roll")
        first, second = dice.dice_of(GAME, 1, white.secrets[0], secret)
        opening = next(event for event in white.game_events() if isinstance(event, ev.Opening | ev.Tie))
        assert (opening.white, opening.black) == (first, second)
        assert white.table.link is Link.CONNECTED
    finally:
        black.transport.stop()
        white.close()


def test_an_opponent_who_vanishes_mid_turn_shows_remote_away(tmp_path, mosquitto):
    white, black = boards(tmp_path, mosquitto, {"match": 1}, seed=7)
    try:
        play_both(white, black, plays=3)
        black.close()  # gone: its presence says offline
        scan_until((white,), lambda board: board.table.link is Link.AWAY, "the other board's going")
        assert white.table.prompt().asks == "remote_away"
        assert "the other board (black) is gone: waiting for it to come back" in white.said
    finally:
        white.close()


def test_a_broker_that_refuses_the_login_shows_remote_refused(tmp_path, mosquitto_login):
    white = Board(tmp_path / "white", Side.WHITE, Broker(mosquitto_login.host, mosquitto_login.port), {}, seed=8)
    try:
        scan_until((white,), lambda board: board.table.link is Link.REFUSED, "the refusal")
        assert white.table.prompt().asks == "remote_refused"
        assert any("refused the login" in line and "check the broker user" in line for line in white.said)
    finally:
        white.close()


class Process:
    """`bgpi run --board sim --remote ... --side white` in a process of its own, with its page."""

    def __init__(self, state: Path, broker: Mosquitto) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bgpi", "run", "--board", "sim", "--state", str(state), "--port", str(self.port),
             "--remote", GAME, "--side", "white", "--broker", f"127.0.0.1:{broker.port}", "--match", "1"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env={**os.environ, CODE_ENV: CODE})

    def request(self, path: str, body: str | None = None) -> dict:
        give_up = time.monotonic() + WAIT_S
        while True:
            try:
                request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}",
                                                 data=None if body is None else body.encode())
                with urllib.request.urlopen(request, timeout=30) as answer:
                    return json.loads(answer.read())
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > give_up or self.process.poll() is not None:
                    raise
                time.sleep(0.1)

    def state(self) -> dict:
        return self.request("/api/state")


def test_a_board_killed_9_resumes_from_its_state_directory_and_the_boards_agree(tmp_path, mosquitto):
    """White runs as `bgpi run` (its hands through its page's API); black in this process."""
    white = Process(tmp_path / "white", mosquitto)
    black = Board(tmp_path / "black", Side.BLACK, Broker(mosquitto.host, mosquitto.port), {"match": 1}, seed=9)
    try:
        white.state()  # its page is up
        scan_until((black,), lambda board: board.table.link is Link.CONNECTED, "the white process")
        white.request("/api/actions", json.dumps({"press": "white.turn"}))  # the opening roll: white commits
        black.do({"press": "black.turn"})
        black.do({"await": "remote"})  # both secrets revealed: the opening roll is made
        white.process.kill()  # kill -9, wherever it is
        white.process.wait()
        white = Process(tmp_path / "white", mosquitto)
        give_up = time.monotonic() + WAIT_S
        # Each board makes the dice once it has both reveals, and either may be first: wait for both.
        while ((state := white.state())["phase"] in ("setup", "opening")
               or black.table.phase in (Phase.SETUP, Phase.OPENING)) and time.monotonic() < give_up:
            black.sim.advance(black.sim.period)
        theirs = black.table.state_event().to_json()
        assert {key: state[key] for key in ("phase", "turn", "dice", "position_id", "match_id")} == \
            {key: theirs[key] for key in ("phase", "turn", "dice", "position_id", "match_id")}
    finally:
        white.process.send_signal(signal.SIGTERM)
        white.process.communicate(timeout=30)
        black.close()
    ours = [event for event in read_journal(tmp_path / "white").events if ev.is_game(event)]
    assert ours == black.game_events()
