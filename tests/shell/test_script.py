"""Board scripts: every kind of line, every rule of order, every way a script is refused."""

from __future__ import annotations

import dataclasses

import pytest

from bgpi.board.profile import Geometry
from bgpi.exc import ScriptError
from bgpi.rules.ids import decode_position_id
from bgpi.rules.position import Position, Side
from bgpi.rules.session import Settings
from bgpi.rules.xgid import read_ids
from bgpi.shell.script import (
    BoardPosition,
    Config,
    FromRemote,
    Hold,
    Lift,
    LinkLine,
    Move,
    Place,
    Script,
    SetDice,
    ShortPress,
    Show,
    Slot,
    StartingBoard,
    Wait,
    format_line,
    load_script,
    parse_script,
)
from bgpi.table import events as ev
from bgpi.table.phases import Link

START_ID = "4HPwATDgc/ABMA"
MATCH_7 = "EQHgACAAGAAA"
"""A match to 7, white 2 black 3, the cube on 2 owned by black."""
MONEY = "MAEAAAAAAAAA"

SPEC_EXAMPLE = """\
{"dice": [3, 1]}
{"press": "white.turn"}
{"move": [8, 5]}
{"move": [6, 5]}
{"press": "white.turn"}
"""

EVERY_KIND = [
    '{"board": "start"}',
    '{"board": "empty"}',
    f'{{"board": "position", "position_id": "{START_ID}", "turn": "white"}}',
    f'{{"board": "position", "position_id": "{START_ID}", "turn": "black", "match_id": "{MATCH_7}"}}',
    '{"config": {"match": 5}}',
    '{"config": {"jacoby": false, "beavers": true, "auto_doubles": 1, "lenient": true}}',
    '{"dice": [6, 6]}',
    '{"lift": 24}',
    '{"lift": "bar:white"}',
    '{"place": "off:black"}',
    '{"move": [13, 7]}',
    '{"move": ["bar:black", 3]}',
    '{"slot": [7, 0, true]}',
    '{"slot": ["bar:white", 3, false]}',
    '{"press": "white.turn"}',
    '{"press": "hint"}',
    '{"hold": "black.cube"}',
    '{"wait": 1.5}',
    '{"wait": 0.001}',
    '{"wait": 2}',
    '{"show": "lights"}',
    '{"show": "state"}',
]


def problems(text: str) -> list[str]:
    with pytest.raises(ScriptError) as caught:
        parse_script(text)
    return caught.value.problems


def problem(text: str) -> str:
    found = problems(text)
    assert len(found) == 1, found
    return found[0]


# -- reading --------------------------------------------------------------------------------


def test_the_spec_example():
    script = parse_script(SPEC_EXAMPLE)
    assert script.board == StartingBoard("start")
    assert dict(script.config) == {}
    assert script.lines == (SetDice(3, 1), ShortPress("white.turn"), Move(8, 5), Move(6, 5),
                            ShortPress("white.turn"))
    assert [line.line for line in script.lines] == [1, 2, 3, 4, 5]


def test_an_empty_script_starts_from_the_starting_position():
    assert parse_script("") == Script(StartingBoard("start"), {}, ())
    assert parse_script("\n# nothing\n") == Script()


def test_comments_and_blank_lines_are_skipped_but_counted():
    script = parse_script('# a comment\n\n   # indented comment\n{"board": "empty"}\n\r\n'
                          '{"lift": 6}\r\n  {"place": 5}  \n')
    assert script.board == StartingBoard("empty") and script.board.line == 4
    assert script.lines == (Lift(6), Place(5))
    assert [line.line for line in script.lines] == [6, 7]


def test_each_line_knows_its_number_but_compares_by_what_it_says():
    first, second = parse_script('{"move": [8, 5]}\n{"move": [8, 5]}').lines
    assert (first.line, second.line) == (1, 2)
    assert first == second == Move(8, 5)


def test_locations_points_as_numbers_others_as_strings():
    script = parse_script('{"move": ["bar:white", 22]}\n{"move": [3, "off:black"]}\n'
                          '{"lift": "bar:black"}\n{"place": "off:white"}')
    assert script.lines == (Move("bar:white", 22), Move(3, "off:black"), Lift("bar:black"),
                            Place("off:white"))


def test_config_lines_merge_and_a_later_key_wins():
    script = parse_script('{"board": "empty"}\n{"config": {"match": 3}}\n'
                          '{"config": {"lenient": true}}\n{"config": {"match": 5}}\n'
                          '{"press": "white.turn"}')
    assert dict(script.config) == {"match": 5, "lenient": True}
    assert script.settings == Settings.match(5)
    assert script.lenient is True


