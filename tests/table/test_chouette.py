"""The chouette (issue 31): its rules (settings, roll-off, line, seats) and the table's flow
for them, refusals that change nothing, and a power cut at every event of whole chouettes."""

from __future__ import annotations

import itertools
import re

import pytest

from bgpi.exc import ChouetteError, CubeError, SessionSettingsError
from bgpi.rules.chouette import (
    ChouetteSettings,
    RollOff,
    box_shares,
    join,
    leave,
    roles,
    rotate,
    seat_chairs,
)
from bgpi.rules.pairs import Pairs
from bgpi.rules.position import Position, Side
from bgpi.rules.seats import Seats
from bgpi.rules.session import Game, Session, Settings
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Join, Leave, Press, Sensed
from bgpi.table.lights import lights_event
from bgpi.table.phases import Phase
from tests.table.chouettes import SENSING, Hands, play_chouette

W, B = Side.WHITE, Side.BLACK


# -- the settings -------------------------------------------------------------------------


@pytest.mark.parametrize("config, says", [
    ({"players": ["Ann", "Bob"]}, "chouette: players: 3 to 7 names, not 2"),
    ({"players": [f"P{i}" for i in range(8)]}, "chouette: players: 3 to 7 names, not 8"),
    ({"players": ["Ann", "Bob", "Cat"], "partner": True}, "chouette: unknown option 'partner'"),
    ({"players": ["Ann", "Bob", "ann"]}, "'ann' is named twice"),
    ({"players": ["Ann", "Bob", "C:at"]}, "without a colon"),
    ({"players": ["Ann", "Bob", ""]}, "1 to 20 printable characters"),
    ({"players": ["Ann", "Bob", "Cat"], "consultation": "sometimes"}, "consultation: one of never, always, own_cube"),
    ({"players": ["Ann", "Bob", "Cat"], "box": "red"}, "box: the colour the box plays, white or black"),
    ({"players": ["Ann", "Bob", "Cat"], "box_partner": "yes"}, "box_partner: expected true or false"),
    ("Ann, Bob, Cat", "expected an object with its players and options"),
])
def test_settings_out_of_range_are_refused_naming_the_setting(config, says):
    with pytest.raises(SessionSettingsError, match=re.escape(says)):
        ChouetteSettings.from_config(config)


def test_the_options_default_as_the_docs_say():
    settings = ChouetteSettings.from_config({"players": ["Ann", "Bob", "Cat"]})
    assert (settings.box_side, settings.box_takes_half, settings.box_partner, settings.consultation.value) == \
        (W, False, False, "never")
    money = Settings.from_config({})  # each seat's money rules: Jacoby on, beavers and automatic doubles off
    assert (money.jacoby, money.beavers, money.auto_doubles) == (True, False, 0)


@pytest.mark.parametrize("config, says", [
    ({"chouette": {"players": ["Ann", "Bob", "Cat"]}, "match": 5}, "not with match"),
    ({"chouette": {"players": ["Ann", "Bob", "Cat"]}, "opponent": "gnubg"}, "name the players it plays"),
    ({"chouette": {"players": ["Ann", "Bob", "Cat"]}, "opponent_side": "white"}, "not with opponent_side"),
    ({"chouette": {"players": ["Ann", "Bob", "Cat"], "computers": ["Eve"]}}, "computers: 'Eve' is not one of"),
    ({"chouette": {"players": ["Ann", "Bob", "Cat"], "computers": ["Ann", "Bob", "Cat"]}},
     "one player at least is a person"),
    ({"chouette": {"players": ["Ann", "Bob", "Cat"], "computers": "Bob"}}, "computers: a list of the players"),
    ({"chouette": {"players": ["Ann", "Bob", "Cat"]}, "pairs": {}}, "not with pairs"),
    ({"pairs": {"white": ["Ann", "Bob"], "black": ["Cat"]}}, "pairs: black: the two players' names"),
])
def test_a_session_that_cannot_be_is_refused_before_it_starts(config, says):
    with pytest.raises(SessionSettingsError, match=re.escape(says)):
        Table.new(SENSING, config)


# -- the roll-off and the line --------------------------------------------------------------


