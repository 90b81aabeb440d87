"""A remote game through the real table (issue 23): the other board's decisions arrive as
`Remote` inputs, are checked as presses are, and the other board's play is lit and
followed as the computer's is.  Here white is played at this board, black at the other."""

from __future__ import annotations

import pytest

from bgpi.board.profile import Geometry, LedConfig
from bgpi.hardware.profile import load_profile
from bgpi.rules.ids import match_id, position_id
from bgpi.rules.position import Position, Side
from bgpi.rules.result import ResultKind
from bgpi.table import events as ev
from bgpi.table.controller import REMOTE_SESSION, Table
from bgpi.table.inputs import LinkChanged, Press, Remote, Rolled, RollWanted, Sensed, Tick
from bgpi.table.lights import BLUE, CUBE_COLOUR, DIM_BLUE, RED, colours
from bgpi.table.phases import Link
from bgpi.table.tracker import Sensing
from tests.rules.boards import position, result

W, B = Side.WHITE, Side.BLACK
SENSING = Sensing(Geometry())
def opened(white: int, black: int, config: dict | None = None) -> tuple[Table, list[ev.Event]]:
    """This board's table (black played at the other board) after the opening roll."""
    table, events = Table.new(SENSING, {"remote": "black", **(config or {})})
    events += table.handle(Sensed(SENSING.of(Position.start())))
    events += table.handle(Press("white.turn"))
    assert table.wants_roll == "opening"
    events += table.handle(Rolled(white, black))
    return table, events


def black_plays_first() -> Table:
    table, _ = opened(1, 3)  # black (the other board) starts with 3-1
    assert table.phase == "move" and table.turn is B
    return table


def black_play(table: Table, move: str) -> ev.Play:
    """Black's play of the roll `move` (plain steps: "8/5 6/5"), as the other board commits it."""
    steps = [(int(source), int(destination)) for source, destination in (step.split("/") for step in move.split())]
    after = result(table.position, B, steps)
    return ev.Play(B, (table.dice.first, table.dice.second), move, position_id(after, W),
                   match_id(table.state.current_game().end_turn().match_key()))


def refused(events: list[ev.Event], kind: str) -> str:
    (event,) = events
    assert isinstance(event, ev.RemoteRefused) and event.player is B and event.refused == kind
    return event.reason


def white_on_roll() -> Table:
    table, _ = opened(3, 1)
    table.handle(Sensed(SENSING.of(result(Position.start(), W, [(8, 5), (6, 5)]))))
    (play,) = table.handle(Press("white.turn"))
    assert isinstance(play, ev.Play)
    table.handle(Remote(RollWanted()))
    table.handle(Rolled(6, 5))
    table.handle(Remote(black_play(table, "24/13")))
    table.handle(Sensed(SENSING.of(result(table.position, B, [(24, 13)]))))
    assert table.phase == "roll" and table.turn is W
    return table


# -- the other board's play ----------------------------------------------------------------


def test_the_other_boards_play_is_lit_and_commits_itself_once_the_board_shows_it():
    table = black_plays_first()
    remote = black_play(table, "8/5 6/5")
    (lit,) = table.handle(Remote(remote))
    assert lit == ev.RemotePlay(B, (1, 3), "8/5 6/5", remote.position_id)
    assert table.following and table.prompt().asks == "move"  # lit as the computer's play is
    assert set(table.lighting().roles.values()) == {"hint"}
    *steps, play = table.handle(Sensed(SENSING.of(result(table.position, B, [(8, 5), (6, 5)]))))
    assert [step.kind for step in steps] == ["step", "step"]
    assert play == remote  # the same play as the other board committed
    assert table.phase == "roll" and table.turn is W


def test_a_play_that_strays_from_the_other_boards_is_rejected():
    table = black_plays_first()
    table.handle(Remote(black_play(table, "8/5 6/5")))
    (rejected,) = table.handle(Sensed(SENSING.of(result(table.position, B, [(24, 21)]))))
    assert isinstance(rejected, ev.Rejected)
    assert rejected.reason == "black plays 8/5 6/5 on the other board: move its checkers as the blue lights show"


def test_an_illegal_play_is_refused_and_changes_nothing():
    table = black_plays_first()
    illegal = black_play(table, "8/5 6/5")
    cheat = ev.Play(B, illegal.dice, "8/2", position_id(result(table.position, B, [(8, 2)]), W), illegal.match_id)
    before = table.state_event()
    reason = refused(table.handle(Remote(cheat)), "play")
    assert reason == "the other board's play (8/2) is not a legal play of 1-3 here"
    assert table.state_event() == before and not table.following
    assert table.remote_refusal == ev.RemoteRefused(B, "play", reason)


