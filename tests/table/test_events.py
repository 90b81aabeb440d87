"""The table log's events as values: the JSON form is the log's, byte for byte."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bgpi.exc import EventError
from bgpi.table import events as ev

LOGS = sorted((Path(__file__).parents[1] / "scenarios").glob("*.log.jsonl"))


@pytest.mark.parametrize("log", LOGS, ids=lambda path: path.name)
def test_every_event_of_a_table_log_reads_back_to_the_same_line(log):
    for line in log.read_text().splitlines():
        event = ev.parse(json.loads(line))
        assert json.dumps(event.to_json()) == line


def test_a_kind_it_does_not_know_is_kept_and_ignored():
    event = ev.parse({"event": "from the future", "x": 1})
    assert isinstance(event, ev.Unknown) and event.to_json() == {"event": "from the future", "x": 1}


def test_keys_it_does_not_know_are_allowed():
    assert ev.parse({"event": "restored", "later": True}) == ev.Restored()


@pytest.mark.parametrize("data, says", [
    ([1], "not a table-log event"),
    ({"event": "play"}, "a malformed play event (missing 'player')"),
    ({"event": "roll", "player": "red", "dice": [1, 2]}, "unknown side 'red'"),
    ({"event": "take", "player": "white", "cube": True}, "a malformed take event"),
])
def test_a_malformed_event_raises_event_error(data, says):
    with pytest.raises(EventError, match=re.escape(says)):
        ev.parse(data)
