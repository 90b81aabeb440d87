"""Match records in Jellyfish .mat: the exact text, and an import into GNU Backgammon."""

from __future__ import annotations

import argparse
import contextlib
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgpi.cli import export as export_cli
from bgpi.cli import main
from bgpi.cli.selfplay import self_play_events
from bgpi.exc import MatError, PlayNotationError, UsageError
from bgpi.records.matfile import mat_record
from bgpi.records.sgffile import sgf_record
from bgpi.rules.ids import position_from_id, position_id
from bgpi.rules.notation import find_play
from bgpi.rules.play import Dice
from bgpi.rules.position import Position, Side
from bgpi.rules.result import GameResult, ResultKind
from bgpi.rules.session import Session, Settings
from bgpi.shell.journal import Journal, encode, encode_record, journal_path, read_journal
from bgpi.table import events as ev
from bgpi.table.phases import Phase

W, B = Side.WHITE, Side.BLACK
MONEY_ID = "cAkAAAAAAAAA"  # a Match ID for the hand-made plays: the records read only their Position IDs


def opening(white: int, black: int, cube: int = 1) -> ev.Opening:
    return ev.Opening(white, black, W if white > black else B, cube)


def play(player: Side, dice: tuple[int, int], move: str) -> tuple[Side, tuple[int, int], str]:
    """A play written by hand: `with_ids` gives it the Position ID its move leads to."""
    return player, dice, move


def with_ids(items: list[ev.Event | tuple[Side, tuple[int, int], str]]) -> list[ev.Event]:
    """Hand-made events, each `play` given the Position ID after it, as the table logs it
    (the position unchanged where the move is no legal play: lenient mode, a bad log)."""
    position, events = Position.start(), []
    for item in items:
        if isinstance(item, tuple):
            player, dice, move = item
            with contextlib.suppress(PlayNotationError):
                position = find_play(position, player, Dice(*dice), move).position
            item = ev.Play(player, dice, move, position_id(position, player.opponent), MONEY_ID)
        elif isinstance(item, ev.Opening):
            position = Position.start()
        events.append(item)
    return events


HAND_MADE = with_ids([
    ev.NewSession({"match": 3, "players": {"white": "Ana", "black": "Ivo"}}),
    opening(3, 1),
    play(W, (3, 1), "8/5 6/5"),
    ev.Roll(B, (6, 4)),
    ev.Step(B, 1, 7, False),
    play(B, (6, 4), "24/14"),
    ev.Double(W, 2),
    ev.Take(B, 2),
    play(W, (6, 6), "13/1*(2)"),
    play(B, (2, 5), "bar/18"),
    play(W, (4, 3), "24/21 24/20"),
    ev.Double(B, 4),
    ev.Drop(W, 2),
    ev.GameOver(B, ResultKind.SINGLE, 2, {"white": 0, "black": 2}, 2, True),
    ev.State(Phase.SETUP, None, None, "4HPwATDgc/ABMA", None, {"white": 0, "black": 2}),
    opening(2, 5),
    play(B, (5, 2), "24/22 13/8"),
    play(W, (1, 1), "24/22(2)"),
])

HAND_MADE_MAT = """\
 3 point match

 Game 1
 Ana : 0                        Ivo : 0
  1) 31: 8/5 6/5                 64: 24/18 18/14
  2)  Doubles => 2                Takes
  3) 66: 13/7 13/7 7/1* 7/1      52: bar/23 23/18
  4) 43: 24/20 24/21              Doubles => 4
  5)  Drops                       Wins 2 points

 Game 2
 Ana : 0                        Ivo : 2
  1)                             52: 13/8 24/22
  2) 11: 24/23 24/23 23/22 23/22

"""


def test_hand_made_session_gives_the_exact_text():
    record = mat_record(HAND_MADE)
    assert record.text == HAND_MADE_MAT
    assert record.games == 2 and record.warnings == ()


