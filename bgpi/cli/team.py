"""`bgpi team`: watch a team match's boards through their MQTT broker, on one page.

Reads MATCHFILE (TOML: the match's name, its two teams, and each pair of boards'
game ID, the team playing white and the match length; docs/team.md), subscribes to
every board's state and log through the broker, and serves a page at
http://127.0.0.1:8710 showing each board live and the team score: the team that wins a
majority of the pairs' matches (two of three) wins.  `--export DIR` writes each
pair's match there as .mat and SGF whenever a game ends, on the page's button and at
the end.  A broker that is down or refuses the login is one line, and the page says so.
"""

from __future__ import annotations

import argparse
import os
import signal
import ssl
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from bgpi.exc import TeamMatchError, UsageError
from bgpi.remote.team import TeamMatch, parse_team_match
from bgpi.web import DEFAULT_HOST

if TYPE_CHECKING:
    from bgpi.web.team import Broker

DEFAULT_TEAM_PORT = 8710
"""Where the team page is served unless --port says (a board's own page is on 8700)."""
PASSWORD_ENV = "BGPI_BROKER_PASSWORD"
"""The broker password, when no --broker-password-file gives it (never on the command line)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "team",
        help="watch a team match's boards live through their MQTT broker, and export the matches",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
    )
    parser.add_argument("matchfile", metavar="MATCHFILE", type=Path,
                        help="the team match: teams and board pairs, TOML (docs/team.md)")
    parser.add_argument("--broker", metavar="HOST[:PORT]", required=True,
                        help="the match's MQTT broker (port default 1883, 8883 with --broker-tls)")
    parser.add_argument("--broker-user", metavar="U", help="the user name the broker asks for")
    parser.add_argument("--broker-password-file", metavar="F", type=Path,
                        help=f"a file holding the broker password (else ${PASSWORD_ENV}; never on the command line)")
    parser.add_argument("--broker-tls", action="store_true", help="talk to the broker over TLS")
    parser.add_argument("--broker-ca", metavar="FILE", type=Path,
                        help="with --broker-tls: the CA certificate to trust (default: the system's)")
    parser.add_argument("--listen", metavar="ADDR", default=DEFAULT_HOST,
                        help="the address to serve the page on (default 127.0.0.1; another one needs the "
                             "access token printed in the first line)")
    parser.add_argument("--port", metavar="N", type=int, default=DEFAULT_TEAM_PORT,
                        help=f"the page's port (default {DEFAULT_TEAM_PORT})")
    parser.add_argument("--export", metavar="DIR", type=Path,
                        help="write each pair's match there as GAME.mat and GAME.sgf")
    parser.set_defaults(handler=_team)


def _team(args: argparse.Namespace) -> int:
    # Here, not at the top: the other commands' --help loads neither aiohttp nor paho.
    from bgpi.web.server import LOOPBACK_NAMES, new_token
    from bgpi.web.team import TeamWatcher

    match = read_match(args.matchfile)
    broker = broker_of(args)
    if args.export is not None and not args.export.is_dir():
        raise UsageError(f"--export {args.export}: no such directory")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: a port is 0 to 65535")
    token = None if args.listen in LOOPBACK_NAMES else new_token()
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    try:
        watcher = TeamWatcher(match, broker, args.listen, args.port, token, args.export)
    except ssl.SSLError as error:
        raise UsageError(f"--broker-ca {args.broker_ca}: not a CA certificate ({error.reason})") from None
    try:
        watcher.start()
    except OSError as error:
        raise UsageError(f"cannot serve the page on {args.listen}:{args.port}: {error.strerror or error} "
                         "(--port N for another port)") from None
    try:
        stop.wait()
    finally:
        watcher.stop()
    return 0


def read_match(path: Path) -> TeamMatch:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise UsageError(f"cannot read {path}: {reason}") from None
    try:
        return parse_team_match(text)
    except TeamMatchError as error:
        raise UsageError(f"{path}: {error}") from None


def broker_of(args: argparse.Namespace) -> Broker:
    """The broker the options name, its password read; UsageError for a fault."""
    from bgpi.web.team import Broker
    host, _, port_text = args.broker.rpartition(":") if args.broker.count(":") == 1 else (args.broker, "", "")
    default_port = 8883 if args.broker_tls else 1883
    if not host or any(char.isspace() for char in host):
        raise UsageError(f"--broker {args.broker!r}: expected HOST or HOST:PORT")
    try:
        port = int(port_text) if port_text else default_port
    except ValueError:
        raise UsageError(f"--broker {args.broker!r}: the port must be a number") from None
    if not 1 <= port <= 65535:
        raise UsageError(f"--broker {args.broker!r}: a port is 1 to 65535")
    if args.broker_ca is not None and not args.broker_tls:
        raise UsageError("--broker-ca is for --broker-tls")
    if args.broker_ca is not None and not args.broker_ca.is_file():
        raise UsageError(f"--broker-ca {args.broker_ca}: no such file")
    password = os.environ.get(PASSWORD_ENV)
    if args.broker_password_file is not None:
        try:
            password = args.broker_password_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            raise UsageError(f"--broker-password-file {args.broker_password_file}: {reason}") from None
    if password is not None and args.broker_user is None:
        print("bgpi team: a broker password without --broker-user is not used", file=sys.stderr)
        password = None
    return Broker(host, port, args.broker_user, password, args.broker_tls, args.broker_ca)
