"""Two simulated boards playing one remote game through a real broker, with hands on each.

A `Board` is what `bgpi run --board sim --remote ...` keeps open, without the page and
the live loop: a `TableRunner` on the simulated board with its own state directory (the
table's journal and the wire's), joined to the other board by a `RemoteGame`.  Its hands
(`play`) write the board script they play as they go, one line at a time carried out
exactly as `bgpi replay` carries out a line (`bgpi.shell.replay.perform`): presses and
checker moves for this board's side, the other side's lit play carried out as the lights
show it, and an ``{"await": "remote"}`` line wherever the board waits for the other one.
The hands accept every resignation offered them (`resign` offers one), take doubles, and
double now and then where `doubles` says so.  The dice secrets and the hands' choices
are seeded: the same test plays the same game.

The hands decide each line from the table and the checkers as they stand, never from
what they meant to do before: a board can lose its power (`Mains`) at any write to its
state directory, and its hands go on at the board restarted from that directory
(`crash`, then a new `Board` on the same folder), as a player goes on at a real one.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bgpi.board.locations import LOCATIONS, Location, bar, checkers_on, location_of
from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.remote.game import RemoteGame
from bgpi.remote.mqtt import Broker
from bgpi.remote.pairing import Pairing, new_code, pair
from bgpi.rules.play import Play
from bgpi.rules.playtree import PartialPlay
from bgpi.rules.position import Position, Side
from bgpi.rules.reference import legal_plays
from bgpi.shell.boardfile import BoardFile, position_checkers, restore_board, save_board
from bgpi.shell.diskfull import Patience, at_once
from bgpi.shell.hands import TableHands
from bgpi.shell.journal import Journal, read_journal, read_records
from bgpi.shell.recovery import open_state
from bgpi.shell.replay import perform
from bgpi.shell.runner import TableRunner
from bgpi.shell.script import LINE_SECONDS, parse_script
from bgpi.shell.sinks import Journaled
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.phases import Phase
from bgpi.table.tracker import Sensing
from bgpi.table.turn import steps_between
from tests.remote.conftest import DOCS_USERS, GAME, Mosquitto

PROFILE = load_profile()
SECRET = bytes(range(16))
"""The pairing code's secret both boards of the tests share."""
CODE = new_code(SECRET)


def pairing(game: str = GAME) -> Pairing:
    """The two boards' pairing in game `game`, as a tampered board would have it too."""
    return Pairing(game, SECRET)
WAIT_S = 30.0  # only ever reached when something is broken
MAX_LINES = 20_000  # a bound, so that a board stuck in a phase fails the test


class PowerCut(BaseException):  # noqa: N818 (not an error: the power going off)
    """The power of a board goes off: raised from inside a write to its state directory,
    it ends whatever the board was doing there, as ``kill -9`` does.  A BaseException, so
    that nothing on the way catches it as an error of its own."""


class Mains:
    """The power of one board, which a test cuts at a chosen write to its journals (the
    table's, the wire's): `cut_when(moment, before)` arms it for the first write for which
    `moment()` holds (`cut_at`: the `writes`-th write from now), cut just before it
    (nothing of it on the disk) or just after it (on the disk, nothing done with it).
    `writes` counts every write so far; `cuts` the cuts made."""

    def __init__(self) -> None:
        self.writes = 0
        self.cuts = 0
        self._moment: Callable[[], bool] | None = None
        self._before = True

    def cut_at(self, writes: int, before: bool) -> None:
        at = self.writes + writes
        self.cut_when(lambda: self.writes >= at, before)

    def cut_when(self, moment: Callable[[], bool], before: bool) -> None:
        self._moment, self._before = moment, before

    def disarm(self) -> None:
        self._moment = None

    def wire(self, journal: Journal) -> None:
        """Count `journal`'s writes, and cut the power at the armed one."""
        write = journal.append_record

        def counted(record: dict[str, Any]) -> None:
            self.writes += 1
            cut = self._moment is not None and self._moment()
            if cut and self._before:
                self._cut()
            write(record)
            if cut:
                self._cut()

        journal.append_record = counted  # type: ignore[method-assign]

    def _cut(self) -> None:
        self._moment = None
        self.cuts += 1
        raise PowerCut


