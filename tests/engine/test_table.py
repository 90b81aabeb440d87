"""The engine at the table: hints on the board and a whole game against the computer,
played by hands that follow the lights (the simulated board, Debian's gnubg)."""

from __future__ import annotations

import os
import signal

import pytest

from bgpi.board.locations import bar
from bgpi.board.profile import Geometry
from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.rules.ids import position_id
from bgpi.rules.position import Position, Side
from bgpi.shell.advisor import open_advisor
from bgpi.shell.hands import TableHands
from bgpi.shell.runner import TableRunner
from bgpi.shell.sinks import FunctionSink
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Advised, Press, Sensed
from bgpi.table.tracker import Sensing


@pytest.fixture
def advisor(gnubg_path):
    advisor = open_advisor({"engine": "gnubg", "opponent": "gnubg:expert"})
    yield advisor
    advisor.close()


def new_table(config: dict, advisor, seed: int) -> tuple[Table, TableRunner, list[ev.Event]]:
    profile = load_profile()
    table, events = Table.new(Sensing(profile.geometry), config)
    sim = TableRunner(table, open_sim_board(profile), seed=seed, sinks=[FunctionSink(events.append)])
    hands = TableHands(sim)
    sim.computer.advise = advisor
    hands.set_position(table.position)
    sim.advance(0.1)
    return table, sim, events


def follow_lights(table: Table, sim: TableRunner) -> bool:
    """One move of the hands as the lights say: put a hit checker on the bar, or move the
    hinted checker (and, where no switch sees that move, press the button the board asks
    for).  False when the lights show neither."""
    hands = TableHands(sim)
    lighting = table.lighting()
    hits = [location for location, role in lighting.roles.items() if role == "hit"]
    if hits:
        hands.lift(hits[0])
        sim.advance(0.05)
        hands.place(bar(table.turn.opponent))
        return True
    hinted = [location for location, role in lighting.roles.items() if role == "hint"]
    if not hinted:
        return False
    (source,) = lighting.hint_from
    (destination,) = [location for location in hinted if location != source]
    hands.lift(source)
    sim.advance(0.05)
    hands.place(destination)
    if lighting.prompt is not None and lighting.prompt.asks == "confirm_step":
        sim.advance(0.1)
        sim.press(next(iter(lighting.prompt.answers)))
    return True


def play_a_game(table: Table, sim: TableRunner, events: list[ev.Event]) -> None:
    """White's hands: roll, ask for a hint and follow it, commit, take every double;
    and move black's checkers as the computer's lights say."""
    sim.press("white.turn")  # the opening roll
    for _ in range(5000):
        if any(event.kind == "game_over" for event in events):
            return
        if table.phase == "roll" and table.turn is Side.WHITE:
            sim.press("white.turn")
        elif table.phase in ("doubled", "resigned"):
            sim.press("white.turn")  # take a double, accept the computer's resignation
        elif table.phase == "move" and not follow_lights(table, sim):
            if table.turn is Side.WHITE and table.hint is None:
                sim.press("hint")
            elif table.turn is Side.WHITE:
                sim.press("white.turn")  # the hinted play stands: commit
        sim.advance(0.1)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_against_the_computer(advisor, seed):
    table, sim, events = new_table({"opponent": "gnubg:expert"}, advisor, seed)
    play_a_game(table, sim, events)
    kinds = [event.kind for event in events]
    assert "rejected" not in kinds, [event for event in events if event.kind == "rejected"]
    plays = [event for event in events if event.kind == "play"]
    assert {play.player.label for play in plays} == {"white", "black"}
    # Every play committed is the one lit: the computer's, and white's hint.
    advised = [event for event in events if isinstance(event, ev.ComputerPlay | ev.Hint)]
    assert [(event.player.label, event.move) for event in advised] == [(play.player.label, play.move) for play in plays]
    assert all(event.player.label == "black" for event in events if event.kind == "computer_play")
    assert kinds.count("computer_cube") >= 1
    sim.close()


START = "4HPwATDgc/ABMA"


