"""The lights layer: roles → LED colours and blink phase, log roles and text-board marks."""

from __future__ import annotations

import dataclasses

import pytest

from bgpi.board.pips import PIP_PATTERNS
from bgpi.board.profile import LedConfig
from bgpi.hardware.leds import limit_frame
from bgpi.hardware.profile import load_profile
from bgpi.rules.position import Position, Side
from bgpi.shell.textboard import draw
from bgpi.table import events as ev
from bgpi.table.lights import (
    CUBE_COLOUR,
    DICE_COLOUR,
    FULL,
    LOOKS,
    PROMPT_LOOKS,
    PROMPTS,
    ROLES,
    TURN_COLOUR,
    Lighting,
    Prompt,
    colours,
    legend,
    lights_event,
    marks,
    next_change,
    number_faces,
)

# Phases of the default blinks: source and hint sources 1 s, rejected 0.25 s, half lit.
ON, OFF = 0.1, 0.6
FAST_OFF = 0.2


@pytest.fixture(scope="module")
def leds() -> LedConfig:
    return load_profile().leds


def led(leds: LedConfig, target: str) -> int:
    (index,) = leds.targets[target]
    return index


@pytest.mark.parametrize("role", ROLES)
def test_each_role_lights_its_location_in_its_colour(leds, role):
    lit = colours(Lighting({7: role, "bar:black": role}), leds, ON)
    assert lit == {led(leds, "7"): LOOKS[role].colour, led(leds, "bar:black"): LOOKS[role].colour}


def test_the_roles_look_as_the_architecture_says():
    white, green, amber, red, blue, violet = ((255, 255, 255), (0, 255, 0), (255, 120, 0),
                                              (255, 0, 0), (0, 0, 255), (160, 0, 255))
    assert {role: LOOKS[role].colour for role in ROLES} == {
        "source": white, "destination": green, "hit": amber, "rejected": red, "hint": blue,
        "missing": red, "extra": violet, "setup": LOOKS["setup"].colour,
    }
    assert max(LOOKS["setup"].colour) < 255  # soft
    blinking = {name for name, look in LOOKS.items() if look.period is not None}
    assert blinking == {"source", "rejected", "hint source"}
    assert LOOKS["rejected"].period < LOOKS["source"].period


def test_the_looks_are_distinct_where_the_board_shows_them_side_by_side():
    steady = [look.colour for name, look in LOOKS.items()
              if look.period is None and name != "missing"]
    assert len(set(steady)) == len(steady)


def test_source_blinks_slowly(leds):
    lighting = Lighting({24: "source"})
    assert colours(lighting, leds, ON) == {led(leds, "24"): LOOKS["source"].colour}
    assert colours(lighting, leds, OFF) == {}
    assert colours(lighting, leds, 1 + ON) == colours(lighting, leds, ON)
    assert colours(lighting, leds, FAST_OFF) == colours(lighting, leds, ON)


def test_rejected_blinks_fast_and_missing_stays_steady(leds):
    lighting = Lighting({5: "rejected", 6: "missing"})
    on = {led(leds, "5"): LOOKS["rejected"].colour, led(leds, "6"): LOOKS["missing"].colour}
    assert colours(lighting, leds, 0.05) == on
    assert colours(lighting, leds, FAST_OFF) == {led(leds, "6"): LOOKS["missing"].colour}
    assert colours(lighting, leds, 0.3) == on


def test_hint_source_blinks_and_hint_destination_stays(leds):
    lighting = Lighting({13: "hint", 8: "hint"}, hint_from=frozenset({13}))
    blue = LOOKS["hint"].colour
    assert colours(lighting, leds, ON) == {led(leds, "13"): blue, led(leds, "8"): blue}
    assert colours(lighting, leds, OFF) == {led(leds, "8"): blue}


def test_combined_destinations_are_dimmer_even_after_the_brightness_cap(leds):
    lighting = Lighting({18: "destination", 13: "destination"}, combined=frozenset({13}))
    lit = colours(lighting, leds, ON)
    one_die, combined = lit[led(leds, "18")], lit[led(leds, "13")]
    assert sum(combined) < sum(one_die)
    capped = limit_frame([one_die, combined], leds.brightness, leds.current_budget_ma)
    assert 0 < sum(capped[1]) < sum(capped[0])


def test_a_location_lights_all_its_leds_and_one_without_leds_is_skipped(leds):
    targets = {target: indices for target, indices in leds.targets.items()
               if not target.startswith("off:")}
    targets["7"] = (6, 44)
    wide = dataclasses.replace(leds, count=45, targets=targets)
    lighting = Lighting({7: "destination", "off:white": "destination"})
    assert colours(lighting, wide, ON) == dict.fromkeys((6, 44), LOOKS["destination"].colour)


def test_trays_light_when_the_profile_has_their_leds(leds):
    lit = colours(Lighting({"off:black": "destination"}), leds, ON)
    assert lit == {led(leds, "off:black"): LOOKS["destination"].colour}


