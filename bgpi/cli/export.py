"""`bgpi export`: a session's games as a file for GNU Backgammon.

`--mat FILE` writes a Jellyfish .mat file (gnubg: ``import mat FILE``); `--sgf FILE` an
SGF file (gnubg: ``load match FILE``), which can also hold a game that starts from a
practice position.  `--session N` picks a session (`--list` numbers them: the current
one and those set aside by ``bgpi run --new`` or chosen on the board); the default is
the current one.  Damaged journal lines and events the format cannot hold are warnings
on stderr; the file is written with everything else.  No journal, no such session, or
no game in it is a usage error (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bgpi.exc import JournalError, JournalStartError, MatError, UsageError
from bgpi.records.matfile import MatRecord, mat_record
from bgpi.records.sgffile import SgfRecord, sgf_record
from bgpi.shell.journal import default_state_dir
from bgpi.shell.sessions import KeptSession, sessions


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a session's games for GNU Backgammon (.mat or SGF)",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
    )
    formats = parser.add_mutually_exclusive_group(required=True)
    formats.add_argument("--mat", metavar="FILE", type=Path,
                         help="write a .mat file ('-' for stdout); gnubg: import mat FILE")
    formats.add_argument("--sgf", metavar="FILE", type=Path,
                         help="write an SGF file ('-' for stdout); gnubg: load match FILE")
    formats.add_argument("--list", action="store_true", help="list the sessions kept, numbered")
    parser.add_argument("--session", metavar="N", type=int,
                        help="the session to export (see --list; default: the current one)")
    parser.add_argument("--state", metavar="DIR", type=Path,
                        help="state directory holding the journal (default: $BGPI_STATE, "
                             "else $XDG_STATE_HOME/bgpi, else ~/.local/state/bgpi)")
    parser.set_defaults(handler=_export)


def _export(args: argparse.Namespace) -> int:
    state_dir, kept = kept_sessions(args.state)
    if args.list:
        for session in kept:
            print(session.describe())
        return 0
    session = pick_session(kept, args.session)
    target = args.mat if args.mat is not None else args.sgf
    record: MatRecord | SgfRecord
    if args.mat is not None:
        if session.practice:
            raise UsageError(f"session {session.number} starts from a practice position, which "
                             ".mat cannot hold: export it with --sgf FILE")
        try:
            record = mat_record(session.events)
        except MatError as error:
            raise UsageError(str(error)) from None
    else:
        record = sgf_record(session.events)
    for warning in (*session.problems, *record.warnings):
        print(f"bgpi export: warning: {warning}", file=sys.stderr)
    if record.games == 0:
        raise UsageError(f"no games in session {session.number} in {state_dir}: nothing to export")
    if str(target) == "-":
        sys.stdout.write(record.text)
        return 0
    try:
        target.write_text(record.text)
    except OSError as error:
        raise UsageError(f"cannot write {target}: {error.strerror or error}") from None
    print(f"bgpi export: session {session.number}, {record.games} game{'s' if record.games != 1 else ''} "
          f"written to {target}", file=sys.stderr)
    return 0


def kept_sessions(state: Path | None) -> tuple[Path, list[KeptSession]]:
    """The state directory (`--state`, else the default) and the sessions kept in it;
    UsageError if its journal cannot be read, holds no session or there is none."""
    state_dir = state if state is not None else default_state_dir()
    try:
        kept = sessions(state_dir)
    except (JournalError, JournalStartError) as error:
        raise UsageError(str(error)) from None
    if not kept:
        raise UsageError(f"no journal in {state_dir} (give the state directory with --state)")
    return state_dir, kept


def pick_session(kept: list[KeptSession], number: int | None) -> KeptSession:
    """Session `number` (the current one if None); UsageError for no such session, or one
    whose `session` event is damaged."""
    if number is not None and not 1 <= number <= len(kept):
        raise UsageError(f"--session {number}: the sessions kept are 1 to {len(kept)} (see --list)")
    session = kept[-1 if number is None else number - 1]
    if session.fault is not None:
        raise UsageError(f"session {session.number} ({session.file}) cannot be read: its session event is "
                         f"damaged ({session.fault})")
    return session
