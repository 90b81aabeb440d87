"""The board as a service: everything `bgpi run` keeps open, opened and closed in one place.

`BoardService` is a context manager.  Entering it opens, in this order, the board (its
LEDs and switches, or the link to a co-processor), the recording, the journal (resuming
its session, or starting the one the settings describe), the engine and the page, and
journals the session's first events; `run` scans until stopped; leaving the `with`
block closes them all, the page first and the journal last, however it is left.

Every event the table emits is journaled before anything shows it: the journal is the
runner's gate, and through a full disk play pauses until the line is written
(`bgpi.shell.sinks.JournalGate`).  The readers of the table log are the runner's sinks,
registered here in order: the simulated checkers' file, the page, the console's words
or the JSON lines on `out`, and in a remote game the other board's log topic.  The
engine (`Computer`) and the other board (`RemotePlay.join`) are the table's opponents.

A new session asked for by the page sets the journal aside, as ``--new`` does, and
brings its own engine settings: another kind of engine is opened, the strengths (the
opponent's level, `hint_level`) are the new session's.  A new session chosen on the
board's buttons keeps the engine settings, so it needs nothing re-opened.  The page's
new session takes a spare journal opened ahead on a thread of its own, so the scan frame
only renames; at most `bgpi.shell.sessions.MAX_SET_ASIDE` set-aside journals are kept.

A page cannot start a session the board cannot play (a computer opponent without an
engine); a journal whose opponent finds no engine now (gnubg removed or broken by an
update) still resumes, black played by hand, said in one line, in systemd's status and
with the "no engine" look on the lights: nothing in a journal keeps the board from starting.

Nothing here knows the web or the wire: the page (`bgpi.web.page.BoardPage`) is handed
in as a `Page`, a sink that also looks at the table after every scan, and a remote game
as a `RemotePlay`.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TextIO

from bgpi.board.locations import BARS
from bgpi.board.profile import Profile
from bgpi.exc import FirmwareRefusedError, JournalError, RemoteError, ServiceError
from bgpi.hardware.board import BoardKind
from bgpi.hardware.bootconfig import boot_problems, pi_model, read_boot_config
from bgpi.hardware.frames import closed_switches
from bgpi.link.board import open_board
from bgpi.rules.position import Side
from bgpi.shell import sdnotify
from bgpi.shell.advisor import Advisor, open_advisor
from bgpi.shell.boardfile import BOARD_FILE, BoardFile, put_position, restore_board, save_board
from bgpi.shell.console import Console
from bgpi.shell.diskfull import RETRY_S, Patience, append_patiently, show_disk_full
from bgpi.shell.journal import SPARE_NAME, Journal, journal_path, promote_spare, sync_dir
from bgpi.shell.live import run_live
from bgpi.shell.opponents import Computer, Opponent
from bgpi.shell.recorder import Recorder
from bgpi.shell.recovery import JOURNAL_ALERT_S, Opened, open_state
from bgpi.shell.rolling import DiceSource
from bgpi.shell.runner import TableRunner
from bgpi.shell.script import BoardPosition
from bgpi.shell.sessions import next_set_aside, trim_set_aside
from bgpi.shell.sinks import JournalGate, JsonLines, Sink
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import ComputerUnavailable
from bgpi.table.tracker import Sensing


@dataclass(frozen=True)
class SessionSetup:
    """A new session: its config (checked) and, to practise one, the position it starts from."""

    config: Mapping[str, Any] = field(default_factory=dict)
    position: BoardPosition | None = None

    def table(self, sensing: Sensing) -> tuple[Table, list[ev.Event]]:
        """The new session's table and its first events."""
        if self.position is None:
            return Table.new(sensing, dict(self.config))
        position = self.position
        return Table.new(sensing, dict(self.config), position.position_id, position.turn, position.match_id)


class Joined(Opponent, DiceSource, Protocol):
    """The other board of a remote game, joined (`bgpi.remote.game.RemoteGame`): an
    opponent of the table that makes the dice with this board."""

    @property
    def log(self) -> Sink:
        """The table's events published for watchers (the game's log topic)."""
        ...

    def close(self) -> None:
        """Leave the other board (the broker hears this board is offline)."""
        ...


