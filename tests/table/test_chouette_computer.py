"""The computer in a chouette (issue 31): in the box, as captain, in the crew; each seat's
cube asked as the money cube it is; what a person may not press for it; its answers to
resignations, seat by seat; a power cut in the middle of its decisions; an engine that
fails; whole chouettes against it.

The engine here answers as it is told (`Told`): the table's own decisions are tested,
not gnubg's (tests/engine/test_chouette.py plays against Debian's gnubg)."""

from __future__ import annotations

from typing import Any

import pytest

from bgpi.records.sheet import score_sheet
from bgpi.rules.ids import decode_match_id, position_from_id
from bgpi.rules.position import Position, Side
from bgpi.rules.reference import legal_plays
from bgpi.table import events as ev
from bgpi.table.advice import GIVE_UP, RETRY
from bgpi.table.controller import Table
from bgpi.table.inputs import Advised, Press, Rolled, Sensed, Tick
from bgpi.table.lights import lights_event
from bgpi.table.phases import CubeWord, Phase
from bgpi.table.requests import AdviceRequest, Question
from tests.table.chouettes import SENSING, Hands, RandomEngine, play_chouette
from tests.table.test_chouette import CHOUETTE_KINDS, resumes_after

W, B = Side.WHITE, Side.BLACK
LOST = {"win": 0.0, "win_gammon": 0.0, "win_backgammon": 0.0, "lose_gammon": 0.5, "lose_backgammon": 0.0}
"""The chances of a player on roll who cannot win, and loses a gammon half the time."""


class Told(RandomEngine):
    """An engine whose cube answers are told in advance, one a cube question (action,
    response); its chances `chances`; its play the first legal one."""

    def __init__(self, *cube: tuple[str, str], chances: dict[str, float] | None = None) -> None:
        super().__init__(0)
        self.cube, self.chances = list(cube), chances or LOST

    def __call__(self, request: AdviceRequest) -> tuple[dict[str, Any], None]:
        if request.question is Question.PLAYS:
            return super().__call__(request)
        self.asked.append(request)
        if request.question is Question.RESIGN:
            return dict(self.chances), None
        action, response = self.cube.pop(0)
        return {"action": action, "response": response, "no_double": 0.1, "double_take": 0.2,
                "double_drop": 1.0}, None

    def cube_asks(self) -> list[tuple[str, str | None, int, Side | None]]:
        """Each cube question: for whom, about whose cube, its value and owner (the Match ID's)."""
        return [(request.player.label, request.seat, *_cube(request)) for request in self.asked
                if request.question is Question.CUBE]


def _cube(request: AdviceRequest) -> tuple[int, Side | None]:
    key = decode_match_id(request.match_id)
    return key.cube_value, key.cube_owner


def lined_up(dice: dict[str, int], computers: list[str], engine: Told | None,
             options: dict | None = None, config: dict | None = None) -> Hands:
    """A chouette of `dice`'s players, rolled off with the die each is given (the highest
    the box, white), the computer playing `computers`, the board set for the opening roll."""
    names = list(dice)
    chouette = {"players": names, "computers": computers, **(options or {})}
    hands = Hands(0, {"chouette": chouette, **(config or {})}, engine=engine)
    while hands.table.phase == Phase.ROLL_OFF:
        if not hands.table.wants_roll:
            hands.handle(Press("white.turn"))
        due = hands.table.state.current_chouette().roll_off.to_roll()[:2]
        hands.handle(Rolled(dice[due[0]], dice[due[1]] if len(due) > 1 else 1))
    hands.feed(Sensed(SENSING.of(Position.start())))
    return hands


def opening(hands: Hands, white: int, black: int) -> None:
    hands.handle(Press("white.turn"))
    hands.feed(Rolled(white, black))


def play_first(hands: Hands, side: Side) -> None:
    """People play the first legal play of `side`'s roll and commit it."""
    table = hands.table
    play = legal_plays(table.position, side, table.dice)[0]
    hands.feed(Sensed(SENSING.of(play.position)))
    hands.press(side, "turn")
    assert table.turn is not side  # committed (the computer may be moving already)


