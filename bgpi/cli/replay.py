"""`bgpi replay`: board scripts on the simulated board (docs/board-script.md)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from bgpi.cli.config import check_config, parse_config
from bgpi.exc import (
    JournalError,
    LinkError,
    ProfileError,
    ReplayError,
    ScriptError,
    UsageError,
)
from bgpi.hardware.profile import load_profile
from bgpi.shell.replay import replay
from bgpi.shell.script import load_script
from bgpi.table import events as ev


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="run a board script on the simulated board and print the table log",
        description=(
            "Run a board script (JSON Lines of lifts, placements, button presses and "
            "waits) on the simulated board, through the same scanner and core as the "
            "real board, and print the table log: one JSON event per line, the last a "
            "state event. With --state, the journal is kept in DIR and a second replay "
            "with the same DIR resumes the game where the first stopped."
        ),
    )
    parser.add_argument("script", metavar="SCRIPT", help="the board script")
    parser.add_argument("--seed", type=int, help="seed of the dice the script does not set")
    parser.add_argument("--state", metavar="DIR", type=Path, help="state directory for the journal")
    parser.add_argument("--profile", metavar="FILE", help="board profile (default: the packaged one)")
    parser.add_argument("--config", metavar="JSON",
                        help="session settings (as for bgpi run); the script's config line overrides them")
    parser.add_argument("--link", choices=("pty",),
                        help="pty: the simulated switches, buttons and LEDs live in the real Pico "
                             "firmware behind a pseudo-terminal, reached over the serial link")
    parser.set_defaults(handler=_replay)


def _replay(args: argparse.Namespace) -> int:
    config = parse_config(args.config)
    try:
        profile = load_profile(args.profile)
        script = load_script(args.script, profile.geometry)
    except (ProfileError, ScriptError) as error:
        raise UsageError(str(error)) from None
    if config:
        script = replace(script, config=MappingProxyType(check_config(config | dict(script.config))))

    def write(event: ev.Event) -> None:
        sys.stdout.write(json.dumps(event.to_json()) + "\n")
        sys.stdout.flush()

    def warn(message: str) -> None:
        print(f"bgpi replay: {message}", file=sys.stderr)

    try:
        replay(script, profile, write, args.state, args.seed, warn, args.link, engine=True)
    except (JournalError, ReplayError) as error:
        raise UsageError(str(error)) from None
    except LinkError as error:
        raise UsageError(f"--link {args.link}: {error}") from None
    return 0
