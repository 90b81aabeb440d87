"""`bgpi team`'s page against Debian's mosquitto: three pairs of boards publish their states
and logs with bgpi's MQTT client as boards do; the page shows them, counts the team score
and exports the matches as .mat and SGF files that bgpi's own reader reads back."""

from __future__ import annotations

import getpass
import json
import queue
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bgpi.records.reading import recorded_position
from bgpi.remote.mqtt import Broker, Client, LinkUp, News
from bgpi.remote.team import parse_team_match
from bgpi.remote.topics import Channel, Topic
from bgpi.rules.position import Side
from bgpi.table import events as ev
from bgpi.web.team import TeamWatcher
from tests.remote.team_logs import match_log, over_state, playing_state, winner_of

MOSQUITTO = "/usr/sbin/mosquitto"
WAIT_SECONDS = 20.0
"""How long a test waits for the watcher to hear what was published (a bound, not a timing)."""

MATCH = """
name = "Club evening"
teams = ["Lions", "Tigers"]

[[pair]]
game = "club-1"
white = "Lions"
length = 1

[[pair]]
game = "club-2"
white = "Tigers"
length = 1

[[pair]]
game = "club-3"
white = "Lions"
length = 3
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_mosquitto(directory: Path, *lines: str, port: int | None = None) -> tuple[subprocess.Popen[bytes], int]:
    port = port or _free_port()
    config = directory / "mosquitto.conf"
    # Started as root, mosquitto would become the user "mosquitto", who may not read the test's files.
    config.write_text("\n".join((f"listener {port} 127.0.0.1", f"user {getpass.getuser()}", *lines)) + "\n")
    broker = subprocess.Popen([MOSQUITTO, "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return broker, port
        except OSError:
            if broker.poll() is not None or time.monotonic() > deadline:
                broker.kill()
                raise RuntimeError(f"mosquitto did not start: {broker.communicate()[1].decode()[-300:]}") from None
            time.sleep(0.05)


def _stop(broker: subprocess.Popen[bytes]) -> None:
    broker.terminate()
    broker.communicate(timeout=10)


@pytest.fixture
def team_broker(tmp_path: Path) -> Iterator[int]:
    """Debian's mosquitto on 127.0.0.1, anyone may log in: its port."""
    broker, port = _start_mosquitto(tmp_path, "allow_anonymous true")
    yield port
    _stop(broker)


@pytest.fixture
def watcher_of(tmp_path: Path) -> Iterator[Callable[..., TeamWatcher]]:
    """Starts `bgpi team`'s watcher (its page on a free port); stops them all at the end."""
    started: list[TeamWatcher] = []

    def start(broker: Broker, export_dir: Path | None = None) -> TeamWatcher:
        lines: list[str] = []
        watcher = TeamWatcher(parse_team_match(MATCH), broker, port=0, export_dir=export_dir, say=lines.append)
        watcher.said = lines  # type: ignore[attr-defined]
        watcher.start()
        started.append(watcher)
        return watcher

    yield start
    for watcher in started:
        watcher.stop()


