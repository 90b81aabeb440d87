"""A team match of three pairs of simulated boards through one real broker (Debian's
mosquitto), watched by `bgpi team`'s watcher (`bgpi.web.team.TeamWatcher`, in-process).

Each pair plays a match to 1 under its own game ID with the hands of
`tests/remote/boards.py`: a few plays, then the pair's loser, on roll, resigns and the
other board accepts.  The losers are chosen so that each team wins a pair's match as
white or as black, and Lions win two of three.  The watcher must count each pair's
winner for the right team and name the team that won, and its export must write each
pair's match as .mat and SGF files that bgpi's own reader reads back.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from bgpi.records.matfile import WINS_INDENT
from bgpi.records.reading import recorded_position
from bgpi.remote.mqtt import Broker
from bgpi.remote.team import parse_team_match
from bgpi.rules.position import Side
from bgpi.shell.journal import read_journal
from bgpi.table import events as ev
from bgpi.table.phases import Link, Phase
from bgpi.web.team import TeamWatcher
from tests.remote.boards import WAIT_S, Board, boards, play_both

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
length = 1
"""

LOSERS = {"club-1": Side.BLACK, "club-2": Side.WHITE, "club-3": Side.WHITE}
"""The side that resigns in each pair: Lions win club-1 as white and club-2 as black, Tigers club-3 as black."""
PLAYS = 2
"""The plays each pair makes before its loser resigns (at least, until the loser is on roll)."""


def request(watcher: TeamWatcher, path: str, method: str = "GET") -> Any:
    with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{watcher.port}{path}", method=method),
                                timeout=30) as answer:
        return json.loads(answer.read())


def snapshot_when(watcher: TeamWatcher, ready: Any, what: str) -> dict[str, Any]:
    """The page's snapshot (``GET /api/team``) once `ready` holds for it."""
    give_up = time.monotonic() + WAIT_S
    while not ready(snapshot := request(watcher, "/api/team")):
        if time.monotonic() > give_up:
            raise AssertionError(f"{what} did not come: {snapshot}; said {watcher.said}")  # type: ignore[attr-defined]
        time.sleep(0.05)
    return snapshot


def every_board_over(snapshot: dict[str, Any]) -> bool:
    """Whether every board's state names its match's winner: a board publishes it after its
    log's ``match_over``, so each pair's log is then whole."""
    return all((board := pair["boards"][side.label]) is not None and board["winner"] is not None
               for pair in snapshot["pairs"] for side in Side)


def loser_on_roll(white: Board, black: Board, loser: Side) -> Board:
    """Play on, `PLAYS` plays and more, until `loser` is to roll: its board.  It resigns
    before its roll, so the other board only waits for the offer (it would roll in its own turn)."""
    for plays in range(PLAYS, PLAYS + 2):
        play_both(white, black, plays=plays)
        if white.table.turn is loser:
            return white if loser is Side.WHITE else black
    raise AssertionError(f"{loser.label} is not on roll after {plays} plays")


def test_three_pairs_play_their_matches_and_the_watcher_counts_the_team_score(tmp_path: Path, mosquitto) -> None:
    match = parse_team_match(MATCH)
    export = tmp_path / "export"
    export.mkdir()
    said: list[str] = []
    watcher = TeamWatcher(match, Broker(mosquitto.host, mosquitto.port), port=0, export_dir=export, say=said.append)
    watcher.said = said  # type: ignore[attr-defined]
    watcher.start()
    pairs: dict[str, tuple[Board, Board]] = {}
    try:
        # The log is not retained: the watcher listens before the boards begin, as docs/team.md asks.
        snapshot_when(watcher, lambda s: s["broker"]["state"] == "connected", "the watcher's subscriptions")
        for number, pair in enumerate(match.pairs, 1):
            pairs[pair.game] = boards(tmp_path / pair.game, mosquitto, {"match": 1}, seed=20 + number, game=pair.game)
        losing = {game: loser_on_roll(*pairs[game], LOSERS[game]) for game in pairs}
        for board in losing.values():
            board.resign()
        play_both(*(board for pair in pairs.values() for board in pair))  # the offers accepted: each match over

        for white, black in pairs.values():
            assert white.table.phase is black.table.phase is Phase.MATCH_OVER
            assert white.table.link is black.table.link is Link.CONNECTED
            assert white.game_events() == black.game_events()
        snapshot = snapshot_when(watcher, every_board_over, "every board's result")
        assert [(pair["game"], pair["winner"], pair["problem"]) for pair in snapshot["pairs"]] == [
            ("club-1", "Lions", None), ("club-2", "Lions", None), ("club-3", "Tigers", None)]
        assert snapshot["score"] == {"wins": [2, 1], "winner": "Lions",
                                     "line": "Lions 2, Tigers 1: Lions win the team match"}
        assert snapshot["problems"] == []
        for game in pairs:  # each board's log begins with its session, sent when it joined the broker
            assert isinstance(watcher.watch.log_of(game)[0], ev.NewSession)

        written = request(watcher, "/api/export", "POST")
        assert sorted(written["written"]) == [f"{game}.{kind}" for game in pairs for kind in ("mat", "sgf")]
        for game, (white, _) in pairs.items():
            plays = [event for event in read_journal(white.folder).events if isinstance(event, ev.Play)]
            pair, winner = match.pair(game), LOSERS[game].opponent
            mat, sgf = ((export / f"{game}.{kind}").read_text() for kind in ("mat", "sgf"))
            assert f" {pair.white} : 0" in mat and f" {pair.black} : 0" in mat  # the teams as the players
            assert "\n" + " " * WINS_INDENT[winner] + "Wins 1 point and the match\n" in mat  # in the winner's column
            assert f"RE[{'W' if winner is Side.WHITE else 'B'}+1R]" in sgf  # won by a resignation
            for kind, text in (("mat", mat), ("sgf", sgf)):
                read = recorded_position(text, kind, game=1, play=len(plays))
                assert (read.match_length, read.score) == (1, (0, 0))
                assert read.position_id == plays[-2].position_id  # the position before the last play
    finally:
        for both in pairs.values():
            for board in both:
                board.close()
        watcher.stop()