def follow(hands: Hands) -> None:
    """The hands move the computer's play as lit: it commits itself."""
    table = hands.table
    hint = table.hint
    assert table.following and hint is not None
    hands.feed(Sensed(SENSING.of(position_from_id(hint.position_id, hint.player.opponent))))
    assert table.turn is not hint.player


def seat_answers(hands: Hands) -> list[tuple[str, str]]:
    return [(event.seat, event.kind) for event in hands.events
            if isinstance(event, ev.SeatTake | ev.SeatDrop | ev.SeatBeaver)]


def refused(hands: Hands, button: str, long: bool = False) -> str:
    before = hands.table.state_event()
    (event,) = hands.table.handle(Press(button, long))
    assert isinstance(event, ev.Rejected) and hands.table.state_event() == before
    return event.reason


# -- in the box -------------------------------------------------------------------------------


def test_the_computer_in_the_box_weighs_each_seats_cube_and_offers_its_doubles_together():
    engine = Told(("double", "take"), ("no double", "take"), ("double", "take"))
    hands = lined_up({"Ann": 5, "Bob": 4, "Gnu": 6}, ["Gnu"], engine)
    table = hands.table
    assert table.state.current_chouette().line == ("Gnu", "Ann", "Bob")
    assert table.computer_players == ("Gnu",) and table.computers == frozenset({W})
    assert table.state_event().chouette["computers"] == ["Gnu"]
    opening(hands, 3, 1)  # the box starts: its play is the computer's
    follow(hands)
    hands.press(B, "turn")
    play_first(hands, B)  # now the box decides, a seat at a time, on each seat's own cube
    assert engine.cube_asks() == [("white", "Ann", 1, None), ("white", "Bob", 1, None)]
    decided = [(event.seat, event.decision) for event in hands.events if isinstance(event, ev.ComputerCube)]
    assert decided == [("Ann", CubeWord.DOUBLE), ("Bob", CubeWord.NO_DOUBLE)]
    assert [event.seat for event in hands.events if isinstance(event, ev.SeatDouble)] == ["Ann"]
    assert table.phase == Phase.SEAT_DOUBLED
    hands.press(B, "turn")  # Ann takes: the box rolls, not asking again this turn
    assert table.phase == Phase.MOVE and len(engine.cube_asks()) == 2
    follow(hands)
    hands.press(B, "turn")
    play_first(hands, B)
    assert engine.cube_asks()[2:] == [("white", "Bob", 1, None)]  # Ann owns her cube now
    assert table.state.current_chouette().current_seats().seat("Bob").cube.offer is not None


def test_while_the_computer_decides_the_board_asks_nobody_and_its_seat_blinks():
    hands = lined_up({"Ann": 5, "Bob": 4, "Gnu": 6}, ["Gnu"], None)
    table = hands.table
    opening(hands, 1, 3)  # the team starts
    play_first(hands, B)
    request = table.wants_advice
    assert request is not None and (request.question, request.seat) == (Question.CUBE, "Ann")
    lit = lights_event(table.lighting())
    chairs = table.state.current_chouette().chairs
    assert (lit.asks, lit.side, lit.answers, lit.number) == ("computer_turn", W, {}, 2)
    assert lit.asked == (chairs["Ann"],)
    assert "the box's buttons are its own" in refused(hands, "white.turn")
    assert "the box's buttons are its own" in refused(hands, "white.cube", long=True)  # nor resigns
    hands.handle(Advised(request, {"action": "no double", "response": "take", "no_double": 0.0,
                                   "double_take": 0.0, "double_drop": 1.0}))
    assert table.wants_advice.seat == "Bob"


def test_the_computer_in_the_box_answers_each_double_of_the_team_on_that_seats_cube():
    engine = Told(("no double", "take"), ("no double", "take"), ("take", "drop"), ("take", "take"))
    hands = lined_up({"Ann": 5, "Bob": 4, "Gnu": 6}, ["Gnu"], engine)
    opening(hands, 1, 3)  # the team starts
    play_first(hands, B)
    follow(hands)  # the box doubled nobody (as told), rolled and played
    hands.press(B, "cube")
    hands.press(B, "turn", long=True)  # the team doubles both seats
    assert seat_answers(hands) == [("Ann", "seat_drop"), ("Bob", "seat_take")]
    assert [asked[:2] for asked in engine.cube_asks()[2:]] == [("white", "Ann"), ("white", "Bob")]
    assert [event.player for event in hands.events if isinstance(event, ev.Captain)] == ["Bob"]