def test_a_play_of_other_dice_is_refused():
    table = black_plays_first()
    remote = black_play(table, "8/5 6/5")
    other = ev.Play(B, (3, 1), remote.move, remote.position_id, remote.match_id)
    assert refused(table.handle(Remote(other)), "play") == \
        "the other board's play is of the dice 3-1, not of this roll's 1-3"


def test_a_play_with_another_match_id_is_refused():
    table = black_plays_first()
    remote = black_play(table, "8/5 6/5")
    other = ev.Play(B, remote.dice, remote.move, remote.position_id, "cAkAAAAAAAAA")
    assert "leaves the Match ID cAkAAAAAAAAA" in refused(table.handle(Remote(other)), "play")


def test_another_play_while_the_first_is_lit_is_refused():
    table = black_plays_first()
    remote = black_play(table, "8/5 6/5")
    table.handle(Remote(remote))
    other = black_play(table, "24/21 6/5")
    assert refused(table.handle(Remote(other)), "play") == "the other board's play is lit already: 8/5 6/5"


def test_the_same_play_again_while_it_is_lit_stays_lit_and_commits():
    """Issue 29, item 1: a board resumed with the other board's play lit is sent the same
    play again by the resync: not a disagreement; the play stays lit and goes on."""
    table = black_plays_first()
    remote = black_play(table, "8/5 6/5")
    (lit,) = table.handle(Remote(remote))
    table.handle(Sensed(SENSING.of(result(table.position, B, [(8, 5)]))))  # one step carried
    assert table.handle(Remote(remote)) == [] and table.remote_refusal is None
    assert table.hint == lit and table.following
    *steps, play = table.handle(Sensed(SENSING.of(result(table.position, B, [(8, 5), (6, 5)]))))
    assert [step.kind for step in steps] == ["step"] and play == remote


def test_a_play_out_of_turn_or_in_the_wrong_phase_is_refused():
    table, _ = opened(3, 1)  # white's roll
    remote = ev.Play(B, (3, 1), "8/5 6/5", "4HPwATDgc/ABMA", "cAkAAAAAAAAA")
    assert refused(table.handle(Remote(remote)), "play") == \
        "the other board's play is not allowed now: white decides, not black"
    table = white_on_roll()
    assert refused(table.handle(Remote(remote)), "play") == \
        "the other board's play is not allowed now: white is on roll"


def test_an_event_of_this_boards_side_is_refused():
    table, _ = opened(3, 1)
    mine = ev.Play(W, (3, 1), "8/5 6/5", "4HPwATDgc/ABMA", "cAkAAAAAAAAA")
    (event,) = table.handle(Remote(mine))
    assert event == ev.RemoteRefused(W, "play", "white is played at this board, not the other")


def test_an_event_the_other_board_may_not_send_is_refused():
    table = black_plays_first()
    assert refused(table.handle(Remote(ev.Roll(B, (6, 6)))), "roll") == "the other board may not send a roll event"
    assert refused(table.handle(Remote(ev.Start("4HPwATDgc/ABMA"))), "start") == \
        "the other board may not send a start event"


def test_a_session_without_a_remote_side_refuses_every_remote_event():
    table, _ = Table.new(SENSING, {})
    (event,) = table.handle(Remote(ev.Double(B, 2)))
    assert isinstance(event, ev.RemoteRefused) and event.reason == "this session is no remote game"


