"""A game the other board abandoned is claimed (issue 29, "fair to the end"), through a real broker.

Black's board vanishes (a power cut) in the middle of a game; once white's board has
shown it away for the stated time (`CLAIM_SECONDS`, shortened here), white's player
claims the game with a held *turn*, then *turn*.  When black's board comes back it takes
the claim: both journals end the game alike, and the records score it as black's
resignation of a backgammon, as gnubg reads one.
"""

from __future__ import annotations

import pytest

from bgpi.records.matfile import mat_record
from bgpi.records.sgffile import sgf_record
from bgpi.remote import peer
from bgpi.remote.mqtt import Broker
from bgpi.rules.position import Side
from bgpi.rules.result import ResultKind
from bgpi.shell.journal import read_journal
from bgpi.table import events as ev
from bgpi.table.phases import Link, Phase
from tests.remote.boards import Board, boards, play_both, scan_until


@pytest.fixture
def claim_at_once(monkeypatch):
    """The stated time without the other board, shortened to nothing for the test."""
    monkeypatch.setattr(peer, "CLAIM_SECONDS", 0.0)


def test_a_game_abandoned_by_the_other_board_is_claimed_and_both_journals_and_records_say_so(
        tmp_path, mosquitto, claim_at_once):
    white, black = boards(tmp_path, mosquitto, {"match": 3}, seed=31)
    try:
        scan_until((white, black), lambda board: board.table.link is Link.CONNECTED, "the boards' meeting")
        play_both(white, black, plays=3)
        scan_until((white, black), lambda board: white.game_events() == black.game_events(), "the same game")
        black.crash()  # its last will tells white it is gone
        scan_until((white,), lambda board: board.table.link is Link.ABANDONED, "the abandoned game")
        assert white.table.prompt().asks == "remote_abandoned"
        white.do({"hold": "white.turn"})
        white.do({"press": "white.turn"})
        assert white.table.phase is Phase.MATCH_OVER
        black = Board(tmp_path / "black", Side.BLACK, Broker(mosquitto.host, mosquitto.port), {}, seed=31)
        scan_until((black,), lambda board: board.table.phase is Phase.MATCH_OVER, "the claim on the other board")
        games = white.game_events()
        assert black.game_events() == games
        claim, over, _ = games[-3:]
        assert claim == ev.Claimed(Side.WHITE, ResultKind.BACKGAMMON)
        assert isinstance(over, ev.GameOver) and over.resigned and over.points == 3
        for board in (white, black):
            events = read_journal(board.folder).events
            assert "Wins 3 points and the match" in mat_record(events).text
            assert "RE[W+3R]" in sgf_record(events).text
        assert not [line for line in white.said + black.said if "disagree" in line]
    finally:
        white.close()
        black.close()
