"""The journal: an append-only, fsync'd record of the table log in the state directory.

Every table-log event (board-script.md) is one JSON object on one line of
``journal.jsonl``.  `Journal.append` returns only once the line is on the disk,
so whatever the board shows afterwards can be rebuilt after a crash or a power
cut.  `read_journal` reads it back and never fails on a damaged line: a line
cut short by a power cut (or the zeros some file systems leave after one) is
reported and skipped, and so is a corrupt line in the middle; every other
event is kept.

The journal knows JSON and files, nothing of the rules.  It is Linux-minded
(fsync of directories, flock), as is the board.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

JOURNAL_NAME = "journal.jsonl"


class JournalError(Exception):
    """The journal cannot be opened, read or written; the message is one line."""


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


@dataclass(frozen=True, slots=True)
class JournalRead:
    """What `read_journal` found: the events in order, and the damaged lines skipped."""

    events: tuple[dict[str, Any], ...]
    problems: tuple[str, ...]


def read_journal(state_dir: Path) -> JournalRead:
    """The events of the journal in `state_dir`, oldest first.

    A missing journal is an empty one (a board that never played).  A line that
    is not a JSON object is skipped and named in `problems`: "journal line N is
    truncated: skipped" for the last line when it has no newline, "journal line
    N is corrupt: skipped" otherwise.  A last line that lacks only its newline
    but is a whole JSON object is kept: its write got to the end.  Raises
    JournalError when the file exists but cannot be read.
    """
    path = journal_path(state_dir)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return JournalRead((), ())
    except OSError as error:
        raise JournalError(_describe("cannot read the journal", path, error)) from None
    lines = data.split(b"\n")
    events: list[dict[str, Any]] = []
    problems: list[str] = []
    for number, line in enumerate(lines, start=1):
        is_tail = number == len(lines)  # after the last newline: "" unless cut short
        if not line.strip():
            if line and is_tail:
                problems.append(f"journal line {number} is truncated: skipped")
            continue
        event = _decode(line)
        if event is not None:
            events.append(event)
        elif is_tail:
            problems.append(f"journal line {number} is truncated: skipped")
        else:
            problems.append(f"journal line {number} is corrupt: skipped")
    return JournalRead(tuple(events), tuple(problems))


class Journal:
    """The open journal of one state directory; one writer at a time.

    Use `Journal.open`; as a context manager it closes itself.
    """

    def __init__(self, path: Path, fd: int, repair: str | None) -> None:
        self._path = path
        self._fd: int | None = fd
        self._repair = repair

    @classmethod
    def open(cls, state_dir: Path) -> Journal:
        """Open (creating the directory and the file if needed) the journal in `state_dir`.

        A new file's directory entry is fsync'd, so the file itself survives a
        power cut.  A last line cut short by a power cut is repaired so that
        the next event starts on a line of its own: a partial line is cut off
        (its event was never confirmed, so nothing was shown for it); a whole
        JSON object lacking only its newline gets the newline.  `repair` says
        what was done.  The file is locked: a second writer gets JournalError,
        as does a directory or file that cannot be created or written.
        """
        state_dir = Path(state_dir)
        path = journal_path(state_dir)
        if state_dir.exists() and not state_dir.is_dir():
            raise JournalError(f"the state directory {state_dir} is not a directory")
        try:
            created_dir = not state_dir.is_dir()
            state_dir.mkdir(parents=True, exist_ok=True)
            if created_dir:
                _fsync_dir(state_dir.parent)
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC, 0o644)
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

    @property
    def repair(self) -> str | None:
        """What `open` did to a damaged last line, or None if it found none."""
        return self._repair

    def append(self, event: dict[str, Any]) -> None:
        """Write `event` as one line and return once it is on the disk (fsync'd).

        Raises TypeError if `event` is not a dict of JSON values, JournalError
        if the journal is closed or the disk refuses the write.
        """
        if not isinstance(event, dict):
            raise TypeError(f"a journal event is a dict, not {type(event).__name__}")
        if self._fd is None:
            raise JournalError(f"the journal {self._path} is closed")
        line = (json.dumps(event) + "\n").encode()
        try:
            _write_all(self._fd, line)
            os.fsync(self._fd)
        except OSError as error:
            raise JournalError(_describe("cannot write the journal", self._path, error)) from None

    def close(self) -> None:
        """Release the file (and its lock); closing twice is harmless."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _decode(line: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except (UnicodeDecodeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


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
        if _decode(data[start:]) is not None:
            _write_all(fd, b"\n")
            action = f"journal line {number} lacked its newline: added"
        else:
            os.ftruncate(fd, start)
            action = f"journal line {number} is truncated: cut off"
        os.fsync(fd)
    except OSError as error:
        raise JournalError(_describe("cannot repair the journal", path, error)) from None
    return action


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
