"""The chouette's scenarios (tests/scenarios/chouette_*.log.jsonl) checked by an independent
count: each seat's ledger kept from the log's own words (its cube actions, resignations and
the last position), nothing of bgpi's chouette code; each game's results, the box's share,
the sheet's totals and the next line must be what the board logged.  The same count runs
over whole chouettes decided at random (tests/table/chouettes.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bgpi.rules.ids import decode_position_id
from tests.table.chouettes import play_chouette

HERE = Path(__file__).parent.parent / "scenarios"
LOGS = sorted(path for path in HERE.glob("chouette_*.log.jsonl") if '"event": "session"' in path.read_text()[:40])
"""The logs of the chouette's scenarios that begin a session (a later part of a scenario resumes one)."""
MULTIPLIER = {"single": 1, "gammon": 2, "backgammon": 3}


@dataclass
class Ledger:
    """One seat's money game against the box, from the log."""

    value: int = 1
    owner: str | None = None  # "box" or "seat"
    offer: tuple[str, int, bool] | None = None  # who doubled ("box"/"seat"), the value offered, a beaver
    points: int | None = None  # settled: what the seat won (less than 0: lost)


@dataclass
class Game:
    box: str
    team: list[str]
    seats: dict[str, Ledger] = field(default_factory=dict)
    resignation: tuple[str, int] | None = None  # who resigns, the multiplier
    last_play: dict[str, Any] | None = None


def who(player: str, box_side: str) -> str:
    return "box" if player == box_side else "seat"


def final_kind(play: dict[str, Any]) -> tuple[str, str]:
    """Who won ("box colour" side) and the kind of win, from the last play's Position ID
    (encoded for the loser, who would roll next)."""
    waiting, loser = decode_position_id(play["position_id"])
    assert sum(waiting) == 0, "the winner has borne off every checker"
    if sum(loser) < 15:
        return play["player"], "single"
    # The winner's home board is the loser's 19- to 24-point; its bar counts too.
    return play["player"], "backgammon" if sum(loser[18:25]) else "gammon"


def check_log(events: list[dict[str, Any]]) -> int:
    """Check every game of a chouette's log; the number of games checked."""
    session = events[0]
    chouette = session["config"]["chouette"]
    box_side = chouette.get("box", "white")
    jacoby = session["config"].get("jacoby", True)
    partner_on = chouette.get("box_partner", False)
    line: list[str] = []
    totals: dict[str, int] = {}
    game: Game | None = None
    checked = 0
    for at, event in enumerate(events):
        kind = event["event"]
        if kind == "line":
            line = event["line"]
        elif kind == "start":
            partner = line[-1] if partner_on and len(line) >= 6 else None
            team = [name for name in line[1:] if name != partner]
            game = Game(line[0], team, {name: Ledger() for name in team})
        elif game is None:
            continue
        elif kind == "opening":
            for ledger in game.seats.values():
                ledger.value = event["cube"]
        elif kind in ("seat_double", "seat_beaver"):
            game.seats[event["seat"]].offer = (who(event["player"], box_side), event["cube"], kind == "seat_beaver")
        elif kind == "seat_take":
            ledger = game.seats[event["seat"]]
            doubler, value, beaver = ledger.offer
            ledger.value, ledger.offer = value, None
            ledger.owner = doubler if beaver else who(event["player"], box_side)
        elif kind == "seat_drop":
            ledger = game.seats[event["seat"]]
            doubler, value, _ = ledger.offer
            # The double is dropped at the cube before it: half what was offered.
            ledger.points = value // 2 if doubler == "seat" else -(value // 2)
            ledger.offer = None
        elif kind == "seat_resign_offered":
            game.resignation = (who(event["player"], box_side), MULTIPLIER[event["result"]])
        elif kind == "seat_resign_accepted":
            resigner, times = game.resignation
            ledger = game.seats[event["seat"]]
            ledger.points = times * ledger.value if resigner == "box" else -times * ledger.value
        elif kind == "play":
            game.last_play = event
        elif kind == "chouette_over":
            expected = settle(game, box_side, jacoby, partner_on, line)
            assert event["points"] == expected, (at, event["points"], expected)
            assert sum(event["points"].values()) == 0
            for name, points in expected.items():
                totals[name] = totals.get(name, 0) + points
            assert {name: total for name, total in event["totals"].items() if name in totals} == totals
            captain = game.team[0]
            rotated = events[at + 1]
            assert rotated["event"] == "line" and rotated["why"] == "rotation"
            rest = [name for name in line if name not in (game.box, captain)]
            assert rotated["line"] == ([captain, *rest, game.box] if expected[captain] > 0
                                       else [game.box, *rest, captain])
            checked += 1
            game = None
    return checked


def settle(game: Game, box_side: str, jacoby: bool, partner_on: bool, line: list[str]) -> dict[str, int]:
    """Every player's points for the game: the seats played out scored from the last position."""
    if any(ledger.points is None for ledger in game.seats.values()):
        winner, kind = final_kind(game.last_play)
        for ledger in game.seats.values():
            if ledger.points is not None:
                continue
            times = MULTIPLIER[kind]
            if jacoby and ledger.owner is None:
                times = 1  # a gammon counts only against a seat whose cube was turned
            won = times * ledger.value
            ledger.points = -won if winner == box_side else won
    seats = {name: ledger.points for name, ledger in game.seats.items()}
    box_total = -sum(seats.values())
    partner = line[-1] if partner_on and len(line) >= 6 else None
    shares = {game.box: box_total}
    if partner is not None:
        half = (abs(box_total) + 1) // 2
        shares = {game.box: half if box_total >= 0 else -half}
        shares[partner] = box_total - shares[game.box]
    return {**shares, **seats}


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("path", LOGS, ids=lambda path: path.name)
def test_every_result_of_a_scenario_is_what_an_independent_count_gives(path):
    check_log(read(path))


def test_the_scenarios_end_games_every_way():
    ends = {end for path in LOGS for event in read(path) if event["event"] == "chouette_over"
            for end in event["ends"].values()}
    assert ends == {"played", "dropped", "resigned"}
    assert sum(check_log(read(path)) for path in LOGS) >= 6


@pytest.mark.parametrize("seed, players, config, options", [
    (5, 4, {"beavers": True}, {}),
    (6, 7, {}, {"box_partner": True, "box_takes_half": True}),
    (7, 5, {"jacoby": False, "auto_doubles": 1}, {"box": "black"}),
])
def test_whole_chouettes_decided_at_random_count_the_same(seed, players, config, options):
    events = play_chouette(seed, games=15, players=players, config=config, options=options,
                           rates={"double": 0.25, "resign": 0.03})
    assert check_log([event.to_json() for event in events]) == 15
