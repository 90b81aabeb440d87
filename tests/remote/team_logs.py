"""Table logs of whole short matches, as a pair's white board would log them, and the
`state` messages its boards would publish (for the team-match tests)."""

from __future__ import annotations

import random
from typing import Any

from bgpi.cli.selfplay import self_play_events
from bgpi.remote.state import board_state
from bgpi.rules.ids import MatchKey, match_id, position_id
from bgpi.rules.position import Position, Side
from bgpi.rules.session import Session, Settings
from bgpi.table import events as ev
from bgpi.table.phases import Phase

START = position_id(Position.start(), Side.WHITE)


def match_log(seed: int, length: int = 1) -> list[dict[str, Any]]:
    """A whole match to `length` (one game is enough for a 1-point match) between two
    random players: session, start, the game's events, match_over."""
    rng = random.Random(seed)
    log: list[dict[str, Any]] = [ev.NewSession({"match": length}).to_json()]
    session = Session(Settings.match(length))
    while not session.is_over:
        log.append(ev.Start(START).to_json())
        game = list(self_play_events(rng, session))
        log.extend(event.to_json() for event in game)
        session = session.record(next(event for event in game if isinstance(event, ev.GameOver)).game_result())
    winner = Side.WHITE if session.score.white > session.score.black else Side.BLACK
    log.append(ev.MatchOver(winner, session.score.as_dict()).to_json())
    return log


def winner_of(log: list[dict[str, Any]]) -> Side:
    return Side.parse(log[-1]["winner"])


def over_state(game: str, side: Side, log: list[dict[str, Any]]) -> dict[str, Any]:
    """The `state` message of a board of `game` once the match of `log` is over."""
    score = log[-1]["score"]
    event = ev.State(Phase.MATCH_OVER, None, None, START, None, score).to_json()
    return board_state(event, game, side, "connected", match_length=log[0]["config"]["match"])


def playing_state(game: str, side: Side, length: int, turn: Side = Side.WHITE) -> dict[str, Any]:
    """The `state` message of a board of `game` at the start of its match, `turn` to roll."""
    key = MatchKey(dice_owner=turn, turn=turn, match_length=length)
    event = ev.State(Phase.ROLL, turn, None, position_id(Position.start(), turn), match_id(key),
                     {"white": 0, "black": 0}).to_json()
    return board_state(event, game, side, "connected")
