"""Every error bgpi raises on purpose, in one place, in families.

Each one subclasses `BgpiError` (everything the board says "no" with), its family (one
kind of trouble, caught as one) and the built-in error it is, so that code expecting a
`ValueError` for bad input keeps working, as gpiozero's `PinError` and `SPIError`
families do::

    >>> from bgpi.exc import BgpiError, CubeError, RulesError
    >>> [issubclass(CubeError, base) for base in (BgpiError, RulesError, ValueError)]
    [True, True, True]

The families:

* `RulesError`: the game refuses: a side, position, die, gnubg ID, XGID or play that
  cannot be read or played, a cube action, a step of a session or a result the rules do
  not allow, a session's settings (`SessionSettingsError`), an event out of place.
* `SettingsError`: settings and input that cannot be used: the command line (`UsageError`),
  the settings file, the page's options, a session's settings, an engine or level, dice or
  a hand typed in.
* `BoardError`: the board: it cannot be opened (`BoardError` itself), its pins, its
  profile and the places, devices, hands and lights it describes.
* `LinkError`: the co-processor link: the firmware, the Pico's pinout, the simulated Pico.
* `JournalError`: the journal (the table log's, the wire's outbox) cannot be opened, read
  or written.
* `RecordError`: what is written down of play cannot be read or made: table-log events,
  a journal's first event, .mat and SGF files, positions read from them, board scripts.
* `RemoteError`: the other board and the broker: the wire's messages and their seals, the
  dice, the pairing code, the broker's settings, a team match and the boards' messages watched.
* `EngineError`: the engine could not answer.

A family's base is a `BgpiError` alone, but for the families that grew from an error that
was already a built-in one, and stays it: `SettingsError` and `RecordError` are
`ValueError`s, `JournalError` an `OSError`, `BoardError` and `EngineError` `RuntimeError`s.
Their members are that error too, besides their own (a `ProfileError` is a `ValueError`
and, as a `BoardError`, a `RuntimeError`).

Messages are one line (a multi-line `ScriptError` lists one fault a line), worded for
the person at the board: they are printed as they are, never as a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence


class BgpiError(Exception):
    """The base of every error bgpi raises on purpose."""


# -- the rules: the game refuses ------------------------------------------------------


class RulesError(BgpiError):
    """The family of what the game refuses: a side, position, die, ID or play that cannot
    be read or played, a cube action, a step of a session, a result, an event out of place.

    A journaled event the game does not allow where it stands raises one of these (or an
    `EventError` for one that is no event), which is how a damaged journal is told from a
    fault of the program.
    """


class SideError(RulesError, ValueError):
    """A name that is neither side, 'white' nor 'black'."""


class PositionError(RulesError, ValueError):
    """A position that cannot occur in a game (docs/rules.md §1): the message names why."""


class DiceError(RulesError, ValueError):
    """A die that does not show 1 to 6."""


class PositionIdError(RulesError, ValueError):
    """A gnubg Position ID that cannot be read or written: the message names the fault."""


class MatchIdError(RulesError, ValueError):
    """A gnubg Match ID, or one of its fields, that cannot be read or written."""


class XgidError(RulesError, ValueError):
    """An XGID, or one of its fields, that cannot be read or written: the message names the field."""


class PlayNotationError(RulesError, ValueError):
    """A play written in gnubg's notation that cannot be read, or names no legal play or several."""


class CubeError(RulesError, ValueError):
    """A cube action the rules refuse.  The message is the reason, worded for
    the players, so the table can show it as it is."""


class ResultError(RulesError, ValueError):
    """A game result that cannot be scored (no winner, a bad cube value)."""


class SessionError(RulesError, ValueError):
    """A step of a session its state refuses now (rolling twice, a game after the match)."""


class NoGameError(RulesError, ValueError):
    """A game, a roll or a double asked for where there is none: an event out of place."""


