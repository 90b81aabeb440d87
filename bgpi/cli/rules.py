"""`bgpi rules`: the rules engine from the command line.

    bgpi rules plays --position-id ID --dice A B [--json]
    bgpi rules plays --batch FILE            (JSON Lines in and out; - for stdin)
    bgpi rules show ID[:MATCHID] | XGID=...

Position IDs are read and written with the player to move encoded as on roll,
as gnubg does, so resulting positions keep the mover "on roll".
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import TextIO

from bgpi.exc import BatchLineError, DiceInputError, RulesError, SettingsError, UsageError
from bgpi.rules.ids import (
    GameState,
    MatchKey,
    board_id,
    decode_position_id,
    result_ids,
)
from bgpi.rules.movegen import packed_results
from bgpi.rules.notation import format_play
from bgpi.rules.play import Dice
from bgpi.rules.position import Position, Side
from bgpi.rules.reference import legal_plays
from bgpi.rules.xgid import read_ids
from bgpi.shell.textboard import draw


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rules = subparsers.add_parser(
        "rules",
        help="legal plays and positions from the rules engine",
        description="The rules engine: legal plays of a roll, positions drawn as text.",
    )
    commands = rules.add_subparsers(dest="rules_command", metavar="COMMAND", required=True)

    plays = commands.add_parser(
        "plays",
        help="the legal plays of a roll",
        description=(
            "List the legal plays of a roll in a position (gnubg Position ID, the player "
            "to move on roll), each with its notation and resulting Position ID. With "
            "--batch, read JSON Lines {\"position_id\": ID, \"dice\": [A, B]} and write, "
            "one line per input line, the sorted distinct resulting Position IDs (256 lines "
            "at a time, and the rest at the end of the input)."
        ),
    )
    source = plays.add_mutually_exclusive_group(required=True)
    source.add_argument("--position-id", metavar="ID", help="gnubg Position ID, mover on roll")
    source.add_argument("--batch", metavar="FILE", help="JSON Lines of positions and dice; - for stdin")
    plays.add_argument("--dice", nargs=2, metavar=("A", "B"), help="the two dice, 1 to 6")
    plays.add_argument("--json", action="store_true", help="print one JSON object")
    plays.set_defaults(handler=_plays)

    show = commands.add_parser(
        "show",
        help="draw a position as text",
        description=(
            "Draw a position as text with pip counts. With a Match ID (ID:MATCHID) or an XGID "
            "also the cube, the score and whose turn it is; without one, white is taken to be on roll."
        ),
    )
    show.add_argument("ids", metavar="ID[:MATCHID]",
                      help="gnubg Position ID, optionally with a Match ID; or an XGID (XGID=...), which gives both")
    show.set_defaults(handler=_show)


# -- plays -------------------------------------------------------------------------


def parse_dice(values: object) -> Dice:
    """Dice from two values (strings or numbers); ValueError naming what is wrong."""
    if not isinstance(values, (list, tuple)) or len(values) != 2:
        raise DiceInputError(f"dice must be two numbers from 1 to 6, not {values!r}")
    dice = []
    for value in values:
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
            raise DiceInputError(f"a die shows 1 to 6, not {value!r}")
        dice.append(value)
    return Dice(*dice)


def _plays(args: argparse.Namespace) -> int:
    if args.batch is not None:
        if args.dice or args.json:
            raise UsageError("--batch reads the dice from its input: leave out --dice and --json")
        return _batch(args.batch)
    if not args.dice:
        raise UsageError("--dice A B is needed with --position-id")
    try:
        waiting, moving = decode_position_id(args.position_id)
        dice = parse_dice(args.dice)
    except (RulesError, SettingsError) as error:  # the Position ID; the dice
        raise UsageError(str(error)) from None
    # The mover's colour does not matter to the rules: call it white.
    start = Position.of(Side.WHITE, moving, waiting)
    plays = [
        (format_play(play.steps), board_id((play.position.black, play.position.white)))
        for play in legal_plays(start, Side.WHITE, dice)
    ]
    if args.json:
        print(json.dumps({
            "position_id": args.position_id,
            "dice": list(dice),
            "plays": [{"move": move, "position_id": result} for move, result in plays],
        }))
        return 0
    if plays == [("", args.position_id)]:
        print(f"No legal play for {dice} in {args.position_id}: the roll is forfeited.")
        return 0
    print(f"{len(plays)} legal plays for {dice} in {args.position_id}:")
    width = max(len(move) for move, _ in plays)
    for move, result in plays:
        print(f"  {move:<{width}}  {result}")
    return 0


def batch_line(text: str) -> str:
    """The answer to one batch line, as a line of JSON; ValueError naming what is wrong with it."""
    try:
        request = json.loads(text)
    except json.JSONDecodeError as error:
        raise BatchLineError(f"not JSON: {error.msg} at column {error.colno}") from None
    except RecursionError:
        raise BatchLineError("not JSON this command reads: nested too deeply") from None
    if not isinstance(request, dict):
        raise BatchLineError('expected an object {"position_id": ..., "dice": [a, b]}')  # noqa: TRY004 (bad input)
    missing = [key for key in ("position_id", "dice") if key not in request]
    if missing:
        raise BatchLineError("missing " + " and ".join(f'"{key}"' for key in missing))
    identifier = request["position_id"]
    if not isinstance(identifier, str):
        raise BatchLineError(f'"position_id": expected a gnubg Position ID (a string), '  # noqa: TRY004
                         f"got {json.dumps(identifier)[:40]}")
    waiting, moving = decode_position_id(identifier)
    dice = parse_dice(request["dice"])
    results = sorted(result_ids(packed_results(moving, waiting, dice)))  # one or more, all distinct
    return _ANSWER.format(identifier, dice.first, dice.second, '", "'.join(results))


# The answer as json.dumps writes it: Position IDs are base64 and dice are numbers,
# so there is nothing to escape, and a format is several times faster.
_ANSWER = '{{"position_id": "{}", "dice": [{}, {}], "results": ["{}"]}}'


def _batch(path: str) -> int:
    if path == "-":
        return answer_batch(sys.stdin, sys.stdout, sys.stderr)
    try:
        with open(path, encoding="utf-8") as lines:
            return answer_batch(lines, sys.stdout, sys.stderr)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text") from None


def answer_batch(lines: Iterable[str], out: TextIO, errors: TextIO) -> int:
    """Answer every line; a bad line gets {"line": N, "error": ...} and a message on `errors`.

    The answers go to `out` a block of lines at a time, as Python writes to a pipe,
    also when it runs unbuffered (-u, PYTHONUNBUFFERED): a write to a pipe per line
    made the batch half as slow again.  Returns 0 when every line was good, 2 otherwise.
    """
    status = 0
    block: list[str] = []
    try:
        for number, text in enumerate(lines, start=1):
            if not text.strip():
                continue
            try:
                answer = batch_line(text)
            except (RulesError, SettingsError) as error:  # the Position ID; the line, its dice
                print(f"bgpi rules plays: line {number}: {error}", file=errors)
                answer = json.dumps({"line": number, "error": str(error)})
                status = 2
            block.append(answer + "\n")
            if len(block) == ANSWERS_PER_WRITE:
                out.write("".join(block))
                block.clear()
    finally:  # the answers so far are written even when the batch stops (Ctrl-C)
        if block:
            out.write("".join(block))
    return status


ANSWERS_PER_WRITE = 256


# -- show --------------------------------------------------------------------------


def _show(args: argparse.Namespace) -> int:
    try:
        ids = read_ids(args.ids)
        waiting, moving = decode_position_id(ids.position_id)
        key = ids.key
    except RulesError as error:
        raise UsageError(str(error)) from None
    on_roll = key.dice_owner if key else Side.WHITE
    position = Position.of(on_roll, moving, waiting)
    print("\n".join(draw(position)))
    print("\n".join(describe(key, on_roll)))
    return 0


def describe(key: MatchKey | None, on_roll: Side) -> list[str]:
    """Cube, score and turn in words."""
    if key is None:
        return [f"{on_roll.label} on roll (no Match ID given)"]
    owner = "centred" if key.cube_owner is None else f"owned by {key.cube_owner.label}"
    lines = [f"cube {key.cube_value}, {owner}"]
    score = f"white {key.score[Side.WHITE]}, black {key.score[Side.BLACK]}"
    if key.match_length:
        crawford = ", the Crawford game" if key.crawford else ""
        lines.append(f"score {score} in a match to {key.match_length}{crawford}")
    else:
        lines.append(f"money play, {score}")
    if key.game_state is not GameState.PLAYING:
        lines.append(f"game state: {key.game_state.name.lower()}")
    elif key.double_offered:
        lines.append(f"{key.dice_owner.label} doubled: {key.turn.label} to take or drop")
    elif key.dice != (0, 0):
        lines.append(f"{key.dice_owner.label} rolled {key.dice[0]}{key.dice[1]}")
    elif key.crawford or key.cube_owner not in (None, key.dice_owner):
        lines.append(f"{key.dice_owner.label} to roll")  # no double: Crawford, or not the cube's owner
    else:
        lines.append(f"{key.dice_owner.label} to roll or double")
    return lines
