"""Plays the switches cannot see (issue 29, item 4): a step of a play the board follows
(the other board's, the computer's) that takes a checker from a point that stays at
five or more into the tray, which has no switches (the default profile), changes
nothing the switches read.  Such a play must not commit the instant it arrives: each
such step stays lit until the turn button of the player at this board says it is made;
the steps the switches see go on by themselves, and the play commits once it stands."""

from __future__ import annotations

import pytest

from bgpi.board.profile import Geometry
from bgpi.rules.ids import match_id, position_id
from bgpi.rules.position import OFF, Position, Side
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Advised, Press, Remote, Rolled, RollWanted, Sensed
from bgpi.table.phases import Link
from bgpi.table.requests import Question
from bgpi.table.tracker import Sensing
from tests.rules.boards import position, result

W, B = Side.WHITE, Side.BLACK
SENSING = Sensing(Geometry())
BLACK_2, BLACK_3, BLACK_4, BLACK_6 = 23, 22, 21, 19  # black's points, in white's count
NO_DOUBLE = {"action": "no double", "no_double": 0.0, "double_take": 0.0, "double_drop": 0.0}
PLAYS_ON = {"win": 0.5, "win_gammon": 0.0, "win_backgammon": 0.0, "lose_gammon": 0.0, "lose_backgammon": 0.0}


def started(black: dict[int, int], config: dict) -> tuple[Table, Position, list[ev.Event]]:
    """A practice position, black (played elsewhere) on roll: black's checkers by own
    point, white's two on its 6-point; white's press starts the game.  Its events so far."""
    start = position({6: 2}, black)
    table, journal = Table.new(SENSING, config, position_id(start, B), B)
    journal += table.handle(Sensed(SENSING.of(start)))
    journal += table.handle(Press("white.turn"))
    return table, start, journal


def remote_play(black: dict[int, int], dice: tuple[int, int], steps: list[tuple[int, int]],
                journal: list[ev.Event] | None = None) -> tuple[Table, list[ev.Event], ev.Play]:
    """The other board (black) rolls `dice` and plays `steps` (its own count): the events
    of its play arriving, and the play; `journal` gets every event."""
    table, start, events = started(black, {"remote": "black"})
    events += table.handle(Remote(RollWanted()))
    events += table.handle(Rolled(*dice))
    after = result(start, B, steps)
    play = ev.Play(B, dice, "", position_id(after, W), match_id(table.state.current_game().end_turn().match_key()))
    arrived = table.handle(Remote(play))
    if journal is not None:
        journal += events + arrived
    return table, arrived, play


def computer_play(black: dict[int, int], dice: tuple[int, int], steps: list[tuple[int, int]],
                  config: dict | None = None, journal: list[ev.Event] | None = None) -> tuple[Table, list[ev.Event]]:
    """The computer (black) rolls `dice` and plays `steps`, the engine's answers given by
    hand: the events of its play; `journal` gets every event."""
    table, start, events = started(black, {"opponent": "gnubg", **(config or {})})
    while (request := table.wants_advice) is not None and request.question is not Question.PLAYS:
        events += table.handle(Advised(request, NO_DOUBLE if request.question is Question.CUBE else PLAYS_ON))
        if table.wants_roll is not None:
            events += table.handle(Rolled(*dice))
    after = result(start, B, steps)
    played = table.handle(Advised(table.wants_advice, {"move": "", "position_id": position_id(after, B),
                                                       "equity": 0.0}))
    if journal is not None:
        journal += events + played
    return table, played


def same(committed: ev.Event, play: ev.Play) -> bool:
    """The play committed is the one sent (in this board's words)."""
    return isinstance(committed, ev.Play) and (committed.player, committed.dice, committed.position_id,
                                                committed.match_id) == (play.player, play.dice, play.position_id,
                                                                        play.match_id)


def kinds(events: list[ev.Event]) -> list[str]:
    return [event.kind for event in events]


def hinted(table: Table) -> set:
    return {location for location, role in table.lighting().roles.items() if role == "hint"}


def sensed(table: Table, **changes: int) -> list[ev.Event]:
    """The switches read as the play so far, but for `changes` ({"p23": 4}: point 23 reads 4)."""
    counts = list(SENSING.of(table.node.position))
    for name, count in changes.items():
        counts[SENSING.index[int(name[1:])]] = count
    return table.handle(Sensed(tuple(counts)))