def test_money_play_without_a_session_event_and_the_end_of_a_match():
    events = with_ids([opening(4, 2), play(W, (4, 2), "8/4 6/4")])
    assert mat_record(events).text.startswith(" 0 point match\n\n Game 1\n white : 0 ")
    won = with_ids([
        ev.NewSession({"match": 1}),
        opening(6, 1),
        play(W, (6, 1), "13/7 8/7"),
        ev.Double(B, 2),
        ev.Drop(W, 2),
        ev.GameOver(B, ResultKind.SINGLE, 1, {"white": 0, "black": 1}, 1, True),
        ev.MatchOver(B, {"white": 0, "black": 1}),
    ])
    assert mat_record(won).text.endswith(
        "  1) 61: 13/7 8/7                 Doubles => 2\n"
        "  2)  Drops                       Wins 1 point and the match\n\n"
    )


def test_a_beaver_and_its_implicit_take():
    events = with_ids([
        opening(3, 1),
        play(W, (3, 1), "8/5 6/5"),
        ev.Double(B, 2),
        ev.Beaver(W, 4),
        ev.Take(B, 4),
        play(B, (6, 4), "24/14"),
    ])
    assert mat_record(events).text.endswith(
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Beavers => 4               64: 24/18 18/14\n\n"
    )


def test_only_the_last_session_is_written():
    events = [ev.NewSession({"match": 5}), opening(3, 1), *HAND_MADE]
    assert mat_record(events).text == HAND_MADE_MAT


def test_what_cannot_be_written_is_left_out_with_a_warning():
    events = with_ids([
        opening(3, 3, cube=2),
        play(W, (3, 1), "8/5 6/5"),
        play(B, (6, 4), "24/10"),  # not a legal play (lenient mode, or a bad log)
        play(W, (6, 4), "24/14"),
        ev.Take(B, 2),
        ev.Drop(W, 2),
        ev.GameOver(W, ResultKind.SINGLE, 2, {"white": 2, "black": 0}, 2, False),
    ])
    record = mat_record(events)
    assert record.warnings == (
        (
            "game 1: the opening ties doubled the cube to 2; .mat has no automatic doubles,"
            " so gnubg counts this game at a lower cube"
        ),
        (
            "game 1, play 2: black's play 64: '24/10' does not follow from the position;"
            " the rest of the game is left out"
        ),
    )  # the events after the cut, out-of-place ones included, are not looked at
    assert "  1) 31: 8/5 6/5\n      Wins 2 points\n" in record.text


def test_events_out_of_place_are_skipped_with_a_warning():
    record = mat_record(with_ids([play(W, (3, 1), "8/5 6/5"), opening(3, 1), ev.Take(B, 2)]))
    assert record.games == 1
    assert record.warnings == (
        "play event 1 of the session skipped: no game in progress (no opening event before it)",
        "take event 3 of the session skipped: no double is on offer",
    )


@pytest.mark.parametrize(
    ("session", "message"),
    [
        ({"match": -1}, "the session's match length must be a whole number 0 or more, not -1"),
        ({"players": {"white": "A: B"}}, "white's player name 'A: B' cannot be written in .mat"),
        ({"players": {"black": "Game 7"}}, "black's player name 'Game 7' cannot be written in .mat"),
    ],
)
def test_bad_session_events(session, message):
    with pytest.raises(MatError) as caught:
        mat_record([ev.NewSession(session), opening(3, 1)])
    assert str(caught.value) == message


# --- GNU Backgammon imports what we write -------------------------------------------

GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
needs_gnubg = pytest.mark.skipif(
    GNUBG is None, reason="Debian's gnubg is not installed (.ci/run installs it)"
)


def session_log(seed: int, settings: Settings, games: int) -> list[ev.Event]:
    """A session of random legal games, as the table log would have it."""
    rng = random.Random(seed)
    session = Session(settings)
    events: list[ev.Event] = [ev.NewSession({"match": settings.match_length})]
    while session.games < games and not session.is_over:
        for event in self_play_events(rng, session):
            events.append(event)
            if isinstance(event, ev.GameOver):
                session = session.record(GameResult(event.winner, event.result))
    if session.is_over and session.winner is not None:
        events.append(ev.MatchOver(session.winner, session.score.as_dict()))
    return events


