"""The controller: the table's flow, as a deterministic state machine.

Inputs are what happens at the table (`Sensed` switch counts, button `Press`es,
`Tick`s of board time, and `Rolled` dice that the shell rolled when asked); the
output of each input is a list of table-log events (`bgpi.table.events`, typed
values; docs/board-script.md) and the lights to show.  The controller reads no clock, no pins and no files.

`Table` is composed of parts, each a module of this package with one object: the
state and how committed events change it (`state`), whether the board shows the
game (`watch`), following a turn on the board (`turn`), the cube (`doubling`),
advice (`advice`), resignations (`resigning`), the other board of a remote game
(`remoting`) and what the board shows (`view`).  Each part says what it reads
and what it changes.  This module holds the flow between them: setup, the opening
roll, rolls, the buttons, and a new session chosen on the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bgpi.board.locations import in_order
from bgpi.exc import EventError, JournalStartError, RulesError
from bgpi.rules.ids import position_id
from bgpi.rules.play import Dice
from bgpi.rules.playtree import PartialPlay, PlayTree
from bgpi.rules.position import Position, Side
from bgpi.rules.session import Game, Session, Settings
from bgpi.table import events as ev
from bgpi.table.advice import Advising
from bgpi.table.chouette import Chouette
from bgpi.table.chouette_computer import ChouetteComputer
from bgpi.table.doubling import Doubling
from bgpi.table.inputs import (
    Advised,
    ComputerUnavailable,
    Input,
    Join,
    Leave,
    LinkChanged,
    Press,
    Remote,
    Rolled,
    Sensed,
    Tick,
)
from bgpi.table.lights import Lighting, Prompt
from bgpi.table.phases import Link, Phase, RollFor
from bgpi.table.remoting import Remoting
from bgpi.table.requests import AdviceRequest
from bgpi.table.resigning import OPENS_FROM, Resigning
from bgpi.table.state import Board, TableState
from bgpi.table.tracker import Counts, Sensing, Tracker
from bgpi.table.turn import FollowingTurn
from bgpi.table.view import TableView
from bgpi.table.watch import Watch

SESSION_LENGTHS: tuple[int, ...] = (1, 3, 5, 7, 9, 11, 0)
"""What the session chooser offers: matches to these lengths, and money play (0)."""

REMOTE_SESSION = "a remote game's session is agreed when the boards meet"
"""Why a remote game's board does not choose a new session itself."""

_CUT_SHORT = (EventError, RulesError)
"""What a damaged journal's event raises: one that is no event (`EventError`), or one the
game does not allow where it stands (a `RulesError`).  Anything else is a fault of the
program, never taken for a damaged journal."""


def _chooser_start(length: int) -> int:
    """The chooser shows the current session's kind first."""
    return length if length in SESSION_LENGTHS else SESSION_LENGTHS[0]


