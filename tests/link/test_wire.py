"""The host's frame codec: what it accepts, what it rejects and counts, and that it
agrees with the firmware's codec both ways."""

from __future__ import annotations

import sys
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgpi.link.simpico import FIRMWARE
from bgpi.link.wire import MAX_LINE, Receiver, WireFrame, encode


@pytest.fixture(scope="module")
def firmware_wire():
    """The firmware's own codec module (plain Python, importable here too)."""
    sys.path.insert(0, str(FIRMWARE))
    try:
        from bgfw import wire
        yield wire
    finally:
        sys.path.remove(str(FIRMWARE))


def test_a_good_frame_is_accepted() -> None:
    receiver = Receiver()
    assert receiver.feed(encode(3, "SW", "00ff") + encode(4, "HB")) == [WireFrame(3, "SW", "00ff"), WireFrame(4, "HB")]
    assert receiver.counts["frames"] == 2


@pytest.mark.parametrize(("data", "reason"), [
    (encode(1, "SW", "00ff").replace(b"00ff", b"00fe"), "bad_crc"),  # corrupted
    (encode(1, "SW", "00ff")[:-5] + b"\n", "malformed"),  # truncated
    (b"1 SW 00ff\n", "malformed"),  # no CRC
    (b"1 SW \xc3\xa9*%08x\n" % zlib.crc32(b"1 SW \xc3\xa9"), "malformed"),  # not ASCII
    (b"x" * (MAX_LINE + 1) + b"\n", "oversized"),
])
def test_a_damaged_frame_is_rejected_and_counted(data: bytes, reason: str) -> None:
    receiver = Receiver()
    assert receiver.feed(data) == []
    assert receiver.counts[reason] == 1
    assert receiver.feed(encode(2, "HB")) == [WireFrame(2, "HB")]  # and the next one is fine


def test_duplicated_and_out_of_order_frames_are_rejected_and_gaps_counted() -> None:
    receiver = Receiver()
    frames = receiver.feed(encode(5, "HB") + encode(5, "HB") + encode(4, "HB") + encode(8, "HB"))
    assert [frame.seq for frame in frames] == [5, 8]
    assert (receiver.counts["duplicate"], receiver.counts["out_of_order"], receiver.counts["lost"]) == (1, 1, 2)
    assert receiver.reached(7) and receiver.reached(8) and not receiver.reached(9)


def test_hello_restarts_the_sequence() -> None:
    receiver = Receiver()
    assert len(receiver.feed(encode(900, "HB") + encode(0, "HELLO", "proto=1") + encode(1, "HB"))) == 3


def test_sequence_numbers_wrap() -> None:
    receiver = Receiver()
    assert len(receiver.feed(encode(65535, "HB") + encode(0, "HB"))) == 2


def test_a_frame_split_across_reads_arrives_whole() -> None:
    data = encode(1, "LED", "0 ff0000")
    for cut in range(len(data)):
        receiver = Receiver()
        assert receiver.feed(data[:cut]) == []
        assert receiver.feed(data[cut:]) == [WireFrame(1, "LED", "0 ff0000")]


def test_the_two_codecs_agree(firmware_wire) -> None:
    for seq, kind, args in ((0, "HELLO", "fw=1.0.0 proto=1"), (65535, "SW", "0" * 40), (7, "SHOW", "")):
        assert firmware_wire.encode(seq, kind, args) == encode(seq, kind, args)
        assert firmware_wire.Receiver().feed(encode(seq, kind, args)) == [(seq, kind, args)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=80), st.sampled_from([b"\n", b"*", encode(1, "HB")])), max_size=30))
def test_noise_never_raises_on_either_side(firmware_wire, pieces: list[bytes]) -> None:
    data = b"".join(pieces)
    host, firmware = Receiver(), firmware_wire.Receiver()
    assert [(f.seq, f.kind, f.args) for f in host.feed(data)] == firmware.feed(data)
    assert {k: v for k, v in host.counts.items() if v} == {k: v for k, v in firmware.counts.items() if v}