def gnubg_import(tmp_path: Path, events: list[ev.Event], *commands: str) -> str:
    """gnubg's answers to `commands` after importing the events as a .mat file."""
    record = mat_record(events)
    assert record.warnings == ()
    mat = tmp_path / "session.mat"
    mat.write_text(record.text)
    script = "\n".join([f"import mat {mat}", *commands, ""])
    done = subprocess.run(
        [GNUBG, "-t", "-q", "-r"],
        input=script, capture_output=True, text=True, timeout=20, check=False,
        cwd=tmp_path, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "C"},
    )
    output = done.stdout + done.stderr
    for complaint in ("WARNING", "Unrecognised", "Invalid", "doesn't follow", "not a valid"):
        assert complaint not in output, output
    return output


def final_score(output: str) -> tuple[int, int, int]:
    found = re.findall(r"The score \(after (\d+) games?\) is: white (\d+), black (\d+)", output)
    assert found, output
    games, white, black = found[-1]
    return int(games), int(white), int(black)


@needs_gnubg
@pytest.mark.parametrize("seed", [1, 2])
def test_gnubg_imports_a_whole_match(tmp_path, seed):
    events = session_log(seed, Settings.match(3), games=99)
    over = events[-1]
    assert isinstance(over, ev.MatchOver)
    games = sum(1 for event in events if isinstance(event, ev.Opening))
    output = gnubg_import(tmp_path, events, "show score")
    assert final_score(output) == (games, over.score["white"], over.score["black"])


@needs_gnubg
def test_gnubg_replays_every_play_of_an_unfinished_money_game(tmp_path):
    events = session_log(7, Settings(), games=3)
    plays = [i for i, event in enumerate(events) if isinstance(event, ev.Play)]
    cut = plays[-9]  # in the middle of the last game, after some plays
    events = events[: cut + 1]
    output = gnubg_import(tmp_path, events, "show board")
    ids = re.findall(r"Position ID: (\S+)", output)
    last = events[cut]
    assert isinstance(last, ev.Play) and ids[-1] == last.position_id


def with_cube(events: list[ev.Event], before_play: int, actions: list[ev.Event]) -> list[ev.Event]:
    """`events` with cube actions inserted before the roll of the `before_play`-th play."""
    rolls = [i for i, event in enumerate(events) if isinstance(event, ev.Roll)]
    at = rolls[before_play - 1]
    return events[:at] + actions + events[at:]


@needs_gnubg
def test_gnubg_scores_doubles_takes_beavers_and_drops(tmp_path):
    # One money game: doubled and taken, then the taker redoubles and it is dropped.
    game = session_log(3, Settings(), games=1)
    plays = [event for event in game if isinstance(event, ev.Play)]
    doubler = plays[4].player
    taker = plays[5].player
    game = with_cube(game, 4, [ev.Double(doubler, 2), ev.Take(taker, 2)])
    rolls = [i for i, event in enumerate(game) if isinstance(event, ev.Roll)]
    redouble = next(i for i in rolls[5:] if game[i].player is taker)
    game = game[:redouble] + [
        ev.Double(taker, 4),
        ev.Drop(doubler, 2),
        ev.GameOver(taker, ResultKind.SINGLE, 2, {taker.label: 2, doubler.label: 0}, 2, True),
    ]
    output = gnubg_import(tmp_path, game, "show score")
    score = {"white": 0, "black": 0, taker.label: 2}
    assert final_score(output) == (1, score["white"], score["black"])


