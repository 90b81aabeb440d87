"""The journal: events survive, damaged lines are reported and skipped, never fatal."""

from __future__ import annotations

import errno
import json
import os
import zlib
from pathlib import Path

import pytest

from bgpi.exc import JournalError
from bgpi.rules.position import Side
from bgpi.shell.journal import (
    Journal,
    default_state_dir,
    encode,
    encode_record,
    journal_path,
    read_journal,
    read_records,
)
from bgpi.table import events as ev

OPENING = ev.Opening(3, 1, Side.WHITE, 1)
PLAY = ev.Play(Side.WHITE, (3, 1), "8/5 6/5", "sGfwATDgc/ABMA", "cAkAAAAAAAAA")
ROLL = ev.Roll(Side.BLACK, (6, 4))


def write(state: Path, *events: ev.Event) -> None:
    with Journal.open(state) as journal:
        for event in events:
            journal.append(event)


def test_events_come_back_in_order(tmp_path):
    state = tmp_path / "state" / "bgpi"
    write(state, OPENING, PLAY)
    write(state, ROLL)  # a second run appends
    read = read_journal(state)
    assert read.events == (OPENING, PLAY, ROLL)
    assert read.problems == ()
    assert journal_path(state).read_text().count("\n") == 3


def test_a_missing_or_empty_journal_has_no_events(tmp_path):
    assert read_journal(tmp_path / "nowhere") == read_journal(tmp_path)
    write(tmp_path)
    read = read_journal(tmp_path)
    assert read.events == () and read.problems == ()
    assert journal_path(tmp_path).read_bytes() == b""


def test_append_fsyncs_before_returning(tmp_path, monkeypatch):
    synced: list[int] = []
    real_fsync = os.fsync

    def counting_fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    with Journal.open(tmp_path) as journal:
        monkeypatch.setattr(os, "fsync", counting_fsync)
        journal.append(OPENING)
        assert len(synced) == 1
        journal.append(PLAY)
        assert len(synced) == 2
        assert read_journal(tmp_path).events == (OPENING, PLAY)


def test_creating_the_journal_fsyncs_its_directory(tmp_path, monkeypatch):
    synced: list[str] = []
    real_fsync = os.fsync

    def recording_fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    Journal.open(tmp_path / "state").close()
    assert str(tmp_path / "state") in synced
    synced.clear()
    Journal.open(tmp_path / "state").close()  # already there: nothing to sync
    assert synced == []


def test_a_truncated_last_line_is_reported_and_skipped(tmp_path):
    write(tmp_path, OPENING, PLAY)
    with journal_path(tmp_path).open("a") as file:
        file.write(json.dumps(ROLL.to_json())[:17])  # the power went mid-write
    read = read_journal(tmp_path)
    assert read.events == (OPENING, PLAY)
    assert read.problems == ("journal line 3 is truncated: skipped",)


def test_zeros_after_a_power_cut_are_a_truncated_line(tmp_path):
    write(tmp_path, OPENING)
    with journal_path(tmp_path).open("ab") as file:
        file.write(b"\0" * 64)
    read = read_journal(tmp_path)
    assert read.events == (OPENING,)
    assert read.problems == ("journal line 2 is truncated: skipped",)


def test_a_corrupt_line_in_the_middle_ends_the_trusted_events(tmp_path):
    write(tmp_path, OPENING)
    with journal_path(tmp_path).open("ab") as file:
        file.write(b'{"event": "roll", "play\xff\n[1, 2]\n')
    write(tmp_path, PLAY)
    read = read_journal(tmp_path)
    assert read.events == (OPENING,)
    assert read.damaged == 2 and read.problems == ()
    assert read.lines == (1,) and read.ends == (len(encode(OPENING)),)


def test_lines_carry_a_checksum_that_finds_a_flipped_byte(tmp_path):
    write(tmp_path, OPENING, PLAY, ROLL)
    data = journal_path(tmp_path).read_bytes()
    assert data == encode(OPENING) + encode(PLAY) + encode(ROLL)
    text, checksum = data.splitlines()[0].rsplit(b" ", 1)
    assert json.loads(text) == OPENING.to_json() and int(checksum, 16) == zlib.crc32(text)
    # "white": 3 becomes "white": 2: the line still parses, the checksum tells.
    flipped = data.replace(b'"white": 3', b'"white": 2', 1)
    journal_path(tmp_path).write_bytes(flipped)
    read = read_journal(tmp_path)
    assert read.events == () and read.damaged == 1


