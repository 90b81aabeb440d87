"""The page's view of a table: checkers as the switches read them, lights, cube."""

from __future__ import annotations

from bgpi.hardware.profile import load_profile
from bgpi.rules.position import Position, Side
from bgpi.table.controller import Table
from bgpi.table.inputs import Press, Rolled, Sensed
from bgpi.table.lights import Lighting
from bgpi.table.tracker import Sensing
from bgpi.web.view import checkers_view, colours_view, leds_view, lights_view, result_view, setup_view, side_counts

PROFILE = load_profile()


def playing(first: int = 3, second: int = 1) -> Table:
    sensing = Sensing(PROFILE.geometry)
    table, _ = Table.new(sensing, {})
    table.handle(Sensed(sensing.of(table.position)))
    table.handle(Press("white.turn"))
    table.handle(Rolled(first, second))
    return table


def test_checkers_are_counted_by_the_switches_and_coloured_by_the_game():
    table = playing()
    sensing = table.sensing
    start = dict(zip(sensing.locations, sensing.of(Position.start()), strict=True))
    start[8] -= 1  # a white checker lifted from the 8-point ...
    start[1] += 1  # ... put down on black's 24-point (an illegal place)
    table.handle(Sensed(tuple(start[location] for location in sensing.locations)))
    view = checkers_view(table, PROFILE.geometry)
    assert view["8"] == {"count": 2, "colour": "white"}
    assert view["1"] == {"count": 3, "colour": "black"}  # the game's colour for the point


def test_a_point_the_switches_read_full_shows_the_games_count():
    sensing = Sensing(PROFILE.geometry)
    position = Position.start()
    white = list(position.checkers(Side.WHITE))
    white[5], white[7] = 7, 1  # seven on the 6-point, one left on the 8-point
    crowded = Position(tuple(white), position.checkers(Side.BLACK))
    table, _ = Table.new(sensing, {})
    table.position = crowded
    table.handle(Sensed(sensing.of(crowded)))
    view = checkers_view(table, PROFILE.geometry)
    assert view["6"] == {"count": 7, "colour": "white"}
    assert view["8"] == {"count": 1, "colour": "white"}


def test_an_unexplained_checker_on_an_empty_point_is_the_movers():
    table = playing()
    sensing = table.sensing
    counts = dict(zip(sensing.locations, sensing.of(Position.start()), strict=True))
    counts[8] -= 1
    counts[2] += 1
    table.handle(Sensed(tuple(counts[location] for location in sensing.locations)))
    assert checkers_view(table, PROFILE.geometry)["2"] == {"count": 1, "colour": "white"}


def test_lights_carry_colour_and_blink():
    lighting = Lighting(roles={8: "source", 5: "destination", 4: "destination", 2: "rejected"},
                        combined=frozenset({4}))
    view = lights_view(lighting)
    assert view["8"] == {"role": "source", "colour": "#ffffff", "period": 1.0, "duty": 0.5, "other": None}
    assert view["5"]["colour"] == "#00ff00" and view["5"]["period"] is None
    assert view["4"]["colour"] == "#004800"  # reached only with both dice: dimmer
    assert view["2"]["period"] == 0.25


def test_every_led_is_in_the_view_as_the_board_shows_it():
    table = playing(3, 1)  # white to move: the dice show 3 and 1, white's turn light is on
    view = leds_view(table.lighting(), PROFILE.leds)
    targets, looks = view["targets"], view["looks"]
    assert targets["die:1"] == list(PROFILE.leds.targets["die:1"])
    die_one = [pip for pip, index in enumerate(targets["die:1"]) if str(index) in looks]
    die_two = [pip for pip, index in enumerate(targets["die:2"]) if str(index) in looks]
    assert die_one == [0, 3, 6] and die_two == [3]  # three pips and one: as PIP_PATTERNS
    (white_turn,) = targets["turn:white"]
    assert looks[str(white_turn)]["colour"] == "#ffffff"
    assert str(targets["turn:black"][0]) not in looks


