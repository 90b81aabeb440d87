"""GNU Backgammon in-process, through PyPI's `gnubg` module (wheels for x86_64).

Its functions take the position, cube and dice as arguments (no game state).
It has no cubeful evaluation, so it gives no cube decisions (nor the chances a
computer weighs before resigning: it never resigns with this backend): asking for
one is an EngineError naming the fix.  The module crashes (segfault) when called from
any thread but the main one, so the calls run on the caller's thread and
cannot be interrupted: an answer that comes after the time limit is dropped
and reported as EngineTimeoutError, so that a slow engine looks the same with both
backends.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from bgpi.engine.gnubg_calls import cube_info, eval_context
from bgpi.exc import EngineError, EngineTimeoutError, NoEngineError


def import_module() -> ModuleType:
    """PyPI's gnubg module; NoEngineError if it is not installed."""
    try:
        gnubg = importlib.import_module("gnubg")
    except ImportError:
        raise NoEngineError("no engine: PyPI's gnubg module is not installed (pip install gnubg)") from None
    if not hasattr(gnubg, "findbestmoves"):  # Debian's embedded module or another package
        raise NoEngineError("no engine: the gnubg module found is not PyPI's (it has no findbestmoves)")
    return gnubg


class ModuleBackend:
    """Answers the bridge's requests with PyPI's gnubg, in this process."""

    name = "gnubg module"

    def __init__(self, module: ModuleType) -> None:
        self._gnubg = module

    def ask(self, request: Mapping[str, Any], timeout: float) -> dict[str, Any]:
        if request["op"] != "plays":
            raise EngineError(
                "PyPI's gnubg module gives no cube decisions nor resignations; install Debian's gnubg for them"
            )
        started = time.monotonic()
        try:
            answer = self._plays(request)
        except Exception as error:  # noqa: BLE001 - the module's failures are the engine's answer
            raise EngineError(f"gnubg module: {error}") from None
        if time.monotonic() - started > timeout:
            raise EngineTimeoutError("the gnubg module did not answer in time")
        return answer

    def close(self) -> None:
        pass  # nothing to release: the module lives as long as the process

    def _plays(self, request: Mapping[str, Any]) -> dict[str, Any]:
        gnubg = self._gnubg
        cube = cube_info(gnubg, request)
        context = eval_context(request)
        board = gnubg.positionfromid(request["position_id"])
        moves = gnubg.findbestmoves(board, cube, context, tuple(request["dice"]))
        return {"plays": [
            {"move": gnubg.movetupletostring(move["move"], board), "equity": move["score"]}
            for move in moves[: request["limit"]]
        ]}