def test_a_lit_remote_play_no_switch_sees_stays_lit_until_each_step_is_confirmed():
    table, events, play = remote_play({2: 7}, (2, 2), [(2, OFF)] * 4)  # the first two off leave the point full
    assert kinds(events) == ["remote_play", "unseen_step"]  # not committed, lights on
    assert events[1] == ev.UnseenStep(B, BLACK_2, "off:black", W)
    assert hinted(table) == {BLACK_2, "off:black"} and table.lighting().hint_from == {BLACK_2}
    prompt = table.prompt()
    assert (prompt.asks, prompt.side) == ("confirm_step", W)
    assert dict(prompt.answers) == {"white.turn": "confirm the lit move"}
    assert table.handle(Press("black.turn")) == []  # black's buttons here are the other board's player's
    assert kinds(table.handle(Press("white.turn"))) == ["step", "unseen_step"]
    assert kinds(table.handle(Press("white.turn"))) == ["step"]  # five are left: the next one off is seen
    assert hinted(table) == {BLACK_2, "off:black"} and table.prompt().asks == "move"
    assert kinds(table.handle(Press("white.turn"))) == ["rejected"]  # nothing to confirm now
    assert kinds(sensed(table, p23=4)) == ["step"]
    *steps, committed = sensed(table, p23=3)
    assert kinds(steps) == ["step"] and same(committed, play)
    assert table.phase == "roll" and table.turn is W


def test_a_play_none_of_whose_steps_is_seen_commits_after_the_last_press():
    table, events, play = remote_play({2: 10}, (2, 2), [(2, OFF)] * 4)  # the point reads full all along
    assert kinds(events) == ["remote_play", "unseen_step"]
    for _ in range(3):
        assert kinds(table.handle(Press("white.turn"))) == ["step", "unseen_step"]
    *steps, committed = table.handle(Press("white.turn"))
    assert kinds(steps) == ["step"] and same(committed, play)


def test_when_the_stack_later_drops_the_next_lit_play_commits_as_the_board_shows_it():
    table, _, _ = remote_play({2: 6}, (2, 1), [(2, OFF), (2, 1)])  # 2/off unseen, then 2/1 seen on the 1-point
    table.handle(Press("white.turn"))
    assert table.phase == "move" and table.prompt().asks == "move"
    *_, committed = sensed(table, p24=1, p23=4)
    assert isinstance(committed, ev.Play) and table.phase == "roll"


def test_a_confirmation_is_refused_while_the_board_does_not_show_the_play_so_far():
    table, _, _ = remote_play({2: 7, 3: 1}, (2, 2), [(2, OFF)] * 4)
    sensed(table, p22=0)  # black's checker from its 3-point in a hand
    (refused,) = table.handle(Press("white.turn"))
    assert isinstance(refused, ev.Rejected) and refused.player is W
    assert refused.reason.startswith("the board does not show the play so far")
    sensed(table)
    assert kinds(table.handle(Press("white.turn"))) == ["step", "unseen_step"]


def test_a_seen_step_made_first_goes_on_and_the_unseen_one_is_still_asked():
    # 4/2 lands on the full 2-point (seen: the 4-point empties), then 2/off(3) from eight.
    table, events, _ = remote_play({2: 7, 4: 1}, (2, 2), [(4, 2), (2, OFF), (2, OFF), (2, OFF)])
    assert kinds(events) == ["remote_play"] and table.prompt().asks == "move"
    assert kinds(sensed(table, p21=0)) == ["step", "unseen_step"]
    assert hinted(table) == {BLACK_2, "off:black"} and table.prompt().asks == "confirm_step"


def test_the_computers_lit_play_waits_for_the_human_player_as_well():
    table, events = computer_play({2: 9}, (2, 2), [(2, OFF)] * 4)
    assert kinds(events) == ["computer_play", "unseen_step"] and events[1].by is W
    assert table.prompt().asks == "confirm_step" and table.prompt().side is W
    assert table.handle(Press("black.turn")) == []  # the computer's buttons are the engine's
    for _ in range(3):
        assert kinds(table.handle(Press("white.turn"))) == ["step", "unseen_step"]
    *_, committed = table.handle(Press("white.turn"))
    assert isinstance(committed, ev.Play) and committed.player is B and table.phase == "roll"


