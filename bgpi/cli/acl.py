"""`bgpi acl`: the mosquitto lines of one remote game (docs/remote.md, "A broker for remote games").

Prints the broker's settings bgpi asks for (for /etc/mosquitto/conf.d/bgpi.conf, beside
a listener), the access rules of game GAME (for /etc/mosquitto/bgpi.acl): each board's
user writes only its own side's topics and reads only the other side's messages and
presence, each watcher's user (`bgpi team`) reads only the boards' state and log; and
the mosquitto_passwd commands that give each user a password.
"""

from __future__ import annotations

import argparse

from bgpi.exc import UsageError
from bgpi.remote.messages import GAME_ID


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "acl",
        help="print the mosquitto settings and access rules of a remote game",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
    )
    parser.add_argument("game", metavar="GAME", help="the game ID both boards are given")
    parser.add_argument("--white", metavar="USER", required=True, help="the broker user of the white board")
    parser.add_argument("--black", metavar="USER", required=True, help="the broker user of the black board")
    parser.add_argument("--watcher", metavar="USER", action="append", default=[],
                        help="a broker user that may watch the game (bgpi team); again for more")
    parser.set_defaults(handler=_acl)


def _acl(args: argparse.Namespace) -> int:
    from bgpi.remote.acl import BROKER_SETTINGS, game_rules  # paho's constants: loaded only here

    if GAME_ID.fullmatch(args.game) is None:
        raise UsageError(f"{args.game!r}: a game ID is 1 to 64 letters, digits, - and _")
    try:
        rules = game_rules(args.game, args.white, args.black, args.watcher)
    except ValueError as error:
        raise UsageError(str(error)) from None
    users = [args.white, args.black, *args.watcher]
    print("# /etc/mosquitto/conf.d/bgpi.conf, beside a listener (over the internet with TLS: docs/remote.md)")
    print(BROKER_SETTINGS)
    print("# /etc/mosquitto/bgpi.acl: one block a game")
    print(rules)
    print("# a password for each user (mosquitto_passwd asks for it; -c makes the file)")
    for user in users:
        print(f"mosquitto_passwd /etc/mosquitto/passwd {user}")
    return 0
