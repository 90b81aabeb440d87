"""The errors bgpi raises on purpose: in families, as gpiozero's, each still the built-in it was."""

import doctest
import inspect
from pathlib import Path

import pytest

import bgpi.exc as exc

FAMILIES = (exc.RulesError, exc.SettingsError, exc.BoardError, exc.LinkError, exc.JournalError,
            exc.RecordError, exc.RemoteError, exc.EngineError)
ERRORS = [error for _, error in inspect.getmembers(exc, inspect.isclass)
          if issubclass(error, exc.BgpiError) and error is not exc.BgpiError]

WAS = {
    ValueError: """BatchLineError BoardKindError BoardStateError BrokerSetupError CubeError DiceCheatError
        DiceError DiceInputError EngineKindError EventError HandError HandsError HardwareSettingError
        HeaderPinError JournalStartError LightingError LocationError MatError MatchIdError MessageError
        NoGameError PageSettingsError PairingError PinoutError PlayNotationError PositionError PositionIdError
        ProfileError RecordError RecordFileError ReplayError ResultError ScriptError ScriptLineError
        SealError ServiceError SessionError SettingsError SettingsFileError SideError StrengthError TeamMatchError
        UnknownLinkError UnreadableBoardError UsageError WatchedLogError XgidError""",
    RuntimeError: """BoardError EngineError EngineTimeoutError FirmwareRefusedError LinkUnavailableError
        NoEngineError PinsBusyError SimPicoError""",
    OSError: "JournalError",
}
"""The built-in each error was before errors had families: callers and tests catch them so."""


@pytest.mark.parametrize(("built_in", "name"), [(built_in, name) for built_in, names in WAS.items()
                                                for name in names.split()])
def test_every_error_keeps_its_name_and_the_built_in_it_was(built_in, name):
    error = getattr(exc, name)
    assert issubclass(error, exc.BgpiError) and issubclass(error, built_in)


@pytest.mark.parametrize("error", ERRORS, ids=lambda error: error.__name__)
def test_every_error_is_of_one_family(error):
    families = [family for family in FAMILIES if issubclass(error, family)]
    # Session settings the rules refuse are settings, and rules: a journal's session may be damaged.
    expected = 2 if error is exc.SessionSettingsError else 1
    assert len(families) == expected, f"{error.__name__} is of {[family.__name__ for family in families]}"


MEMBERS = [error for error in ERRORS if error not in FAMILIES]


@pytest.mark.parametrize("error", MEMBERS, ids=lambda error: error.__name__)
def test_every_error_but_a_family_is_a_built_in_error_too(error):
    assert issubclass(error, (ValueError, OSError, RuntimeError))


def test_a_family_of_errors_is_caught_as_one():
    with pytest.raises(exc.RulesError):
        raise exc.CubeError("white owns the cube")
    with pytest.raises(exc.RemoteError):
        raise exc.BrokerSetupError("the broker CA file ca.pem does not exist")
    with pytest.raises(ValueError):  # still
        raise exc.XgidError("dice '77' are not '00', 'D', 'B', 'R' or two dice 1 to 6")


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.__name__)
def test_every_family_is_described_in_the_module_and_the_readme(family):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `bgpi/exc.py` |"))
    assert f"* `{family.__name__}`:" in exc.__doc__
    assert f"`{family.__name__}`" in row


def test_the_examples_run():
    results = doctest.testmod(exc)
    assert results.attempted >= 1 and results.failed == 0
