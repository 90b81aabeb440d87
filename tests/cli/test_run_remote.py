"""`bgpi run --remote`: its options checked before anything is touched, a session in
progress that is another game refused, the page's new session refused in a remote game,
and two `bgpi run` processes meeting through a real broker."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from bgpi.cli import main
from bgpi.cli.broker import parse_address
from bgpi.exc import ServiceError, UsageError
from bgpi.hardware.board import SIM
from bgpi.remote.pairing import CODE_ENV, Pairing, save_pairing
from tests.cli.test_run import bgpi, one_line_exit_2, untouched
from tests.remote.boards import CODE
from tests.remote.conftest import Mosquitto, mosquitto  # noqa: F401 (the fixture)


@pytest.fixture
def session(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / "journal.jsonl").write_text(json.dumps({"event": "session", "config": {}}) + "\n")
    return state


@pytest.fixture
def code_file(tmp_path, monkeypatch):
    """A file with the tests' pairing code, and none in the environment."""
    monkeypatch.delenv(CODE_ENV, raising=False)
    path = tmp_path / "code"
    path.write_text(CODE + "\n")
    return path


@pytest.mark.parametrize(("argv", "words"), [
    (["--side", "white"], "--side, --broker and --pairing-code-file are for a remote game: give --remote GAME too"),
    (["--remote", "g 1", "--side", "white", "--broker", "h"], "a game ID is 1 to 64 letters"),
    (["--remote", "g1", "--broker", "h"], "--remote GAME needs --side white or --side black"),
    (["--remote", "g1", "--side", "white"], "--broker HOST[:PORT]: the MQTT broker is needed"),
    (["--remote", "g1", "--side", "white", "--broker", "h:x"], "the port must be a number"),
    (["--remote", "g1", "--side", "white", "--broker", "h", "--broker-ca", "/etc/hostname"],
     "--broker-ca is for --broker-tls"),
    (["--remote", "g1", "--side", "white", "--broker", "h", "--broker-user", "u",
      "--broker-password-file", "/nonexistent"], "cannot read the broker password file /nonexistent"),
    (["--remote", "g1", "--side", "white", "--broker", "h", "--broker-password-file", "{binary}"],
     "the broker password file {binary} is not UTF-8 text (byte 0)"),
    (["--remote", "g1", "--side", "white", "--broker", "h", "--broker-password-file", "/dev/zero"],
     "the broker password file /dev/zero holds more than 65535 bytes"),
    (["--remote", "g1", "--side", "white", "--broker", "h", "--pairing-code-file", "/nonexistent"],
     "cannot read the pairing code file /nonexistent"),
    (["--remote", "g1", "--side", "white", "--broker", "h", "--pairing-code-file", "{binary}"],
     "the pairing code file {binary} is not UTF-8 text (byte 0)"),
])
def test_bad_remote_options_are_one_line_and_touch_nothing(session, tmp_path, capsys, code_file, argv, words):
    binary = tmp_path / "password.bin"
    binary.write_bytes(b"\xff\xfe\x00\x01password")
    argv, words = [arg.format(binary=binary) for arg in argv], words.format(binary=binary)
    if "--pairing-code-file" not in argv and "--remote" in argv:
        argv = [*argv, "--pairing-code-file", str(code_file)]
    assert main(["run", "--board", "sim", "--state", str(session), "--no-page", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err
    untouched(session)


@pytest.mark.parametrize(("code", "words"), [
    (None, "game g1 needs its pairing code (bgpi pair draws one; both boards are given the same): "
           "--pairing-code-file FILE or $BGPI_PAIRING_CODE"),
    (CODE[:-1] + ("A" if CODE[-1] != "A" else "B"), "the pairing code does not check out: a letter or digit is "
                                                     "mistyped"),
    ("ABCD-EFGH", "a pairing code has 32 letters and digits (8 groups of 4); this one has 8"),
    (CODE.replace(CODE[0], "!", 1), "a pairing code holds letters and the digits 2 to 7, not '!'"),
])
def test_a_pairing_code_missing_or_mistyped_is_one_line_and_touches_nothing(session, capsys, tmp_path,
                                                                            monkeypatch, code, words):
    monkeypatch.delenv(CODE_ENV, raising=False)
    argv = ["run", "--board", "sim", "--state", str(session), "--no-page", "--remote", "g1", "--side", "white",
            "--broker", "h"]
    if code is not None:
        (tmp_path / "code").write_text(code)
        argv += ["--pairing-code-file", str(tmp_path / "code")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err
    untouched(session)


def test_a_board_paired_for_another_game_needs_the_new_game_s_code(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(CODE_ENV, raising=False)
    save_pairing(tmp_path, Pairing("g1", bytes(16)))
    assert main(["run", "--board", "sim", "--state", str(tmp_path), "--no-page", "--remote", "g2", "--side",
                 "white", "--broker", "h"]) == 2
    assert "this board is paired for game g1, not g2: give game g2's pairing code" in capsys.readouterr().err


def test_a_ca_file_that_holds_no_certificate_is_one_line(tmp_path, capsys, code_file):
    ca = tmp_path / "ca.pem"
    ca.write_text("not a certificate\n")
    assert main(["run", "--board", "sim", "--state", str(tmp_path / "state"), "--no-page", "--remote", "g1",
                 "--side", "white", "--broker", "127.0.0.1:1", "--broker-tls", "--broker-ca", str(ca),
                 "--pairing-code-file", str(code_file)]) == 2
    *_, said = capsys.readouterr().err.splitlines()
    assert said.startswith("bgpi run: cannot join the remote game g1: [X509") and "no certificate" in said


def test_an_address_is_a_host_and_a_port():
    assert parse_address("broker.example.org") == ("broker.example.org", None)
    assert parse_address("10.0.0.2:1884") == ("10.0.0.2", 1884)
    with pytest.raises(UsageError, match="a port is 1 to 65535"):
        parse_address("h:0")


def test_a_session_in_progress_that_is_no_remote_game_is_refused(session, mosquitto, code_file):  # noqa: F811
    done = bgpi("run", "--board", "sim", "--state", str(session), "--remote", "g1", "--side", "white",
                "--broker", f"127.0.0.1:{mosquitto.port}", "--pairing-code-file", str(code_file))
    one_line_exit_2(done, "a session with other settings (remote) is in progress")


def test_the_page_cannot_start_a_new_session_in_a_remote_game(tmp_path, mosquitto):  # noqa: F811
    import threading

    from bgpi.hardware.profile import load_profile
    from bgpi.remote.joining import RemoteSettings
    from bgpi.remote.mqtt import Broker
    from bgpi.rules.position import Side
    from bgpi.shell.service import BoardService, ServiceSettings, SessionSetup

    settings = ServiceSettings(SIM, load_profile(), tmp_path / "state", SessionSetup({"remote": "black"}),
                               remote=RemoteSettings("g1", Side.WHITE, Broker(mosquitto.host, mosquitto.port), CODE))
    (tmp_path / "state").mkdir()
    with (tmp_path / "log").open("w") as out, BoardService(settings, threading.Event(), out=out) as service, \
            pytest.raises(ServiceError, match="a remote game's session is agreed when the boards meet"):
        service.start_session({})


def test_two_bgpi_run_processes_meet_through_the_broker(tmp_path, mosquitto):  # noqa: F811
    processes = [subprocess.Popen(
        [sys.executable, "-m", "bgpi", "run", "--board", "sim", "--state", str(tmp_path / side), "--no-page",
         "--remote", "g1", "--side", side, "--broker", f"127.0.0.1:{mosquitto.port}", "--match", "3"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, CODE_ENV: CODE})
        for side in ("white", "black")]
    try:
        for process, other in zip(processes, ("black", "white"), strict=True):
            give_up = time.monotonic() + 30
            for line in process.stderr:
                if f"the other board ({other}) is here" in line or time.monotonic() > give_up:
                    break
            assert f"the other board ({other}) is here" in line
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.communicate(timeout=30)
    assert [process.returncode for process in processes] == [0, 0]
