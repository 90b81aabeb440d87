"""The round trip: sessions the simulated board really plays (tests/records/sessions.py,
gnubg deciding for both sides), exported to .mat and SGF and read back by Debian's gnubg,
agree game by game with the table log: the number of games, every play by the position
it leads to, every cube action with its player and value, the score before each game,
the Crawford game, the winner and the points won."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from bgpi.cli import main
from bgpi.engine.engine import open_engine
from bgpi.hardware.profile import load_profile
from bgpi.records.matfile import last_session, mat_record
from bgpi.records.reading import _mat_rows
from bgpi.records.sgffile import sgf_record
from bgpi.rules.ids import board_id, decode_position_id
from bgpi.rules.position import Side
from bgpi.rules.result import GameResult
from bgpi.rules.session import Session, Settings
from bgpi.shell.journal import Journal
from bgpi.shell.replay import replay
from bgpi.shell.script import parse_script
from bgpi.table import events as ev
from tests.records.sessions import PLANS, play_session
from tests.records.test_sgffile import GNUBG, needs_gnubg

READS = Path(__file__).with_name("gnubg_reads.py")
GNUBG_SIDE = {"X": Side.WHITE, "O": Side.BLACK}  # gnubg.match() calls player 0 X


@dataclass(frozen=True, slots=True)
class GameRead:
    """One game as both sides are compared: what happened, in order, and how it ended."""

    score: tuple[int, int]
    crawford: bool
    actions: tuple[tuple[Any, ...], ...]  # ("play", side, dice, position ID after) or (cube action, side, value)
    winner: str | None
    points: int


def with_values(actions: Iterable[tuple[str, str, Any]], cube: int) -> tuple[tuple[Any, ...], ...]:
    """Plays as they are; each cube action ("double", "take", "drop", a beaver being the
    taker's double) with the cube's value: offered, taken, or given up by the drop."""
    out: list[tuple[Any, ...]] = []
    offered = 0
    for action in actions:
        kind, side = action[0], action[1]
        if kind == "play":
            out.append(action)
        elif kind == "double":
            offered = (offered or cube) * 2
            out.append((kind, side, offered))
        elif kind == "take":
            cube, offered = offered, 0
            out.append((kind, side, cube))
        else:
            out.append((kind, side, offered // 2))
            offered = 0
    return tuple(out)


def table_games(events: list[ev.Event]) -> list[GameRead]:
    """The games of the table log's last session."""
    session_event, played = last_session(events)
    session = Session(Settings.from_config(session_event.config if session_event is not None else {}))
    games: list[GameRead] = []
    actions: list[tuple[str, str, Any]] = []
    cube = 1
    for event in played:
        match event:
            case ev.Opening():
                actions, cube = [], event.cube
                start = (session.score.white, session.score.black), session.crawford
            case ev.Play():
                actions.append(("play", event.player.label, tuple(sorted(event.dice)), event.position_id))
            case ev.Double() | ev.Take() | ev.Drop():
                actions.append((event.kind, event.player.label, None))
            case ev.Beaver():
                actions.append(("double", event.player.label, None))
            case ev.GameOver():
                games.append(GameRead(*start, with_values(actions, cube), event.winner.label, event.points))
                session = session.record(GameResult(event.winner, event.result, event.cube, event.dropped))
    return games


def after(board: str, mover: Side, move: Iterable[tuple[int, int]]) -> str:
    """The Position ID after `mover` plays gnubg's `move` (pairs in the mover's count, 25 the
    bar, 0 off) from `board`, encoded for the opponent, who rolls next."""
    waiting, moving = (list(side) for side in decode_position_id(board))
    for source, destination in move:
        moving[source - 1] -= 1
        if destination > 0:
            moving[destination - 1] += 1
            if waiting[24 - destination] == 1:  # a blot hit: to its bar
                waiting[24 - destination] = 0
                waiting[24] += 1
    return board_id((tuple(moving), tuple(waiting)))


def gnubg_games(match: Mapping[str, Any]) -> list[GameRead]:
    """The games as gnubg read them (`gnubg.match()`: a game's cube set up before its
    first roll is a "set" action with a "cube")."""
    games = []
    for game in match["games"]:
        info = game["info"]
        actions: list[tuple[str, str, Any]] = []
        cube = 1
        for action in game["game"]:
            if action["action"] == "set" and set(action) == {"action", "cube"} and not actions:
                cube = action["cube"]
                continue
            side = GNUBG_SIDE[action["player"]]
            if action["action"] == "move":
                position = after(action["board"], side, action["move"])
                actions.append(("play", side.label, tuple(sorted(action["dice"])), position))
            elif action["action"] in ("double", "take", "drop"):
                actions.append((action["action"], side.label, None))
            else:
                actions.append((action["action"], side.label, str(action)))  # unexpected: a difference
        winner = GNUBG_SIDE[info["winner"]].label if info["winner"] else None
        games.append(GameRead((info["score-X"], info["score-O"]), info.get("crawford", False),
                              with_values(actions, cube), winner, info.get("points-won", 0)))
    return games


def as_mat_holds(games: list[GameRead], cubes: list[int]) -> list[GameRead]:
    """The games as .mat holds them: without automatic doubles, so a game is counted at
    the cube its doubles give (the scores before each game are written, and kept)."""
    return [replace(game, actions=with_values(((*a[:2], None) if a[0] != "play" else a for a in game.actions), 1),
                    points=game.points // cube)
            for game, cube in zip(games, cubes, strict=True)]


def differences(ours: list[GameRead], theirs: list[GameRead]) -> list[str]:
    found = [] if len(ours) == len(theirs) else [f"{len(ours)} games, gnubg reads {len(theirs)}"]
    for number, (mine, read) in enumerate(zip(ours, theirs, strict=False), start=1):
        for name in ("score", "crawford", "winner", "points"):
            if getattr(mine, name) != getattr(read, name):
                found.append(f"game {number}: {name} {getattr(mine, name)}, gnubg {getattr(read, name)}")
        for index, (a, b) in enumerate(zip(mine.actions, read.actions, strict=False), start=1):
            if a != b:
                found.append(f"game {number}, action {index}: {a}, gnubg {b}")
                break
        if len(mine.actions) != len(read.actions):
            found.append(f"game {number}: {len(mine.actions)} actions, gnubg {len(read.actions)}")
    return found


def gnubg_read(tmp_path: Path, commands: list[str], analyse: bool = False) -> list[dict]:
    """What Debian's gnubg makes of each record: one gnubg for all (`gnubg_reads.py`);
    with `analyse`, gnubg's analysis at 0 plies too.  gnubg's own .mat export of the
    N-th is left in tmp_path/exported/N.mat."""
    (tmp_path / "exported").mkdir(exist_ok=True)
    listing, out = tmp_path / "reads.txt", tmp_path / "read.json"
    listing.write_text("".join(command + "\n" for command in commands))
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "C",
           "GNUBG_READS": str(listing), "GNUBG_READ_OUT": str(out),
           "GNUBG_EXPORT": str(tmp_path / "exported"), **({"GNUBG_ANALYSE": "1"} if analyse else {})}
    done = subprocess.run([GNUBG, "-t", "-q", "-p", str(READS)], capture_output=True, text=True,
                          timeout=120, check=False, cwd=tmp_path, env=env)
    output = done.stdout + done.stderr
    for complaint in ("WARNING", "Unrecognised", "Invalid", "doesn't follow", "not a valid", "Traceback"):
        assert complaint not in output, output[-3000:]
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def sessions() -> dict[str, list[ev.Event]]:
    """Each plan played on the board by the generator, then its script replayed by
    `bgpi replay`'s code: the table log of the board script."""
    logs = {}
    profile = load_profile()
    with open_engine("gnubg") as engine:
        for plan in PLANS:
            lines, events = play_session(plan, engine)
            script = parse_script("".join(json.dumps(line) + "\n" for line in lines))
            replayed: list[ev.Event] = []
            replay(script, profile, replayed.append, seed=0)
            assert replayed[:-1] == events, plan.name  # the script gives the log it was written with
            logs[plan.name] = replayed
    return logs


def opening_cubes(events: list[ev.Event]) -> list[int]:
    _, played = last_session(events)
    return [event.cube for event in played if isinstance(event, ev.Opening)]


@needs_gnubg
def test_gnubg_reads_every_session_as_the_board_played_it(sessions, tmp_path):
    commands, expected = [], []
    for plan in PLANS:
        events = sessions[plan.name]
        games, cubes = table_games(events), opening_cubes(events)
        mat, sgf = mat_record(events), sgf_record(events)
        assert sgf.warnings == ()
        doubled = [number for number, cube in enumerate(cubes, start=1) if cube != 1]
        assert [int(w.split(":")[0].split()[1]) for w in mat.warnings] == doubled, mat.warnings
        for suffix, text, command, wanted in (
            ("mat", mat.text, "import mat", as_mat_holds(games, cubes)),
            ("sgf", sgf.text, "load match", games),
        ):
            path = tmp_path / f"{plan.name}.{suffix}"
            path.write_text(text)
            commands.append(f"{command} {path}")
            expected.append((f"{plan.name}.{suffix}", wanted))
    reads = gnubg_read(tmp_path, commands)
    found = []
    for number, ((name, wanted), read) in enumerate(zip(expected, reads, strict=True), start=1):
        found += [f"{name}: {difference}" for difference in differences(wanted, gnubg_games(read))]
        if name.endswith(".mat") and "auto_doubles" not in name:  # gnubg's export lays it out as we do
            ours, theirs = (tmp_path / name).read_text(), (tmp_path / "exported" / f"{number}.mat").read_text()
            found += [f"{name} line {line}: {a!r}, gnubg's export {b!r}"
                      for line, (a, b) in enumerate(zip(layout(ours), layout(theirs), strict=True)) if a != b]
    assert found == []


def layout(mat: str) -> list[str]:
    """A .mat file's layout: each numbered line as the two cells gnubg's importer splits it
    into, with each roll's play left out (gnubg writes the bar as 25 and orders the steps
    its way) and a double's value (a dropped beaver is written as a double here: see
    matfile); the other lines as they are, without comments and the Jellyfish " and the match"."""
    lines = []
    for line in mat.splitlines():
        if line.startswith(";"):
            continue
        if re.match(r"^\s*\d+\)", line):
            number = line.split(")", 1)[0].strip()
            (cells,) = _mat_rows(iter([line]))
            line = f"{number}) " + " | ".join(
                re.sub(r"(Doubles|Beavers) => \d+", "cube", re.sub(r"^([1-6][1-6]):.*$", r"\1:", cell.strip()))
                for cell in cells)
        lines.append(line.replace(" and the match", "").rstrip())
    return "\n".join(lines).strip().splitlines()


def covered(sessions: Mapping[str, list[ev.Event]]) -> dict[str, int]:
    counts = {"sessions": len(sessions), "games": 0, "plays": 0, "cube actions": 0, "crawford games": 0}
    for events in sessions.values():
        for game in table_games(events):
            counts["games"] += 1
            counts["crawford games"] += game.crawford
            counts["plays"] += sum(1 for action in game.actions if action[0] == "play")
            counts["cube actions"] += sum(1 for action in game.actions if action[0] != "play")
    return counts


@needs_gnubg
def test_the_sessions_bring_every_cube_action_and_a_crawford_game(sessions):
    kinds = {event.kind for events in sessions.values() for event in events}
    assert {"double", "take", "drop", "beaver", "tie", "match_over"} <= kinds
    counts = covered(sessions)
    assert counts["crawford games"] >= 1 and counts["games"] >= 12, counts
    if os.environ.get("BGPI_SHOW_COVERAGE"):
        print(counts)


def test_plans_cover_matches_and_money():
    lengths = sorted(plan.config.get("match", 0) for plan in PLANS)
    assert lengths[:2] == [0, 0] and {5, 7} <= set(lengths)
    money = [plan.config for plan in PLANS if not plan.config.get("match")]
    assert any(config.get("jacoby") for config in money) and any(config.get("auto_doubles") for config in money)


@needs_gnubg
def test_a_difference_is_found(sessions):
    games = table_games(sessions["match5"])
    play = next(i for i, action in enumerate(games[1].actions) if action[0] == "play")
    changed = [*games[1].actions]
    changed[play] = (*changed[play][:3], "4HPwATDgc/ABMA")
    read = [games[0], replace(games[1], actions=tuple(changed), crawford=True), *games[2:-1]]
    assert differences(games, read) == [
        f"{len(games)} games, gnubg reads {len(games) - 1}",
        "game 2: crawford False, gnubg True",
        f"game 2, action {play + 1}: {games[1].actions[play]}, gnubg {changed[play]}",
    ]


def replayed(script: str) -> list[ev.Event]:
    events: list[ev.Event] = []
    replay(parse_script(script), load_profile(), events.append, seed=0)
    return events


WHITE_DROPS = """{"config": {"match": 5}}
{"dice": [3, 1]}
{"press": "white.turn"}
{"move": [8, 5]}
{"move": [6, 5]}
{"press": "white.turn"}
{"press": "black.cube"}
{"press": "white.cube"}
{"press": "white.cube"}
"""

BEAVER = """{"board": "position", "position_id": "d3cHAADu7g4AAA", "turn": "white"}
{"config": {"beavers": true}}
{"press": "white.cube"}
{"hold": "black.cube"}
{"press": "white.turn"}
"""


@needs_gnubg
def test_gnubg_reads_a_drop_by_white_as_the_drop_alone(tmp_path):
    path = tmp_path / "drop.mat"
    path.write_text(mat_record(replayed(WHITE_DROPS)).text)
    (read,) = gnubg_read(tmp_path, [f"import mat {path}"])
    (game,) = read["games"]
    assert [(a["action"], a["player"]) for a in game["game"]] == [("move", "X"), ("double", "O"), ("drop", "X")]
    assert (game["info"]["winner"], game["info"]["points-won"]) == ("O", 1)


@needs_gnubg
def test_gnubg_gives_a_beavered_cube_to_the_beaverer(tmp_path):
    events = replayed(BEAVER)
    path = tmp_path / "beaver.sgf"
    path.write_text(sgf_record(events).text)
    done = subprocess.run([GNUBG, "-t", "-q", "-r"], input=f"load match {path}\nshow board\n",
                          capture_output=True, text=True, timeout=30, check=False, cwd=tmp_path,
                          env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "C"})
    assert "X: black (Cube: 4)" in done.stdout  # black, gnubg's X, owns the cube at 4


