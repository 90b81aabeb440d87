"""A whole match through the page, with the mouse only (issue 19): Playwright on Debian's chromium.

The dice are fixed with the board script's ``dice`` lines (the only thing sent past the
page, as a test harness's loaded dice); every press and every checker moved is a click or
a drag on the page.  Screenshots at 1280x800 and 390x844 go to `ARTIFACTS` for people to
look at.
"""

from __future__ import annotations

import pytest

from bgpi.board.locations import bar, location_of
from bgpi.rules import Dice, Side, legal_plays, position_from_id
from tests.web.conftest import CHROMIUM, start_live
from tests.web.test_page import ARTIFACTS, centre, wait_for_text

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")
pytestmark = pytest.mark.skipif(not __import__("shutil").which(CHROMIUM),
                                reason="Debian's chromium is not installed (apt-get install chromium)")

BEAR_OFF = "BQBAIAQAAAAAAA"
"""White on roll with two checkers left (on its 6- and 2-points), 13 borne off; black has a
blot on white's 4-point and two checkers on its own 1- and 2-points, 12 borne off."""

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def open_page(browser, live, viewport, touch: bool = False):
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live.url)
    page.wait_for_selector("#button-white-turn")
    return context, page, errors


@pytest.fixture
def match(browser, tmp_path):
    live, close = start_live(tmp_path, config={"match": 3}, position=BEAR_OFF)
    context, page, errors = open_page(browser, live, DESKTOP)
    yield page, live
    context.close()
    close()
    assert errors == []


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


def view(page, key: str):
    return page.evaluate(f"() => view[{key!r}]")


def press(page, button: str) -> None:
    page.click(f"#button-{button.replace('.', '-')}")


def spot(page, loc: str) -> tuple[float, float]:
    """The middle of location `loc` on screen (a point, a bar half, a tray)."""
    return tuple(page.evaluate("""loc => {
      const p = place(loc);
      const at = new DOMPoint(p.x + p.w / 2, p.y + p.h / 2).matrixTransform(board.getScreenCTM());
      return [at.x, at.y];
    }""", loc))


def drag(page, source: str, target: str) -> None:
    """Drag the top checker of `source` (a point, a bar half or a tray) onto `target`."""
    page.mouse.move(*centre(page, f'[data-loc="{source}"]:is(circle.checker, rect.slab)'))
    page.mouse.down()
    page.mouse.move(*spot(page, target), steps=5)
    page.mouse.up()
    settle(page)


def settle(page) -> None:
    """Wait until the board has answered every request of the page."""
    page.wait_for_function("() => unanswered === 0")


def wait_words(page, text: str) -> None:
    wait_for_text(page, "#words", text)


class Mouse:
    """Hands at the page with a mouse: drags the checkers, clicks the buttons."""

    def __init__(self, page) -> None:
        self.page = page

    def move(self, source: str, target: str) -> None:
        drag(self.page, source, target)

    def press(self, button: str) -> None:
        press(self.page, button)

    def click(self, selector: str) -> None:
        self.page.click(selector)


def play_by_the_rules(page, side: str, hands=None) -> None:
    """Play the roll on the board as a person would: decide a legal play (the first the
    rules list), move its checkers one step at a time, each hit blot to the bar, commit
    (`hands`: how, `Mouse` by default)."""
    hands = hands or Mouse(page)
    mover = Side.parse(side)
    position = position_from_id(view(page, "position_id"), mover)
    first, second = view(page, "dice")
    plays = legal_plays(position, mover, Dice(first, second))
    steps = plays[0].steps if plays else ()
    for step in steps:
        target = location_of(mover, step.destination)
        hands.move(str(location_of(mover, step.source)), str(target))
        if step.hit:
            hands.move(str(target), bar(mover.opponent))
    if not steps:
        page.wait_for_timeout(500)  # a person looks at the dice before passing (a quicker press is a bounce)
    hands.press(f"{side}.turn")
    try:
        page.wait_for_function("side => view.phase !== 'move' || view.turn !== side", arg=side, timeout=10_000)
    except playwright.Error as error:
        raise AssertionError(f"{side} played {plays[0] if plays else 'nothing'}: {view(page, 'words')[-4:]}") from error