def test_a_box_that_must_take_half_takes_the_captains_double_whatever_the_computer_says():
    engine = Told(("no double", "take"), ("no double", "take"), ("take", "drop"), ("take", "drop"))
    hands = lined_up({"Ann": 5, "Bob": 4, "Gnu": 6}, ["Gnu"], engine, {"box_takes_half": True})
    opening(hands, 1, 3)
    play_first(hands, B)
    follow(hands)
    hands.press(B, "cube")
    hands.press(B, "turn", long=True)
    assert seat_answers(hands) == [("Ann", "seat_take"), ("Bob", "seat_drop")]


def test_the_computer_takes_a_beaver_of_its_double_at_once():
    engine = Told(("double", "take"), ("no double", "take"))
    hands = lined_up({"Ann": 5, "Bob": 4, "Gnu": 6}, ["Gnu"], engine, config={"beavers": True})
    opening(hands, 1, 3)
    play_first(hands, B)  # the box doubles Ann ...
    hands.press(B, "cube", long=True)  # ... who beavers: the box takes at once
    assert seat_answers(hands) == [("Ann", "seat_beaver"), ("Ann", "seat_take")]
    assert hands.table.state.current_chouette().current_seats().seat("Ann").cube.value == 4


# -- in the crew ------------------------------------------------------------------------------


def test_a_computer_in_the_crew_decides_its_own_cube_first_and_the_people_choose_among_their_own():
    engine = Told(("double", "take"), ("take", "take"))
    hands = lined_up({"Ann": 6, "Bob": 5, "Gnu": 4}, ["Gnu"], engine, config={"beavers": True})
    table = hands.table
    assert table.state.current_chouette().line == ("Ann", "Bob", "Gnu") and table.computers == frozenset()
    opening(hands, 1, 3)
    play_first(hands, B)
    hands.press(W, "turn")  # the box (a person) rolls without doubling
    play_first(hands, W)
    # The team is on roll: Gnu doubles on its own cube, before the people's choice.
    assert engine.cube_asks() == [("black", "Gnu", 1, None)]
    assert [event.seat for event in hands.events if isinstance(event, ev.SeatDouble)] == ["Gnu"]
    hands.press(W, "turn")  # the box takes Gnu's double
    hands.press(B, "cube")  # the people choose: Bob only, Gnu's cube is the box's now anyway
    walk = table.state.current_chouette().walk
    assert walk is not None and walk.seats == ("Bob",)
    hands.press(B, "cube")  # not Bob
    hands.press(B, "turn")
    play_first(hands, B)
    hands.press(W, "cube")  # the box redoubles Gnu: it answers itself (take, as told)
    hands.press(W, "cube")  # not Bob
    hands.press(W, "turn")  # Gnu
    assert engine.cube_asks()[1:] == [("black", "Gnu", 2, W)]  # the box's cube at 2, redoubled
    assert seat_answers(hands)[-1] == ("Gnu", "seat_take")


def test_people_may_not_answer_for_the_computers_seat():
    hands = lined_up({"Ann": 6, "Bob": 5, "Gnu": 4}, ["Gnu"], None)
    opening(hands, 1, 3)
    play_first(hands, B)
    hands.press(W, "cube")
    hands.press(W, "turn", long=True)  # the box doubles both: Bob answers, then Gnu
    hands.press(B, "turn")
    assert hands.table.wants_advice.seat == "Gnu"
    assert "Gnu (the computer) answers for itself" in refused(hands, "black.cube")


# -- as captain -------------------------------------------------------------------------------


