"""Whole chouettes played on the core, with random decisions: for the score sheet, the
records read by gnubg and the power cut at every event.

`play_chouette(seed, games)` plays a chouette on `bgpi.table.controller.Table` itself, the
way the buttons do: the roll-off; each game's setup and opening roll; before each roll,
now and then, doubles chosen seat by seat (the walk: *turn* yes, *cube* no); every double
answered at random (take, drop with its two presses, beaver where allowed); now and then
a resignation (the box's to every seat, the captain's for the seats that agree) answered
at random; a random legal play of every roll, shown on the board at once; and between
games, now and then, a latecomer or a player leaving.  It returns the table log.

The computer's players (``computers``) decide through the table's requests for advice,
answered at once by an engine: `RandomEngine` (its decisions at random, its play the first
legal one), or a real one (`bgpi.shell.advisor.Advisor`, tests/engine); their play is
moved on the board as the lights show it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from bgpi.board.profile import Geometry
from bgpi.rules.ids import decode_match_id, position_from_id, position_id
from bgpi.rules.notation import format_play
from bgpi.rules.play import Dice
from bgpi.rules.position import Position, Side
from bgpi.rules.reference import legal_plays
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Advised, Input, Join, Leave, Press, Rolled, Sensed
from bgpi.table.phases import Phase
from bgpi.table.requests import AdviceRequest, Question
from bgpi.table.tracker import Sensing
from bgpi.table.turn import confirmer, steps_between

SENSING = Sensing(Geometry())
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida")

Engine = Callable[[AdviceRequest], tuple[Mapping[str, Any] | None, str | None]]
"""What answers the table's requests for advice (as `bgpi.shell.opponents.Advise`)."""


class RandomEngine:
    """An engine deciding at random (seeded), for the computer's players: the first legal
    play of a roll; double, take, drop and beaver at the rates given; a resigner's chances."""

    def __init__(self, seed: int, double: float = 0.3, drop: float = 0.3, beaver: float = 0.1) -> None:
        self.random = random.Random(seed)
        self.double, self.drop, self.beaver = double, drop, beaver
        self.asked: list[AdviceRequest] = []

    def __call__(self, request: AdviceRequest) -> tuple[dict[str, Any], None]:
        self.asked.append(request)
        key = decode_match_id(request.match_id)
        if request.question is Question.PLAYS:
            mover, dice = key.dice_owner, Dice(*key.dice)
            position = position_from_id(request.position_id, mover)
            plays = legal_plays(position, mover, dice)
            after = plays[0].position if plays else position
            return {"move": format_play(plays[0].steps) if plays else "", "position_id": position_id(after, mover),
                    "equity": 0.0}, None
        if request.question is Question.RESIGN:
            win = self.random.random()
            return {"win": win, "win_gammon": win / 4, "win_backgammon": 0.0, "lose_gammon": (1 - win) / 4,
                    "lose_backgammon": 0.0}, None
        pick = self.random.random()
        response = "beaver" if request.beavers and pick < self.beaver else "drop" if pick < self.drop else "take"
        return {"action": "double" if self.random.random() < self.double else "no double", "response": response,
                "no_double": 0.1, "double_take": 0.2, "double_drop": 1.0}, None


