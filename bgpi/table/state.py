"""The table's state, and how committed events change it.

The table is event-sourced: every event that changes the game (session, start,
opening, roll, play, cube actions, game and match end) is applied to the state
through `TableState.apply`, live and when the journal is read back after a power
cut, so a resumed table is exactly the table that was interrupted.  Where the turn
stood is then read back from the board: steps are never needed to restore a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bgpi.exc import NoGameError
from bgpi.rules.cube import Cube
from bgpi.rules.ids import MatchKey, decode_match_id, position_from_id
from bgpi.rules.play import Dice
from bgpi.rules.playtree import PartialPlay, PlayTree
from bgpi.rules.position import Position, Side
from bgpi.rules.result import GameResult
from bgpi.rules.session import Game, Score, Session, Settings
from bgpi.table import events as ev
from bgpi.table.phases import Phase, RollFor
from bgpi.table.tracker import Counts, Reading, Sensing, Tracker

GRACE = 1.5
"""Seconds of board time an unexplained board is tolerated before play pauses."""

_ENDS_HINT = (ev.NewSession, ev.Start, ev.Opening, ev.Roll, ev.Play, ev.Double, ev.Take, ev.Drop, ev.Beaver,
              ev.GameOver)
"""Events after which a hint (or the computer's play) no longer applies."""


@dataclass
class TableState:
    """Everything a table knows: the session's settings, the game as the committed
    events left it, the roll's play tree and what the board is doing wrong."""

    sensing: Sensing
    # the session, as its `session` event set it up
    config: dict = field(default_factory=dict)
    settings: Settings = field(default_factory=Settings)
    lenient: bool = False
    start_position: Position = field(default_factory=Position.start)
    practice_turn: Side | None = None
    practice_key: MatchKey | None = None
    # the game, as the committed events left it
    session: Session = field(default_factory=Session)
    game: Game | None = None
    position: Position = field(default_factory=Position.start)
    phase: Phase = Phase.SETUP
    dice: Dice | None = None
    now: float = 0.0
    seen: Counts | None = None
    # derived from the roll, rebuilt by `apply`
    tree: PlayTree | None = None
    tracker: Tracker | None = None
    node: PartialPlay | None = None
    reading: Reading | None = None
    # what the board is doing wrong, if anything
    rejected: ev.Rejected | None = None
    unexplained_since: float | None = None
    explained_since: float | None = None  # reading right again, during an unexplained spell
    in_hand_since: float | None = None  # every reading has had a checker in hand since
    dropper: Side | None = None  # who dropped the cube, until the game_over
    mismatch: ev.Mismatch | None = None
    candidates: list[PartialPlay] = field(default_factory=list)
    choice: int = 0
    wants_roll: RollFor | None = None
    lenient_offer: bool = False
    # advice (bgpi.table.advice): what the engine is asked, and the answer shown
    computer: Side | None = None  # the side an engine plays, if any
    wants_advice: dict | None = None
    advice_failed: float | None = None  # board time the engine last failed the computer
    hint: ev.Hint | ev.CubeHint | ev.ComputerPlay | None = None  # the hint (or computer_play) event being shown
    hinted: PartialPlay | None = None  # the hinted play in the roll's play tree
    following: bool = False  # the hinted play is the computer's: the only play accepted
    coach: float | None = None  # the coach's threshold: equity lost that shows the better play
    coached: ev.Coach | None = None  # the coach event being shown
    hint_failed: float | None = None  # board time a hint found no engine: shown for NO_ENGINE_SECONDS
    # questions the board is asking that no event has settled yet
    last_result: ev.GameOver | None = None  # the last game_over, shown until the next game starts
    drop_asked: float | None = None  # board time of a first press of drop, awaiting the second
    choosing: int | None = None  # the match length shown by the session chooser (0: money)
    guessed: bool = False  # a reading was chosen among several this game: counts may hide a wrong one
    chooser_from: Phase = Phase.SETUP  # the phase the chooser goes back to
    _out: list[ev.Event] = field(default_factory=list)  # the events of the input being handled

    def apply(self, event: ev.Event) -> None:
        """Change the state as `event` says.  Events that change nothing are ignored."""
        if isinstance(event, _ENDS_HINT):
            self.hint, self.hinted, self.following = None, None, False
            if not isinstance(event, ev.Play):
                self.coached = None
        match event:
            case ev.NewSession():
                self._begin_session(event)
            case ev.Start():
                self._start_game()
            case ev.Tie(white=white, black=black):
                self.game = self._game().opening(white, black)
                self.wants_roll = RollFor.OPENING
            case ev.Opening(white=white, black=black):
                self.game = self._game().opening(white, black)
                self.wants_roll = None
                self._rolled(Dice(white, black))
            case ev.Roll(dice=dice):
                self.game = self._game().roll()
                self._rolled(Dice(*dice))
            case ev.Play():
                self._played(event)
            case ev.Ambiguous():
                self.guessed = True
            case ev.Double(player=player):
                self.game = self._game().double(player)
                self.phase = Phase.DOUBLED
            case ev.Beaver(player=player):
                self.game = self._game().beaver(player)
                self.drop_asked = None
            case ev.Take(player=player):
                self.game = self._game().take(player)
                self.drop_asked = None
                self.phase = Phase.ROLL
            case ev.Drop(player=player):
                self.drop_asked = None
                self.dropper = player
                self.phase = Phase.OVER
            case ev.GameOver():
                self._game_ended(event)
            case ev.Hint() | ev.CubeHint() | ev.ComputerPlay():
                self._hinted(event)
            case ev.Coach():
                self.coached = event
            case ev.HintOff():
                self.hint = self.hinted = None
                self.hint_failed = None

    def _begin_session(self, event: ev.NewSession) -> None:
        # A session may also begin in the middle of a journal (a new match chosen on the
        # board): nothing of the one before carries over.
        fresh = type(self)(self.sensing, now=self.now, seen=self.seen)
        for name in ("start_position", "practice_turn", "practice_key", "game", "dice", "tree",
                     "tracker", "node", "reading", "rejected", "mismatch", "unexplained_since",
                     "explained_since", "in_hand_since",
                     "candidates", "choice", "wants_roll", "lenient_offer", "last_result",
                     "drop_asked", "choosing", "guessed", "wants_advice", "advice_failed", "coached",
                     "hint_failed"):
            setattr(self, name, getattr(fresh, name))
        config = dict(event.config)
        self.config = dict(config)
        self.lenient = bool(config.pop("lenient", False))
        self.computer = Side.BLACK if config.pop("opponent", None) else None
        self.coach = config.pop("coach", None)
        self.settings = Settings.from_config(config)
        session = Session(self.settings)
        if event.position_id is not None:
            turn = event.turn or Side.WHITE
            self.practice_turn = turn
            self.start_position = position_from_id(event.position_id, turn)
            if event.match_id is not None:
                key = decode_match_id(event.match_id)
                self.practice_key = key
                settings = Settings.from_config(config | {"match": key.match_length})
                self.settings = settings
                session = Session(settings, Score(*key.score), crawford=key.crawford)
        self.session = session
        self.position = self.start_position
        self.phase = Phase.SETUP

    def _start_game(self) -> None:
        self.position = self.start_position
        self.last_result = None
        self.guessed = False
        if self.practice_turn is None:
            self.phase = Phase.OPENING
            self.game = self.session.new_game()
            self.wants_roll = RollFor.OPENING
            return
        self.game = self.practice_game()
        self.phase = Phase.ROLL

    def practice_game(self) -> Game:
        """The game a practice position starts: its player on roll, and the Match ID's
        cube in the session's first game."""
        game = replace(self.session.new_game(), turn=self.practice_turn)
        key = self.practice_key
        if key is not None and (self.session.games == 0):
            game = replace(game, cube=Cube(key.cube_value, key.cube_owner))
        return game

    def _rolled(self, dice: Dice) -> None:
        self.dice = dice
        self.tree = PlayTree(self.position, self._game().turn, dice)
        self.tracker = Tracker(self.tree, self.sensing)
        self.node = self.tree.root
        self.reading = Reading(self.node)
        self.in_hand_since = None
        self.phase = Phase.MOVE

    def _played(self, event: ev.Play) -> None:
        self.position = position_from_id(event.position_id, event.player.opponent)
        self.game = self._game().end_turn()
        self.dice = self.tree = self.tracker = self.node = self.reading = None
        self.candidates = []
        self.phase = Phase.OVER if self.position.winner() is not None else Phase.ROLL

    def _game_ended(self, event: ev.GameOver) -> None:
        self.dropper = None
        result = GameResult(event.winner, event.result, event.cube, event.dropped)
        self.session = self.session.record(result)
        self.last_result = event
        self.game = None
        self.dice = None
        self.position = self.start_position
        self.phase = Phase.MATCH_OVER if self.session.is_over else Phase.SETUP

    def _hinted(self, event: ev.Hint | ev.CubeHint | ev.ComputerPlay) -> None:
        self.hint = event
        if isinstance(event, ev.ComputerPlay):
            self.following = True
        if not isinstance(event, ev.CubeHint):
            after = position_from_id(event.position_id, event.player.opponent)
            tree = self.tree
            self.hinted = next((node for node in tree.find(after) if tree.is_complete(node)), None)

    def _game(self) -> Game:
        if self.game is None:
            raise NoGameError("no game is in progress")
        return self.game

    @property
    def turn(self) -> Side | None:
        return self.game.turn if self.game is not None else None