def test_dice_show_their_faces_and_the_turn_light_its_side(leds):
    lit = colours(Lighting(dice=(6, 1), turn=Side.BLACK), leds, OFF)
    die1, die2 = leds.targets["die:1"], leds.targets["die:2"]
    pips = {*(die1[pip] for pip in PIP_PATTERNS[6]), die2[PIP_PATTERNS[1][0]]}
    assert lit == {**dict.fromkeys(pips, DICE_COLOUR), led(leds, "turn:black"): TURN_COLOUR}


def test_nothing_lit_is_all_dark(leds):
    assert colours(Lighting(), leds, ON) == {}


def test_next_change_is_the_next_blink_edge():
    assert next_change(Lighting({3: "destination", "bar:white": "hit"}), ON) is None
    assert next_change(Lighting({24: "source"}), ON) == 0.5
    assert next_change(Lighting({24: "source"}), 0.5) == 1.0
    assert next_change(Lighting({24: "source", 5: "rejected"}), 0.3) == 0.375
    assert next_change(Lighting({24: "source", 5: "rejected"}), 0.45) == 0.5


def test_the_light_changes_at_next_change_and_not_before(leds):
    lighting = Lighting({24: "source", 5: "rejected", 1: "hint"}, hint_from=frozenset({1}))
    now = 0.1
    for _ in range(12):
        edge = next_change(lighting, now)
        assert edge is not None and edge > now
        assert colours(lighting, leds, now) == colours(lighting, leds, (now + edge) / 2)
        assert colours(lighting, leds, edge) != colours(lighting, leds, now)
        now = edge


def test_the_lights_event_has_its_roles_in_board_order_logged_with_string_keys_and_leaves_out_unlit():
    lighting = Lighting({"bar:white": "hit", 24: "source", 18: "destination", 3: "setup"},
                        combined=frozenset({18}))
    assert list(lights_event(lighting).roles) == [3, 18, 24, "bar:white"]
    roles = lights_event(lighting).to_json()["roles"]
    assert roles == {"3": "setup", "18": "destination", "24": "source", "bar:white": "hit"}
    assert list(roles) == ["3", "18", "24", "bar:white"]
    assert lights_event(Lighting(dice=(3, 1))).roles == {}


def test_an_unknown_role_is_refused_by_name():
    with pytest.raises(ValueError, match="'glow'"):
        Lighting({7: "glow"})


@pytest.mark.parametrize("location", ["7", 0, 25, "bar", True])
def test_an_unknown_location_is_refused(location):
    with pytest.raises(ValueError, match="unknown location"):
        Lighting({location: "source"})


def test_variants_must_name_locations_of_their_role():
    with pytest.raises(ValueError, match="combined"):
        Lighting({7: "source"}, combined=frozenset({7}))
    with pytest.raises(ValueError, match="hint_from"):
        Lighting({7: "hint"}, hint_from=frozenset({8}))


def test_dice_faces_are_checked():
    with pytest.raises(ValueError, match="1..6"):
        Lighting(dice=(0, 7))


def test_a_lighting_cannot_change_after_the_fact():
    roles = {7: "source"}
    lighting = Lighting(roles)
    roles[8] = "destination"
    assert dict(lighting.roles) == {7: "source"}
    with pytest.raises(TypeError):
        lighting.roles[9] = "hit"  # type: ignore[index]


def test_marks_name_each_lit_location_with_one_character():
    lighting = Lighting(
        {24: "source", 18: "destination", 13: "destination", 20: "hit", 1: "rejected",
         8: "hint", 6: "hint", 2: "missing", 3: "extra", 4: "setup", "bar:black": "hit"},
        combined=frozenset({13}), hint_from=frozenset({8}))
    assert marks(lighting) == {24: "S", 18: "D", 13: "d", 20: "H", 1: "R", 8: "h", 6: "h",
                               2: "M", 3: "E", 4: "+", "bar:black": "H"}


def test_the_legend_explains_every_mark_on_one_line():
    text = legend()
    assert "\n" not in text
    for look in LOOKS.values():
        assert f"{look.mark} " in text


def test_the_text_board_draws_the_marks():
    drawing = "\n".join(draw(Position.start(), marks(Lighting({24: "source", 7: "destination",
                                                               "bar:white": "hit"}))))
    assert " S " in drawing and " D " in drawing and "bar:white H" in drawing


# --- prompts: what the board asks, on the turn lights and the dice -----------------------

WHITE_LIGHT, AMBER, RED, GREEN = TURN_COLOUR, CUBE_COLOUR, (255, 0, 0), (0, 255, 0)


def pips(leds: LedConfig, faces: tuple[int, int]) -> set[int]:
    lit = set()
    for die, face in zip(("die:1", "die:2"), faces, strict=True):
        pattern = range(7) if face == FULL else PIP_PATTERNS.get(face, ())
        lit |= {leds.targets[die][pip] for pip in pattern}
    return lit


