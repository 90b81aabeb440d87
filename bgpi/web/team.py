"""`bgpi team`'s page: every board of a team match live, the team score, and the export.

The watcher subscribes, through the match's MQTT broker (`bgpi.remote.mqtt.Client`), to
both boards' ``state`` topics (each board's retained `state` message, `bgpi.remote.state`)
and ``log`` topics (every table-log event a board commits, one JSON object a message,
numbered by the board with ``seq``: one numbered no higher than the last taken is a
duplicate, dropped) of the match's games (`bgpi.remote.team`), and serves one page
(docs/team.md):

* ``GET /``: the page (``static/team.html``, ``team.js``, ``team.css``);
* ``GET /api/team``: what the watcher knows (`Watch.snapshot`): the broker, each pair's
  boards and result, the team score, the last problems heard;
* ``GET /api/team/events``: server-sent events, the same snapshot first and after every change;
* ``GET /api/games/<game>.mat`` and ``.sgf``: a pair's match from its white board's log;
* ``POST /api/export``: each pair's .mat and .sgf written to the ``--export`` directory
  (409 without one); with one, a pair's files are also written when its log ends a game.

Everything heard is hostile until checked: a `state` message by `parse_board_state`, a
log message for its size, JSON and event shape, its topic (`bgpi.remote.topics.Topic`) for
a game of the match and a side; each fault is one problem line (on the page, and once on
stderr), and the message is dropped.  The client's callbacks only queue what they hear
onto the server's event loop, which alone touches the `Watch`.  The server is
`bgpi.web.server`'s: its access rules (loopback names, or the access token), its limits
on connections, streams and errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
import threading
from collections import deque
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Any

from aiohttp import web

from bgpi.exc import BoardStateError, EventError, MatError, SgfError, TopicError, WatchedLogError
from bgpi.remote.drops import Dropped
from bgpi.remote.mqtt import Broker, Client, LinkDown, LinkUp, News, Received
from bgpi.remote.state import MAX_BYTES, BoardState, parse_board_state
from bgpi.remote.team import TeamMatch, pair_records, team_score
from bgpi.remote.topics import Channel, Topic, both_sides
from bgpi.rules.position import Side, absolute_point
from bgpi.table import events as ev
from bgpi.web import DEFAULT_HOST
from bgpi.web.server import (
    LOOPBACK_NAMES,
    MAX_STREAMS,
    STATIC,
    Hub,
    app_runner,
    close_site,
    encode,
    error_response,
    event_stream,
    guarded_app,
    open_site,
    static,
)

MAX_LOG_EVENTS = 100_000
"""Log events kept for one board (a long match has a few thousand): a flood ends there."""
MAX_PROBLEMS = 20
"""Problem lines the page shows (the latest)."""
WATCHED = (Channel.STATE, Channel.LOG)
"""What the watcher hears of each board: its retained state and its log."""


class BrokerState(StrEnum):
    CONNECTING = "connecting"
    CONNECTED = "connected"
    DOWN = "down"
    REFUSED = "refused"


class Watch:
    """What the watcher has heard: each board's latest state, each board's logged events,
    the broker's state and the problems heard.  Lives on the server's event loop."""

    def __init__(self, match: TeamMatch, broker: Broker, export_dir: Path | None = None) -> None:
        self.match, self.broker, self.export_dir = match, broker, export_dir
        self.states: dict[tuple[str, Side], BoardState] = {}
        self.logs: dict[tuple[str, Side], list[ev.Event]] = {}
        self.log_seqs: dict[tuple[str, Side], int] = {}  # the last numbered log event taken from each board
        self.broker_state = BrokerState.CONNECTING
        self.broker_line = f"connecting to the broker at {broker}"
        self.problems: deque[str] = deque(maxlen=MAX_PROBLEMS)

    def subscriptions(self) -> list[str]:
        return [both_sides(pair.game, channel) for pair in self.match.pairs for channel in WATCHED]

    def heard(self, topic: str, payload: bytes) -> str | None:
        """Take in one message; the game whose log just ended a game (to export), if any.
        Raises BoardStateError or WatchedLogError (one line) for a message that is not one."""
        watched = _topic(topic, self.match)
        game, side = watched.game, watched.side
        if watched.channel is Channel.STATE:
            state = parse_board_state(payload)
            if (state.game, state.side) != (game, side):
                raise BoardStateError(f"a state message on {topic} for game {state.game!r}, "
                                      f"side {state.side.label}")
            self.states[game, side] = state
            return None
        event, seq = _log_event(payload)
        if seq is not None:  # the board's number of the event: a resend after a reconnect is dropped
            if seq <= self.log_seqs.get((game, side), 0):
                return None
            self.log_seqs[game, side] = seq
        log = self.logs.setdefault((game, side), [])
        if len(log) >= MAX_LOG_EVENTS:
            raise WatchedLogError(f"more than {MAX_LOG_EVENTS} events on {topic}: the rest are dropped")
        log.append(event)
        return game if isinstance(event, ev.GameOver | ev.MatchOver) else None

    def log_of(self, game: str) -> list[ev.Event]:
        """A pair's logged events: its white board's (both boards log the same game), else its black one's."""
        return self.logs.get((game, Side.WHITE)) or self.logs.get((game, Side.BLACK)) or []

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows, as JSON."""
        match = self.match
        score = team_score(match, {pair.game: [self.states[pair.game, side] for side in Side
                                               if (pair.game, side) in self.states] for pair in match.pairs})
        pairs = [{"game": result.pair.game, "white": result.pair.white, "black": result.pair.black,
                  "length": result.pair.length, "winner": result.winner, "problem": result.problem,
                  "events": len(self.log_of(result.pair.game)),
                  "boards": {side.label: _board(self.states.get((result.pair.game, side))) for side in Side}}
                 for result in score.results]
        return {"match": match.name, "teams": list(match.teams), "needed": match.needed,
                "broker": {"state": self.broker_state.value, "line": self.broker_line},
                "score": {"wins": list(score.wins), "winner": score.winner, "line": score.describe()},
                "pairs": pairs, "problems": list(self.problems), "export": self.export_dir is not None}

    def export(self, games: list[str] | None = None) -> dict[str, list[str]]:
        """Write each pair's (or `games`') .mat and .sgf to the export directory:
        {"written": [file names], "warnings": [lines]}."""
        assert self.export_dir is not None
        written, warnings = [], []
        for pair in self.match.pairs:
            if games is not None and pair.game not in games:
                continue
            try:
                records = pair_records(pair, self.log_of(pair.game))
            except (MatError, SgfError) as error:
                warnings.append(f"{pair.game}: {error}")
                continue
            warnings.extend(f"{pair.game}: {warning}" for warning in records[1].warnings)
            if records[0].games == 0:
                warnings.append(f"{pair.game}: no game logged yet")
                continue
            mat, sgf = records
            for kind, text in (("mat", mat.text), ("sgf", sgf.text)):
                path = self.export_dir / f"{pair.game}.{kind}"  # a game ID is letters, digits, - and _
                path.write_text(text)
                written.append(path.name)
        return {"written": written, "warnings": warnings}


def _topic(text: str, match: TeamMatch) -> Topic:
    """A watched topic of the match; BoardStateError otherwise."""
    try:
        topic = Topic.parse(text)
    except TopicError as error:
        raise BoardStateError(f"a message on {error}") from None
    if topic.channel not in WATCHED or match.pair(topic.game) is None:
        raise BoardStateError(f"a message on {text[:120]!r}, no topic of this match")
    return topic


def _log_event(payload: bytes) -> tuple[ev.Event, int | None]:
    """One logged table event, checked (at most `MAX_BYTES`, a JSON object, an event), and
    its number in the board's journal (``"seq"``), if it has one."""
    if len(payload) > MAX_BYTES:
        raise WatchedLogError(f"a log message of {len(payload)} bytes: at most {MAX_BYTES}")
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise WatchedLogError("a log message that is no table-log event: not JSON") from None
    seq = data.pop("seq", None) if isinstance(data, dict) else None
    try:
        event = ev.parse(data)
    except EventError as error:
        raise WatchedLogError(f"a log message that is no table-log event: {str(error)[:160]}") from None
    return event, seq if type(seq) is int else None


