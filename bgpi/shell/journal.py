"""The journal: an append-only, fsync'd record of the table log in the state directory.

Every table-log event (board-script.md) is one JSON object on one line of
``journal.jsonl`` (its `to_json` form), followed by a space and the CRC-32 of the JSON
text in eight hex digits, so that a flipped byte is found even where the line still parses.
`Journal.append` returns only once the line is on the disk, so whatever the board
shows afterwards can be rebuilt after a crash or a power cut.  `read_journal` reads
it back as events (`bgpi.table.events.parse`) and never fails on a damaged line: a line
cut short by a power cut (or the zeros some file systems leave after one) is reported
and skipped; a damaged line before the end (a wrong checksum, not a JSON object, not an
event) ends the events that can be trusted, and `Journal.keep_prefix` sets the damaged
file aside and keeps only them.  A record of the games (`bgpi export`) may instead skip
a sound line that is no event this version reads, and keep what follows it.  The wire's
journal (`bgpi.remote.outbox`) is a file of the same kind whose lines are JSON objects of
its own (`Journal.append_record`, `read_records`).
Journals written before checksums (lines of bare JSON) still read; once a line
carries a checksum, every later line must.

The journal knows events, JSON and files, nothing of the rules.  It is Linux-minded
(fsync of directories, flock), as is the board.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Self, TypeVar

from bgpi.exc import EventError, JournalError
from bgpi.table import events as ev

JOURNAL_NAME = "journal.jsonl"
SPARE_NAME = "journal.next.jsonl"
"""A journal made ready, off the scan frame, for the next new session (`Journal.take_over`)."""
_CHECKSUMMED = re.compile(rb"(\{.*\}) ([0-9a-f]{8})", re.DOTALL)


def default_state_dir() -> Path:
    """Where the journal lives when no ``--state`` is given.

    ``$BGPI_STATE``, else ``$XDG_STATE_HOME/bgpi``, else ``~/.local/state/bgpi``
    (the XDG default).  Empty variables count as unset.
    """
    if os.environ.get("BGPI_STATE"):
        return Path(os.environ["BGPI_STATE"])
    if os.environ.get("XDG_STATE_HOME"):
        return Path(os.environ["XDG_STATE_HOME"]) / "bgpi"
    return Path.home() / ".local" / "state" / "bgpi"


def journal_path(state_dir: Path) -> Path:
    """The journal file of a state directory."""
    return Path(state_dir) / JOURNAL_NAME


Record = TypeVar("Record")


@dataclass(frozen=True, slots=True)
class JournalRead(Generic[Record]):
    """What `read_journal` (or `read_records`) found: the events that can be trusted, in
    order, and the damaged lines.

    `events` stop before the first damaged line (`damaged`, its number; None if no line
    is damaged; `why`, what is wrong with it); `ends[i]` is the byte offset just past the
    line of `events[i]`, and `lines[i]` its line number.
    """

    events: tuple[Record, ...]
    problems: tuple[str, ...]
    damaged: int | None = None
    lines: tuple[int, ...] = ()
    ends: tuple[int, ...] = ()
    why: str | None = None

    @property
    def damage(self) -> str | None:
        """The damaged line in words, as a record of the games warns of it; None if none."""
        if self.damaged is None:
            return None
        return f"journal line {self.damaged} is damaged ({self.why}): it and the lines after it are left out"


def encode(event: ev.Event) -> bytes:
    """The journal line of `event`: its JSON, a space, its CRC-32, a newline."""
    return encode_record(event.to_json())


def encode_record(record: dict[str, Any]) -> bytes:
    """The journal line of `record`, a JSON object (`encode` of an event's JSON form)."""
    text = json.dumps(record).encode()
    return b"%s %08x\n" % (text, zlib.crc32(text))


def read_journal(state_dir: Path, name: str = JOURNAL_NAME, skip_non_events: bool = False) -> JournalRead[ev.Event]:
    """The events of the journal in `state_dir` (or of the one set aside there as
    `name`), oldest first, up to the first damage.

    A missing journal is an empty one (a board that never played).  The last line,
    when it has no newline, was cut short by a power cut: "journal line N is
    truncated: skipped" (but a whole event lacking only its newline is kept: its write
    got to the end).  Any other line that is not an event's JSON object with the
    right checksum (or a bare one in a journal from before checksums) is damaged:
    `damaged` names it (`why`, what is wrong with it), and it and every line after it
    are left out.  With `skip_non_events` (a record of the games, which need not follow
    the table), a sound JSON object that is no event this version reads is skipped
    instead ("journal line N is no event this version reads (...): skipped") and the
    lines after it are read.  Blank lines are skipped.  Raises JournalError when the
    file exists but cannot be read.
    """
    return _read(state_dir, name, ev.parse, skip_non_events)


def read_records(state_dir: Path, name: str) -> JournalRead[dict[str, Any]]:
    """The JSON objects of the journal file `name` in `state_dir`, as `read_journal` reads
    events: for a file of the journal's kind whose lines are no table events (the wire's)."""
    return _read(state_dir, name, lambda record: record)


def _read(state_dir: Path, name: str, read: Callable[[dict[str, Any]], Record],
          skip_non_events: bool = False) -> JournalRead[Record]:
    """The lines of the journal file `name`, each JSON object turned into a record by
    `read` (EventError: the line is no event; damaged, or skipped if `skip_non_events`)."""
    path = Path(state_dir) / name
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return JournalRead((), ())
    except OSError as error:
        raise JournalError(_describe("cannot read the journal", path, error)) from None
    events: list[Record] = []
    lines: list[int] = []
    ends: list[int] = []
    problems: list[str] = []
    damaged = why = None
    start = number = 0
    checksummed = False
    while start < len(data):
        number += 1
        end = data.find(b"\n", start)
        line = data[start:] if end < 0 else data[start:end]
        if end >= 0 and not line.strip():
            start = end + 1
            continue
        decoded = _decode(line, checksummed)
        if isinstance(decoded, dict):
            checksummed = checksummed or _CHECKSUMMED.fullmatch(line) is not None
        found = decoded if isinstance(decoded, _Damage) else _record(read, decoded)
        if isinstance(found, _Damage) and found.sound and skip_non_events and end >= 0:
            problems.append(f"journal line {number} is {found.why}: skipped")
            start = end + 1
            continue
        if isinstance(found, _Damage):
            if end < 0:
                problems.append(f"journal line {number} is truncated: skipped")
            else:
                damaged, why = number, found.why
            break
        start = len(data) if end < 0 else end + 1
        events.append(found)
        lines.append(number)
        ends.append(start)
    return JournalRead(tuple(events), tuple(problems), damaged, tuple(lines), tuple(ends), why)


class Journal:
    """The open journal of one state directory; one writer at a time.

    Use `Journal.open`; as a context manager it closes itself.
    """

    def __init__(self, path: Path, fd: int, repair: str | None) -> None:
        self._path = path
        self._fd: int | None = fd
        self._repair = repair

    @classmethod
    def open(cls, state_dir: Path, name: str = JOURNAL_NAME) -> Journal:
        """Open (creating the directory and the file if needed) the journal in `state_dir`
        (or the file `name` there, such as the spare journal).

        A new file's directory entry is fsync'd, so the file itself survives a
        power cut.  A last line cut short by a power cut is repaired so that
        the next event starts on a line of its own: a partial line is cut off
        (its event was never confirmed, so nothing was shown for it); a whole
        JSON object lacking only its newline gets the newline.  `repair` says
        what was done.  The file is locked: a second writer gets JournalError,
        as does a directory or file that cannot be created or written.
        """
        state_dir = Path(state_dir)
        path = state_dir / name
        if state_dir.exists() and not state_dir.is_dir():
            raise JournalError(f"the state directory {state_dir} is not a directory")
        try:
            created_dir = not state_dir.is_dir()
            state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)  # the table log is the players' own
            if created_dir:
                _fsync_dir(state_dir.parent)
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC, 0o600)
                _fsync_dir(state_dir)
            except FileExistsError:
                fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC)
        except OSError as error:
            raise JournalError(_describe("cannot open the journal", path, error)) from None
        try:
            _lock(fd, path)
            repair = _repair_tail(fd, path)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, repair)

    @property
    def path(self) -> Path:
        return self._path

    def take_over(self, aside: Path) -> None:
        """This journal (the spare, opened ahead) becomes its directory's journal: the
        current one is renamed `aside`, this one ``journal.jsonl``.  Two renames and no
        fsync, for the scan frame: until the directory is synced (`sync_dir`) a power cut
        may leave the old names, and the start of a run promotes a spare that holds
        events (`promote_spare`).  The renames are in one directory, so the second is
        never on the disk without the first."""
        current = journal_path(self._path.parent)
        if current.exists():
            os.rename(current, aside)
        os.rename(self._path, current)
        self._path = current

    @property
    def repair(self) -> str | None:
        """What `open` did to a damaged last line, or None if it found none."""
        return self._repair

    def append(self, event: ev.Event) -> None:
        """Write `event` as one line and return once it is on the disk (fsync'd).

        Raises JournalError if the journal is closed or the disk refuses the write (a
        full disk); then the journal is as it was before, so the same event may be
        appended again.
        """
        self.append_record(event.to_json())

    def append_record(self, record: dict[str, Any]) -> None:
        """Write `record`, a JSON object, as `append` writes an event (for a file of the
        journal's kind whose lines are no table events: the wire's).  Raises TypeError if
        `record` is not a dict of JSON values."""
        if not isinstance(record, dict):
            raise TypeError(f"a journal record is a dict, not {type(record).__name__}")
        if self._fd is None:
            raise JournalError(f"the journal {self._path} is closed")
        line = encode_record(record)
        try:
            size = os.fstat(self._fd).st_size
            try:
                _write_all(self._fd, line)
                os.fsync(self._fd)
            except OSError:
                # Cut off what part of the line got written: the next line starts clean.
                os.ftruncate(self._fd, size)
                raise
        except OSError as error:
            raise JournalError(_describe("cannot write the journal", self._path, error)) from None

    def keep_prefix(self, end: int) -> Path:
        """Set the whole journal aside, never to be deleted, and go on with its first
        `end` bytes only: the lines before a damaged one.  Returns where the whole
        journal was kept (``journal.damaged.N.jsonl`` beside it).

        The shortened journal replaces the old one in one rename, so a power cut at any
        moment leaves a whole journal, one or the other.  Raises JournalError if the
        disk refuses.
        """
        if self._fd is None:
            raise JournalError(f"the journal {self._path} is closed")
        kept = free_name(self._path, "damaged")
        partial = self._path.with_name(self._path.name + ".new")
        try:
            data = os.pread(self._fd, os.fstat(self._fd).st_size, 0)
            _write_file(kept, data)
            _write_file(partial, data[:end])
            os.replace(partial, self._path)
            _fsync_dir(self._path.parent)
            fd = os.open(self._path, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC)
        except OSError as error:
            raise JournalError(_describe("cannot set the damaged journal aside", self._path, error)) from None
        try:
            _lock(fd, self._path)
        except BaseException:
            os.close(fd)
            raise
        os.close(self._fd)
        self._fd = fd
        return kept

    def close(self) -> None:
        """Release the file (and its lock); closing twice is harmless."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class _Damage:
    """A damaged line: `why`, in a few words; `sound` if it is a JSON object (with its
    checksum) that is only no event this version reads."""

    why: str
    sound: bool = False


def _record(read: Callable[[dict[str, Any]], Record], value: dict[str, Any]) -> Record | _Damage:
    try:
        return read(value)
    except EventError as error:
        return _Damage(f"no event this version reads ({_shortened(str(error))})", sound=True)


def _decode(line: bytes, checksummed: bool) -> dict[str, Any] | _Damage:
    """The JSON object on `line`, or what is wrong with it.  A line without a checksum is
    taken only from a journal written before checksums (`checksummed`: an earlier line had
    one)."""
    if (match := _CHECKSUMMED.fullmatch(line)) is not None:
        if zlib.crc32(match[1]) != int(match[2], 16):
            return _Damage("its checksum does not match")
        line = match[1]
    elif checksummed:
        return _Damage("no checksum after lines with one")
    try:
        value = json.loads(line)
    except ValueError:  # UnicodeDecodeError among them
        if line[:2] in (b"\xff\xfe", b"\xfe\xff"):
            return _Damage("UTF-16 text, not UTF-8")
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            return _Damage("not UTF-8 text")
        return _Damage("not JSON")
    except RecursionError:
        return _Damage("not JSON this board reads: nested too deeply")
    return value if isinstance(value, dict) else _Damage("not a JSON object")


def _shortened(text: str, most: int = 160) -> str:
    """`text` on one line, cut at `most` characters (a damaged line may be long)."""
    text = " ".join(text.split())
    return text if len(text) <= most else text[: most - 3] + "..."


def _lock(fd: int, path: Path) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise JournalError(f"the journal {path} is in use by another bgpi") from None
    except OSError as error:
        raise JournalError(_describe("cannot lock the journal", path, error)) from None


def _repair_tail(fd: int, path: Path) -> str | None:
    try:
        size = os.fstat(fd).st_size
        if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
            return None
        # The damaged tail is at most one line; read back to the last newline.
        data = os.pread(fd, size, 0)
        start = data.rfind(b"\n") + 1
        number = data.count(b"\n") + 1
        previous = data[data.rfind(b"\n", 0, max(start - 1, 0)) + 1:max(start - 1, 0)]
        if isinstance(_decode(data[start:], _CHECKSUMMED.fullmatch(previous) is not None), dict):
            _write_all(fd, b"\n")
            action = f"journal line {number} lacked its newline: added"
        else:
            os.ftruncate(fd, start)
            action = f"journal line {number} is truncated: cut off"
        os.fsync(fd)
    except OSError as error:
        raise JournalError(_describe("cannot repair the journal", path, error)) from None
    return action


def free_name(path: Path, kind: str) -> Path:
    """The first of ``journal.KIND.1.jsonl``, ``journal.KIND.2.jsonl``, ... beside `path`
    that does not exist (``journal.1.jsonl``, ... for an empty `kind`)."""
    stem = f"{path.stem}.{kind}" if kind else path.stem
    number = 1
    while (kept := path.with_name(f"{stem}.{number}{path.suffix}")).exists():
        number += 1
    return kept


def promote_spare(state_dir: Path, aside: Path) -> bool:
    """At the start of a run: a spare journal that holds events is a new session whose
    `take_over` a power cut undid: it becomes the journal again (the current one renamed
    `aside`); an empty one is removed.  True if one was promoted."""
    spare, current = Path(state_dir) / SPARE_NAME, journal_path(state_dir)
    if not spare.exists():
        return False
    if spare.stat().st_size == 0:
        spare.unlink()
        return False
    if current.exists():
        os.rename(current, aside)
    os.rename(spare, current)
    _fsync_dir(Path(state_dir))
    return True


def sync_dir(directory: Path) -> None:
    """Put `directory`'s entries (the renames of `Journal.take_over`) on the disk."""
    _fsync_dir(Path(directory))


def _write_file(path: Path, data: bytes) -> None:
    """`data` as the whole of a new file at `path`, on the disk when this returns."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _describe(what: str, path: Path, error: OSError) -> str:
    if error.errno in (errno.EACCES, errno.EPERM):
        reason = "permission denied"
    else:
        reason = error.strerror or str(error)
    return f"{what} {path}: {reason}"