class RemotePlay(Protocol):
    """A remote game as the service sees it (`bgpi.remote.joining.RemoteSettings`)."""

    @property
    def game(self) -> str:
        """The game's ID, which both boards are given."""

    @property
    def side(self) -> Side:
        """The side played at this board."""

    def join(self, table: Table, state: Path, say: Callable[[str], None], patience: Patience) -> Joined:
        """Join the other board, with `table` as it stands (resumed or new; read, never
        fed), its journal written with `patience` (through a full disk, play pauses as for
        the table's); JournalError or RemoteError (the wire's journal, a broker setting) if it cannot be."""


@dataclass(frozen=True)
class ServiceSettings:
    """What the board service runs, every value checked (`bgpi run` builds it from its arguments)."""

    board: BoardKind
    """The board to open (`bgpi.link.board.open_board`): sim, pi or serial:DEVICE."""
    profile: Profile
    state: Path
    """The state directory: the journal, the simulated checkers, the page's token."""
    session: SessionSetup = field(default_factory=SessionSetup)
    """The session to start when there is none to resume (or with `new`)."""
    new: bool = False
    """Set the journal aside and start `session` even if there is one to resume."""
    seed: int | None = None
    """Seed of the simulated dice; None for the OS's random source."""
    record: Path | None = None
    """Where to record the switches and buttons as a board script; None for nowhere."""
    hands: bool = False
    """On the simulated board: take hands from standard input (`bgpi.shell.console`)."""
    words: bool = True
    """On the simulated board with hands: the table log in words rather than JSON."""
    remote: RemotePlay | None = None
    """A remote game's other board; None: both sides are played here."""


StartSession = Callable[[object, dict[str, Any]], None]
"""How the page starts a new session: called on the scan loop's thread with the runner
(the bridge's way; the service has its own) and the config; raises ValueError or OSError
with a message for the page."""


class Page(Protocol):
    """The board's page as the service sees it (`bgpi.web.page.BoardPage`)."""

    def open(self, history: tuple[ev.Event, ...], start_session: StartSession, say: Callable[[str], None]) -> str:
        """Serve the page, which begins its story with `history` (the events resumed);
        returns its address.  `say` hears, from any thread, what becomes of the page
        later.  Raises OSError if it cannot be served."""

    def hear(self, event: ev.Event) -> None:
        """A table-log event, once it is journaled (the page is a sink of the runner's)."""

    def after_scan(self, runner: TableRunner) -> None:
        """Called after every scan, on the scan loop's thread; returns at once."""

    @property
    def note(self) -> str | None:
        """What the page's address needs said (the port was busy), once `open` has served it."""

    def close(self) -> None:
        """Stop serving (nothing, if it never opened)."""


def _say_nothing(line: str) -> None:
    pass


