"""`bgpi diag`: checks for the person who assembles a board (placeholder until the hardware layer lands)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("diag", help="check the board's sensors, lights and buttons")
    parser.set_defaults(handler=lambda args: 0)