def _board(state: BoardState | None) -> dict[str, Any] | None:
    """A board's state with its checkers for the drawing: `points[i]` is absolute point
    i + 1 (white's count) as [white's checkers, black's checkers]."""
    if state is None:
        return None
    position = state.position
    points = [[0, 0] for _ in range(24)]
    for side in Side:
        for point, count in enumerate(position.checkers(side)[:24], 1):
            points[absolute_point(side, point) - 1][side] = count
    return {**state.to_json(), "points": points,
            "bar": [position.on_bar(side) for side in Side], "off": [position.borne_off(side) for side in Side]}


def _pairs(count: int) -> str:
    return f"{count} pair{'s' if count != 1 else ''}"


# -- the page -------------------------------------------------------------------------------

WATCH = web.AppKey("watch", Watch)
HUB = web.AppKey("hub", Hub)


async def _page(request: web.Request) -> web.StreamResponse:
    return web.Response(body=(STATIC / "team.html").read_bytes(), content_type="text/html")


async def _snapshot(request: web.Request) -> web.StreamResponse:
    return web.json_response(request.app[WATCH].snapshot())


async def _events(request: web.Request) -> web.StreamResponse:
    return await event_stream(request, request.app[HUB], encode(request.app[WATCH].snapshot()),
                              f"{MAX_STREAMS} pages are watching already: close one")


