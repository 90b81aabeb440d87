"""The table's words for where it stands: its phase, what a roll is wanted for, cube advice.

These are string enums: each compares equal to the word the table log writes, and the
log's words are read and written only at its edge (`bgpi.table.events`).
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where the game stands, as the table's state machine knows it."""

    SETUP = "setup"  # the checkers are being set up for a game
    NEW_SESSION = "new_session"  # the session chooser is shown
    OPENING = "opening"  # waiting for the opening roll
    ROLL = "roll"  # the player on turn rolls or doubles
    DOUBLED = "doubled"  # a double awaits its answer
    MOVE = "move"  # the player on turn moves checkers
    CHOOSE = "choose"  # the switches cannot tell several plays apart: the mover chooses
    RESIGNING = "resigning"  # a player chooses what to resign (single, gammon, backgammon)
    RESIGNED = "resigned"  # a resignation awaits the opponent's answer
    OVER = "over"  # the game is won, its game_over not yet recorded
    MATCH_OVER = "match_over"
    # A chouette's own (bgpi.table.chouette):
    ROLL_OFF = "roll_off"  # the players roll for their places in the line
    SEATS = "seats"  # choosing seats: whose cubes are doubled, who joins the captain's resignation
    SEAT_DOUBLED = "seat_doubled"  # doubles on seats' cubes await their answers, one seat at a time
    SEAT_RESIGNED = "seat_resigned"  # a resignation awaits the answers of the seats offered it
    RESULTS = "results"  # a game is over: every seat's result is shown before the board is set up

    @property
    def json(self) -> str:
        """The phase as the ``state`` event names it: a game won is "game_over"."""
        return "game_over" if self is Phase.OVER else self.value

    @classmethod
    def parse(cls, word: str) -> Phase:
        """The phase a ``state`` event names.  Raises ValueError for another word."""
        return cls.OVER if word == "game_over" else cls(word)


class RollFor(StrEnum):
    """What the dice the table asks for are for."""

    OPENING = "opening"
    TURN = "turn"
    ROLL_OFF = "roll_off"  # a chouette's roll-off: each die of a roll is one player's


class CubeWord(StrEnum):
    """The engine's cube advice, in the words gnubg uses."""

    DOUBLE = "double"
    NO_DOUBLE = "no double"
    TOO_GOOD = "too good"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"

    @property
    def yes(self) -> bool:
        """Whether the advice says yes (double, take, beaver): shown steady, the rest blinks."""
        return self in (CubeWord.DOUBLE, CubeWord.TAKE, CubeWord.BEAVER)


class Link(StrEnum):
    """The shell's view of the connection to the other board of a remote game
    (`bgpi.table.inputs.LinkChanged`), whatever carries it; not journaled: a resumed
    table is connecting."""

    CONNECTING = "connecting"  # not yet in touch with the other board
    CONNECTED = "connected"
    AWAY = "away"  # the other board is gone: no presence, or it did not reveal its dice in time
    ABANDONED = "abandoned"  # away for long (`bgpi.remote.peer.CLAIM_SECONDS`): the game may be claimed here
    UNREACHABLE = "unreachable"  # the service that carries the messages cannot be reached: trying again
    REFUSED = "refused"  # that service refused this board (its login or its rules): trying again will not do
    DISAGREE = "disagree"  # the two journals disagree: play stops for good in this session

    @property
    def waiting(self) -> bool:
        """Whether the board waits for the link to come (back): play may go on meanwhile."""
        return self in (Link.CONNECTING, Link.AWAY, Link.ABANDONED, Link.UNREACHABLE)
