"""Fault injection: power cuts, damaged journals, a full disk, absurd input never stop the board.

A board under systemd must always come back able to play.  Here journals of half-played
games (random legal games from `self_play_events`, many positions, not one example) are
cut by kill -9, get bytes flipped and garbage lines put in their middle, and the
board must resume from the lines before the damage (or start afresh) and play on;
random input lines and profiles must get one-line errors and exit status 2.
"""

from __future__ import annotations

import errno
import io
import json
import os
import random
import resource
import signal
import subprocess
import sys
import threading
from itertools import islice

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgpi.board.profile import parse_profile
from bgpi.cli import build_parser
from bgpi.cli.config import parse_config
from bgpi.cli.rules import answer_batch
from bgpi.cli.run import _service_settings
from bgpi.cli.selfplay import self_play_events
from bgpi.exc import ProfileError, UsageError
from bgpi.hardware.leds import Leds, SimulatedPixels
from bgpi.hardware.profile import default_profile_path, load_profile
from bgpi.rules.position import Side
from bgpi.shell.diskfull import RETRY_S, append_patiently, show_disk_full
from bgpi.shell.journal import Journal, encode, encode_record, journal_path, read_journal
from bgpi.shell.recovery import open_state
from bgpi.shell.replay import replay
from bgpi.shell.script import parse_script
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Press, Rolled, Sensed, Tick
from bgpi.table.tracker import Sensing
from tests.diskfull import refusing_writes

PROFILE = load_profile()
SENSING = Sensing(PROFILE.geometry)
SEEDS = (1, 2, 3)
BGPI = [sys.executable, "-m", "bgpi"]


def half_game(seed: int, turns: int = 24) -> list[ev.Event]:
    """The journal events of a session whose first game stopped after `turns` events."""
    played = [event for event in self_play_events(random.Random(seed))
              if isinstance(event, ev.Opening | ev.Roll | ev.Play)]
    return [ev.NewSession({}), ev.Start("4HPwATDgc/ABMA"), *islice(played, turns)]


def lines_of(events: list[ev.Event]) -> list[bytes]:
    return [encode(event) for event in events]


def plays(table: Table) -> None:
    """Assert that `table`, on a board set up as it expects, rolls and takes a play."""
    table.handle(Sensed(SENSING.of(table.position)))
    for moment in range(12):
        if table.phase == "move":
            return
        if table.wants_roll:
            table.handle(Rolled(5, 2))
        elif table.phase in ("setup", "over"):
            table.handle(Sensed(SENSING.of(table.position)))
            table.handle(Press("white.turn"))
        else:
            side = table.turn.label if table.turn is not None else "white"
            table.handle(Press(f"{side}.turn"))
        table.handle(Tick(float(moment)))
    raise AssertionError(f"the table does not play: phase {table.phase}")


