"""The engine on PyPI's gnubg module, in-process, against the module's own best move."""

from __future__ import annotations

import pytest

from bgpi.engine import Engine, Situation, Strength, open_engine
from bgpi.engine.gnubg_calls import cube_info, eval_context
from bgpi.engine.module import ModuleBackend, import_module
from bgpi.exc import EngineError, EngineTimeoutError
from bgpi.rules.play import Dice
from tests.engine.test_gnubg import after_pairs, assert_best, situations

gnubg = pytest.importorskip(
    "gnubg", reason="PyPI's gnubg module has wheels for x86_64 only"
)
if not hasattr(gnubg, "findbestmoves"):
    pytest.skip("the gnubg module found is not PyPI's", allow_module_level=True)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(ModuleBackend(import_module()))


def test_best_play_is_the_module_best_move(engine):
    for situation, dice in situations(80, seed=17):
        query = situation.query(dice, Strength())
        board = gnubg.positionfromid(query["position_id"])
        best = gnubg.findbestmove(board, cube_info(gnubg, query), eval_context(query), tuple(dice))
        plays = engine.plays(situation, dice, Strength(0), limit=100)
        assert_best(plays, after_pairs(situation, list(best)))


def test_no_cube_decisions_in_process(engine):
    situation, _ = Situation.from_ids("4HPwATDgc/ABMA")
    with pytest.raises(EngineError, match="no cube decisions"):
        engine.cube(situation)


def test_an_answer_past_the_time_limit_is_a_timeout():
    engine = Engine(ModuleBackend(import_module()), timeout=0.0)
    situation, _ = Situation.from_ids("4HPwATDgc/ABMA")
    with pytest.raises(EngineTimeoutError):
        engine.plays(situation, Dice(3, 1))


def test_module_kind_is_chosen_by_configuration():
    assert open_engine("module").backend.name == "gnubg module"