class Board:
    """One board of the game: `side` played here, the other side at the other board.

    `doubles`: how often its player doubles where the cube allows, and `drops`: how often
    they drop a double (else they take); `mains`: the power, which a test may cut;
    `patience`: how the wire's journal waits for a full disk (`RemoteGame`'s)."""

    def __init__(self, folder: Path, side: Side, broker: Broker, config: dict[str, Any], seed: int,
                 game: str = GAME, doubles: float = 0.0, drops: float = 0.0, mains: Mains | None = None,
                 patience: Patience = at_once) -> None:
        self.side, self.folder, self.broker, self.config = side, folder, broker, config
        self.seed, self.game = seed, game
        self.doubles, self.drops, self.mains = doubles, drops, mains
        folder.mkdir(parents=True, exist_ok=True)
        sensing = Sensing(PROFILE.geometry)
        opened = open_state(folder, sensing)
        self.journal: Journal = opened.journal
        self.said: list[str] = []
        self.lines: list[dict[str, Any]] = []
        self.closed = False
        self._moving: tuple[Location, Location, int, int] | None = None  # a checker in the hand, from and to
        resumed = opened.table is not None
        table, opening = (opened.table, []) if resumed else Table.new(sensing, config | {"remote": side.opponent.label})
        # The journal before anything shows an event, and the checkers with each, as the service does.
        self.sim = TableRunner(table, open_sim_board(PROFILE), seed=0, gate=Journaled(self.journal))
        self.hands = TableHands(self.sim)
        self.sim.sinks.append(BoardFile(self.hands.board, folder))
        if resumed:
            restore_board(self.hands.board, folder, table.position)
        else:
            self.hands.set_position(table.position)
        for event in opening + opened.opening():
            self.sim.tell(event)
        restarts = len(read_records(folder, "remote.jsonl").events)
        dice_rng = random.Random(f"{seed}-dice-{side.label}-{restarts}")
        self.rng = random.Random(f"{seed}-hands-{side.label}-{restarts}")
        self.secrets: list[bytes] = []  # the secrets drawn, in order

        def secret() -> bytes:
            self.secrets.append(dice_rng.randbytes(32))
            return self.secrets[-1]

        paired, _ = pair(folder, game, CODE)  # kept in the state directory, as `bgpi run` does
        self.remote = RemoteGame(table, folder, broker, paired, side, say=self.said.append, secret=secret,
                                 patience=patience)
        if mains is not None:
            mains.wire(self.journal)
            mains.wire(self.remote.outbox._journal)
        self.remote.start()
        self.sim.sinks.append(self.remote.log)
        self.sim.join(self.remote, dice=self.remote)
        self.sim.advance(LINE_SECONDS)

    @classmethod
    def restarted(cls, board: Board) -> Board:
        """The board that `board`, its power cut (`crash`), is when the power comes back."""
        return cls(board.folder, board.side, board.broker, board.config, board.seed, board.game, board.doubles,
                   board.drops, board.mains)

    @property
    def table(self) -> Table:
        return self.sim.table

    def crash(self) -> None:
        """Stop as a board killed does: no ``offline``, no goodbye; the journals as they stand.
        The checkers stay where the hands left them (a checker in the hand is put down
        where it was going), as a real board's do: the simulated board's are saved."""
        if self._moving is not None:
            source, destination, had, has = self._moving
            board = self.hands.board
            if board.checkers(source) == had - 1 and board.checkers(destination) == has:
                board.place(destination)
        save_board(self.hands.board, self.folder)
        paho = self.remote.transport.client._paho
        paho.loop_stop()  # paho's thread ends; the broker sends the last will later
        paho.socket().close()
        self.remote.outbox.close()
        self.sim.close()
        self.journal.close()
        self.closed = True

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.remote.close()
        self.sim.close()
        self.journal.close()

    def describe(self) -> str:
        """Where this board stands, for a failing test's message."""
        table, peer = self.table, self.remote.peer
        prompt = table.prompt()
        return (f"phase {table.phase}, turn {table.turn}, asks {prompt.asks if prompt else None}, link {table.link}, "
                f"wants_roll {table.wants_roll}, peer sent {peer.sent} seen {peer.seen} roll {peer.roll}; "
                f"said {self.said[-5:]}; last events "
                f"{[event.kind for event in read_journal(self.folder).events[-6:]]}; lines {self.lines[-4:]}")

    def plays(self) -> int:
        return sum(isinstance(event, ev.Play) for event in read_journal(self.folder).events)

    def game_events(self) -> list[ev.Event]:
        return [event for event in read_journal(self.folder).events if ev.is_game(event)]

    # -- the hands -----------------------------------------------------------------------------

    def do(self, line: dict[str, Any]) -> None:
        """One board-script line, carried out as `bgpi replay` does."""
        self.lines.append(line)
        (action,) = parse_script(json.dumps(line)).lines
        if "move" in line:
            source, destination = action.source, action.destination  # type: ignore[attr-defined]
            board = self.hands.board
            self._moving = (source, destination, board.checkers(source), board.checkers(destination))
        perform(self.hands, action, lambda event: None, self.remote)
        self._moving = None

    def play(self, until: Phase = Phase.MATCH_OVER, plays: int | None = None) -> None:
        """Play on until the table is in phase `until` (or, with `plays`, on roll after that many plays)."""
        for _ in range(MAX_LINES):
            table = self.table
            if table.phase is until or (plays is not None and table.phase is Phase.ROLL and table.wants_roll is None
                                        and self.plays() >= plays):
                return
            self.step()
        raise AssertionError(f"{self.side.label}'s board does not get to {until}: {table.phase}")

    def step(self) -> None:
        """The next line of the hands, from the table and the checkers as they stand."""
        table, me = self.table, self.side
        phase, turn = table.phase, table.turn
        prompt = table.prompt()
        asks = prompt.asks if prompt is not None else None
        if phase is Phase.SETUP:
            self.set_up()
        elif asks == "confirm_step":
            self.confirm()
        elif table.wants_roll is not None or phase is Phase.OPENING:
            self.do({"await": "remote"})  # the dice: both boards' secrets
        elif phase is Phase.ROLL and turn is me:
            game = table.state.current_game()
            double = game.may_double(me) and self.rng.random() < self.doubles
            self.do({"press": f"{me.label}.{'cube' if double else 'turn'}"})
        elif phase is Phase.DOUBLED and table.state.taker() is me:
            drop = table.state.drop_asked is not None or self.rng.random() < self.drops
            self.do({"press": f"{me.label}.{'cube' if drop else 'turn'}"})  # a drop is pressed twice
        elif phase is Phase.MOVE and turn is me:
            self.own_play()
        elif phase is Phase.CHOOSE and turn is me:
            self.choose()
        elif phase is Phase.MOVE and isinstance(table.hint, ev.RemotePlay):
            self.follow()
        elif phase is Phase.RESIGNED and table.state.resignation is not None \
                and table.state.resignation.player is not me:
            self.do({"press": f"{me.label}.turn"})  # accepted: the game ends
        else:
            self.do({"await": "remote"})  # the other board decides

    def choice(self, plays: list[Play]) -> Play:
        """A play of the racing kind (the fewest pips left, a hit now and then): short games."""
        if self.rng.random() < 0.2:
            return self.rng.choice(plays)
        return min(plays, key=lambda play: (play.position.pips(play.side), self.rng.random()))

    def own_play(self) -> None:
        """This side's play: from where the checkers stand (the steps made before a power
        cut, say, which the switches may not tell apart), the steps of a play that can
        still be made, then *turn*."""
        table, me = self.table, self.side
        tree, node = table.tree, table.node
        assert tree is not None and node is not None
        if self.hit_pending():
            return
        if not self.shows(node):
            node = min((shown for shown in tree.nodes() if self.shows(shown)), key=lambda shown: len(shown.dice_left),
                       default=node)
        plays = legal_plays(table.position, me, table.dice)
        while plays:
            play = self.choice(plays)
            goal = next((found for found in tree.find(play.position) if tree.is_complete(found)), None)
            steps = steps_between(tree, node, goal) if goal is not None else None
            if steps is not None:
                break
            plays.remove(play)
        else:
            raise AssertionError(f"no play of {table.dice} goes on from what the board shows")
        for step in steps:
            destination = location_of(me, step.destination)
            self.do({"move": [location_of(me, step.source), destination]})
            if step.hit:
                self.do({"move": [destination, bar(me.opponent)]})
        if self.table.phase is Phase.MOVE:
            self.do({"press": f"{me.label}.turn"})

    def choose(self) -> None:
        """The switches cannot tell the plays apart: *cube* until the one the checkers
        stand for shows, then *turn*."""
        table, me = self.table, self.side
        for _ in range(len(table.candidates)):
            if self.shows(table.candidates[table.choice]):
                break
            self.do({"press": f"{me.label}.cube"})
        self.do({"press": f"{me.label}.turn"})

    def shows(self, node: PartialPlay) -> bool:
        """Whether the checkers stand as `node` has them."""
        return position_checkers(node.position) == {location: self.hands.board.checkers(location)
                                                    for location in LOCATIONS}

    def follow(self) -> None:
        """The other side's lit play, one checker as the lights show it: the hit blot to
        the bar, or the checker from the blinking point to the steady one."""
        if self.hit_pending():
            return
        lighting = self.table.lighting()
        lit = [location for location, role in lighting.roles.items() if role == "hint"]
        if not lighting.hint_from or len(lit) != 2:
            # Nothing lit to do yet: the board commits, asks for a press, or waits for the other.
            self.do({"wait": LINE_SECONDS})
            time.sleep(self.sim.period)
            return
        (source,) = lighting.hint_from
        (destination,) = [location for location in lit if location != source]
        self.do({"move": [source, destination]})

    def confirm(self) -> None:
        """A lit step no switch sees (the last ``unseen_step``, as the lights show it): the
        checker moved, unless it was before a power cut (the checkers say so), then this
        side's *turn*."""
        if self.hit_pending():
            return
        node = self.table.node
        assert node is not None
        step = next(event for event in reversed(read_journal(self.folder).events) if isinstance(event, ev.UnseenStep))
        if self.hands.board.checkers(step.from_) >= checkers_on(node.position, step.from_):
            self.do({"move": [step.from_, step.to]})
        self.do({"press": f"{self.side.label}.turn"})

    def hit_pending(self) -> bool:
        """A blot hit this turn still on its point (the lights say so): to the bar with it."""
        hits = [location for location, role in self.table.lighting().roles.items() if role == "hit"]
        turn = self.table.turn
        if not hits or turn is None:
            return False
        self.do({"move": [hits[0], bar(turn.opponent)]})
        return True

    def resign(self) -> None:
        """Offer to resign a single game: *cube* held, then *turn* (the other board answers)."""
        self.do({"hold": f"{self.side.label}.cube"})
        self.do({"press": f"{self.side.label}.turn"})

    def set_up(self) -> None:
        """The checkers back for a new game, then this side's turn button: the opening roll."""
        self.put(Position.start())
        self.do({"press": f"{self.side.label}.turn"})

    def put(self, position: Position) -> None:
        """Each checker too many moved to a place one is missing (`position`'s checkers)."""
        wanted = position_checkers(position)
        board = {location: self.hands.board.checkers(location) for location in wanted}
        extra = [loc for loc in wanted for _ in range(board[loc] - wanted[loc])]
        missing = [loc for loc in wanted for _ in range(wanted[loc] - board[loc])]
        for source, destination in zip(extra, missing, strict=True):
            self.do({"move": [source, destination]})