def test_a_journal_from_before_checksums_still_reads(tmp_path):
    legacy = "".join(json.dumps(event.to_json()) + "\n" for event in (OPENING, PLAY))
    journal_path(tmp_path).write_text(legacy)
    write(tmp_path, ROLL)
    read = read_journal(tmp_path)
    assert read.events == (OPENING, PLAY, ROLL) and read.damaged is None
    # After the first checksummed line a bare one is damage.
    with journal_path(tmp_path).open("a") as file:
        file.write(json.dumps(PLAY.to_json()) + "\n")
    assert read_journal(tmp_path).damaged == 4


@pytest.mark.parametrize(("line", "why"), [
    (b"garbage", "no checksum after lines with one"),
    (b'{"event": "roll"} 00000000', "its checksum does not match"),
])
def test_a_damaged_line_says_what_is_wrong_with_it(tmp_path, line, why):
    write(tmp_path, OPENING)
    with journal_path(tmp_path).open("ab") as file:
        file.write(line + b"\n")
    write(tmp_path, PLAY)
    read = read_journal(tmp_path)
    assert (read.damaged, read.why) == (2, why)
    assert read.damage == f"journal line 2 is damaged ({why}): it and the lines after it are left out"


@pytest.mark.parametrize(("text", "why"), [
    (b"garbage", "not JSON"), (b"[1]", "not a JSON object"), (b"\xc3(", "not UTF-8 text"),
    (encode(OPENING).decode().encode("utf-16").split(b"\n")[0], "UTF-16 text, not UTF-8"),
    (b"[" * 100_000, "not JSON this board reads: nested too deeply"),
])
def test_a_first_line_without_a_checksum_says_what_is_wrong_with_it(tmp_path, text, why):
    journal_path(tmp_path).write_bytes(text + b"\n" + encode(OPENING))
    read = read_journal(tmp_path)
    assert (read.events, read.damaged, read.why) == ((), 1, why)


def test_deep_nesting_is_damage_not_a_crash(tmp_path):
    write(tmp_path, OPENING)
    with journal_path(tmp_path).open("a") as file:
        file.write("[" * 100_000 + "\n")
    write(tmp_path, PLAY)
    read = read_journal(tmp_path)
    assert read.events == (OPENING,) and read.damaged == 2


def test_keeping_the_trusted_prefix_sets_the_whole_journal_aside(tmp_path):
    write(tmp_path, OPENING)
    with journal_path(tmp_path).open("a") as file:
        file.write("garbage\n")
    write(tmp_path, PLAY)
    whole = journal_path(tmp_path).read_bytes()
    read = read_journal(tmp_path)
    with Journal.open(tmp_path) as journal:
        kept = journal.keep_prefix(read.ends[-1])
        journal.append(ROLL)
    assert kept == tmp_path / "journal.damaged.1.jsonl" and kept.read_bytes() == whole
    assert read_journal(tmp_path).events == (OPENING, ROLL)
    with Journal.open(tmp_path) as journal:
        assert journal.keep_prefix(0) == tmp_path / "journal.damaged.2.jsonl"
    assert read_journal(tmp_path).events == ()


