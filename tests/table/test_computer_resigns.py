"""The computer's resignations (issue 19, item 4): it answers an offer and offers one
itself on the engine's chances (`Question.RESIGN`), here answered by hand."""

from __future__ import annotations

from bgpi.board.profile import Geometry
from bgpi.rules.ids import position_id
from bgpi.rules.position import Position, Side
from bgpi.rules.result import ResultKind
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Advised, Press, Rolled, Sensed
from bgpi.table.tracker import Sensing

W, B = Side.WHITE, Side.BLACK


def race(white_home: int, black_home: int) -> Position:
    """A race: white's checkers on its 1-point, black's on its 6-point."""
    white, black = [0] * 25, [0] * 25
    white[0], black[5] = white_home, black_home
    return Position(tuple(white), tuple(black))


def chances(win: float = 0.0, win_gammon: float = 0.0, lose_gammon: float = 0.0,
            lose_backgammon: float = 0.0) -> dict:
    return {"win": win, "win_gammon": win_gammon, "win_backgammon": 0.0, "lose_gammon": lose_gammon,
            "lose_backgammon": lose_backgammon}


def started(position: Position, on_roll: Side) -> tuple[Table, list[ev.Event]]:
    """A practice race against the computer (black), `on_roll` to roll, gammons counting
    (no Jacoby rule); white's press starts it."""
    sensing = Sensing(Geometry())
    table, events = Table.new(sensing, {"opponent": "gnubg", "jacoby": False}, position_id(position, on_roll),
                              on_roll)
    events += table.handle(Sensed(sensing.of(position)))
    events += table.handle(Press("white.turn"))
    return table, events


def computer_on_roll() -> Table:
    table, _ = started(race(2, 15), B)
    request = table.wants_advice
    assert request is not None and request["kind"] == "resign" and request["player"] == "black"
    return table


def test_the_computer_resigns_a_single_game_when_it_cannot_win():
    table = computer_on_roll()
    (offer,) = table.handle(Advised(table.wants_advice, chances()))
    assert offer == ev.ResignOffered(B, ResultKind.SINGLE)
    assert table.phase == "resigned"
    assert table.handle(Press("black.turn")) == []  # the computer's buttons are the engine's
    accepted, over = table.handle(Press("white.turn"))
    assert accepted == ev.ResignAccepted(W)
    assert isinstance(over, ev.GameOver) and over.winner is W and over.result is ResultKind.SINGLE


def test_it_resigns_the_least_its_opponent_is_sure_of():
    table = computer_on_roll()
    (offer,) = table.handle(Advised(table.wants_advice, chances(lose_gammon=0.3)))
    assert isinstance(offer, ev.ResignOffered) and offer.result is ResultKind.GAMMON
    table = computer_on_roll()
    (offer,) = table.handle(Advised(table.wants_advice, chances(lose_gammon=1.0, lose_backgammon=0.2)))
    assert isinstance(offer, ev.ResignOffered) and offer.result is ResultKind.BACKGAMMON


def test_with_a_chance_to_win_it_plays_on():
    table = computer_on_roll()
    assert table.handle(Advised(table.wants_advice, chances(win=0.01))) == []
    assert table.phase == "roll" and table.wants_advice["kind"] == "cube"


def test_a_declined_resignation_is_not_offered_again_this_game():
    table = computer_on_roll()
    table.handle(Advised(table.wants_advice, chances()))
    (declined,) = table.handle(Press("white.cube"))
    assert declined == ev.ResignDeclined(W) and table.phase == "roll"
    assert table.wants_advice["kind"] == "resign"  # weighed again: a gammon may be at stake now
    assert table.handle(Advised(table.wants_advice, chances())) == []
    assert table.wants_advice["kind"] == "cube"


def test_without_the_engines_chances_it_plays_on():
    table = computer_on_roll()
    assert table.handle(Advised(table.wants_advice, None, "no engine: none is configured")) == []
    assert table.phase == "roll" and table.wants_advice["kind"] == "cube"


def human_resigns(white_home: int = 15, black_home: int = 2) -> Table:
    """White, having rolled in a race, offers the computer a single game."""
    table, _ = started(race(white_home, black_home), W)
    table.handle(Rolled(2, 1))
    table.handle(Press("white.cube", long=True))
    (offer,) = table.handle(Press("white.turn"))
    assert isinstance(offer, ev.ResignOffered) and table.phase == "resigned"
    request = table.wants_advice
    assert request is not None and request["kind"] == "resign" and request["player"] == "black"
    return table


def test_the_computer_accepts_what_is_worth_playing_on():
    table = human_resigns()
    # White on roll wins 10%, no gammons: black expects 0.8 points, the single game is 1.
    accepted, over = table.handle(Advised(table.wants_advice, chances(win=0.1)))
    assert accepted == ev.ResignAccepted(B)
    assert isinstance(over, ev.GameOver) and over.winner is B and over.result is ResultKind.SINGLE


def test_the_computer_declines_less_than_it_expects():
    table = human_resigns()
    # Black wins a gammon half the time: it expects 1.3 points, more than the single game.
    (declined,) = table.handle(Advised(table.wants_advice, chances(win=0.1, lose_gammon=0.5)))
    assert declined == ev.ResignDeclined(B) and table.phase == "move"


def test_without_the_engines_chances_it_declines():
    table = human_resigns()
    (declined,) = table.handle(Advised(table.wants_advice, None, "gnubg did not answer in time"))
    assert isinstance(declined, ev.ResignDeclined)


def test_only_a_race_has_no_contact():
    assert Position.start().contact()
    assert not race(15, 15).contact()


def test_a_resignation_opened_while_the_computer_asks_drops_its_question():
    table = computer_on_roll()
    asked = table.wants_advice
    table.handle(Press("white.cube", long=True))
    assert table.phase == "resigning" and table.wants_advice is None
    assert table.handle(Advised(asked, chances())) == []  # its answer comes too late
    table.handle(Press("white.cube", long=True))  # back, nothing offered
    assert table.phase == "roll" and table.wants_advice == asked  # asked again


def test_under_the_jacoby_rule_gammons_do_not_count():
    sensing = Sensing(Geometry())
    position = race(2, 15)
    table, _ = Table.new(sensing, {"opponent": "gnubg", "jacoby": True}, position_id(position, B), B)
    table.handle(Sensed(sensing.of(position)))
    table.handle(Press("white.turn"))
    (offer,) = table.handle(Advised(table.wants_advice, chances(lose_gammon=0.9)))
    assert isinstance(offer, ev.ResignOffered) and offer.result is ResultKind.SINGLE