def test_default_settings_are_money_play_and_strict():
    script = parse_script(SPEC_EXAMPLE)
    assert script.settings == Settings()
    assert script.lenient is False


def test_a_practice_position_is_decoded():
    script = parse_script(f'{{"board": "position", "position_id": "{START_ID}", '
                          f'"turn": "black"}}')
    board = script.board
    assert isinstance(board, BoardPosition)
    assert (board.position_id, board.turn, board.match_id, board.match) == (
        START_ID, Side.BLACK, None, None)
    assert board.position == Position.start()
    assert decode_position_id(START_ID) == (board.position.white, board.position.black)


def test_a_practice_match_sets_the_match_length():
    script = parse_script(f'{{"board": "position", "position_id": "{START_ID}", '
                          f'"turn": "white", "match_id": "{MATCH_7}"}}')
    key = script.board.match
    assert (key.match_length, key.score, key.cube_value, key.cube_owner) == (
        7, (2, 3), 2, Side.BLACK)
    assert script.settings == Settings.match(7)


def test_a_config_may_repeat_the_match_length_of_the_match_id():
    script = parse_script(f'{{"board": "position", "position_id": "{START_ID}", '
                          f'"turn": "white", "match_id": "{MATCH_7}"}}\n'
                          '{"config": {"match": 7}}')
    assert script.settings == Settings.match(7)


def test_waits_are_floats():
    (wait,) = parse_script('{"wait": 2}').lines
    assert wait == Wait(2.0) and type(wait.seconds) is float


# -- writing --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", EVERY_KIND)
def test_format_line_writes_each_line_back_as_it_was_read(text):
    script = parse_script(text)
    if script.lines:
        (line,) = script.lines
    elif script.config:
        line = Config(script.config)
    else:
        line = script.board
    assert format_line(line) == text


def test_a_whole_script_round_trips():
    lines = EVERY_KIND[6:]
    script = parse_script("\n".join(lines))
    assert [format_line(line) for line in script.lines] == lines
    assert parse_script("\n".join(format_line(line) for line in script.lines)) == script


def test_a_constructed_line_formats():
    assert format_line(StartingBoard()) == '{"board": "start"}'
    assert format_line(BoardPosition(START_ID, Side.WHITE, MONEY)) == (
        f'{{"board": "position", "position_id": "{START_ID}", "turn": "white", '
        f'"match_id": "{MONEY}"}}')
    assert format_line(Slot("bar:black", 0, True)) == '{"slot": ["bar:black", 0, true]}'
    assert format_line(Hold("hint")) == '{"hold": "hint"}'
    assert format_line(Show("state")) == '{"show": "state"}'


def test_format_line_refuses_what_is_not_a_line():
    with pytest.raises(TypeError):
        format_line("lift 6")  # type: ignore[arg-type]


# -- lines are values -----------------------------------------------------------------------


def test_lines_are_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Move(8, 5).source = 9  # type: ignore[misc]
    config = Config({"match": 5})
    with pytest.raises(TypeError):
        config.settings["match"] = 7  # type: ignore[index]
    script = parse_script('{"config": {"match": 5}}')
    with pytest.raises(TypeError):
        script.config["match"] = 7  # type: ignore[index]


def test_a_config_keeps_its_own_copy():
    settings = {"match": 5}
    config = Config(settings)
    settings["match"] = 9
    assert config.settings["match"] == 5


@pytest.mark.parametrize("build, message", [
    (lambda: Lift(0), "there is no point 0"),
    (lambda: Lift(25), "there is no point 25"),
    (lambda: Place("7"), 'a point is written as a JSON number: 7, not "7"'),
    (lambda: Move(8, "bar"), 'unknown location "bar"'),
    (lambda: Lift(True), "unknown location true"),
    (lambda: SetDice(0, 7), "a die shows 1 to 6, not 0; a die shows 1 to 6, not 7"),
    (lambda: SetDice(3.0, 1), "a die shows 1 to 6, not 3.0"),
    (lambda: Slot(7, -1, True), "a switch index is a whole number from 0"),
    (lambda: Slot(7, 0, 1), "a switch is closed (true) or open (false), not 1"),
    (lambda: ShortPress("white.roll"), 'unknown button "white.roll"'),
    (lambda: Hold("turn"), 'unknown button "turn"'),
    (lambda: Wait(-1), "a wait is a number of seconds, 0 to 3600, not -1"),
    (lambda: Wait(float("inf")), "a wait is a number of seconds, 0 to 3600"),
    (lambda: Wait(float("nan")), "a wait is a number of seconds, 0 to 3600"),
    (lambda: Wait(1e308), "a wait is a number of seconds, 0 to 3600, not 1e+308"),
    (lambda: Show("board"), 'cannot show "board"'),
    (lambda: StartingBoard("position"), 'unknown board "position"'),
    (lambda: BoardPosition("AAAA", Side.WHITE), "position ID 'AAAA' has 4 characters"),
    (lambda: BoardPosition(START_ID, "white"), "turn 'white': expected Side.WHITE"),
    (lambda: Config({"speed": 2}), 'unknown config key "speed"'),
])
def test_building_a_line_validates_it(build, message):
    with pytest.raises(ValueError) as caught:
        build()
    assert message in str(caught.value)


