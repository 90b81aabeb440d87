"""The `bgpi` command: one subcommand per module of this package, each adding its own parser.

Every subcommand module has `register(subparsers)`, which adds its parser and sets
`handler` to a function taking the parsed arguments and returning an exit status.
Errors the user can fix are raised as `UsageError` (`bgpi.exc`) and printed as one
line, exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from bgpi import __version__
from bgpi.exc import UsageError


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line naming the problem and --help, exit 2
    (argparse's own print the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


Handler = Callable[[argparse.Namespace], int]
"""A subcommand (its parser's ``handler``): the parsed arguments in, the exit status out."""

COMMANDS = ("run", "replay", "rules", "hint", "analyse", "diag", "export", "selfplay", "team", "pair", "acl")
"""The subcommands, each a module of this package, in the order --help lists them."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of `command` alone when it names one.

    Each subcommand's module is imported here, and only the one being run: a start
    of the service (`bgpi run`) does not load the code of the others.
    """
    parser = OneLineParser(
        prog="bgpi",
        description="The software of a physical backgammon board run by a Raspberry Pi.",
    )
    parser.add_argument("--version", action="version", version=f"bgpi {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in (command,) if command in COMMANDS else COMMANDS:
        importlib.import_module(f"bgpi.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
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
