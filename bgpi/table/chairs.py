"""A chouette on the lights: every player's chair, and what the board asks of whom.

Each player has a chair, a number from 1 to 12 kept for the whole session (the players'
order in the settings; a latecomer takes the lowest free one), shown on the point of
that number.  Whenever the board is not being set up or played on, the chairs say who
is who: the box's chair is lit magenta (its partner's dim magenta), each seat of the
team shows its cube (centred dim white, the seat's green, the box's amber, out of the
game dim red), and the captain's chair blinks slowly.  During a cube round the chair
asked blinks fast and the dice show the cube's value; at the game's end each chair
shows won (green) or lost (red) and the dice show the result of the chair that blinks.
While the computer decides for one of its players (`bgpi.table.chouette_computer`) the
board asks nobody: the prompt is ``computer_turn``, its side's turn light breathes blue
and the chair of the seat in question blinks.
The colours are `bgpi.table.lights`' (`LOOKS`); the card is hardware/legend.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bgpi.board.locations import Location
from bgpi.rules.position import Side
from bgpi.rules.seats import Seats
from bgpi.table.lights import Prompt, both_buttons, own_buttons
from bgpi.table.phases import Phase
from bgpi.table.requests import Purpose
from bgpi.table.seating import Seating, WalkFor
from bgpi.table.state import TableState

Roles = dict[Location, str]

SHOWN_IN = (Phase.ROLL_OFF, Phase.SETUP, Phase.ROLL, Phase.SEATS, Phase.SEAT_DOUBLED, Phase.RESIGNING,
            Phase.SEAT_RESIGNED, Phase.RESULTS)
"""The phases in which the chairs are lit (in setup, once the board is set)."""


@dataclass(frozen=True, slots=True)
class Chairs:
    """What the chairs show: a role each, the chairs asked (blinking fast) and the captain's."""

    roles: Roles
    asked: frozenset[Location] = frozenset()
    captain: Location | None = None