def scan_until(boards: tuple[Board, ...], done: Callable[[Board], bool], what: str) -> None:
    """Scan every board in turn, with the clock, until `done` holds for each (the broker's
    news, the other board's hello, come in on the scans)."""
    give_up = time.monotonic() + WAIT_S
    while not all(done(board) for board in boards):
        if time.monotonic() > give_up:
            raise AssertionError(f"{what} did not come: " + "; ".join(board.describe() for board in boards))
        for board in boards:
            board.sim.advance(board.sim.period)
        time.sleep(boards[0].sim.period)


def login(broker: Mosquitto, user: str | None, folder: Path) -> Broker:
    """`broker`, logged in as `user` (one of DOCS_USERS: its password in a file in `folder`), or anonymous."""
    if user is None:
        return Broker(broker.host, broker.port)
    folder.mkdir(parents=True, exist_ok=True)
    password = folder / f"{user}.password"
    password.write_text(DOCS_USERS[user] + "\n")
    return Broker(broker.host, broker.port, user, password)


def boards(folder: Path, broker: Mosquitto, config: dict, seed: int = 1, game: str = GAME,
           users: tuple[str, str] | None = None, **hands: Any) -> tuple[Board, Board]:
    """The two boards of game `game`, white's and black's, in `folder`'s ``white`` and
    ``black`` (logged in as `users`, white's and black's, where the broker asks; `hands`:
    `Board`'s keywords)."""
    white_user, black_user = users or (None, None)
    return (Board(folder / "white", Side.WHITE, login(broker, white_user, folder), config, seed, game, **hands),
            Board(folder / "black", Side.BLACK, login(broker, black_user, folder), config, seed, game, **hands))


def play_both(*boards: Board, **until: Any) -> None:
    """The boards' hands at once (a game's two, or a team match's), each on its own thread
    (as boards far apart)."""
    failures: list[BaseException] = []

    def run(board: Board) -> None:
        try:
            board.play(**until)
        except BaseException as error:  # noqa: BLE001 (the test thread raises it)
            failures.append(AssertionError(f"{board.side.label}'s board: {error}; {board.describe()}"))

    threads = [threading.Thread(target=run, args=(board,)) for board in boards]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise AssertionError("\n".join(map(str, failures)))
