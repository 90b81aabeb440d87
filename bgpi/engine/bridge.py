"""The bridge: runs inside GNU Backgammon (`gnubg -t -q -p bridge.py`) and answers
JSON lines on stdin with JSON lines on stdout, one answer per request, in order.

This file is not imported by bgpi: gnubg's embedded Python runs it, with gnubg's
`gnubg` module importable and nothing of bgpi's.  It uses the standard library only.

Protocol (the request's keys are made by `Situation.query`, plus "op"):
- first line out: {"ready": true} (gnubg's banner, before it, is not JSON);
- {"op": "plays", ...query, "limit": N} -> {"plays": [{"move": "8/5 6/5", "equity": 0.2}, ...]},
  best first, the move in gnubg's notation for the mover;
- {"op": "cube", ...query} -> {"no_double": x, "double_take": y, "double_drop": z};
- {"op": "evaluate", ...query} -> {"outcomes": [win, win gammon, win backgammon, lose gammon,
  lose backgammon]}, gnubg's cubeless probabilities for the mover before the roll;
- a request it cannot answer -> {"error": "one line"}.
gnubg prints its own chatter on stdout: the bridge moves that to /dev/null, keeping
the pipe for its answers.  End of input ends the process.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

import gnubg  # provided by gnubg's embedded interpreter

if TYPE_CHECKING:  # the type checker reads the same file as bgpi's module
    from bgpi.engine.gnubg_calls import cube_info, eval_context
else:
    # gnubg runs this file without __file__: the backend names this folder in the environment.
    sys.path.insert(0, os.environ["BGPI_ENGINE_DIR"])
    from gnubg_calls import cube_info, eval_context

# Human players: gnubg must never move or roll on its own.
_SETUP = ("set player 0 human", "set player 1 human", "set automatic roll off",
          "set evaluation chequerplay evaluation cubeful on",
          "set evaluation chequerplay evaluation deterministic on")


def _answers() -> TextIO:
    """A text stream on the pipe gnubg had as stdout; gnubg's own output goes to /dev/null."""
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    sys.stdout.flush()
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    return answers


def _plays(request: dict[str, Any]) -> dict[str, Any]:
    # gnubg's hint reads the game it has: set it from the IDs (the dice are in the Match ID).
    gnubg.command("set jacoby " + ("on" if request["jacoby"] else "off"))
    context = eval_context(request)
    gnubg.command(f"set evaluation chequerplay evaluation plies {context['plies']:d}")
    gnubg.command(f"set evaluation chequerplay evaluation noise {context['noise']:f}")
    gnubg.command(f"set gnubgid {request['position_id']}:{request['match_id']}")
    hint = gnubg.hint(int(request["limit"]))
    return {"plays": [{"move": entry["move"], "equity": entry["equity"]} for entry in hint["hint"]]}


def _cube(request: dict[str, Any]) -> dict[str, Any]:
    board = gnubg.positionfromid(request["position_id"])
    evaluation = gnubg.cfevaluate(board, cube_info(gnubg, request), eval_context(request))
    return {"no_double": evaluation[1], "double_take": evaluation[2], "double_drop": evaluation[3]}


def _evaluate(request: dict[str, Any]) -> dict[str, Any]:
    board = gnubg.positionfromid(request["position_id"])
    evaluation = gnubg.evaluate(board, cube_info(gnubg, request), eval_context(request))
    return {"outcomes": list(evaluation[:5])}  # the sixth is the equity


_OPS = {"plays": _plays, "cube": _cube, "evaluate": _evaluate}


def serve(requests: Iterable[str], answers: TextIO) -> None:
    """Answer each request line until the end of input."""
    for line in requests:
        try:
            request = json.loads(line)
            answer = _OPS[request["op"]](request)
        except Exception as error:  # noqa: BLE001 - every failure is an answer, never a dead bridge
            answer = {"error": f"{type(error).__name__}: {error}"}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def main() -> None:
    answers = _answers()
    for command in _SETUP:
        gnubg.command(command)
    answers.write(json.dumps({"ready": True}) + "\n")
    answers.flush()
    serve(sys.stdin, answers)
    answers.close()
    os._exit(0)  # not back into gnubg's command loop


main()