def test_a_computer_captain_rolls_once_the_people_of_the_crew_may_not_double():
    engine = Told(("no double", "take"), ("no double", "take"), ("no double", "take"), ("take", "take"),
                  ("take", "take"))
    hands = lined_up({"Ann": 6, "Bob": 4, "Gnu": 5}, ["Gnu"], engine)
    table = hands.table
    assert table.state.current_chouette().line == ("Ann", "Gnu", "Bob") and table.computers == frozenset({B})
    opening(hands, 3, 1)  # the box starts
    play_first(hands, W)
    # Gnu's own cube is decided; Bob may double: the team's turn waits for a person's press.
    assert engine.cube_asks() == [("black", "Gnu", 1, None)] and table.phase == Phase.ROLL
    assert table.prompt().asks == "roll_or_double" and not table.wants_roll
    assert "rolls, moves and resigns for the team" in refused(hands, "black.cube", long=True)
    hands.press(B, "turn")  # Bob rolls for the team: Gnu moves
    assert "rolls, moves and resigns for the team" in refused(hands, "black.turn")
    follow(hands)
    hands.press(W, "cube")
    hands.press(W, "turn")  # the box doubles Gnu (take, as told) ...
    hands.press(W, "turn")  # ... and Bob, who takes
    hands.press(B, "turn")
    assert seat_answers(hands) == [("Gnu", "seat_take"), ("Bob", "seat_take")]
    hands.press(W, "turn")
    play_first(hands, W)
    # Both took: each owns their cube and may redouble, so Gnu is asked on its own cube at 2.
    seats = table.state.current_chouette().current_seats()
    assert seats.seat("Bob").cube.owner is B and seats.seat("Gnu").cube.owner is B
    assert engine.cube_asks()[-1] == ("black", "Gnu", 2, B)


def test_a_computer_captain_with_a_crew_that_may_not_double_rolls_by_itself():
    engine = Told(("no double", "take"), ("take", "take"))
    hands = lined_up({"Ann": 6, "Bob": 4, "Gnu": 5}, ["Gnu"], engine)
    table = hands.table
    opening(hands, 3, 1)
    play_first(hands, W)
    hands.press(B, "cube")
    hands.press(B, "turn")  # Bob doubles the box, which takes: its cube is the box's now
    hands.press(W, "turn")
    hands.press(B, "turn")
    follow(hands)
    hands.press(W, "turn")
    play_first(hands, W)  # the team's turn: Gnu decides (no double, as told) and rolls at once
    assert table.phase == Phase.MOVE and table.following


# -- resignations -------------------------------------------------------------------------------


@pytest.mark.parametrize("jacoby, answer", [(True, "seat_resign_accepted"), (False, "seat_resign_declined")])
def test_a_computer_seat_weighs_the_boxs_resignation_on_its_own_cube(jacoby, answer):
    """The box offers a single game; the team wins a gammon half the time.  With the Jacoby
    rule and the cube centred a gammon counts single: 1 point is all the seat expects."""
    engine = Told(chances=LOST)
    hands = lined_up({"Ann": 6, "Bob": 5, "Gnu": 4}, ["Gnu"], engine, config={"jacoby": jacoby})
    opening(hands, 1, 3)
    play_first(hands, B)
    hands.press(W, "cube", long=True)
    hands.press(W, "turn")  # the box offers a single game to Bob and Gnu
    hands.press(B, "cube")  # Bob declines
    answers = [(event.seat, event.kind) for event in hands.events if event.kind.startswith("seat_resign_")
               and event.kind != "seat_resign_offered"]
    assert answers == [("Bob", "seat_resign_declined"), ("Gnu", answer)]
    (asked,) = engine.asked
    assert (asked.question, asked.player, asked.seat) == (Question.RESIGN, B, "Gnu")