def test_ties_roll_again_until_every_place_is_decided():
    roll_off = RollOff.of(("Ann", "Bob", "Cat", "Dan", "Eve"))
    roll_off = roll_off.rolled(("Ann", "Bob"), (4, 4)).rolled(("Cat", "Dan"), (6, 4)).rolled(("Eve",), (1,))
    assert roll_off.groups == (("Cat",), ("Ann", "Bob", "Dan"), ("Eve",))
    roll_off = roll_off.rolled(("Ann", "Bob"), (2, 2)).rolled(("Dan",), (5,))
    assert roll_off.to_roll() == ("Ann", "Bob") and not roll_off.done
    assert roll_off.rolled(("Ann", "Bob"), (1, 3)).line() == ("Cat", "Dan", "Bob", "Ann", "Eve")
    with pytest.raises(ChouetteError, match="next dice are Ann and Bob's"):
        roll_off.rolled(("Bob",), (3,))


def test_the_line_rotates_by_the_captains_result_and_takes_latecomers_at_its_end():
    line = ("Ann", "Bob", "Cat", "Dan")
    assert rotate(line, captain_won=True) == ("Bob", "Cat", "Dan", "Ann")
    assert rotate(line, captain_won=False) == ("Ann", "Cat", "Dan", "Bob")
    assert join(line, "Eve") == (*line, "Eve")
    assert leave(line, "Ann") == ("Bob", "Cat", "Dan")
    for refused, says in ((lambda: join(line, "bob"), "in the chouette already"),
                          (lambda: join((*line, "E", "F", "G"), "H"), "7 players at most"),
                          (lambda: leave(line[:3], "Ann"), "needs 3 players"),
                          (lambda: leave(line, "Zed"), "is not in the chouette")):
        with pytest.raises(ChouetteError, match=says):
            refused()


def test_chairs_stay_and_a_newcomer_takes_the_lowest_free_one():
    chairs = seat_chairs({}, ("Ann", "Bob", "Cat", "Dan"))
    assert chairs == {"Ann": 1, "Bob": 2, "Cat": 3, "Dan": 4}
    assert seat_chairs(chairs, ("Dan", "Ann", "Cat", "Eve")) == {"Dan": 4, "Ann": 1, "Cat": 3, "Eve": 2}


def test_a_partner_from_six_players_shares_the_boxs_result_the_odd_point_to_the_box():
    six = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    assert roles(six, partner=True).partner == "Fay" and roles(six[:5], partner=True).partner is None
    assert roles(six, partner=False).crew == ("Cat", "Dan", "Eve", "Fay")
    for points in range(-9, 10):
        box, partner = box_shares(points, partner=True)
        assert box + partner == points and abs(box) - abs(partner) in (0, 1) and box * partner >= 0


# -- the seats -------------------------------------------------------------------------------


def team_on_roll(settings: Settings | None = None) -> Game:
    return Game(Session(settings or Settings()), turn=B)


def test_the_box_must_take_half_of_the_doubles_offered_together_and_the_captains():
    game = team_on_roll()
    seats = Seats.begin(W, ("Bob", "Cat", "Dan", "Eve"), takes_half=True)
    for player in ("Bob", "Cat", "Dan"):
        seats = seats.double(game, B, player)
    assert seats.together == ("Bob", "Cat", "Dan")
    assert "captain's double" in seats.why_not_drop("Bob")
    seats = seats.take(game, "Bob")
    assert seats.why_not_drop("Cat") is None  # 2 of 3 must be taken: one may be dropped
    seats = seats.drop(game, "Cat")
    assert seats.why_not_drop("Dan") == "the box must take at least 2 of the 3 doubles offered together"
    seats = seats.take(game, "Dan")
    assert seats.together == () and seats.asked() is None


def test_a_lone_double_and_the_box_doubling_are_answered_freely():
    seats = Seats.begin(W, ("Bob", "Cat"), takes_half=True).double(team_on_roll(), B, "Bob")
    assert seats.why_not_drop("Bob") is None


def test_a_captain_out_hands_over_to_the_next_in_line_still_in():
    game = Game(Session(), turn=W)
    seats = Seats.begin(W, ("Bob", "Cat", "Dan"))
    seats = seats.double(game, W, "Bob").double(game, W, "Dan")
    seats = seats.drop(game, "Bob")
    assert seats.next_captain() == "Cat"  # not doubled, still in
    seats = seats.take(game, "Dan")
    assert seats.next_captain() == "Cat" and not seats.over


