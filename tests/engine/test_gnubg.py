"""The engine on Debian's gnubg against gnubg's own answers, and its failures:
gnubg missing, killed mid-game, slower than its time limit."""

from __future__ import annotations

import os
import random
import signal
import sys

import pytest

from bgpi.engine import Engine, Situation, Strength, open_engine, process
from bgpi.engine.process import ProcessBackend
from bgpi.exc import EngineError, EngineTimeoutError, NoEngineError
from bgpi.rules.ids import board_id
from bgpi.rules.play import Dice
from bgpi.rules.position import Position, Side
from bgpi.rules.selfplay import corpus
from tests.engine.conftest import ask_gnubg
from tests.rules.strategies import scatter


def situations(count: int, seed: int) -> list[tuple[Situation, Dice]]:
    """Self-play positions with their rolls, in money play and in matches with a turned cube."""
    found = []
    for index, (position, side, dice) in enumerate(corpus(count, seed)):
        if index % 2:
            found.append((Situation(position, side), dice))
        else:
            owner = (side, side.opponent, None)[index % 3]
            found.append((Situation(position, side, cube_value=2, cube_owner=owner, match_length=7,
                                    score=(index % 5, 3)), dice))
    return found


def after_pairs(situation: Situation, pairs: list[int]) -> str:
    """The Position ID (mover on roll) after gnubg's findbestmove pairs: from, to in the
    mover's count, 25 the bar, 0 off (and 0, 0 for an unused die)."""
    own = list(situation.position.checkers(situation.mover))
    theirs = list(situation.position.checkers(situation.mover.opponent))
    for source, destination in zip(pairs[::2], pairs[1::2], strict=True):
        if source <= 0:
            continue
        own[source - 1] -= 1
        if destination > 0:
            own[destination - 1] += 1
            if theirs[24 - destination] == 1:  # a blot on the mover's point d is the opponent's 25 - d
                theirs[24 - destination] = 0
                theirs[24] += 1
    return board_id((tuple(theirs), tuple(own)))


def assert_best(plays: list, expected: str) -> None:
    """gnubg's best play is our first, or tied with it (lost positions all score -1.0)."""
    best = [play.position_id for play in plays if abs(play.equity - plays[0].equity) < 1e-6]
    assert expected in best
    equities = [play.equity for play in plays]
    assert equities == sorted(equities, reverse=True)


def test_best_play_is_gnubg_best_move(engine, gnubg_path, tmp_path):
    cases = situations(80, seed=11)
    expected = ask_gnubg(gnubg_path, [s.query(dice, Strength()) for s, dice in cases], tmp_path)
    for (situation, dice), answer in zip(cases, expected, strict=True):
        plays = engine.plays(situation, dice, Strength(0), limit=100)
        assert_best(plays, after_pairs(situation, answer["best"]))


def _gnubg_words(text: str) -> tuple[str, str]:
    """gnubg's cube recommendation ("Double, take", "Too good to redouble, pass", ...) as
    (action, response) in CubeAdvice's words."""
    action, _, response = text.lower().partition(", ")
    if action.startswith("too good"):
        action = "too good"
    elif action.startswith(("no ", "never ")):
        action = "no double"
    else:
        action = "double"
    response = "drop" if "pass" in response else "beaver" if "beaver" in response else "take"
    return action, response


def test_cube_advice_is_gnubg_recommendation(engine, gnubg_path, tmp_path):
    rng = random.Random(5)
    cases = [Situation(scatter(rng, 0.3), Side(index % 2), beavers=bool(index % 3))
             for index in range(60)]
    # Not where the opponent owns the cube: the mover has no cube decision (gnubg: "Unknown").
    cases += [situation for situation, _ in situations(20, seed=3)
              if situation.cube_owner is not situation.mover.opponent]
    expected = ask_gnubg(gnubg_path, [s.query(None, Strength()) for s in cases], tmp_path)
    seen = set()
    for situation, answer in zip(cases, expected, strict=True):
        advice = engine.cube(situation, Strength(0))
        assert (advice.action, advice.response) == _gnubg_words(answer["cube"]), (situation, answer)
        seen.add((advice.action, advice.response))
    # The corpus covers every kind of decision, or the comparison above proves little.
    assert {"double", "no double", "too good"} <= {action for action, _ in seen}
    assert {"take", "drop"} <= {response for _, response in seen}


def test_forfeited_roll_is_the_empty_play(engine):
    # White on the bar against black's closed board: 6-6 cannot enter.
    closed = {point: (Side.BLACK, 2) for point in range(19, 25)} | {6: (Side.WHITE, 14)}
    situation = Situation(Position.from_absolute(closed, bar={Side.WHITE: 1}), Side.WHITE)
    [play] = engine.plays(situation, Dice(6, 6))
    assert play.move == ""


def test_a_killed_gnubg_is_restarted(engine):
    situation, _ = Situation.from_ids("4HPwATDgc/ABMA")
    first = engine.plays(situation, Dice(3, 1))
    killed = engine.backend.pid
    os.kill(killed, signal.SIGKILL)
    assert engine.plays(situation, Dice(3, 1)) == first
    assert engine.backend.pid != killed


def test_slow_past_its_time_limit_then_answers_again(gnubg_path):
    situation, _ = Situation.from_ids("4HPwATDgc/ABMA")
    with Engine(ProcessBackend(process.gnubg_command(gnubg_path))) as engine:
        assert engine.plays(situation, Dice(6, 5))  # started
        engine.timeout = 1e-6  # no answer comes back this fast
        with pytest.raises(EngineTimeoutError):
            engine.plays(situation, Dice(6, 5), Strength(2))
        engine.timeout = 30.0
        assert engine.plays(situation, Dice(6, 5))[0].move == "24/13"


def test_engine_missing(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(process, "DEBIAN_GNUBG", "/nonexistent/gnubg")
    engine = open_engine("gnubg")
    assert not engine.available
    situation, _ = Situation.from_ids("4HPwATDgc/ABMA")
    with pytest.raises(NoEngineError, match="apt-get install gnubg"):
        engine.plays(situation, Dice(3, 1))
    with pytest.raises(NoEngineError):
        engine.cube(situation)
    with pytest.raises(NoEngineError, match="none is configured"):
        open_engine("none").cube(situation)


def test_a_command_that_will_not_start_is_no_engine():
    situation, _ = Situation.from_ids("4HPwATDgc/ABMA")
    with pytest.raises(NoEngineError, match="cannot start"):
        Engine(ProcessBackend(["/nonexistent/gnubg"])).cube(situation)


def test_a_bridge_that_dies_while_answering():
    ready_then_exit = [sys.executable, "-c", "print('banner'); print('{\"ready\": true}')"]
    situation, _ = Situation.from_ids("4HPwATDgc/ABMA")
    with pytest.raises(EngineError, match="twice"):
        Engine(ProcessBackend(ready_then_exit)).cube(situation)


def test_a_bridge_that_never_gets_ready():
    silent = [sys.executable, "-c", "import time; time.sleep(60)"]
    situation, _ = Situation.from_ids("4HPwATDgc/ABMA")
    backend = ProcessBackend(silent, start_timeout=0.2)
    with pytest.raises(EngineTimeoutError, match="did not start"):
        Engine(backend).cube(situation)
    assert backend.pid is None  # killed, not left behind


def test_a_request_gnubg_refuses_is_an_error(engine):
    with pytest.raises(EngineError, match="gnubg: KeyError"):
        engine.backend.ask({"op": "plays"}, 30.0)