@pytest.fixture
def no_fsync(monkeypatch):
    """Durability is tested elsewhere; here thousands of journals need no disk flushes."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


# -- damaged journals ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_every_byte_flip_in_a_journal_is_found_at_its_line(tmp_path, seed):
    lines = lines_of(half_game(seed))
    data = b"".join(lines)
    path = journal_path(tmp_path)
    start = 0
    flips = 0
    for number, line in enumerate(lines, start=1):
        for offset in range(len(line)):
            for mask in (0x01, 0x20):
                damaged = bytearray(data)
                damaged[start + offset] ^= mask
                path.write_bytes(damaged)
                read = read_journal(tmp_path)
                assert len(read.events) == number - 1, (number, offset, mask)
                # Damage, or, for the last newline, a last line cut short.
                assert read.damaged == number or read.problems == (
                    f"journal line {number} is truncated: skipped",)
                flips += 1
        start += len(line)
    assert flips == 2 * len(data)


GARBAGE = {
    "a byte before the line": lambda line: b"X" + line,
    "a garbage line": lambda line: b"garbage\n" + line,
    "100,000 [": lambda line: b"[" * 100_000 + b"\n" + line,
    "an event that cannot apply": lambda line: encode(ev.Roll(Side.BLACK, (9, 9))) + line,
    "a checksummed line that is no event": lambda line: encode_record({"event": "roll", "player": "black"}) + line,
    "a legacy line among checksummed ones": lambda line: b'{"event": "tie"}\n' + line,
    "a line cut in two": lambda line: line[:len(line) // 2] + b"\n" + line[len(line) // 2:],
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", GARBAGE)
def test_damage_in_the_middle_resumes_from_the_lines_before_it_and_plays(tmp_path, no_fsync,
                                                                        seed, kind):
    events = half_game(seed)
    lines = lines_of(events)
    for number in range(2, len(lines)):  # every line but the first and the last
        state = tmp_path / f"line{number}"
        damaged = b"".join([*lines[:number - 1], GARBAGE[kind](lines[number - 1]), *lines[number:]])
        journal_path(state).parent.mkdir()
        journal_path(state).write_bytes(damaged)
        opened = open_state(state, SENSING)
        opened.journal.close()
        assert opened.events == number - 1 and opened.table is not None
        note = (f"journal {journal_path(state)} line {number} is damaged: kept as "
                f"journal.damaged.1.jsonl; resumed from the {number - 1} events before it")
        assert opened.notes == [note]
        assert opened.damaged.read_bytes() == damaged  # kept whole, never deleted
        assert read_journal(state).events == tuple(events[:number - 1])
        plays(opened.table)


GAME_ENDS = {
    "play": [{"board": "position", "position_id": "fN8HAAABAAAAAA", "turn": "white"},
             {"dice": [2, 1]}, {"press": "white.turn"}, {"lift": 1}, {"press": "white.turn"}],
    "drop": [{"dice": [3, 1]}, {"press": "white.turn"}, {"move": [8, 5]}, {"move": [6, 5]},
             {"press": "white.turn"}, {"press": "black.cube"}, {"press": "white.cube"},
             {"press": "white.cube"}],
    "resign_accepted": [{"dice": [3, 1]}, {"press": "white.turn"}, {"move": [8, 5]}, {"move": [6, 5]},
                        {"press": "white.turn"}, {"hold": "black.cube"}, {"press": "black.cube"},
                        {"press": "black.turn"}, {"press": "white.turn"}],
}


@pytest.mark.parametrize("last", sorted(GAME_ENDS))
def test_a_journal_cut_between_a_games_end_and_its_game_over_finishes_the_game(tmp_path, last):
    """A power cut (or a damaged line) after the last play, a drop or an accepted
    resignation: the game_over is owed, as the game ended."""
    script = parse_script("\n".join(json.dumps(line) for line in GAME_ENDS[last]), "end")
    replay(script, PROFILE, lambda event: None, tmp_path, seed=0)
    events = list(read_journal(tmp_path).events)
    end = next(i for i, event in enumerate(events) if isinstance(event, ev.GameOver))
    assert events[end - 1].kind == last
    journal_path(tmp_path).write_bytes(b"".join(lines_of(events[:end])))
    opened = open_state(tmp_path, SENSING)
    opened.journal.close()
    (resumed, owed) = opened.opening()
    assert isinstance(resumed, ev.Resumed) and owed == events[end]
    assert opened.table.phase == "setup"
    plays(opened.table)


def test_a_damaged_first_line_starts_a_new_session(tmp_path):
    lines = lines_of(half_game(1))
    journal_path(tmp_path).write_bytes(b"#" + b"".join(lines))
    opened = open_state(tmp_path, SENSING)
    opened.journal.close()
    assert opened.table is None and opened.events == 0
    assert opened.notes[0].endswith("line 1 is damaged: kept as journal.damaged.1.jsonl; "
                                    "a new session: set up the checkers")
    assert journal_path(tmp_path).read_bytes() == b""


def test_the_issues_example_replays_on_after_an_x_before_line_6(tmp_path):
    """Play half a game, put an X before line 6, and the board goes on."""
    script = parse_script("\n".join(json.dumps(line) for line in (
        {"dice": [6, 2]}, {"press": "white.turn"}, {"move": [24, 18]}, {"move": [13, 11]},
        {"press": "white.turn"}, {"dice": [6, 4]}, {"press": "black.turn"})), "half")
    replay(script, PROFILE, lambda event: None, tmp_path, seed=0)
    text = journal_path(tmp_path).read_bytes().split(b"\n")
    text[5] = b"X" + text[5]
    journal_path(tmp_path).write_bytes(b"\n".join(text))
    warnings: list[str] = []
    log: list[ev.Event] = []
    more = parse_script('{"dice": [3, 1]}\n{"show": "state"}', "more")
    replay(more, PROFILE, log.append, tmp_path, seed=0, warn=warnings.append)
    assert len(warnings) == 1 and "line 6 is damaged" in warnings[0]
    assert isinstance(log[0], ev.Resumed) and log[0].problems == tuple(warnings)


# -- power cuts -----------------------------------------------------------------------------


def long_script() -> str:
    """A game by hand up to a dropped double, then the board shown many times: a script
    whose replay journals many events."""
    lines = [{"dice": [6, 1]}, {"press": "white.turn"}, {"move": [13, 7]}, {"move": [8, 7]},
             {"press": "white.turn"}, {"dice": [5, 2]}, {"press": "black.turn"},
             {"move": [12, 17]}, {"move": [1, 3]}, {"press": "black.turn"},
             {"press": "white.cube"}, {"press": "black.cube"}, {"wait": 1}]
    lines += [{"show": "state"}, {"show": "lights"}, {"wait": 0.2}] * 40
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def test_kill_9_at_random_events_loses_nothing_shown_and_restarts_exactly(tmp_path):
    script = tmp_path / "game.jsonl"
    script.write_text(long_script())
    wait = tmp_path / "wait.jsonl"
    wait.write_text('{"wait": 2}\n')
    subprocess.run([*BGPI, "replay", "--seed", "0", "--state", str(tmp_path / "ref"),
                                str(script)], capture_output=True, text=True, timeout=60, check=True)
    whole = read_journal(tmp_path / "ref").events
    assert len(whole) > 60
    rng = random.Random(9)
    cut_short = 0
    for cut in range(4):
        state = tmp_path / f"cut{cut}"
        shown = []
        kill_after = rng.randrange(1, len(whole) - 1)
        with subprocess.Popen([*BGPI, "replay", "--seed", "0", "--state", str(state), str(script)],
                              stdout=subprocess.PIPE, text=True) as process:
            for line in process.stdout:
                shown.append(json.loads(line))
                if len(shown) == kill_after:
                    os.kill(process.pid, signal.SIGKILL)
                    break
            process.wait(timeout=60)
        journal = read_journal(state)
        assert journal.damaged is None
        cut_short += len(journal.events) < len(whole)
        # Every event shown was journaled first, and the journal is the reference run's.
        assert [event.to_json() for event in journal.events[:len(shown)]] == shown
        assert journal.events == whole[:len(journal.events)]
        # The restart resumes exactly what the journal holds.
        restarted = subprocess.run([*BGPI, "replay", "--seed", "0", "--state", str(state), str(wait)],
                                   capture_output=True, text=True, timeout=60, check=True)
        first, *between, last = (json.loads(line) for line in restarted.stdout.splitlines())
        assert first["event"] == "resumed" and first["events"] == len(journal.events)
        # The simulated checkers were saved with the journal: no false mismatch after the wait.
        assert [event for event in between if event["event"] == "mismatch"] == []
        table = Table.resume(list(journal.events), SENSING)
        assert last == table.state_event().to_json()
    assert cut_short >= 3  # the kills came in the middle of the replay


# -- a full disk ------------------------------------------------------------------------------


def test_a_refused_write_is_tried_again_until_it_goes_through_whole(tmp_path, monkeypatch):
    events = half_game(1, 4)
    with Journal.open(tmp_path) as journal:
        journal.append(events[0])
        monkeypatch.setattr(os, "write", refusing_writes(3, partial=7))
        said, slept = [], []
        done = append_patiently(lambda: journal.append(events[1]), threading.Event(),
                                lambda error: said.append(str(error)), lambda: said.append("go on"), slept.append)
    assert done and slept == [RETRY_S] * 3
    assert said == [f"cannot write the journal {journal_path(tmp_path)}: No space left on device", "go on"]
    assert read_journal(tmp_path).events == tuple(events[:2])  # once, whole


def test_a_stop_while_the_disk_is_full_shows_nothing(tmp_path, monkeypatch):
    stop = threading.Event()
    with Journal.open(tmp_path) as journal:
        monkeypatch.setattr(os, "write", lambda fd, data: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
        assert not append_patiently(lambda: journal.append(ev.Roll(Side.WHITE, (3, 1))), stop, lambda error: stop.set(),
                                    lambda: None, lambda seconds: None)
    assert journal_path(tmp_path).read_bytes() == b""


def test_the_disk_full_pattern_lights_every_point_and_the_bar_red():
    leds = Leds(PROFILE.leds, SimulatedPixels(PROFILE.leds.count))
    show_disk_full(leds, PROFILE.leds)
    red = {index for location in (*range(1, 25), "bar:white", "bar:black")
           for index in PROFILE.leds.targets[str(location)]}
    shown = leds.pixels.shown
    assert {index for index, colour in enumerate(shown) if colour != (0, 0, 0)} == red
    assert len({shown[index] for index in red}) == 1


# bgpi with a file size limit of 0 bytes; SIGXFSZ ignored: a refused write, not a killed process.
FULL_DISK_BGPI = [sys.executable, "-c", (
    "import os, resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
    "resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY)); "
    "os.execv(sys.executable, [sys.executable, '-m', 'bgpi', *sys.argv[1:]])")]


def test_bgpi_run_pauses_on_a_full_disk_and_goes_on_when_space_returns(tmp_path):
    """The disk is "full" for the service: a file size limit of 0 bytes, then none."""
    state = tmp_path / "state"
    with subprocess.Popen([*FULL_DISK_BGPI, "run", "--board", "sim", "--state", str(state), "--seed", "0",
                           "--no-page"],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as service:
        try:
            paused = next(line for line in service.stderr if "cannot write" in line)
            assert paused.startswith(f"bgpi run: cannot write the journal {state}/journal.jsonl: ")
            assert paused.rstrip().endswith("play paused, the write is tried again every 1 s")
            assert journal_path(state).read_bytes() == b""
            resource.prlimit(service.pid, resource.RLIMIT_FSIZE,
                             (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            assert json.loads(service.stdout.readline()) == {"event": "session", "config": {}}
            assert service.stderr.readline() == "bgpi run: the journal is written again: play goes on\n"
        finally:
            service.send_signal(signal.SIGTERM)
        assert service.wait(timeout=30) == 0
    assert read_journal(state).events == (ev.NewSession({}),)


# -- absurd input -----------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
REQUEST = st.fixed_dictionaries({}, optional={"position_id": JSON | st.just("4HPwATDgc/ABMA"),
                                              "dice": JSON | st.lists(st.integers(0, 7), max_size=3)})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(REQUEST | JSON | st.text(max_size=30).map(lambda text: {"raw": text}), min_size=1,
                max_size=6))
def test_random_batch_lines_each_get_an_answer_or_a_one_line_error(requests):
    good = '{"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]}'
    texts = [good, *(json.dumps(request) for request in requests)]
    texts = [text.replace("\n", " ") for text in texts]
    out, errors = io.StringIO(), io.StringIO()
    status = answer_batch(io.StringIO("\n".join(texts) + "\n"), out, errors)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == len(texts) and "results" in answers[0]
    bad = [answer for answer in answers if "error" in answer]
    assert status == (2 if bad else 0)
    assert len(errors.getvalue().splitlines()) == len(bad)


def test_a_batch_with_bad_lines_answers_the_good_ones_and_exits_2():
    lines = ['{"position_id": null, "dice": [1, 2]}', '{"position_id": 5, "dice": [1, 2]}',
             '{"position_id": true, "dice": [1, 2]}', '{"position_id": [], "dice": [1, 2]}',
             "[" * 100_000, '{"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]}']
    done = subprocess.run([*BGPI, "rules", "plays", "--batch", "-"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=60, check=False)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 2 and len(answers) == 6 and "results" in answers[5]
    assert [answer["line"] for answer in answers[:5]] == [1, 2, 3, 4, 5]
    assert len(done.stderr.splitlines()) == 5 and "Traceback" not in done.stderr


NESTED = st.integers(1, 6_000).map(lambda depth: "[" * depth + "]" * depth)
"""A value nested up to 6,000 deep (issue 33: JSON and TOML readers recurse a level at a time)."""


@settings(max_examples=100, deadline=None)
@given(st.one_of(JSON.map(json.dumps), st.text(max_size=40), NESTED,
                 NESTED.map(lambda nested: f'{{"match": {nested}}}'),
                 st.dictionaries(st.sampled_from(["match", "jacoby", "cube_cap", "opponent", "x"]), JSON).map(
                     json.dumps)))
def test_random_config_values_are_settings_or_a_one_line_refusal(text):
    try:
        config = parse_config(text)
    except UsageError as error:
        assert "\n" not in str(error) and str(error).startswith("--config"), str(error)
        return
    assert isinstance(config, dict)


SETTINGS_KEYS = ["board", "profile", "brightness", "[session]\nmatch", "[session]\nopponent", "[money]\njacoby",
                 "[page]\nport", "[page]\nlisten", "[remote]\ngame", "[remote]\nbroker", "[remote]\npassword_file"]
TOML_VALUES = st.one_of(NESTED, st.sampled_from(['"x"', "1", "-1", "true", "[1, 2]", "{a = 1}", "= =", '"/dev/zero"',
                                                 '"0.0.0.0"', "1e400", '"gnubg:9"']),
                        NESTED.map(lambda nested: "{a = " + nested + "}"))


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(SETTINGS_KEYS), TOML_VALUES, min_size=1, max_size=3))
def test_random_settings_files_are_read_or_refused_in_one_line(tmp_path_factory, values):
    """`bgpi run --settings FILE` checks the file, and everything it asks, before it opens
    the board: a usable file, or one line."""
    folder = tmp_path_factory.mktemp("settings")
    path = folder / "bgpi.toml"
    path.write_text("\n".join(f"{key} = {value}" for key, value in values.items()) + "\n", encoding="utf-8")
    args = build_parser("run").parse_args(["run", "--settings", str(path), "--state", str(folder / "state")])
    try:
        _service_settings(args)
    except UsageError as error:
        assert "\n" not in str(error), str(error)


NUMBER_KEYS = {
    "point_slots": "5", "bar_slots": "4", "tray_slots": "15", "settle_us": "5", "scan_hz": "200",
    "debounce_ms": "5", "count": "44", "brightness": "0.6", "current_budget_ma": "1500",
    "long_press_s": "1.0", "bounce_ms": "20",
}
NUMBERS = st.sampled_from(["0", "-1", "1e300", "-inf", "inf", "nan", "1000000000", "1e18", "0.5",
                           "true", '"x"', "[]", "2", "100000"])


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(NUMBER_KEYS)), NUMBERS, min_size=1, max_size=4))
def test_random_profile_numbers_load_or_are_refused_in_one_line_naming_the_place(edits):
    text = default_profile_path().read_text()
    for key, value in edits.items():
        old = f"\n{key} = {NUMBER_KEYS[key]}"
        assert old in text
        text = text.replace(old, f"\n{key} = {value}", 1)
    try:
        profile = parse_profile(text, "random.toml")
    except ProfileError as error:
        assert "\n" not in str(error) and str(error).startswith("bad board profile random.toml: line ")
        return
    assert 1 <= profile.leds.count <= 1024 and 10 <= profile.sensors.scan_hz <= 1000
    assert profile.sensors.debounce_frames <= 1 + 100 * 1000 // 1000


@pytest.mark.parametrize("value", ["1000000000", "1e18", "nan", "-1"])
def test_diag_check_refuses_an_absurd_profile_in_one_line_exit_2(tmp_path, value):
    profile = tmp_path / "board.toml"
    profile.write_text(default_profile_path().read_text().replace("\ncount = 44", f"\ncount = {value}"))
    done = subprocess.run([*BGPI, "diag", "--check", "--board", "sim", "--profile", str(profile)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "leds.count: expected an integer 1..1024" in done.stderr


@pytest.mark.parametrize("argv", [["rules", "plays", "--dice", "1"], ["run", "--match", "x"], ["frob"],
                                  ["replay"], ["diag", "--frames", "many"]])
def test_argument_errors_are_one_line_naming_help(argv):
    done = subprocess.run([*BGPI, *argv], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.rstrip().endswith("--help)")


