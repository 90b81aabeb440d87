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

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bgpi.exc import ChouetteError, NoGameError, SessionSettingsError
from bgpi.rules.chouette import ChouetteSettings, RollOff
from bgpi.rules.cube import Cube
from bgpi.rules.ids import (
    MatchKey,
    decode_match_id,
    match_id,
    position_from_id,
    position_id,
)
from bgpi.rules.pairs import Pairs
from bgpi.rules.play import Dice
from bgpi.rules.playtree import PartialPlay, PlayTree
from bgpi.rules.position import Position, Side
from bgpi.rules.result import ResultKind
from bgpi.rules.session import Game, Score, Session, Settings
from bgpi.table import events as ev
from bgpi.table.phases import Link, Phase, RollFor
from bgpi.table.requests import AdviceRequest, Purpose, Question
from bgpi.table.seating import Seating
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
    chouette: ChouetteSettings | None = None  # a chouette's players and options
    pairs: Pairs | None = None  # consultation in pairs: the players of each side
    start_position: Position = field(default_factory=Position.start)
    practice_turn: Side | None = None  # a practice position's player on roll
    practice_key: MatchKey | None = None  # a practice position's match (cube, score, length)

    @classmethod
    def of(cls, event: ev.NewSession) -> Setup:
        """The setup a `session` event says: its config read (the table's own keys taken
        out before the rules read theirs), and its practice position and match."""
        config = dict(event.config)
        if problem := club_problem(config, event.match_id):
            raise SessionSettingsError(problem)
        lenient = bool(config.pop("lenient", False))
        chouette = ChouetteSettings.from_config(config.pop("chouette")) if "chouette" in config else None
        sides = _sides(OPPONENT_SIDES, "opponent_side", config.pop("opponent_side", "black"))
        # In a chouette the computer's players are named (`ChouetteSettings.computers`):
        # `opponent` gives only its strength, which the shell's advisor reads.
        computers = sides if config.pop("opponent", None) and chouette is None else frozenset()
        remotes = _sides(REMOTE_SIDES, "remote", config.pop("remote")) if "remote" in config else frozenset()
        coach = config.pop("coach", None)
        pairs = Pairs.from_config(config.pop("pairs")) if "pairs" in config else None
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
        return cls(dict(event.config), settings, session, lenient, computers, remotes, coach, chouette, pairs,
                   start, turn, key)