def test_jacoby_counts_a_gammon_only_against_a_seat_whose_cube_was_turned():
    gammon = Position((0,) * 25, (0,) * 12 + (15,) + (0,) * 12)  # white off, black's 15 on its 13-point
    assert gammon.winner() is W
    game = Game(Session(), turn=W)
    seats = Seats.begin(W, ("Bob", "Cat")).double(game, W, "Bob").take(game, "Bob")
    assert seats.played_out(game, gammon).points() == {"Bob": -4, "Cat": -1}
    no_jacoby = Game(Session(Settings(jacoby=False)), turn=W)
    assert Seats.begin(W, ("Bob", "Cat")).played_out(no_jacoby, gammon).points() == {"Bob": -2, "Cat": -2}


def test_a_seat_may_not_double_a_cube_it_does_not_own_nor_one_out_of_the_game():
    game = team_on_roll(Settings(beavers=True))
    seats = Seats.begin(W, ("Bob", "Cat")).double(game, B, "Bob").beaver(game, "Bob").take(game, "Bob")
    assert seats.seat("Bob").cube.value == 4 and seats.seat("Bob").cube.owner is W
    assert seats.why_not_double(game, B, "Bob") == "the box owns Bob's cube"
    seats = seats.double(game, B, "Cat").drop(game, "Cat")
    assert seats.why_not_double(game, B, "Cat") == "Cat is out of this game"
    with pytest.raises(CubeError):
        seats.double(game, B, "Cat")


def test_each_seats_own_game_is_a_money_game_an_engine_can_weigh():
    game = team_on_roll()
    seats = Seats.begin(W, ("Bob", "Cat")).double(game, B, "Bob").take(game, "Bob")
    key = seats.game_of(game, "Bob").match_key()
    assert (key.cube_value, key.cube_owner, key.match_length) == (2, W, 0)  # the box took: its cube
    assert seats.game_of(game, "Cat").match_key().cube_owner is None


# -- the table -------------------------------------------------------------------------------


def seated(players: int = 3, config: dict | None = None, turn: Side = B) -> Hands:
    """A chouette after its roll-off (the dice from a seed), set up from the start with
    `turn` on roll."""
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"][:players]
    hands = Hands(0, {"chouette": {"players": names}, **(config or {})}, "4HPwATDgc/ABMA", turn)
    while hands.table.phase == Phase.ROLL_OFF:
        hands.press(W, "turn")
    hands.feed(Sensed(SENSING.of(Position.start())))
    return hands


def test_a_refused_press_changes_nothing_and_says_why():
    hands = seated()
    table = hands.table
    table.handle(Press("black.cube"))
    table.handle(Press("black.turn", long=True))  # the team doubles every seat
    before = table.state_event()
    for button in ("hint", "black.cube", "black.turn"):  # the box answers: not the team
        (refused,) = table.handle(Press(button))
        assert isinstance(refused, ev.Rejected) and table.state_event() == before
    assert "answers the double on" in refused.reason
    lit = lights_event(table.lighting())
    assert lit.roles["bar:black"] == "rejected" and lit.roles[lit.asked[0]] == "rejected"
    assert table.phase == Phase.SEAT_DOUBLED


def test_joining_and_leaving_happen_between_games_only():
    hands = seated()
    hands.press(B, "turn")  # the game starts, the team rolls
    (refused,) = hands.table.handle(Join("Dan"))
    assert refused.reason.startswith("Dan joins between games")
    (refused,) = hands.table.handle(Leave("Ann"))
    assert "between games" in refused.reason
    plain, _ = Table.new(SENSING, {})
    (refused,) = plain.handle(Join("Dan"))
    assert "this session is none" in refused.reason


def test_the_state_event_names_the_box_and_the_captain_and_every_seats_cube():
    hands = seated()
    state = hands.table.state_event()
    assert state.players == {"white": state.chouette["box"], "black": state.chouette["captain"]}


def test_pairs_take_turns_to_roll_game_after_game():
    pairs = Pairs.from_config({"white": ["Ann", "Bob"], "black": ["Cat", "Dan"], "rolls": "alternate"})
    assert [pairs.roller(W, game) for game in (1, 2, 3)] == ["Ann", "Bob", "Ann"]
    first = Pairs.from_config({"white": ["Ann", "Bob"], "black": ["Cat", "Dan"]})
    assert [first.roller(B, game) for game in (1, 2, 3)] == ["Cat", "Cat", "Cat"]


