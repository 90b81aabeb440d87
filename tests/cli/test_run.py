"""`bgpi run` and `bgpi replay` with bad input: one line, exit 2, nothing touched; and the
terminal simulator driven through a pipe."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.rules.ids import MatchKey, match_id
from bgpi.rules.position import Side
from bgpi.shell.journal import read_journal

START = "4HPwATDgc/ABMA"


def bgpi(*argv: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`bgpi ARGV` in a process of its own, with `stdin` piped in."""
    env = {**os.environ, "BGPI_STATE": "/nonexistent/never-used"}
    if argv[0] == "run" and "--help" not in argv:
        argv = (*argv, "--no-page")  # the page's port is not the test's business
    return subprocess.run([sys.executable, "-m", "bgpi", *argv], input=stdin, capture_output=True,
                          text=True, timeout=60, check=False, cwd=cwd, env=env)


def one_line_exit_2(done: subprocess.CompletedProcess, words: str, lines: int = 1) -> None:
    """Exit 2 with `words` in the message; a bad script names its file, then each faulty line."""
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == lines and "Traceback" not in done.stderr, done.stderr
    assert words in done.stderr, done.stderr


@pytest.fixture
def session(tmp_path) -> Path:
    """A state directory holding a session in progress."""
    state = tmp_path / "state"
    state.mkdir()
    (state / "journal.jsonl").write_text(json.dumps({"event": "session", "config": {}}) + "\n")
    return state


def untouched(state: Path) -> None:
    assert sorted(path.name for path in state.iterdir()) == ["journal.jsonl"]


def test_a_bad_position_with_new_is_refused_before_the_session_is_set_aside(session):
    done = bgpi("run", "--board", "sim", "--state", str(session), "--new", "--position", "BADID")
    one_line_exit_2(done, "--position: position ID 'BADID' has 5 characters")
    untouched(session)


@pytest.mark.parametrize(("argv", "words"), [
    (["--config", '{"speed": 2}'], '--config: unknown config key "speed"'),
    (["--config", "[1]"], "--config takes a JSON object"),
    (["--config", "{"], "--config: not JSON"),
    (["--config", "[" * 50_000], "--config: not JSON this board reads: nested too deeply"),
    (["--config", '{"match": ' + "[" * 500 + "]" * 500 + "}"], "match: expected a whole number 0 or more"),
    (["--match", "5", "--config", '{"jacoby": true}'], "jacoby: only for money play"),
    (["--match", "-1"], "match: expected a whole number 0 or more"),
    (["--turn", "black"], "give --position too"),
    ([f"--position={START}:nonsense"], "--position: match ID"),
    (["--position", f"{START}:{match_id(MatchKey(dice_owner=Side.BLACK, turn=Side.BLACK))}",
      "--turn", "white"], "--turn white disagrees with the Match ID, which has black on roll"),
    (["--position", f"{START}:{match_id(MatchKey(match_length=5))}", "--match", "7"],
     "leave out --match"),
    (["--record", "/nonexistent/x.jsonl"], "--record: cannot write /nonexistent/x.jsonl"),
    (["--board", "pi"], "cannot open the pi board"),
    (["--board", "foo"], "--board: unknown board 'foo': expected sim, pi, pty or serial:DEVICE"),
])
def test_bad_arguments_leave_the_state_directory_alone(tmp_path, argv, words):
    state = tmp_path / "state"
    done = bgpi("run", "--board", "sim", "--state", str(state), "--new", *argv)
    one_line_exit_2(done, words)
    assert not state.exists()


@pytest.mark.parametrize("argv", [["--match", "5"], ["--position", START], ["--config", '{"beavers": true}']])
def test_a_new_sessions_settings_with_a_session_in_progress_are_refused_with_advice(session, argv):
    done = bgpi("run", "--board", "sim", "--state", str(session), *argv)
    one_line_exit_2(done, "is in progress in")
    assert "--new" in done.stderr
    untouched(session)


def test_a_state_directory_that_cannot_be_made_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    done = bgpi("run", "--board", "sim", "--state", str(blocker / "state"), "--new")
    one_line_exit_2(done, "the journal")


def test_new_on_a_state_directory_that_refuses_the_rename_is_one_line(session, monkeypatch, capsys):
    def refuse(self, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "rename", refuse)
    status = main(["run", "--board", "sim", "--state", str(session), "--new"])
    err = capsys.readouterr().err
    assert status == 2 and err == f"bgpi run: cannot set the journal in {session} aside: permission denied\n"
    untouched(session)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_recording_the_disk_refuses_is_one_line(tmp_path):
    done = bgpi("run", "--board", "sim", "--state", str(tmp_path / "state"), "--record", "/dev/full")
    one_line_exit_2(done, "--record: cannot write /dev/full: No space left on device", lines=2)
    assert done.stderr.startswith("bgpi run: the simulated board is running\n")


def test_run_help_lists_every_setting():
    done = bgpi("run", "--help")
    assert done.returncode == 0
    for key in ('"match"', '"jacoby"', '"beavers"', '"auto_doubles"', '"cube_cap"', '"lenient"'):
        assert key in done.stdout