def test_computer_against_computer_takes_either_turn_button():
    table, events = computer_play({2: 9}, (2, 2), [(2, OFF)] * 4, {"opponent_side": "both"})
    assert events[-1] == ev.UnseenStep(B, BLACK_2, "off:black", None)
    prompt = table.prompt()
    assert prompt.side is None and set(prompt.answers) == {"white.turn", "black.turn"}
    assert kinds(table.handle(Press("black.turn"))) == ["step", "unseen_step"]
    assert kinds(table.handle(Press("white.turn"))) == ["step", "unseen_step"]


def test_a_resumed_table_asks_only_for_the_steps_not_confirmed_before_the_power_cut():
    """A step no switch sees, confirmed before the power cut, is in the journal and
    nowhere else: read back, the table goes on from it, and asks for the steps left."""
    journal: list[ev.Event] = []
    table, _, play = remote_play({2: 10}, (2, 2), [(2, OFF)] * 4, journal)
    journal += table.handle(Press("white.turn"))
    resumed = Table.resume(journal, SENSING)
    assert resumed.following and resumed.hint == table.hint and resumed.node == table.node
    assert kinds(resumed.handle(Sensed(SENSING.of(table.position)))) == ["unseen_step"]
    assert resumed.handle(Remote(play)) == []  # the resync's same play: it stays lit
    for _ in range(2):
        assert kinds(resumed.handle(Press("white.turn"))) == ["step", "unseen_step"]
    *_, committed = resumed.handle(Press("white.turn"))
    assert same(committed, play)


def test_a_table_resumed_with_the_computers_play_lit_follows_it_from_where_the_checkers_stand():
    """Issue 29, item 1, for the computer's play: a power cut after one of its steps no
    switch sees was confirmed.  Read back, the play is lit as it was (never played again
    by the engine, never committed before the hands have made it), the steps left asked."""
    journal: list[ev.Event] = []
    table, _ = computer_play({2: 9}, (2, 2), [(2, OFF)] * 4, journal=journal)
    journal += table.handle(Press("white.turn"))
    resumed = Table.resume(journal, SENSING)
    assert resumed.following and resumed.hint == table.hint and resumed.wants_advice is None
    assert kinds(resumed.handle(Sensed(SENSING.of(table.position)))) == ["unseen_step"]
    for _ in range(2):
        assert kinds(resumed.handle(Press("white.turn"))) == ["step", "unseen_step"]
    *_, committed = resumed.handle(Press("white.turn"))
    assert isinstance(committed, ev.Play) and committed.player is B and resumed.phase == "roll"


@pytest.mark.parametrize("journaled", [True, False], ids=["after its step", "before its step"])
def test_a_board_cut_off_mid_way_through_an_unseen_bear_off_asks_for_what_is_left_while_the_other_is_away(
        journaled: bool):
    """The random power-cut test's failure (tests/remote/test_power_cuts.py): black's
    3/off(2) from eleven on its 3-point, followed here.  The first checker off and
    confirmed, the power is cut just after the press's step is on the disk, or just before
    it.  Read back, the board waits for the other board (connecting) but asks for the
    press the lit step needs, not for away: shown as away, the player (and the tests'
    hands) took the lit checker off again and again.  It asks for the second checker only,
    or for the first again when its step never reached the disk (the press was lost)."""
    journal: list[ev.Event] = []
    table, _, play = remote_play({1: 1, 3: 11}, (5, 6), [(3, OFF), (3, OFF)], journal)
    pressed = table.handle(Press("white.turn"))
    assert kinds(pressed) == ["step", "unseen_step"]
    journal += pressed[:1] if journaled else []
    resumed, applied = Table.resume_prefix(journal, SENSING)
    assert resumed is not None and applied == len(journal) and resumed.link is Link.CONNECTING
    assert kinds(resumed.handle(Sensed(SENSING.of(table.position)))) == ["unseen_step"]
    prompt = resumed.prompt()
    assert (prompt.asks, prompt.side) == ("confirm_step", W)
    assert dict(prompt.answers) == {"white.turn": "confirm the lit move"}
    assert hinted(resumed) == {BLACK_3, "off:black"}
    if not journaled:
        assert kinds(resumed.handle(Press("white.turn"))) == ["step", "unseen_step"]
    *steps, committed = resumed.handle(Press("white.turn"))
    assert kinds(steps) == ["step"] and same(committed, play)