def test_a_roll_the_other_board_cannot_play_commits_at_once():
    start = position({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, {6: 3}, black_bar=1)  # white holds its home board
    table, _ = Table.new(SENSING, {"remote": "black"}, position_id(start, B), B)
    table.handle(Sensed(SENSING.of(start)))
    table.handle(Press("white.turn"))  # set: the game starts, black (the other board) on roll
    table.handle(Remote(RollWanted()))
    table.handle(Rolled(6, 5))
    dance = ev.Play(B, (6, 5), "", position_id(start, W), match_id(table.game.end_turn().match_key()))
    lit, play = table.handle(Remote(dance))
    assert isinstance(lit, ev.RemotePlay) and play == dance


# -- the dice ------------------------------------------------------------------------------


def test_the_other_board_asking_for_the_dice_makes_the_table_want_them_on_its_roll_only():
    table = white_on_roll()  # white's roll: black may not ask
    assert refused(table.handle(Remote(RollWanted())), "roll") == \
        "the other board's roll is not allowed now: white decides, not black"
    assert table.wants_roll is None
    table.handle(Press("white.turn"))
    table.handle(Rolled(2, 1))
    table.handle(Sensed(SENSING.of(result(table.position, W, [(13, 11), (6, 5)]))))
    table.handle(Press("white.turn"))
    assert table.phase == "roll" and table.turn is B and table.wants_roll is None
    assert table.handle(Remote(RollWanted())) == []
    assert table.wants_roll == "turn"
    assert refused(table.handle(Remote(RollWanted())), "roll") == "the other board's roll is asked for already"
    (roll,) = table.handle(Rolled(4, 4))
    assert roll == ev.Roll(B, (4, 4))


def test_the_opening_roll_needs_nothing_from_the_other_board():
    table, _ = Table.new(SENSING, {"remote": "black"})
    table.handle(Sensed(SENSING.of(Position.start())))
    table.handle(Press("white.turn"))
    assert table.wants_roll == "opening"
    assert table.handle(Remote(RollWanted())) == [] and table.wants_roll == "opening"


# -- the cube ------------------------------------------------------------------------------


def test_the_other_board_doubles_on_its_roll_and_this_board_answers():
    table = white_on_roll()
    table.handle(Press("white.turn"))
    table.handle(Rolled(2, 1))
    table.handle(Sensed(SENSING.of(result(table.position, W, [(13, 11), (6, 5)]))))
    table.handle(Press("white.turn"))
    assert refused(table.handle(Remote(ev.Double(B, 4))), "double") == \
        "the other board's double says the cube is 4; here it is 2"
    (double,) = table.handle(Remote(ev.Double(B, 2)))
    assert double == ev.Double(B, 2) and table.phase == "doubled"
    assert table.prompt().asks == "doubled" and table.prompt().side is W  # this board's player answers
    (take,) = table.handle(Press("white.turn"))
    assert take == ev.Take(W, 2)


def test_a_double_out_of_turn_or_after_the_roll_is_refused():
    table = white_on_roll()
    assert refused(table.handle(Remote(ev.Double(B, 2))), "double") == \
        "the other board's double is not allowed now: white decides, not black"
    table = black_plays_first()
    assert refused(table.handle(Remote(ev.Double(B, 2))), "double") == \
        "the other board's double is not allowed now: black has rolled"


def test_once_the_dice_are_asked_for_it_is_too_late_to_double():
    """In a remote game the dice take a while (both boards make them): a double between
    the ask and the dice would meet dice that must come.  Refused, either side."""
    table = white_on_roll()
    table.handle(Press("white.turn"))
    assert table.wants_roll == "turn"
    (rejected,) = table.handle(Press("white.cube"))
    assert rejected == ev.Rejected(W, "white has asked for the dice: too late to double")
    table.handle(Rolled(6, 5))
    assert table.phase == "move"

    table = black_plays_first()
    table.handle(Remote(black_play(table, "8/5 6/5")))
    table.handle(Sensed(SENSING.of(result(table.position, B, [(8, 5), (6, 5)]))))
    table.handle(Press("white.turn"))
    table.handle(Rolled(2, 1))
    table.handle(Sensed(SENSING.of(result(table.position, W, [(13, 11), (6, 5)]))))
    table.handle(Press("white.turn"))
    table.handle(Remote(RollWanted()))
    assert refused(table.handle(Remote(ev.Double(B, 2))), "double") == \
        "the other board's double is not allowed now: black has asked for the dice: too late to double"
    table.handle(Rolled(4, 4))
    assert table.phase == "move" and table.turn is B


def test_the_other_board_takes_drops_and_beavers():
    table = white_on_roll()
    table.handle(Press("white.cube"))
    assert table.phase == "doubled"
    assert table.prompt().asks == "remote_turn" and table.prompt().side is B
    (take,) = table.handle(Remote(ev.Take(B, 2)))
    assert take == ev.Take(B, 2) and table.phase == "roll"

    table = white_on_roll()
    table.handle(Press("white.cube"))
    drop, over = table.handle(Remote(ev.Drop(B, 1)))  # confirmed at the other board: no question here
    assert drop == ev.Drop(B, 1)
    assert isinstance(over, ev.GameOver) and over.winner is W and over.points == 1


def test_a_beaver_only_where_the_session_allows_it():
    table = white_on_roll()
    table.handle(Press("white.cube"))
    reason = refused(table.handle(Remote(ev.Beaver(B, 4))), "beaver")
    assert reason.startswith("the other board's beaver is not allowed now: ")
    assert table.phase == "doubled"


def test_a_take_without_a_double_is_refused():
    table = white_on_roll()
    assert refused(table.handle(Remote(ev.Take(B, 2))), "take") == \
        "the other board's take is not allowed now: white is on roll"


# -- resignations --------------------------------------------------------------------------


def test_the_other_board_offers_to_resign_and_this_board_accepts():
    table = white_on_roll()  # in white's turn: an offer may come in either player's turn
    (offer,) = table.handle(Remote(ev.ResignOffered(B, ResultKind.GAMMON)))
    assert offer == ev.ResignOffered(B, ResultKind.GAMMON)
    assert table.phase == "resigned" and table.prompt().asks == "resign_offered"
    accepted, over = table.handle(Press("white.turn"))
    assert accepted == ev.ResignAccepted(W)
    assert isinstance(over, ev.GameOver) and over.points == 2 and over.resigned


def test_the_other_board_answers_this_boards_offer():
    for answer, phase in ((ev.ResignDeclined(B), "roll"), (ev.ResignAccepted(B), "setup")):
        table = white_on_roll()
        assert refused(table.handle(Remote(answer)), answer.kind) == \
            f"the other board's {answer.kind} is not allowed now: white is on roll"
        table.handle(Press("white.cube", long=True))
        table.handle(Press("white.turn"))  # white offers a single game
        assert table.prompt().asks == "remote_turn" and table.prompt().side is B
        events = table.handle(Remote(answer))
        assert events[0] == answer
        assert table.phase == phase


def test_the_other_boards_decision_ends_this_boards_choice_of_what_to_resign():
    table = black_plays_first()
    table.handle(Press("white.cube", long=True))  # white chooses what to resign
    assert table.phase == "resigning"
    (lit,) = table.handle(Remote(black_play(table, "8/5 6/5")))
    assert isinstance(lit, ev.RemotePlay) and table.phase == "move"


# -- this board's buttons --------------------------------------------------------------------


def test_the_remote_sides_buttons_do_nothing_here():
    table, _ = Table.new(SENSING, {"remote": "black"})
    table.handle(Sensed(SENSING.of(Position.start())))
    assert table.handle(Press("black.turn")) == [] and table.phase == "setup"
    table = black_plays_first()
    for button in ("black.turn", "black.cube"):
        assert table.handle(Press(button)) == []
    assert table.handle(Press("black.cube", long=True)) == [] and table.phase == "move"
    table = white_on_roll()
    assert table.handle(Press("black.cube")) == [] and table.phase == "roll"


def test_the_hint_button_waits_while_the_other_boards_player_decides():
    table = black_plays_first()
    table.handle(Remote(black_play(table, "8/5 6/5")))
    (rejected,) = table.handle(Press("hint"))
    assert isinstance(rejected, ev.Rejected) and rejected.reason == "no hint now: the other board's player is deciding"
    assert table.following  # the other board's play stays lit


def test_a_new_session_is_not_chosen_on_the_board():
    table, _ = Table.new(SENSING, {"remote": "black"})
    table.handle(Sensed(SENSING.of(Position.start())))
    (rejected,) = table.handle(Press("white.cube"))
    assert rejected == ev.Rejected(W, REMOTE_SESSION)
    assert rejected.to_json() == {"event": "rejected", "player": "white", "reason": REMOTE_SESSION, "points": []}
    assert table.phase == "setup"
    table, _ = Table.new(SENSING, {"remote": "black", "match": 1})
    table.handle(Sensed(SENSING.of(Position.start())))
    table.handle(Press("white.turn"))
    table.handle(Rolled(3, 1))
    table.handle(Press("white.cube", long=True))
    table.handle(Press("white.turn"))
    table.handle(Remote(ev.ResignAccepted(B)))
    assert table.phase == "match_over"
    for button in ("white.turn", "white.cube"):
        (rejected,) = table.handle(Press(button))
        assert isinstance(rejected, ev.Rejected) and rejected.reason == REMOTE_SESSION and table.phase == "match_over"


def test_when_the_journals_disagree_no_press_is_taken():
    table = white_on_roll()
    table.handle(LinkChanged(Link.DISAGREE))
    for button in ("white.turn", "white.cube", "hint"):
        assert table.handle(Press(button)) == []
    assert table.phase == "roll" and table.wants_roll is None


# -- the lights ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def leds() -> LedConfig:
    return load_profile().leds


def turn_lights(table: Table, leds: LedConfig, now: float) -> dict[str, object]:
    lit = colours(table.lighting(), leds, now)
    return {side.label: lit.get(leds.targets[f"turn:{side.label}"][0]) for side in Side}


def test_the_other_boards_turn_breathes_blue_on_its_turn_light(leds):
    table = black_plays_first()
    prompt = table.prompt()
    assert prompt.asks == "remote_turn" and prompt.side is B and prompt.answers == {}
    assert turn_lights(table, leds, 0.5) == {"white": None, "black": BLUE}
    assert turn_lights(table, leds, 1.5) == {"white": None, "black": DIM_BLUE}
    assert table.lighting().dice == (1, 3)  # the other board's roll shows


def test_a_link_away_blinks_both_turn_lights_amber_slowly(leds):
    for link in (Link.CONNECTING, Link.AWAY, Link.UNREACHABLE):
        table = white_on_roll()
        table.handle(LinkChanged(link))
        assert table.link is link
        prompt = table.prompt()
        assert prompt.asks == "remote_away" and prompt.side is None
        assert prompt.answers == {"white.turn": "roll", "white.cube": "double"}  # play may go on
        assert turn_lights(table, leds, 0.25) == {"white": CUBE_COLOUR, "black": CUBE_COLOUR}
        assert turn_lights(table, leds, 0.75) == {"white": None, "black": None}
    table.handle(LinkChanged(Link.CONNECTED))
    assert table.prompt().asks == "roll_or_double"


def test_a_link_refused_or_disagreeing_blinks_both_turn_lights_red_fast(leds):
    for link in (Link.REFUSED, Link.DISAGREE):
        table = black_plays_first()
        table.handle(LinkChanged(link))
        assert table.prompt().asks == "remote_refused"
        assert turn_lights(table, leds, 0.05) == {"white": RED, "black": RED}
        assert turn_lights(table, leds, 0.2) == {"white": None, "black": None}


def test_a_mismatch_shows_over_the_link(leds):
    table = white_on_roll()
    table.handle(LinkChanged(Link.AWAY))
    knocked = list(SENSING.of(table.position))
    knocked[SENSING.index[12]] -= 1
    knocked[SENSING.index[11]] += 1
    table.handle(Sensed(tuple(knocked)))
    table.handle(Tick(5.0))
    assert table.prompt().asks == "mismatch"


# -- a game the other board abandoned (issue 29, "fair to the end") -------------------------------


def test_a_held_turn_claims_nothing_while_the_other_board_is_only_away():
    table = black_plays_first()
    table.handle(LinkChanged(Link.AWAY))
    assert table.handle(Press("white.turn", long=True))[0].kind == "rejected"  # as a short press: black's turn
    assert table.phase == "move" and table.state.claimer is None


def test_a_game_the_other_board_abandoned_is_claimed_with_a_held_turn_then_turn(leds):
    table = black_plays_first()
    table.handle(LinkChanged(Link.ABANDONED))
    prompt = table.prompt()
    assert prompt.asks == "remote_abandoned" and prompt.side is None
    assert prompt.answers == {"hold white.turn": "claim the game"}
    assert turn_lights(table, leds, 0.5) == {"white": CUBE_COLOUR, "black": CUBE_COLOUR}
    assert turn_lights(table, leds, 1.5) == {"white": RED, "black": RED}
    assert table.handle(Press("white.turn", long=True)) == []  # asks
    prompt = table.prompt()
    assert prompt.asks == "remote_claim" and prompt.side is W
    assert prompt.answers == {"white.turn": "claim the game", "white.cube": "back"}
    assert table.handle(Press("white.cube")) == [] and table.prompt().asks == "remote_abandoned"
    table.handle(Press("white.turn", long=True))
    claimed, over = table.handle(Press("white.turn"))
    assert claimed == ev.Claimed(W, ResultKind.BACKGAMMON)
    assert isinstance(over, ev.GameOver) and over.winner is W and over.resigned and over.points == 3
    assert table.phase == "setup"


def test_a_claim_is_scored_with_the_cube_in_any_phase_of_a_game():
    table = white_on_roll()
    table.handle(Press("white.cube"))  # white doubles; black's board is gone before it answers
    assert table.phase == "doubled"
    table.handle(LinkChanged(Link.ABANDONED))
    table.handle(Press("white.turn", long=True))
    *_, over = table.handle(Press("white.turn"))
    assert isinstance(over, ev.GameOver) and over.points == 3 and over.cube == 1  # the cube offered is not taken


def test_the_other_board_coming_back_ends_the_question():
    table = black_plays_first()
    table.handle(LinkChanged(Link.ABANDONED))
    table.handle(Press("white.turn", long=True))
    table.handle(LinkChanged(Link.CONNECTED))
    assert table.state.claimer is None and table.prompt().asks == "remote_turn"
    assert table.handle(Press("white.turn"))[0].kind == "rejected"


def test_the_other_boards_claim_ends_the_game_here():
    table = black_plays_first()  # this board was away in black's turn; black claimed the game there
    claimed, over = table.handle(Remote(ev.Claimed(B, ResultKind.BACKGAMMON)))
    assert claimed == ev.Claimed(B, ResultKind.BACKGAMMON)
    assert isinstance(over, ev.GameOver) and over.winner is B and over.resigned and over.points == 3
    table, _ = Table.new(SENSING, {"remote": "black"})
    table.handle(Sensed(SENSING.of(Position.start())))
    assert refused(table.handle(Remote(ev.Claimed(B, ResultKind.BACKGAMMON))), "claim") == \
        "the other board's claim is not allowed now: no game is in progress"


# -- resuming ----------------------------------------------------------------------------------


def test_a_journal_with_remote_events_resumes_connecting_with_the_play_still_lit():
    table = black_plays_first()
    events = [*opened(1, 3)[1]]
    remote = black_play(table, "8/5 6/5")
    events += table.handle(Remote(remote))
    events += table.handle(Remote(remote))  # the same play again: nothing changes
    again = Table.resume(events, SENSING)
    assert again.remotes == frozenset({B}) and again.link is Link.CONNECTING
    assert again.following and again.hint == ev.RemotePlay(B, (1, 3), "8/5 6/5", remote.position_id)
    assert again.prompt().asks == "remote_away"
    again.handle(LinkChanged(Link.CONNECTED))
    assert again.prompt().asks == "move"
    *_, play = again.handle(Sensed(SENSING.of(result(again.position, B, [(8, 5), (6, 5)]))))
    assert play == remote
    prefix, applied = Table.resume_prefix(events, SENSING)
    assert prefix is not None and applied == len(events) and prefix.link is Link.CONNECTING


def test_a_new_remote_session_starts_connected_and_a_local_one_ignores_the_link():
    table, _ = Table.new(SENSING, {"remote": "white"})
    assert table.link is Link.CONNECTED and table.remotes == frozenset({W})
    local, _ = Table.new(SENSING, {})
    local.handle(LinkChanged(Link.AWAY))
    assert local.prompt().asks == "setup" and local.remotes == frozenset()


# -- a whole game on two boards ------------------------------------------------------------------

RACE = position({6: 3}, {6: 3})
"""A practice race: three checkers on each side's 6-point, white on roll."""
PLAYS = {W: [(5, 4, [(6, 1), (6, 2)]), (6, 6, [(6, 0), (2, 0), (1, 0)])], B: [(6, 5, [(6, 0), (6, 1)])]}
"""Each side's rolls and plays in turn: white doubles first, black takes; white bears off first."""


class Boards:
    """Two boards of one remote game: white played at `white`, black at `black`; each
    board's committed events of its own side go to the other as `Remote` inputs."""

    def __init__(self) -> None:
        self.tables = {W: Table.new(SENSING, {"remote": "black"}, position_id(RACE, W), W)[0],
                       B: Table.new(SENSING, {"remote": "white"}, position_id(RACE, W), W)[0]}
        self.logs: dict[Side, list[ev.Event]] = {W: [], B: []}
        for table in self.tables.values():
            table.handle(Sensed(SENSING.of(RACE)))

    def hands(self, side: Side, happened: object) -> None:
        """Something happens at `side`'s board; what it commits for its own side crosses over."""
        events = self.tables[side].handle(happened)
        self.logs[side] += events
        for event in events:
            if isinstance(event, ACROSS) and event.player is side:
                self.wire(side.opponent, Remote(event))

    def wire(self, side: Side, happened: object) -> None:
        events = self.tables[side].handle(happened)
        assert self.tables[side].remote_refusal is None, events
        self.logs[side] += events

    def both(self, happened: object) -> None:
        for side in Side:
            self.hands(side, happened)

    def moved(self, side: Side, steps: list[tuple[int, int]]) -> None:
        """The checkers moved on both boards: by the player, and by hand as lit at the other."""
        mover = self.tables[side]
        after = SENSING.of(result(mover.position, mover.turn, steps))
        self.hands(side, Sensed(after))
        self.hands(side, Press(f"{side.label}.turn"))  # commit
        self.hands(side.opponent, Sensed(after))  # the lit play, carried out: it commits itself


ACROSS = (ev.Double, ev.Take, ev.Drop, ev.Beaver, ev.Play, ev.ResignOffered, ev.ResignAccepted, ev.ResignDeclined)


def game_events(events: list[ev.Event]) -> list[ev.Event]:
    """The events both boards of a remote game must log alike."""
    return [event for event in events if ev.is_game(event)]


def test_a_whole_game_on_two_boards_logs_what_one_board_logs_alone():
    boards = Boards()
    boards.hands(B, Press("black.turn"))  # black's board is set: its game starts
    boards.hands(W, Press("white.cube"))  # white's starts, and white doubles
    boards.hands(B, Press("black.turn"))  # black takes
    rolls = {W: iter(PLAYS[W]), B: iter(PLAYS[B])}
    side = W
    while boards.tables[W].phase != "setup":
        first, second, steps = next(rolls[side])
        boards.hands(side, Press(f"{side.label}.turn"))  # roll
        boards.wire(side.opponent, Remote(RollWanted()))  # the other board joins the dice exchange
        boards.both(Rolled(first, second))
        boards.moved(side, steps)
        side = side.opponent
    assert game_events(boards.logs[W]) == game_events(boards.logs[B])
    remote_plays = [event for event in boards.logs[B] if isinstance(event, ev.RemotePlay)]
    assert [event.move for event in remote_plays] == ["6/2 6/1", "6/off 2/off 1/off"]

    alone, log = Table.new(SENSING, {}, position_id(RACE, W), W)
    log += alone.handle(Sensed(SENSING.of(RACE)))
    log += alone.handle(Press("white.cube"))
    log += alone.handle(Press("black.turn"))
    rolls, side = {W: iter(PLAYS[W]), B: iter(PLAYS[B])}, W
    while alone.phase != "setup":
        first, second, steps = next(rolls[side])
        log += alone.handle(Press(f"{side.label}.turn"))
        log += alone.handle(Rolled(first, second))
        log += alone.handle(Sensed(SENSING.of(result(alone.position, side, steps))))
        log += alone.handle(Press(f"{side.label}.turn"))
        side = side.opponent
    assert game_events(boards.logs[W]) == game_events(log)
    (over,) = [event for event in log if isinstance(event, ev.GameOver)]
    assert over.winner is W and over.points == 2


@pytest.mark.parametrize("bad_id", ["xx", "!!!!!!!!!!!!!!", "AAAAAAAAAAAAAA", ""])
def test_a_play_with_a_malformed_or_impossible_position_id_is_refused(bad_id):
    table = black_plays_first()
    remote = black_play(table, "8/5 6/5")
    bad = ev.Play(B, remote.dice, remote.move, bad_id, remote.match_id)
    assert refused(table.handle(Remote(bad)), "play") == \
        "the other board's play (8/5 6/5) is not a legal play of 1-3 here"


def test_the_new_events_read_back_from_the_log():
    for event in (ev.RemotePlay(B, (1, 3), "8/5 6/5", "sGfwATDgc/ABMA"),
                  ev.RemoteRefused(B, "double", "the other board's double is not allowed now: white has rolled")):
        assert ev.parse(event.to_json()) == event


def test_the_prompt_names_only_this_boards_own_buttons():
    table, _ = Table.new(SENSING, {"remote": "black"})
    table.handle(Sensed(SENSING.of(Position.start())))
    assert table.prompt().asks == "opening" and table.prompt().answers == {"white.turn": "opening roll"}
    table = black_plays_first()
    table.handle(Remote(black_play(table, "8/5 6/5")))
    assert table.prompt().asks == "move" and table.prompt().answers == {}  # the play commits itself
