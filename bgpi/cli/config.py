"""A session's settings on the command line: `--config JSON` (and `--match N`), as `run` and
`replay` take them, validated exactly as a board script's ``config`` line is."""

from __future__ import annotations

import json
from typing import Any

from bgpi.exc import ScriptLineError, UsageError
from bgpi.shell.script import Config

SETTINGS_HELP = """\
session settings (--config, a JSON object; the same keys as a board script's config line):
  "match": N           a match to N points (1..64); without it, money play (--match N says the same)
  "jacoby": true|false money play: gammons count single unless the cube was turned (default true)
  "beavers": true      money play: the player doubled may take and redouble at once (default false)
  "auto_doubles": N    money play: each tie on the opening roll doubles the cube, at most N
                       times a game (default 0: off)
  "cube_cap": N        the highest value the cube may reach, a power of two from 2 (default: no
                       cap but the Match ID's 32768; gnubg's records hold a cube up to 4096)
  "lenient": true      the opponent may accept an illegal play as made (default false)
  "opponent": "gnubg[:LEVEL]"  the computer plays (black unless opponent_side; LEVEL: 0, 1, 2 plies or a gnubg level
                       name, beginner .. worldclass; default expert); --opponent says the same
  "opponent_side": SIDE  the side the computer plays: white, black (default), or both
                       (computer against computer: you move the checkers as lit);
                       --opponent-side says the same
  "remote": SIDE       a remote game: the side the other board plays, white or black (not with
                       opponent)
  "engine": KIND       the engine for hints and the opponent: auto (default), gnubg, module, none
  "hint_level": LEVEL  how hard the hint button's engine thinks (default worldclass:
                       gnubg's 2-ply, as gnubg's own hints; expert, 0-ply, is quicker)
  "coach": E           after each play (not the computer's) that loses more than E equity
                       (such as 0.04) against gnubg's best, the board shows the better play
"""


def parse_config(text: str | None, match: int | None = None) -> dict[str, Any]:
    """The settings `--config` gives (with `--match`), checked like a script's config line.

    Raises UsageError naming every fault: JSON that is not an object, unknown keys,
    values of the wrong kind or range, money-only settings in a match.
    """
    try:
        config = json.loads(text) if text else {}
    except json.JSONDecodeError as error:
        raise UsageError(f"--config: not JSON: {error.msg} at column {error.colno}") from None
    except RecursionError:
        raise UsageError("--config: not JSON this board reads: nested too deeply") from None
    if not isinstance(config, dict):
        raise UsageError('--config takes a JSON object, such as \'{"beavers": true}\'')
    if match is not None:
        if "match" in config and config["match"] != match:
            raise UsageError(f"--match {match} and --config's match {config['match']} disagree")
        config["match"] = match
    return check_config(config)


def check_config(config: dict[str, Any], source: str = "--config") -> dict[str, Any]:
    """`config` if it is a valid config object; else UsageError naming every fault and
    where `config` came from (`source`: "--config", "settings FILE [session]")."""
    try:
        Config(config)
    except ScriptLineError as error:  # a config line's faults, all of them
        raise UsageError(f"{source}: {error}") from None
    return config
