"""`bgpi hint`: GNU Backgammon's advice for a position.

    bgpi hint ID[:MATCHID] --dice A B [--plies N] [--json]   the best plays, best first
    bgpi hint ID[:MATCHID] [--plies N] [--json]              the cube decision
    bgpi hint XGID=...                                      the same, from eXtreme Gammon's ID

The Position ID is encoded for the player on roll (as gnubg writes it); the Match
ID, when given, sets the cube, the score and who is on roll, and its dice stand
in for --dice.  Without either, the cube decision before the roll.
"""

from __future__ import annotations

import argparse
import json
import sys

from bgpi.cli.rules import parse_dice
from bgpi.engine import KINDS, CubeAdvice, RankedPlay, Situation, Strength, open_engine
from bgpi.exc import EngineError, RulesError, SettingsError, UsageError
from bgpi.rules.play import Dice
from bgpi.rules.session import Score, Session, Settings
from bgpi.rules.xgid import read_ids


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    hint = subparsers.add_parser(
        "hint",
        help="GNU Backgammon's best plays or cube decision for a position",
        description=(
            "Ask GNU Backgammon (Debian's gnubg, or PyPI's gnubg module) for the best plays "
            "of a roll, with equities, best first; --json prints a list of {\"move\", "
            "\"position_id\", \"equity\"} where position_id is the position after the play "
            "with the mover still encoded as on roll. Without --dice (and no dice in the "
            "Match ID): the cube decision before the roll, and the answer to a double."
        ),
    )
    hint.add_argument("ids", metavar="ID[:MATCHID]",
                      help="gnubg Position ID (the player on roll), optionally with a Match ID; "
                           "or an XGID (XGID=...), which gives both")
    hint.add_argument("--dice", nargs=2, metavar=("A", "B"), help="the two dice, 1 to 6")
    hint.add_argument("--plies", type=int, choices=(0, 1, 2), default=0, help="look-ahead (default 0)")
    hint.add_argument("--engine", choices=KINDS, default="auto",
                      help="Debian's gnubg process, PyPI's module in-process, or whichever is installed (default)")
    hint.add_argument("--limit", type=int, default=5, metavar="N", help="how many plays to list (default 5)")
    hint.add_argument("--json", action="store_true", help="print JSON")
    hint.set_defaults(handler=_hint)


def _hint(args: argparse.Namespace) -> int:
    try:
        ids = read_ids(args.ids)
        situation, rolled = Situation.from_ids(ids.position_id, ids.match_id)
        dice = parse_dice(args.dice) if args.dice else rolled
    except (RulesError, SettingsError) as error:  # the IDs; the dice
        raise UsageError(str(error)) from None
    if args.limit < 1:
        raise UsageError(f"--limit must be 1 or more, not {args.limit}")
    if dice is None:
        reason = _no_cube_decision(situation)
        if reason:
            raise UsageError(f"no cube decision: {reason}")
    with open_engine(args.engine, Strength(args.plies)) as engine:
        try:
            if dice is None:
                _print_cube(engine.cube(situation), situation, args.json)
            else:
                _print_plays(engine.plays(situation, dice, limit=args.limit), situation, dice, args.json)
        except EngineError as error:
            print(f"bgpi hint: {error}", file=sys.stderr)
            return 1
    return 0


def _no_cube_decision(situation: Situation) -> str | None:
    """Why the player on roll has no cube to turn; None when it may double."""
    if situation.crawford:
        return "no doubling in the Crawford game"
    if situation.cube_owner is situation.mover.opponent:
        return f"the cube is {situation.cube_owner.label}'s"
    if situation.match_length:
        needs = Session(Settings.match(situation.match_length), Score(*situation.score)).needs(situation.mover)
        if situation.cube_value >= needs:  # as the board says it (`Game.why_not_double`)
            return f"the cube is dead: {situation.mover.label} needs only {needs}"
    return None


def _print_plays(plays: list[RankedPlay], situation: Situation, dice: Dice, as_json: bool) -> None:
    if as_json:
        print(json.dumps([play.as_json() for play in plays]))
        return
    if plays[0].move == "":
        print(f"No legal play for {dice}: the roll is forfeited.")
        return
    print(f"Best plays for {dice}, {situation.mover.label} on roll:")
    width = max(len(play.move) for play in plays)
    best = plays[0].equity
    for rank, play in enumerate(plays, start=1):
        behind = f"  ({play.equity - best:+.3f})" if rank > 1 else ""
        print(f"  {rank}. {play.move:<{width}}  {play.equity:+.3f}  {play.position_id}{behind}")


def _print_cube(advice: CubeAdvice, situation: Situation, as_json: bool) -> None:
    if as_json:
        print(json.dumps(advice.as_json()))
        return
    mover, taker = situation.mover.label, situation.mover.opponent.label
    print(f"{mover}: {advice.action}; {taker}, if doubled: {advice.response}")
    print(f"  no double {advice.no_double:+.3f}, double/take {advice.double_take:+.3f}, "
          f"double/drop {advice.double_drop:+.3f} (equity for {mover})")