def club_problem(config: Mapping[str, Any], match_id_text: str | None = None) -> str | None:
    """What a session config asks of club play that cannot be (a chouette or pairs with
    what they do not go with), or None.  A chouette is money play at one board: no match
    (nor a practice position's Match ID of one), no other board, no pairs; the computer
    plays the players it names (``chouette.computers``), `opponent` giving its strength."""
    clashes = [key for key in ("match", "opponent_side", "remote", "pairs") if key in config]
    if "chouette" in config and clashes:
        return f"chouette: a chouette is money play at one board: not with {clashes[0]}"
    if "chouette" in config and match_id_text and decode_match_id(match_id_text).match_length:
        return "chouette: a chouette is money play: its position's Match ID is of a match"
    chouette = config.get("chouette")
    if config.get("opponent") and isinstance(chouette, Mapping) and not chouette.get("computers"):
        return ("chouette: opponent gives the computer's strength in a chouette: name the players it plays "
                "in chouette.computers")
    if "pairs" in config and ("remote" in config or "opponent" in config):
        return "pairs: two pairs play at one board: not with " + ("remote" if "remote" in config else "opponent")
    return None


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
    left: Position | None = None  # where the last game left the checkers, until the next game starts
    guessed: bool = False  # a reading was chosen among several this game: counts may hide a wrong one
    choosing: int | None = None  # the match length shown by the session chooser (0: money)
    chooser_from: Phase = Phase.SETUP  # the phase the chooser goes back to
    resigner: Side | None = None  # who chooses what to resign (phase resigning)
    resigning: ResultKind = ResultKind.SINGLE  # what the resigner offers (phase resigning)
    resignation: ev.ResignOffered | None = None  # the offer awaiting its answer (phase resigned)
    resign_from: Phase = Phase.ROLL  # the phase a withdrawn or declined resignation goes back to
    declined: ev.ResignOffered | None = None  # the last offer declined this game (the computer's not again)
    claimer: Side | None = None  # who held turn to claim the game the other board abandoned: turn again claims
    chouette: Seating | None = None  # a chouette's line, seats and sheet (`bgpi.table.seating`)

    @classmethod
    def begin(cls, sensing: Sensing, event: ev.NewSession) -> TableState:
        """The state a `session` event starts: nothing of an earlier session carries over.
        A chouette begins with its roll-off."""
        setup = Setup.of(event)
        if setup.chouette is None:
            return cls(sensing, setup, setup.session, setup.start_position)
        return cls(sensing, setup, setup.session, setup.start_position, Phase.ROLL_OFF,
                   chouette=Seating.begin(setup.chouette))

    @property
    def turn(self) -> Side | None:
        return self.game.turn if self.game is not None else None

    @property
    def computers(self) -> frozenset[Side]:
        """The sides whose rolls and checker play the engine makes now: the session's in a
        game of two; in a chouette the box's colour while the computer is the box, and the
        team's while it is the captain."""
        return self.setup.computers if self.chouette is None else self.chouette.computer_sides()

    @property
    def elsewhere(self) -> frozenset[Side]:
        """The sides not played with this board's buttons now: the computer's and the other board's."""
        return self.computers | self.setup.remotes

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

    def advice_request(self, question: Question, purpose: Purpose, player: Side | None = None,
                       seat: str | None = None) -> AdviceRequest:
        """A request for the engine, in the IDs of the player on roll, for `player` (by
        default who decides: the player on roll, the taker when doubled).  In a chouette
        the Match ID holds `seat`'s cube (by default the captain's): each seat's game is a
        money game of its own."""
        dice = (0, 0)
        if question == Question.PLAYS and self.dice is not None:
            dice = (self.dice.first, self.dice.second)
        settings, game = self.setup.settings, self.current_game()
        seats = self.chouette.seats if self.chouette is not None else None
        if seats is not None:
            seat = seat or seats.captain
            game = seats.game_of(game, seat)
        decider = self.asked() if player is None else player
        return AdviceRequest(question, purpose, decider, position_id(self.position, self.current_turn()),
                             match_id(game.match_key(dice)), settings.jacoby, settings.beavers, seat=seat)

    def coach_request(self) -> AdviceRequest | None:
        """The coach's question about the play being committed (None when not coaching
        this player): the roll's best play and what the play made loses against it."""
        if self.setup.coach is None or self.turn in self.elsewhere:
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
            case ev.Opening(white=white, black=black, cube=cube):
                self.game = self.current_game().opening(white, black)
                self.wants_roll = None
                if self.chouette is not None:
                    self.chouette.opened(cube)
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
            case ev.Claimed():
                self.phase, self.wants_roll, self.claimer = Phase.OVER, None, None
            case ev.GameOver():
                self._game_ended(event)
            case ev.Hint() | ev.CubeHint() | ev.ComputerPlay() | ev.RemotePlay():
                self._hinted(event)
            case ev.Coach():
                self.advice.coached = event
            case ev.ComputerStopped() | ev.ComputerCube():
                self._computer_event(event)
            case ev.HintOff():
                self.advice.hint = None
                self.advice.hint_failed = None
                if self.moving is not None:
                    self.moving.hinted = None
            case (ev.RollOff() | ev.Line() | ev.Captain() | ev.ChouetteOver() | ev.SeatDouble() | ev.SeatTake()
                  | ev.SeatDrop() | ev.SeatBeaver() | ev.SeatResignOffered() | ev.SeatResignAccepted()
                  | ev.SeatResignDeclined()):
                self._chouette_event(event)

    def _computer_event(self, event: ev.ComputerStopped | ev.ComputerCube) -> None:
        """The computer stopped (its side, or in a chouette all its players, played by hand
        from now on), or decided on a chouette seat's cube (asked no more this turn)."""
        match event:
            case ev.ComputerStopped(player=player):
                self.setup = replace(self.setup, computers=self.setup.computers - {player})
                if self.chouette is not None:
                    self.chouette.computers = frozenset()  # one engine plays them all
                self.advice.failed, self.advice.failures = None, 0
            case ev.ComputerCube(seat=seat, decision=decision) if seat is not None and self.chouette is not None:
                self.chouette.decided[seat] = decision

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
        self.last_result = self.left = None
        self.guessed = False
        if self.practice_turn is None:
            self.phase = Phase.OPENING
            self.game = self.session.new_game()
            self.wants_roll = RollFor.OPENING
        else:
            self.game = self.practice_game()
            self.phase = Phase.ROLL
        if self.chouette is not None:
            self.chouette.begin_game(self.game)

    def _rolled(self, dice: Dice) -> None:
        self.dice = dice
        self.moving = Moving.of(self.position, self.current_turn(), dice, self.sensing)
        self.phase = Phase.MOVE

    def _played(self, event: ev.Play) -> None:
        self.position = position_from_id(event.position_id, event.player.opponent)
        if self.chouette is not None:
            self.chouette.decided.clear()  # the computer's cube decisions were this turn's
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
        self.left = self.position
        self.game = None
        self.dice = None
        self.position = self.start_position()
        self.phase = Phase.MATCH_OVER if self.session.is_over else Phase.SETUP

    # -- a chouette (`bgpi.table.seating`) --------------------------------------------------

    def current_chouette(self) -> Seating:
        """The chouette of this session.  Raises NoGameError in a session that is none."""
        if self.chouette is None:
            raise NoGameError("this session is not a chouette")
        return self.chouette

    def _chouette_event(self, event: ev.Event) -> None:
        match event:
            case ev.RollOff() | ev.Line() | ev.Captain() | ev.ChouetteOver():
                self._chouette_line(event)
            case ev.SeatDouble() | ev.SeatTake() | ev.SeatDrop() | ev.SeatBeaver():
                self._seat_cube(event)
            case ev.SeatResignOffered() | ev.SeatResignAccepted() | ev.SeatResignDeclined():
                self._seat_resignation(event)

    def _chouette_line(self, event: ev.RollOff | ev.Line | ev.Captain | ev.ChouetteOver) -> None:
        chouette = self.current_chouette()
        match event:
            case ev.RollOff(players=players, dice=dice):
                roll_off = chouette.roll_off or RollOff.of(chouette.settings.players)
                chouette.roll_off = roll_off.rolled(players, dice)
                self.wants_roll = RollFor.ROLL_OFF if chouette.roll_off.under_way else None
            case ev.Line(line=line):
                chouette.seat_line(line)
                if self.phase == Phase.ROLL_OFF:
                    chouette.roll_off, self.phase = None, Phase.SETUP
            case ev.Captain(player=player):
                seats = chouette.current_seats()
                seats.seat(player)  # one of the team
                chouette.seats = replace(seats, captain=player)
            case ev.ChouetteOver():
                if event.captain not in event.points or event.box not in event.points:
                    raise ChouetteError(f"a game's end without the box's or the captain's result: {event.points}")
                chouette.totals = dict(event.totals)
                chouette.last, chouette.seats, chouette.rotation_due = event, None, True
                chouette.shown = list(event.points).index(event.captain)  # whose result decides the rotation
                chouette.resignation, chouette.walk, chouette.drop_asked = None, None, None
                self.session = replace(self.session, games=self.session.games + 1)
                self.game = self.dice = self.moving = None
                self.position = self.start_position()
                self.phase = Phase.RESULTS

    def _seat_cube(self, event: ev.SeatDouble | ev.SeatTake | ev.SeatDrop | ev.SeatBeaver) -> None:
        chouette, game = self.current_chouette(), self.current_game()
        seats = chouette.current_seats()
        match event:
            case ev.SeatDouble(player=player, seat=seat):
                chouette.seats = seats.double(game, player, seat)
                self.phase = Phase.SEAT_DOUBLED
            case ev.SeatBeaver(seat=seat):
                chouette.seats = seats.beaver(game, seat)
            case ev.SeatTake(seat=seat):
                chouette.seats = seats.take(game, seat)
            case ev.SeatDrop(seat=seat):
                chouette.seats = seats.drop(game, seat)
        chouette.drop_asked = None
        if chouette.current_seats().asked() is None:
            self.phase = Phase.OVER if chouette.current_seats().over else Phase.ROLL

    def _seat_resignation(
            self, event: ev.SeatResignOffered | ev.SeatResignAccepted | ev.SeatResignDeclined) -> None:
        chouette = self.current_chouette()
        if isinstance(event, ev.SeatResignOffered):
            if self.phase not in (Phase.RESIGNING, Phase.SEATS):  # read back from the journal
                self.resign_from = Phase.MOVE if self.phase == Phase.CHOOSE else self.phase
            chouette.resignation, chouette.answered, chouette.walk = event, (), None
            self.phase = Phase.SEAT_RESIGNED
            return
        offer = chouette.resignation
        if offer is None or event.seat not in offer.seats or event.seat in chouette.answered:
            raise NoGameError(f"no resignation awaits {event.seat}'s answer")
        if isinstance(event, ev.SeatResignAccepted):
            chouette.seats = chouette.current_seats().resigned(event.seat, offer.player, offer.result)
        chouette.answered = (*chouette.answered, event.seat)
        if set(chouette.answered) == set(offer.seats):
            chouette.resignation, chouette.answered, self.resigner = None, (), None
            self.phase = Phase.OVER if chouette.current_seats().over else self.resign_from

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
