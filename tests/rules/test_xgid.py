"""eXtreme Gammon's XGID: encode, decode, orientation (bottom player = white)."""

import random
import re
import shutil
import subprocess

import pytest

from bgpi.exc import MatchIdError, XgidError
from bgpi.rules.ids import position_from_id, position_id
from bgpi.rules.position import Position, Side
from bgpi.rules.xgid import XGID, CubeAction, PositionIds, decode_xgid, read_ids, xgid
from tests.rules.strategies import scatter

WHITE, BLACK = Side.WHITE, Side.BLACK
START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
# From an XG export: the bottom player, 0-1 down in a 5-point match, rolled 52 and
# XG's best play was Bar/20 8/6.
ENTERING = "XGID=-aa--CCBCa--ca---a-c-bb-CA:0:0:1:52:0:1:0:5:10"


def test_the_starting_position():
    record = decode_xgid(START)
    assert record == XGID(position=Position.start())
    assert (record.turn, record.dice, record.cube_value, record.cube_owner) == (
        WHITE,
        (0, 0),
        1,
        None,
    )
    assert (record.match_length, record.max_cube, record.jacoby, record.beavers) == (
        0,
        1024,
        False,
        False,
    )
    assert xgid(record) == START


def test_the_bottom_player_is_white_and_xg_points_are_absolute_points():
    position = decode_xgid(ENTERING).position
    assert position.on_bar(WHITE) == 1  # the 'A' in the last character: "Bar/20"
    assert position.at(8) == (WHITE, 3)  # 'C' at 8: "8/6"
    assert position.at(20) == (None, 0)  # where bar/20 lands
    assert position.at(1) == (BLACK, 1)  # 'a' at 1 is black's own 24-point
    assert position.black[23] == 1
    assert position.at(2) == (BLACK, 1)
    assert position.on_bar(BLACK) == 0


def test_the_match_fields():
    record = decode_xgid(ENTERING)
    assert (record.turn, record.dice, record.score, record.match_length) == (
        WHITE,
        (5, 2),
        (0, 1),
        5,
    )
    assert not record.crawford
    assert xgid(record) == ENTERING


def test_without_the_prefix():
    assert decode_xgid(START.removeprefix("XGID=")) == decode_xgid(START)


@pytest.mark.parametrize(
    "text",
    [
        START,
        ENTERING,
        "XGID=-b----E-C---eE---c-e----B-:1:1:-1:00:3:2:1:7:10",  # Crawford game, white owns a 2-cube
        "XGID=-b----E-C---eE---c-e----B-:2:1:1:D:0:0:3:0:8",  # white redoubled, Jacoby, beavers
        "XGID=-b----E-C---eE---c-e----B-:1:0:-1:B:0:0:2:0:10",
        "XGID=-b----E-C---eE---c-e----B-:1:0:1:R:0:0:0:0:10",
        "XGID=a---------------------N--A:0:0:-1:61:4:2:0:0:10",  # both on the bar, money score
    ],
)
def test_round_trip_of_xg_text(text):
    assert xgid(decode_xgid(text)) == text


def test_the_fields_xg_packs_together():
    crawford = decode_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:-1:00:3:2:1:7:10")
    assert (crawford.cube_value, crawford.cube_owner, crawford.turn) == (
        2,
        WHITE,
        BLACK,
    )
    assert crawford.score == (3, 2) and crawford.crawford
    money = decode_xgid("XGID=-b----E-C---eE---c-e----B-:2:1:1:D:0:0:3:0:8")
    assert (money.cube_value, money.cube_owner, money.cube_action, money.max_cube) == (
        4,
        WHITE,
        CubeAction.DOUBLED,
        256,
    )
    assert money.jacoby and money.beavers and not money.crawford


@pytest.mark.parametrize(
    ("action", "turn", "to_act"),
    [
        ("00", 1, WHITE),  # white on roll
        ("D", 1, BLACK),  # white doubled: black must answer
        ("D", -1, WHITE),
        ("B", 1, WHITE),  # white doubled, black beavered: white must answer
        ("R", 1, BLACK),  # ... and white raccooned: black must answer
    ],
)
def test_the_turn_field_is_the_player_whose_turn_it_is(action, turn, to_act):
    record = decode_xgid(f"XGID=-b----E-C---eE---c-e----B-:1:0:{turn}:{action}:0:0:0:0:10")
    assert record.turn is (WHITE if turn == 1 else BLACK)
    assert record.to_act is to_act


GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")


@pytest.mark.skipif(GNUBG is None, reason="Debian's gnubg is not installed (.ci/run installs it)")
@pytest.mark.parametrize("turn", [1, -1])
def test_gnubg_puts_the_doubler_on_roll(tmp_path, turn):
    board = ENTERING.removeprefix("XGID=").split(":")[0]
    text = f"XGID={board}:1:0:{turn}:D:0:0:0:0:10"
    done = subprocess.run(
        [GNUBG, "-t", "-q", "-r"],
        input=f"set xgid {text}\nshow board\n", capture_output=True, text=True,
        timeout=20, check=False, cwd=tmp_path,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "C"},
    )
    found = re.findall(r"Position ID: (\S+)", done.stdout)
    assert found, done.stdout + done.stderr
    record = decode_xgid(text)
    # gnubg steps back to the offer: the position is encoded for the doubler on roll
    assert found[-1] == position_id(record.position, record.turn)
    assert found[-1] != position_id(record.position, record.to_act)


