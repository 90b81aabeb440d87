"""A chouette at the table: the roll-off, every seat's cube, resignations, the results
and the line (docs/chouette.md; the card is hardware/legend.md).

The box plays one colour with its two buttons, the team the other colour with the other
two, whoever of the team presses them.  No single press doubles, drops or ends anything:

- *roll-off*: either *turn* rolls a die for each player still to place, two a roll
  (``roll_off``); players who tie roll again with the next press; the line follows
  (``line``).
- *doubles*: before rolling, the side on roll presses *cube* to choose seats, one after
  the other in line order (each chair blinks in turn, the dice show the cube it would
  turn to): *turn* yes, *cube* no, a held *turn* yes to this seat and every one after, a
  held *cube* back with nothing offered.  Once every seat is asked the doubles are offered
  (``seat_double``, one a seat).
- *answers*: each double is answered on its own, in line order: by the box with its
  buttons, or by each seat of the team with the team's: *turn* takes, *cube* twice drops
  (the first press asks, as in a game of two), a held *cube* beavers where beavers are on.
  A seat that drops is settled; when the captain is out, the next in line still in is
  captain (``captain``); when every seat is out, the game is over.
- *resigning*: a held *cube* chooses what to resign (as in a game of two); the box offers
  it to every seat still in, each answering with the team's *turn* (accept) or *cube*
  (decline); the captain first chooses the seats that join (as the doubles are chosen),
  and the box answers for all of them at once.
- *results*: when the game is over every seat's result is shown (``chouette_over``), and
  the next line (``line``, by the captain's own result); *cube* shows the next player's,
  *turn* goes on to set up the board, and the line is lit to confirm with the opening roll.

A press that is not the chouette's to take now (the other side's, a double no seat may
make, a decision of a player the computer plays) is refused in words (``rejected``) and on
the lights: the presser's bar half, and the chairs concerned, blink red until the next
press.  Between games a latecomer joins at the end of the line and a player may leave
(`Join`, `Leave`: the page and scripts name them).

The computer's players (`bgpi.table.chouette_computer`) decide through the same steps:
`offer_doubles`, `answer_double` and `answer_resignation` are theirs as much as the buttons'.
"""

from __future__ import annotations

from bgpi.board.locations import bar
from bgpi.exc import ChouetteError
from bgpi.rules.chouette import LineChange, box_shares, join, leave, rotate
from bgpi.rules.position import Side
from bgpi.rules.result import GameResult, ResultKind
from bgpi.rules.seats import SeatEnd, Seats
from bgpi.table import events as ev
from bgpi.table.events import Emit
from bgpi.table.phases import CubeWord, Phase, RollFor
from bgpi.table.requests import Purpose
from bgpi.table.resigning import Resigning
from bgpi.table.seating import Seating, Walk, WalkFor
from bgpi.table.state import Board, TableState

DROP_CONFIRM = 3.0
"""Seconds of board time in which a second press of *cube* confirms a drop (as `bgpi.table.doubling`)."""

BETWEEN_GAMES = (Phase.SETUP, Phase.RESULTS)
"""The phases in which a player may join or leave."""

LEADING = (Phase.ROLL, Phase.MOVE, Phase.CHOOSE, Phase.RESIGNING)
"""The phases in which a side's presses are its leader's (the box, the captain): rolling,
moving, resigning.  The crew may still double, and the team roll, before the team's roll."""