# -- a power cut at every event ----------------------------------------------------------------


CHOUETTE_KINDS = {"roll_off", "line", "seat_double", "seat_take", "seat_drop", "seat_beaver", "drop_asked",
                  "drop_cancelled", "captain", "seat_resign_offered", "seat_resign_accepted", "seat_resign_declined",
                  "chouette_over"}
OWED = {"line", "captain", "chouette_over"}
"""What a chouette's table emits of itself after what was journaled before it: a resumed
table owes it (`Table.owed`)."""


@pytest.mark.parametrize("seed, rates", [
    (3, {"double": 0.3, "resign": 0.05}),
    (5, {"double": 0.04, "resign": 0.0}),  # games played out to the last checker
])
def test_a_power_cut_at_any_event_of_a_chouette_resumes_it(seed, rates):
    """A power cut after any event of a chouette's cube rounds, resignations, game ends and
    line changes (the events of plain play are the scenarios' and the journal tests')
    reads back into a table that owes what the live table emitted of itself next (the
    next captain, the game's end, the line), shows and asks something sensible, and goes
    on to the same chouette."""
    inputs: list[int] = []
    events = play_chouette(seed, games=4, players=4, config={"beavers": True}, rates=rates, inputs=inputs)
    cuts = [cut for cut in range(1, len(events) + 1)
            if {event.kind for event in events[cut - 1:cut + 1]} & CHOUETTE_KINDS]
    resumes_after(events, inputs, cuts)


def resumes_after(events: list[ev.Event], inputs: list[int], cuts: list[int]) -> None:
    """A table resumed from the first `cut` of `events` (`inputs`: where each input's events
    end) owes what the live table emitted of itself next, shows and asks something, and
    goes on to the same state, for each of `cuts`."""
    whole = Table.resume(events, SENSING).state_event()
    for cut in cuts:
        table = Table.resume(events[:cut], SENSING)
        end = next(end for end in inputs if end >= cut)  # where the input cut short ends
        due = list(itertools.takewhile(lambda event: event.kind in OWED, events[cut:end]))
        assert [event.to_json() for event in table.owed()] == [event.to_json() for event in due], cut
        table.lighting(), table.prompt(), table.state_event()
        for event in events[cut + len(due):]:  # the rest of the session goes on from there
            table.apply(event)
        assert table.state_event() == whole, cut


def test_the_chouettes_cut_short_have_every_kind_of_end():
    kinds = set()
    for seed, rates in ((3, {"double": 0.3, "resign": 0.05}), (5, {"double": 0.04, "resign": 0.0})):
        events = play_chouette(seed, games=4, players=4, config={"beavers": True}, rates=rates)
        kinds |= {event.kind for event in events} | {f"played {event.played is not None}" for event in events
                                                     if isinstance(event, ev.ChouetteOver)}
    assert {"seat_double", "seat_take", "seat_drop", "captain", "seat_resign_offered", "played True",
            "played False"} <= kinds


@pytest.mark.parametrize("damage", [
    {"event": "line", "line": ["Ann", "Bob"], "why": "rotation"},
    {"event": "line", "line": ["Ann", "Bob", "Ann"], "why": "rotation"},
    {"event": "captain", "player": "Zed"},
    {"event": "seat_take", "player": "white", "seat": "Bob", "cube": 2},
    {"event": "chouette_over", "box": "Ann", "captain": "Zed", "cubes": {}, "results": {}, "ends": {},
     "points": {"Ann": 0}, "totals": {}},
])
def test_a_damaged_journal_of_a_chouette_ends_where_the_damage_begins(damage):
    """An event no chouette can have where it stands is a RulesError: the journal is read
    up to it, as any damaged journal is (never a fault of the program)."""
    events = play_chouette(3, games=1, players=3)
    start = next(at for at, event in enumerate(events) if isinstance(event, ev.Start))
    damaged = [*events[:start + 1], ev.parse(damage), *events[start + 1:]]
    table, applied = Table.resume_prefix(damaged, SENSING)
    assert table is not None and applied == start + 1
