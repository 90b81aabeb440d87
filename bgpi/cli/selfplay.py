"""`bgpi selfplay`: a money game between two random players, as a table log.

Two players who pick random legal plays play one complete money game on the
rules engine alone (no board), printed as a table log
(docs/board-script.md): JSON Lines, one event per line.  A quick look
at the rules engine and the log, and a source of games for tests.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
from collections.abc import Iterator
from dataclasses import replace

from bgpi.rules.ids import match_id, position_id
from bgpi.rules.notation import format_play
from bgpi.rules.selfplay import random_game
from bgpi.rules.session import Session


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "selfplay",
        help="a money game between two random players, as a table log",
        description=(
            "Play one complete money game between two players who pick random legal "
            "plays, and print it as a table log: one JSON event per line."
        ),
    )
    parser.add_argument("--seed", type=int, help="seed of the dice and the players' choices")
    parser.set_defaults(handler=_run)


def self_play_log(rng: random.Random, session: Session | None = None) -> Iterator[dict]:
    """The table log events of one random game: opening, rolls, plays, game_over, state."""
    session = session or Session()
    game = session.new_game()
    position = None
    for number, turn in enumerate(random_game(rng)):
        side, dice = turn.side, turn.dice
        if number == 0:
            game = game.opening(dice.first, dice.second)
            yield {
                "event": "opening",
                "white": dice.first,
                "black": dice.second,
                "starts": side.label,
                "cube": game.cube.value,
            }
        else:
            game = game.roll()
            yield {"event": "roll", "player": side.label, "dice": list(dice)}
        position = turn.play.position
        game = game.end_turn()
        over = position.winner() is not None
        yield {
            "event": "play",
            "player": side.label,
            "dice": list(dice),
            "move": format_play(turn.play.steps),
            "position_id": position_id(position, side.opponent),
            "match_id": match_id(game.match_key(over=over)),
        }
    result = game.result(position)
    session = session.record(result)
    game = replace(game, session=session)
    yield {
        "event": "game_over",
        "winner": result.winner.label,
        "result": result.kind.value,
        "points": result.points,
        "score": session.score.as_dict(),
    }
    yield {
        "event": "state",
        "phase": "game_over",
        "turn": None,
        "dice": None,
        "position_id": position_id(position, game.turn),
        "match_id": match_id(game.match_key(over=True)),
        "score": session.score.as_dict(),
    }


def _run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    for event in self_play_log(random.Random(seed)):
        sys.stdout.write(json.dumps(event) + "\n")
    return 0
