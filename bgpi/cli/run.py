"""`bgpi run`: the board, live.

On a Raspberry Pi it runs the real board; elsewhere, or with `--board sim`, the
simulated one, and serves the board's page at http://127.0.0.1:8700 (`--port`,
`--listen` with an access token, `--no-page`; with `--settings`, as its [page] table
says).  The journal in the state directory records every event; a run that finds a
journal resumes that session where it stopped (after a power cut too), and `--new`
starts a fresh one.  On the simulated board the keyboard (or a pipe) moves the
checkers; without either (as under systemd) it runs until stopped.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bgpi.board.locations import BARS
from bgpi.cli.config import SETTINGS_HELP, check_config, parse_config
from bgpi.cli.settings import RunSettings, load_settings
from bgpi.engine import DEFAULT_LEVEL, KINDS, LEVELS
from bgpi.exc import FirmwareRefusedError, JournalError, ProfileError, UsageError
from bgpi.hardware.board import default_board_kind
from bgpi.hardware.bootconfig import boot_problems, pi_model, read_boot_config
from bgpi.hardware.frames import closed_switches
from bgpi.hardware.profile import load_profile
from bgpi.link.board import PTY, LinkBoard, board_kind
from bgpi.rules.ids import decode_match_id
from bgpi.rules.position import Side
from bgpi.shell import sdnotify
from bgpi.shell.advisor import open_advisor
from bgpi.shell.console import Console, stdin_is_terminal
from bgpi.shell.diskfull import RETRY_S, append_patiently, show_disk_full
from bgpi.shell.journal import Journal, default_state_dir, free_name, journal_path
from bgpi.shell.live import run_live
from bgpi.shell.recorder import Recorder
from bgpi.shell.recovery import JOURNAL_ALERT_S, open_state
from bgpi.shell.script import BoardPosition
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
        epilog=SETTINGS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--settings", metavar="FILE", type=Path,
                        help="the service's settings file (board, profile, brightness, session "
                             "rules; see systemd/bgpi.toml); options given here win over it")
    parser.add_argument("--board", type=board_kind, default=None, metavar="BOARD",
                        help="pi: the real board; sim: the simulated one; serial:DEVICE: a board "
                             "behind a Pico co-processor (firmware/README.md), e.g. "
                             "serial:/dev/ttyACM0 (default: pi on a Raspberry Pi, else sim)")
    parser.add_argument("--profile", metavar="FILE", help="board profile (default: the packaged one)")
    parser.add_argument("--state", metavar="DIR", type=Path,
                        help="state directory with the journal (default: $BGPI_STATE or ~/.local/state/bgpi)")
    parser.add_argument("--new", action="store_true",
                        help="start a new session; the old journal is kept beside the new one")
    parser.add_argument("--match", type=int, metavar="N",
                        help="a new session: a match to N points (default: money play)")
    parser.add_argument("--config", metavar="JSON",
                        help='a new session\'s settings (below), e.g. \'{"beavers": true, "lenient": true}\'')
    parser.add_argument("--position", metavar="ID[:MATCHID]",
                        help="a new session practising a gnubg position; a Match ID also gives "
                             "the player on roll, cube, score, match length and Crawford game")
    parser.add_argument("--turn", choices=("white", "black"), default=None,
                        help="who is on roll in --position (default: the Match ID's, else white)")
    parser.add_argument("--record", metavar="FILE", type=Path,
                        help="record the switches and buttons as a board script (slot, press, wait lines)")
    parser.add_argument("--json", action="store_true",
                        help="on the simulator at a terminal: print the table log as JSON, not in words")
    parser.add_argument("--seed", type=int, help="seed of the simulated dice (default: the OS's random source)")
    parser.add_argument("--opponent", metavar="gnubg[:LEVEL]",
                        help="a new session against the computer, which plays black: GNU Backgammon at "
                             f"LEVEL (0, 1, 2 plies, or {', '.join(LEVELS)}; default {DEFAULT_LEVEL})")
    parser.add_argument("--engine", choices=KINDS,
                        help="a new session's GNU Backgammon for hints and the opponent (default: auto)")
    add_page_options(parser)
    parser.set_defaults(handler=_run)


@dataclass(frozen=True)
class _NewSession:
    """What the arguments ask of a new session; checked before anything is touched."""

    config: dict
    position: BoardPosition | None
    asked: bool
    """Whether the command line asks for anything of a new session."""


def _run(args: argparse.Namespace) -> int:
    try:
        return _run_board(args)
    except UsageError as error:
        # Under systemd this is what `systemctl status bgpi` shows (exit 2: no restart).
        sdnotify.status(f"stopped: {error}")
        raise


def _run_board(args: argparse.Namespace) -> int:
    # From the start, so that a stop asked for while the board opens still ends cleanly.
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    # Every argument is checked, and the board opened, before the state directory is touched.
    try:
        settings = load_settings(args.settings) if args.settings else RunSettings()
    except ValueError as error:
        raise UsageError(str(error)) from None
    kind = args.board or settings.board or default_board_kind()
    if kind == PTY:
        raise UsageError("--board pty (the simulated Pico) is for `bgpi replay --link pty` and "
                         "`bgpi diag`; `bgpi run` takes sim, pi or serial:DEVICE")
    state = args.state or default_state_dir()
    try:
        profile = load_profile(args.profile or settings.profile)
    except ProfileError as error:
        raise UsageError(str(error)) from None
    if settings.brightness is not None:
        profile = dataclasses.replace(
            profile, leds=dataclasses.replace(profile.leds, brightness=settings.brightness))
    new = _new_session(args, settings)
    if state.exists() and not state.is_dir():
        raise UsageError(f"the state directory {state} is not a directory")
    journal_exists = journal_path(state).exists()
    if journal_exists and not args.new and (new.asked or args.turn or args.config is not None):
        raise UsageError(f"a session is in progress in {state}: run without --match, --config, "
                         "--position and --turn to resume it, or add --new to start a new one "
                         "(the old journal is kept)")
    if args.new and journal_exists and not os.access(state, os.W_OK):
        raise UsageError(f"cannot set the journal in {state} aside: permission denied")
    sensing = Sensing(profile.geometry)
    table, opening = _new_table(sensing, new)

    terminal = kind == "sim" and stdin_is_terminal()
    words = kind == "sim" and not args.json
    out = sys.stdout
    journal = console = bridge = page = advisor = None

    def pause(error: JournalError) -> None:
        print(f"bgpi run: {error}: play paused, the write is tried again every {RETRY_S:g} s",
              file=sys.stderr)
        show_disk_full(runner.board.leds, profile.leds)

    def go_on() -> None:
        print("bgpi run: the journal is written again: play goes on", file=sys.stderr)
        runner.show_lights(redraw=True)

    def emit(event: dict) -> None:
        # On the disk before it is shown, however long the disk takes.
        if not append_patiently(journal, event, stop, pause, go_on):
            return
        if kind == "sim":
            with contextlib.suppress(OSError):  # the next event saves them again
                runner.save_board(state)  # the simulated checkers as they stand with this event
        bridge.hear(event)
        if console is not None and words:
            console.say(event)
        else:
            out.write(json.dumps(event) + "\n")
            out.flush()

    if kind == "pi" and (boot := read_boot_config(model := pi_model())) is not None:
        for problem in boot_problems(boot, model, profile):
            print(f"bgpi run: warning: {problem}", file=sys.stderr)
    try:
        # Opened for the new session's table; a resumed one takes its place below.
        runner = (SimulatedTable(profile, table, emit, args.seed) if kind == "sim"
                  else TableRunner(profile, table, emit, kind, status=_link_status))
    except Exception as error:  # noqa: BLE001 (board libraries fail in their own ways: AttributeError, ImportError, ...)
        raise UsageError(f"cannot open the {kind} board: {error}") from None
    try:
        record = _open_record(args.record)
        try:
            if args.new:
                _set_aside(state)
            opened = open_state(state, sensing)
        except (OSError, JournalError) as error:
            raise UsageError(_state_problem(state, error)) from None
        journal = opened.journal
        bridge = Bridge(Story.of(opened.history))
        for note in opened.notes:
            print(f"bgpi run: {note}", file=sys.stderr)
        if opened.table is not None:
            runner.replace_table(opened.table)
            opening = []
        advisor = runner.advise = open_advisor(runner.table.config)
        if runner.table.computer is not None and not advisor.engine.available:
            raise UsageError(f"the computer opponent needs an engine: {advisor.engine.backend.reason}")
        opening += opened.opening()
        console = Console(sys.stdin, out, words=words) if kind == "sim" and _interactive(terminal) else None

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
        if kind == "sim" and opened.damaged is None:
            runner.restore_board(state)
        elif kind == "sim":
            runner.set_position(runner.table.position)  # the checkers as the journal left them
        if opened.damaged is not None:
            runner.alert(BARS, JOURNAL_ALERT_S)
        board = "the simulated board" if kind == "sim" else "the board"
        try:
            page = open_page(args, settings.page, bridge, profile.geometry, state)
            print(f"bgpi run: {board} is running" + (f"; its page: {page.url}" if page else ""),
                  file=sys.stderr, flush=True)
        except ValueError as error:
            raise UsageError(f"cannot serve the page: {error}") from None
        except OSError as error:  # the board comes first: it runs without its page
            print(f"bgpi run: {board} is running without its page: {error.strerror or error} "
                  "(--port N for another port)", file=sys.stderr, flush=True)
        for event in opening:
            emit(event)
        runner.scan()
        if record is not None:
            runner.recorder = Recorder(record, closed_switches(runner.debouncer.stable, profile.sensors), runner.now)
        try:
            # Behind a co-processor the loop sleeps on the link, woken by what it sends.
            sleep = runner.board.link.wait if isinstance(runner.board, LinkBoard) else time.sleep
            run_live(runner, stop, console, after_scan=bridge.after_scan, sleep=sleep)
        except FirmwareRefusedError as error:
            raise UsageError(str(error)) from None
        if kind == "sim":
            runner.save_board(state)
    finally:
        if page is not None:
            page.stop()
        runner.close()
        if advisor is not None:
            advisor.close()
        if journal is not None:
            journal.close()
    return 0


def _link_status(line: str) -> None:
    """The co-processor's link came or went: say so (play pauses while it is away)."""
    if "not connected" in line:
        line += "; play paused, reconnecting"
    print(f"bgpi run: {line}", file=sys.stderr, flush=True)
    sdnotify.status(line)


