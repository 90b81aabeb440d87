"""The page as a place to play (issue 32): Playwright on Debian's chromium, every test at
1280x800 with a mouse and at 390x844 with a touch pointer (taps, never a mouse).

The dice are fixed with the board script's ``dice`` lines (a test harness's loaded dice);
every press and every checker moved is a click or a tap on the page.  Screenshots of set
up, game over, an offered cube, a resign offer and a match's end go to `ARTIFACTS`.
"""

from __future__ import annotations

import pytest

from bgpi.rules import Position, Side, position_id
from tests.web.conftest import CHROMIUM, start_live
from tests.web.test_match import DESKTOP, PHONE, open_page, settle, view, wait_words
from tests.web.test_page import ARTIFACTS

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")
pytestmark = pytest.mark.skipif(not __import__("shutil").which(CHROMIUM),
                                reason="Debian's chromium is not installed (apt-get install chromium)")

SIZES = {"1280x800": (DESKTOP, False), "390x844": (PHONE, True)}


def _position(white: dict[int, int], black: dict[int, int]) -> str:
    """The Position ID of checkers given in each side's own count, white on roll."""
    def side(points: dict[int, int]) -> tuple[int, ...]:
        return tuple(points.get(point, 0) for point in range(1, 26))
    return position_id(Position(side(white), side(black)), Side.WHITE)


TALL_ACE = _position({1: 10}, {6: 5, 8: 5, 13: 5})
"""White on roll with ten checkers on its 1-point and five borne off; black's fifteen on its 6, 8 and 13."""


class Player:
    """A person at the page: clicks with the mouse, or taps with a finger on a phone."""

    def __init__(self, page, touch: bool, size: str) -> None:
        self.page, self.touch, self.size = page, touch, size

    def click(self, selector: str) -> None:
        if self.touch:
            self.page.locator(selector).first.tap()
        else:
            self.page.locator(selector).first.click()

    def press(self, button: str) -> None:
        """Press a board button (``white.turn``), as the last press's answer has settled."""
        settle(self.page)
        self.page.wait_for_timeout(450)  # longer than the page's bounce guard
        self.click(f"#button-{button.replace('.', '-')}")
        settle(self.page)

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}-{self.size}.png"))


@pytest.fixture(params=list(SIZES))
def player_at(request, browser, tmp_path):
    """Open a live board (`start_live`'s arguments) and a page on it at this test's size."""
    opened = []

    def open_at(**settings):
        live, close = start_live(tmp_path, **settings)
        viewport, touch = SIZES[request.param]
        context, page, errors = open_page(browser, live, viewport, touch=touch)
        opened.append((context, close, errors))
        return Player(page, touch, request.param), live

    yield open_at
    for context, close, errors in opened:
        context.close()
        close()
        assert errors == []


def checkers(page, loc: str, colour: str = "") -> int:
    return page.locator(f'circle.checker{"." + colour if colour else ""}[data-loc="{loc}"]').count()


def test_a_dropped_double_then_set_up_in_one_click(player_at):
    player, live = player_at(position=TALL_ACE)
    page = player.page
    player.press("white.cube")
    wait_words(page, "White doubles to 2")
    player.shot("offered-cube")
    player.press("black.cube")
    wait_words(page, "Black: drop?")
    player.press("black.cube")
    page.wait_for_selector("#banner:not([hidden])")
    # Game over: the tall stack keeps its number and its colour (item 3, item 2) ...
    assert checkers(page, "1", "white") == 5 and checkers(page, "1", "black") == 0
    assert page.locator('text.count[data-loc="1"]').text_content() == "10"
    # ... and the cube is no longer on offer (item 4).
    assert page.locator("#cube.offered").count() == 0
    assert "offers" not in page.locator("#cube-words").text_content()
    player.shot("game-over")
    player.click("#set-up")  # one click, always (item 1)
    page.wait_for_function("() => view.prompt && view.prompt.asks === 'opening'")
    settle(page)
    assert checkers(page, "1", "black") == 2 and checkers(page, "1", "white") == 0  # black's back checkers (item 2)
    assert checkers(page, "24", "white") == 2 and checkers(page, "6", "white") == 5
    assert page.locator("circle.checker.unknown").count() == 0
    assert page.locator("#cube text").text_content() == "64"
    assert page.locator("#cube-words").text_content() == "cube in the middle"
    player.shot("set-up")
    events = [event.kind for event in live.log]
    assert events.count("mismatch") == 0


def test_a_page_opened_at_game_over_draws_the_stacks_as_the_game_left_them(player_at, browser):
    player, live = player_at(position=TALL_ACE)
    player.press("white.cube")
    player.press("black.cube")
    player.press("black.cube")
    player.page.wait_for_selector("#banner:not([hidden])")
    context, page, errors = open_page(browser, live, PHONE, touch=True)
    try:
        page.wait_for_selector('text.count[data-loc="1"]')
        assert checkers(page, "1", "white") == 5 and page.locator("circle.checker.unknown").count() == 0
        assert checkers(page, "19", "black") == 5  # black's 6-point
        assert view(page, "checkers")["1"] == {"count": 10, "colour": "white"}
    finally:
        context.close()
    assert errors == []
