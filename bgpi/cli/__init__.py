"""The `bgpi` command: one subcommand per module of this package, each adding its own parser.

Every subcommand module has `register(subparsers)`, which adds its parser and sets
`handler` to a function taking the parsed arguments and returning an exit status.
Errors the user can fix are raised as `UsageError` (`bgpi.cli.errors`) and printed as one
line, exit 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from bgpi import __version__
from bgpi.cli.errors import UsageError


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line naming the problem and --help, exit 2
    (argparse's own print the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    # Imported here so that `bgpi --help` stays fast and each command loads only its own code.
    from bgpi.cli import diag, export, hint, replay, rules, run, selfplay

    parser = OneLineParser(
        prog="bgpi",
        description="The software of a physical backgammon board run by a Raspberry Pi.",
    )
    parser.add_argument("--version", action="version", version=f"bgpi {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in (run, replay, rules, hint, diag, export, selfplay):
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except UsageError as error:
        print(f"bgpi {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`bgpi ... | head`): not an error of ours.
        sys.stderr.close()
        return 0
    except Exception as error:
        if os.environ.get("BGPI_DEBUG"):
            raise
        print(f"bgpi {args.command}: unexpected error: {error!r} (run with BGPI_DEBUG=1 for details, "
              "and please report it)", file=sys.stderr)
        return 1