def _interactive(terminal: bool) -> bool:
    """Hands come from stdin at a terminal, and from a pipe (`printf 'p wt\\nq\\n' | bgpi run`)."""
    return terminal or (sys.stdin is not None and not sys.stdin.isatty() and not _stdin_is_null())


def _stdin_is_null() -> bool:
    """Under systemd stdin is /dev/null: no hands, the board runs until stopped."""
    try:
        return os.path.samefile("/dev/null", f"/proc/self/fd/{sys.stdin.fileno()}")
    except (OSError, ValueError, AttributeError):
        return True


def _new_session(args: argparse.Namespace, settings: RunSettings) -> _NewSession:
    """The new session the arguments (over the settings file) describe; UsageError for any
    fault in them.  `asked` is only what the command line asks."""
    given = parse_config(args.config, args.match)
    given |= {key: getattr(args, key) for key in ("opponent", "engine") if getattr(args, key) is not None}
    if args.position is None:
        if args.turn is not None:
            raise UsageError("--turn says who is on roll in --position; give --position too")
        return _NewSession(check_config(settings.config(given)), None, bool(given))
    config = given
    position_text, _, match_text = args.position.partition(":")
    turn = Side.parse(args.turn) if args.turn else None
    key_turn = None
    if match_text:
        try:
            key_turn = decode_match_id(match_text).dice_owner
        except ValueError as error:
            raise UsageError(f"--position: {error}") from None
        if turn is not None and turn is not key_turn:
            raise UsageError(f"--turn {turn.label} disagrees with the Match ID, which has "
                             f"{key_turn.label} on roll")
        if "match" in config:
            raise UsageError("--position with a Match ID takes the match length from it: "
                             "leave out --match")
    try:
        position = BoardPosition(position_text, turn or key_turn or Side.WHITE, match_text or None)
    except ValueError as error:
        raise UsageError(f"--position: {error}") from None
    return _NewSession(check_config(settings.config(config)), position, True)


def _new_table(sensing: Sensing, new: _NewSession) -> tuple[Table, list[dict]]:
    position = new.position
    if position is None:
        return Table.new(sensing, new.config)
    return Table.new(sensing, new.config, position.position_id, position.turn, position.match_id)


def _open_record(path: Path | None) -> TextIO | None:
    if path is None:
        return None
    try:
        return path.open("w", encoding="utf-8")
    except OSError as error:
        raise UsageError(f"--record: cannot write {path}: {error.strerror or error}") from None


def _state_problem(state: Path, error: Exception) -> str:
    if isinstance(error, JournalError):
        return str(error)
    reason = "permission denied" if isinstance(error, PermissionError) else (error.strerror or str(error))
    return f"cannot set the journal in {state} aside: {reason}"


def _set_aside(state: Path) -> None:
    """Move an old journal out of the way, as journal.1.jsonl, journal.2.jsonl, ..."""
    old = journal_path(state)
    if not old.exists():
        return
    old.rename(free_name(old, ""))
    (state / BOARD_FILE).unlink(missing_ok=True)