def test_every_prompt_has_a_look():
    assert set(PROMPT_LOOKS) == set(PROMPTS)
    with pytest.raises(ValueError, match="unknown prompt 'dance'"):
        Prompt("dance")


def test_roll_or_double_alternates_white_and_amber_on_the_players_turn_light(leds):
    lighting = Lighting(turn=Side.WHITE, prompt=Prompt("roll_or_double", Side.WHITE))
    assert colours(lighting, leds, 0.5) == {led(leds, "turn:white"): WHITE_LIGHT}
    assert colours(lighting, leds, 1.5) == {led(leds, "turn:white"): AMBER}
    only_roll = Lighting(turn=Side.WHITE, prompt=Prompt("roll", Side.WHITE))
    assert colours(only_roll, leds, 0.75) == {}


def test_the_opening_asks_both_players(leds):
    lit = colours(Lighting(prompt=Prompt("opening")), leds, ON)
    assert lit == {led(leds, "turn:white"): WHITE_LIGHT, led(leds, "turn:black"): WHITE_LIGHT}


@pytest.mark.parametrize(("dead", "white_faces", "red_faces"),
                         [(0, (5, 2), (0, 0)), (1, (5, 0), (0, 2)), (2, (0, 0), (5, 2))])
def test_dice_that_cannot_be_played_are_red(leds, dead, white_faces, red_faces):
    asks = "no_play" if dead == 2 else "move"
    lit = colours(Lighting(dice=(5, 2), prompt=Prompt(asks, Side.BLACK, dead_dice=dead)), leds, ON)
    dice = {index: colour for index, colour in lit.items() if index != led(leds, "turn:black")}
    assert dice == {**dict.fromkeys(pips(leds, white_faces), DICE_COLOUR),
                    **dict.fromkeys(pips(leds, red_faces), RED)}


@pytest.mark.parametrize(("answers", "faces"),
                         [({"white.cube": "drop"}, (FULL, 0)),
                          ({"hold white.cube": "beaver"}, (FULL, FULL))])
def test_a_double_lights_one_amber_die_and_two_when_a_beaver_is_allowed(leds, answers, faces):
    lit = colours(Lighting(prompt=Prompt("doubled", Side.WHITE, answers)), leds, ON)
    assert {index for index, colour in lit.items() if colour == AMBER} == pips(leds, faces)


def test_confirming_a_drop_blinks_fast_in_amber(leds):
    lighting = Lighting(prompt=Prompt("confirm_drop", Side.BLACK))
    assert colours(lighting, leds, 0.05)[led(leds, "turn:black")] == AMBER
    assert colours(lighting, leds, FAST_OFF) == {}


@pytest.mark.parametrize(("number", "faces"), [(0, (FULL, FULL)), (1, (1, 0)), (8, (6, 2)), (12, (6, 6))])
def test_numbers_are_shown_as_dice_adding_up_to_them(number, faces):
    assert number_faces(number) == faces


def test_a_game_won_shows_the_points_in_green_and_more_than_twelve_blinks(leds):
    lit = colours(Lighting(prompt=Prompt("game_over", Side.BLACK, number=4)), leds, OFF)
    assert lit == {**dict.fromkeys(pips(leds, (4, 0)), GREEN), led(leds, "turn:black"): GREEN}
    many = Lighting(prompt=Prompt("game_over", Side.BLACK, number=16))
    assert pips(leds, (6, 6)) <= set(colours(many, leds, ON))
    assert not pips(leds, (6, 6)) & set(colours(many, leds, OFF))


def test_a_mismatch_lights_both_turn_lights_red(leds):
    lit = colours(Lighting({6: "missing"}, prompt=Prompt("mismatch")), leds, ON)
    assert lit[led(leds, "turn:white")] == lit[led(leds, "turn:black")] == RED


def test_the_lights_event_carries_the_question():
    lighting = Lighting({5: "extra"}, prompt=Prompt("game_over", Side.WHITE, {"white.cube": "new session"}, number=2))
    assert lights_event(lighting) == ev.Lights({5: "extra"}, "game_over", Side.WHITE, {"white.cube": "new session"}, 2)
    assert lights_event(lighting).to_json() == {"event": "lights", "roles": {"5": "extra"}, "asks": "game_over",
                                                "side": "white", "answers": {"white.cube": "new session"},
                                                "number": 2}
    assert lights_event(Lighting()).to_json() == {"event": "lights", "roles": {}}


def test_every_prompt_blinks_on_schedule(leds):
    for asks in PROMPTS:
        lighting = Lighting(dice=(3, 1), prompt=Prompt(asks, Side.WHITE, number=20, dead_dice=1))
        now = 0.1
        for _ in range(6):
            edge = next_change(lighting, now)
            if edge is None:
                break
            assert colours(lighting, leds, now) == colours(lighting, leds, (now + edge) / 2)
            now = edge
