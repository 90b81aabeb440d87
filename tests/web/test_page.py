"""The page in a real browser: Playwright driving Debian's chromium (never a downloaded one).

Each test opens the page of a live simulated board and plays with mouse and clicks as a
person would; the last one saves a screenshot in `ARTIFACTS` for a human to look at.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.web.conftest import CHROMIUM, start_live

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

ARTIFACTS = Path(os.environ.get("BGPI_ARTIFACTS", Path(__file__).resolve().parents[2] / "artifacts"))
"""Where the screenshot goes (a CI system may collect it from there)."""

pytestmark = pytest.mark.skipif(shutil.which(CHROMIUM) is None,
                                reason="Debian's chromium is not installed (apt-get install chromium)")


def centre(page, selector: str) -> tuple[float, float]:
    """The middle of the element on screen (the board is redrawn whole at each change: retry)."""
    for _ in range(100):
        box = page.locator(selector).first.bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.wait_for_timeout(20)
    raise AssertionError(f"{selector} is not on the page")


def drag(page, source: str, target: str | None = None, hold: bool = False) -> None:
    """Drag the top checker of location `source` onto the point `target` (None: keep it in hand)."""
    page.mouse.move(*centre(page, f'circle.checker[data-loc="{source}"]'))
    page.mouse.down()
    if target is None:
        page.mouse.move(5, 5, steps=4)  # off the board, above it
        return
    page.mouse.move(*centre(page, f"#tint-{target}"), steps=6)
    page.mouse.up()


def roll_opening(page, live) -> None:
    live.act({"dice": [3, 1]})  # the next roll, so that the test knows it
    page.click("#button-white-turn")
    wait_for_text(page, "#status", "rolled 31")


def wait_for_text(page, selector: str, text: str) -> None:
    page.wait_for_function("([selector, text]) => document.querySelector(selector).textContent.includes(text)",
                           arg=[selector, text])


def lit(page, location: str, role: str) -> None:
    page.wait_for_selector(f'circle.led.lit[data-loc="{location}"][data-role="{role}"]')


def test_the_page_shows_the_starting_board(page):
    assert page.locator('circle.checker[data-loc="6"]').count() == 5
    assert page.locator('circle.checker[data-loc="24"]').count() == 2
    assert page.locator("circle.checker").count() == 30
    assert page.locator("#kind").text_content() == "simulated board"
    assert page.locator("#asking").text_content().startswith("Ready for the opening roll")
    assert page.locator("#match").text_content() == "money play"
    assert page.locator("#cube text").text_content() == "64"


def test_rolling_then_lifting_a_checker_lights_its_destinations(page, live):
    roll_opening(page, live)
    assert page.locator('circle.pip.lit[data-loc="die:1"]').count() == 3  # the 3 ...
    assert page.locator('circle.pip.lit[data-loc="die:2"]').count() == 1  # ... and the 1
    drag(page, "8")
    for point in ("7", "5", "4"):
        lit(page, point, "destination")
    lit(page, "8", "source")
    shown = page.eval_on_selector('circle.led.lit[data-loc="7"]', "led => getComputedStyle(led).fill")
    assert shown == "rgb(0, 255, 0)"  # the LED in its colour, as the board lights it
    assert page.locator('circle.led.lit[data-role="destination"]').count() == 3
    screenshot(page, "page-destinations.png")
    page.mouse.up()  # dropped off the board: it goes back to the 8-point
    page.wait_for_selector('[data-role="destination"]', state="detached")


def test_a_checker_dropped_on_an_illegal_point_is_lit_red(page, live):
    roll_opening(page, live)
    drag(page, "8", "2")
    lit(page, "2", "rejected")
    wait_for_text(page, "#words", "Illegal: no die moves a checker from point 8 to point 2")
    assert page.locator("#words li.bad").count() >= 1


def test_the_opening_play_goes_into_the_play_list(page, live):
    roll_opening(page, live)
    drag(page, "8", "5")
    wait_for_text(page, "#words", "White moves 8/5")
    drag(page, "6", "5")
    wait_for_text(page, "#words", "White moves 6/5")
    page.click("#button-white-turn")
    wait_for_text(page, "#plays", "31: 8/5 6/5")
    assert page.locator("#plays tbody tr").first.text_content() == "1.31: 8/5 6/5"
    assert "White plays 8/5 6/5" in page.locator("#words li").first.text_content()


def test_a_double_offered_and_taken(page, live):
    live.act({"dice": [3, 1]}, {"press": "white.turn"}, {"move": [8, 5]}, {"move": [6, 5]}, {"press": "white.turn"})
    page.click("#button-black-cube")
    wait_for_text(page, "#words", "Black doubles to 2")
    page.wait_for_selector("#cube.offered")
    page.click("#button-white-turn")
    wait_for_text(page, "#words", "White takes: the cube is on 2")
    assert page.locator("#cube text").text_content() == "2"
    wait_for_text(page, "#plays", "Takes")
    screenshot(page, "page-double-taken.png")


def screenshot(page, name: str) -> None:
    """A picture of the page as the test left it, for people to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def test_a_long_press_is_a_hold(page, live):
    status, _ = live.request("POST", "/api/session", '{"config": {"beavers": true}}')
    assert status == 200
    live.act({"dice": [3, 1]}, {"press": "white.turn"}, {"move": [8, 5]}, {"move": [6, 5]},
             {"press": "white.turn"}, {"press": "black.cube"})
    wait_for_text(page, "#words", "Black doubles to 2")
    page.locator("#button-white-cube").scroll_into_view_if_needed()
    page.mouse.move(*centre(page, "#button-white-cube"))
    page.mouse.down()
    page.wait_for_timeout(1200)  # held past a second: the page sends a hold
    page.mouse.up()
    wait_for_text(page, "#words", "White beavers")
    assert page.locator("#cube text").text_content() == "4"


@pytest.fixture
def real_board_page(browser, tmp_path):
    board, close = start_live(tmp_path, kind="board")
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.goto(board.url)
    page.wait_for_selector("#button-white-turn")
    yield page, board
    context.close()
    close()


def test_a_real_board_is_a_live_view_the_page_cannot_move(real_board_page):
    page, board = real_board_page
    assert page.locator("#kind").text_content() == "live view of the board"
    assert "Hands on the board move the checkers" in page.locator("#help").text_content()
    page.mouse.move(*centre(page, 'circle.checker[data-loc="8"]'))
    page.mouse.down()
    page.mouse.move(640, 420, steps=4)
    page.mouse.up()
    page.click("#button-white-turn")
    page.wait_for_timeout(300)
    assert page.locator("#in-hand").count() == 0
    page.click('circle.checker[data-loc="8"]')  # a click takes nothing either
    page.wait_for_timeout(300)
    assert page.evaluate("() => held") is None
    assert page.locator("#controls button").count() == 0 and page.locator("#undo").is_hidden()
    assert board.request("GET", "/api/state")[1]["phase"] == "setup"  # nothing moved, nothing pressed
    assert page.locator('circle.checker[data-loc="8"]').count() == 3
