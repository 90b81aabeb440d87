"""`bgpi run`'s page: its options, its access token, and serving it beside the scan loop.

The bridge is loaded only when a page is served, and the server (and aiohttp) only in
the page's own process (`bgpi.web.process`): the service, which serves none by default,
starts without them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bgpi.board.profile import Geometry
from bgpi.exc import PageSettingsError
from bgpi.web import DEFAULT_HOST, DEFAULT_PORT

if TYPE_CHECKING:
    from bgpi.shell.runner import TableRunner
    from bgpi.shell.service import StartSession
    from bgpi.table import events as ev
    from bgpi.web.bridge import Bridge
    from bgpi.web.process import PageProcess

TOKEN_FILE = "web-token"
"""In the state directory: the page's access token, kept so that a bookmark survives restarts."""


NEXT_PORTS = 10
"""How many ports after a busy one the page tries before it gives up."""

_ANY_ADDRESS = ("0.0.0.0", "::", "")


def _addresses(url: str, listen: str | None) -> list[str]:
    """`url` as a phone can open it: listening on every address (0.0.0.0), the machine's
    own addresses in its place (the loopback one as a last resort)."""
    if listen not in _ANY_ADDRESS:
        return [url]
    host = f"[{listen}]" if listen and ":" in listen else listen or ""
    own = own_addresses()
    return [url.replace(f"//{host}:", f"//{address}:", 1) for address in own] or [url]


def own_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback: the one its default route
    uses first (a UDP socket connected nowhere in particular sends nothing), then the
    ones its name resolves to."""
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, only routed
        found.append(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        for *_, address in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(address[0]))
    return [address for address in dict.fromkeys(found) if not address.startswith("127.")]


def add_page_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=None, metavar="N",
                        help=f"serve the board's page on this port (default: {DEFAULT_PORT})")
    parser.add_argument("--listen", metavar="ADDR", default=None,
                        help="serve the page on ADDR (e.g. 0.0.0.0) instead of 127.0.0.1, "
                             "only with the access token printed in the log")
    parser.add_argument("--no-page", action="store_true", help="serve no page")


def access_token(state_dir: Path) -> str:
    """The page's token from the state directory, made (readable by its owner only) if missing."""
    path = Path(state_dir) / TOKEN_FILE
    try:
        token = path.read_text().strip()
    except FileNotFoundError:
        token = ""
    if not token:
        from bgpi.web.server import new_token

        token = new_token()
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(token + "\n")
    return token


@dataclass(frozen=True)
class PageSettings:
    """Where the page is served; checked (`page_settings`)."""

    port: int = DEFAULT_PORT
    listen: str | None = None
    """The address to serve on instead of 127.0.0.1; then only with the access token."""


def page_settings(args: argparse.Namespace, settings: dict[str, Any] | None) -> PageSettings | None:
    """The page the options and the settings file's [page] table ask for; None for none.

    Without a settings file (`settings` None) the page is served unless --no-page; with
    one, only if it says ``enabled = true`` (the service's network is closed otherwise).
    Options win over the file.  PageSettingsError for a bad port or a bad [page] value.
    """
    page = {"enabled": True} if settings is None else settings
    enabled = page.get("enabled", False)
    if not isinstance(enabled, bool):
        raise PageSettingsError(f"settings [page] enabled: expected true or false, got {enabled!r}")
    if args.no_page or not enabled:
        return None
    port = args.port if args.port is not None else page.get("port", DEFAULT_PORT)
    if type(port) is not int or not 0 <= port <= 65535:
        raise PageSettingsError(f"port {port!r}: a port is a number from 0 to 65535")
    listen = args.listen if args.listen is not None else page.get("listen")
    if listen is not None and not isinstance(listen, str):
        raise PageSettingsError(f"settings [page] listen: expected an address such as \"0.0.0.0\", got {listen!r}")
    return PageSettings(port, listen)


class BoardPage:
    """The page of a running board (a `bgpi.shell.service.Page`): the bridge the scan loop
    feeds (`bgpi.web.bridge`) and the server in a process of its own (`bgpi.web.process`),
    started by `open`."""

    def __init__(self, settings: PageSettings, geometry: Geometry, state_dir: Path) -> None:
        self.settings = settings
        self.geometry = geometry
        self.state_dir = state_dir
        self._bridge: Bridge | None = None
        self._server: PageProcess | None = None
        self.url: str | None = None
        """The page's own address (with its token), once `open` has served it."""

    def open(self, history: tuple[ev.Event, ...], start_session: StartSession, say: Callable[[str], None]) -> str:
        """Serve the page, its story begun with `history`; its address.  `say` hears what
        becomes of the page later (its process ended, and is started again).  OSError if
        the port cannot be bound."""
        from bgpi.web.bridge import Bridge
        from bgpi.web.process import PageProcess
        from bgpi.web.words import Story

        self._bridge = Bridge(Story.of(history), start_session)
        listen = self.settings.listen
        token = access_token(self.state_dir) if listen is not None else None
        wanted = self.settings.port
        # A busy port (another board or program serves there): the next one, in the page's process.
        ports = [wanted, *range(wanted + 1, wanted + NEXT_PORTS + 1)] if wanted else [0]
        server = PageProcess(self._bridge, self.geometry, listen or DEFAULT_HOST, ports, token, self.state_dir, say)
        server.start()
        self._server = server
        self.url = server.url
        if server.port != wanted and wanted:
            self.note = f"port {wanted} is in use, so the page is on port {server.port}"
        return " or ".join(_addresses(server.url, listen))

    note: str | None = None
    """What the page's address needs said (the port was busy), once `open` has served it."""

    def hear(self, event: ev.Event) -> None:
        if self._bridge is not None:
            self._bridge.hear(event)

    def after_scan(self, runner: TableRunner) -> None:
        if self._bridge is not None:
            self._bridge.after_scan(runner)

    def close(self) -> None:
        if self._server is not None:
            self._server.stop()
