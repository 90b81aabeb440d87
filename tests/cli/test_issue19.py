"""Commands of issue 19: XGIDs taken by `bgpi run --position` and `bgpi hint` (item 9)."""

from __future__ import annotations

from bgpi.rules.position import Side
from bgpi.shell.journal import read_journal
from tests.cli.test_hint import needs_gnubg, run
from tests.cli.test_run import bgpi

OPENING_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"
MATCH_XGID = "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:1:2:0:5:10"


def test_run_takes_an_xgid_as_the_practice_position_and_its_match(tmp_path):
    state = tmp_path / "state"
    done = bgpi("run", "--board", "sim", "--state", str(state), "--position", MATCH_XGID, "--json", stdin="q\n")
    assert done.returncode == 0, done.stderr
    session = read_journal(state).events[0]
    assert session.turn is Side.BLACK and session.position_id == "4HPwATDgc/ABMA"
    assert session.match_id == "UQmgABAAEAAA"  # the 2-cube black's, black 2 - white 1 of 5


def test_run_takes_money_plays_jacoby_and_beavers_from_the_xgid(tmp_path):
    state = tmp_path / "state"
    xgid = OPENING_XGID.replace(":0:0:0:0:10", ":0:0:2:0:10").replace(":31:", ":00:")  # beavers, no Jacoby
    done = bgpi("run", "--board", "sim", "--state", str(state), "--position", xgid, "--json", stdin="q\n")
    assert done.returncode == 0, done.stderr
    config = read_journal(state).events[0].config
    assert config["jacoby"] is False and config["beavers"] is True


def test_a_bad_xgid_is_one_line():
    done = bgpi("run", "--board", "sim", "--position", "XGID=-b----E:0")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--position" in done.stderr, done.stderr


@needs_gnubg
def test_hint_takes_an_xgid_with_its_dice(capsys):
    code, out, err = run(capsys, "hint", OPENING_XGID)
    assert code == 0, err
    assert "Best plays for 31, white on roll" in out and "8/5 6/5" in out


def test_the_same_settings_again_resume_the_session_in_progress(tmp_path):
    state = tmp_path / "state"
    first = bgpi("run", "--board", "sim", "--state", str(state), "--match", "5", "--opponent", "gnubg",
                 "--json", stdin="q\n")
    assert first.returncode == 0, first.stderr
    again = bgpi("run", "--board", "sim", "--state", str(state), "--match", "5", "--opponent", "gnubg",
                 "--json", stdin="q\n")
    assert again.returncode == 0, again.stderr
    events = read_journal(state).events
    assert [event.kind for event in events].count("session") == 1
    assert events[-1].kind == "resumed"


def test_other_settings_are_named_and_the_advice_names_opponent(tmp_path):
    state = tmp_path / "state"
    assert bgpi("run", "--board", "sim", "--state", str(state), "--match", "5", stdin="q\n").returncode == 0
    done = bgpi("run", "--board", "sim", "--state", str(state), "--match", "7", "--opponent", "gnubg")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "other settings (match, opponent)" in done.stderr and "--opponent" in done.stderr, done.stderr


def test_the_computers_side_is_checked(tmp_path):
    alone = bgpi("run", "--board", "sim", "--state", str(tmp_path / "a"), "--opponent-side", "white")
    assert alone.returncode == 2 and "--opponent gnubg" in alone.stderr, alone.stderr
    wrong = bgpi("run", "--board", "sim", "--state", str(tmp_path / "b"), "--opponent", "gnubg",
                 "--config", '{"opponent_side": "left"}')
    assert wrong.returncode == 2 and "opponent_side" in wrong.stderr and wrong.stderr.count("\n") == 1, wrong.stderr


def test_the_computer_may_play_white(tmp_path):
    state = tmp_path / "state"
    done = bgpi("run", "--board", "sim", "--state", str(state), "--opponent", "gnubg", "--opponent-side", "white",
                "--json", stdin="q\n")
    assert done.returncode == 0, done.stderr
    assert read_journal(state).events[0].config == {"opponent": "gnubg", "opponent_side": "white"}


def test_hint_says_when_the_cube_is_dead(capsys):
    # Issue 19, item 8: black needs 6 points and the cube is already at 8.
    code, out, err = run(capsys, "hint", "jO1AZgHvNgAAAA:UwngABAACAAA")
    assert code == 2 and out == ""
    assert "no cube decision: the cube is dead: black needs only 6" in err


def test_a_wrong_setting_in_the_settings_file_is_named_with_its_place(tmp_path):
    settings = tmp_path / "bgpi.toml"
    settings.write_text('[session]\nmatch = "5"\n')
    done = bgpi("run", "--settings", str(settings), "--board", "sim", "--state", str(tmp_path / "state"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"settings {settings} [session]" in done.stderr and "match:" in done.stderr
    assert "--config" not in done.stderr


def run_with_page(tmp_path, *argv: str):
    import os
    import subprocess
    import sys
    env = {**os.environ, "BGPI_STATE": "/nonexistent/never-used"}
    return subprocess.run([sys.executable, "-m", "bgpi", "run", "--board", "sim", "--state", str(tmp_path / "state"),
                           "--json", *argv], input="q\n", capture_output=True, text=True, timeout=60, env=env)


def test_a_busy_port_takes_the_next_free_one_and_says_which(tmp_path):
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_with_page(tmp_path, "--port", str(port))
    assert done.returncode == 0, done.stderr
    assert f"port {port} is in use, so the page is on port " in done.stderr, done.stderr
    assert f"http://127.0.0.1:{port}/" not in done.stderr


def test_listening_everywhere_prints_the_machines_own_addresses(tmp_path):
    from bgpi.web.page import own_addresses
    done = run_with_page(tmp_path, "--port", "0", "--listen", "0.0.0.0")
    assert done.returncode == 0, done.stderr
    assert "http://0.0.0.0:" not in done.stderr, done.stderr
    addresses = own_addresses()
    if addresses:
        assert f"http://{addresses[0]}:" in done.stderr and "?token=" in done.stderr, done.stderr
