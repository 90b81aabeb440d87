"""The service's settings file: the default one, the command line over it, bad files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.cli.settings import load_settings

DEFAULT = (Path(__file__).resolve().parents[2] / "systemd" / "bgpi.toml").read_text()


def settings_file(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    text = DEFAULT
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "bgpi.toml"
    path.write_text(text)
    return path


def test_the_default_settings_are_money_play_on_the_real_board(tmp_path):
    settings = load_settings(settings_file(tmp_path))
    assert (str(settings.board), settings.profile, settings.brightness) == ("pi", None, 0.6)
    assert settings.config({}) == {"match": 0, "lenient": False, "jacoby": True,
                                   "beavers": False, "auto_doubles": 0}


def test_money_rules_are_left_out_of_a_match_from_the_file_or_the_command_line(tmp_path):
    in_file = load_settings(settings_file(tmp_path, ("match = 0 ", "match = 5 ")))
    assert in_file.config({}) == {"match": 5, "lenient": False}
    money = load_settings(settings_file(tmp_path))
    assert money.config({"match": 3, "lenient": True}) == {"match": 3, "lenient": True}


@pytest.mark.parametrize(("edit", "message"), [
    (("board = \"pi\"", "board = \"pc\""), "board: expected \"pi\", \"sim\" or \"serial:DEVICE\", got 'pc'"),
    (("brightness = 0.6", "brightness = 2"), "brightness: expected a number in (0, 1], got 2"),
    (("beavers = false", "beaver = false"), "money.beaver: unknown key"),
    (("[session]", "session = 1\n[sessions]"), "sessions: unknown key"),
    (("match = 0 ", "match = = "), "Invalid value"),
])
def test_a_bad_settings_file_is_one_line_and_exit_2(tmp_path, capsys, edit, message):
    path = settings_file(tmp_path, edit)
    status = main(["run", "--settings", str(path), "--state", str(tmp_path / "state")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert err.startswith(f"bgpi run: settings {path}: ") and message in err


def test_a_missing_settings_file_is_named(tmp_path, capsys):
    assert main(["run", "--settings", str(tmp_path / "none.toml")]) == 2
    assert "cannot read it: No such file or directory" in capsys.readouterr().err


def test_a_bad_value_stops_the_run_before_anything_is_journaled(tmp_path, capsys):
    path = settings_file(tmp_path, ("brightness = 0.6", "brightness = 2.5"))
    assert main(["run", "--settings", str(path), "--state", str(tmp_path / "state")]) == 2
    assert not (tmp_path / "state" / "journal.jsonl").exists()
    assert "brightness" in capsys.readouterr().err


def test_the_files_board_and_rules_reach_the_session(tmp_path):
    path = settings_file(tmp_path, ('board = "pi"', 'board = "sim"'), ("match = 0 ", "match = 5 "))
    command = [sys.executable, "-m", "bgpi", "run", "--settings", str(path), "--state", str(tmp_path)]
    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
                          env=os.environ | {"NOTIFY_SOCKET": ""}) as service:
        first = service.stdout.readline()
        service.send_signal(signal.SIGTERM)
        service.wait(timeout=20)
    assert json.loads(first) == {"event": "session", "config": {"match": 5, "lenient": False}}