def practice(config: dict, advise, turn: Side, dice: tuple[int, int] | None = None):
    """A practice table on the starting position with `turn` on roll, set up on the board."""
    profile = load_profile()
    table, events = Table.new(Sensing(profile.geometry), config, START, turn)
    sim = TableRunner(table, open_sim_board(profile), seed=0, sinks=[FunctionSink(events.append)])
    hands = TableHands(sim)
    if advise is not None:
        sim.computer.advise = advise
    hands.set_position(table.position)
    if dice:
        sim.dice.add(*dice)
    sim.advance(0.1)
    return table, sim, events


def hint_lit(table: Table) -> tuple[set, frozenset]:
    lighting = table.lighting()
    return {location for location, role in lighting.roles.items() if role == "hint"}, lighting.hint_from


def test_the_hint_follows_the_steps_and_hides_on_a_second_press(advisor):
    table, sim, events = practice({}, advisor, Side.WHITE, (3, 1))
    hands = TableHands(sim)
    sim.press("white.turn")
    sim.press("hint")
    assert events[-1].kind == "hint" and events[-1].move == "8/5 6/5"
    first = hint_lit(table)
    assert first in (({8, 5}, frozenset({8})), ({6, 5}, frozenset({6})))
    source = next(iter(first[1]))
    hands.lift(source)
    sim.advance(0.05)
    hands.place(5)
    sim.advance(0.1)
    assert hint_lit(table) == ({14 - source, 5}, frozenset({14 - source}))  # the other checker: 6 or 8
    sim.press("hint")
    assert events[-1].to_json() == {"event": "hint_off"} and hint_lit(table) == (set(), frozenset())
    sim.close()


def test_another_step_clears_the_hint(advisor):
    table, sim, events = practice({}, advisor, Side.WHITE, (3, 1))
    hands = TableHands(sim)
    sim.press("white.turn")
    sim.press("hint")
    hands.lift(13)
    sim.advance(0.05)
    hands.place(10)
    sim.advance(0.1)
    assert table.hint is None and hint_lit(table) == (set(), frozenset())
    assert not [event for event in events if event.kind == "rejected"]
    sim.close()


def test_cube_advice_before_the_roll_and_when_doubled(advisor):
    table, sim, events = practice({}, advisor, Side.WHITE)
    sim.press("hint")  # before starting: nothing to advise yet
    assert events[-1].kind == "rejected" and events[-1].reason.startswith("no hint now")
    sim.press("white.turn")  # the practice game starts and white rolls: undo by a new table
    table, sim, events = practice({}, advisor, Side.WHITE)
    sim.press("white.cube")  # starts the practice game with white's double
    assert table.phase == "doubled"
    sim.press("hint")
    assert events[-1].kind == "hint" and events[-1].player.label == "black"
    assert events[-1].advice == "take"
    assert hint_lit(table) == ({"bar:black"}, frozenset())  # steady: yes, take
    sim.press("black.turn")  # take: the advice is gone
    assert hint_lit(table) == (set(), frozenset())
    sim.close()


def test_without_an_engine_the_hint_button_says_so():
    table, sim, events = practice({}, None, Side.WHITE, (3, 1))
    sim.press("white.turn")
    sim.press("hint")
    assert events[-1].to_json() == {"event": "rejected", "player": None, "points": [],
                          "reason": "no engine: none is configured"}
    # the short 'no engine' look: both bar halves and both trays blink blue ...
    corners = {"bar:white", "bar:black", "off:white", "off:black"}
    assert hint_lit(table) == (corners, frozenset(corners))
    sim.advance(1.0)
    assert hint_lit(table) == (corners, frozenset(corners))
    # ... for two seconds of board time, then the board asks as before
    sim.advance(1.5)
    assert events[-1].to_json() == {"event": "hint_off"}
    assert hint_lit(table) == (set(), frozenset())
    sim.close()


def computer_to_play(advisor, dice=(3, 1)):
    """Black is the computer and on roll in the starting position; its roll is `dice`."""
    table, sim, events = practice({"opponent": "gnubg"}, advisor, Side.BLACK, dice)
    sim.press("black.turn")  # the practice game starts with black's roll
    return table, sim, events