# -- refusing ------------------------------------------------------------------------------


def test_script_error_is_a_value_error_listing_every_problem_with_its_line():
    text = ('{"dice": [3, 7]}\n'
            '{"press": "white.roll"}\n'
            '{"move": [8, 5]\n'
            '{"lift": 6}\n'
            '{"config": {"match": 5}}\n')
    with pytest.raises(ValueError) as caught:
        parse_script(text, "demo.jsonl")
    error = caught.value
    assert isinstance(error, ScriptError) and error.source == "demo.jsonl"
    assert error.problems == [
        "line 1: a die shows 1 to 6, not 7",
        ('line 2: unknown button "white.roll": expected one of "white.turn", "white.cube", '
        '"black.turn", "black.cube", "hint"'),
        "line 3: not JSON: Expecting ',' delimiter (column 16)",
        'line 5: "config" must come before any line other than "board" (line 1 is a "dice" line)',
    ]
    assert str(error) == "\n".join(["bad board script demo.jsonl:", *error.problems])


@pytest.mark.parametrize("text, message", [
    ("{move: [8, 5]}", "line 1: not JSON: Expecting property name enclosed in double quotes"),
    ('{"wait": NaN}', "line 1: not JSON: NaN is not a number JSON allows"),
    ('{"wait": Infinity}', "line 1: not JSON: Infinity is not a number JSON allows"),
    ("[8, 5]", 'line 1: expected a JSON object such as {"move": [8, 5]}, got [8, 5]'),
    ("{}", 'line 1: unknown line with no key: expected one of "board", "config"'),
    ('{"mvoe": [8, 5]}', 'line 1: unknown line with key "mvoe": expected one of "board"'),
    ('{"move": [8, 5], "press": "hint"}',
     'line 1: one line does one thing, this one has "move", "press"'),
    ('{"move": [8, 5], "why": "a test"}', 'line 1: unexpected key "why" in a "move" line'),
    ('{"board": "start", "turn": "white"}', 'line 1: unexpected key "turn" in a "board" line'),
    ('{"board": "full"}', ('line 1: unknown board "full": expected one of "start", "empty", '
                          '"position"')),
    ('{"lift": "7"}', 'line 1: a point is written as a JSON number: 7, not "7"'),
    ('{"move": ["8", 5]}', 'line 1: a point is written as a JSON number: 8, not "8"'),
    ('{"place": 7.0}', "line 1: unknown location 7.0: expected a point 1..24 (a number)"),
    ('{"place": 25}', "line 1: there is no point 25: points are 1 to 24"),
    ('{"lift": "bar"}', ('line 1: unknown location "bar": expected a point 1..24 (a number) '
                        'or one of "bar:white", "bar:black", "off:white", "off:black"')),
    ('{"move": [8]}', "line 1: expected [FROM, TO], got [8]"),
    ('{"move": 8}', "line 1: expected [FROM, TO], got 8"),
    ('{"dice": [3, 1, 2]}', "line 1: expected [a, b], got [3, 1, 2]"),
    ('{"dice": [7, 1]}', "line 1: a die shows 1 to 6, not 7"),
    ('{"dice": [true, 1]}', "line 1: a die shows 1 to 6, not true"),
    ('{"slot": [7, 0]}', "line 1: expected [LOC, i, true|false], got [7, 0]"),
    ('{"slot": [7, 0, "on"]}', 'line 1: a switch is closed (true) or open (false), not "on"'),
    ('{"slot": [7, 1.5, true]}', ("line 1: a switch index is a whole number from 0 "
                                 "(outermost), not 1.5")),
    ('{"press": "white.roll"}', ('line 1: unknown button "white.roll": expected one of '
                                '"white.turn", "white.cube", "black.turn", "black.cube", "hint"')),
    ('{"hold": ["hint"]}', 'line 1: unknown button ["hint"]'),
    ('{"wait": -0.5}', "line 1: a wait is a number of seconds, 0 to 3600, not -0.5"),
    ('{"wait": "1"}', 'line 1: a wait is a number of seconds, 0 to 3600, not "1"'),
    ('{"show": "board"}', 'line 1: cannot show "board": expected one of "lights", "state"'),
    ('{"config": 5}', 'line 1: expected an object of settings such as {"match": 5}, got 5'),
    ('{"config": {"speed": 2}}', ('line 1: unknown config key "speed": expected one of '
                                 '"match", "jacoby", "beavers", "auto_doubles", "cube_cap", "lenient"')),
    ('{"config": {"match": "5"}}', "line 1: match: expected a whole number 0 or more, not '5'"),
    ('{"config": {"match": 65}}', "line 1: match: at most 64, not 65"),
    ('{"config": {"auto_doubles": 1000000000000000000}}', "line 1: auto_doubles: at most 8, not 1000000000000000000"),
    ('{"wait": 1e300}', "line 1: a wait is a number of seconds, 0 to 3600, not 1e+300"),
    ('{"wait": 3600.5}', "line 1: a wait is a number of seconds, 0 to 3600, not 3600.5"),
    ('{"wait": ' + "[" * 100_000 + '}', "line 1: not JSON this board reads: nested too deeply"),
    ('{"config": {"jacoby": 1}}', "line 1: jacoby: expected true or false, not 1"),
    ('{"config": {"auto_doubles": -1}}', "line 1: auto_doubles: expected a whole number"),
    ('{"config": {"lenient": "yes"}}', 'line 1: lenient: expected true or false, not "yes"'),
    ('{"config": {"match": 5, "jacoby": true}}',
     "line 1: jacoby: only for money play, not in a match"),
])
def test_each_fault_is_named(text, message):
    assert problem(text).startswith(message)


