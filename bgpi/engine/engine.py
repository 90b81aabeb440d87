"""The engine: one interface over the backends, chosen by configuration.

    engine = open_engine("auto")        # "gnubg", "module", "none" or "auto"
    engine.plays(situation, dice)       # [RankedPlay], best first
    engine.cube(situation)              # CubeAdvice
    engine.outcomes(situation)          # Outcomes: the mover's chances
    engine.close()

A backend answers the plain requests of `Situation.query` (see bridge.py for
the protocol): `ProcessBackend` through Debian's gnubg, `ModuleBackend` with
PyPI's gnubg in-process, `MissingBackend` when neither is there.  Every call
either answers within its time limit or raises an `EngineError` whose message
is one line for the log or the terminal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, Self

from bgpi.engine.advice import (
    DEFAULT_LEVEL,
    LEVELS,
    CubeAdvice,
    Outcomes,
    RankedPlay,
    Situation,
    Strength,
    rank_plays,
)
from bgpi.engine.module import ModuleBackend, import_module
from bgpi.engine.process import ProcessBackend, find_gnubg, gnubg_command
from bgpi.exc import EngineKindError, NoEngineError
from bgpi.rules.play import Dice

KINDS = ("auto", "gnubg", "module", "none")
TIMEOUT = 10.0  # seconds per call: a 2-ply hint takes well under one on a Pi
MOST_PLAYS = 5  # plays listed by default


class Backend(Protocol):
    """A way to reach GNU Backgammon: it answers the bridge's requests (see bridge.py)."""

    name: str

    def ask(self, request: Mapping[str, Any], timeout: float) -> dict[str, Any]:
        """The answer to `request` (a `Query` with its "op"), within `timeout` s.

        :raises EngineError: when there is none (`NoEngineError`, `EngineTimeoutError`).
        """
        ...

    def close(self) -> None:
        """Stop the engine (idempotent)."""
        ...


class MissingBackend:
    """No engine: every request is answered with NoEngineError and the reason."""

    name = "none"

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def ask(self, request: Mapping[str, Any], timeout: float) -> dict[str, Any]:
        raise NoEngineError(self.reason)

    def close(self) -> None:
        pass


class Engine:
    """Best plays and cube decisions from a backend, checked against the rules."""

    def __init__(self, backend: Backend, strength: Strength = LEVELS[DEFAULT_LEVEL],
                 timeout: float = TIMEOUT) -> None:
        self.backend = backend
        self.strength = strength
        self.timeout = timeout

    @property
    def available(self) -> bool:
        """False when no engine is installed (every call would raise NoEngineError)."""
        return self.missing is None

    @property
    def missing(self) -> str | None:
        """Why no engine is installed (what every call's NoEngineError says); None when one is."""
        return self.backend.reason if isinstance(self.backend, MissingBackend) else None

    def plays(self, situation: Situation, dice: Dice, strength: Strength | None = None,
              limit: int = MOST_PLAYS) -> list[RankedPlay]:
        """The best plays of `dice` for the mover, best first (at least one: a
        forfeited roll's empty play)."""
        request = situation.query(dice, strength or self.strength)
        answer = self.backend.ask({"op": "plays", "limit": limit, **request}, self.timeout)
        return rank_plays(situation, dice, answer["plays"])

    def cube(self, situation: Situation, strength: Strength | None = None) -> CubeAdvice:
        """The cube decision before the mover rolls."""
        request = situation.query(None, strength or self.strength)
        answer = self.backend.ask({"op": "cube", **request}, self.timeout)
        return CubeAdvice(answer["no_double"], answer["double_take"], answer["double_drop"],
                          beavers=request["beavers"])

    def outcomes(self, situation: Situation, strength: Strength | None = None) -> Outcomes:
        """The mover's cubeless chances before the roll (what resigning weighs)."""
        answer = self.backend.ask({"op": "evaluate", **situation.query(None, strength or self.strength)},
                                  self.timeout)
        return Outcomes(*answer["outcomes"])

    def close(self) -> None:
        self.backend.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_backend(kind: str) -> Backend:
    """The backend of a kind (`KINDS`); MissingBackend with the reason when it is not installed.

    "auto" prefers Debian's gnubg (it gives cube decisions too), then PyPI's module.
    Raises ValueError for an unknown kind.
    """
    if kind not in KINDS:
        raise EngineKindError(f"unknown engine {kind!r}: expected one of {', '.join(KINDS)}")
    if kind == "none":
        return MissingBackend("no engine: none is configured")
    if kind in ("auto", "gnubg"):
        executable = find_gnubg()
        if executable:
            return ProcessBackend(gnubg_command(executable))
        if kind == "gnubg":
            return MissingBackend("no engine: gnubg is not installed (apt-get install gnubg)")
    try:
        return ModuleBackend(import_module())
    except NoEngineError as missing:
        if kind == "module":
            return MissingBackend(str(missing))
    return MissingBackend("no engine: install Debian's gnubg (apt-get install gnubg) "
                          "or PyPI's gnubg module")


def open_engine(kind: str = "auto", strength: Strength = LEVELS[DEFAULT_LEVEL],
                timeout: float = TIMEOUT) -> Engine:
    """An engine of a kind (see `open_backend`); close it when done."""
    return Engine(open_backend(kind), strength, timeout)
