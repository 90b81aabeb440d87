"""Two simulated boards playing one remote game through a real broker, with hands on each.

A `Board` is what `bgpi run --board sim --remote ...` keeps open, without the page and
the live loop: a `TableRunner` on the simulated board with its own state directory (the
table's journal and the wire's), joined to the other board by a `RemoteGame`.  Its hands (`play`) write the
board script they play as they go, one line at a time carried out exactly as `bgpi
replay` carries out a line (`bgpi.shell.replay.perform`): presses and checker moves for
this board's side, the other side's lit play carried out by hand, and an
``{"await": "remote"}`` line wherever the board waits for the other one.  The hands accept
every resignation offered them (`resign` offers one).  The dice secrets and the hands'
choices are seeded: the same test plays the same game.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bgpi.board.locations import bar, location_of
from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.remote.game import RemoteGame
from bgpi.remote.mqtt import Broker
from bgpi.rules.ids import position_from_id
from bgpi.rules.play import Play
from bgpi.rules.position import Position, Side
from bgpi.rules.reference import legal_plays
from bgpi.shell.boardfile import BoardFile, position_checkers, restore_board
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
from tests.remote.conftest import Mosquitto

PROFILE = load_profile()
GAME = "g1"
WAIT_S = 30.0  # only ever reached when something is broken
MAX_LINES = 20_000  # a bound, so that a board stuck in a phase fails the test


class Board:
    """One board of the game: `side` played here, the other side at the other board."""

    def __init__(self, folder: Path, side: Side, broker: Broker, config: dict[str, Any], seed: int,
                 game: str = GAME) -> None:
        self.side, self.folder = side, folder
        folder.mkdir(parents=True, exist_ok=True)
        sensing = Sensing(PROFILE.geometry)
        opened = open_state(folder, sensing)
        self.journal: Journal = opened.journal
        self.said: list[str] = []
        self.lines: list[dict[str, Any]] = []
        self.played: Play | None = None  # this side's last play, for the choice the switches cannot make
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
        dice_rng = random.Random(f"{seed}-dice-{side.label}-{len(read_records(folder, 'remote.jsonl').events)}")
        self.rng = random.Random(f"{seed}-hands-{side.label}")
        self.secrets: list[bytes] = []  # the secrets drawn, in order

        def secret() -> bytes:
            self.secrets.append(dice_rng.randbytes(32))
            return self.secrets[-1]

        self.remote = RemoteGame(table, folder, broker, game, side, say=self.said.append, secret=secret)
        self.remote.start()
        self.sim.sinks.append(self.remote.log)
        self.sim.join(self.remote, dice=self.remote)
        self.sim.advance(LINE_SECONDS)

    @property
    def table(self) -> Table:
        return self.sim.table

    def crash(self) -> None:
        """Stop as a board killed does: no ``offline``, no goodbye; the journals as they stand."""
        paho = self.remote.transport.client._paho
        paho.loop_stop()  # paho's thread ends; the broker sends the last will later
        paho.socket().close()
        self.remote.outbox.close()
        self.sim.close()
        self.journal.close()
        self.closed = True

    def close(self) -> None:
        if getattr(self, "closed", False):
            return
        self.remote.close()
        self.sim.close()
        self.journal.close()

    def describe(self) -> str:
        """Where this board stands, for a failing test's message."""
        table, peer = self.table, self.remote.peer
        return (f"phase {table.phase}, turn {table.turn}, link {table.link}, wants_roll {table.wants_roll}, "
                f"peer sent {peer.sent} seen {peer.seen} roll {peer.roll}; said {self.said[-5:]}; "
                f"last events {[event.kind for event in read_journal(self.folder).events[-6:]]}")

    def plays(self) -> int:
        return sum(isinstance(event, ev.Play) for event in read_journal(self.folder).events)

    def game_events(self) -> list[ev.Event]:
        return [event for event in read_journal(self.folder).events if ev.is_game(event)]

    # -- the hands -----------------------------------------------------------------------------

    def do(self, line: dict[str, Any]) -> None:
        """One board-script line, carried out as `bgpi replay` does."""
        self.lines.append(line)
        (action,) = parse_script(json.dumps(line)).lines
        perform(self.hands, action, lambda event: None, self.remote)

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
        table, me = self.table, self.side
        phase, turn = table.phase, table.turn
        if phase is Phase.SETUP:
            self.set_up()
        elif table.wants_roll is not None or phase is Phase.OPENING:
            self.do({"await": "remote"})  # the dice: both boards' secrets
        elif phase is Phase.ROLL and turn is me:
            self.do({"press": f"{me.label}.turn"})
        elif phase is Phase.MOVE and turn is me:
            self.played = self.choice(legal_plays(table.position, me, table.dice))
            self.carry(self.played.position)
            self.do({"press": f"{me.label}.turn"})
        elif phase is Phase.CHOOSE and turn is me:
            self.choose()
        elif phase is Phase.MOVE and isinstance(table.hint, ev.RemotePlay):
            self.carry(position_from_id(table.hint.position_id, table.hint.player.opponent))
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

    def choose(self) -> None:
        """The switches cannot tell the plays apart: *cube* until the one made shows, then *turn*."""
        table, me = self.table, self.side
        for _ in range(len(table.candidates)):
            if table.candidates[table.choice].position == self.played.position:
                break
            self.do({"press": f"{me.label}.cube"})
        self.do({"press": f"{me.label}.turn"})

    def resign(self) -> None:
        """Offer to resign a single game: *cube* held, then *turn* (the other board answers)."""
        self.do({"hold": f"{self.side.label}.cube"})
        self.do({"press": f"{self.side.label}.turn"})

    def set_up(self) -> None:
        """The checkers back for a new game, then this side's turn button: the opening roll."""
        self.put(Position.start())
        self.do({"press": f"{self.side.label}.turn"})

    def carry(self, after: Position) -> None:
        """Carry the checkers of the player on turn to `after` by hand: the steps of a play
        that leads there, one at a time (a hit blot to the bar after the hitter lands); then,
        if the board read the steps otherwise (a bear-off of doubles, say), the checkers put
        right one by one, as a player does whom the lights still show a step."""
        table, side = self.table, self.table.turn
        play = next(play for play in legal_plays(table.position, side, table.dice) if play.position == after)
        for step in play.steps:
            destination = location_of(side, step.destination)
            self.do({"move": [location_of(side, step.source), destination]})
            if step.hit:
                self.do({"move": [destination, bar(side.opponent)]})
        if self.table.phase is Phase.MOVE and self.table.node is not None and self.table.node.position != after:
            self.put(after)

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


def boards(folder: Path, broker: Mosquitto, config: dict, seed: int = 1, game: str = GAME) -> tuple[Board, Board]:
    """The two boards of game `game`, white's and black's, in `folder`'s ``white`` and ``black``."""
    where = Broker(broker.host, broker.port)
    return (Board(folder / "white", Side.WHITE, where, config, seed, game),
            Board(folder / "black", Side.BLACK, where, config, seed, game))


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
        raise failures[0]
