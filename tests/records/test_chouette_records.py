"""A chouette's records: the score sheet sums to zero over a long session, every game of
every seat is read back by Debian's gnubg as the board played it (.mat and SGF), and
`bgpi export` writes them (issue 31)."""

from __future__ import annotations

import csv
import doctest
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

import bgpi.records.chouette
import bgpi.records.sheet
from bgpi.cli import main
from bgpi.exc import RecordError
from bgpi.records.chouette import chouette_games, seat_events
from bgpi.records.matfile import mat_record
from bgpi.records.sgffile import sgf_record
from bgpi.records.sheet import score_sheet, sheet_csv
from bgpi.rules.position import Side
from bgpi.shell.journal import Journal
from bgpi.table import events as ev
from tests.records.test_round_trip import GameRead, differences, gnubg_games, gnubg_read, table_games
from tests.records.test_sgffile import needs_gnubg
from tests.table.chouettes import play_chouette

SCENARIOS = Path(__file__).parents[1] / "scenarios"


@pytest.fixture(scope="module")
def long_session() -> list[ev.Event]:
    """Fifty games of a chouette of five, with latecomers and leavers, decided at random."""
    return play_chouette(11, games=50, players=5, config={"beavers": True}, rates={"resign": 0.03})


def test_the_examples_run():
    for module in (bgpi.records.chouette, bgpi.records.sheet):
        results = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert results.attempted and not results.failed


def test_the_score_sheet_sums_to_zero_after_every_game_of_a_long_session(long_session):
    sheet = score_sheet(long_session)
    assert len(sheet.rows) == 50
    running: dict[str, int] = {}
    for row in sheet.rows:
        assert sum(row.points.values()) == 0, row
        assert sum(row.totals.values()) == 0, row
        for player, points in row.points.items():
            running[player] = running.get(player, 0) + points
        assert {player: total for player, total in row.totals.items() if total or player in running} == \
            {player: running.get(player, 0) for player in row.totals if row.totals[player] or player in running}
        assert row.why[row.box] == "box" and set(row.why) == set(row.points)
    assert sum(sheet.totals.values()) == 0 and len(sheet.players) > 5  # someone joined


def test_the_sheet_as_csv_has_a_row_a_game_and_the_totals_last(long_session):
    sheet = score_sheet(long_session)
    rows = list(csv.reader(io.StringIO(sheet_csv(sheet))))
    header, *games, totals = rows
    assert header[:4] == ["game", "box", "captain", "partner"] and len(games) == 50
    assert totals[0] == "total"
    total_columns = [at for at, name in enumerate(header) if name.endswith(" total")]
    assert sum(int(totals[at]) for at in total_columns) == 0
    for row, game in zip(sheet.rows, games, strict=True):
        points = [int(game[at - 2]) for at in total_columns if game[at - 2]]
        assert sum(points) == 0 and game[1] == row.box


def seat_records(events: list[ev.Event]) -> list[tuple[str, list[ev.Event]]]:
    """Every seat's game of every game of a chouette, as a game of two."""
    head, games = chouette_games(events)
    return [(f"game{game.number}-{seat}", seat_events(head, game, seat))
            for game in games if game.over is not None for seat in game.team]


@needs_gnubg
def test_gnubg_reads_every_seats_game_as_the_board_played_it(tmp_path):
    events = play_chouette(12, games=12, players=4, config={"beavers": True},
                           rates={"double": 0.3, "resign": 0.04})
    records = seat_records(events)
    assert len(records) >= 30
    commands, expected = [], []
    for name, seat_log in records:
        wanted = table_games(seat_log)
        for suffix, write, command in (("mat", mat_record, "import mat"), ("sgf", sgf_record, "load match")):
            record = write(seat_log)
            assert record.warnings == () and record.games == 1, (name, record.warnings)
            path = tmp_path / f"{name}.{suffix}"
            path.write_text(record.text)
            commands.append(f"{command} {path}")
            expected.append((path.name, wanted))
    reads = gnubg_read(tmp_path, commands)
    found = []
    for (name, wanted), read in zip(expected, reads, strict=True):
        found += [f"{name}: {difference}" for difference in differences(wanted, as_played(gnubg_games(read)))]
    assert found == []


def as_played(games: list[GameRead]) -> list[GameRead]:
    """The games gnubg read, its record of a resignation accepted left out: the table log's
    resignation is its ``game_over`` (the winner and the points, compared)."""
    return [replace(game, actions=tuple(action for action in game.actions if action[0] != "resign"))
            for game in games]


