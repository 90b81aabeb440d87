"""The scenario suite through the link: the same board scripts, with the switches,
buttons and LEDs in the real firmware behind a pty (`bgpi replay --link pty`), give the
very table logs the simulated board gives (tests/scenarios/*.log.jsonl)."""

from __future__ import annotations

import json

import pytest

from tests.shell.test_scenarios import run_part, scenarios


@pytest.mark.parametrize("name", sorted(scenarios()))
def test_scenario_through_the_link(name, tmp_path):
    for script in scenarios()[name]:
        events = run_part(script, tmp_path, link="pty")
        expected_path = script.with_name(script.name.removesuffix(".jsonl") + ".log.jsonl")
        expected = [json.loads(line) for line in expected_path.read_text().splitlines() if line.strip()]
        assert events == expected, f"{script.name}: the table log through the link differs"
