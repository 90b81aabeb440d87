"""`bgpi run`'s page: its options, its access token, and starting it beside the scan loop.

The server (and aiohttp, a tenth of a second to import) is loaded only when a page is
served: the service, which serves none by default, starts without it.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from bgpi.board.profile import Geometry
from bgpi.web import DEFAULT_HOST, DEFAULT_PORT
from bgpi.web.bridge import Bridge

if TYPE_CHECKING:
    from bgpi.web.server import WebServer

TOKEN_FILE = "web-token"
"""In the state directory: the page's access token, kept so that a bookmark survives restarts."""


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


def open_page(args: argparse.Namespace, settings: dict | None, bridge: Bridge, geometry: Geometry,
              state_dir: Path) -> WebServer | None:
    """The page's server, started, as the options and the settings file's [page] table ask.

    Without a settings file (`settings` None) the page is served unless --no-page; with
    one, only if it says ``enabled = true`` (the service's network is closed otherwise).
    Options win over the file.  None when no page is served.  Raises OSError if the
    port cannot be bound, ValueError for a bad port or a bad [page] value.
    """
    page = {"enabled": True} if settings is None else settings
    enabled = page.get("enabled", False)
    if not isinstance(enabled, bool):
        raise ValueError(f"settings [page] enabled: expected true or false, got {enabled!r}")  # noqa: TRY004 (bad input)
    if args.no_page or not enabled:
        return None
    port = args.port if args.port is not None else page.get("port", DEFAULT_PORT)
    if type(port) is not int or not 0 <= port <= 65535:
        raise ValueError(f"port {port!r}: a port is a number from 0 to 65535")
    listen = args.listen if args.listen is not None else page.get("listen")
    if listen is not None and not isinstance(listen, str):
        raise ValueError(f"settings [page] listen: expected an address such as \"0.0.0.0\", got {listen!r}")
    token = access_token(state_dir) if listen is not None else None
    from bgpi.web.server import WebServer

    server = WebServer(bridge, geometry, listen or DEFAULT_HOST, port, token, state_dir)
    server.start()
    return server
