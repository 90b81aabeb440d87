"""A full disk under the wire's journal (``remote.jsonl``) of a board in a remote game
(issue 29, item 3): play pauses and the write is tried again, as for the table's
journal, and once there is space the game goes on, alike on both boards."""

from __future__ import annotations

import errno
import os
import threading
import time
from pathlib import Path

from bgpi.remote.outbox import OUTBOX_NAME
from bgpi.shell.diskfull import append_patiently
from tests.remote.boards import WAIT_S, boards, play_both
from tests.remote.conftest import Mosquitto


class FullDisk:
    """`os.write` refusing (ENOSPC) every write to the file at `full`, while it is set."""

    def __init__(self) -> None:
        self.full: Path | None = None
        self.refused = 0
        self._write = os.write

    def write(self, fd: int, data: bytes) -> int:
        if self.full is not None and os.readlink(f"/proc/self/fd/{fd}") == str(self.full):
            self.refused += 1
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self._write(fd, data)


def test_a_full_disk_under_the_wires_journal_pauses_play_until_there_is_space(tmp_path, mosquitto: Mosquitto,
                                                                            monkeypatch):
    said: list[str] = []
    stop = threading.Event()

    def patience(write) -> bool:
        return append_patiently(write, stop, lambda error: said.append(str(error)), lambda: said.append("go on"))

    disk = FullDisk()
    monkeypatch.setattr(os, "write", disk.write)
    white, black = boards(tmp_path, mosquitto, {"match": 1}, seed=12, patience=patience)
    failures: list[BaseException] = []

    def to_the_end() -> None:
        try:
            play_both(white, black, plays=10)
        except BaseException as error:  # noqa: BLE001 (raised on the test's thread)
            failures.append(error)

    try:
        play_both(white, black, plays=4)
        disk.full = tmp_path / "white" / OUTBOX_NAME
        rest = threading.Thread(target=to_the_end)
        rest.start()
        give_up = time.monotonic() + WAIT_S
        while disk.refused < 3 and time.monotonic() < give_up:
            time.sleep(0.05)
        assert disk.refused >= 3, "the wire's journal was never written"  # tried again and again
        assert said == [f"cannot write the journal {disk.full}: No space left on device"]  # said once
        disk.full = None
        rest.join()
        assert not failures, failures
        assert said[-1] == "go on" and len(said) == 2
        assert white.plays() == black.plays() == 10
        assert white.game_events() == black.game_events()
    finally:
        disk.full = None
        stop.set()
        white.close()
        black.close()