@needs_gnubg
def test_gnubg_scores_a_beavered_cube(tmp_path):
    game = session_log(5, Settings(beavers=True), games=1)
    plays = [event for event in game if isinstance(event, ev.Play)]
    doubler, beaverer = plays[2].player, plays[3].player
    game = with_cube(game, 2, [ev.Double(doubler, 2), ev.Beaver(beaverer, 4), ev.Take(doubler, 4)])
    last = plays[-1]
    final = position_from_id(last.position_id, last.player.opponent)
    points = ResultKind.of(final).multiplier * 4  # the cube was turned: no Jacoby
    output = gnubg_import(tmp_path, game, "show score")
    score = {"white": 0, "black": 0, last.player.label: points}
    assert final_score(output) == (1, score["white"], score["black"])


def export(capsys, *argv: str) -> tuple[int, str]:
    """`bgpi export ...` through its own parser, as bgpi.cli runs it."""
    parser = argparse.ArgumentParser(prog="bgpi")
    export_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["export", *argv])
    try:
        status = args.handler(args)
    except UsageError as error:
        print(f"bgpi export: {error}", file=sys.stderr)
        status = 2
    return status, capsys.readouterr().err


def test_export_writes_the_journal_as_mat_and_warns_of_damage(tmp_path, capsys):
    with Journal.open(tmp_path) as journal:
        for event in HAND_MADE:
            journal.append(event)
    with journal_path(tmp_path).open("a") as file:
        file.write('{"event": "pl')
    status, err = export(capsys, "--mat", str(tmp_path / "out.mat"), "--state", str(tmp_path))
    assert status == 0
    assert (tmp_path / "out.mat").read_text() == HAND_MADE_MAT
    assert err == (
        f"bgpi export: warning: journal line {len(HAND_MADE) + 1} is truncated: skipped\n"
        f"bgpi export: session 1, 2 games written to {tmp_path / 'out.mat'}\n"
    )


def test_export_without_games_is_a_usage_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("BGPI_STATE", str(tmp_path))
    status, err = export(capsys, "--mat", str(tmp_path / "out.mat"))
    assert (status, err) == (2, f"bgpi export: no journal in {tmp_path} (give the state directory with --state)\n")
    with Journal.open(tmp_path) as journal:
        journal.append(ev.NewSession({"match": 0}))
    status, err = export(capsys, "--mat", str(tmp_path / "out.mat"))
    assert (status, err) == (2, f"bgpi export: no games in session 1 in {tmp_path}: nothing to export\n")
    assert not (tmp_path / "out.mat").exists()


# --- sessions: --list, --session N, practice positions as SGF ------------------------------

def write_journal(state: Path, name: str, events: list[ev.Event]) -> None:
    with Journal.open(state) as journal:
        for event in events:
            journal.append(event)
    if name != "journal.jsonl":
        journal_path(state).rename(state / name)


def money_game(seed: int) -> list[ev.Event]:
    return [ev.Start("4HPwATDgc/ABMA"),
            *(event for event in self_play_events(random.Random(seed)) if not isinstance(event, ev.State))]


PRACTICE = [ev.NewSession({}, "2ObgAyDgc/AAWA", W),
            ev.Start("2ObgAyDgc/AAWA"),
            ev.Roll(W, (3, 2)),
            ev.Play(W, (3, 2), "bar/22 13/11", "4HPkADLY5uADIA", "cAkAAAAAAAAA")]


@pytest.fixture
def kept(tmp_path, monkeypatch) -> Path:
    """Three sessions: one set aside (money), then in the current journal a practice
    session followed by a match to 3 chosen on the board."""
    monkeypatch.setenv("BGPI_STATE", str(tmp_path))
    write_journal(tmp_path, "journal.1.jsonl", [ev.NewSession({}), *money_game(1)])
    write_journal(tmp_path, "journal.jsonl", [*PRACTICE, ev.NewSession({"match": 3})])
    return tmp_path