def test_a_double_shows_on_the_turn_light_in_two_colours():
    sensing = Sensing(PROFILE.geometry)
    table, _ = Table.new(sensing, {})
    table.handle(Sensed(sensing.of(table.position)))
    table.handle(Press("white.turn"))
    table.handle(Rolled(3, 1))
    counts = dict(zip(sensing.locations, sensing.of(Position.start()), strict=True))
    counts[8] -= 1
    counts[6] -= 1
    counts[5] += 2
    table.handle(Sensed(tuple(counts[location] for location in sensing.locations)))
    table.handle(Press("white.turn"))  # 8/5 6/5 committed: black to roll or double
    view = leds_view(table.lighting(), PROFILE.leds)
    (black_turn,) = view["targets"]["turn:black"]
    look = view["looks"][str(black_turn)]
    assert look["colour"] == "#ffffff" and look["other"] == "#ffa000" and look["period"] == 2.0


def test_a_hit_blot_keeps_its_colour_under_the_hitter_until_it_is_on_the_bar():
    sensing = Sensing(PROFILE.geometry)
    table, _ = Table.new(sensing, {}, "BQBAIAQAAAAAAA")  # white 6 and 2, a black blot on white's 4
    table.handle(Sensed(sensing.of(table.position)))
    table.handle(Press("white.turn"))
    table.handle(Rolled(4, 2))
    counts = dict(zip(sensing.locations, sensing.of(table.position), strict=True))
    counts[6] -= 1
    counts[4] += 1  # 6/4*: the blot still stands there
    table.handle(Sensed(tuple(counts[location] for location in sensing.locations)))
    checkers = checkers_view(table, PROFILE.geometry)
    assert colours_view(table, checkers)["4"] == ["black", "white"]
    counts[4] -= 1
    counts["bar:black"] += 1
    table.handle(Sensed(tuple(counts[location] for location in sensing.locations)))
    checkers = checkers_view(table, PROFILE.geometry)
    assert colours_view(table, checkers)["4"] == ["white"]
    assert colours_view(table, checkers)["bar:black"] == ["black"]
    assert side_counts(table, checkers) == {"pips": {"white": 6, "black": 25 + 3}, "off": {"white": 13, "black": 12}}


def test_an_unexplained_checker_has_no_colour_in_the_list():
    table = playing()
    sensing = table.sensing
    counts = dict(zip(sensing.locations, sensing.of(Position.start()), strict=True))
    counts[12] -= 1  # black's checker moved during white's turn: the page knows whose it is
    counts[10] += 1
    table.handle(Sensed(tuple(counts[location] for location in sensing.locations)))
    checkers = checkers_view(table, PROFILE.geometry)
    assert colours_view(table, checkers)["10"] == [None]
    assert colours_view(table, checkers)["12"] == ["black"] * 4


def test_the_simulated_trays_show_what_the_hands_left_there_and_between_games_the_setup():
    sensing = Sensing(PROFILE.geometry)
    table, _ = Table.new(sensing, {})
    held = {"off:white": 15, "6": 5, "13": 6}.get  # a sixth checker on the 13-point: its switches read full
    checkers = checkers_view(table, PROFILE.geometry, held=lambda location: held(str(location), 0))
    assert checkers["off:white"] == {"count": 15, "colour": "white"}
    assert checkers["13"]["count"] == 6  # the hands know how many stand there
    # No game: the switches cannot tell colours, but a stack as the set-up wants it has its colour.
    assert colours_view(table, checkers)["6"] == ["white"] * 5
    assert colours_view(table, checkers)["13"] == [None] * 6
    assert setup_view(table)["6"] == {"count": 5, "colour": "white"}
    assert side_counts(table, checkers) == {"pips": None, "off": {"white": 15, "black": 0}}
    assert result_view(table) is None