@needs_gnubg
def test_gnubg_reads_the_scenarios_games_with_the_players_names(tmp_path):
    """The scenarios start from practice positions: SGF holds them."""
    commands, names = [], []
    for path in sorted(SCENARIOS.glob("chouette_*.log.jsonl")):
        events = [ev.parse(json.loads(line)) for line in path.read_text().splitlines()]
        if not isinstance(events[0], ev.NewSession):
            continue
        for name, seat_log in seat_records(events):
            record = sgf_record(seat_log)
            assert record.warnings == () and record.games == 1
            target = tmp_path / f"{path.name.split('.')[0]}-{name}.sgf"
            target.write_text(record.text)
            commands.append(f"load match {target}")
            over = seat_log[-1]
            names.append((seat_log[0].config["players"], over))
    reads = gnubg_read(tmp_path, commands)
    for (players, over), read in zip(names, reads, strict=True):
        (game,) = read["games"]
        assert read["match-info"]["X"]["name"] == players["white"]
        assert read["match-info"]["O"]["name"] == players["black"]
        assert {"X": "white", "O": "black"}[game["info"]["winner"]] == over.winner.label
        assert game["info"]["points-won"] == over.points


def test_a_seat_not_of_the_team_has_no_game():
    events = play_chouette(13, games=1, players=3)
    head, (game,) = chouette_games(events)
    with pytest.raises(RecordError, match="has no seat in game 1"):
        seat_events(head, game, game.box)


def test_a_seats_game_ends_where_the_seat_was_settled():
    events = play_chouette(14, games=6, players=4, rates={"double": 0.4})
    head, games = chouette_games(events)
    dropped = [(game, seat) for game in games for seat, end in game.over.ends.items() if end == "dropped"]
    assert dropped
    for game, seat in dropped:
        log = seat_events(head, game, seat)
        assert isinstance(log[-2], ev.Drop) and isinstance(log[-1], ev.GameOver) and log[-1].dropped


# -- bgpi export ---------------------------------------------------------------------------


@pytest.fixture
def state(tmp_path):
    events = play_chouette(15, games=3, players=4, rates={"double": 0.3})
    folder = tmp_path / "state"
    folder.mkdir()
    journal = Journal.open(folder)
    for event in events:
        journal.append(event)
    journal.close()
    return folder


def test_export_writes_the_sheet_and_each_game_a_file(state, tmp_path, capsys):
    assert main(["export", "--state", str(state), "--sheet", str(tmp_path / "sheet.csv")]) == 0
    assert (tmp_path / "sheet.csv").read_text().startswith("game,box,captain,partner,")
    assert main(["export", "--state", str(state), "--mat", str(tmp_path / "night.mat")]) == 0
    assert sorted(path.name for path in tmp_path.glob("night-*.mat")) == ["night-1.mat", "night-2.mat", "night-3.mat"]
    assert main(["export", "--state", str(state), "--sgf", str(tmp_path / "two.sgf"), "--game", "2"]) == 0
    assert "PW[" in (tmp_path / "two.sgf").read_text()
    assert "written to" in capsys.readouterr().err


@pytest.mark.parametrize("args, says", [
    (["--mat", "-"], "give --game N"),
    (["--mat", "x.mat", "--game", "9"], "there is no game 9"),
    (["--sgf", "x.sgf", "--game", "1", "--seat", "Zed"], "Zed has no seat in game 1"),
])
def test_export_refuses_what_a_chouette_cannot_give(state, capsys, args, says):
    assert main(["export", "--state", str(state), *args]) == 2
    assert says in capsys.readouterr().err


def test_a_score_sheet_is_a_chouettes_only(tmp_path, capsys):
    folder = tmp_path / "state"
    folder.mkdir()
    journal = Journal.open(folder)
    journal.append(ev.NewSession({"match": 3}))
    journal.close()
    assert main(["export", "--state", str(folder), "--sheet", "-"]) == 2
    assert "is no chouette" in capsys.readouterr().err


@needs_gnubg
def test_a_pair_sessions_names_go_into_the_records(tmp_path):
    events = [ev.parse(json.loads(line)) for line in (SCENARIOS / "pairs_roll.log.jsonl").read_text().splitlines()]
    record = sgf_record(events)
    assert "PW[Ann & Bob]PB[Cat & Dan]" in record.text
    path = tmp_path / "pairs.sgf"
    path.write_text(record.text)
    (read,) = gnubg_read(tmp_path, [f"load match {path}"])
    assert (read["match-info"]["X"]["name"], read["match-info"]["O"]["name"]) == ("Ann & Bob", "Cat & Dan")
    opened = [ev.NewSession(events[0].config), ev.Start("4HPwATDgc/ABMA"), ev.Opening(3, 1, Side.WHITE, 1)]
    assert " Ann & Bob : 0" in mat_record(opened).text and "Cat & Dan : 0" in mat_record(opened).text