class BoardService:
    """`bgpi run`'s board, journal, engine and page, as a context manager; see the module docstring.

    Opening raises `ServiceError` (one line, for the person at the board) for anything
    that keeps the board from starting; so does `run` for firmware this host cannot
    work with.  `say` hears the lines a person should read (the page's address, a
    journal's damage, the link coming and going); the table log goes to `out`.
    """

    def __init__(self, settings: ServiceSettings, stop: threading.Event, page: Page | None = None,
                 say: Callable[[str], None] = _say_nothing, stdin: TextIO | None = None,
                 out: TextIO | None = None) -> None:
        self.settings = settings
        self.stop = stop
        """Set to end `run` (by a signal, on any thread); also ends a wait for a full disk."""
        self._page = page
        self._say = say
        self._stdin = stdin if stdin is not None else sys.stdin
        self._out = out if out is not None else sys.stdout
        self._sensing = Sensing(settings.profile.geometry)
        self.runner: TableRunner | None = None
        self._record: TextIO | None = None
        self._journal: Journal | None = None
        self._gate: JournalGate | None = None
        self._advisor: Advisor | None = None
        self._computer = Computer()
        """The engine at the table: its advisor is the session's."""
        self._console: Console | None = None
        self._missing: list[str] = []
        """What this board plays on without, kept in systemd's status line while it runs."""
        self._spare: Journal | None = None
        """The next new session's journal, opened ahead on a thread of its own (`_make_ready`)."""
        self._readying: list[threading.Thread] = []
        self._remote: Joined | None = None

    @property
    def _running(self) -> TableRunner:
        """The board's runner, from the moment the service opened it."""
        if self.runner is None:
            raise ServiceError("the board service is not open")
        return self.runner

    @property
    def _journaling(self) -> Journal:
        """The open journal, from the moment the service opened it."""
        if self._journal is None:
            raise ServiceError("the board service has no journal open")
        return self._journal

    # -- opening and closing ----------------------------------------------------------

    def __enter__(self) -> BoardService:
        try:
            self._open()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _open(self) -> None:
        settings = self.settings
        self._warn_of_boot_config()
        table, opening = settings.session.table(self._sensing)
        self.runner = runner = self._open_board(table)  # for the new session; a resumed one takes its place
        self._record = _open_record(settings.record)
        opened = self._open_journal()
        if opened.table is not None:
            runner.replace_table(opened.table)
            opening = []
        self._advisor = self._computer.advise = self._advisor_for(runner.table, resumed=opened.table is not None)
        opening += opened.opening()
        if runner.board.hands is not None and settings.hands:
            self._console = Console(self._stdin, self._out, words=settings.words)
        self._put_checkers(opened)
        self._open_page(opened.history)
        self._listen()
        for event in opening:
            runner.tell(event)
        self._open_remote()
        runner.scan()
        if self._record is not None:
            closed = closed_switches(runner.switches.debouncer.stable, settings.profile.sensors)
            runner.recorder = Recorder(self._record, closed, runner.now)

    def close(self) -> None:
        """Close whatever is open: the page, the board (its LEDs go dark), the engine, the
        journal, the recording."""
        if self._page is not None:
            self._page.close()
        if self._remote is not None:
            self._remote.close()
        if self.runner is not None:
            self.runner.close()
        if self._advisor is not None:
            self._advisor.close()
        for thread in self._readying:
            thread.join()
        for journal in (self._spare, self._journal):
            if journal is not None:
                journal.close()
        if self._record is not None:
            self._record.close()
        for line in self._missing:
            sdnotify.withdraw(line)

    def _warn_of_boot_config(self) -> None:
        """On a Pi: what in its boot configuration keeps the board from working, said before opening it."""
        if self.settings.board.pi_pins and (boot := read_boot_config(model := pi_model())) is not None:
            for problem in boot_problems(boot, model, self.settings.profile):
                self._say(f"warning: {problem}")

    def _open_board(self, table: Table) -> TableRunner:
        settings = self.settings
        try:
            board = open_board(settings.profile, settings.board)
        except Exception as error:  # noqa: BLE001 (board libraries fail in their own ways: AttributeError, ImportError, ...)
            raise ServiceError(f"cannot open the {settings.board} board: {error}") from None
        # Only a simulated board's dice are seeded: a real one's come from the OS.
        seed = settings.seed if board.hands is not None else None
        return TableRunner(table, board, seed=seed, computer=self._computer, status=self._link_status)

    def _open_journal(self) -> Opened:
        state = self.settings.state
        try:
            if promote_spare(state, next_set_aside(state)):
                self._say(f"the last new session was not yet settled on the disk: resumed from {SPARE_NAME}")
            if self.settings.new:
                _set_aside(state)
            opened = open_state(state, self._sensing)
        except OSError as error:  # a JournalError too
            raise ServiceError(_state_problem(state, error)) from None
        self._journal = opened.journal
        self._make_ready(synced=True)
        for note in opened.notes:
            self._say(note)
        return opened

    def _advisor_for(self, table: Table, resumed: bool = False) -> Advisor:
        """The advisor `table`'s session asks for (`open_advisor`).  A new session whose
        computer opponent finds no engine is refused (ServiceError; the advisor in use
        stays open); a resumed one plays on without it (`_without_computer`): a journal
        the board cannot honour now (gnubg removed or broken by an update) must never keep
        the board from starting."""
        advisor = open_advisor(table.config, self._advisor)
        if (table.computers or table.computer_players) and (reason := advisor.engine.missing) is not None:
            if resumed:
                self._without_computer(table, reason)
                return advisor
            self._drop(advisor)
            raise ServiceError(f"the computer opponent needs an engine: {reason}")
        return advisor

    def _without_computer(self, table: Table, reason: str) -> None:
        """Resume `table` with both sides played by hand, said in one line (to the log and
        to systemd's status) and shown with the "no engine" look on the lights.  The
        journal keeps the opponent: once the engine is back, the next start has it play."""
        sides = [side.label for side in Side if side in table.computers]
        plays = "both play" if len(sides) == 2 else f"{sides[0]} plays" if sides else ""
        if table.computer_players:
            names = ", ".join(table.computer_players)
            plays = f"{names} {'are' if len(table.computer_players) > 1 else 'is'} played"
        line = f"the computer opponent has no engine ({reason}): {plays} by hand"
        self._say(line)
        sdnotify.standing(line)
        self._missing.append(line)
        table.handle(ComputerUnavailable())  # unjournaled, as the link's state is: it emits nothing

    def _drop(self, advisor: Advisor) -> None:
        """Close `advisor`'s engine, unless it is the one in use."""
        if self._advisor is None or advisor.engine is not self._advisor.engine:
            advisor.close()

    def _put_checkers(self, opened: Opened) -> None:
        """The simulated checkers as the last run left them (or as the journal did, if it
        was damaged); the damage shown on the lights."""
        runner = self._running
        hands = runner.board.hands
        if hands is not None and opened.damaged is None:
            restore_board(hands, self.settings.state, runner.table.position)
        elif hands is not None:
            put_position(hands, runner.table.position)
        if opened.damaged is not None:
            runner.alert(BARS, JOURNAL_ALERT_S)

    def _open_remote(self) -> None:
        """A remote game: the board joined to the other board (`RemotePlay.join`); a
        session in progress that is another remote game than the settings name, or a
        remote game without the settings of its broker, is refused."""
        remote, table = self.settings.remote, self._running.table
        wanted = frozenset() if remote is None else frozenset({remote.side.opponent})
        if table.remotes != wanted:
            plays = f"{next(iter(table.remotes)).label} is played at another board" if table.remotes \
                else "both sides are played here"
            raise ServiceError(f"the session in progress in {self.settings.state} is another game ({plays}): "
                               "run with its own --remote, --side and --broker, or with --new")
        if remote is None:
            return
        runner = self._running
        try:
            self._remote = joined = remote.join(runner.table, self.settings.state, self._say, self._patiently)
        except (JournalError, RemoteError) as error:  # the wire's journal, a broker setting
            raise ServiceError(f"cannot join the remote game {remote.game}: {error}") from None
        runner.sinks.append(joined.log)
        runner.join(joined, dice=joined)

    def _listen(self) -> None:
        """The runner's gate (the journal) and sinks, in order: the simulated checkers'
        file, the page, the console's words or the JSON lines."""
        runner, settings = self._running, self.settings
        runner.gate = self._gate = JournalGate(self._journaling, self.stop, self._pause, self._go_on)
        if runner.board.hands is not None:
            runner.sinks.append(BoardFile(runner.board.hands, settings.state))
        if self._page is not None:
            runner.sinks.append(self._page)
        runner.sinks.append(self._console if self._console is not None and settings.words else JsonLines(self._out))

    def _open_page(self, history: tuple[ev.Event, ...]) -> None:
        board = "the simulated board" if self._running.board.hands is not None else "the board"
        if self._page is None:
            self._say(f"{board} is running")
            return
        try:
            url = self._page.open(history, self._page_starts_session, self._say)
        except OSError as error:  # the board comes first: it runs without its page
            self._page = None
            self._say(f"{board} is running without its page: {error.strerror or error} (--port N for another port)")
            return
        note = f" ({self._page.note})" if self._page.note else ""
        self._say(f"{board} is running; its page: {url}{note}")

    # -- running ----------------------------------------------------------------------

    def run(self) -> None:
        """Scan in real time until `stop` is set (or the console quits)."""
        runner = self._running
        after_scan = self._page.after_scan if self._page is not None else None
        try:
            run_live(runner, self.stop, self._console, after_scan=after_scan, sleep=runner.board.wait)
        except FirmwareRefusedError as error:
            raise ServiceError(str(error)) from None
        if runner.board.hands is not None:
            save_board(runner.board.hands, self.settings.state)

    def start_session(self, config: dict[str, Any]) -> None:
        """Start a new session with `config` (checked), on the scan loop's thread: the
        journal set aside as ``--new`` does, the engine the session asks for.

        ServiceError if its computer opponent finds no engine, or in a remote game (the
        session in play goes on, untouched); OSError if the journal cannot be set aside."""
        runner = self._running
        if runner.table.remotes:
            raise ServiceError("a remote game's session is agreed when the boards meet: start a new one on "
                               "both boards (bgpi run --new)")
        table, opening = Table.new(self._sensing, config)
        advisor = self._advisor_for(table)
        try:
            self._take_journal()
        except BaseException:
            self._drop(advisor)
            raise
        old, self._advisor = self._advisor, advisor
        self._computer.advise = advisor
        if old is not None and old.engine is not advisor.engine:
            old.close()
        runner.replace_table(table)
        if runner.board.hands is not None:
            put_position(runner.board.hands, table.position)
        for event in opening:
            runner.tell(event)

    def _take_journal(self) -> None:
        """Set the journal aside and open the new session's: on the scan frame only two
        renames when the spare is ready; its directory sync, the trimming of old journals
        and the next spare follow on a thread of their own (`_make_ready`)."""
        state, journal = self.settings.state, self._journaling
        spare, self._spare = self._spare, None
        if spare is None:  # not ready yet (sessions asked for in quick succession): the slow way
            journal.close()
            _set_aside(state)
            self._journal = Journal.open(state)
        else:
            try:
                spare.take_over(next_set_aside(state))
            except BaseException:
                spare.close()
                raise
            (state / BOARD_FILE).unlink(missing_ok=True)
            journal.close()
            self._journal = spare
        if self._gate is not None:
            self._gate.journal = self._journaling
        self._make_ready(synced=spare is None)

    def _make_ready(self, synced: bool) -> None:
        """On a thread of its own: sync the state directory (unless `synced`), remove the
        oldest set-aside journals beyond `MAX_SET_ASIDE`, open the next spare journal.
        Whatever fails leaves the next new session the slow way, nothing worse."""
        state = self.settings.state

        def ready() -> None:
            with contextlib.suppress(OSError):  # a JournalError too: a spare another thread holds
                if not synced:
                    sync_dir(state)
                trim_set_aside(state)
                if self._spare is None:
                    self._spare = Journal.open(state, SPARE_NAME)

        self._readying = [thread for thread in self._readying if thread.is_alive()]
        thread = threading.Thread(target=ready, name="bgpi-journal", daemon=True)
        thread.start()
        self._readying.append(thread)

    def _page_starts_session(self, runner: object, config: dict[str, Any]) -> None:
        """The page's new session (the runner it hands over is this service's)."""
        self.start_session(config)

    def _patiently(self, write: Callable[[], None]) -> bool:
        """A journal write, paused through a full disk (the wire's journal's; the table's
        goes through the gate, the same way)."""
        return append_patiently(write, self.stop, self._pause, self._go_on)

    def _pause(self, error: JournalError) -> None:
        self._say(f"{error}: play paused, the write is tried again every {RETRY_S:g} s")
        show_disk_full(self._running.board.leds, self.settings.profile.leds)

    def _go_on(self) -> None:
        self._say("the journal is written again: play goes on")
        self._running.show_lights(redraw=True)

    def _link_status(self, line: str) -> None:
        """The co-processor's link came or went: say so (play pauses while it is away)."""
        if "not connected" in line:
            line += "; play paused, reconnecting"
        self._say(line)
        sdnotify.status(line)


def _open_record(path: Path | None) -> TextIO | None:
    if path is None:
        return None
    try:
        return path.open("w", encoding="utf-8")
    except OSError as error:
        raise ServiceError(f"--record: cannot write {path}: {error.strerror or error}") from None


def _state_problem(state: Path, error: OSError) -> str:
    if isinstance(error, JournalError):
        return str(error)
    reason = "permission denied" if isinstance(error, PermissionError) else (error.strerror or str(error))
    return f"cannot set the journal in {state} aside: {reason}"


def _set_aside(state: Path) -> None:
    """Move an old journal out of the way, as journal.1.jsonl, journal.2.jsonl, ... (the
    oldest beyond `MAX_SET_ASIDE` are removed by `BoardService._make_ready`)."""
    old = journal_path(state)
    if not old.exists():
        return
    old.rename(next_set_aside(state))
    (state / BOARD_FILE).unlink(missing_ok=True)
