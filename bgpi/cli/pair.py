"""`bgpi pair`: draw the pairing code two boards share for one remote game (docs/remote.md).

Prints a new code: 8 groups of 4 letters and digits, 128 random bits and a checksum.
Give the same code to both boards of the game (`bgpi run --remote GAME
--pairing-code-file F`, or the settings file's [remote] pairing_code_file), by a way
only the two players read: it is the key to their game, and anyone who has it can play
in either board's name.  With --out the code is written to a new file only this user
reads.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from bgpi.exc import UsageError
from bgpi.remote.pairing import new_code


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "pair",
        help="draw the pairing code two boards of a remote game share",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
    )
    parser.add_argument("--out", metavar="FILE", type=Path,
                        help="write the code to FILE (a new file, mode 0600) instead of printing it")
    parser.set_defaults(handler=_pair)


def _pair(args: argparse.Namespace) -> int:
    code = new_code()
    if args.out is None:
        print(code)
        return 0
    try:
        fd = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except OSError as error:
        raise UsageError(f"--out {args.out}: {error.strerror or error}") from None
    with os.fdopen(fd, "w") as out:
        out.write(code + "\n")
    print(f"bgpi pair: a new pairing code is in {args.out}: give the same to the other board")
    return 0
