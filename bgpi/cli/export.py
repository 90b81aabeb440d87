"""`bgpi export`: a session's games as a file for GNU Backgammon.

`--mat FILE` writes a Jellyfish .mat file (gnubg: ``import mat FILE``); `--sgf FILE` an
SGF file (gnubg: ``load match FILE``), which can also hold a game that starts from a
practice position.  `--session N` picks a session (`--list` numbers them: the current
one and those set aside by ``bgpi run --new`` or chosen on the board); the default is
the current one.  Damaged journal lines and events the format cannot hold are warnings
on stderr; the file is written with everything else.  No journal, no such session, or
no game in it is a usage error (exit 2).

A chouette's games are written one file each, as the box against the captain on the
captain's cube (FILE-1.mat, FILE-2.mat, ...; `--game N` writes game N to FILE itself),
or as the box against any seat of the team (`--seat NAME`); `--sheet FILE` writes its
score sheet as CSV (docs/chouette.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bgpi.exc import JournalError, JournalStartError, MatError, RecordError, UsageError
from bgpi.records.chouette import ChouetteGame, chouette_games, game_of, is_chouette, seat_events
from bgpi.records.matfile import MatRecord, mat_record
from bgpi.records.sgffile import SgfRecord, sgf_record
from bgpi.records.sheet import score_sheet, sheet_csv
from bgpi.shell.journal import default_state_dir
from bgpi.shell.sessions import KeptSession, sessions
from bgpi.table import events as ev


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a session's games for GNU Backgammon (.mat or SGF)",
        description=" ".join(__doc__.split("\n\n")[1:3]).replace("\n", " "),
    )
    formats = parser.add_mutually_exclusive_group(required=True)
    formats.add_argument("--mat", metavar="FILE", type=Path,
                         help="write a .mat file ('-' for stdout); gnubg: import mat FILE")
    formats.add_argument("--sgf", metavar="FILE", type=Path,
                         help="write an SGF file ('-' for stdout); gnubg: load match FILE")
    formats.add_argument("--sheet", metavar="FILE", type=Path,
                         help="a chouette's score sheet as CSV ('-' for stdout)")
    formats.add_argument("--list", action="store_true", help="list the sessions kept, numbered")
    parser.add_argument("--session", metavar="N", type=int,
                        help="the session to export (see --list; default: the current one)")
    parser.add_argument("--game", metavar="N", type=int,
                        help="a chouette: only game N, to FILE itself (default: every game, FILE-1, FILE-2, ...)")
    parser.add_argument("--seat", metavar="NAME",
                        help="a chouette: the game of this seat against the box (default: each game's captain)")
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
    if is_chouette(session.events):
        return export_chouette(args, session)
    if args.sheet is not None or args.game is not None or args.seat is not None:
        option = "--sheet" if args.sheet is not None else "--game" if args.game is not None else "--seat"
        raise UsageError(f"{option}: session {session.number} is no chouette (only a chouette has seats "
                         "and a score sheet)")
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
    if _write(target, record.text):
        print(f"bgpi export: session {session.number}, {record.games} game{'s' if record.games != 1 else ''} "
              f"written to {target}", file=sys.stderr)
    return 0


def _write(target: Path, text: str) -> bool:
    """Write `text` to `target` ('-': stdout); whether a file was written."""
    if str(target) == "-":
        sys.stdout.write(text)
        return False
    try:
        target.write_text(text)
    except OSError as error:
        raise UsageError(f"cannot write {target}: {error.strerror or error}") from None
    return True


def export_chouette(args: argparse.Namespace, session: KeptSession) -> int:
    """A chouette's score sheet, or its games one file each (`--game N`: game N alone)."""
    for warning in session.problems:
        print(f"bgpi export: warning: {warning}", file=sys.stderr)
    if args.sheet is not None:
        if _write(args.sheet, sheet_csv(score_sheet(session.events))):
            print(f"bgpi export: session {session.number}'s score sheet written to {args.sheet}", file=sys.stderr)
        return 0
    head, games = chouette_games(session.events)
    try:
        chosen = [game_of(games, args.game)] if args.game is not None else games
    except RecordError as error:
        raise UsageError(f"--game {args.game}: {error}") from None
    if not chosen:
        raise UsageError(f"no games in session {session.number}: nothing to export")
    target = args.mat if args.mat is not None else args.sgf
    if str(target) == "-" and len(chosen) > 1:
        raise UsageError("a chouette's games go one file each: give --game N to write one to stdout")
    single = args.game is not None
    for game in chosen:
        numbered = target.with_name(f"{target.stem}-{game.number}{target.suffix}")
        path = target if single or str(target) == "-" else numbered
        text = _chouette_game(args, head, game, single)
        if text is not None and _write(path, text):
            print(f"bgpi export: session {session.number}, game {game.number} "
                  f"({game.box} against {args.seat or game.captain}) written to {path}", file=sys.stderr)
    return 0


def _chouette_game(args: argparse.Namespace, head: ev.NewSession, game: ChouetteGame, single: bool) -> str | None:
    """One chouette game as the format asks, the box against the seat asked; None (said on
    stderr) for a game every game of which is written but this one cannot be."""
    problem = None
    if args.seat is not None and args.seat not in game.team:
        problem = f"{args.seat} has no seat in game {game.number} (its team: {', '.join(game.team)})"
    elif args.mat is not None and game.practice:
        problem = f"game {game.number} starts from a practice position, which .mat cannot hold: export it with --sgf"
    if problem is not None:
        if single:
            raise UsageError(problem)
        print(f"bgpi export: {problem}: skipped", file=sys.stderr)
        return None
    events = seat_events(head, game, args.seat)
    try:
        record: MatRecord | SgfRecord = mat_record(events) if args.mat is not None else sgf_record(events)
    except MatError as error:
        raise UsageError(str(error)) from None
    for warning in record.warnings:
        print(f"bgpi export: warning: game {game.number}: {warning}", file=sys.stderr)
    return record.text


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
