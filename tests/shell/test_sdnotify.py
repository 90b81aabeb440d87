"""sd_notify over a real AF_UNIX datagram socket, as systemd listens for it."""

from __future__ import annotations

import os
import socket
import uuid

import pytest

from bgpi.shell import sdnotify


@pytest.fixture
def listener(tmp_path, monkeypatch):
    """A datagram socket where systemd's would be, named in $NOTIFY_SOCKET."""
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        yield sock


def received(sock: socket.socket) -> str:
    return sock.recv(4096).decode()


def test_ready_watchdog_stopping_and_status(listener):
    assert sdnotify.ready() is True
    assert received(listener) == "READY=1"
    assert sdnotify.watchdog() is True
    assert received(listener) == "WATCHDOG=1"
    assert sdnotify.status("waiting for\nthe starting position") is True
    assert received(listener) == "STATUS=waiting for the starting position"
    assert sdnotify.stopping() is True
    assert received(listener) == "STOPPING=1"


def test_abstract_socket(monkeypatch):
    name = f"bgpi-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert sdnotify.notify("READY=1\nSTATUS=up") is True
        assert received(sock) == "READY=1\nSTATUS=up"


@pytest.mark.parametrize("value", [None, "", "vsock:2:1234"])
def test_nothing_to_tell_outside_systemd(monkeypatch, value):
    if value is None:
        monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    else:
        monkeypatch.setenv("NOTIFY_SOCKET", value)
    assert sdnotify.ready() is False


def test_a_socket_that_went_away_is_not_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert sdnotify.watchdog() is False
    assert not os.path.exists(tmp_path / "gone")
