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


def match_log(seed: int, length: int = 1) -> list[ev.Event]:
    """A whole match to `length` (one game is enough for a 1-point match) between two
    random players: session, start, the game's events, match_over."""
    rng = random.Random(seed)
    log: list[ev.Event] = [ev.NewSession({"match": length})]
    session = Session(Settings.match(length))
    while not session.is_over:
        log.append(ev.Start(START))
        game = list(self_play_events(rng, session))
        log.extend(game)
        session = session.record(next(event for event in game if isinstance(event, ev.GameOver)).game_result())
    winner = Side.WHITE if session.score.white > session.score.black else Side.BLACK
    log.append(ev.MatchOver(winner, session.score.as_dict()))
    return log


def winner_of(log: list[ev.Event]) -> Side:
    over = log[-1]
    assert isinstance(over, ev.MatchOver)
    return over.winner


def over_state(game: str, side: Side, log: list[ev.Event]) -> dict[str, Any]:
    """The `state` message of a board of `game` once the match of `log` is over."""
    session, over = log[0], log[-1]
    assert isinstance(session, ev.NewSession) and isinstance(over, ev.MatchOver)
    event = ev.State(Phase.MATCH_OVER, None, None, START, None, over.score)
    return board_state(event, game, side, "connected", match_length=session.config["match"])


def playing_state(game: str, side: Side, length: int, turn: Side = Side.WHITE) -> dict[str, Any]:
    """The `state` message of a board of `game` at the start of its match, `turn` to roll."""
    key = MatchKey(dice_owner=turn, turn=turn, match_length=length)
    event = ev.State(Phase.ROLL, turn, None, position_id(Position.start(), turn), match_id(key),
                     {"white": 0, "black": 0})
    return board_state(event, game, side, "connected")
