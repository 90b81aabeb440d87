"""Every error bgpi raises on purpose, in one place.

Each one subclasses `BgpiError`, so a caller can catch everything the board says "no"
with, and also the built-in error it is, so code that expects a `ValueError` for bad
input keeps working::

    >>> from bgpi.exc import BgpiError, CubeError
    >>> issubclass(CubeError, BgpiError) and issubclass(CubeError, ValueError)
    True

Messages are one line (a multi-line `ScriptError` lists one fault a line), worded for
the person at the board: they are printed as they are, never as a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence


class BgpiError(Exception):
    """The base of every error bgpi raises on purpose."""


# -- input: files, IDs, notation, settings ---------------------------------------------


class UsageError(BgpiError, ValueError):
    """Bad input from the user on the command line: printed as one line, exit status 2."""


class ProfileError(BgpiError, ValueError):
    """A board profile that cannot be used.

    `problems` holds one line per fault, each starting with its place in the file; the
    message joins them into one line.
    """

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        super().__init__(f"bad board profile {source}: " + "; ".join(problems))


class ScriptError(BgpiError, ValueError):
    """A board script that cannot be run.

    `problems` holds one line per fault, most as ``line N: what is wrong`` in file order;
    the message puts each on its own line under the script's name.
    """

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        super().__init__("\n".join([f"bad board script {source}:", *problems]))


class ReplayError(BgpiError, ValueError):
    """A script line that cannot be carried out on the board as it stands (lifting from an
    empty point); the message is one line naming the script line."""


class MatError(BgpiError, ValueError):
    """The events cannot make a .mat file; the message is one line."""


# -- the game ----------------------------------------------------------------------------


class CubeError(BgpiError, ValueError):
    """A cube action the rules refuse.  The message is the reason, worded for
    the players, so the table can show it as it is."""


# -- the shell: files, hardware, the link, the engine ------------------------------------


class JournalError(BgpiError, OSError):
    """The journal cannot be opened, read or written; the message is one line."""


class BoardError(BgpiError, RuntimeError):
    """The real board cannot be opened; the message is one line: why, and what to do."""


class PinsBusyError(BgpiError, RuntimeError):
    """Pins that a kernel driver or another program holds (lgpio's "GPIO busy")."""

    def __init__(self, pins: Sequence[int]) -> None:
        self.pins = tuple(pins)
        super().__init__(f"GPIO{', '.join(map(str, self.pins))} busy")


class FirmwareRefusedError(BgpiError, RuntimeError):
    """The firmware and this host cannot work together (protocol version, configuration)."""


class LinkUnavailableError(BgpiError, RuntimeError):
    """The co-processor did not answer in time."""


class SimPicoError(BgpiError, RuntimeError):
    """The simulated Pico could not be started or stopped answering."""


class EngineError(BgpiError, RuntimeError):
    """The engine could not answer: the message says why, in one line."""


class NoEngineError(EngineError):
    """No engine is installed or configured."""


class EngineTimeoutError(EngineError):
    """The engine did not answer within its time limit."""


# -- the board: its description, the tracker and lights, the hardware, the link ---------


class LocationError(BgpiError, ValueError):
    """A name that is no place on the board (not a point 1..24, a bar half or a tray)."""


class BoardKindError(BgpiError, ValueError):
    """A board kind that names no board (expected sim, pi, pty or serial:DEVICE)."""


class HardwareSettingError(BgpiError, ValueError):
    """A device built with settings it cannot run with (a filter over no frames, a pixel
    buffer whose length is not the profile's LED count)."""


class HandsError(BgpiError, ValueError):
    """Hands on a simulated board asked to do the impossible (lift a checker that is not there)."""


class PinoutError(BgpiError, ValueError):
    """A profile the co-processor's fixed pinout cannot wire (more multiplexers than pins)."""


class UnreadableBoardError(BgpiError, ValueError):
    """The switches cannot be read as one position: a play made as the player pleased
    (lenient mode) that the board does not show one way only."""


class LightingError(BgpiError, ValueError):
    """Lights the board cannot show: an unknown prompt, role or location, a die face beyond 1..6."""


# -- the service and the commands --------------------------------------------------------


class ServiceError(BgpiError, ValueError):
    """The board cannot start, or start a session, as its settings ask; the message is one line."""


class PageSettingsError(BgpiError, ValueError):
    """The page's options or the settings file's [page] table ask for a page that cannot be served."""


class SettingsFileError(BgpiError, ValueError):
    """The service's settings file cannot be read or has faults; the message names the file and each fault."""


class ScriptLineError(BgpiError, ValueError):
    """A line of a board script that the script language does not allow; the message says what is wrong."""


class HandError(BgpiError, ValueError):
    """A hand typed at the terminal simulator that it cannot carry out; the message is the help to give."""


class UnknownLinkError(BgpiError, ValueError):
    """A replay asked for a link to the board that bgpi does not know (only pty)."""


class EngineKindError(BgpiError, ValueError):
    """An engine kind that is not one of `bgpi.engine.KINDS`."""


class DiceInputError(BgpiError, ValueError):
    """Dice given to a command (or in a batch line) that are not two numbers from 1 to 6."""


class BatchLineError(BgpiError, ValueError):
    """A line of `bgpi rules plays --batch` that is not a request it reads."""


# -- rules ---------------------------------------------------------------------------------


class SideError(BgpiError, ValueError):
    """A name that is neither side, 'white' nor 'black'."""


class PositionError(BgpiError, ValueError):
    """A position that cannot occur in a game (docs/rules.md §1): the message names why."""


class DiceError(BgpiError, ValueError):
    """A die that does not show 1 to 6."""


class PositionIdError(BgpiError, ValueError):
    """A gnubg Position ID that cannot be read or written: the message names the fault."""


class MatchIdError(BgpiError, ValueError):
    """A gnubg Match ID, or one of its fields, that cannot be read or written."""


class XgidError(BgpiError, ValueError):
    """An XGID, or one of its fields, that cannot be read or written: the message names the field."""


class PlayNotationError(BgpiError, ValueError):
    """A play written in gnubg's notation that cannot be read, or names no legal play or several."""


class ResultError(BgpiError, ValueError):
    """A game result that cannot be scored (no winner, a bad cube value)."""


class SettingsError(BgpiError, ValueError):
    """Session settings the rules refuse (docs/rules.md §9): the message names the setting."""


class SessionError(BgpiError, ValueError):
    """A step of a session its state refuses now (rolling twice, a game after the match)."""


class StrengthError(BgpiError, ValueError):
    """An engine level or computer opponent that cannot be read."""


# -- the table and its records: events, the state machine, .mat and SGF ---


class EventError(BgpiError, ValueError):
    """A table-log event that is not one: not a dict, or a known kind without its keys."""


class JournalStartError(BgpiError, ValueError):
    """A journal that does not begin with a session event."""


class NoGameError(BgpiError, ValueError):
    """A game, a roll or a double asked for where there is none: an event out of place."""


class RecordError(BgpiError, ValueError):
    """An event a record (.mat, SGF) cannot use where it stands: skipped with a warning."""


# -- the build (issue 24: drawings, header map, Pico pinout) ---

class HeaderPinError(BgpiError, ValueError):
    """A GPIO (or Pico GP) number that no pin of the header brings out."""


# -- positions from records ---------------------------------------------------------


class RecordFileError(BgpiError, ValueError):
    """A .mat or SGF file cannot give the position asked for; the message is one line."""


# -- remote play (wire) ---


class MessageError(BgpiError, ValueError):
    """A message from the other board that is not one: too big, not JSON, a wrong version or shape."""


class DiceCheatError(BgpiError, ValueError):
    """The other board's dice secret does not match the commitment it sent first."""


class BrokerSetupError(BgpiError, ValueError):
    """A broker setting that cannot be used: a password file that cannot be read, a CA file missing."""


class TopicError(BgpiError, ValueError):
    """A topic heard from the broker that is no topic of a bgpi game (`bgpi.remote.topics`)."""


# -- team matches ---


class BoardStateError(BgpiError, ValueError):
    """A board's `state` message that is not one: too long, not JSON, or a wrong shape, type, version or ID."""


class TeamMatchError(BgpiError, ValueError):
    """A team-match file that cannot be read: its TOML, a team, a pair, a game ID or the number of pairs."""


class WatchedLogError(BgpiError, ValueError):
    """A board's `log` message that is not one table-log event, or one too many for its game."""
