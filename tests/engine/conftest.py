"""Fixtures for the engine tests: Debian's gnubg behind the bridge, and gnubg's own answers."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from bgpi.engine import Engine
from bgpi.engine.process import BRIDGE, ProcessBackend, find_gnubg, gnubg_command

ORACLE = Path(__file__).with_name("oracle_gnubg.py")


@pytest.fixture(scope="session")
def gnubg_path() -> str:
    found = find_gnubg()
    if not found:
        pytest.skip("Debian's gnubg is not installed (apt-get install gnubg; .ci/run does)")
    return found


@pytest.fixture
def engine(gnubg_path):
    """An engine on a fresh gnubg process, closed afterwards."""
    with Engine(ProcessBackend(gnubg_command(gnubg_path))) as engine:
        yield engine


def ask_gnubg(gnubg_path: str, queries: list[dict], tmp_path: Path) -> list[dict]:
    """gnubg's own answers to `queries` (see oracle_gnubg.py), one per query."""
    requests, answers = tmp_path / "oracle-in.jsonl", tmp_path / "oracle-out.jsonl"
    requests.write_text("".join(json.dumps(query) + "\n" for query in queries))
    environment = dict(os.environ, ORACLE_IN=str(requests), ORACLE_OUT=str(answers),
                       BGPI_ENGINE_DIR=str(BRIDGE.parent), LC_ALL="C.UTF-8")
    subprocess.run([gnubg_path, "-t", "-q", "-p", str(ORACLE)], env=environment,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True, timeout=300)
    return [json.loads(line) for line in answers.read_text().splitlines()]
