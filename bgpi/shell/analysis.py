"""After the game: every decision of a session's games, evaluated by the engine.

The session's journal is applied event by event to a `Table` (as a resumed board
does), and each decision is taken with the table as it stood just before it:

- a play (``play``): the equity of the best play of the roll against the play made;
  the play made is valued as gnubg values a play, by the position after it with the
  opponent on roll (their cubeful equity, their cube action included), negated;
- a cube decision before a roll the player could have doubled on (``roll`` without a
  ``double``, or ``double``), and the answer to a double (``take``, ``beaver``, ``drop``).

In a chouette (docs/chouette.md) every seat's cube is a money game of its own on the
shared position, so each decision is weighed on its own seat's cube (its value and owner
in the Match ID, `Seats.game_of`) and is the decision of a player, named:

- a play, the box's or the captain's, on the captain's cube (as the records give the game);
- the side on roll's decision on each cube it could have doubled (``seat_double``, or a
  ``roll`` without one): the box's on every seat's cube, each seat's on its own;
- the answer to a double on a seat's cube: the box's to the team's, the seat's to the box's.

Equities are gnubg's cubeful ones, normalised to the cube; the loss of a decision is
the best choice's equity minus the chosen one's (0 for the best).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from bgpi.engine import Engine, Situation
from bgpi.rules.ids import match_id, position_from_id, position_id
from bgpi.rules.play import Dice
from bgpi.rules.position import Side
from bgpi.rules.seats import Seats
from bgpi.rules.session import Game
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.phases import Phase
from bgpi.table.tracker import Sensing

DOUBTFUL = 0.04
BLUNDER = 0.16
"""gnubg's default thresholds for a doubtful play and a very bad one (a blunder)."""


@dataclass(frozen=True)
class Decision:
    """One decision as the journal tells it, with the IDs of the moment before it (the
    player on roll encoded, the dice of a play in the Match ID)."""

    game: int
    player: Side
    kind: str  # "play" or "cube" (before the roll) or "answer" (to a double)
    position_id: str
    match_id: str
    jacoby: bool
    beavers: bool
    chosen: str  # the move made, or "double", "no double", "take", "drop", "beaver"
    after: str | None = None  # for a play: the position after it, encoded for the next roller
    name: str | None = None  # in a chouette: the player who decided
    seat: str | None = None  # in a chouette: the seat whose cube the Match ID holds

    @property
    def who(self) -> str:
        """Who decided: the player's name in a chouette, else the colour."""
        return self.player.label if self.name is None else self.name

    def situation(self) -> tuple[Situation, Dice | None]:
        situation, dice = Situation.from_ids(self.position_id, self.match_id)
        return replace(situation, jacoby=self.jacoby, beavers=self.beavers), dice


@dataclass(frozen=True)
class Assessed:
    decision: Decision
    best: str
    loss: float
    best_position_id: str | None = None  # for a play: after the best one, the mover on roll

    def as_json(self) -> dict[str, Any]:
        d = self.decision
        named = {} if d.name is None else {"name": d.name, "seat": d.seat}
        return {"game": d.game, "player": d.player.label, **named, "kind": d.kind, "chosen": d.chosen,
                "best": self.best, "loss": round(self.loss, 4), "position_id": d.position_id,
                "match_id": d.match_id}


def decisions(events: Iterable[ev.Event], sensing: Sensing) -> list[Decision]:
    """The decisions in a session's events, in order."""
    table = Table(sensing)
    found: list[Decision] = []
    game = 0
    for event in events:
        if isinstance(event, ev.Start):
            game += 1
        elif table.game is not None and table.turn is not None:
            found.extend(_decision(table, game, event))
        table.apply(event)
    return found


def _decision(table: Table, game: int, event: ev.Event) -> list[Decision]:
    current, turn = table.state.current_game(), table.state.current_turn()
    seating = table.state.chouette
    if seating is not None and seating.seats is not None:
        return _seat_decision(table, game, seating.seats, seating.roles.box, event)
    match event:
        case ev.Roll() if table.phase == Phase.ROLL and current.may_double(turn):
            return [_at(table, game, current, turn, "cube", "no double")]
        case ev.Double() if table.phase == Phase.ROLL:
            return [_at(table, game, current, turn, "cube", "double")]
        case ev.Take() | ev.Drop() | ev.Beaver() if table.phase == Phase.DOUBLED and not _beavered(current):
            return [_at(table, game, current, event.player, "answer", event.kind)]
        case ev.Play(lenient=False) if table.phase in (Phase.MOVE, Phase.CHOOSE) and table.dice is not None:
            return [_at(table, game, current, turn, "play", event.move, _dice(table), event.position_id)]
    return []