async def _game_file(request: web.Request) -> web.StreamResponse:
    watch, game, kind = request.app[WATCH], request.match_info["game"], request.match_info["kind"]
    pair = watch.match.pair(game)
    if pair is None:
        return error_response(404, f"no game {game[:70]!r} in this match")
    try:
        mat, sgf = pair_records(pair, watch.log_of(game))
    except (MatError, SgfError) as error:
        return error_response(409, str(error))
    record = mat if kind == "mat" else sgf
    if record.games == 0:
        return error_response(404, f"no game of {game} logged yet: nothing to download")
    return web.Response(text=record.text, content_type="text/plain", headers={
        "Content-Disposition": f'attachment; filename="{game}.{kind}"'})


async def _export(request: web.Request) -> web.StreamResponse:
    watch = request.app[WATCH]
    if watch.export_dir is None:
        return error_response(409, "no export directory: start bgpi team with --export DIR")
    try:
        return web.json_response(watch.export())
    except OSError as error:
        return error_response(500, f"cannot write to {watch.export_dir}: {error.strerror or error}")


def make_team_app(watch: Watch, token: str | None = None) -> web.Application:
    """The team page's application over `watch` (see the module docstring)."""
    app = guarded_app(token, "bgpi team: the page")
    app[WATCH] = watch
    app[HUB] = Hub()
    app.router.add_get("/", _page)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/api/team", _snapshot)
    app.router.add_get("/api/team/events", _events)
    app.router.add_get("/api/games/{game}.{kind:mat|sgf}", _game_file)
    app.router.add_post("/api/export", _export)
    return app


# -- the watcher ------------------------------------------------------------------------------


def say_on_stderr(line: str) -> None:
    print(f"bgpi team: {line}", file=sys.stderr, flush=True)


