"""The scenario suite through the link: the same board scripts, with the switches,
buttons and LEDs in the real firmware behind a pty (`bgpi replay --link pty`), give the
very table logs the simulated board gives (tests/scenarios/*.log.jsonl)."""

from __future__ import annotations

import pytest

from tests.shell.test_scenarios import log_text, run_part, scenarios


@pytest.mark.parametrize("name", sorted(scenarios()))
def test_scenario_through_the_link(name, tmp_path):
    for script in scenarios()[name]:
        events = run_part(script, tmp_path, link="pty")
        expected_path = script.with_name(script.name.removesuffix(".jsonl") + ".log.jsonl")
        assert log_text(events) == expected_path.read_text(), f"{script.name}: the table log through the link differs"
