"""Telling systemd how the service is doing: readiness, the watchdog, a status line.

The sd_notify protocol in the standard library: one datagram of ``KEY=VALUE``
lines to the AF_UNIX socket named in ``$NOTIFY_SOCKET`` (a name starting with
``@`` is in the abstract namespace).  Without that variable, as outside
systemd, in tests and at a terminal, every call does nothing.  A failed send
never raises: telling systemd must not stop the board; a watchdog that stays
silent gets the service restarted anyway.
"""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """Send `message` (``KEY=VALUE`` lines) to systemd; True if it was sent."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if address.startswith("@"):
        address = "\0" + address[1:]
    elif not address.startswith("/"):
        return False  # unset, or a kind of socket (vsock) the board never runs under
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(message.encode(), address)
    except OSError:
        return False
    return True


def ready() -> bool:
    """Start-up is done (``Type=notify`` units count as started from here)."""
    return notify("READY=1")


def watchdog() -> bool:
    """The main loop is alive; send more often than ``WatchdogSec=``."""
    return notify("WATCHDOG=1")


def stopping() -> bool:
    """The service is shutting down on purpose."""
    return notify("STOPPING=1")


def watchdog_interval() -> float | None:
    """How often to ping the watchdog, in seconds: half of ``$WATCHDOG_USEC``, as
    sd_watchdog_enabled(3) advises; None when systemd expects no pings (unset, zero, or
    ``$WATCHDOG_PID`` naming another process)."""
    pid = os.environ.get("WATCHDOG_PID")
    if pid is not None and pid != str(os.getpid()):
        return None
    try:
        usec = int(os.environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 2e6 if usec > 0 else None


_standing: list[str] = []
"""What the board runs without (`standing`), kept at the end of every status line."""


def standing(text: str) -> bool:
    """Keep `text` (what the board plays on without, such as its computer opponent's
    engine) in every status line from now until the process ends; sent at once."""
    if text not in _standing:
        _standing.append(text)
    return status("")


def withdraw(text: str) -> None:
    """No longer keep `text` in the status line (the board that stood without it has closed)."""
    if text in _standing:
        _standing.remove(text)


def status(text: str) -> bool:
    """A one-line status for ``systemctl status``; line breaks become spaces, and the
    standing notes (`standing`) follow."""
    return notify("STATUS=" + "; ".join(" ".join(part.splitlines()) for part in (text, *_standing) if part))
