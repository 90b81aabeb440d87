"""`bgpi analyse`: every decision of a session's games, evaluated by GNU Backgammon.

    bgpi analyse [--state DIR] [--session N] [--json] [--plies N] [--worst N]

For each play and cube decision of the session (the current one, or --session N as
`bgpi export --list` numbers them): the equity lost against gnubg's best choice; per
player the decisions, the equity lost, the error rate (thousandths of equity lost per
decision), doubtful plays (0.04 or more lost) and blunders (0.16 or more); and the worst
mistakes with the better choice.  In a chouette, per player by name: the box's and the
captains' plays, and every player's cube decisions, each on its own seat's cube.  `bgpi
export` writes the same games for a deeper look in gnubg.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bgpi.cli.export import kept_sessions, pick_session
from bgpi.engine import KINDS, Strength, open_engine
from bgpi.exc import EngineError, UsageError
from bgpi.hardware.profile import load_profile
from bgpi.shell.analysis import BLUNDER, DOUBTFUL, assess, decisions, summarise
from bgpi.table.tracker import Sensing


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "analyse",
        help="the equity lost by every play and cube decision of a session, by GNU Backgammon",
        description=__doc__.split("\n\n")[2].replace("\n", " "),
    )
    parser.add_argument("--state", metavar="DIR", type=Path,
                        help="state directory holding the journal (default: as bgpi run)")
    parser.add_argument("--session", metavar="N", type=int, help="the session (default: the current one)")
    parser.add_argument("--plies", type=int, choices=(0, 1, 2), default=0, help="look-ahead (default 0)")
    parser.add_argument("--worst", type=int, default=5, metavar="N", help="how many mistakes to list (default 5)")
    parser.add_argument("--engine", choices=KINDS, default="auto", help="which GNU Backgammon (default: auto)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=_analyse)


def _analyse(args: argparse.Namespace) -> int:
    state_dir, kept = kept_sessions(args.state)
    session = pick_session(kept, args.session)
    found = decisions(list(session.events), Sensing(load_profile().geometry))
    if not found:
        raise UsageError(f"no decisions in session {session.number} in {state_dir}: nothing to analyse")
    with open_engine(args.engine, Strength(args.plies)) as engine:
        try:
            assessed = [assess(decision, engine) for decision in found]
        except EngineError as error:
            raise UsageError(f"cannot analyse: {error}") from None
    totals = summarise(assessed)
    worst = sorted((one for one in assessed if one.loss >= DOUBTFUL), key=lambda one: -one.loss)[: args.worst]
    if args.json:
        print(json.dumps({
            "session": session.number,
            "players": {who: total.as_json() for who, total in totals.items()},
            "worst": [one.as_json() for one in worst],
            "decisions": [one.as_json() for one in assessed],
        }))
        return 0
    print(f"session {session.number}: {session.games} game{'s' if session.games != 1 else ''}, "
          f"{len(assessed)} decisions")
    for who, total in totals.items():
        print(f"  {who}: {total.decisions} decisions, {total.lost:.3f} equity lost, "
              f"error rate {total.error_rate:.1f}, {total.doubtful} doubtful (>= {DOUBTFUL}), "
              f"{total.blunders} blunders (>= {BLUNDER})")
    if worst:
        print("worst mistakes:")
    for one in worst:
        decision = one.decision
        cube = "" if decision.seat is None or decision.kind == "play" else f" on {decision.seat}'s cube"
        print(f"  game {decision.game}, {decision.who} ({decision.kind}{cube}): {decision.chosen or 'no play'}; "
              f"better {one.best} (-{one.loss:.3f})  {decision.position_id}:{decision.match_id}")
    return 0