def _seat_decision(table: Table, game: int, seats: Seats, box: str, event: ev.Event) -> list[Decision]:
    """A chouette's decisions in `event`, each on its seat's own game (`Seats.game_of`)."""
    shared, turn = table.state.current_game(), table.state.current_turn()

    def on(seat: str, side: Side, kind: str, chosen: str) -> Decision:
        name = box if side is seats.box_side else seat
        return _at(table, game, seats.game_of(shared, seat), side, kind, chosen, name=name, seat=seat)

    match event:
        case ev.Roll() if table.phase == Phase.ROLL:
            return [on(seat, turn, "cube", "no double") for seat in seats.may_double(shared, turn)]
        case ev.SeatDouble(player=side, seat=seat):
            return [on(seat, side, "cube", "double")]
        case ev.SeatTake() | ev.SeatDrop() | ev.SeatBeaver() if not _beavered(seats.game_of(shared, event.seat)):
            return [on(event.seat, event.player, "answer", event.kind.removeprefix("seat_"))]
        case ev.Play(lenient=False) if table.phase in (Phase.MOVE, Phase.CHOOSE) and table.dice is not None:
            captain = seats.captain
            name = box if turn is seats.box_side else captain
            return [_at(table, game, seats.game_of(shared, captain), turn, "play", event.move, _dice(table),
                        event.position_id, name, captain)]
    return []


def _at(table: Table, game: int, played: Game, player: Side, kind: str, chosen: str,
        dice: tuple[int, int] = (0, 0), after: str | None = None, name: str | None = None,
        seat: str | None = None) -> Decision:
    """`player`'s decision in the position before it, on `played`'s cube."""
    return Decision(game, player, kind, position_id(table.position, table.state.current_turn()),
                    match_id(played.match_key(dice)), table.settings.jacoby, table.settings.beavers, chosen,
                    after, name, seat)


def _dice(table: Table) -> tuple[int, int]:
    dice = table.dice
    assert dice is not None  # a play's decision is taken once rolled (`_decision`)
    return dice.first, dice.second


def _beavered(game: Game) -> bool:
    """Whether the double on offer is a beaver (the doubler's answer is no decision)."""
    return game.cube.offer is not None and game.cube.offer.beaver


def assess(decision: Decision, engine: Engine) -> Assessed:
    """The decision's loss against the engine's best choice.  Raises EngineError."""
    situation, dice = decision.situation()
    if decision.kind == "play":
        return _assess_play(decision, situation, dice, engine)
    advice = engine.cube(situation)
    if decision.kind == "cube":
        doubled = min(advice.double_take, advice.double_drop)
        chosen = doubled if decision.chosen == "double" else advice.no_double
        best = max(doubled, advice.no_double)
        word = "double" if doubled > advice.no_double else "no double"
        return Assessed(decision, word, best - chosen)
    # The answer to a double, from the taker's side: -double_take or -double_drop.
    chosen = -advice.double_drop if decision.chosen == "drop" else -advice.double_take
    best = max(-advice.double_drop, -advice.double_take)
    return Assessed(decision, advice.response, best - chosen)


def _assess_play(decision: Decision, situation: Situation, dice: Dice | None, engine: Engine) -> Assessed:
    assert dice is not None and decision.after is not None  # a play's decision has both (`_decision`)
    best = engine.plays(situation, dice, limit=1)[0]
    mover = situation.mover
    if best.move == decision.chosen:
        return Assessed(decision, best.move, 0.0, best.position_id)
    after = replace(situation, position=position_from_id(decision.after, mover.opponent), mover=mover.opponent)
    if after.position.winner() is not None:
        return Assessed(decision, best.move, 0.0, best.position_id)  # won: nothing better than that
    advice = engine.cube(after)
    opponent = advice.no_double if not _may_double(after) else max(
        advice.no_double, min(advice.double_take, advice.double_drop))
    return Assessed(decision, best.move, max(0.0, best.equity + opponent), best.position_id)


def _may_double(situation: Situation) -> bool:
    if situation.crawford:
        return False
    return situation.cube_owner in (None, situation.mover)


@dataclass(frozen=True)
class Summary:
    """Per player: decisions, equity lost, doubtful plays and blunders."""

    decisions: int = 0
    lost: float = 0.0
    doubtful: int = 0
    blunders: int = 0

    def plus(self, assessed: Assessed) -> Summary:
        return Summary(self.decisions + 1, self.lost + assessed.loss,
                       self.doubtful + (DOUBTFUL <= assessed.loss < BLUNDER),
                       self.blunders + (assessed.loss >= BLUNDER))

    @property
    def error_rate(self) -> float:
        """Equity lost per decision, in thousandths (gnubg's mEMG, roughly)."""
        return 1000 * self.lost / self.decisions if self.decisions else 0.0

    def as_json(self) -> dict[str, Any]:
        return {"decisions": self.decisions, "lost": round(self.lost, 4),
                "error_rate": round(self.error_rate, 1), "doubtful": self.doubtful, "blunders": self.blunders}


def summarise(assessed: list[Assessed]) -> dict[str, Summary]:
    """Per player (`Decision.who`): both colours of a game of two, every player of a
    chouette who decided, in the order they first did."""
    named = any(one.decision.name is not None for one in assessed)
    totals = {} if named else {side.label: Summary() for side in Side}
    for one in assessed:
        who = one.decision.who
        totals[who] = totals.get(who, Summary()).plus(one)
    return totals
