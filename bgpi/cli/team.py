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
import signal
import ssl
import threading
from pathlib import Path

from bgpi.cli.broker import add_broker_options, broker_of
from bgpi.exc import TeamMatchError, UsageError
from bgpi.remote.team import TeamMatch, parse_team_match
from bgpi.web import DEFAULT_HOST

DEFAULT_TEAM_PORT = 8710
"""Where the team page is served unless --port says (a board's own page is on 8700)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "team",
        help="watch a team match's boards live through their MQTT broker, and export the matches",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
    )
    parser.add_argument("matchfile", metavar="MATCHFILE", type=Path,
                        help="the team match: teams and board pairs, TOML (docs/team.md)")
    add_broker_options(parser, required=True, what="the match's")
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