class ChairsView:
    """The chouette's part of what the board shows.  Reads the state; changes nothing."""

    def __init__(self, state: TableState) -> None:
        self.state = state

    @property
    def seating(self) -> Seating:
        return self.state.current_chouette()

    # -- the lights ---------------------------------------------------------------------

    def chairs(self, set_up: bool) -> Chairs | None:
        """What the chairs show now; None while they are dark (the board being set up,
        checkers being moved, a mismatch: the points are needed for that)."""
        state, seating = self.state, self.seating
        phase = state.phase
        if phase not in SHOWN_IN or (phase == Phase.SETUP and not set_up) or state.trouble.mismatch is not None:
            return None
        chairs = seating.chairs
        if phase == Phase.RESULTS:
            return self._results()
        if phase == Phase.ROLL_OFF:
            roll_off = seating.roll_off
            to_roll = roll_off.to_roll() if roll_off is not None else ()
            return Chairs({chairs[player]: "centred" for player in to_roll},
                          frozenset(chairs[player] for player in to_roll[:2]))
        roles = self._line_roles()
        asked = frozenset(chairs[player] for player in self._asked())
        if seating.refused is not None:
            roles.update(dict.fromkeys(seating.refused.points, "rejected"))
        return Chairs(roles, asked & roles.keys(), chairs[seating.captain])

    def _line_roles(self) -> Roles:
        seating = self.seating
        chairs, line = seating.chairs, seating.roles
        roles: Roles = {chairs[line.box]: "box"}
        if line.partner is not None:
            roles[chairs[line.partner]] = "partner"
        seats = seating.seats
        for player in [seat.player for seat in seats] if seats is not None else line.team:
            roles[chairs[player]] = self._seat_role(seats, player)
        return roles

    def _seat_role(self, seats: Seats | None, player: str) -> str:
        if seats is None:
            return "centred"
        seat = seats.seat(player)
        walk = self.seating.walk
        if seat.out:
            return "out"
        if walk is not None and player in walk.marked:
            return "marked"
        if seat.cube.owner is None:
            return "centred"
        return "seat_cube" if seat.cube.owner is seats.team_side else "box_cube"

    def _asked(self) -> tuple[str, ...]:
        """Whose chairs blink for the question now."""
        seating, phase = self.seating, self.state.phase
        seats = seating.seats
        wants = self.state.advice.wants
        if wants is not None and wants.purpose is Purpose.COMPUTER and wants.seat is not None and phase == Phase.ROLL:
            return (wants.seat,)  # the computer decides on this seat's cube
        if phase == Phase.SEATS and seating.walk is not None:
            return (seating.walk.current,)
        if phase == Phase.SEAT_DOUBLED and seats is not None and (player := seats.asked()) is not None:
            return (player,)
        if phase == Phase.SEAT_RESIGNED and seating.resignation is not None:
            seat = seating.to_answer()
            return (seat,) if seat is not None else seating.resignation.seats
        return ()

    def _results(self) -> Chairs:
        seating = self.seating
        last, chairs = seating.last, seating.chairs
        if last is None:
            return Chairs({})
        roles: Roles = {}
        for player, points in last.points.items():
            if player not in chairs:
                continue  # left since
            still = "box" if player == last.box else "partner" if player == last.partner else "centred"
            roles[chairs[player]] = "won" if points > 0 else "lost" if points < 0 else still
        shown = list(last.points)[seating.shown]
        return Chairs(roles, frozenset({chairs[shown]} if shown in chairs else ()))

    # -- what the board asks ----------------------------------------------------------------

    def prompt(self, set_up: bool) -> Prompt | None:
        """What the chouette asks now; None where the table's own prompt says it (moving,
        choosing a reading, a mismatch) or nobody is asked."""
        state = self.state
        phase = state.phase
        if state.trouble.mismatch is not None:
            return None
        if phase == Phase.ROLL_OFF:
            return Prompt("roll_off", None, both_buttons("turn", "roll the roll-off"))
        if phase == Phase.SETUP:
            return self._setup_prompt(set_up)
        if (computer := self._computer_prompt()) is not None:
            return computer
        if phase == Phase.ROLL:
            return self.roll_prompt(state.current_turn())
        if phase == Phase.SEATS:
            return self._seats_prompt()
        if phase == Phase.SEAT_DOUBLED:
            return self._doubled_prompt()
        if phase == Phase.RESIGNING:
            resigner = state.current_turn() if state.resigner is None else state.resigner
            answers = own_buttons(resigner, cube="single, gammon, backgammon", turn="offer")
            return Prompt("resigning", resigner, {**answers, f"hold {resigner.label}.cube": "back"},
                          number=state.resigning.multiplier)
        if phase == Phase.SEAT_RESIGNED:
            return self._resigned_prompt()
        if phase == Phase.RESULTS:
            return self._results_prompt()
        return None

    def _computer_prompt(self) -> Prompt | None:
        """``computer_turn`` while the computer decides for one of its players and no person
        is asked (the dice show the cube in question); None otherwise."""
        state, seating = self.state, self.seating
        seats, game = seating.seats, state.game
        if not seating.computers or seats is None or game is None or game.turn is None:
            return None
        wants = state.advice.wants
        deciding = wants is not None and wants.purpose is Purpose.COMPUTER
        if state.phase == Phase.ROLL:
            rolling = game.turn in state.computers and not seating.people_doubling(seats, game, game.turn)
            if deciding or rolling:
                cube = seats.seat(wants.seat).cube.value * 2 if wants is not None and wants.seat else None
                return Prompt("computer_turn", game.turn, {}, number=cube if deciding else None)
        elif state.phase == Phase.SEAT_DOUBLED and deciding and (player := seats.asked()) is not None:
            return Prompt("computer_turn", seats.answerer(), {}, number=seats.seat(player).cube.offered_value)
        elif state.phase == Phase.SEAT_RESIGNED and deciding and seating.resignation is not None:
            return Prompt("computer_turn", seating.resignation.player.opponent, {})
        return None

    def _setup_prompt(self, set_up: bool) -> Prompt:
        on_roll = self.state.practice_turn
        if set_up and on_roll is not None:
            return self.roll_prompt(on_roll)
        if set_up:
            return Prompt("opening", None, both_buttons("turn", "opening roll (the line as lit)"))
        return Prompt("setup")

    def roll_prompt(self, side: Side) -> Prompt:
        """The side on roll rolls, or chooses doubles when any seat may be doubled."""
        state, seats = self.state, self.seating.seats
        game = state.game if state.game is not None and state.game.turn is not None else state.practice_game()
        if seats is None:  # a practice position, before its first press
            seats = Seats.begin(self.seating.box_side, self.seating.roles.team, game.cube)
        if self.seating.people_doubling(seats, game, side):
            return Prompt("roll_or_double", side, own_buttons(side, turn="roll", cube="choose the doubles"))
        return Prompt("roll", side, own_buttons(side, turn="roll"))

    def _seats_prompt(self) -> Prompt:
        seating = self.seating
        walk, seats = seating.walk, seating.current_seats()
        assert walk is not None
        cube = seats.seat(walk.current).cube.value
        doubling = walk.purpose is WalkFor.DOUBLE
        yes = "double this seat" if doubling else "include this seat"
        answers = {**own_buttons(walk.side, turn=yes, cube="skip this seat"),
                   f"hold {walk.side.label}.turn": yes + " and every seat after it",
                   f"hold {walk.side.label}.cube": "back"}
        return Prompt("seats", walk.side, answers, number=cube * 2 if doubling else cube * walk.result.multiplier)

    def _doubled_prompt(self) -> Prompt:
        state, seating = self.state, self.seating
        seats = seating.current_seats()
        player, taker = seats.asked(), seats.answerer()
        assert player is not None and taker is not None
        if seating.drop_asked is not None:
            return Prompt("confirm_drop", taker, own_buttons(taker, cube="drop", turn="back"))
        answers = own_buttons(taker, turn="take", cube="drop (press twice)")
        if seats.why_not_beaver(state.current_game(), player) is None:
            answers[f"hold {taker.label}.cube"] = "beaver"
        return Prompt("seat_doubled", taker, answers, number=seats.seat(player).cube.offered_value)

    def _resigned_prompt(self) -> Prompt:
        seating = self.seating
        offer, seats = seating.resignation, seating.current_seats()
        assert offer is not None
        answering = offer.player.opponent
        seat = seating.to_answer()
        stake = sum(seats.seat(player).cube.value for player in ((seat,) if seat is not None else offer.seats))
        return Prompt("resign_offered", answering, own_buttons(answering, turn="accept", cube="decline"),
                      number=stake * offer.result.multiplier)

    def _results_prompt(self) -> Prompt:
        last = self.seating.last
        shown = abs(list(last.points.values())[self.seating.shown]) if last is not None else 0
        return Prompt("results", None, {**both_buttons("cube", "show the next player's result"),
                                        **both_buttons("turn", "set up the next game")}, number=shown)


def chouette_state(seating: Seating) -> dict[str, Any]:
    """The chouette as the ``state`` event says it: the line and roles, the chairs, every
    seat's cube in the game in progress, the sheet's totals and the consultation rule; the
    players the computer plays (``computers``), if any."""
    line = seating.roles if len(seating.line) >= 3 else None
    chairs = dict(sorted(seating.chairs.items(), key=lambda item: item[1]))
    data: dict[str, Any] = {"line": list(seating.line), "chairs": chairs,
                            "totals": dict(seating.totals), "consultation": seating.settings.consultation.value}
    if line is not None:
        data |= {"box": line.box, "captain": line.captain, "partner": line.partner}
    if seating.computers:
        data["computers"] = [player for player in seating.settings.computers if player in seating.computers]
    seats = seating.seats
    if seats is not None:
        data["captain"] = seats.captain
        data["seats"] = {seat.player: {"cube": seat.cube.value, "owner": _owner(seats, seat.cube.owner),
                                       "offered": seat.cube.offer is not None, "out": seat.out}
                         for seat in seats}
    return data


def _owner(seats: Seats, owner: Side | None) -> str | None:
    return None if owner is None else "seat" if owner is seats.team_side else "box"

