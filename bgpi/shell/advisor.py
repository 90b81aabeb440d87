"""The table's questions to the engine (`Table.wants_advice`), answered for the shell.

The table asks in gnubg IDs (see `bgpi.table.advice`); an `Advisor` turns a request
into an engine call at the strength its purpose asks for (the hint's, or the computer
opponent's) and gives back the answer or one line saying why there is none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bgpi.engine import (
    DEFAULT_HINT_LEVEL,
    DEFAULT_LEVEL,
    KINDS,
    LEVELS,
    Engine,
    Situation,
    Strength,
    open_engine,
    parse_level,
    parse_opponent,
)
from bgpi.exc import EngineError, EngineKindError, SettingsError
from bgpi.shell.analysis import Decision, assess
from bgpi.table.requests import AdviceRequest, Purpose, Question

ENGINE_KEYS = ("engine", "opponent", "hint_level", "coach")
"""The session config's keys for the engine (the table reads `opponent` too: the computer plays black)."""

BOARD_TIMEOUT = 5.0
"""Seconds the board waits for the engine: the scan loop stands still meanwhile."""


class Advisor:
    """Answers the table's requests with an engine."""

    def __init__(self, engine: Engine, hint: Strength = LEVELS[DEFAULT_HINT_LEVEL],
                 computer: Strength = LEVELS[DEFAULT_LEVEL], kind: str = "auto") -> None:
        self.engine = engine
        self.hint = hint
        self.computer = computer
        self.kind = kind
        """The kind of engine asked for (`bgpi.engine.KINDS`), which `engine` is."""

    def __call__(self, request: AdviceRequest) -> tuple[dict[str, Any] | None, str | None]:
        """(the answer, None) or (None, why there is none)."""
        situation, dice = Situation.from_ids(request.position_id, request.match_id)
        situation = replace(situation, jacoby=request.jacoby, beavers=request.beavers)
        strength = self.computer if request.purpose is Purpose.COMPUTER else self.hint
        try:
            if request.purpose is Purpose.COACH:
                return self._coach(request), None
            if request.question is Question.PLAYS:
                assert dice is not None  # the table asks for plays once the dice are rolled
                return self.engine.plays(situation, dice, strength, limit=1)[0].as_json(), None
            if request.question is Question.RESIGN:
                return self.engine.outcomes(situation, strength).as_json(), None
            return self.engine.cube(situation, strength).as_json(), None
        except EngineError as error:
            return None, str(error)

    def _coach(self, request: AdviceRequest) -> dict[str, Any]:
        """The best play and what the play made (`played`, leading to `after`) lost against it."""
        assert request.played is not None  # the coach's question says the play made
        decision = Decision(0, request.player, "play", request.position_id, request.match_id,
                            request.jacoby, request.beavers, request.played, request.after)
        assessed = assess(decision, Engine(self.engine.backend, self.hint, self.engine.timeout))
        return {"move": assessed.best, "position_id": assessed.best_position_id, "loss": round(assessed.loss, 4)}

    def close(self) -> None:
        self.engine.close()


def engine_problems(config: Mapping[str, Any]) -> list[str]:
    """What is wrong with the engine's keys of a session config: [] when nothing."""
    checks = (("engine", _kind), ("opponent", parse_opponent), ("hint_level", parse_level))
    problems = []
    coach = config.get("coach", 0)
    if type(coach) not in (int, float) or not 0 <= coach <= 3:
        problems.append(f"coach: expected the equity a play may lose before the board shows a better "
                        f"one, 0 to 3 (such as 0.04), not {coach!r}")
    for key, check in checks:
        if key in config:
            if not isinstance(config[key], str):
                problems.append(f"{key}: expected a string, not {config[key]!r}")
                continue
            try:
                check(config[key])
            except SettingsError as error:
                problems.append(f"{key}: {error}")
    return problems


def _kind(text: str) -> None:
    if text not in KINDS:
        raise EngineKindError(f"unknown engine {text!r}: expected one of {', '.join(KINDS)}")


def open_advisor(config: Mapping[str, Any], current: Advisor | None = None) -> Advisor:
    """The advisor a session's config asks for: `engine` (a kind of `bgpi.engine.KINDS`,
    default "auto"), `opponent` ("gnubg[:LEVEL]") and `hint_level`.  ValueError for a
    bad value.

    `current` is the advisor in use, if any: its engine serves again when `config` asks
    for the same kind (starting another GNU Backgammon takes a while), at the strengths
    `config` asks for.  The caller closes whichever engine is no longer used."""
    hint = parse_level(config["hint_level"]) if "hint_level" in config else LEVELS[DEFAULT_HINT_LEVEL]
    computer = parse_opponent(config["opponent"]) if config.get("opponent") else LEVELS[DEFAULT_LEVEL]
    kind = config.get("engine", "auto")
    if current is not None and current.kind == kind:
        return Advisor(current.engine, hint, computer, kind)
    return Advisor(open_engine(kind, timeout=BOARD_TIMEOUT), hint, computer, kind)