class Table:
    """One table: a session of games, its state, and what the board shows.

    Build it with `Table.new(...)` for a new session, then feed it inputs with
    `handle`; or build it from a journal with `Table.resume(events, sensing)`.

    The table is the flow between its parts, built for each session over the
    session's state (`TableState`) and the board (`Board`): the `Watch` (does the
    board show the game?), the `FollowingTurn` (the mover's hands), the `Doubling`
    (the cube), the `Advising` (hints and the computer) and the `TableView` (what the
    board shows).  Every event a part emits goes through `_emit`: applied to the
    state, and returned by `handle`.
    """

    def __init__(self, sensing: Sensing) -> None:
        self.board = Board(sensing)
        self._out: list[ev.Event] = []
        self._lights: Lighting | None = None  # lighting() until an input changes the table
        self._begin(TableState.begin(sensing, ev.NewSession({})))

    def _begin(self, state: TableState) -> None:
        """Build the parts over a session's state (a chouette's own part in a chouette)."""
        self.state = state
        self.watch = Watch(state, self.board, self._emit)
        self.follower = FollowingTurn(state, self.board, self.watch, self._emit)
        self.doubling = Doubling(state, self.board, self._emit, self.follower.end_game)
        self.resigning = Resigning(state, self._emit, self.follower.end_game)
        self.chouette: Chouette | None = None
        computer = None
        if state.chouette is not None:
            self.chouette = Chouette(state, self.board, self._emit, self.resigning)
            self.follower.won = self.chouette.played_out
            computer = ChouetteComputer(state, self.chouette, self._emit)
        self.advising = Advising(state, self.board, self.follower, self.doubling, self.resigning, self._emit,
                                 computer)
        self.remoting = Remoting(state, self.board, self.follower, self.doubling, self.resigning, self._emit)
        self.view = TableView(state, self.board)

    @classmethod
    def new(
        cls,
        sensing: Sensing,
        config: dict[str, Any] | None = None,
        position_id_text: str | None = None,
        turn: Side | None = None,
        match_id_text: str | None = None,
    ) -> tuple[Table, list[ev.Event]]:
        """A new session; returns the table and its opening `session` event."""
        event = ev.NewSession(dict(config or {}))
        if position_id_text is not None:
            event = ev.NewSession(event.config, position_id_text, Side.WHITE if turn is None else turn,
                                  match_id_text or None)
        table = cls(sensing)
        table.apply(event)
        return table, [event]

    @classmethod
    def resume(cls, events: Sequence[ev.Event], sensing: Sensing) -> Table:
        """The table a journal of events leaves behind.  Raises JournalStartError if it has
        no session event first."""
        if not events or not isinstance(events[0], ev.NewSession):
            raise JournalStartError("the journal does not begin with a session event")
        table = cls(sensing)
        for event in events:
            table.apply(event)
        table.read_back(events)
        return table

    @classmethod
    def resume_prefix(cls, events: Sequence[ev.Event], sensing: Sensing) -> tuple[Table | None, int]:
        """The table the longest prefix of `events` that applies cleanly leaves behind,
        and how many events that prefix holds; (None, 0) if not even the first event
        begins a session.  For a journal that may be damaged: an event the game does not
        allow there ends the prefix."""
        if not events or not isinstance(events[0], ev.NewSession):
            return None, 0
        table = cls(sensing)
        applied = 0
        try:
            for event in events:
                table.apply(event)
                applied += 1
            table.read_back(events)
        except _CUT_SHORT:
            # An event may fail halfway through changing the table: build it again
            # from the events before it, which applied cleanly.
            if applied == 0:
                return None, 0
            return cls.resume(events[:applied], sensing), applied
        return table, applied

    def read_back(self, events: Sequence[ev.Event]) -> None:
        """A table read back from the journal `events`: a remote game's link is not
        journaled, so the board is connecting until the shell says otherwise; a play it
        follows goes on from the steps journaled."""
        if self.state.setup.remotes:
            self.board.link = Link.CONNECTING
        self.follower.resume(events)

    def apply(self, event: ev.Event) -> None:
        """Change the table as a committed `event` says: a `session` event begins a new
        session's state, any other changes the state."""
        if isinstance(event, ev.NewSession):
            self._begin(TableState.begin(self.board.sensing, event))
        else:
            self.state.apply(event)

    def owed(self) -> list[ev.Event]:
        """The events a journal cut short between a game's end (its last play, a drop, an
        accepted resignation) and its ``game_over`` still owes (a power cut between the
        two, a damaged line): applied, and returned for the journal.  None for any other
        table."""
        self._out = []
        state, game = self.state, self.state.game
        if self.chouette is not None:
            self.chouette.owed()
        elif state.phase == Phase.OVER and game is not None:
            if state.dropper is not None:
                result = game.drop(state.dropper)
            elif state.resignation is not None:  # accepted (a declined one is gone)
                result = self.resigning.accepted(state.resignation)
            else:
                result = game.result(state.position)
            self.follower.end_game(result)
        return list(self._out)

    # -- inputs --------------------------------------------------------------------

    def handle(self, happened: Input) -> list[ev.Event]:
        """The table-log events caused by one input (committed events already applied):
        what the shell journals, logs and streams."""
        self._out = []
        match happened:
            case Tick(now=now):
                self.board.now = now
                self.watch.check()
                if self.chouette is not None:
                    self.chouette.check_drop_time()
                else:
                    self.doubling.check_drop_time()
                self.advising.check_hint_failed()
            case Sensed(counts=counts):
                self.board.seen = counts
                self._sensed()
            case Press(button=button, long=long):
                self._pressed(button, long)
            case Rolled(first=first, second=second):
                self._dice_rolled(first, second)
            case Advised(request=request, answer=answer, error=error):
                self.advising.advised(request, answer, error)
            case Remote(event=event):
                self.remoting.received(event)
            case LinkChanged(link=link):
                self.board.link = link
                if link != Link.ABANDONED:
                    self.state.claimer = None  # the other board is back (or the link is lost)
            case Join(player=player) | Leave(player=player):
                self._seating(happened, player)
            case ComputerUnavailable():
                self.advising.computer_unavailable()
        self.advising.computer_turn()
        if self._out or not isinstance(happened, Tick):
            self._lights = None  # a tick changes nothing without saying so
        return list(self._out)

    def next_deadline(self) -> float | None:
        """The next board time at which a `Tick` alone may change something (the end of
        a grace period, of a drop's question, the computer asking the engine again);
        None if time alone changes nothing.  The shell may skip the board time before
        it, and the `Tick`s in it, when nothing else happens."""
        deadlines = [*self.watch.deadlines(), *self.doubling.deadlines(), *self.advising.deadlines(),
                     *(self.chouette.deadlines() if self.chouette is not None else ())]
        return min(deadlines, default=None)

    def _emit(self, event: ev.Event) -> None:
        self.apply(event)
        self._out.append(event)

    # -- what the board shows --------------------------------------------------------

    def lighting(self) -> Lighting:
        """The roles of the board's locations now (blinking is the lights layer's business).

        The shell asks at every scan; it is worked out again only after an input
        that may have changed it (`handle`)."""
        if self._lights is None:
            self._lights = self.view.lighting()
        return self._lights

    def prompt(self) -> Prompt | None:
        """What the board waits for, who answers and with which button."""
        return self.view.prompt()

    def state_event(self) -> ev.State:
        """The `state` event: where the table stands."""
        return self.view.state_event()

    # -- the board -----------------------------------------------------------------

    def _sensed(self) -> None:
        phase = self.state.phase
        if phase in (Phase.SETUP, Phase.MATCH_OVER, Phase.ROLL_OFF, Phase.RESULTS):
            return
        if phase in (Phase.MOVE, Phase.CHOOSE):
            self.follower.track()
            return
        self.watch.settle(self.board.seen == self.board.expected(self.state.position))

    # -- buttons ---------------------------------------------------------------------

    def _pressed(self, button: str, long: bool) -> None:
        owner, _, kind = button.partition(".")
        if self.state.setup.remotes and self.board.link == Link.DISAGREE:
            return  # the journals disagree: play stops for good in this session
        if button == "hint":
            self._hint_pressed()
            return
        side = Side.parse(owner)
        if kind == "turn" and not long and self.follower.confirms(side):
            self.follower.confirm_unseen()  # the lit step of the other side's play, which no switch sees
            return
        if self._played_elsewhere(side) or self._chouette_pressed(side, kind, long):
            return
        if self.board.link == Link.ABANDONED and self.resigning.claiming(side, kind, long):
            return
        self._pressed_by(side, kind, long)

    def _pressed_by(self, side: Side, kind: str, long: bool) -> None:
        """`side`'s own button of `kind` pressed (`long`: held), as the phase takes it."""
        phase = self.state.phase
        if kind == "cube" and long and phase in OPENS_FROM:
            self.resigning.open(side)
        elif phase == Phase.RESIGNING:
            self.resigning.choosing(side, kind, long)
        elif phase == Phase.RESIGNED:
            self.resigning.answer(side, kind)
        elif phase == Phase.NEW_SESSION:
            self._choose_session(kind, long)
        elif phase in (Phase.SETUP, Phase.MATCH_OVER):
            self._between_games(side, kind)
        elif phase == Phase.ROLL:
            if kind == "cube":
                self._double(side)
            elif side is self.state.turn and self.state.trouble.mismatch is None:
                self.state.wants_roll = RollFor.TURN
        elif phase == Phase.DOUBLED:
            self.doubling.answer(side, kind, long)
        elif phase in (Phase.MOVE, Phase.CHOOSE):
            self._pressed_moving(side, kind)

    def _hint_pressed(self) -> None:
        """*hint*: the engine's advice (in a chouette, of the play only)."""
        if self.chouette is None or not self.chouette.hint_refused():
            self.advising.hint_pressed()

    def _chouette_pressed(self, side: Side, kind: str, long: bool) -> bool:
        """Whether a chouette takes the press itself (choosing seats, answering a seat's
        double or a resignation, the roll-off, the results)."""
        return self.chouette is not None and self.chouette.pressed(side, kind, long)

    def _double(self, side: Side) -> None:
        """`side` pressed *cube* before the roll: a double, or in a chouette the choice of seats."""
        if self.chouette is not None:
            self.chouette.open_doubles(side)
        else:
            self.doubling.double(side)

    def _seating(self, happened: Join | Leave, player: str) -> None:
        """A player joins or leaves a chouette (between games)."""
        if self.chouette is None:
            self._emit(ev.Rejected(None, "players join and leave a chouette: this session is none"))
        else:
            self.chouette.seat(player, joins=isinstance(happened, Join))

    def _played_elsewhere(self, side: Side) -> bool:
        """Whether `side`'s buttons here are not theirs to press: the other board's player
        presses there, and in a game the computer's buttons are the engine's."""
        setup = self.state.setup
        return side in setup.remotes or (side in setup.computers and self.state.phase in (
            Phase.ROLL, Phase.DOUBLED, Phase.MOVE, Phase.CHOOSE, Phase.RESIGNED))

    def _between_games(self, side: Side, kind: str) -> None:
        """A press in setup or after the match: the session chooser, a new match, or the start."""
        state = self.state
        chooser = kind == "cube" and not self._practice_cube(side)
        if state.setup.remotes and (chooser or state.phase == Phase.MATCH_OVER):
            self._emit(ev.Rejected(side, REMOTE_SESSION))
        elif chooser:
            state.chooser_from, state.phase = state.phase, Phase.NEW_SESSION
            state.choosing = _chooser_start(state.setup.settings.match_length)
        elif state.phase == Phase.MATCH_OVER:
            self._new_session(state.setup.settings.match_length)
        else:
            self._start(side, kind)

    def _pressed_moving(self, side: Side, kind: str) -> None:
        """A press while moving or choosing: commit, choose, or accept a play as made."""
        state = self.state
        if kind == "cube" and state.phase == Phase.MOVE:
            self.doubling.double(side)  # refused: after rolling, or not this player's turn
        elif side is not state.turn:
            if state.current_roll().lenient_offer and kind == "turn":
                self.follower.accept_as_made()
            elif kind == "turn":
                turn = state.current_turn().label
                self._emit(ev.Rejected(side, f"it is {turn}'s turn: {turn} commits the play with {turn}.turn"))
        elif state.phase == Phase.CHOOSE:
            if kind == "cube":
                self.follower.choose_next()
            else:
                self.follower.choose_this()
        elif kind == "turn":
            self.follower.try_commit()

    def _practice_cube(self, side: Side) -> bool:
        """Whether *cube* in setup is the practice position's player on roll doubling."""
        return self.state.phase == Phase.SETUP and self.state.practice_turn is side

    def _start(self, side: Side, kind: str) -> None:
        """A press in setup: start the game if the board is set.  In a practice position
        the checkers are already set and the press is the first of the game: *turn* of
        the player on roll rolls, their *cube* doubles."""
        board, state = self.board, self.state
        seen = board.seen
        missing, extra = board.sensing.difference(seen or (), board.expected(state.position))
        if seen is None or missing or extra:
            wrong = []
            if missing:
                wrong.append("put checkers on the points lit soft white")
            if extra:
                wrong.append("take the extra checkers off the points lit violet")
            reason = "set up the board first: " + " and ".join(wrong or ["the board is not read yet"])
            self._emit(ev.Rejected(None, reason, tuple(in_order([*missing, *extra]))))
            return
        on_roll = state.practice_turn or Side.WHITE
        self._emit(ev.Start(position_id(state.position, on_roll)))
        if self.state.phase == Phase.ROLL and side is on_roll:
            if kind == "turn":
                self.state.wants_roll = RollFor.TURN
            else:
                self._double(side)

    # -- a new session chosen on the board --------------------------------------------

    def _choose_session(self, kind: str, long: bool) -> None:
        """The session chooser: *cube* shows the next match length, *turn* starts it,
        a held *cube* goes back."""
        state = self.state
        choosing = state.choosing if state.choosing is not None else SESSION_LENGTHS[0]
        if kind == "cube" and long:
            state.phase, state.choosing = state.chooser_from, None
        elif kind == "cube":
            at = SESSION_LENGTHS.index(choosing)
            state.choosing = SESSION_LENGTHS[(at + 1) % len(SESSION_LENGTHS)]
        else:
            self._new_session(choosing)

    def _new_session(self, length: int) -> None:
        """Start a new session (a match to `length`, or money play for 0), keeping the
        other settings; the board is then set up for its first game."""
        config = {key: value for key, value in self.state.setup.config.items() if key != "match"}
        if length:
            config = {key: value for key, value in config.items()
                      if key not in ("jacoby", "beavers", "auto_doubles")} | {"match": length}
        self._emit(ev.NewSession(config))

    def _dice_rolled(self, first: int, second: int) -> None:
        state = self.state
        request, state.wants_roll = state.wants_roll, None
        if request is not None:
            self.resigning.withdraw()  # the dice came while a player chose what to resign
        if request == RollFor.OPENING:
            game = state.current_game()
            if first == second:
                self._emit(ev.Tie(first, second, game.opening(first, second).cube.value))
                return
            starts = Side.WHITE if first > second else Side.BLACK
            self._emit(ev.Opening(first, second, starts, game.cube.value))
        elif request == RollFor.TURN:
            self._emit(ev.Roll(state.current_turn(), (first, second)))
        elif request == RollFor.ROLL_OFF and self.chouette is not None:
            self.chouette.rolled_off(first, second)
        if self.state.phase == Phase.MOVE and self.board.seen is not None:
            self.follower.track()

    # -- where the table stands, for the shell and the tests ----------------------------

    @property
    def sensing(self) -> Sensing:
        return self.board.sensing

    @property
    def now(self) -> float:
        return self.board.now

    @property
    def seen(self) -> Counts | None:
        return self.board.seen

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def position(self) -> Position:
        return self.state.position

    @position.setter
    def position(self, position: Position) -> None:
        """Set the checkers as the game believes them (a test's crowded point)."""
        self.state.position = position

    @property
    def game(self) -> Game | None:
        return self.state.game

    @property
    def turn(self) -> Side | None:
        return self.state.turn

    @property
    def dice(self) -> Dice | None:
        return self.state.dice

    @property
    def session(self) -> Session:
        return self.state.session

    @property
    def settings(self) -> Settings:
        return self.state.setup.settings

    @property
    def config(self) -> dict[str, Any]:
        return self.state.setup.config

    @property
    def computers(self) -> frozenset[Side]:
        """The sides whose play the engine makes now (in a chouette: the box's colour or
        the team's, while the computer is the box or the captain)."""
        return self.state.computers

    @property
    def computer_players(self) -> tuple[str, ...]:
        """The players of a chouette the computer plays, in their order (none in a game of two)."""
        seating = self.state.chouette
        if seating is None:
            return ()
        return tuple(player for player in seating.settings.computers if player in seating.computers)

    @property
    def remotes(self) -> frozenset[Side]:
        """The side the other board of a remote game plays (empty: no remote game)."""
        return self.state.setup.remotes

    @property
    def link(self) -> Link:
        """The connection to the other board of a remote game, as the shell last said (`LinkChanged`)."""
        return self.board.link

    @property
    def remote_refusal(self) -> ev.RemoteRefused | None:
        """The other board's event the last input refused (`remote_refused`), if any: the
        shell names the disagreement."""
        return next((event for event in self._out if isinstance(event, ev.RemoteRefused)), None)

    @property
    def wants_roll(self) -> RollFor | None:
        """What dice the shell is asked to roll for, if any (`Rolled` answers)."""
        return self.state.wants_roll

    @property
    def wants_advice(self) -> AdviceRequest | None:
        """What the shell is asked to ask the engine, if anything (`Advised` answers)."""
        return self.state.advice.wants

    @property
    def hint(self) -> ev.Hint | ev.CubeHint | ev.ComputerPlay | ev.RemotePlay | None:
        return self.state.advice.hint

    @property
    def following(self) -> bool:
        """Whether the hinted play is the computer's (or the other board's), which the board must follow."""
        return self.state.moving is not None and self.state.moving.following

    @property
    def tree(self) -> PlayTree | None:
        return self.state.moving.tree if self.state.moving is not None else None

    @property
    def tracker(self) -> Tracker | None:
        return self.state.moving.tracker if self.state.moving is not None else None

    @property
    def node(self) -> PartialPlay | None:
        return self.state.moving.node if self.state.moving is not None else None

    @property
    def candidates(self) -> list[PartialPlay]:
        return self.state.moving.candidates if self.state.moving is not None else []

    @property
    def choice(self) -> int:
        return self.state.moving.choice if self.state.moving is not None else 0