def test_only_the_computer_play_is_accepted(advisor):
    table, sim, events = computer_to_play(advisor)
    hands = TableHands(sim)
    kinds = [event.kind for event in events]
    assert kinds[-3:] == ["start", "roll", "computer_play"]  # black's turn button started the practice game
    assert events[-1].move == "8/5 6/5"
    hands.lift(12)  # black's 13-point
    sim.advance(0.05)
    hands.place(15)  # 13/10: legal, but not the computer's play
    sim.advance(0.1)
    refusal = events[-1]
    assert refusal.kind == "rejected" and refusal.points == (15,)
    assert refusal.reason == "the computer plays 8/5 6/5: move its checkers as the blue lights show"
    assert hint_lit(table)[0]  # the expected step stays lit
    hands.lift(15)
    sim.advance(0.05)
    hands.place(12)
    sim.advance(0.1)
    while follow_lights(table, sim):
        sim.advance(0.1)
    assert events[-1].kind == "play" and events[-1].move == "8/5 6/5"  # committed by itself
    sim.close()


def test_a_power_cut_in_the_middle_of_the_computer_play(advisor):
    table, sim, events = computer_to_play(advisor)
    assert follow_lights(table, sim)  # one checker of two moved
    sim.advance(0.1)
    left = hint_lit(table)
    # The power comes back: the table is read back from the journal, the checkers stay.
    resumed = Table.resume(list(events), table.sensing)
    sim.replace_table(resumed)
    sim.advance(0.1)
    assert resumed.following and hint_lit(resumed) == left
    while follow_lights(resumed, sim):
        sim.advance(0.1)
    assert events[-1].kind == "play" and events[-1].move == "8/5 6/5"
    sim.close()


def test_the_computer_answers_a_double(advisor):
    _table, sim, events = practice({"opponent": "gnubg"}, advisor, Side.WHITE)
    sim.press("white.cube")  # white doubles at the start: the computer takes
    assert [event.kind for event in events[-3:]] == ["double", "computer_cube", "take"]
    assert events[-2].decision == "take"
    sim.close()


def test_a_failing_engine_is_asked_again_later(advisor):
    answers = iter([(None, "gnubg did not answer in time")])

    def flaky(request):
        return next(answers, None) or advisor(request)

    _table, sim, events = computer_to_play(flaky)
    assert events[-1].to_json() == {"event": "rejected", "player": None, "points": [],
                          "reason": "gnubg did not answer in time"}
    sim.advance(2.5)  # RETRY seconds of board time later
    assert events[-1].kind == "computer_play"
    sim.close()


def test_a_killed_gnubg_does_not_stop_the_game(advisor):
    table, sim, events = computer_to_play(advisor)  # gnubg started and answered
    os.kill(advisor.engine.backend.pid, signal.SIGKILL)
    while follow_lights(table, sim):
        sim.advance(0.1)
    sim.press("white.turn")  # white rolls
    sim.press("hint")  # a new gnubg answers
    assert events[-1].kind == "hint"
    sim.close()


def test_the_coach_shows_the_better_play(advisor):
    table, sim, events = practice({"coach": 0.04}, advisor, Side.WHITE, (3, 1))
    hands = TableHands(sim)
    sim.press("white.turn")
    for source, destination in ((24, 21), (24, 23)):
        hands.lift(source)
        sim.advance(0.05)
        hands.place(destination)
        sim.advance(0.1)
    sim.press("white.turn")
    coach = events[-1]
    assert coach.kind == "coach" and coach.played == "24/23 24/21" and coach.best == "8/5 6/5"
    assert coach.loss > 0.04 and (coach.from_, coach.to) == ((6, 8), (5,))
    assert hint_lit(table) == ({5, 6, 8}, frozenset({6, 8}))
    sim.dice.add(6, 5)
    sim.press("black.turn")  # the next roll ends the lesson
    assert hint_lit(table) == (set(), frozenset())
    sim.close()


