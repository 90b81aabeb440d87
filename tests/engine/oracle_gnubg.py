"""gnubg's own answers, for the tests: run as `gnubg -t -q -p oracle_gnubg.py` with
ORACLE_IN / ORACLE_OUT naming JSON Lines files.

Each input line {"position_id", "match_id", "cube": [...], "jacoby", "beavers"} (the
keys of `Situation.query`) gets one output line: with dice in the Match ID,
{"best": gnubg's findbestmove (from, to) pairs}; without, {"cube": gnubg's
cfevaluate recommendation text}, at the request's plies.
"""

import json
import os
import sys

import gnubg  # gnubg's embedded interpreter provides it

sys.path.insert(0, os.environ["BGPI_ENGINE_DIR"])
from gnubg_calls import cube_info, eval_context

for command in ("set player 0 human", "set player 1 human", "set automatic roll off"):
    gnubg.command(command)
with open(os.environ["ORACLE_IN"]) as requests, open(os.environ["ORACLE_OUT"], "w") as answers:
    for line in requests:
        request = json.loads(line)
        cube = cube_info(gnubg, request)
        context = eval_context(request)
        board = gnubg.positionfromid(request["position_id"])
        if request["dice"]:
            gnubg.command(f"set gnubgid {request['position_id']}:{request['match_id']}")
            answer = {"best": list(gnubg.findbestmove(board, cube, context))}
        else:
            answer = {"cube": gnubg.cfevaluate(board, cube, context)[5]}
        answers.write(json.dumps(answer) + "\n")
os._exit(0)
