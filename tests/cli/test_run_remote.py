"""`bgpi run --remote`: its options checked before anything is touched, a session in
progress that is another game refused, the page's new session refused in a remote game,
and two `bgpi run` processes meeting through a real broker."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from bgpi.cli import main
from bgpi.cli.broker import parse_address
from bgpi.exc import ServiceError, UsageError
from bgpi.hardware.board import SIM
from tests.cli.test_run import bgpi, one_line_exit_2, untouched
from tests.remote.conftest import Mosquitto, mosquitto  # noqa: F401 (the fixture)


@pytest.fixture
def session(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / "journal.jsonl").write_text(json.dumps({"event": "session", "config": {}}) + "\n")
    return state


@pytest.mark.parametrize(("argv", "words"), [
    (["--side", "white"], "--side and --broker are for a remote game: give --remote GAME too"),
    (["--remote", "g 1", "--side", "white", "--broker", "h"], "a game ID is 1 to 64 letters"),
    (["--remote", "g1", "--broker", "h"], "--remote GAME needs --side white or --side black"),
    (["--remote", "g1", "--side", "white"], "--broker HOST[:PORT]: the MQTT broker is needed"),
    (["--remote", "g1", "--side", "white", "--broker", "h:x"], "the port must be a number"),
    (["--remote", "g1", "--side", "white", "--broker", "h", "--broker-ca", "/etc/hostname"],
     "--broker-ca is for --broker-tls"),
    (["--remote", "g1", "--side", "white", "--broker", "h", "--broker-user", "u",
      "--broker-password-file", "/nonexistent"], "cannot read the broker password file /nonexistent"),
])
def test_bad_remote_options_are_one_line_and_touch_nothing(session, capsys, argv, words):
    assert main(["run", "--board", "sim", "--state", str(session), "--no-page", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err
    untouched(session)


def test_a_ca_file_that_holds_no_certificate_is_one_line(tmp_path, capsys):
    ca = tmp_path / "ca.pem"
    ca.write_text("not a certificate\n")
    assert main(["run", "--board", "sim", "--state", str(tmp_path / "state"), "--no-page", "--remote", "g1",
                 "--side", "white", "--broker", "127.0.0.1:1", "--broker-tls", "--broker-ca", str(ca)]) == 2
    *_, said = capsys.readouterr().err.splitlines()
    assert said.startswith("bgpi run: cannot join the remote game g1: [X509") and "no certificate" in said


def test_an_address_is_a_host_and_a_port():
    assert parse_address("broker.example.org") == ("broker.example.org", None)
    assert parse_address("10.0.0.2:1884") == ("10.0.0.2", 1884)
    with pytest.raises(UsageError, match="a port is 1 to 65535"):
        parse_address("h:0")


def test_a_session_in_progress_that_is_no_remote_game_is_refused(session, mosquitto):  # noqa: F811
    done = bgpi("run", "--board", "sim", "--state", str(session), "--remote", "g1", "--side", "white",
                "--broker", f"127.0.0.1:{mosquitto.port}")
    one_line_exit_2(done, "a session with other settings (remote) is in progress")


def test_the_page_cannot_start_a_new_session_in_a_remote_game(tmp_path, mosquitto):  # noqa: F811
    import threading

    from bgpi.hardware.profile import load_profile
    from bgpi.remote.joining import RemoteSettings
    from bgpi.remote.mqtt import Broker
    from bgpi.rules.position import Side
    from bgpi.shell.service import BoardService, ServiceSettings, SessionSetup

    settings = ServiceSettings(SIM, load_profile(), tmp_path / "state", SessionSetup({"remote": "black"}),
                               remote=RemoteSettings("g1", Side.WHITE, Broker(mosquitto.host, mosquitto.port)))
    (tmp_path / "state").mkdir()
    with (tmp_path / "log").open("w") as out, BoardService(settings, threading.Event(), out=out) as service, \
            pytest.raises(ServiceError, match="a remote game's session is agreed when the boards meet"):
        service.start_session({})


def test_two_bgpi_run_processes_meet_through_the_broker(tmp_path, mosquitto):  # noqa: F811
    processes = [subprocess.Popen(
        [sys.executable, "-m", "bgpi", "run", "--board", "sim", "--state", str(tmp_path / side), "--no-page",
         "--remote", "g1", "--side", side, "--broker", f"127.0.0.1:{mosquitto.port}", "--match", "3"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
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