def test_sessions_are_listed_oldest_first(kept, capsys):
    assert main(["export", "--list"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "1: money play, 1 game (journal.1.jsonl)",
        "2: practice position 2ObgAyDgc/AAWA, 1 game (journal.jsonl)",
        "3: a match to 3, 0 games (journal.jsonl)",
    ]


def test_a_set_aside_session_is_exported_by_number(kept, capsys):
    status, err = export(capsys, "--session", "1", "--mat", str(kept / "one.mat"))
    assert status == 0 and "session 1, 1 game written" in err
    assert "Game 1" in (kept / "one.mat").read_text()


def test_a_practice_session_needs_sgf(kept, capsys):
    status, err = export(capsys, "--session", "2", "--mat", str(kept / "p.mat"))
    assert status == 2 and "starts from a practice position" in err and "--sgf" in err
    status, err = export(capsys, "--session", "2", "--sgf", str(kept / "p.sgf"))
    assert status == 0
    assert "AE[a:y]" in (kept / "p.sgf").read_text()


def test_the_current_session_is_the_default_and_a_missing_one_is_refused(kept, capsys):
    status, err = export(capsys, "--sgf", str(kept / "c.sgf"))
    assert (status, err) == (2, f"bgpi export: no games in session 3 in {kept}: nothing to export\n")
    status, err = export(capsys, "--session", "4", "--sgf", str(kept / "c.sgf"))
    assert (status, err) == (2, "bgpi export: --session 4: the sessions kept are 1 to 3 (see --list)\n")


# --- damaged journals (issue 33): a sound line that is no event skipped, what is wrong said in one line

NO_EVENT = encode_record({"event": "play", "player": "white"})
SKIPPED = ("journal line 6 is no event this version reads (a malformed play event (missing 'dice'): "
           "{'event': 'play', 'player': 'white'}): skipped")


@pytest.mark.parametrize("kind", ["mat", "sgf"])
def test_a_sound_line_that_is_no_event_is_skipped_with_a_warning_and_the_events_after_it_kept(tmp_path, capsys,
                                                                                             kind):
    events = [ev.NewSession({}), *money_game(1)]
    lines = [encode(event) for event in events]
    journal_path(tmp_path).write_bytes(b"".join([*lines[:5], NO_EVENT, *lines[5:]]))
    out = tmp_path / f"out.{kind}"
    assert main(["export", f"--{kind}", str(out), "--state", str(tmp_path)]) == 0
    assert capsys.readouterr().err == (f"bgpi export: warning: {SKIPPED}\n"
                                       f"bgpi export: session 1, 1 game written to {out}\n")
    assert out.read_text() == (mat_record(events) if kind == "mat" else sgf_record(events)).text
    assert read_journal(tmp_path).damaged == 6  # the board's resume still stops there


def test_a_damaged_line_is_a_warning_saying_what_is_wrong_with_it(tmp_path, capsys):
    lines = [encode(event) for event in HAND_MADE]
    journal_path(tmp_path).write_bytes(b"".join([*lines[:13], b"X" + lines[13], *lines[14:]]))
    assert main(["export", "--mat", "-", "--state", str(tmp_path)]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "bgpi export: warning: journal line 14 is damaged (no checksum after lines with one): "
        "it and the lines after it are left out"]


@pytest.mark.parametrize("argv", [["--sgf", "-"], ["--mat", "-"], ["--list"]], ids=["sgf", "mat", "list"])
def test_a_session_event_the_table_would_refuse_is_one_line(tmp_path, capsys, argv):
    """A checksummed session line whose settings the rules refuse: the session is listed as
    damaged, and exporting it is a usage error, whichever the format."""
    journal_path(tmp_path).write_bytes(encode_record({"event": "session", "config": {"match": "x"}})
                                       + encode(ev.Start("4HPwATDgc/ABMA")))
    status = main(["export", *argv, "--state", str(tmp_path)])
    out, err = capsys.readouterr()
    fault = "match: expected a whole number 0 or more, not 'x'"
    if argv == ["--list"]:
        assert (status, out, err) == (0, f"1: a damaged session event ({fault}), 1 game (journal.jsonl)\n", "")
    else:
        assert (status, out, err) == (2, "", f"bgpi export: session 1 (journal.jsonl) cannot be read: its session "
                                             f"event is damaged ({fault})\n")


@pytest.mark.parametrize("argv", [["--sgf", "-"], ["--mat", "-"], ["--list"]], ids=["sgf", "mat", "list"])
def test_a_session_line_that_is_no_event_leaves_no_session_and_says_why(tmp_path, capsys, argv):
    journal_path(tmp_path).write_bytes(encode_record({"event": "session", "config": [1]})
                                       + encode(ev.Start("4HPwATDgc/ABMA")))
    assert main(["export", *argv, "--state", str(tmp_path)]) == 2
    assert capsys.readouterr() == ("", (
        f"bgpi export: {journal_path(tmp_path)} holds no session event: journal line 1 is no event this version "
        "reads (a malformed session event (config: [1]): {'event': 'session', 'config': [1]}): skipped\n"))


UTF_16 = b"".join(encode(event) for event in HAND_MADE).decode().encode("utf-16")


@pytest.mark.parametrize(("data", "why"), [
    (b"garbage\n" * 3, "line 1 is damaged (not JSON)"),
    ((bytes(range(128, 256)) + b"\n") * 4, "line 1 is damaged (not UTF-8 text)"),
    (UTF_16, "line 1 is damaged (UTF-16 text, not UTF-8)"),
    (b"[1, 2]\n", "line 1 is damaged (not a JSON object)"),
    (b"[" * 100_000 + b"\n", "line 1 is damaged (not JSON this board reads: nested too deeply)"),
], ids=["junk", "binary", "utf-16", "array", "nested"])
def test_a_journal_that_holds_no_event_says_what_is_wrong_with_it(tmp_path, capsys, data, why):
    journal_path(tmp_path).write_bytes(data)
    for argv in (["--list"], ["--mat", "-"], ["--sgf", "-"]):
        assert main(["export", *argv, "--state", str(tmp_path)]) == 2
        assert capsys.readouterr() == ("", f"bgpi export: {journal_path(tmp_path)} holds no session event: "
                                           f"journal {why}: it and the lines after it are left out\n")


def test_an_empty_journal_says_so(tmp_path, capsys):
    journal_path(tmp_path).write_bytes(b"")
    assert main(["export", "--list", "--state", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"bgpi export: {journal_path(tmp_path)} holds no session event (it is empty)\n"


SESSION_CONFIGS = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=6),
                               lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                                   st.sampled_from(["match", "jacoby", "cube_cap", "x"]), inner, max_size=3),
                               max_leaves=8)