def test_replay_validates_config_as_run_does(tmp_path):
    script = tmp_path / "s.jsonl"
    script.write_text('{"press": "white.turn"}\n')
    run = bgpi("run", "--board", "sim", "--state", str(tmp_path / "a"), "--config", '{"speed": 2}')
    replay = bgpi("replay", str(script), "--config", '{"speed": 2}')
    one_line_exit_2(replay, '--config: unknown config key "speed"')
    assert run.stderr.replace("bgpi run", "bgpi replay") == replay.stderr


def test_replay_takes_settings_from_config(tmp_path):
    script = tmp_path / "s.jsonl"
    script.write_text('{"show": "state"}\n')
    done = bgpi("replay", str(script), "--config", '{"match": 5}')
    assert done.returncode == 0
    assert json.loads(done.stdout.splitlines()[0])["config"] == {"match": 5}


@pytest.mark.parametrize(("script", "words", "lines"), [
    ('{"lift": 3}\n', 'line 1: {"lift": 3}: cannot lift 1 from point 3: there is no checker there', 1),
    ('{"move": [3, 4]}\n', 'line 1: {"move": [3, 4]}: cannot lift 1 from point 3', 1),
    ('{"wait": 1e308}\n', "line 1: a wait is a number of seconds, 0 to 3600", 2),
])
def test_a_script_that_cannot_be_carried_out_is_refused(tmp_path, script, words, lines):
    path = tmp_path / "s.jsonl"
    path.write_text(script)
    one_line_exit_2(bgpi("replay", str(path)), words, lines)


def test_the_match_ids_player_on_roll_is_the_practice_positions(tmp_path):
    state = tmp_path / "state"
    key = match_id(MatchKey(cube_value=2, cube_owner=Side.WHITE, dice_owner=Side.BLACK,
                            turn=Side.BLACK, match_length=7, score=(3, 5)))
    done = bgpi("run", "--board", "sim", "--state", str(state), "--position", f"{START}:{key}",
                "--json", stdin="s\nq\n")
    assert done.returncode == 0, done.stderr
    session = read_journal(state).events[0]
    assert session.turn is Side.BLACK and session.match_id == key


# --- the terminal simulator through a pipe -------------------------------------------------


def test_the_console_can_be_scripted_through_a_pipe(tmp_path):
    hands = "d 3 1\np wt\nm 8 5\nl 6\nu 5\nd a b\nw abc\nw 0.2\np wt\np bc\np wc\np wt\nq\n"
    done = bgpi("run", "--board", "sim", "--state", str(tmp_path / "state"), stdin=hands)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for words in ("Opening roll: white 3, black 1: White starts with 31", "White moves 8/5", "White moves 6/5",
                  "d A B: two dice 1 to 6", "w SECONDS: a number of seconds", "White plays 8/5 6/5",
                  "Black doubles to 2: white, take or drop", "White: drop? Press White cube again within 3 s",
                  "White does not drop: take or drop",
                  "[doubled, black on turn, cube 1, score white 0, black 0, money play]"):
        assert words in out, out
    assert "{" not in out.replace("{\"move\"", "")  # words, not JSON


def test_the_console_draws_a_lifted_checker_off_its_point(tmp_path):
    done = bgpi("run", "--board", "sim", "--state", str(tmp_path / "state"), "--seed", "1", stdin="p wt\nl 24\nq\n")
    assert done.returncode == 0, done.stderr
    boards = [line for line in done.stdout.splitlines() if line.startswith("white (o): pips")]
    # Issue 19, item 19: the status line counts the game's checkers, and says one is lifted.
    assert boards[0] == "white (o): pips 167, on the bar 0, borne off 0"
    assert boards[-1] == "white (o): pips 167, on the bar 0, borne off 0, 1 not on the board"


def test_the_json_flag_keeps_the_table_log(tmp_path):
    done = bgpi("run", "--board", "sim", "--state", str(tmp_path / "state"), "--json", stdin="p wt\nq\n")
    assert done.returncode == 0, done.stderr
    assert '{"event": "start"' in done.stdout


def test_a_new_sessions_settings_after_a_finished_match_start_it(tmp_path):
    # Issue 32, item 7: a match over is no session in progress.
    state = tmp_path / "state"
    played = bgpi("run", "--board", "sim", "--state", str(state), "--match", "1", "--position", "BQBAIAQAAAAAAA",
                  stdin="d 6 6\np wt\nm 6 off:white\nm 2 off:white\np wt\nq\n")
    assert "White wins the match 1-0" in played.stdout, played.stdout + played.stderr
    done = bgpi("run", "--board", "sim", "--state", str(state), "--config", '{"beavers": true}', stdin="q\n")
    assert done.returncode == 0, done.stderr
    assert "New session: a money session" in done.stdout
    assert (state / "journal.1.jsonl").exists()  # the finished match is kept, as --new keeps it
    assert '"beavers": true' in (state / "journal.jsonl").read_text()
