"""Hints and a computer opponent through GNU Backgammon (a shell package: it starts
processes and reads clocks; the pure table core never imports it).

`open_engine(kind)` gives an `Engine`; `Situation` describes a position with its
cube and score; answers are `RankedPlay` lists, `CubeAdvice` and `Outcomes`; failures are
`EngineError` (`NoEngineError`, `EngineTimeoutError`).
"""

from bgpi.engine.advice import (
    DEFAULT_HINT_LEVEL,
    DEFAULT_LEVEL,
    LEVELS,
    CubeAdvice,
    Outcomes,
    RankedPlay,
    Situation,
    Strength,
    parse_level,
    parse_opponent,
)
from bgpi.engine.engine import KINDS, Engine, open_engine
from bgpi.exc import EngineError, EngineTimeoutError, NoEngineError

__all__ = [
    "DEFAULT_HINT_LEVEL", "DEFAULT_LEVEL", "KINDS", "LEVELS", "CubeAdvice", "Engine", "EngineError",
    "EngineTimeoutError",
    "NoEngineError", "Outcomes", "RankedPlay", "Situation", "Strength", "open_engine", "parse_level", "parse_opponent",
]
