"""The wire's journal (bgpi/remote/outbox.py): written before acting, read back to rebuild the peer."""

from __future__ import annotations

import errno
import os
import threading

import pytest

from bgpi.exc import JournalError
from bgpi.remote.messages import Bye, Commit, Reveal
from bgpi.remote.outbox import OUTBOX_NAME, Outbox, read_outbox
from bgpi.remote.peer import Disagreed, FeedRollWanted, Peer, Received, Send, Sent, Standing
from bgpi.rules.position import Side
from bgpi.shell.diskfull import RETRY_S, append_patiently
from bgpi.table import events as ev
from tests.diskfull import refusing_writes

SECRET = bytes(range(32))
COMMIT = Commit("g1", Side.WHITE, 1, 1, "ab" * 32)
REVEAL = Reveal("g1", Side.BLACK, 1, 1, bytes(32))


def test_what_is_written_reads_back_in_order(tmp_path):
    outbox, read = Outbox.open(tmp_path)
    assert read.lines == () and read.problems == ()
    with outbox:
        outbox.sent(Send(COMMIT, SECRET))
        outbox.received(REVEAL)
        outbox.disagreed("the boards' sessions differ (match)")
    assert read_outbox(tmp_path).lines == (Sent(COMMIT, SECRET), Received(REVEAL),
                                           Disagreed("the boards' sessions differ (match)"))
    assert (tmp_path / OUTBOX_NAME).stat().st_mode & 0o077 == 0  # the secrets are this board's own


def test_one_writer_at_a_time(tmp_path):
    with Outbox.open(tmp_path)[0], pytest.raises(JournalError):
        Outbox.open(tmp_path)


def test_a_line_cut_short_by_a_power_cut_is_named_and_skipped(tmp_path):
    with Outbox.open(tmp_path)[0] as outbox:
        outbox.sent(Send(COMMIT, SECRET))
    with (tmp_path / OUTBOX_NAME).open("ab") as file:
        file.write(b'{"received": {"v": 1')
    read = read_outbox(tmp_path)
    assert read.lines == (Sent(COMMIT, SECRET),)
    assert read.problems == (f"{OUTBOX_NAME}: journal line 2 is truncated: skipped",)


def test_a_line_that_is_no_message_ends_what_is_trusted_and_the_file_is_set_aside(tmp_path):
    with Outbox.open(tmp_path)[0] as outbox:
        outbox.sent(Send(COMMIT, SECRET))
        outbox._journal.append_record({"received": {"v": 9}})  # what a damaged or foreign line looks like
        outbox.received(REVEAL)
    read = read_outbox(tmp_path)
    assert read.lines == (Sent(COMMIT, SECRET),)
    assert read.problems == (f"{OUTBOX_NAME} line 2 is damaged (a message of version 9 from the other board: this "
                             f"board reads version 1): it and the lines after it are left out",)
    outbox, again = Outbox.open(tmp_path)
    with outbox:
        assert again.lines == read.lines
        outbox.received(Bye("g1", Side.BLACK, 2))
    assert read_outbox(tmp_path).lines == (Sent(COMMIT, SECRET), Received(Bye("g1", Side.BLACK, 2)))
    assert (tmp_path / "remote.damaged.1.jsonl").exists()


def test_a_peer_journaled_and_rebuilt_after_a_restart(tmp_path):
    """The shell's order: each Send journaled before it is published, each message received before acting."""
    start = Standing("4HPwATDgc/ABMA", "cAkAAAAAAAAA")
    peer = Peer("g1", Side.WHITE, {"match": 3}, start)
    with Outbox.open(tmp_path)[0] as outbox:
        for do in [*peer.reconnected(), *peer.wants_roll(SECRET, 5.0)]:
            assert isinstance(do, Send)
            outbox.sent(do)
        other = Commit("g1", Side.BLACK, 1, 1, "cd" * 32)
        outbox.received(other)
        for do in peer.received(other, 6.0):
            assert isinstance(do, Send)
            outbox.sent(do)
    lines = read_outbox(tmp_path).lines
    rebuilt, dos = Peer.rebuild("g1", Side.WHITE, {"match": 3}, lines, [ev.Start(start.position_id)], start, 6.0)
    assert dos == [FeedRollWanted(resumed=True)]  # the exchange under way: fed if the other player is on roll
    assert (rebuilt.sent, rebuilt.seen, rebuilt.outbox, rebuilt.roll) == (peer.sent, peer.seen, peer.outbox,
                                                                          peer.roll)


def test_through_a_full_disk_a_line_is_written_once_space_returns(tmp_path, monkeypatch):
    """Issue 29, item 3: the wire's journal waits for the disk as the table's does."""
    said, slept = [], []

    def patience(write) -> bool:
        return append_patiently(write, threading.Event(), lambda error: said.append(str(error)),
                                lambda: said.append("go on"), slept.append)

    outbox, _ = Outbox.open(tmp_path, patience)
    with outbox:
        monkeypatch.setattr(os, "write", refusing_writes(2, partial=5))
        assert outbox.sent(Send(COMMIT, SECRET))
    assert slept == [RETRY_S] * 2
    assert said == [f"cannot write the journal {tmp_path / OUTBOX_NAME}: No space left on device", "go on"]
    assert read_outbox(tmp_path).lines == (Sent(COMMIT, SECRET),)  # once, whole


def test_a_line_the_disk_refuses_until_the_board_stops_is_not_written(tmp_path, monkeypatch):
    stop = threading.Event()
    outbox, _ = Outbox.open(tmp_path, lambda write: append_patiently(write, stop, lambda error: stop.set(),
                                                                     lambda: None, lambda seconds: None))
    with outbox:
        monkeypatch.setattr(os, "write", lambda fd, data: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
        assert not outbox.received(REVEAL)
    assert (tmp_path / OUTBOX_NAME).read_bytes() == b""
