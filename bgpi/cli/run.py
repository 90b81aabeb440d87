"""`bgpi run`: the board, live.

On a Raspberry Pi it runs the real board; elsewhere, or with `--board sim`, the
simulated one, and serves the board's page at http://127.0.0.1:8700 (`--port`,
`--listen` with an access token, `--no-page`; with `--settings`, as its [page] table
says).  The journal in the state directory records every event; a run that finds a
journal resumes that session where it stopped (after a power cut too), and `--new`
starts a fresh one.  On the simulated board at a terminal the keyboard moves the
checkers; without a terminal (as under systemd) it runs until stopped.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import sys
import threading
from pathlib import Path

from bgpi.cli.errors import UsageError
from bgpi.cli.settings import RunSettings, load_settings
from bgpi.hardware.board import BOARD_KINDS, default_board_kind
from bgpi.hardware.frames import closed_switches
from bgpi.hardware.profile import ProfileError, load_profile
from bgpi.rules.position import Side
from bgpi.shell.console import Console, stdin_is_terminal
from bgpi.shell.journal import (
    Journal,
    JournalError,
    default_state_dir,
    free_name,
    journal_path,
)
from bgpi.shell.live import run_live
from bgpi.shell.recorder import Recorder
from bgpi.shell.recovery import open_state
from bgpi.shell.simtable import BOARD_FILE, SimulatedTable, TableRunner
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing
from bgpi.web.bridge import Bridge
from bgpi.web.page import add_page_options, open_page
from bgpi.web.words import Story


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the board (the simulated one when no board is attached)",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
    )
    parser.add_argument("--settings", metavar="FILE", type=Path,
                        help="the service's settings file (board, profile, brightness, session "
                             "rules; see systemd/bgpi.toml); options given here win over it")
    parser.add_argument("--board", choices=BOARD_KINDS, default=None,
                        help="pi: the real board; sim: the simulated one (default: pi on a Raspberry Pi)")
    parser.add_argument("--profile", metavar="FILE", help="board profile (default: the packaged one)")
    parser.add_argument("--state", metavar="DIR", type=Path,
                        help="state directory with the journal (default: $BGPI_STATE or ~/.local/state/bgpi)")
    parser.add_argument("--new", action="store_true",
                        help="start a new session; the old journal is kept beside the new one")
    parser.add_argument("--match", type=int, metavar="N", help="play a match to N points (default: money play)")
    parser.add_argument("--config", metavar="JSON", default="{}",
                        help='session settings as in a board script, e.g. \'{"beavers": true, "lenient": true}\'')
    parser.add_argument("--position", metavar="ID[:MATCHID]", help="practise a gnubg position")
    parser.add_argument("--turn", choices=("white", "black"), default="white",
                        help="who is on roll in --position (default: white)")
    parser.add_argument("--record", metavar="FILE", type=Path,
                        help="record the switches and buttons as a board script (slot, press, wait lines)")
    parser.add_argument("--seed", type=int, help="seed of the simulated dice (default: the OS's random source)")
    add_page_options(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    # From the start, so that a stop asked for while the board opens still ends cleanly.
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    try:
        settings = load_settings(args.settings) if args.settings else RunSettings()
    except ValueError as error:
        raise UsageError(str(error)) from None
    kind = args.board or settings.board or default_board_kind()
    state = args.state or default_state_dir()
    try:
        profile = load_profile(args.profile or settings.profile)
        if settings.brightness is not None:
            profile = dataclasses.replace(
                profile, leds=dataclasses.replace(profile.leds, brightness=settings.brightness))
        config = json.loads(args.config)
        if not isinstance(config, dict):
            raise ValueError("--config takes a JSON object")  # noqa: TRY004 (bad input)
        if args.match is not None:
            config["match"] = args.match
        config = settings.config(config)
        if args.new:
            _set_aside(state)
        sensing = Sensing(profile.geometry)
        opened = open_state(state, sensing)
        journal = opened.journal
    except (ProfileError, JournalError) as error:
        raise UsageError(str(error)) from None
    except (json.JSONDecodeError, ValueError) as error:
        raise UsageError(f"--config: {error}") from None

    terminal = kind == "sim" and stdin_is_terminal()
    out = sys.stdout

    bridge = Bridge(Story.of(opened.history))

    def emit(event: dict) -> None:
        journal.append(event)  # on the disk before it is shown
        bridge.hear(event)
        if not terminal:
            out.write(json.dumps(event) + "\n")
            out.flush()
        else:
            print(f"  {json.dumps(event)}", file=out)

    for note in opened.notes:
        print(f"bgpi run: {note}", file=sys.stderr)
    try:
        if opened.table is not None:
            table, opening = opened.table, []
        else:
            table, opening = _new_table(sensing, config, args.position, Side.parse(args.turn))
        if (resumed := opened.resumed_event()) is not None:
            opening.append(resumed)
    except ValueError as error:
        journal.close()
        raise UsageError(str(error)) from None

    try:
        runner = SimulatedTable(profile, table, emit, args.seed) if kind == "sim" else TableRunner(profile, table, emit, "pi")
    except (OSError, RuntimeError, ValueError) as error:
        journal.close()
        raise UsageError(f"cannot open the {kind} board: {error}") from None

    def new_session(runner: TableRunner, config: dict) -> None:  # asked for by the page
        nonlocal journal
        table, opening = Table.new(sensing, config)
        journal.close()
        _set_aside(state)
        journal = Journal.open(state)
        runner.replace_table(table)
        if kind == "sim":
            runner.set_position(table.position)
        for event in opening:
            emit(event)

    bridge.start_session = new_session
    page = None
    try:
        if kind == "sim":
            runner.restore_board(state)
        try:
            page = open_page(args, settings.page, bridge, profile.geometry, state)
        except (OSError, ValueError) as error:
            raise UsageError(f"cannot serve the page: {error} (--port N for another port, --no-page for none)") from None
        board = "the simulated board" if kind == "sim" else "the board"
        print(f"bgpi run: {board} is running" + (f"; its page: {page.url}" if page else ""), file=sys.stderr, flush=True)
        for event in opening:
            emit(event)
        runner.scan()
        record = args.record.open("w", encoding="utf-8") if args.record else None
        if record is not None:
            runner.recorder = Recorder(record, closed_switches(runner.debouncer.stable, profile.sensors), runner.now)
        run_live(runner, stop, Console(sys.stdin, out) if terminal else None, after_scan=bridge.after_scan)
        if kind == "sim":
            runner.save_board(state)
    finally:
        if page is not None:
            page.stop()
        runner.close()
        journal.close()
    return 0


def _new_table(sensing: Sensing, config: dict, position: str | None, turn: Side) -> tuple[Table, list[dict]]:
    if position is None:
        return Table.new(sensing, config)
    position_text, _, match_text = position.partition(":")
    return Table.new(sensing, config, position_text, turn, match_text or None)


def _set_aside(state: Path) -> None:
    """Move an old journal out of the way, as journal.1.jsonl, journal.2.jsonl, ..."""
    old = journal_path(state)
    if not old.exists():
        return
    old.rename(free_name(old, ""))
    (state / BOARD_FILE).unlink(missing_ok=True)