@needs_gnubg
@pytest.mark.parametrize("name", ["match5", "money_jacoby_beavers"])
def test_bgpi_analyse_agrees_with_gnubgs_analysis_of_the_export(sessions, tmp_path, capsys, name):
    events = sessions[name]
    state = tmp_path / "state"
    with Journal.open(state) as journal:
        for event in events[:-1]:  # the replay's closing state event is not journaled
            journal.append(event)
    assert main(["analyse", "--state", str(state), "--json", "--engine", "gnubg", "--plies", "0"]) == 0
    ours = [d for d in json.loads(capsys.readouterr().out)["decisions"] if d["kind"] == "play"]
    path = tmp_path / f"{name}.sgf"
    path.write_text(sgf_record(events).text)
    (read,) = gnubg_read(tmp_path, [f"load match {path}"], analyse=True)
    theirs = []
    for number, game in enumerate(read["games"], start=1):
        for action in game["game"]:
            analysis = action.get("analysis", {})
            if action["action"] != "move" or len(analysis.get("moves", ())) < 2:
                continue  # a forced play or none: no choice to lose equity by
            moves = analysis["moves"]
            theirs.append((number, action["board"], moves[0]["score"] - moves[analysis["imove"]]["score"]))
    chosen = {(d["game"], d["position_id"]): d["loss"] for d in ours}
    far = [(game, board, loss, chosen.get((game, board))) for game, board, loss in theirs
           if chosen.get((game, board)) is None or abs(chosen[(game, board)] - loss) > 0.01]
    assert len(theirs) > 30 and far == []


AUTO_DOUBLE = """{"config": {"auto_doubles": 1}}
{"dice": [3, 3]}
{"dice": [3, 1]}
{"press": "white.turn"}
{"move": [8, 5]}
{"move": [6, 5]}
{"press": "white.turn"}
{"press": "black.cube"}
{"press": "white.cube"}
{"press": "white.cube"}
"""


@needs_gnubg
def test_gnubg_scores_an_automatic_double_from_sgf_and_mat_warns(tmp_path):
    events = replayed(AUTO_DOUBLE)
    assert [e.points for e in events if isinstance(e, ev.GameOver)] == [2]
    path = tmp_path / "auto.sgf"
    path.write_text(sgf_record(events).text)
    (read,) = gnubg_read(tmp_path, [f"load match {path}"])
    assert read["games"][0]["info"]["points-won"] == 2
    assert mat_record(events).warnings == (
        "game 1: the opening ties doubled the cube to 2; .mat has no automatic doubles, "
        "so gnubg counts this game at a lower cube",)
