"""The table's state, and how committed events change it.

The table is event-sourced: every event that changes the game (session, start,
opening, roll, play, cube actions, game and match end) is applied to the state
through `TableState.apply`, live and when the journal is read back after a power
cut, so a resumed table is exactly the table that was interrupted.  Where the turn
stood is then read back from the board: steps are never needed to restore a game.

A session's state is derived from its `session` event (`TableState.begin`): nothing
of the session before carries over, whatever fields are added later.  The state is
grouped by the part of the table that changes it: the roll being played (`Moving`,
the turn's), what the board is doing wrong (`Trouble`, the watch's), and the advice
asked and shown (`Advice`, the advisor's); the rest is the flow's.  What lasts
across sessions, the switch counts and board time, is the `Board`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from bgpi.exc import NoGameError, SessionSettingsError
from bgpi.rules.cube import Cube
from bgpi.rules.ids import (
    MatchKey,
    decode_match_id,
    match_id,
    position_from_id,
    position_id,
)
from bgpi.rules.play import Dice
from bgpi.rules.playtree import PartialPlay, PlayTree
from bgpi.rules.position import Position, Side
from bgpi.rules.result import ResultKind
from bgpi.rules.session import Game, Score, Session, Settings
from bgpi.table import events as ev
from bgpi.table.phases import Link, Phase, RollFor
from bgpi.table.requests import AdviceRequest, Purpose, Question
from bgpi.table.tracker import Counts, Reading, Sensing, Tracker

OPPONENT_SIDES: dict[str, frozenset[Side]] = {
    "white": frozenset({Side.WHITE}), "black": frozenset({Side.BLACK}), "both": frozenset(Side)}
"""The `opponent_side` setting: the side(s) the computer plays; both is computer against
computer, a demonstration in which the human moves the checkers as lit."""

REMOTE_SIDES: dict[str, frozenset[Side]] = {"white": frozenset({Side.WHITE}), "black": frozenset({Side.BLACK})}
"""The `remote` setting: the side the other board of a remote game plays."""

_ENDS_HINT = (ev.Start, ev.Opening, ev.Roll, ev.Play, ev.Double, ev.Take, ev.Drop, ev.Beaver, ev.GameOver)
"""Events after which a hint (or the computer's play) no longer applies."""


@dataclass
class Board:
    """The board as the table last sensed it: what lasts from one session to the next."""

    sensing: Sensing
    now: float = 0.0  # board time, from the last Tick
    seen: Counts | None = None  # the switch counts, from the last Sensed (None before the first)
    link: Link = Link.CONNECTED  # a remote game's connection (LinkChanged): a new one's boards have met

    def expected(self, position: Position) -> Counts:
        """The counts a board showing `position` reads."""
        return self.sensing.of(position)


@dataclass(frozen=True, slots=True)
class Setup:
    """The session as its `session` event set it up."""

    config: dict[str, Any]
    settings: Settings
    session: Session  # the score and Crawford game it starts from
    lenient: bool = False  # an illegal play may be accepted as made by the opponent
    computers: frozenset[Side] = frozenset()  # the sides an engine plays (both: a demonstration)
    remotes: frozenset[Side] = frozenset()  # the side the other board of a remote game plays
    coach: float | None = None  # the equity a play may lose before the better one is shown
    start_position: Position = field(default_factory=Position.start)
    practice_turn: Side | None = None  # a practice position's player on roll
    practice_key: MatchKey | None = None  # a practice position's match (cube, score, length)

    @classmethod
    def of(cls, event: ev.NewSession) -> Setup:
        """The setup a `session` event says: its config read (the table's own keys taken
        out before the rules read theirs), and its practice position and match."""
        config = dict(event.config)
        lenient = bool(config.pop("lenient", False))
        sides = _sides(OPPONENT_SIDES, "opponent_side", config.pop("opponent_side", "black"))
        computers = sides if config.pop("opponent", None) else frozenset()
        remotes = _sides(REMOTE_SIDES, "remote", config.pop("remote")) if "remote" in config else frozenset()
        coach = config.pop("coach", None)
        settings = Settings.from_config(config)
        session = Session(settings)
        start, turn, key = Position.start(), None, None
        if event.position_id is not None:
            turn = event.turn or Side.WHITE
            start = position_from_id(event.position_id, turn)
            if event.match_id is not None:
                key = decode_match_id(event.match_id)
                settings = Settings.from_config(config | {"match": key.match_length})
                session = Session(settings, Score(*key.score), crawford=key.crawford)
        return cls(dict(event.config), settings, session, lenient, computers, remotes, coach, start, turn, key)

    @property
    def elsewhere(self) -> frozenset[Side]:
        """The sides not played with this board's buttons: the computer's and the other board's."""
        return self.computers | self.remotes


def _sides(named: dict[str, frozenset[Side]], setting: str, value: Any) -> frozenset[Side]:
    """The sides a setting's value names (`OPPONENT_SIDES`, `REMOTE_SIDES`).  Raises
    SessionSettingsError for a value that names none: a journal's session may be damaged."""
    sides = named.get(value) if isinstance(value, str) else None
    if sides is None:
        raise SessionSettingsError(f"{setting}: expected one of {', '.join(named)}, not {value!r}")
    return sides


@dataclass
class Moving:
    """The roll being played (phases move and choose): its play tree, rebuilt from the
    roll by `apply`, and how far the mover's hands have got, which the turn follows."""

    dice: Dice
    tree: PlayTree
    tracker: Tracker
    node: PartialPlay  # the partial play the board shows
    reading: Reading  # how the board's counts were explained
    seen: Counts | None = None  # the counts last followed (None before any this roll, as after a power cut)
    in_hand_since: float | None = None  # every reading has had a checker in hand since
    candidates: list[PartialPlay] = field(default_factory=list)  # the plays to choose from (phase choose)
    choice: int = 0  # the candidate shown
    lenient_offer: bool = False  # the opponent may accept the play as made
    hinted: PartialPlay | None = None  # the hinted play in the play tree
    following: bool = False  # the hinted play is the computer's: the only play accepted
    unseen: PartialPlay | None = None  # where the lit step of a play followed leads, when no switch sees it

    @classmethod
    def of(cls, position: Position, side: Side, dice: Dice, sensing: Sensing) -> Moving:
        tree = PlayTree(position, side, dice)
        return cls(dice, tree, Tracker(tree, sensing), tree.root, Reading(tree.root))


@dataclass
class Trouble:
    """What the board is doing wrong, if anything (the watch's, `bgpi.table.watch`)."""

    mismatch: ev.Mismatch | None = None  # play paused: what the board shows that the game cannot explain
    unexplained_since: float | None = None  # board time the board stopped reading as the game
    explained_since: float | None = None  # reading right again, during an unexplained spell


@dataclass
class Advice:
    """What the engine is asked, and the answer shown (the advisor's, `bgpi.table.advice`)."""

    wants: AdviceRequest | None = None  # the question for the shell's engine
    hint: ev.Hint | ev.CubeHint | ev.ComputerPlay | ev.RemotePlay | None = None  # the hint (or play to follow)
    coached: ev.Coach | None = None  # the coach event being shown
    failed: float | None = None  # board time the engine last failed the computer
    failures: int = 0  # the engine's failures of the computer in a row
    hint_failed: float | None = None  # board time a hint found no engine: shown for a moment


@dataclass
class TableState:
    """One session's state: its setup, the game as the committed events left it, the
    roll being played, what the board is doing wrong and the advice shown."""

    sensing: Sensing
    setup: Setup
    session: Session
    position: Position
    phase: Phase = Phase.SETUP
    game: Game | None = None
    dice: Dice | None = None  # the roll, from the roll to the play
    moving: Moving | None = None  # phases move and choose
    trouble: Trouble = field(default_factory=Trouble)
    advice: Advice = field(default_factory=Advice)
    rejected: ev.Rejected | None = None  # the refusal lit until the board changes
    wants_roll: RollFor | None = None  # the dice the shell is asked for
    drop_asked: float | None = None  # board time of a first press of drop, awaiting the second
    dropper: Side | None = None  # who dropped the cube, until the game_over
    last_result: ev.GameOver | None = None  # the last game_over, shown until the next game starts
    guessed: bool = False  # a reading was chosen among several this game: counts may hide a wrong one
    choosing: int | None = None  # the match length shown by the session chooser (0: money)
    chooser_from: Phase = Phase.SETUP  # the phase the chooser goes back to
    resigner: Side | None = None  # who chooses what to resign (phase resigning)
    resigning: ResultKind = ResultKind.SINGLE  # what the resigner offers (phase resigning)
    resignation: ev.ResignOffered | None = None  # the offer awaiting its answer (phase resigned)
    resign_from: Phase = Phase.ROLL  # the phase a withdrawn or declined resignation goes back to
    declined: ev.ResignOffered | None = None  # the last offer declined this game (the computer's not again)

    @classmethod
    def begin(cls, sensing: Sensing, event: ev.NewSession) -> TableState:
        """The state a `session` event starts: nothing of an earlier session carries over."""
        setup = Setup.of(event)
        return cls(sensing, setup, setup.session, setup.start_position)

    @property
    def turn(self) -> Side | None:
        return self.game.turn if self.game is not None else None

    def current_game(self) -> Game:
        """The game in progress.  Raises NoGameError when there is none."""
        if self.game is None:
            raise NoGameError("no game is in progress")
        return self.game

    def current_turn(self) -> Side:
        """The player on turn in the game in progress.  Raises NoGameError when there is
        none (before the opening roll too)."""
        turn = self.current_game().turn
        if turn is None:
            raise NoGameError("no player is on turn before the opening roll")
        return turn

    def taker(self) -> Side:
        """The player a double on offer asks.  Raises NoGameError when none is on offer."""
        offer = self.current_game().cube.offer
        if offer is None:
            raise NoGameError("no double is on offer")
        return offer.taker

    def current_roll(self) -> Moving:
        """The roll being played.  Raises NoGameError when none is."""
        if self.moving is None:
            raise NoGameError("no roll is being played")
        return self.moving

    def asked(self) -> Side:
        """Who decides now: the taker of a double, else the player whose turn it is."""
        if self.phase == Phase.DOUBLED:
            return self.taker()
        return self.current_turn()

    def advice_request(self, question: Question, purpose: Purpose, player: Side | None = None) -> AdviceRequest:
        """A request for the engine, in the IDs of the player on roll, for `player` (by
        default who decides: the player on roll, the taker when doubled)."""
        dice = (0, 0)
        if question == Question.PLAYS and self.dice is not None:
            dice = (self.dice.first, self.dice.second)
        settings = self.setup.settings
        return AdviceRequest(question, purpose, player or self.asked(), position_id(self.position, self.current_turn()),
                             match_id(self.current_game().match_key(dice)), settings.jacoby, settings.beavers)

    def coach_request(self) -> AdviceRequest | None:
        """The coach's question about the play being committed (None when not coaching
        this player): the roll's best play and what the play made loses against it."""
        if self.setup.coach is None or self.turn in self.setup.elsewhere:
            return None
        return self.advice_request(Question.PLAYS, Purpose.COACH)

    def practice_game(self) -> Game:
        """The game a practice position starts: its player on roll, and the Match ID's
        cube in the session's first game."""
        game = replace(self.session.new_game(), turn=self.practice_turn)
        key = self.setup.practice_key
        if key is not None and (self.session.games == 0):
            game = replace(game, cube=Cube(key.cube_value, key.cube_owner))
        return game

    def apply(self, event: ev.Event) -> None:
        """Change the state as `event` says; events that change nothing are ignored.  A
        `session` event begins a new state instead (`begin`)."""
        if isinstance(event, _ENDS_HINT):
            self._hint_ends(keep_coach=isinstance(event, ev.Play))
        match event:
            case ev.Start():
                self._start_game()
            case ev.Tie(white=white, black=black):
                self.game = self.current_game().opening(white, black)
                self.wants_roll = RollFor.OPENING
            case ev.Opening(white=white, black=black):
                self.game = self.current_game().opening(white, black)
                self.wants_roll = None
                self._rolled(Dice(white, black))
            case ev.Roll(dice=dice):
                self.game = self.current_game().roll()
                self._rolled(Dice(*dice))
            case ev.Play():
                self._played(event)
            case ev.Ambiguous():
                self.guessed = True
            case ev.Double() | ev.Beaver() | ev.Take() | ev.Drop():
                self._cube_action(event)
            case ev.ResignOffered() | ev.ResignDeclined() | ev.ResignAccepted():
                self._resignation(event)
            case ev.GameOver():
                self._game_ended(event)
            case ev.Hint() | ev.CubeHint() | ev.ComputerPlay() | ev.RemotePlay():
                self._hinted(event)
            case ev.Coach():
                self.advice.coached = event
            case ev.ComputerStopped(player=player):
                self.setup = replace(self.setup, computers=self.setup.computers - {player})
                self.advice.failed, self.advice.failures = None, 0
            case ev.HintOff():
                self.advice.hint = None
                self.advice.hint_failed = None
                if self.moving is not None:
                    self.moving.hinted = None

    def _hint_ends(self, keep_coach: bool) -> None:
        self.advice.hint = None
        if not keep_coach:
            self.advice.coached = None
        if self.moving is not None:
            self.moving.hinted, self.moving.following = None, False

    @property
    def practice_turn(self) -> Side | None:
        """The practice position's player on roll while its game is the next or being
        played; None in a session without one, and for every later game, which starts
        from the standard position with an opening roll."""
        return self.setup.practice_turn if self.session.games == 0 else None

    def start_position(self) -> Position:
        """Where the next game starts: the practice position for its own game, else the standard one."""
        return self.setup.start_position if self.practice_turn is not None else Position.start()

    def _start_game(self) -> None:
        self.position = self.start_position()
        self.last_result = None
        self.guessed = False
        if self.practice_turn is None:
            self.phase = Phase.OPENING
            self.game = self.session.new_game()
            self.wants_roll = RollFor.OPENING
            return
        self.game = self.practice_game()
        self.phase = Phase.ROLL

    def _rolled(self, dice: Dice) -> None:
        self.dice = dice
        self.moving = Moving.of(self.position, self.current_turn(), dice, self.sensing)
        self.phase = Phase.MOVE

    def _played(self, event: ev.Play) -> None:
        self.position = position_from_id(event.position_id, event.player.opponent)
        self.game = self.current_game().end_turn()
        self.dice = self.moving = None
        self.phase = Phase.OVER if self.position.winner() is not None else Phase.ROLL

    def _cube_action(self, event: ev.Double | ev.Beaver | ev.Take | ev.Drop) -> None:
        game = self.current_game()
        match event:
            case ev.Double(player=player):
                self.game = game.double(player)
                self.phase = Phase.DOUBLED
            case ev.Beaver(player=player):
                self.game = game.beaver(player)
                self.drop_asked = None
            case ev.Take(player=player):
                self.game = game.take(player)
                self.drop_asked = None
                self.phase = Phase.ROLL
            case ev.Drop(player=player):
                self.drop_asked = None
                self.dropper = player
                self.phase = Phase.OVER

    def _resignation(self, event: ev.ResignOffered | ev.ResignDeclined | ev.ResignAccepted) -> None:
        match event:
            case ev.ResignOffered():
                if self.phase != Phase.RESIGNING:  # read back from the journal: the phase it was
                    self.resign_from = Phase.MOVE if self.phase == Phase.CHOOSE else self.phase
                self.resignation, self.phase = event, Phase.RESIGNED
            case ev.ResignDeclined():
                self.declined = self.resignation
                self.resignation, self.resigner, self.phase = None, None, self.resign_from
            case ev.ResignAccepted():
                self.phase = Phase.OVER

    def _game_ended(self, event: ev.GameOver) -> None:
        self.dropper = None
        self.resignation = self.resigner = self.declined = None
        self.session = self.session.record(event.game_result())
        self.last_result = event
        self.game = None
        self.dice = None
        self.position = self.start_position()
        self.phase = Phase.MATCH_OVER if self.session.is_over else Phase.SETUP

    def _hinted(self, event: ev.Hint | ev.CubeHint | ev.ComputerPlay | ev.RemotePlay) -> None:
        self.advice.hint = event
        if isinstance(event, ev.CubeHint):
            return
        moving = self.current_roll()
        if isinstance(event, ev.ComputerPlay | ev.RemotePlay):  # a play to follow, no other
            moving.following = True
        after = position_from_id(event.position_id, event.player.opponent)
        tree = moving.tree
        moving.hinted = next((node for node in tree.find(after) if tree.is_complete(node)), None)
