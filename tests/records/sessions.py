"""Whole sessions played on the simulated board, as board scripts, with gnubg deciding.

`play_session(plan, engine)` plays one session of `Plan` on the simulated board
(`bgpi.shell.runner.TableRunner` and `bgpi.shell.hands.TableHands`, the real scanner and table) the way hands play
it, and returns the board script it wrote and the table log it gave:

- the dice of every roll are set by a ``dice`` line (from the plan's seeded generator),
  and an opening tie now and then brings automatic doubles where the session has them
  (the table rolls the opening again at once, with the replay's seeded dice: seed 0);
- every play is gnubg's best (`Engine.plays`), made one checker step at a time with a
  ``lift`` and a ``place``; a hit blot is carried to the bar before or after the hitter
  lands, at random; a checker that moves on without hitting is, at random, carried
  the whole way in one ``move``; the mover's *turn* commits (and, when the switches
  cannot tell plays apart, *cube* shows the candidates until the one made);
- cube actions are gnubg's (`Engine.cube`: double, take, drop, beaver), except that
  with the plan's `reckless` rate a player doubles whenever the rules let them, and
  answers at random: so beavers, drops and redoubles come;
- between games the checkers are put back by hand, one lift and one place each.

The script replays to the same log with `bgpi replay` (`bgpi.shell.replay.replay`).
Run it to write the scripts of the records test: ``python -m tests.records.sessions DIR``.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bgpi.board.locations import bar, location_of
from bgpi.engine.advice import Situation
from bgpi.engine.engine import Engine, open_engine
from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.rules.play import Dice, Play
from bgpi.rules.position import Position, Side
from bgpi.shell.boardfile import position_checkers
from bgpi.shell.hands import TableHands
from bgpi.shell.runner import TableRunner
from bgpi.shell.script import LINE_SECONDS, Move, parse_script
from bgpi.shell.sinks import FunctionSink
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.phases import Phase
from bgpi.table.tracker import Sensing


@dataclass(frozen=True, slots=True)
class Plan:
    """One session to play: its settings (a board script's ``config``), its seed, how many
    games at most (a match ends sooner) and the rate of reckless cube actions."""

    name: str
    config: dict[str, Any]
    seed: int
    games: int = 50
    reckless: float = 0.0
    ties: float = 0.0  # how often the opening roll is a tie, where that doubles the cube


PLANS = (
    Plan("match5", {"match": 5}, seed=8, reckless=0.02),
    Plan("match7", {"match": 7}, seed=7, reckless=0.02),
    Plan("money_jacoby_beavers", {"jacoby": True, "beavers": True}, seed=11, games=5, reckless=0.3),
    Plan("money_auto_doubles", {"jacoby": False, "beavers": True, "auto_doubles": 2}, seed=13, games=5,
         reckless=0.25, ties=0.4),
)
"""The sessions of the records round trip (tests/records/test_round_trip.py)."""


@dataclass
class Hands:
    """The simulated board and the lines of the script being written on it."""

    plan: Plan
    engine: Engine
    lines: list[dict[str, Any]] = field(default_factory=list)
    events: list[ev.Event] = field(default_factory=list)
    played: Play | None = None  # the play being made, for the choice the switches cannot make
    table: Table = field(init=False)
    sim: TableRunner = field(init=False)
    hands: TableHands = field(init=False)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        profile = load_profile()
        table, opening = Table.new(Sensing(profile.geometry), dict(self.plan.config))
        self.events.extend(opening)
        self.table = table
        self.sim = TableRunner(table, open_sim_board(profile), seed=0, sinks=[FunctionSink(self.events.append)])
        self.hands = TableHands(self.sim)
        self.hands.set_position(table.position)
        self.rng = random.Random(self.plan.seed)
        self.lines.append({"config": dict(self.plan.config)})
        self.sim.advance(LINE_SECONDS)

    def do(self, line: dict[str, Any]) -> None:
        """Carry one script line out on the board, as `bgpi replay` does."""
        self.lines.append(line)
        (action,) = parse_script(json.dumps(line)).lines
        if isinstance(action, Move):
            self.hands.lift(action.source)
            self.sim.advance(LINE_SECONDS / 2)
            self.hands.place(action.destination)
            self.sim.advance(LINE_SECONDS / 2)
        else:
            self.hands.act(action)
            self.sim.advance(LINE_SECONDS)

    def press(self, button: str, hold: bool = False) -> None:
        self.do({"hold" if hold else "press": button})

    def roll(self, button: str, dice: Dice) -> None:
        self.do({"dice": [dice.first, dice.second]})
        self.press(button)


def play_session(plan: Plan, engine: Engine) -> tuple[list[dict[str, Any]], list[ev.Event]]:
    """Play `plan` on the simulated board: (the board script's lines, the table log)."""
    hands = Hands(plan, engine)
    try:
        _play(hands)
    finally:
        hands.sim.close()
    return hands.lines, hands.events


def _play(hands: Hands) -> None:
    """Do what the board asks, one thing at a time, until the session is played."""
    steps = {Phase.SETUP: _set_up, Phase.OPENING: _opening, Phase.ROLL: _roll_or_double,
             Phase.DOUBLED: _answer, Phase.MOVE: _move, Phase.CHOOSE: _choose}
    for _ in range(20_000):  # a bound, so that a board stuck in a phase fails the test
        phase, session = hands.table.phase, hands.table.session
        if phase is Phase.MATCH_OVER or (phase is Phase.SETUP and session.games >= hands.plan.games):
            return
        if phase not in steps:
            raise AssertionError(f"the board asks for {phase} in {hands.plan.name}")
        steps[phase](hands)
    raise AssertionError(f"{hands.plan.name} does not end")


def _set_up(hands: Hands) -> None:
    """Put the checkers back for the next game (each checker too many to a place one is
    missing) and roll the opening roll."""
    wanted = position_checkers(Position.start())
    board = {location: hands.hands.board.checkers(location) for location in wanted}
    extra = [loc for loc in wanted for _ in range(board[loc] - wanted[loc])]
    missing = [loc for loc in wanted for _ in range(wanted[loc] - board[loc])]
    hands.rng.shuffle(missing)
    for source, destination in zip(extra, missing, strict=True):
        hands.do({"lift": source})
        hands.do({"place": destination})
    _opening(hands)  # on a set board, a turn button rolls the opening roll


def _opening(hands: Hands) -> None:
    rng = hands.rng
    if hands.table.settings.auto_doubles and rng.random() < hands.plan.ties:
        die = rng.randint(1, 6)
        dice = Dice(die, die)
    else:
        white, black = rng.sample(range(1, 7), 2)
        dice = Dice(white, black)
    hands.roll(f"{rng.choice(list(Side)).label}.turn", dice)


def _situation(hands: Hands, mover: Side) -> Situation:
    table = hands.table
    game, session = table.game, table.session
    assert game is not None
    settings = session.settings
    return Situation(table.position, mover, game.cube.value, game.cube.owner, settings.match_length,
                     (session.score.white, session.score.black), session.crawford,
                     settings.jacoby, settings.beavers)


def _roll_or_double(hands: Hands) -> None:
    game, side = hands.table.game, hands.table.turn
    assert game is not None and side is not None
    if game.may_double(side):
        reckless = hands.rng.random() < hands.plan.reckless
        if reckless or hands.engine.cube(_situation(hands, side)).action == "double":
            hands.press(f"{side.label}.cube")
            return
    hands.roll(f"{side.label}.turn", Dice(hands.rng.randint(1, 6), hands.rng.randint(1, 6)))


def _answer(hands: Hands) -> None:
    game = hands.table.game
    assert game is not None and game.cube.offer is not None
    offer = game.cube.offer
    taker = offer.doubler.opponent
    if hands.rng.random() < hands.plan.reckless:
        answers = ["take", "drop"] + (["beaver"] if game.why_not_beaver(taker) is None else [])
        answer = hands.rng.choice(answers)
    else:
        answer = hands.engine.cube(_situation(hands, offer.doubler)).response
        if offer.beaver and answer == "beaver":
            answer = "take"
    if answer == "take":
        hands.press(f"{taker.label}.turn")
    elif answer == "beaver":
        hands.press(f"{taker.label}.cube", hold=True)
    else:
        hands.press(f"{taker.label}.cube")
        hands.press(f"{taker.label}.cube")


def _move(hands: Hands) -> None:
    table = hands.table
    side, dice = table.turn, table.dice
    assert side is not None and dice is not None
    best = hands.engine.plays(_situation(hands, side), dice, limit=1)[0].play
    hands.played = best
    _carry(hands, best)
    hands.press(f"{side.label}.turn")


def _carry(hands: Hands, play: Play) -> None:
    """The steps of `play` by hand: lifts and places, a hit blot to the bar before or after
    the hitter lands, and now and then one checker's steps in one motion."""
    side, rng = play.side, hands.rng
    steps = list(play.steps)
    while steps:
        step = steps.pop(0)
        source = location_of(side, step.source)
        destination = location_of(side, step.destination)
        # One motion for a checker going on without hitting on the way.
        while (steps and not step.hit and steps[0].source == step.destination and rng.random() < 0.5):
            step = steps.pop(0)
            destination = location_of(side, step.destination)
        blot_first = step.hit and rng.random() < 0.5
        if blot_first:
            hands.do({"move": [destination, bar(side.opponent)]})
        hands.do({"lift": source})
        hands.do({"place": destination})
        if step.hit and not blot_first:
            hands.do({"lift": destination})
            hands.do({"place": bar(side.opponent)})


def _choose(hands: Hands) -> None:
    """Several plays explain the board: *cube* until the one made shows, then *turn*."""
    table = hands.table
    side = table.turn
    assert side is not None and hands.played is not None
    made = hands.played.position
    for _ in range(len(table.candidates)):
        if table.candidates[table.choice].position == made:
            break
        hands.press(f"{side.label}.cube")
    hands.press(f"{side.label}.turn")


def write_scripts(folder: Path) -> None:
    """Play every plan and write its board script to `folder`/NAME.jsonl."""
    folder.mkdir(parents=True, exist_ok=True)
    with open_engine("gnubg") as engine:
        for plan in PLANS:
            lines, _ = play_session(plan, engine)
            (folder / f"{plan.name}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


if __name__ == "__main__":
    write_scripts(Path(sys.argv[1]))