JOURNAL_LINES = st.one_of(
    st.binary(max_size=40).map(lambda data: data.replace(b"\n", b"") + b"\n"),
    SESSION_CONFIGS.map(lambda config: encode_record({"event": "session", "config": config})),
    st.sampled_from([encode(event) for event in HAND_MADE]),
    st.integers(1, 3_000).map(lambda depth: b"[" * depth + b"\n"),
)


@settings(max_examples=80, deadline=None)
@given(lines=st.lists(JOURNAL_LINES, max_size=6), utf_16=st.booleans(), argv=st.sampled_from(
    [["--list"], ["--mat", "-"], ["--sgf", "-"]]))
def test_fuzzed_journals_export_or_say_what_is_wrong_in_one_line(tmp_path_factory, lines, utf_16, argv):
    """Issue 33 (items 3, 4): whatever a journal holds (junk, UTF-16, checksummed session lines
    with any config, lines nested deep), `bgpi export` writes it or says why in a line a
    problem, never "unexpected error"."""
    state = tmp_path_factory.mktemp("state")
    data = b"".join(lines)
    journal_path(state).write_bytes(data.decode("utf-8", "replace").encode("utf-16") if utf_16 else data)
    done = subprocess.run([sys.executable, "-m", "bgpi", "export", *argv, "--state", str(state)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode in (0, 2), done.stderr
    assert "unexpected error" not in done.stderr and "Traceback" not in done.stderr
    assert all(line.startswith("bgpi export: ") for line in done.stderr.splitlines()), done.stderr
