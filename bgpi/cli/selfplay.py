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
from bgpi.rules.position import Position, Side
from bgpi.rules.selfplay import random_game
from bgpi.rules.session import Session
from bgpi.table.events import Event, GameOver, Opening, Play, Roll, State
from bgpi.table.phases import Phase


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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


def self_play_events(rng: random.Random, session: Session | None = None) -> Iterator[Event]:
    """The table log events of one random game: opening, rolls, plays, game_over, state."""
    session = session or Session()
    game = session.new_game()
    position, side = Position.start(), Side.WHITE  # until the first play
    for number, turn in enumerate(random_game(rng)):
        side, dice = turn.side, turn.dice
        if number == 0:
            game = game.opening(dice.first, dice.second)
            yield Opening(dice.first, dice.second, side, game.cube.value)
        else:
            game = game.roll()
            yield Roll(side, (dice.first, dice.second))
        position = turn.play.position
        game = game.end_turn()
        over = position.winner() is not None
        yield Play(side, (dice.first, dice.second), format_play(turn.play.steps),
                   position_id(position, side.opponent), match_id(game.match_key(over=over)))
    result = game.result(position)
    session = session.record(result)
    game = replace(game, session=session)
    yield GameOver.of(result, session.score)
    # The winner made the last play: the loser would be on roll.
    yield State(Phase.OVER, None, None, position_id(position, side.opponent), match_id(game.match_key(over=True)),
                session.score.as_dict())


def _run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    for event in self_play_events(random.Random(seed)):
        sys.stdout.write(json.dumps(event.to_json()) + "\n")
    return 0