class ChouetteError(RulesError, ValueError):
    """A step of a chouette its rules refuse: a seat that is not at the table or is out
    of the game, a player joining twice or leaving a chouette too small to go on.  Cube
    actions a seat may not make are `CubeError`s."""


# -- settings: the command line, the settings file, the page, a session --------------


class SettingsError(BgpiError, ValueError):
    """The family of settings and input that cannot be used: the command line, the
    service's settings file, the page's options, a session's settings, an engine or its
    level, dice or a hand typed in.  The message names the setting."""


class SessionSettingsError(SettingsError, RulesError):
    """Session settings the rules refuse (docs/rules.md §9): the message names the setting.
    Settings, and rules too: a journal's session whose settings the rules refuse is an
    event the game does not allow."""


class UsageError(SettingsError):
    """Bad input from the user on the command line: printed as one line, exit status 2."""


class ServiceError(SettingsError):
    """The board cannot start, or start a session, as its settings ask; the message is one line."""


class PageSettingsError(SettingsError):
    """The page's options or the settings file's [page] table ask for a page that cannot be served."""


class SettingsFileError(SettingsError):
    """The service's settings file cannot be read or has faults; the message names the file and each fault."""


class EngineKindError(SettingsError):
    """An engine kind that is not one of `bgpi.engine.KINDS`."""


class StrengthError(SettingsError):
    """An engine level or computer opponent that cannot be read."""


class DiceInputError(SettingsError):
    """Dice given to a command (or in a batch line) that are not two numbers from 1 to 6."""


class BatchLineError(SettingsError):
    """A line of `bgpi rules plays --batch` that is not a request it reads."""


class HandError(SettingsError):
    """A hand typed at the terminal simulator that it cannot carry out; the message is the help to give."""


# -- the board: opening it, its pins, its profile, what it describes ------------------


class BoardError(BgpiError, RuntimeError):
    """The family of the board: a pin is busy, a profile cannot be used, and the places,
    devices, hands and lights it describes.  Raised itself when the real board cannot be
    opened; the message is one line: why, and what to do."""


class PinsBusyError(BoardError):
    """Pins that a kernel driver or another program holds (lgpio's "GPIO busy")."""

    def __init__(self, pins: Sequence[int]) -> None:
        self.pins = tuple(pins)
        super().__init__(f"GPIO{', '.join(map(str, self.pins))} busy")


class ProfileError(BoardError, ValueError):
    """A board profile that cannot be used.

    `problems` holds one line per fault, each starting with its place in the file; the
    message joins them into one line.
    """

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        super().__init__(f"bad board profile {source}: " + "; ".join(problems))


class BoardKindError(BoardError, ValueError):
    """A board kind that names no board (expected sim, pi, pty or serial:DEVICE)."""


class HeaderPinError(BoardError, ValueError):
    """A GPIO (or Pico GP) number that no pin of the header brings out."""


class HardwareSettingError(BoardError, ValueError):
    """A device built with settings it cannot run with (a filter over no frames, a pixel
    buffer whose length is not the profile's LED count)."""


class LocationError(BoardError, ValueError):
    """A name that is no place on the board (not a point 1..24, a bar half or a tray)."""


class HandsError(BoardError, ValueError):
    """Hands on a simulated board asked to do the impossible (lift a checker that is not there)."""


class UnreadableBoardError(BoardError, ValueError):
    """The switches cannot be read as one position: a play made as the player pleased
    (lenient mode) that the board does not show one way only."""


class LightingError(BoardError, ValueError):
    """Lights the board cannot show: an unknown prompt, role or location, a die face beyond 1..6."""


# -- the co-processor link ---------------------------------------------------------


class LinkError(BgpiError):
    """The family of the co-processor link: the firmware, the Pico's pinout, the simulated Pico."""


class FirmwareRefusedError(LinkError, RuntimeError):
    """The firmware and this host cannot work together (protocol version, configuration)."""