def play_on(page, live, hands=None) -> None:
    """Play to the end of the match: white rolls 66, black 21; black doubles once a game
    when it may, white takes; between games the set-up action sets the board (`hands`:
    who does it, `Mouse` by default)."""
    hands = hands or Mouse(page)
    doubled = set()
    for _ in range(200):
        settle(page)
        prompt, phase = view(page, "prompt"), view(page, "phase")
        if phase == "match_over":
            return
        asks, side = (prompt or {}).get("asks"), (prompt or {}).get("side")
        games = [event.kind for event in live.log].count("start")
        if asks in ("setup", "game_over"):
            hands.click("#set-up")
            page.wait_for_function("() => !['setup', 'game_over'].includes(view.prompt && view.prompt.asks)")
            if view(page, "phase") == "setup":  # set up, waiting for the opening roll: the last game's cube is gone
                assert page.locator("#cube-words").text_content() == "cube in the middle"
                assert "The board is set up" in page.locator("#banner").text_content()
        elif asks == "opening":
            live.act({"dice": [6, 5]})
            hands.press("white.turn")
            page.wait_for_function("() => view.phase === 'move'")
        elif asks == "roll_or_double" and side == "black" and games not in doubled:
            doubled.add(games)
            hands.press("black.cube")
            page.wait_for_function("() => view.phase === 'doubled'")
        elif asks in ("roll", "roll_or_double"):
            live.act({"dice": [6, 6] if side == "white" else [2, 1]})
            hands.press(f"{side}.turn")
            page.wait_for_function("() => view.phase === 'move'")
        elif asks == "doubled":
            hands.press(f"{side}.turn")
            page.wait_for_function("() => view.phase !== 'doubled'")
        elif asks in ("move", "no_play"):
            play_by_the_rules(page, side, hands)
        else:
            raise AssertionError(f"the page asks {prompt} in {phase}")
    raise AssertionError("the match did not end")