def test_a_seen_step_after_a_confirmed_unseen_one_keeps_it():
    """Black's 4/off 3/off from eleven on its 3-point: 3/off lit first, no switch sees it,
    confirmed; then 4/off, which the switches see.  The board reads the same with the
    3/off made or not: the press said it is, so the play stands and commits, never asking
    for 3/off again (a player following the lights would take a second checker off)."""
    table, _, play = remote_play({1: 3, 3: 11, 4: 1}, (3, 4), [(4, OFF), (3, OFF)])
    assert hinted(table) == {BLACK_3, "off:black"}
    assert kinds(table.handle(Press("white.turn"))) == ["step"]
    assert hinted(table) == {BLACK_4, "off:black"}
    *steps, committed = sensed(table, p21=0)
    assert kinds(steps) == ["step"] and same(committed, play)


def test_a_resumed_table_retraces_the_steps_taken_back_as_well():
    """Black's 3/off(2) 6/3(2) followed here: one checker off (confirmed), one from the
    6-point down on the 3-point and back again.  Read back, the table stands where the
    journal left it: the checker off made, no other."""
    journal: list[ev.Event] = []
    black = {1: 5, 3: 8, 6: 2}
    table, _, _ = remote_play(black, (3, 3), [(3, OFF), (3, OFF), (6, 3), (6, 3)], journal)
    journal += [ev.Step(B, BLACK_3, "off:black", False), ev.Step(B, BLACK_6, BLACK_3, False),
                ev.Undo(B, BLACK_3, BLACK_6)]
    node = Table.resume(journal, SENSING).node
    assert node.position == result(position({6: 2}, black), B, [(3, OFF)]) and len(node.dice_left) == 3
    journal[-3:] = [ev.Step(B, "bar:white", BLACK_3, False)]  # no step of black's: the switches say
    assert Table.resume(journal, SENSING).node == table.tree.root


def test_a_lit_checker_that_hits_on_the_way_stops_there_until_the_blot_is_on_the_bar():
    """A chain lit from its point to its end could never be followed: its hit on the way
    would be passed over.  Lit up to the blot, then on from there once it is on the bar."""
    table, _, start = remote_play_with_a_hit()
    assert hinted(table) == {14, 20}  # black's 11 to its 5, where white's blot stands
    counts = list(SENSING.of(start))
    counts[SENSING.index[14]] -= 1
    counts[SENSING.index[20]] += 1  # black's checker down on white's blot
    assert kinds(table.handle(Sensed(tuple(counts)))) == ["step"]
    assert table.lighting().roles[20] == "hit"
    counts[SENSING.index[20]] -= 1
    counts[SENSING.index["bar:white"]] += 1
    table.handle(Sensed(tuple(counts)))
    assert hinted(table) == {20, "off:black"}  # on from the 5-point, into the tray


def remote_play_with_a_hit() -> tuple[Table, ev.Play, Position]:
    """Black (the other board) plays 6-6 as 11/5*/off 4/off 3/off over white's blot on its 5-point."""
    start = position({1: 8, 2: 2, 5: 2, 10: 1, 17: 1, 20: 1}, {1: 8, 3: 5, 4: 1, 11: 1})
    table, _ = Table.new(SENSING, {"remote": "black"}, position_id(start, B), B)
    table.handle(Sensed(SENSING.of(start)))
    table.handle(Press("white.turn"))
    table.handle(Remote(RollWanted()))
    table.handle(Rolled(6, 6))
    after = result(start, B, [(11, 5), (5, OFF), (4, OFF), (3, OFF)])
    play = ev.Play(B, (6, 6), "", position_id(after, W), match_id(table.state.current_game().end_turn().match_key()))
    assert kinds(table.handle(Remote(play))) == ["remote_play"]
    return table, play, start