def test_the_coach_is_quiet_after_a_good_play(advisor):
    table, sim, events = practice({"coach": 0.04}, advisor, Side.WHITE, (3, 1))
    sim.press("white.turn")
    sim.press("hint")
    while follow_lights(table, sim):
        sim.advance(0.1)
    sim.press("white.turn")
    assert events[-1].kind == "play" and "coach" not in [event.kind for event in events]
    sim.close()


def test_the_hint_button_leaves_the_computer_play_lit(advisor):
    table, sim, events = computer_to_play(advisor)
    lit = hint_lit(table)
    sim.press("hint")
    assert events[-1].kind == "rejected" and events[-1].reason == "no hint now: the computer is deciding"
    assert hint_lit(table) == lit and [event.kind for event in events].count("computer_play") == 1
    sim.close()


def play_along(table: Table, sim: TableRunner, events: list[ev.Event], human: Side | None) -> None:
    """The hands of a game: the opening roll, `human`'s rolls, takes, hints and commits (if
    there is a human), and every checker moved as the lights say."""
    sim.press("white.turn")  # the opening roll: either player's turn button
    for _ in range(8000):
        if any(event.kind == "game_over" for event in events):
            return
        mine = human is not None and table.turn is human
        if table.phase == "roll" and mine:
            sim.press(f"{human.label}.turn")
        elif table.phase == "doubled" and human is not None and table.turn is not human:
            sim.press(f"{human.label}.turn")  # take
        elif table.phase == "move" and not follow_lights(table, sim) and mine:
            sim.press("hint" if table.hint is None else f"{human.label}.turn")
        sim.advance(0.1)
    raise AssertionError("the game did not end")


def test_the_computer_plays_white_when_told_to(advisor):
    # Issue 19, item 5: opponent_side white; the human plays black.
    table, sim, events = new_table({"opponent": "gnubg:expert", "opponent_side": "white"}, advisor, 6)
    play_along(table, sim, events, Side.BLACK)
    assert {event.player.label for event in events if event.kind == "computer_play"} == {"white"}
    assert {event.player.label for event in events if event.kind == "play"} == {"white", "black"}
    sim.close()


def test_computer_against_computer_is_a_game_the_hands_only_move_along(advisor):
    # Issue 19, item 5: opponent_side both: the computer rolls, decides the cube and plays
    # for both; the hands move the checkers as lit, and no button is pressed but the opening
    # (and a turn button where no switch sees a lit move made: issue 29, item 4).
    table, sim, events = new_table({"opponent": "gnubg:expert", "opponent_side": "both"}, advisor, 4)
    play_along(table, sim, events, None)
    plays = [event for event in events if event.kind == "play"]
    shown = [event for event in events if event.kind == "computer_play"]
    assert {play.player.label for play in plays} == {"white", "black"}
    assert [(event.player.label, event.move) for event in shown] == [(play.player.label, play.move) for play in plays]
    assert "rejected" not in [event.kind for event in events]
    sim.close()


def test_the_computer_resigns_a_hopeless_bear_off_and_the_human_accepts(advisor):
    """Black, the computer, on roll with 15 checkers on its 1-point against white's last
    checker: it cannot win, nor lose a gammon, and resigns a single game before rolling."""
    white, black = [0] * 25, [0] * 25
    white[0], black[0] = 1, 15
    position = Position(tuple(white), tuple(black))
    sensing = Sensing(Geometry())
    table, events = Table.new(sensing, {"opponent": "gnubg:expert"}, position_id(position, Side.BLACK), Side.BLACK)
    events += table.handle(Sensed(sensing.of(position)))
    events += table.handle(Press("white.turn"))
    request = table.wants_advice
    assert request is not None and request["kind"] == "resign"
    answer, error = advisor(request)
    assert error is None and answer["win"] < 1e-4 and answer["lose_gammon"] < 1e-4
    events += table.handle(Advised(request, answer, error))
    assert events[-1].to_json() == {"event": "resign_offered", "player": "black", "result": "single"}
    events += table.handle(Press("white.turn"))
    assert [event.kind for event in events[-2:]] == ["resign_accepted", "game_over"]
    assert events[-1].winner.label == "white" and events[-1].result.value == "single" and events[-1].points == 1