def test_every_fault_of_one_config_line_is_named():
    assert problem('{"config": {"speed": 2, "match": 5, "jacoby": true, "lenient": 0}}') == (
        'line 1: unknown config key "speed": expected one of "match", "jacoby", "beavers", '
        '"auto_doubles", "cube_cap", "lenient", "opponent_side", "remote", "chouette", "pairs", "engine", "opponent", '
        '"hint_level", "coach"; '
        "lenient: expected true or false, not 0; "
        "jacoby: only for money play, not in a match")


def test_config_lines_are_checked_together():
    assert problem('{"config": {"beavers": true}}\n# later\n{"config": {"match": 3}}') == (
        "line 3: the settings together: beavers: only for money play, not in a match")


def test_a_config_contradicting_the_match_id_is_refused():
    position = (f'{{"board": "position", "position_id": "{START_ID}", "turn": "white", '
                f'"match_id": "{MATCH_7}"}}\n')
    assert problem(position + '{"config": {"match": 5}}') == (
        "line 2: match 5 contradicts the board's match ID (line 1), which says a match to 7")
    assert problem(position + '{"config": {"jacoby": true}}') == (
        "line 2: the settings together: jacoby: only for money play, not in a match")
    money = position.replace(MATCH_7, MONEY)
    assert problem(money + '{"config": {"match": 5}}').endswith("which says money play")


def test_board_must_be_the_first_line():
    assert problem('# fine\n{"dice": [3, 1]}\n{"board": "empty"}') == (
        'line 3: "board" must be the first line (line 2 is a "dice" line)')
    assert problem('{"board": "empty"}\n{"board": "start"}') == (
        'line 2: "board" must be the first line (line 1 is a "board" line)')
    assert problem('{"config": {"match": 3}}\n{"board": "empty"}') == (
        'line 2: "board" must be the first line (line 1 is a "config" line)')


def test_config_must_come_before_any_other_line_but_board():
    assert problem('{"board": "empty"}\n{"press": "white.turn"}\n{"wait": 1}\n'
                   '{"config": {"match": 3}}') == (
        'line 4: "config" must come before any line other than "board" '
        '(line 2 is a "press" line)')


@pytest.mark.parametrize("written", [
    "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:1:2:0:5:10",
    "-b----E-C---eE---c-e----B-:1:-1:-1:00:1:2:0:5:10",  # the key says it is an XGID
])
def test_an_xgid_practice_position_is_the_position_bgpi_run_reads_from_it(written):
    board = parse_script(f'{{"board": "position", "xgid": "{written}"}}').board
    ids = read_ids("XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:1:2:0:5:10")
    assert isinstance(board, BoardPosition)
    assert (board.position_id, board.turn, board.match_id) == (ids.position_id, Side.BLACK, ids.match_id)
    assert board.match == ids.key and board.position == Position.start()