def _get(watcher: TeamWatcher, path: str, method: str = "GET") -> tuple[int, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{watcher.port}{path}", method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _team(watcher: TeamWatcher) -> dict[str, Any]:
    status, body = _get(watcher, "/api/team")
    assert status == 200
    return dict(json.loads(body))


def _until(watcher: TeamWatcher, ready: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The page's snapshot once `ready` holds (within `WAIT_SECONDS`)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        snapshot = _team(watcher)
        if ready(snapshot) or time.monotonic() > deadline:
            return snapshot
        time.sleep(0.05)


class Boards:
    """The pairs' boards as one publisher: retained states and logged events, with QoS 1, in
    the order given (one connection)."""

    def __init__(self, port: int) -> None:
        heard: queue.Queue[News] = queue.Queue()
        self.client = Client(Broker("127.0.0.1", port), "boards", [], heard.put)
        self.client.start()
        assert isinstance(heard.get(timeout=WAIT_SECONDS), LinkUp)

    def publish(self, topic: Topic | str, payload: bytes | dict[str, Any], retain: bool = False) -> None:
        raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.client.publish(str(topic), raw, retain=retain)

    def state(self, message: dict[str, Any]) -> None:
        self.publish(Topic(message["game"], Side.parse(message["side"]), Channel.STATE), message, retain=True)

    def log(self, game: str, events: list[ev.Event]) -> None:
        for event in events:
            self.publish(Topic(game, Side.WHITE, Channel.LOG), event.to_json())

    def close(self) -> None:
        self.client.stop()


@pytest.fixture
def boards(team_broker: int) -> Iterator[Boards]:
    publisher = Boards(team_broker)
    yield publisher
    publisher.close()


def _connected(snapshot: dict[str, Any]) -> bool:
    return bool(snapshot["broker"]["state"] == "connected")


def _play_two_pairs_and_start_the_third(boards: Boards) -> dict[str, list[dict[str, Any]]]:
    """club-1 and club-2 played to the end (their logs and both boards' states), club-3 begun."""
    logs = {"club-1": match_log(seed=11), "club-2": match_log(seed=12)}
    for game, log in logs.items():
        boards.log(game, log)
        for side in Side:
            boards.state(over_state(game, side, log))
    boards.state(playing_state("club-3", Side.WHITE, 3))
    return logs


def _team_of(pair_white: str, pair_black: str, side: Side) -> str:
    return pair_white if side is Side.WHITE else pair_black


def test_the_page_shows_every_board_the_team_score_and_exports(team_broker: int, boards: Boards,
                                                               watcher_of: Callable[..., TeamWatcher],
                                                               tmp_path: Path) -> None:
    export = tmp_path / "export"
    export.mkdir()
    watcher = watcher_of(Broker("127.0.0.1", team_broker), export)
    assert _connected(_until(watcher, _connected)), watcher.said  # type: ignore[attr-defined]
    logs = _play_two_pairs_and_start_the_third(boards)
    snapshot = _until(watcher, lambda s: s["pairs"][2]["boards"]["white"] is not None
                      and all(pair["events"] == len(logs[pair["game"]]) for pair in s["pairs"][:2]))
    pairs = {pair["game"]: pair for pair in snapshot["pairs"]}
    expected = [_team_of(pairs[game]["white"], pairs[game]["black"], winner_of(logs[game])) for game in logs]
    assert [pairs[game]["winner"] for game in logs] == expected
    assert pairs["club-3"]["winner"] is None and pairs["club-3"]["boards"]["black"] is None
    club3 = pairs["club-3"]["boards"]["white"]
    assert (club3["phase"], club3["turn"], club3["match_length"]) == ("roll", "white", 3)
    assert club3["points"][5] == [5, 0] and club3["points"][18] == [0, 5]  # white's 6-point, black's 6-point
    wins = [expected.count(team) for team in ("Lions", "Tigers")]
    assert snapshot["score"]["wins"] == wins
    assert snapshot["score"]["winner"] == ("Lions" if wins == [2, 0] else "Tigers" if wins == [0, 2] else None)
    assert snapshot["problems"] == [] and snapshot["broker"]["state"] == "connected"

    # Each finished pair was written when its match ended; the button writes them again.
    assert sorted(path.name for path in export.iterdir()) == ["club-1.mat", "club-1.sgf", "club-2.mat", "club-2.sgf"]
    status, body = _get(watcher, "/api/export", "POST")
    assert status == 200 and sorted(json.loads(body)["written"]) == sorted(path.name for path in export.iterdir())
    for game, log in logs.items():
        plays = [event for event in log if isinstance(event, ev.Play)]
        for kind in ("mat", "sgf"):
            text = (export / f"{game}.{kind}").read_text()
            assert recorded_position(text, kind, game=1, play=len(plays)).position_id == plays[-2].position_id
        status, body = _get(watcher, f"/api/games/{game}.mat")
        assert status == 200 and body.decode() == (export / f"{game}.mat").read_text()
    assert _get(watcher, "/api/games/club-3.sgf")[0] == 404  # nothing logged yet
    assert _get(watcher, "/api/games/club-9.sgf")[0] == 404


def test_hostile_messages_are_one_line_each_and_change_nothing(team_broker: int, boards: Boards,
                                                               watcher_of: Callable[..., TeamWatcher]) -> None:
    watcher = watcher_of(Broker("127.0.0.1", team_broker))
    _until(watcher, _connected)
    good = playing_state("club-1", Side.WHITE, 1)
    boards.state(good)
    boards.publish(Topic("club-2", Side.WHITE, Channel.STATE), good, retain=True)  # club-1's state on club-2's topic
    boards.publish("bgpi/v1/club-1/purple/state", good)
    boards.publish(Topic("club-1", Side.BLACK, Channel.STATE), b"{not json", retain=True)
    boards.publish(Topic("club-1", Side.WHITE, Channel.LOG), {"event": "play", "player": "white"})
    boards.publish(Topic("club-1", Side.WHITE, Channel.LOG), b"x" * 9000)
    snapshot = _until(watcher, lambda s: len(s["problems"]) == 5)
    assert snapshot["problems"] == [
        "a state message on bgpi/v1/club-2/white/state for game 'club-1', side white",
        "a message on 'bgpi/v1/club-1/purple/state': 'purple' is no side",
        "a state message that is not JSON",
        "a log message that is no table-log event: a malformed play event (missing 'dice'): "
        "{'event': 'play', 'player': 'white'}",
        "a message of 9000 bytes on bgpi/v1/club-1/white/log: at most 8229 are read",  # dropped unread
    ]
    pairs = snapshot["pairs"]
    assert pairs[0]["boards"]["white"]["phase"] == "roll" and pairs[0]["boards"]["black"] is None
    assert pairs[1]["boards"]["white"] is None and pairs[0]["events"] == 0
    assert watcher.said[-5:] == snapshot["problems"]  # type: ignore[attr-defined]


def test_a_broker_that_is_down_is_said_once_and_shown(watcher_of: Callable[..., TeamWatcher]) -> None:
    port = _free_port()  # nobody listens there
    watcher = watcher_of(Broker("127.0.0.1", port))
    snapshot = _until(watcher, lambda s: s["broker"]["state"] == "down")
    line = f"the broker at 127.0.0.1:{port} is down or cannot be reached: trying again"
    assert snapshot["broker"] == {"state": "down", "line": line}
    assert watcher.said == [f"'Club evening': 3 pairs, the page is at {watcher.url}", line]  # type: ignore[attr-defined]


def test_a_broker_restarted_is_watched_again(tmp_path: Path, watcher_of: Callable[..., TeamWatcher]) -> None:
    broker, port = _start_mosquitto(tmp_path, "allow_anonymous true")
    try:
        watcher = watcher_of(Broker("127.0.0.1", port))
        assert _connected(_until(watcher, _connected))
        _stop(broker)
        assert _until(watcher, lambda s: s["broker"]["state"] == "down")["broker"]["state"] == "down"
        broker, _ = _start_mosquitto(tmp_path, "allow_anonymous true", port=port)
        assert _connected(_until(watcher, _connected))
        boards = Boards(port)  # the subscriptions are back: a board's state is heard
        boards.state(playing_state("club-2", Side.BLACK, 1, turn=Side.BLACK))
        boards.close()
        snapshot = _until(watcher, lambda s: s["pairs"][1]["boards"]["black"] is not None)
        assert snapshot["pairs"][1]["boards"]["black"]["turn"] == "black"
        assert [line.split(" at ")[0] for line in watcher.said] == [  # type: ignore[attr-defined]
            "'Club evening': 3 pairs, the page is", "watching 3 pairs of boards through the broker",
            "the broker", "watching 3 pairs of boards through the broker"]
    finally:
        _stop(broker)


def test_a_refused_login_is_said_and_shown(tmp_path: Path, watcher_of: Callable[..., TeamWatcher]) -> None:
    passwords = tmp_path / "passwords"
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(passwords), "club", "right"], check=True,
                   capture_output=True)
    broker, port = _start_mosquitto(tmp_path, "allow_anonymous false", f"password_file {passwords}")
    try:
        (tmp_path / "wrong").write_text("wrong\n")
        (tmp_path / "right").write_text("right\n")
        wrong = watcher_of(Broker("127.0.0.1", port, "club", tmp_path / "wrong"))
        snapshot = _until(wrong, lambda s: s["broker"]["state"] == "refused")
        assert snapshot["broker"]["line"] == (f"the broker at 127.0.0.1:{port} refused the login (Not authorized): "
                                              "check the broker user and its password file")
        right = watcher_of(Broker("127.0.0.1", port, "club", tmp_path / "right"))
        assert _connected(_until(right, _connected))
    finally:
        _stop(broker)


def test_the_page_in_a_browser(team_broker: int, boards: Boards, watcher_of: Callable[..., TeamWatcher],
                               browser: Any) -> None:
    watcher = watcher_of(Broker("127.0.0.1", team_broker))
    _until(watcher, _connected)
    logs = _play_two_pairs_and_start_the_third(boards)
    snapshot = _until(watcher, lambda s: s["pairs"][2]["boards"]["white"] is not None
                      and all(pair["boards"]["black"] is not None for pair in s["pairs"][:2]))
    page = browser.new_page()
    try:
        page.goto(watcher.url)
        page.wait_for_selector("#link.online")
        page.wait_for_function("document.querySelectorAll('.pair .checker').length >= 30")
        assert page.text_content("#team-score") == snapshot["score"]["line"]
        assert page.locator(".pair").count() == 3
        assert page.locator(".pair[data-game=club-3] .checker").count() == 30
        assert page.is_hidden("#broker")
        words = page.text_content(".pair[data-game=club-3] .words")
        assert words == "Lions 0, Tigers 0, to 3: Lions (white) to roll"
        results = page.locator(".pair .result").all_text_contents()
        assert len(results) == len(logs)
    finally:
        page.close()
