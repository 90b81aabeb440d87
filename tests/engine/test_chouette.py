"""The computer in a chouette against Debian's gnubg (issue 31): gnubg in the box and in
the crew of a chouette of four played by random hands; every cube decision the computer
made is gnubg's own money cube decision at that seat's cube value and owner, as gnubg
itself recommends it (tests/engine/oracle_gnubg.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bgpi.engine import Situation, Strength
from bgpi.records.sheet import score_sheet
from bgpi.rules.ids import decode_match_id
from bgpi.shell.advisor import open_advisor
from bgpi.table import events as ev
from bgpi.table.requests import AdviceRequest, Purpose, Question
from tests.engine.conftest import ask_gnubg
from tests.engine.test_gnubg import _gnubg_words
from tests.table.chouettes import play_chouette

ANSWERS = ("take", "drop", "beaver")
"""The words of an answer to a double (the rest are a decision to double)."""


@pytest.fixture
def advisor(gnubg_path):
    advisor = open_advisor({"engine": "gnubg", "opponent": "gnubg:expert"})
    yield advisor
    advisor.close()


class Recorded:
    """The advisor, its cube questions and answers kept."""

    def __init__(self, advisor: Any) -> None:
        self.advisor, self.cubes = advisor, []

    def __call__(self, request: AdviceRequest) -> tuple[dict[str, Any] | None, str | None]:
        answer, error = self.advisor(request)
        if request.question is Question.CUBE and request.purpose is Purpose.COMPUTER:
            self.cubes.append((request, answer))
        return answer, error


def test_gnubg_in_the_box_and_the_crew_decides_each_seats_money_cube(advisor, gnubg_path, tmp_path):
    engine = Recorded(advisor)
    events = play_chouette(3, games=2, players=4, engine=engine, options={"computers": ["Ann", "Cat"]},
                           rates={"double": 0.25, "resign": 0.0})
    sheet = score_sheet(events)
    assert len(sheet.rows) == 2 and sum(sheet.totals.values()) == 0
    decided = [(event.player, event.seat, event.decision.value) for event in events
               if isinstance(event, ev.ComputerCube)]
    assert decided and len(decided) == len(engine.cubes)
    assert any(isinstance(event, ev.ComputerPlay) for event in events)
    situations, words = [], []
    for (request, answer), (player, seat, word) in zip(engine.cubes, decided, strict=True):
        assert (request.player, request.seat) == (player, seat)
        key = decode_match_id(request.match_id)
        assert key.match_length == 0  # a money cube: the seat's game is money play
        situation, _ = Situation.from_ids(request.position_id, request.match_id)
        situations.append(replace(situation, jacoby=request.jacoby, beavers=request.beavers))
        words.append(word)
        assert word == answer["response" if word in ANSWERS else "action"]
    expected = ask_gnubg(gnubg_path, [situation.query(None, Strength()) for situation in situations], tmp_path)
    for word, answer, (request, _) in zip(words, expected, engine.cubes, strict=True):
        action, response = _gnubg_words(answer["cube"])
        assert word == (response if word in ANSWERS else action), (request, answer)
