"""The scenario suite: board scripts with their expected table logs.

Each `tests/scenarios/NAME.jsonl` is a board script and `NAME.log.jsonl` the
table log `bgpi replay --seed 0` must print for it.  A scenario in parts,
`NAME.1.jsonl`, `NAME.2.jsonl`, ..., is replayed part after part with one state
directory, as the service runs across power cuts.  Comment lines starting with
`# test:` are instructions to this runner, run before the part:

    # test: truncate-journal N     cut N bytes off the end of the journal (a power cut mid-write)

To write the expected logs anew after a deliberate change, run
`BGPI_UPDATE_SCENARIOS=1 pytest tests/test_scenarios.py` and read the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bgpi.hardware.profile import load_profile
from bgpi.shell.journal import journal_path
from bgpi.shell.replay import replay
from bgpi.shell.script import load_script
from bgpi.table import events as ev
from bgpi.table.lights import PROMPTS

HERE = Path(__file__).parent.parent / "scenarios"
UPDATE = bool(os.environ.get("BGPI_UPDATE_SCENARIOS"))


def scenarios() -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {}
    for path in sorted(HERE.glob("*.jsonl")):
        if path.name.endswith(".log.jsonl"):
            continue
        name, _, _part = path.stem.partition(".")
        found.setdefault(name, []).append(path)
    return found


def instructions(script: Path) -> list[list[str]]:
    return [
        line.removeprefix("# test:").split()
        for line in script.read_text().splitlines()
        if line.startswith("# test:")
    ]


def run_part(script: Path, state: Path, link: str | None = None) -> list[ev.Event]:
    for words in instructions(script):
        if words[0] == "truncate-journal":
            journal = journal_path(state)
            journal.write_bytes(journal.read_bytes()[: -int(words[1])])
        else:
            raise ValueError(f"{script}: unknown test instruction {words}")
    profile = load_profile()
    events: list[ev.Event] = []
    replay(load_script(script, profile.geometry), profile, events.append, state, seed=0, link=link)
    return events


def log_text(events: list[ev.Event]) -> str:
    """The table log `bgpi replay` prints for `events`: one JSON line each."""
    return "".join(json.dumps(event.to_json()) + "\n" for event in events)


@pytest.mark.parametrize("name", sorted(scenarios()))
def test_scenario(name, tmp_path):
    for script in scenarios()[name]:
        events = run_part(script, tmp_path)
        expected_path = script.with_name(script.name.removesuffix(".jsonl") + ".log.jsonl")
        text = log_text(events)
        if UPDATE:
            expected_path.write_text(text)
        assert text == expected_path.read_text(), f"{script.name}: the table log differs from {expected_path.name}"


def test_there_are_at_least_thirty_scenarios():
    assert len(scenarios()) >= 30


def test_every_question_the_board_asks_is_shown_in_a_scenario():
    asked = set()
    for path in HERE.glob("*.log.jsonl"):
        for line in path.read_text().splitlines():
            event = json.loads(line)
            if event["event"] == "lights" and "asks" in event:
                asked.add(event["asks"])
    assert asked == set(PROMPTS)
