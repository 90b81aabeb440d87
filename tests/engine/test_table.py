"""The engine at the table: hints on the board and a whole game against the computer,
played by hands that follow the lights (the simulated board, Debian's gnubg)."""

from __future__ import annotations

import pytest

from bgpi.hardware.profile import load_profile
from bgpi.rules.position import Side
from bgpi.shell.advisor import open_advisor
from bgpi.shell.simtable import SimulatedTable
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing, bar


@pytest.fixture
def advisor(gnubg_path):
    advisor = open_advisor({"engine": "gnubg", "opponent": "gnubg:expert"})
    yield advisor
    advisor.close()


def new_table(config: dict, advisor, seed: int) -> tuple[Table, SimulatedTable, list[dict]]:
    profile = load_profile()
    table, events = Table.new(Sensing(profile.geometry), config)
    sim = SimulatedTable(profile, table, events.append, seed=seed)
    sim.advise = advisor
    sim.set_position(table.position)
    sim.advance(0.1)
    return table, sim, events


def follow_lights(table: Table, sim: SimulatedTable) -> bool:
    """One move of the hands as the lights say: put a hit checker on the bar, or move the
    hinted checker.  False when the lights show neither."""
    lighting = table.lighting()
    hits = [location for location, role in lighting.roles.items() if role == "hit"]
    if hits:
        sim.lift(hits[0])
        sim.advance(0.05)
        sim.place(bar(table.turn.opponent))
        return True
    hinted = [location for location, role in lighting.roles.items() if role == "hint"]
    if not hinted:
        return False
    (source,) = lighting.hint_from
    (destination,) = [location for location in hinted if location != source]
    sim.lift(source)
    sim.advance(0.05)
    sim.place(destination)
    return True


def play_a_game(table: Table, sim: SimulatedTable, events: list[dict]) -> None:
    """White's hands: roll, ask for a hint and follow it, commit, take every double;
    and move black's checkers as the computer's lights say."""
    sim.press("white.turn")  # the opening roll
    for _ in range(5000):
        if any(event["event"] == "game_over" for event in events):
            return
        if table.phase == "roll" and table.turn is Side.WHITE:
            sim.press("white.turn")
        elif table.phase == "doubled":
            sim.press("white.turn")  # take
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
    kinds = [event["event"] for event in events]
    assert "rejected" not in kinds, [event for event in events if event["event"] == "rejected"]
    plays = [event for event in events if event["event"] == "play"]
    assert {play["player"] for play in plays} == {"white", "black"}
    # Every play committed is the one lit: the computer's, and white's hint.
    advised = [event for event in events if event["event"] in ("computer_play", "hint") and "move" in event]
    assert [(event["player"], event["move"]) for event in advised] == [(play["player"], play["move"]) for play in plays]
    assert all(event["player"] == "black" for event in events if event["event"] == "computer_play")
    assert kinds.count("computer_cube") >= 1
    sim.close()