class Chouette:
    """The part of the table that runs a chouette.

    Reads the game, its seats and board time; changes the chouette's choices in progress
    (`Seating.walk`, `drop_asked`, `shown`, `refused`) and the phase into and out of
    choosing seats and showing results; emits the chouette's events, and asks for the
    roll-off's dice (`state.wants_roll`)."""

    def __init__(self, state: TableState, board: Board, emit: Emit, resigning: Resigning) -> None:
        self.state, self.board, self.emit, self.resigning = state, board, emit, resigning

    @property
    def seating(self) -> Seating:
        return self.state.current_chouette()

    # -- names ---------------------------------------------------------------------------

    def who(self, side: Side) -> str:
        """The side as the players know it: "the box (Ann)" or "the team"."""
        return f"the box ({self.seating.roles.box})" if side is self.seating.box_side else "the team"

    def refuse(self, side: Side | None, reason: str, seats: tuple[str, ...] = ()) -> None:
        """A press refused: in words, and on the lights (the presser's bar half, the chairs
        of `seats`) until the next press."""
        chairs = self.seating.chairs
        points = ((bar(side),) if side is not None else ()) + tuple(chairs[seat] for seat in seats if seat in chairs)
        self.seating.refused = refused = ev.Rejected(side, reason, points)
        self.emit(refused)

    # -- presses ---------------------------------------------------------------------------

    def pressed(self, side: Side, kind: str, long: bool) -> bool:
        """A press in a chouette; False when it is the table's own to take (rolling, moving,
        opening a resignation, starting the game)."""
        self.seating.refused = None
        phase = self.state.phase
        if (reason := self._computers_press(side, kind, long)) is not None:
            self.refuse(side, reason)
        elif phase == Phase.ROLL_OFF:
            self._roll_off_pressed(side, kind)
        elif phase == Phase.SEATS:
            self._walk_pressed(side, kind, long)
        elif phase == Phase.SEAT_DOUBLED:
            self._answer(side, kind, long)
        elif phase == Phase.RESIGNING:
            self.resigning.choosing(side, kind, long, offer=self._resign)
        elif phase == Phase.SEAT_RESIGNED:
            self._resign_answer(side, kind)
        elif phase == Phase.RESULTS:
            self._results_pressed(kind)
        elif phase == Phase.SETUP and kind == "cube" and self.state.practice_turn is not side:
            self.refuse(side, "a chouette has no session chooser: its players and options are its session's")
        else:
            return False
        return True

    def _computers_press(self, side: Side, kind: str, long: bool) -> str | None:
        """Why `side`'s press is not a person's to make now: the decision is of a player the
        computer plays (or the computer is still deciding before its side rolls); None if it is."""
        state, seating = self.state, self.seating
        if not seating.computers or state.game is None or state.game.turn is None:
            return None
        decider = self._decider(side, kind, long)
        if decider is None or decider not in seating.computers:
            wants = state.advice.wants
            if state.phase == Phase.ROLL and side is state.game.turn and wants is not None \
                    and wants.purpose is Purpose.COMPUTER:
                return f"the computer decides on {wants.seat}'s cube first"
            return None
        if decider == seating.roles.box:
            return f"{decider} is the box and the computer plays it: the box's buttons are its own"
        if decider == seating.captain and state.phase in LEADING:
            return f"{decider} is the captain and the computer plays it: it rolls, moves and resigns for the team"
        return f"{decider} (the computer) answers for itself"

    def _decider(self, side: Side, kind: str, long: bool) -> str | None:
        """Whose decision a press of `side` would make now, if one player's: the box's or
        the captain's (rolling, moving, resigning: any of the crew may double and roll
        before the team's roll), the answer to a double or to a resignation."""
        state, seating = self.state, self.seating
        phase, seats = state.phase, seating.current_seats()
        if phase in LEADING:
            if side is seating.box_side:
                return seating.roles.box
            crew_may = phase == Phase.ROLL and not (kind == "cube" and long)
            return None if crew_may else seats.captain
        if phase == Phase.SEAT_DOUBLED and side is seats.answerer():
            return seating.roles.box if side is seating.box_side else seats.asked()
        if phase == Phase.SEAT_RESIGNED and seating.resignation is not None \
                and side is seating.resignation.player.opponent:
            return seating.roles.box if side is seating.box_side else seating.to_answer()
        return None

    def hint_refused(self) -> bool:
        """Whether *hint* is refused now: a chouette's hints show plays only (the cube
        decisions are each seat's own, and not discussed)."""
        if self.state.phase == Phase.MOVE:
            return False
        self.refuse(None, "no hint now: in a chouette the hint shows the best play of a roll, not cube decisions")
        return True

    # -- the roll-off and the line ---------------------------------------------------------

    def _roll_off_pressed(self, side: Side, kind: str) -> None:
        if kind != "turn":
            self.refuse(side, "the roll-off first: either turn button rolls it")
        elif self.state.wants_roll is None:
            self.state.wants_roll = RollFor.ROLL_OFF

    def rolled_off(self, first: int, second: int) -> None:
        """The dice of the roll-off: the first die is the next player's to roll, the second
        the one's after (if any); the line once everyone is placed."""
        seating = self.seating
        roll_off = seating.roll_off
        if roll_off is None:
            return
        players = roll_off.to_roll()[:2]
        self.emit(ev.RollOff(players, (first, second)[:len(players)]))
        placed = self.seating.roll_off
        if placed is not None and placed.done:
            self.emit(ev.Line(placed.line(), LineChange.ROLL_OFF))

    def seat(self, player: str, joins: bool) -> None:
        """A latecomer joins at the end of the line (`joins`), or a player leaves: between
        games only, within the chouette's 3 to 7 players."""
        doing = "joins" if joins else "leaves"
        if self.state.phase == Phase.ROLL_OFF:
            self.refuse(None, f"{player} {doing} once the roll-off has placed everyone")
            return
        if self.state.phase not in BETWEEN_GAMES:
            self.refuse(None, f"{player} {doing} between games: wait for this game's end")
            return
        try:
            line = (join if joins else leave)(self.seating.line, player)
        except ChouetteError as refusal:
            self.refuse(None, str(refusal))
            return
        if not self.seating.people(line):
            self.refuse(None, f"{player} is the last person at the board: the computer's players cannot play alone")
            return
        self.emit(ev.Line(line, LineChange.JOINED if joins else LineChange.LEFT, player))

    # -- choosing seats --------------------------------------------------------------------

    def open_doubles(self, side: Side) -> None:
        """`side`, on roll, pressed *cube*: choose whose cubes are doubled, if any may be."""
        state, seating = self.state, self.seating
        seats, game = seating.current_seats(), state.current_game()
        able = seating.people_doubling(seats, game, side)
        if not able:
            reasons = [f"{player}: {self._why_not_double(side, player)}" for player in seats.in_game]
            shared = {reason.partition(": ")[2] for reason in reasons}
            why = shared.pop() if len(shared) == 1 else "; ".join(reasons)
            self.refuse(side, f"{self.who(side)} may not double now: {why}", seats.in_game)
            return
        self.seating.walk = Walk(side, WalkFor.DOUBLE, able, state.phase)
        state.phase = Phase.SEATS

    def _why_not_double(self, side: Side, player: str) -> str | None:
        seating = self.seating
        reason = seating.current_seats().why_not_double(self.state.current_game(), side, player)
        if reason is None and side is not seating.box_side and player in seating.computers:
            return f"{player} is the computer's, and decides on its own cube"
        return reason

    def _walk_pressed(self, side: Side, kind: str, long: bool) -> None:
        walk = self.seating.walk
        if walk is None:
            return
        if side is not walk.side:
            doing = "doubles" if walk.purpose is WalkFor.DOUBLE else "resigns"
            self.refuse(side, f"{self.who(walk.side)} chooses who {doing}: {side.label}'s buttons wait")
            return
        if kind == "cube" and long:
            self.seating.walk, self.state.phase = None, walk.back_to
            return
        if kind == "turn":
            chosen = walk.seats[walk.at:] if long else (walk.current,)
            walk.marked, walk.at = (*walk.marked, *chosen), walk.at + len(chosen)
        else:
            walk.at += 1
        if walk.at >= len(walk.seats):
            self._walked(walk)

    def _walked(self, walk: Walk) -> None:
        """Every seat was asked: offer what was chosen, or go back with nothing."""
        if not walk.marked:
            self.seating.walk, self.state.phase = None, walk.back_to
            return
        if walk.purpose is WalkFor.RESIGN:
            self.emit(ev.SeatResignOffered(walk.side, walk.marked, walk.result))
            return
        self.offer_doubles(walk.side, walk.marked)

    def offer_doubles(self, side: Side, players: tuple[str, ...]) -> None:
        """`side` doubles the cubes of `players`, offered together."""
        seats = self.seating.current_seats()
        for player in players:
            self.emit(ev.SeatDouble(side, player, seats.seat(player).cube.value * 2))  # as offered
        self.seating.walk = None

    # -- answering doubles --------------------------------------------------------------

    def _answer(self, side: Side, kind: str, long: bool) -> None:
        """A press while the double on the asked seat's cube awaits its answer."""
        seating = self.seating
        seats = seating.current_seats()
        player, taker = seats.asked(), seats.answerer()
        if player is None or taker is None:
            return
        if side is not taker:
            self.refuse(side, f"{self.who(taker)} answers the double on {player}'s cube: "
                              f"{side.label}'s buttons wait", (player,))
        elif kind == "turn" and seating.drop_asked is not None:
            self._keep_question(side)
        elif kind == "turn":
            self._take(side, player)
        elif long:
            reason = seats.why_not_beaver(self.state.current_game(), player)
            if reason is not None:
                self.refuse(side, reason, (player,))
                return
            self._beaver(side, player)
        elif seating.drop_asked is None:
            reason = self._why_not_drop(side, player)
            if reason is not None:
                self.refuse(side, reason, (player,))
                return
            seating.drop_asked = self.board.now
            self.emit(ev.DropAsked(side, f"press {side.label}.cube again to drop the double on {player}'s cube, "
                                         f"{side.label}.turn to go back"))
        else:
            self._drop(side, player)

    def answer_double(self, side: Side, player: str, word: CubeWord) -> None:
        """`side` answers the double on `player`'s cube as `word` says (the computer's
        answer): a beaver or a drop the rules do not allow here is a take."""
        seats = self.seating.current_seats()
        if word is CubeWord.BEAVER and seats.why_not_beaver(self.state.current_game(), player) is None:
            self._beaver(side, player)
        elif word is CubeWord.DROP and self._why_not_drop(side, player) is None:
            self._drop(side, player)
        else:
            self._take(side, player)

    def _why_not_drop(self, side: Side, player: str) -> str | None:
        seating = self.seating
        return seating.current_seats().why_not_drop(player) if side is seating.box_side else None

    def _take(self, side: Side, player: str) -> None:
        self.emit(ev.SeatTake(side, player, self.seating.current_seats().seat(player).cube.offered_value))
        self._round_done()

    def _drop(self, side: Side, player: str) -> None:
        self.emit(ev.SeatDrop(side, player, self.seating.current_seats().seat(player).cube.value))
        self._round_done()

    def _beaver(self, side: Side, player: str) -> None:
        beavered = self.seating.current_seats().beaver(self.state.current_game(), player)
        self.emit(ev.SeatBeaver(side, player, beavered.seat(player).cube.offered_value))

    def _keep_question(self, side: Side) -> None:
        """The drop was not confirmed: back to take or drop."""
        self.seating.drop_asked = None
        self.emit(ev.DropCancelled(side))

    def check_drop_time(self) -> None:
        """Board time went on: a drop not confirmed in time goes back to the question."""
        seating = self.seating
        asked, taker = seating.drop_asked, seating.seats.answerer() if seating.seats else None
        if asked is not None and taker is not None and self.board.now - asked + 1e-9 >= DROP_CONFIRM:
            self._keep_question(taker)

    def deadlines(self) -> list[float]:
        asked = self.seating.drop_asked
        return [] if asked is None else [asked + DROP_CONFIRM]

    def _round_done(self) -> None:
        """After an answer: once no double is on offer, who is captain, or the game's end."""
        if self.seating.current_seats().asked() is None:
            self.settled()

    def settled(self) -> None:
        """Seats were settled: the next captain when the captain is out, or the game's end
        when every seat is.  Also what a journal cut short between the two still owes."""
        seats = self.seating.current_seats()
        if seats.over:
            self.finish()
        elif (captain := seats.next_captain()) is not None:
            self.emit(ev.Captain(captain))

    # -- resignations ----------------------------------------------------------------------

    def _resign(self, side: Side, kind: ResultKind) -> None:
        """What to resign is chosen: the box offers it to every seat still in; the captain
        first chooses the seats that join."""
        seats = self.seating.current_seats()
        if side is self.seating.box_side:
            self.emit(ev.SeatResignOffered(side, seats.in_game, kind))
            return
        # The computer's seats play on: they join no resignation of the captain's.
        self.seating.walk = Walk(side, WalkFor.RESIGN, self.seating.people(seats.in_game), self.state.resign_from,
                                 kind)
        self.state.phase = Phase.SEATS

    def _resign_answer(self, side: Side, kind: str) -> None:
        """A press while a resignation awaits its answers: *turn* accepts, *cube* declines."""
        seating = self.seating
        offer = seating.resignation
        if offer is None:
            return
        answering = offer.player.opponent
        if side is not answering:
            self.refuse(side, f"{self.who(answering)} answers the resignation: {side.label}'s buttons wait")
            return
        self.answer_resignation(side, accepts=kind == "turn")

    def answering_resignation(self) -> tuple[str, ...]:
        """The seats the next answer to the resignation on offer is for: the next of the
        box's offer in line, or every seat of the captain's (the box answers once)."""
        seating = self.seating
        seat = seating.to_answer()
        if seat is not None:
            return (seat,)
        return seating.resignation.seats if seating.resignation is not None else ()

    def answer_resignation(self, side: Side, accepts: bool) -> None:
        """`side` accepts or declines the resignation on offer for the seats it answers now."""
        for player in self.answering_resignation():
            self.emit(ev.SeatResignAccepted(side, player) if accepts else ev.SeatResignDeclined(side, player))
        if self.seating.resignation is None:  # every seat offered has answered
            self.settled()

    # -- the end of a game -------------------------------------------------------------------

    def played_out(self, _result: GameResult) -> None:
        """The last checker is off (the table's end of a game, in a chouette): each seat
        scores itself on its own cube."""
        self.finish()

    def finish(self) -> None:
        """The game is over: every seat's result, the sheet, and the next line."""
        state, seating = self.state, self.seating
        seats, played = seating.current_seats(), None
        if state.position.winner() is not None:
            seats, played = seats.played_out(state.current_game(), state.position), ResultKind.of(state.position)
        self.emit(_game_over(seating, seats, played))
        self._rotate()

    def _rotate(self) -> None:
        """The next game's line, by the captain's own result in the game just over."""
        over = self.seating.last
        assert over is not None
        self.emit(ev.Line(rotate(self.seating.line, over.points[over.captain] > 0), LineChange.ROTATION))

    def _results_pressed(self, kind: str) -> None:
        seating = self.seating
        if kind == "cube" and seating.last is not None:
            seating.shown = (seating.shown + 1) % len(seating.last.points)
        elif kind == "turn":
            self.state.phase = Phase.SETUP

    def owed(self) -> None:
        """What a journal cut short at the end of the roll-off, a cube round, a resignation or
        a game still owes (the line, the captain's successor, the game's end): emitted now."""
        seating = self.seating
        if seating.roll_off is not None and seating.roll_off.done:
            self.emit(ev.Line(seating.roll_off.line(), LineChange.ROLL_OFF))
        if seating.rotation_due:
            self._rotate()
        seats = seating.seats
        if seats is None:
            return
        if self.state.phase == Phase.OVER:
            self.finish()  # played out, or every seat settled
        elif seats.asked() is None and seating.resignation is None and (captain := seats.next_captain()):
            self.emit(ev.Captain(captain))


def _game_over(seating: Seating, seats: Seats, played: ResultKind | None) -> ev.ChouetteOver:
    """The ``chouette_over`` of a game whose seats are all settled."""
    roles = seating.roles
    points = seats.points()
    box, partner = box_shares(-sum(points.values()), roles.partner is not None)
    everyone = {roles.box: box, **({roles.partner: partner} if roles.partner is not None else {}), **points}
    totals = dict(seating.totals)
    for player, won in everyone.items():
        totals[player] = totals.get(player, 0) + won
    results = {seat.player: seat.result for seat in seats if seat.result is not None}
    return ev.ChouetteOver(
        roles.box, seats.seats[0].player, {player: result.cube for player, result in results.items()},
        {player: result.kind for player, result in results.items()},
        {player: SeatEnd.of(result) for player, result in results.items()}, everyone, totals, roles.partner, played)