def test_a_refused_write_leaves_the_journal_as_it_was(tmp_path, monkeypatch):
    write(tmp_path, OPENING)
    real_write = os.write

    def half_then_full(fd: int, data) -> int:
        real_write(fd, bytes(data[:10]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with Journal.open(tmp_path) as journal:
        monkeypatch.setattr(os, "write", half_then_full)
        with pytest.raises(JournalError, match="cannot write the journal .*: No space left on device"):
            journal.append(PLAY)
        monkeypatch.setattr(os, "write", real_write)
        journal.append(PLAY)
    read = read_journal(tmp_path)
    assert read.events == (OPENING, PLAY) and read.damaged is None


def test_a_last_line_cut_before_its_checksum_is_cut_off(tmp_path):
    write(tmp_path, OPENING)
    with journal_path(tmp_path).open("a") as file:
        file.write(json.dumps(PLAY.to_json()))  # a bare JSON object after checksummed lines
    assert read_journal(tmp_path).problems == ("journal line 2 is truncated: skipped",)
    with Journal.open(tmp_path) as journal:
        assert journal.repair == "journal line 2 is truncated: cut off"


def test_appending_after_a_truncated_tail_starts_a_fresh_line(tmp_path):
    write(tmp_path, OPENING)
    with journal_path(tmp_path).open("a") as file:
        file.write('{"event": "play", "pla')
    with Journal.open(tmp_path) as journal:
        assert journal.repair == "journal line 2 is truncated: cut off"
        journal.append(PLAY)
    read = read_journal(tmp_path)
    assert read.events == (OPENING, PLAY) and read.problems == ()


def test_a_whole_last_event_missing_only_its_newline_is_kept(tmp_path):
    write(tmp_path, OPENING)
    with journal_path(tmp_path).open("ab") as file:
        file.write(encode(ROLL).rstrip(b"\n"))
    assert read_journal(tmp_path).events == (OPENING, ROLL)
    with Journal.open(tmp_path) as journal:
        assert journal.repair == "journal line 2 lacked its newline: added"
        journal.append(PLAY)
    assert read_journal(tmp_path) == read_journal(tmp_path)
    assert read_journal(tmp_path).events == (OPENING, ROLL, PLAY)


def test_an_intact_journal_needs_no_repair(tmp_path):
    write(tmp_path, OPENING)
    with Journal.open(tmp_path) as journal:
        assert journal.repair is None


def test_one_writer_at_a_time(tmp_path):
    with Journal.open(tmp_path), pytest.raises(JournalError, match="in use by another bgpi"):
        Journal.open(tmp_path)
    Journal.open(tmp_path).close()


def test_closed_journal_and_bad_events(tmp_path):
    journal = Journal.open(tmp_path)
    with pytest.raises(TypeError, match="a journal record is a dict"):
        journal.append_record(["roll"])  # type: ignore[arg-type]
    journal.close()
    journal.close()
    with pytest.raises(JournalError, match="is closed"):
        journal.append(OPENING)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads and writes any file")
def test_permission_problems_are_one_line_errors(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    write(locked, OPENING)
    locked.chmod(0o500)
    journal_path(locked).chmod(0o000)
    try:
        with pytest.raises(JournalError) as caught:
            read_journal(locked)
        assert str(caught.value) == f"cannot read the journal {locked}/journal.jsonl: permission denied"
        with pytest.raises(JournalError, match="cannot open the journal .*: permission denied"):
            Journal.open(locked / "inner")
    finally:
        journal_path(locked).chmod(0o600)
        locked.chmod(0o700)


def test_a_state_dir_that_is_a_file(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(JournalError, match="the state directory .*/file is not a directory"):
        Journal.open(tmp_path / "file")


def test_default_state_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("BGPI_STATE", "")
    monkeypatch.setenv("XDG_STATE_HOME", "")
    assert default_state_dir() == tmp_path / ".local" / "state" / "bgpi"
    monkeypatch.setenv("XDG_STATE_HOME", "/xdg")
    assert default_state_dir() == Path("/xdg/bgpi")
    monkeypatch.setenv("BGPI_STATE", "/var/lib/bgpi")
    assert default_state_dir() == Path("/var/lib/bgpi")


def test_a_checksummed_line_that_is_no_event_is_damage(tmp_path):
    write(tmp_path, OPENING)
    with journal_path(tmp_path).open("ab") as file:
        file.write(encode_record({"event": "roll", "player": "black"}))  # no dice: no roll event
    write(tmp_path, ROLL)
    read = read_journal(tmp_path)
    assert read.events == (OPENING,) and read.damaged == 2
    assert read.why == ("no event this version reads (a malformed roll event (missing 'dice'): "
                        "{'event': 'roll', 'player': 'black'})")
    # A record of the games skips it and reads on.
    skipping = read_journal(tmp_path, skip_non_events=True)
    assert skipping.events == (OPENING, ROLL) and skipping.damaged is None
    assert skipping.problems == (f"journal line 2 is {read.why}: skipped",)
    # Read as records (as the wire's journal is), the same line is a JSON object like any other.
    assert read_records(tmp_path, "journal.jsonl").events == (
        OPENING.to_json(), {"event": "roll", "player": "black"}, ROLL.to_json())


def test_an_event_of_a_kind_it_does_not_know_is_kept(tmp_path):
    """A later version's kind reads as `Unknown`, not as damage."""
    later = ev.Unknown({"event": "from the future", "n": 1})
    write(tmp_path, OPENING, later, ROLL)
    read = read_journal(tmp_path)
    assert read.events == (OPENING, later, ROLL) and read.damaged is None
