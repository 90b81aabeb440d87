"""The topics of a remote game: built and read in one place (`bgpi.remote.topics`)."""

from __future__ import annotations

import pytest

from bgpi.exc import TopicError
from bgpi.remote.topics import Channel, Topic, both_sides
from bgpi.rules.position import Side


@pytest.mark.parametrize("channel", list(Channel))
@pytest.mark.parametrize("side", list(Side))
def test_every_topic_reads_back_as_itself(side, channel):
    topic = Topic("club_7-b", side, channel)
    assert str(topic) == f"bgpi/v1/club_7-b/{side.label}/{channel.value}"
    assert Topic.parse(str(topic)) == topic


def test_a_filter_of_both_sides_matches_each_sides_topic():
    assert both_sides("g1", Channel.LOG) == "bgpi/v1/g1/+/log"


@pytest.mark.parametrize(("text", "line"), [
    ("bgpi/v1/g1/white", "'bgpi/v1/g1/white' is no topic bgpi/v1/<game>/<side>/<channel>"),
    ("bgpi/v1/g1/white/msg/more", "'bgpi/v1/g1/white/msg/more' is no topic bgpi/v1/<game>/<side>/<channel>"),
    ("bgpi/v2/g1/white/msg", "'bgpi/v2/g1/white/msg' is no topic bgpi/v1/<game>/<side>/<channel>"),
    ("bgpi/v1/g 1/white/msg", "'bgpi/v1/g 1/white/msg': 'g 1' is no game ID"),
    ("bgpi/v1//white/msg", "'bgpi/v1//white/msg': '' is no game ID"),
    ("bgpi/v1/g1/White/msg", "'bgpi/v1/g1/White/msg': 'White' is no side"),
    ("bgpi/v1/g1/white/chat", "'bgpi/v1/g1/white/chat': 'chat' is no channel (msg, presence, state, log)"),
])
def test_anything_else_is_one_line(text, line):
    with pytest.raises(TopicError) as refused:
        Topic.parse(text)
    assert str(refused.value) == line


def test_a_long_topic_is_cut_short_in_its_line():
    with pytest.raises(TopicError, match=r"^'bgpi/v1/g1/white/msg/x{99}' is no topic"):
        Topic.parse("bgpi/v1/g1/white/msg/" + "x" * 1000)
