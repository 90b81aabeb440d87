"""`bgpi export --mat FILE`: the session in the journal as a .mat file for GNU Backgammon.

Damaged journal lines and events the format cannot hold are warnings on
stderr; the file is written with everything else.  No journal, or no game in
it, is a usage error (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bgpi.cli.errors import UsageError
from bgpi.rules.matfile import MatError, mat_record
from bgpi.shell.journal import (
    JournalError,
    default_state_dir,
    journal_path,
    read_journal,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write the session's games as a .mat file (GNU Backgammon: import mat)",
        description=(
            "Write the games of the last session in the journal as a Jellyfish .mat "
            "file, which GNU Backgammon reads with `import mat FILE`."
        ),
    )
    parser.add_argument("--mat", metavar="FILE", type=Path, required=True,
                        help="the .mat file to write ('-' for stdout)")
    parser.add_argument("--state", metavar="DIR", type=Path,
                        help="state directory holding the journal (default: $BGPI_STATE, "
                             "else $XDG_STATE_HOME/bgpi, else ~/.local/state/bgpi)")
    parser.set_defaults(handler=_export)


def _export(args: argparse.Namespace) -> int:
    state_dir = args.state if args.state is not None else default_state_dir()
    if not journal_path(state_dir).exists():
        raise UsageError(f"no journal in {state_dir} (give the state directory with --state)")
    try:
        journal = read_journal(state_dir)
        record = mat_record(journal.events)
    except (JournalError, MatError) as error:
        raise UsageError(str(error)) from None
    for warning in (*journal.problems, *record.warnings):
        print(f"bgpi export: warning: {warning}", file=sys.stderr)
    if record.games == 0:
        raise UsageError(f"no games in the journal in {state_dir}: nothing to export")
    if str(args.mat) == "-":
        sys.stdout.write(record.text)
        return 0
    try:
        args.mat.write_text(record.text)
    except OSError as error:
        raise UsageError(f"cannot write {args.mat}: {error.strerror or error}") from None
    print(f"bgpi export: {record.games} game{'s' if record.games != 1 else ''} written to {args.mat}",
          file=sys.stderr)
    return 0