def test_round_trip_of_random_positions_matches_gnubg_ids():
    rng = random.Random(3)
    for _ in range(300):
        turn = rng.choice(list(Side))
        record = XGID(position=scatter(rng), turn=turn)
        decoded = decode_xgid(xgid(record))
        assert decoded == record
        # the same position reaches gnubg intact
        assert (
            position_from_id(position_id(decoded.position, turn), turn)
            == record.position
        )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",
            "has 9 fields, expected 10",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
            "has 25 characters, expected 26",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10",
            "turn 0 is not -1 or 1",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10",
            "cube position 2 is not -1 or 0 or 1",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:16:0:1:00:0:0:0:0:10",
            "cube value \\(log2\\) 16",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10",
            "cube value \\(log2\\) 'x' is not an",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:+1:00:0:0:0:0:10",
            "turn '\\+1' is not an integer",
        ),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:0:10", "dice '70' are not"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:X:0:0:0:0:10", "dice 'X' are not"),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:5:0:0:5:10",
            "white's score 5 is outside 0 to 4",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:-1:0:0:10",
            "top score -1 is not at least 0",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:5:10",
            "flags 2 is not from 0 to 1",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10",
            "flags 4 is not from 0 to 3",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:4:0:1:00:0:0:0:0:3",
            "cube value 16 exceeds the maximum",
        ),
        (
            "XGID=-b----E-C---eE---c-e----X-:0:0:1:00:0:0:0:0:10",
            "'X' at 24 is not '-', A-P or a-p",
        ),
        (
            "XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
            "character 0 is black's bar",
        ),
        (
            "XGID=-b----E-C---eE---c-e----Ba:0:0:1:00:0:0:0:0:10",
            "character 25 is white's bar",
        ),
        (
            "XGID=-b----E-C---eE---c-e----C-:0:0:1:00:0:0:0:0:10",
            "white has 16 checkers",
        ),
        (
            "XGID=-p----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
            "black has 29 checkers",
        ),
    ],
)
def test_malformed_xgids_are_refused(text, message):
    with pytest.raises(ValueError, match=message):
        decode_xgid(text)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"dice": (3, 3), "cube_action": CubeAction.DOUBLED},
            "cannot be rolled during a cube action",
        ),
        ({"dice": (0, 7)}, "two dice of 1 to 6"),
        ({"match_length": 5, "jacoby": True}, "money play only"),
        ({"crawford": True}, "no Crawford game in money play"),
        ({"cube_value": 6}, "cube value 6 is not a power of two"),
    ],
)
def test_inconsistent_records_are_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        XGID(position=Position.start(), **fields)


# -- a position as a user writes it ----------------------------------------------------------


@pytest.mark.parametrize(("text", "ids"), [
    ("4HPwATDgc/ABMA", PositionIds("4HPwATDgc/ABMA")),
    ("4HPwATDgc/ABMA:MIEFAAAAAAAA", PositionIds("4HPwATDgc/ABMA", "MIEFAAAAAAAA")),
    ("4HPwATDgc/ABMA:", PositionIds("4HPwATDgc/ABMA")),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:3:0:10",  # money play, Jacoby and beavers
     PositionIds("4HPwATDgc/ABMA", "MIEFAAAAAAAA", {"jacoby": True, "beavers": True})),
    ("xgid=-b----E-C---eE---c-e----B-:1:-1:-1:00:1:2:0:5:10",  # as decode_xgid reads it
     PositionIds("4HPwATDgc/ABMA", "UQmgABAAEAAA")),
])
def test_read_ids_reads_each_way_a_position_is_written(text, ids):
    assert read_ids(text) == ids


def test_the_ids_of_an_xgid_are_its_position_turn_and_match():
    text = "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:D:1:2:0:5:10"  # black doubled to 4 in a match to 5
    record, ids = decode_xgid(text), read_ids(text)
    assert ids.position_id == position_id(record.position, record.turn) and not ids.money
    key = ids.key
    assert key is not None and key.dice_owner is Side.BLACK and key.turn is Side.WHITE and key.double_offered
    assert (key.cube_value, key.cube_owner, key.score, key.match_length) == (2, Side.BLACK, (1, 2), 5)


def test_read_ids_leaves_the_ids_to_be_decoded_where_they_are_used():
    ids = read_ids("nonsense:garbage")
    assert ids == PositionIds("nonsense", "garbage")
    with pytest.raises(MatchIdError, match="garbage"):
        ids.key  # noqa: B018 (decoding is the point)
    with pytest.raises(XgidError, match="expected 10"):
        read_ids("XGID=-b----E:0")