def test_a_whole_match_with_the_mouse(match, browser):
    page, live = match
    # Game 1, from a bear-off position: white doubles, black takes; white hits, bears off,
    # black enters, white wins 2 points.
    press(page, "white.cube")
    wait_words(page, "White doubles to 2")
    assert page.locator("#cube.offered").count() == 1
    assert page.locator("rect.die.asking").count() == 2  # the dice ask, they show no roll
    assert "White offers the cube at 2" in page.locator("#cube-words").text_content()
    shot(page, "match-double-1280x800.png")
    press(page, "black.turn")
    wait_words(page, "Black takes")
    assert page.locator("#cube").get_attribute("data-owner") == "black"
    assert "cube 2, black owns it" in page.locator("#cube-words").text_content()
    live.act({"dice": [4, 2]})
    press(page, "white.turn")
    wait_for_text(page, "#status", "rolled 42")
    drag(page, "6", "4")  # 6/4*: the blot stays black under white's checker ...
    wait_words(page, "White moves 6/4*")
    page.wait_for_selector('circle.checker.black[data-loc="4"]')
    assert page.locator('circle.checker.white[data-loc="4"]').count() == 1
    drag(page, "4", "bar:black")  # ... until a hand takes it to the bar
    assert page.locator('circle.checker.black[data-loc="bar:black"]').count() == 1
    drag(page, "4", "off:white")  # the trays have no switches: the commit tells
    press(page, "white.turn")
    wait_words(page, "White plays 6/4*")
    assert page.locator('rect.slab[data-loc="off:white"]').count() == 14
    assert "White: 2 pips, 14 off" in page.locator("#counts").text_content()
    live.act({"dice": [6, 5]})
    press(page, "black.turn")
    wait_for_text(page, "#status", "rolled 65")
    assert "Black: To move, then commit" in page.locator("#asking").text_content()
    assert page.locator("#label-1 .own").text_content() == "24"  # black on roll: black's count first
    drag(page, "bar:black", "11")
    press(page, "black.turn")
    wait_words(page, "Black plays bar/")
    live.act({"dice": [6, 5]})
    press(page, "white.turn")
    wait_for_text(page, "#status", "rolled 65")
    drag(page, "2", "off:white")
    press(page, "white.turn")
    page.wait_for_selector("#banner:not([hidden])")
    assert "White wins a single game: 2 points" in page.locator("#banner").text_content()
    assert page.locator("#cube").get_attribute("data-owner") == "black"  # where the game left it
    assert "set up the board" in page.locator("#banner").text_content()
    # The trays hold what the hands put there, and the checkers keep their colours.
    assert page.locator('rect.slab.white[data-loc="off:white"]').count() == 15
    assert page.locator('rect.slab.black[data-loc="off:black"]').count() == 12
    assert page.locator('circle.checker.black[data-loc="11"]').count() == 1
    assert page.locator("circle.checker.unknown").count() == 0
    assert "White: 15 in the tray" in page.locator("#counts").text_content()
    shot(page, "match-game-over-1280x800.png")

    # The next game's set-up: one checker from the tray by hand, the rest with the action.
    target = view(page, "setup")
    point = next(loc for loc, stack in target.items() if loc.isdigit() and stack["colour"] == "white")
    drag(page, "off:white", point)
    page.wait_for_function("n => document.querySelectorAll('rect.slab[data-loc=\"off:white\"]').length === n", arg=14)
    page.click("#set-up")
    page.wait_for_function("() => ['opening', 'roll_or_double', 'roll'].includes(view.prompt && view.prompt.asks)")

    # The next games, to the end of the match.
    play_on(page, live)
    page.wait_for_function("() => view.phase === 'match_over'")
    banner = page.locator("#banner").text_content()
    assert "White wins the match" in banner and "black 0 in a match to 3" in banner
    assert page.locator("#cube text").text_content() == "64"  # the last game was the Crawford game
    shot(page, "match-over-1280x800.png")
    events = [event.kind for event in live.log]
    assert events.count("game_over") == 2 and events.count("match_over") == 1

    phone, phone_page, errors = open_page(browser, live, PHONE, touch=True)
    phone_page.wait_for_selector("#banner:not([hidden])")
    shot(phone_page, "match-over-390x844.png")
    board = phone_page.locator("#board").bounding_box()
    assert board["y"] + board["height"] <= PHONE["height"]  # the board and its buttons in one screen
    phone.close()
    assert errors == []


def test_the_board_and_its_buttons_fit_in_one_screen(browser, tmp_path):
    live, close = start_live(tmp_path)
    try:
        for viewport, name in ((DESKTOP, "start-1280x800.png"), (PHONE, "start-390x844.png")):
            context, page, errors = open_page(browser, live, viewport, touch=viewport is PHONE)
            for button in ("white-turn", "hint", "black-turn"):
                box = page.locator(f"#button-{button}").bounding_box()
                assert box["y"] + box["height"] <= viewport["height"], (name, button)
            shot(page, name)
            context.close()
            assert errors == []
    finally:
        close()


def test_eight_fast_clicks_roll_once(match):
    page, live = match
    live.act({"dice": [4, 2]})
    for _ in range(8):
        page.click("#button-white-turn", delay=10)
        page.wait_for_timeout(50)
    wait_for_text(page, "#status", "rolled 42")
    page.wait_for_timeout(800)
    events = [event.kind for event in live.log]
    assert events.count("roll") == 1
    assert "rejected" not in events


def test_a_new_session_asks_before_ending_a_match(match):
    page, live = match
    live.act({"dice": [4, 2]})
    press(page, "white.turn")
    wait_for_text(page, "#status", "rolled 42")
    page.click("#new-session")
    page.wait_for_selector("#confirm-session:not([hidden])")
    assert "This ends the match to 3 in progress" in page.locator("#confirm-text").text_content()
    page.click("#confirm-no")
    page.wait_for_timeout(300)
    assert [event.kind for event in live.log].count("session") == 1
    page.click("#new-session")
    page.click("#confirm-yes")
    page.wait_for_function("() => view.phase === 'setup' || view.phase === 'opening'")
    assert [event.kind for event in live.log].count("session") == 2


