"""The rules of backgammon, pure: positions, dice, steps and plays, legal plays and the
play tree, the cube, results, matches and money sessions, and GNU Backgammon's IDs,
XGID and move notation.  Nothing here knows the physical board.

The rule book is docs/rules.md; where it is silent, GNU Backgammon is the oracle.  A
`Position` is where the checkers stand, both sides alike, so the functions that play
on it are told which `Side` is on roll (a Match ID or an XGID says it)::

    >>> from bgpi.rules import Dice, decode_match_id, find_play, legal_plays, match_id, position_from_id
    >>> key = decode_match_id("MIEFAAAAAAAA")  # money play, white on roll, 31 rolled
    >>> side, dice = key.turn, Dice(*key.dice)
    >>> start = position_from_id("4HPwATDgc/ABMA", side)
    >>> len(legal_plays(start, side, dice))
    16
    >>> play = find_play(start, side, dice, "8/5 6/5")
    >>> play.position_id, match_id(key.after_play())
    ('sGfwATDgc/ABMA', 'cAkAAAAAAAAA')

An XGID holds the position, who is on roll and the dice in one text::

    >>> from bgpi.rules import decode_xgid, format_play
    >>> record = decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10")
    >>> record.position == start, record.turn, record.dice
    (True, <Side.WHITE: 0>, (3, 1))
    >>> [format_play(play.steps) for play in legal_plays(record.position, record.turn, Dice(*record.dice))][:3]
    ['24/23 24/21', '24/20', '24/21 8/7']
"""

from bgpi.exc import (
    DiceError,
    MatchIdError,
    PlayNotationError,
    PositionError,
    PositionIdError,
    SideError,
    XgidError,
)
from bgpi.rules.cube import Cube
from bgpi.rules.ids import (
    GameState,
    MatchKey,
    decode_match_id,
    match_id,
    position_from_id,
    position_id,
)
from bgpi.rules.notation import find_play, format_play, parse_play
from bgpi.rules.play import Dice, Play, Step
from bgpi.rules.playtree import PartialPlay, PlayTree
from bgpi.rules.position import BAR, OFF, Position, Side
from bgpi.rules.reference import legal_plays
from bgpi.rules.result import GameResult, ResultKind
from bgpi.rules.session import Game, Score, Session, Settings
from bgpi.rules.xgid import XGID, decode_xgid, xgid

__all__ = [
    "BAR",
    "OFF",
    "XGID",
    "Cube",
    "Dice",
    "DiceError",
    "Game",
    "GameResult",
    "GameState",
    "MatchIdError",
    "MatchKey",
    "PartialPlay",
    "Play",
    "PlayNotationError",
    "PlayTree",
    "Position",
    "PositionError",
    "PositionIdError",
    "ResultKind",
    "Score",
    "Session",
    "Settings",
    "Side",
    "SideError",
    "Step",
    "XgidError",
    "decode_match_id",
    "decode_xgid",
    "find_play",
    "format_play",
    "legal_plays",
    "match_id",
    "parse_play",
    "position_from_id",
    "position_id",
    "xgid",
]