def test_practice_position_faults():
    assert problem('{"board": "position", "turn": "white"}') == (
        'line 1: "position_id": expected a gnubg Position ID (a string), got nothing')
    assert problem(f'{{"board": "position", "position_id": "{START_ID}"}}') == (
        'line 1: "turn": expected "white" or "black", got "nothing"')
    assert problem(f'{{"board": "position", "position_id": "{START_ID}", "turn": "White", '
                   '"match_id": 7}') == (
        'line 1: "turn": expected "white" or "black", got "White"; '
        '"match_id": expected a gnubg Match ID (a string), got 7')
    assert problem('{"board": "position", "position_id": "4HPwATDgc/ABM!", "turn": "white", '
                   '"match_id": "EQHgACAAGAA"}') == (
        "line 1: position ID '4HPwATDgc/ABM!': character '!' at position 14 is not base64 "
        "(A-Z, a-z, 0-9, +, /); match ID 'EQHgACAAGAA' has 11 characters, expected 12")


def test_problems_come_in_file_order():
    found = problems('{"lift": 0}\n{"config": {"beavers": true}}\n{"lift": 30}')
    assert [text.split(":")[0] for text in found] == ["line 1", "line 2", "line 3"]


# -- the board's switches -------------------------------------------------------------------


def test_slot_lines_checked_against_the_board():
    text = ('{"slot": [7, 4, true]}\n{"slot": [7, 5, true]}\n{"slot": ["bar:white", 4, true]}\n'
            '{"slot": ["off:white", 0, true]}')
    with pytest.raises(ScriptError) as caught:
        parse_script(text, geometry=Geometry())
    assert caught.value.problems == [
        "line 2: point 7 has switches 0 to 4 on this board, not 5",
        "line 3: bar:white has switches 0 to 3 on this board, not 4",
        "line 4: off:white has no switches on this board",
    ]
    sensed = Geometry(trays_sensed=True)
    assert len(parse_script(text.split("\n")[-1], geometry=sensed).lines) == 1
    assert len(parse_script(text).lines) == 4


# -- files ----------------------------------------------------------------------------------


def test_load_script(tmp_path):
    path = tmp_path / "opening.jsonl"
    path.write_text(SPEC_EXAMPLE, encoding="utf-8")
    assert load_script(path) == parse_script(SPEC_EXAMPLE)


def test_load_script_accepts_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes("\ufeff".encode() + SPEC_EXAMPLE.encode())
    assert load_script(str(path)).lines[0] == SetDice(3, 1)


def test_load_script_names_the_file_in_its_errors(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"lift": 6}\n{"lift": 26}\n', encoding="utf-8")
    with pytest.raises(ScriptError) as caught:
        load_script(path)
    assert str(caught.value) == (f"bad board script {path}:\n"
                                 "line 2: there is no point 26: points are 1 to 24")


def test_a_missing_file_is_a_script_error(tmp_path):
    path = tmp_path / "missing.jsonl"
    with pytest.raises(ScriptError) as caught:
        load_script(path)
    assert caught.value.problems == ["cannot read it: No such file or directory"]
    with pytest.raises(ScriptError, match="cannot read it"):
        load_script(tmp_path)


def test_a_file_that_is_not_utf8_is_a_script_error(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"lift": 6}\n# caf\xe9\n')
    with pytest.raises(ScriptError) as caught:
        load_script(path)
    assert caught.value.problems == ["line 2: not UTF-8 text (byte 0xe9)"]


def test_remote_lines_give_the_other_boards_events_and_the_link():
    script = parse_script('{"config": {"remote": "black"}}\n{"remote": "roll"}\n'
                          '{"remote": {"event": "take", "player": "black", "cube": 2}}\n{"link": "away"}')
    assert script.config == {"remote": "black"}
    assert script.lines == (FromRemote("roll"), FromRemote(ev.Take(Side.BLACK, 2)), LinkLine(Link.AWAY))
    assert problem('{"remote": 3}').startswith('line 1: expected "roll" or a table-log event')
    assert problem('{"remote": {"event": "take"}}').startswith("line 1: a malformed take event")
    assert problem('{"link": "gone"}').startswith('line 1: unknown link "gone": expected one of "connecting"')
    assert problem('{"config": {"remote": "both"}}') == 'line 1: remote: expected one of "white", "black", not "both"'
    assert problem('{"config": {"remote": "black", "opponent": "gnubg"}}') == (
        "line 1: remote and opponent: a remote game's other side is the other board, not the computer")
    assert [format_line(line) for line in script.lines] == [
        '{"remote": "roll"}', '{"remote": {"event": "take", "player": "black", "cube": 2}}', '{"link": "away"}']