def test_the_computer_in_the_box_answers_the_captains_resignation_for_every_seat_at_once():
    engine = Told(("no double", "take"), ("no double", "take"), chances={**LOST, "lose_gammon": 0.0})
    hands = lined_up({"Ann": 5, "Bob": 4, "Gnu": 6}, ["Gnu"], engine)
    opening(hands, 1, 3)
    play_first(hands, B)
    follow(hands)
    hands.press(B, "cube", long=True)
    hands.press(B, "turn")  # Ann, the captain, offers a single game ...
    hands.press(B, "turn")  # ... Ann joins ...
    hands.press(B, "turn")  # ... and Bob: the box, sure of a single game, accepts for both
    accepted = [event.seat for event in hands.events if isinstance(event, ev.SeatResignAccepted)]
    assert accepted == ["Ann", "Bob"] and hands.table.phase == Phase.RESULTS


def test_the_computers_seats_play_on_rather_than_join_the_captains_resignation():
    hands = lined_up({"Ann": 6, "Bob": 5, "Gnu": 4}, ["Gnu"], None)
    opening(hands, 1, 3)
    hands.press(B, "cube", long=True)
    hands.press(B, "turn")
    walk = hands.table.state.current_chouette().walk
    assert walk is not None and walk.seats == ("Bob",)


# -- a power cut, a failing engine --------------------------------------------------------------


def test_a_power_cut_between_the_computers_decisions_goes_on_with_the_next_seat():
    engine = Told(("double", "take"), ("no double", "take"))
    hands = lined_up({"Ann": 5, "Bob": 4, "Gnu": 6}, ["Gnu"], None)
    opening(hands, 1, 3)
    play_first(hands, B)
    request = hands.table.wants_advice
    hands.handle(Advised(request, *engine(request)))  # Ann's cube decided, Bob's asked ...
    resumed = Table.resume(hands.events, SENSING)  # ... when the power goes
    assert resumed.owed() == []
    resumed.handle(Sensed(SENSING.of(resumed.position)))
    assert resumed.wants_advice.seat == "Bob"
    out = resumed.handle(Advised(resumed.wants_advice, *engine(resumed.wants_advice)))
    assert [(event.kind, event.seat) for event in out if isinstance(event, ev.SeatDouble)] == \
        [("seat_double", "Ann")]


def test_an_engine_that_keeps_failing_leaves_the_computers_players_to_the_people():
    hands = lined_up({"Ann": 5, "Bob": 4, "Gnu": 6}, ["Gnu"], None)
    table = hands.table
    opening(hands, 1, 3)
    play_first(hands, B)
    now = table.now
    for failure in range(GIVE_UP):
        request = table.wants_advice
        assert request is not None, failure
        hands.handle(Advised(request, None, "no engine: none is configured"))
        now += RETRY
        hands.handle(Tick(now))
    assert any(isinstance(event, ev.ComputerStopped) for event in hands.events)
    assert table.computer_players == () and table.computers == frozenset()
    assert "computers" not in table.state_event().chouette
    assert table.prompt().asks == "roll_or_double" and table.prompt().side is W
    hands.press(W, "turn")  # the box's buttons are the people's now
    assert table.phase == Phase.MOVE and not table.following


# -- whole chouettes ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_chouettes_against_the_computer_add_up_and_resume_after_any_event(seed):
    engine = RandomEngine(seed)
    inputs: list[int] = []
    events = play_chouette(seed, games=5, players=5, config={"beavers": True}, engine=engine, inputs=inputs,
                           options={"computers": ["Cat", "Eve"]}, rates={"double": 0.2, "resign": 0.03})
    sheet = score_sheet(events)
    assert len(sheet.rows) == 5 and all(sum(row.totals.values()) == 0 for row in sheet.rows)
    cubes = [event for event in events if isinstance(event, ev.ComputerCube)]
    assert any(event.player is W for event in cubes)  # in the box, on any seat's cube
    assert {event.seat for event in cubes if event.player is B} <= {"Cat", "Eve"}  # in the crew: its own
    plays = [event for event in events if isinstance(event, ev.ComputerPlay)]
    assert plays and {event.player for event in plays} == {W, B}  # in the box and as captain
    # A power cut next to any of the computer's decisions or plays, or the chouette's events.
    near = CHOUETTE_KINDS | {"computer_cube", "computer_play"}
    resumes_after(events, inputs, [cut for cut in range(1, len(events) + 1)
                                   if {event.kind for event in events[cut - 1:cut + 1]} & near])
