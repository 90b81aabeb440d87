"""Two simulated boards play each other through a real broker (Debian's mosquitto).

Each board has its own state directory and its hands play their own side from what
their own table shows (`tests/remote/boards.py`): the other side's play arrives over
the broker, is lit, and is carried out by hand.  Both tables must write the same game.
"""

from __future__ import annotations

from pathlib import Path

from bgpi.remote.mqtt import Broker
from bgpi.rules.position import Side
from bgpi.table.phases import Link, Phase
from tests.remote.boards import Board, play_both
from tests.remote.conftest import Mosquitto


def boards(tmp_path: Path, broker: Mosquitto, config: dict, seed: int = 1) -> tuple[Board, Board]:
    where = Broker(broker.host, broker.port)
    return (Board(tmp_path / "white", Side.WHITE, where, config, seed),
            Board(tmp_path / "black", Side.BLACK, where, config, seed))


def test_a_match_to_3_is_played_to_its_end_on_both_boards_alike(tmp_path, mosquitto):
    white, black = boards(tmp_path, mosquitto, {"match": 3})
    try:
        play_both(white, black)
        for board in (white, black):
            assert board.table.phase is Phase.MATCH_OVER
            assert board.table.link is Link.CONNECTED
        assert white.game_events() == black.game_events()
        kinds = [event["event"] for event in white.game_events()]
        assert kinds.count("match_over") == 1 and kinds.count("play") > 20
        assert not [line for line in white.said + black.said if "disagree" in line or "differ" in line]
    finally:
        white.close()
        black.close()