class LinkUnavailableError(LinkError, RuntimeError):
    """The co-processor did not answer in time."""


class SimPicoError(LinkError, RuntimeError):
    """The simulated Pico could not be started or stopped answering."""


class PinoutError(LinkError, ValueError):
    """A profile the co-processor's fixed pinout cannot wire (more multiplexers than pins)."""


class UnknownLinkError(LinkError, ValueError):
    """A replay asked for a link to the board that bgpi does not know (only pty)."""


# -- the journal -----------------------------------------------------------------------


class JournalError(BgpiError, OSError):
    """The family of the journal (the table log's, the wire's outbox): it cannot be
    opened, read or written; the message is one line."""


# -- records: the table log, .mat, SGF, board scripts -----------------------------------


class RecordError(BgpiError, ValueError):
    """The family of what is written down of play that cannot be read or made: table-log
    events, .mat and SGF files, positions read from them, board scripts.  Raised itself
    for an event a record (.mat, SGF) cannot use where it stands: skipped with a warning."""


class EventError(RecordError):
    """A table-log event that is not one: not a dict, or a known kind without its keys."""


class JournalStartError(RecordError):
    """A journal that does not begin with a session event."""


class MatError(RecordError):
    """The events cannot make a .mat file; the message is one line."""


class SgfError(RecordError):
    """The events cannot make an SGF file (a session whose settings the rules refuse); the
    message is one line."""


class RecordFileError(RecordError):
    """A .mat or SGF file cannot give the position asked for; the message is one line."""


class ScriptError(RecordError):
    """A board script that cannot be run.

    `problems` holds one line per fault, most as ``line N: what is wrong`` in file order;
    the message puts each on its own line under the script's name.
    """

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        super().__init__("\n".join([f"bad board script {source}:", *problems]))


class ScriptLineError(RecordError):
    """A line of a board script that the script language does not allow; the message says what is wrong."""


class ReplayError(RecordError):
    """A script line that cannot be carried out on the board as it stands (lifting from an
    empty point); the message is one line naming the script line."""


# -- remote play: the wire, the broker, team matches --------------------------------


class RemoteError(BgpiError):
    """The family of remote play: the other board's messages and dice, the broker's
    settings, a team match and the boards' messages it watches."""


class MessageError(RemoteError, ValueError):
    """A message from the other board that is not one: too big, not JSON, a wrong version or shape."""


class DiceCheatError(RemoteError, ValueError):
    """The other board's dice secret does not match the commitment it sent first."""


class PairingError(RemoteError, ValueError):
    """A pairing code that does not check out (a letter mistyped), or a board's stored
    pairing that cannot be read or is for another game (`bgpi.remote.pairing`)."""


class SealError(RemoteError, ValueError):
    """Bytes from the broker that are not sealed with the game's key for this place: forged,
    for another game, another side or another topic, or cut short (`bgpi.remote.sealing`)."""


class BrokerSetupError(RemoteError, ValueError):
    """A broker setting that cannot be used: a password file that cannot be read, a CA file missing."""


class BoardStateError(RemoteError, ValueError):
    """A board's `state` message that is not one: too long, not JSON, or a wrong shape, type, version or ID."""


class TopicError(RemoteError, ValueError):
    """A topic heard from the broker that is no topic of a bgpi game (`bgpi.remote.topics`)."""


class TeamMatchError(RemoteError, ValueError):
    """A team-match file that cannot be read: its TOML, a team, a pair, a game ID or the number of pairs."""


class WatchedLogError(RemoteError, ValueError):
    """A board's `log` message that is not one table-log event, or one too many for its game."""


# -- the engine ------------------------------------------------------------------------


class EngineError(BgpiError, RuntimeError):
    """The family of the engine: it could not answer; the message says why, in one line."""


class NoEngineError(EngineError):
    """No engine is installed or configured."""


class EngineTimeoutError(EngineError):
    """The engine did not answer within its time limit."""