def test_a_lit_hitter_down_on_its_blot_lights_the_hit_though_another_reading_fits():
    """Black's 22/21* 6/4* over two of white's blots: with the first hitter down on its
    blot, the board also reads as the whole play with a checker in hand; the play followed
    goes on as far as the board shows it made, and lights the hit."""
    start = position({4: 1, 21: 1, 6: 5, 13: 5, 8: 3}, {22: 1, 6: 5, 13: 5, 8: 4})
    table, _ = Table.new(SENSING, {"remote": "black"}, position_id(start, B), B)
    table.handle(Sensed(SENSING.of(start)))
    table.handle(Press("white.turn"))
    table.handle(Remote(RollWanted()))
    table.handle(Rolled(1, 2))
    after = result(start, B, [(22, 21), (6, 4)])
    table.handle(Remote(ev.Play(B, (1, 2), "", position_id(after, W),
                                match_id(table.state.current_game().end_turn().match_key()))))
    (source,) = table.lighting().hint_from
    (destination,) = hinted(table) - {source}
    counts = list(SENSING.of(start))
    counts[SENSING.index[source]] -= 1
    counts[SENSING.index[destination]] += 1
    assert kinds(table.handle(Sensed(tuple(counts)))) == ["step"]
    assert table.lighting().roles[destination] == "hit"


def test_a_lit_hitter_lifted_before_a_full_bar_is_in_hand_not_a_hit_made():
    """Black's bar/17* over white's blot on its 8-point, white's four on the bar reading
    full: black's checker lifted from the bar reads as the whole play made (the blot's
    point holds one checker either way; the bar gains one no switch counts).  The hitter
    is in hand: the play goes on when it is down on the blot, lights the hit, and commits
    once the blot is off its point."""
    table, start, play, _ = hit_before_a_full_bar()
    counts = list(SENSING.of(start))
    counts[SENSING.index["bar:black"]] -= 1  # the hitter in hand
    assert table.handle(Sensed(tuple(counts))) == []
    roles = table.lighting().roles
    assert table.phase == "move" and (roles["bar:black"], roles[8]) == ("source", "destination")
    counts[SENSING.index[8]] += 1  # down on the blot
    assert kinds(table.handle(Sensed(tuple(counts)))) == ["step"]
    assert table.lighting().roles[8] == "hit"
    counts[SENSING.index[8]] -= 1  # the blot lifted, to the bar that reads full already
    *_, committed = table.handle(Sensed(tuple(counts)))
    assert same(committed, play) and table.phase == "roll"


def hit_before_a_full_bar() -> tuple[Table, Position, ev.Play, list[ev.Event]]:
    """Black (the other board) plays 5-3 as bar/17*, four of white's checkers on the bar
    already: the table with the play lit, the position before it, the play, the journal."""
    start = position({2: 6, 6: 2, 8: 1, 14: 1, 21: 1}, {1: 3, 2: 4, 3: 5, 6: 1, 16: 1}, white_bar=4, black_bar=1)
    table, journal = Table.new(SENSING, {"remote": "black"}, position_id(start, B), B)
    for happened in (Sensed(SENSING.of(start)), Press("white.turn"), Remote(RollWanted()), Rolled(3, 5)):
        journal += table.handle(happened)
    play = ev.Play(B, (3, 5), "", position_id(result(start, B, [(25, 22), (22, 17)]), W),
                   match_id(table.state.current_game().end_turn().match_key()))
    journal += table.handle(Remote(play))
    assert table.lighting().hint_from == {"bar:black"} and hinted(table) == {"bar:black", 8}
    return table, start, play, journal


def test_a_hit_before_a_full_bar_made_blot_first_commits_when_the_hitter_is_down():
    """The blot to the bar first, then the hitter: put down on the emptied point, it is no
    checker just lifted from the play so far, and the play commits."""
    table, start, play, _ = hit_before_a_full_bar()
    counts = list(SENSING.of(start))
    counts[SENSING.index[8]] -= 1  # the blot lifted, to the bar that reads full already
    table.handle(Sensed(tuple(counts)))
    counts[SENSING.index["bar:black"]] -= 1  # the hitter in hand
    table.handle(Sensed(tuple(counts)))
    counts[SENSING.index[8]] += 1  # and down
    *_, committed = table.handle(Sensed(tuple(counts)))
    assert same(committed, play) and table.phase == "roll"


def test_a_table_resumed_with_a_hit_before_a_full_bar_made_commits_it():
    """The power cut after the hands made the lit hit, before the board saw it: read back,
    the board shows the play made (never a checker in hand for ever)."""
    table, start, play, journal = hit_before_a_full_bar()
    resumed = Table.resume(journal, SENSING)
    *_, committed = resumed.handle(Sensed(SENSING.of(result(start, B, [(25, 22), (22, 17)]))))
    assert same(committed, play) and resumed.phase == "roll"