def fingers(page):
    """Touch events through the browser's protocol: touch(kind, [(finger id, x, y), ...]),
    the fingers that touch, move or (touchEnd) lift."""
    session = page.context.new_cdp_session(page)

    def touch(kind: str, points: list[tuple[int, float, float]]) -> None:
        session.send("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [{"x": x, "y": y, "id": finger} for finger, x, y in points]})
    return touch


def test_two_fingers_drag_one_checker_each(browser, tmp_path):
    live, close = start_live(tmp_path)
    context, page, errors = open_page(browser, live, PHONE, touch=True)
    try:
        live.act({"dice": [3, 1]})
        page.locator("#button-white-turn").tap()
        wait_for_text(page, "#status", "rolled 31")
        eight = centre(page, 'circle.checker[data-loc="8"]')
        six = centre(page, 'circle.checker[data-loc="6"]')
        five = centre(page, '[id="tint-5"]')
        touch = fingers(page)
        touch("touchStart", [(1, *eight)])
        touch("touchMove", [(1, eight[0] + 5, eight[1] - 30)])
        touch("touchStart", [(1, eight[0] + 5, eight[1] - 30), (2, *six)])
        touch("touchMove", [(1, eight[0] + 5, eight[1] - 40), (2, six[0], six[1] - 30)])
        page.wait_for_function("() => drags.size === 2")
        touch("touchEnd", [(2, six[0], six[1] - 30)])  # the second finger lifts (over the 6)
        page.wait_for_function("() => drags.size === 1")
        assert page.locator("#in-hand").count() == 1  # the first finger still holds its checker
        touch("touchMove", [(1, *five)])
        touch("touchEnd", [(1, *five)])
        wait_for_text(page, "#words", "White moves 8/5")
        page.wait_for_function("() => drags.size === 0")
        assert page.locator('circle.checker[data-loc="6"]').count() == 5
    finally:
        context.close()
        close()
    assert errors == []


HIDDEN = "GwAA4PskAAAAAA"
"""White on roll with five checkers on each of its 1- and 2-points and one on its 4- and
6-points: after 54 the switches cannot tell 6/1 4/off from 6/2 4/off (the sixth checker
stands on a point that reads full either way)."""


@pytest.mark.parametrize("point", ["1", "2"])
def test_the_page_answers_which_play_from_its_own_drops(browser, tmp_path, point):
    live, close = start_live(tmp_path, position=HIDDEN)
    context, page, errors = open_page(browser, live, DESKTOP)
    try:
        live.act({"dice": [5, 4]})
        press(page, "white.turn")
        wait_for_text(page, "#status", "rolled 54")
        drag(page, "6", point)
        drag(page, "4", "off:white")
        press(page, "white.turn")
        wait_words(page, f"White plays 6/{point} 4/off")
        assert "ambiguous" in [event.kind for event in live.log]  # the board asked; the page answered
    finally:
        context.close()
        close()
    assert errors == []


def test_both_dice_destinations_show_and_a_black_checker_moved_in_whites_turn_stays_black(browser, tmp_path):
    live, close = start_live(tmp_path)
    context, page, errors = open_page(browser, live, DESKTOP)
    try:
        live.act({"dice": [3, 1]})
        press(page, "white.turn")
        wait_for_text(page, "#status", "rolled 31")
        page.mouse.move(*centre(page, 'circle.checker[data-loc="8"]'))
        page.mouse.down()
        page.mouse.move(5, 5, steps=2)
        page.wait_for_selector('[id="tint-4"].lit.combined')  # 8/4 takes both dice: marked plainly
        assert page.locator('[id="tint-5"].lit.combined').count() == 0
        page.mouse.move(*spot(page, "8"), steps=2)
        page.mouse.up()
        settle(page)
        drag(page, "12", "10")  # a black checker touched during white's turn
        page.wait_for_timeout(300)
        assert page.locator('circle.checker.black[data-loc="10"]').count() == 1
        assert page.locator('circle.checker.white[data-loc="10"]').count() == 0
    finally:
        context.close()
        close()
    assert errors == []
