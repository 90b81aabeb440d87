"""A request's cube and evaluation settings as arguments of gnubg's Python functions.

Shared by the bridge (inside Debian's gnubg, where bgpi is not importable: it
loads this file by its path) and the in-process backend (PyPI's gnubg).  The
standard library only, and no bgpi imports.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any


def cube_info(gnubg: ModuleType, request: Mapping[str, Any]) -> dict[str, Any]:
    """gnubg's cubeinfo for a request (`Situation.query`): the mover is player 0."""
    value, owner, length, score, crawford = request["cube"]
    cube: dict[str, Any] = gnubg.cubeinfo(value, owner, 0, length, tuple(score), crawford, 0)
    cube["jacoby"] = int(request["jacoby"])
    cube["beavers"] = int(request["beavers"])
    return cube


def eval_context(request: Mapping[str, Any]) -> dict[str, Any]:
    """gnubg's evalcontext as a dict: cubeful, deterministic noise, the request's plies and noise."""
    return {"cubeful": 1, "plies": int(request["plies"]), "deterministic": 1, "prune": 1,
            "noise": float(request["noise"])}