class Hands:
    """The players at the table: every input goes in through `feed`, every event is kept."""

    def __init__(self, seed: int, config: dict[str, Any], position_id: str | None = None,
                 turn: Side | None = None, engine: Engine | None = None) -> None:
        self.random = random.Random(seed)
        self.table, self.events = Table.new(SENSING, config, position_id, turn)
        self.inputs: list[int] = [len(self.events)]  # where each input's events end
        self.rates = {"double": 0.12, "take": 0.6, "beaver": 0.15, "resign": 0.02, "accept": 0.5, "seat": 0.3}
        self.engine = engine

    def feed(self, happened: Input) -> list[ev.Event]:
        """`happened`, then the dice and the engine's answers the table asks for, as the
        shell's runner gives them."""
        out = self.handle(happened)
        while self.table.wants_roll or (self.engine is not None and self.table.wants_advice):
            if self.table.wants_roll:
                out += self.handle(Rolled(self.random.randint(1, 6), self.random.randint(1, 6)))
            else:
                request = self.table.wants_advice
                assert request is not None and self.engine is not None
                out += self.handle(Advised(request, *self.engine(request)))
        return out

    def handle(self, happened: Input) -> list[ev.Event]:
        out = self.table.handle(happened)
        self.events += out
        self.inputs.append(len(self.events))
        return out

    def press(self, side: Side, kind: str, long: bool = False) -> list[ev.Event]:
        return self.feed(Press(f"{side.label}.{kind}", long))

    def chance(self, what: str) -> bool:
        return self.random.random() < self.rates[what]

    # -- one step of play ------------------------------------------------------------------

    def step(self) -> None:
        """Whatever the board asks now, answered."""
        table = self.table
        phase = table.phase
        chouette = table.state.current_chouette()
        box = chouette.box_side
        if phase == Phase.ROLL_OFF:
            self.press(Side.WHITE, "turn")
        elif phase == Phase.RESULTS:
            self.between_games()
        elif phase == Phase.SETUP:
            self.feed(Sensed(SENSING.of(table.position)))
            self.press(self.random.choice(list(Side)), "turn")
        elif phase == Phase.ROLL:
            self.before_roll(table.state.current_turn())
        elif phase in (Phase.MOVE, Phase.CHOOSE):
            self.play()
        elif phase == Phase.SEATS:
            self.walk(chouette.walk.side)
        elif phase == Phase.SEAT_DOUBLED:
            self.answer_double(chouette.current_seats().answerer())
        elif phase == Phase.RESIGNING:
            self.press(table.state.resigner, "turn")
        elif phase == Phase.SEAT_RESIGNED:
            offer = chouette.resignation
            self.press(offer.player.opponent, "turn" if self.chance("accept") else "cube")
        else:
            raise AssertionError(f"nothing to do in phase {phase} (box {box.label})")

    def between_games(self) -> None:
        chouette = self.table.state.current_chouette()
        line = chouette.line
        if self.random.random() < 0.1 and len(line) < 7:
            newcomer = next(name for name in NAMES if name not in line and name not in chouette.totals)
            self.feed(Join(newcomer))
        elif self.random.random() < 0.1 and len(line) > 3:
            self.feed(Leave(self.random.choice(line)))
        self.press(self.random.choice(list(Side)), "turn")

    def before_roll(self, side: Side) -> None:
        if self.chance("resign"):
            self.press(side, "cube", long=True)
            if self.random.random() < 0.3:
                self.press(side, "cube")  # a gammon
            return
        if self.chance("double"):
            before = self.table.phase
            self.press(side, "cube")
            if self.table.phase != before:
                return  # choosing seats
        self.press(side, "turn")

    def walk(self, side: Side) -> None:
        """Choosing seats: yes or no to the seat asked, now and then yes to all the rest."""
        if self.random.random() < 0.1:
            self.press(side, "turn", long=True)
        else:
            self.press(side, "turn" if self.chance("seat") else "cube")

    def answer_double(self, side: Side) -> None:
        if self.chance("beaver") and not any(isinstance(event, ev.Rejected)
                                             for event in self.press(side, "cube", long=True)):
            return
        if self.chance("take"):
            self.press(side, "turn")
            return
        refused = self.press(side, "cube")
        if any(isinstance(event, ev.Rejected) for event in refused):
            self.press(side, "turn")  # the box must take this one
        else:
            self.press(side, "cube")

    def follow(self) -> None:
        """One lit step of the computer's play made, or, where no switch sees it made (a
        checker onto a full point), the press that says so."""
        moving = self.table.state.current_roll()
        if moving.unseen is not None:
            self.press(confirmer(self.table.state) or self.table.state.current_turn(), "turn")
            return
        assert moving.hinted is not None
        step = (steps_between(moving.tree, moving.node, moving.hinted) or [])[0]
        after = next(child for made, child in moving.tree.steps(moving.node) if made == step)
        self.feed(Sensed(SENSING.of(after.position)))

    def play(self) -> None:
        table = self.table
        if table.following:  # the computer's play, lit: the hands move it a step at a time, it commits itself
            self.follow()
            return
        plays = legal_plays(table.position, table.turn, table.dice)
        chosen = self.random.choice(plays) if plays else None
        if chosen is not None:
            self.feed(Sensed(SENSING.of(chosen.position)))
        side = table.turn
        self.press(side, "turn")
        while table.phase == Phase.CHOOSE:
            if table.candidates[table.choice].position == chosen.position:
                self.press(side, "turn")
            else:
                self.press(side, "cube")


def play_chouette(seed: int, games: int, players: int = 4, config: dict[str, Any] | None = None,
                  rates: dict[str, float] | None = None, options: dict[str, Any] | None = None,
                  inputs: list[int] | None = None, engine: Engine | None = None) -> list[ev.Event]:
    """The table log of a chouette of `players` played `games` games, decided at random
    (`config`: the session's money rules; `options`: the chouette's own, its computers
    answered by `engine`; `inputs` gets where the events of each input end)."""
    chouette = {"players": list(NAMES[:players]), **(options or {})}
    hands = Hands(seed, {"chouette": chouette, **(config or {})}, engine=engine)
    hands.rates |= rates or {}
    hands.feed(Sensed(SENSING.of(Position.start())))
    while sum(isinstance(event, ev.ChouetteOver) for event in hands.events) < games:
        hands.step()
    if inputs is not None:
        inputs.extend(hands.inputs)
    return hands.events
