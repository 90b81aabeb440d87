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

A position as a user writes it (a Position ID, ``ID:MATCHID`` or an XGID) is read by
`read_ids`, the one reader the commands share, into gnubg's IDs::

    >>> from bgpi.rules import board_id, decode_position_id, read_ids
    >>> ids = read_ids("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10")
    >>> ids.position_id, ids.key.dice, ids.key.turn
    ('4HPwATDgc/ABMA', (3, 1), <Side.WHITE: 0>)
    >>> waiting, moving = decode_position_id(ids.position_id)  # gnubg's board: not on roll, on roll
    >>> board_id((waiting, moving)) == ids.position_id
    True

A chouette (docs/chouette.md) is one shared `Game` and a `Seats` of the team, each seat a
money game of its own with its own cube: `Seats.game_of` is that game, for an engine to weigh.

The cube says who may double, and refuses with the reason: every refusal of the rules is
a `RulesError` (and a `ValueError`)::

    >>> from bgpi.rules import Cube, Offer, RulesError, Side
    >>> offered = Cube().double(Side.WHITE)
    >>> offered.offer == Offer(Side.WHITE), offered.offered_value
    (True, 2)
    >>> try:
    ...     offered.double(Side.BLACK)
    ... except RulesError as refusal:
    ...     print(refusal)
    white has doubled: black must take or drop first
"""

from bgpi.exc import (
    ChouetteError,
    CubeError,
    DiceError,
    MatchIdError,
    PlayNotationError,
    PositionError,
    PositionIdError,
    ResultError,
    RulesError,
    SessionError,
    SessionSettingsError,
    SideError,
    XgidError,
)
from bgpi.rules.chouette import ChouetteSettings, Consultation, LineChange, Roles, RollOff, roles, rotate
from bgpi.rules.cube import Cube, Offer
from bgpi.rules.ids import (
    GameState,
    MatchKey,
    Resignation,
    board_id,
    decode_match_id,
    decode_position_id,
    match_id,
    position_from_id,
    position_id,
)
from bgpi.rules.notation import describe_change, find_play, format_play, parse_play
from bgpi.rules.pairs import Pairs, Rolls
from bgpi.rules.play import Dice, Play, Step
from bgpi.rules.playtree import PartialPlay, PlayTree
from bgpi.rules.position import BAR, CHECKERS, OFF, Checkers, Position, Side, absolute_point, own_point
from bgpi.rules.reference import legal_plays
from bgpi.rules.result import GameResult, ResultKind
from bgpi.rules.seats import Seat, SeatEnd, Seats
from bgpi.rules.session import Game, Score, Session, Settings
from bgpi.rules.xgid import XGID, CubeAction, PositionIds, decode_xgid, gnubg_ids, read_ids, xgid, xgid_ids

__all__ = [
    "BAR",
    "CHECKERS",
    "OFF",
    "XGID",
    "Checkers",
    "ChouetteError",
    "ChouetteSettings",
    "Consultation",
    "Cube",
    "CubeAction",
    "CubeError",
    "Dice",
    "DiceError",
    "Game",
    "GameResult",
    "GameState",
    "LineChange",
    "MatchIdError",
    "MatchKey",
    "Offer",
    "Pairs",
    "PartialPlay",
    "Play",
    "PlayNotationError",
    "PlayTree",
    "Position",
    "PositionError",
    "PositionIdError",
    "PositionIds",
    "Resignation",
    "ResultError",
    "ResultKind",
    "Roles",
    "RollOff",
    "Rolls",
    "RulesError",
    "Score",
    "Seat",
    "SeatEnd",
    "Seats",
    "Session",
    "SessionError",
    "SessionSettingsError",
    "Settings",
    "Side",
    "SideError",
    "Step",
    "XgidError",
    "absolute_point",
    "board_id",
    "decode_match_id",
    "decode_position_id",
    "decode_xgid",
    "describe_change",
    "find_play",
    "format_play",
    "gnubg_ids",
    "legal_plays",
    "match_id",
    "own_point",
    "parse_play",
    "position_from_id",
    "position_id",
    "read_ids",
    "roles",
    "rotate",
    "xgid",
    "xgid_ids",
]
