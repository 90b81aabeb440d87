"""The journal of the wire: every message sent or received, in ``remote.jsonl`` (docs/remote.md).

A message this board sends is written (and fsync'd) before it is published; a message
received before the peer acts on it; so after a power cut or a ``kill -9``
`read_outbox` gives `Peer.rebuild` everything the board had said and heard, in order:
its sequence numbers, what the other board may still be missing, the secrets of a roll
in flight (a commitment's secret is kept here, and only here, until it is revealed).
The file is the table journal's kind (bgpi/shell/journal.py: one JSON object a line with
its CRC-32, locked, a line cut short by a power cut repaired): one of

- ``{"sent": MESSAGE, "secret": HEX}`` (``secret`` only with a commitment),
- ``{"received": MESSAGE}``,
- ``{"disagreed": LINE}`` (the peer found the journals disagree: play stays stopped).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from bgpi.exc import MessageError
from bgpi.remote import messages
from bgpi.remote.messages import Message
from bgpi.remote.peer import Disagreed, Line, Received, Send, Sent
from bgpi.shell.diskfull import Patience, at_once
from bgpi.shell.journal import Journal, read_records

OUTBOX_NAME = "remote.jsonl"


@dataclass(frozen=True, slots=True)
class OutboxRead:
    """What `read_outbox` found: the lines that can be trusted, in order, and what was wrong."""

    lines: tuple[Line, ...]
    problems: tuple[str, ...]
    end: int | None = None  # the byte offset where the trusted lines end, if a damaged line follows


def read_outbox(state_dir: Path) -> OutboxRead:
    """The lines of the wire's journal in `state_dir`, up to the first damaged one.

    A missing file is an empty journal.  A damaged line (a wrong checksum, or a line that
    is no message: `problems` says which) ends what can be trusted: the board goes on
    from the lines before it, and the other board's resend fills in what it said after."""
    read = read_records(state_dir, OUTBOX_NAME)
    problems = [f"{OUTBOX_NAME}: {problem}" for problem in read.problems]
    lines: list[Line] = []
    for number, data in zip(read.lines, read.events, strict=True):
        try:
            lines.append(_line(data))
        except (MessageError, KeyError, TypeError, ValueError) as error:
            problems.append(f"{OUTBOX_NAME} line {number} is damaged ({error}): it and the lines after it are "
                            f"left out")
            end = read.ends[len(lines) - 1] if lines else 0
            return OutboxRead(tuple(lines), tuple(problems), end)
    if read.damaged is not None:
        problems.append(f"{OUTBOX_NAME} line {read.damaged} is damaged: it and the lines after it are left out")
        return OutboxRead(tuple(lines), tuple(problems), read.ends[-1] if read.ends else 0)
    return OutboxRead(tuple(lines), tuple(problems))


def _line(data: dict[str, Any]) -> Line:
    if "sent" in data:
        secret = data.get("secret")
        return Sent(_message(data["sent"]), bytes.fromhex(secret) if isinstance(secret, str) else None)
    if "received" in data:
        return Received(_message(data["received"]))
    if isinstance(data.get("disagreed"), str):
        return Disagreed(data["disagreed"])
    raise ValueError("neither sent, received nor disagreed")


def _message(data: Any) -> Message:
    return messages.parse(json.dumps(data).encode())


class Outbox:
    """The open journal of the wire in one state directory; one writer at a time.

    Each line is written with `patience` (`bgpi.shell.diskfull`): through a full disk
    `bgpi run` pauses and tries again, as for the table's journal.  Each write returns
    True once the line is on the disk, False if the board stopped while it waited (the
    line is then neither to be published nor acted on)."""

    def __init__(self, journal: Journal, patience: Patience = at_once) -> None:
        self._journal = journal
        self._patience = patience

    @classmethod
    def open(cls, state_dir: Path, patience: Patience = at_once) -> tuple[Outbox, OutboxRead]:
        """Open (creating it if needed) the wire's journal in `state_dir`, and what it held.
        A damaged journal is set aside whole (``remote.damaged.N.jsonl``) and goes on with
        the lines before the damage.  Raises JournalError if the file cannot be opened."""
        read = read_outbox(state_dir)
        journal = Journal.open(state_dir, OUTBOX_NAME)
        if read.end is not None:
            journal.keep_prefix(read.end)
        return cls(journal, patience), read

    def sent(self, send: Send) -> bool:
        """Journal a message about to be published (returns once it is on the disk)."""
        line: dict[str, Any] = {"sent": _json(send.message)}
        if send.secret is not None:
            line["secret"] = send.secret.hex()
        return self._write(line)

    def received(self, message: Message) -> bool:
        """Journal a message received, before the peer acts on it."""
        return self._write({"received": _json(message)})

    def disagreed(self, line: str) -> bool:
        """Journal that the peer found the boards disagree (`SetLink` with ``disagree``)."""
        return self._write({"disagreed": line})

    def _write(self, line: dict[str, Any]) -> bool:
        return self._patience(lambda: self._journal.append_record(line))

    def close(self) -> None:
        self._journal.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _json(message: Message) -> Any:
    return json.loads(message.to_bytes())

