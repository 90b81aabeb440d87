"""A chouette of four on the page, with the mouse (issue 31): started from the page, the
roll-off, the checker play dragged, a cube round answered with the page's answer buttons
(several cubes turned, a take, drops of two presses), every seat dropped, the results on
the score sheet, the rotation, a latecomer and a player leaving, and the next game's line
confirmed.  Playwright drives Debian's chromium, as in test_page."""

from __future__ import annotations

import shutil

import pytest

from tests.web.conftest import CHROMIUM
from tests.web.test_page import drag, screenshot, wait_for_text

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

pytestmark = pytest.mark.skipif(shutil.which(CHROMIUM) is None,
                                reason="Debian's chromium is not installed (apt-get install chromium)")


@pytest.fixture
def viewport() -> dict[str, int]:
    """Taller than the page's tests: the chouette's panel beside the board."""
    return {"width": 1280, "height": 1000}


def settled(page) -> None:
    """The board has answered every line the page sent, and a press of the same button
    again would not be taken for a bounce of the last."""
    page.wait_for_function("unanswered === 0")
    page.wait_for_timeout(450)


def click(page, selector: str) -> None:
    page.click(selector)
    settled(page)


def answer(page, button: str, says: str) -> None:
    """Click the page's answer `button` ("black.turn", "hold white.turn"), which says `says`."""
    selector = f'#chouette-answers [data-answer="{button}"]'
    page.wait_for_selector(selector)
    assert says in page.locator(selector).text_content()
    click(page, selector)


def line(page) -> list[tuple[str, str, str]]:
    """The line as the page shows it: each player, their place and their cube."""
    rows = page.locator("#chouette-line tbody tr")
    cells = [[cell.text_content() for cell in rows.nth(n).locator("td").all()] for n in range(rows.count())]
    return [(player, where, cube) for _, player, where, cube, *_ in cells]


def test_a_chouette_of_four_played_on_the_page_with_the_mouse(page, live):
    page.fill("#chouette-start input[name=players]", "Ann, Bob, Cat, Dan")
    click(page, "#new-chouette")
    page.wait_for_selector("#chouette", state="visible")
    wait_for_text(page, "#chouette-rule", "Everyone rolls off first")

    # The roll-off, one press: a die each, two at a time: Ann 6, Bob 5, then Cat 4, Dan 3.
    live.act({"dice": [6, 5]}, {"dice": [4, 3]})
    click(page, "#button-white-turn")
    wait_for_text(page, "#chouette-rule", "The line: Ann, Bob, Cat, Dan.")
    wait_for_text(page, "#chouette-rule", "White: Ann · Black: Bob")
    assert [(player, where) for player, where, _ in line(page)] == [
        ("Ann", "box"), ("Bob", "captain"), ("Cat", "crew 1"), ("Dan", "crew 2")]

    # The box (white) opens 3-1 and plays 8/5 6/5 with the mouse.
    live.act({"dice": [3, 1]})
    click(page, "#button-white-turn")
    wait_for_text(page, "#status", "rolled 31")
    drag(page, "8", "5")
    drag(page, "6", "5")
    settled(page)
    click(page, "#button-white-turn")

    # The team is on roll: Bob and Dan double, Cat does not; the box takes Bob's and drops Dan's.
    answer(page, "black.cube", "choose the doubles")
    wait_for_text(page, "#chouette-answers", "asked: Bob")
    answer(page, "black.turn", "double this seat")
    wait_for_text(page, "#chouette-answers", "asked: Cat")
    answer(page, "black.cube", "skip this seat")
    wait_for_text(page, "#chouette-answers", "asked: Dan")
    answer(page, "black.turn", "double this seat")
    wait_for_text(page, "#chouette-answers", "asked: Bob")
    assert ("Bob", "captain", "1, a double on offer") in line(page)
    answer(page, "white.turn", "take")
    wait_for_text(page, "#chouette-answers", "asked: Dan")
    answer(page, "white.cube", "drop")
    answer(page, "white.cube", "drop")
    wait_for_text(page, "#chouette-line", "out (cube 1)")
    assert line(page) == [("Ann", "box", ""), ("Bob", "captain", "2, the box's"), ("Cat", "crew 1", "centred"),
                          ("Dan", "crew 2", "out (cube 1)")]

    # The captain rolls 6-5 for the team and plays 24/18 13/8 with the mouse.
    live.act({"dice": [6, 5]})
    answer(page, "black.turn", "roll")
    wait_for_text(page, "#status", "rolled 65")
    drag(page, "1", "7")
    drag(page, "12", "17")
    settled(page)
    click(page, "#button-black-turn")

    # The box doubles Bob (to 4) and Cat (to 2) with one long press; both drop: the game is over.
    answer(page, "white.cube", "choose the doubles")
    answer(page, "hold white.turn", "")
    for seat in ("Bob", "Cat"):
        wait_for_text(page, "#chouette-answers", f"asked: {seat}")
        answer(page, "black.cube", "drop")
        answer(page, "black.cube", "drop")
    wait_for_text(page, "#chouette-sheet", "total")
    # Bob dropped at 2, Cat at 1; the box dropped Dan's double: Ann wins 2 + 1 - 1.
    sheet = [[cell.text_content() for cell in row.locator("td").all()]
             for row in page.locator("#chouette-sheet tbody tr").all()]
    header = [cell.text_content() for cell in page.locator("#chouette-sheet thead th").all()]
    assert header == ["game", "box", "captain", "Ann", "Bob", "Cat", "Dan"]
    assert sheet == [["1", "Ann", "Bob", "2", "-2", "-1", "1"], ["total", "", "", "2", "-2", "-1", "1"]]
    assert page.locator("#chouette-sheet tbody tr").first.locator("td").nth(4).get_attribute("title") == \
        "dropped the box's double"
    # The box beat the captain: Ann stays, Bob goes to the end, Cat is captain.
    wait_for_text(page, "#chouette-rule", "The line: Ann, Cat, Dan, Bob.")

    # Between games a latecomer joins and a player leaves, from the page.
    page.fill("#chouette-join input[name=name]", "Eve")
    click(page, "#chouette-join button")
    wait_for_text(page, "#chouette-rule", "The line: Ann, Cat, Dan, Bob, Eve.")
    click(page, '#chouette-line [data-leave="Dan"]')
    wait_for_text(page, "#chouette-rule", "The line: Ann, Cat, Bob, Eve.")
    assert ("Dan", "not playing", "") in line(page)

    # On to the next game: the board set up, the opening roll confirms the line.
    answer(page, "white.turn", "set up")
    page.wait_for_selector("#set-up", state="visible")
    click(page, "#set-up")
    wait_for_text(page, "#asking", "for the opening roll (the line as lit)")
    live.act({"dice": [4, 2]})
    click(page, "#button-white-turn")
    wait_for_text(page, "#status", "rolled 42")
    assert [(player, where) for player, where, _ in line(page)][:2] == [("Ann", "box"), ("Cat", "captain")]
    screenshot(page, "page-chouette.png")