class TeamWatcher:
    """The broker's messages into a `Watch`, and the page served, on a thread of its own.

    `start` returns once the page's socket is bound (OSError if it cannot be), its
    address said; the broker is reached in the background, retried with backoff, and each change of its
    state is one line to `say` and on the page.  `stop` writes the export (with one)
    and ends it all."""

    def __init__(self, match: TeamMatch, broker: Broker, host: str = DEFAULT_HOST, port: int = 0,
                 token: str | None = None, export_dir: Path | None = None,
                 say: Callable[[str], None] = say_on_stderr) -> None:
        if host not in LOOPBACK_NAMES and token is None:
            raise ValueError(f"listening on {host} needs an access token")
        self.host, self.port, self.token, self.say = host, port, token, say
        self.watch = Watch(match, broker, export_dir)
        self.app = make_team_app(self.watch, token)
        self._loop = asyncio.new_event_loop()
        self._inbox: asyncio.Queue[News] = asyncio.Queue()
        self._runner = app_runner(self.app)
        self._thread = threading.Thread(target=self._serve, name="bgpi-team", daemon=True)
        self._started = threading.Event()
        self._failure: BaseException | None = None
        self._said: set[str] = set()
        self.client = Client(broker, f"bgpi-team-{secrets.token_hex(6)}", self.watch.subscriptions(), self._queue)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/" + (f"?token={self.token}" if self.token else "")

    def _queue(self, news: News) -> None:
        """On paho's thread: hand what it heard to the event loop, and nothing else."""
        with contextlib.suppress(RuntimeError):  # the loop has stopped: nobody listens
            self._loop.call_soon_threadsafe(self._inbox.put_nowait, news)

    def start(self) -> None:
        self._thread.start()
        self._started.wait()
        if self._failure is not None:
            raise self._failure
        match = self.watch.match
        self.say(f"{match.name!r}: {_pairs(len(match.pairs))}, the page is at {self.url}")
        self.client.start()

    def _serve(self) -> None:
        loop = self._loop
        asyncio.set_event_loop(loop)
        try:
            self.port = open_site(loop, self._runner, self.host, self.port)
        except BaseException as error:  # noqa: BLE001 (handed to the starting thread)
            self._failure = error
            self._started.set()
            loop.close()
            return
        drain = loop.create_task(self._drain())
        self._started.set()
        loop.run_forever()
        drain.cancel()
        close_site(loop, self._runner)
        loop.close()

    async def _drain(self) -> None:
        """Take in what paho heard, a batch at a time, and show the pages the result."""
        inbox = self._inbox
        while True:
            items = [await inbox.get()]
            while not inbox.empty():
                items.append(inbox.get_nowait())
            for item in items:
                try:
                    self._handle(item)
                except Exception as error:  # noqa: BLE001 (one line, and the watcher goes on)
                    self.say(f"unexpected error: {error!r} (please report it)")
            self.app[HUB].publish([], self.watch.snapshot())

    def _handle(self, news: News) -> None:
        match news:
            case Received(topic=topic, payload=payload):
                self._message(topic, payload)
            case Dropped(line=line):  # too big to read: the client dropped it unread
                self._problem(line)
            case LinkUp():
                self._broker(BrokerState.CONNECTED, f"watching {_pairs(len(self.watch.match.pairs))} of boards "
                                                    f"through the broker at {self.watch.broker}")
            case LinkDown(refused=refused, line=line):
                self._broker(BrokerState.REFUSED if refused else BrokerState.DOWN, line)

    def _message(self, topic: str, payload: bytes) -> None:
        watch = self.watch
        try:
            ended = watch.heard(topic, payload)
        except (BoardStateError, WatchedLogError) as error:
            self._problem(str(error))
            return
        if ended is not None and watch.export_dir is not None:
            self._write_export([ended])

    def _problem(self, line: str) -> None:
        """A message heard and dropped: listed on the page, said once on stderr."""
        self.watch.problems.append(line)
        if line not in self._said and len(self._said) < 1000:  # each fault once on stderr, a flood not
            self._said.add(line)
            self.say(line)

    def _write_export(self, games: list[str] | None = None) -> None:
        try:
            answer = self.watch.export(games)
        except OSError as error:
            self.say(f"cannot write to {self.watch.export_dir}: {error.strerror or error}")
            return
        for warning in answer["warnings"]:
            self.say(f"export: {warning}")

    def _broker(self, state: BrokerState, line: str) -> None:
        watch = self.watch
        if (watch.broker_state, watch.broker_line) != (state, line):
            watch.broker_state, watch.broker_line = state, line
            self.say(line)

    def stop(self) -> None:
        """Stop listening to the broker, write the export (with a directory), close the page."""
        self.client.stop()
        if not self._thread.is_alive():
            return
        if self.watch.export_dir is not None:
            done = threading.Event()

            def export() -> None:
                self._write_export()
                done.set()
            self._loop.call_soon_threadsafe(export)
            done.wait(10)
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self.app[HUB].close_all)
            self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
