"""The page as a place to play (issue 32): Playwright on Debian's chromium, every test at
1280x800 with a mouse and at 390x844 with a touch pointer (taps, never a mouse).

The dice are fixed with the board script's ``dice`` lines (a test harness's loaded dice);
every press and every checker moved is a click or a tap on the page.  Screenshots of set
up, game over, an offered cube, a resign offer and a match's end go to `ARTIFACTS`.
"""

from __future__ import annotations

import pytest

from bgpi.engine.process import find_gnubg
from bgpi.rules import Position, Side, position_id
from tests.web.conftest import CHROMIUM, start_live
from tests.web.test_match import (
    BEAR_OFF,
    DESKTOP,
    PHONE,
    open_page,
    play_by_the_rules,
    play_on,
    settle,
    spot,
    view,
    wait_words,
)
from tests.web.test_page import ARTIFACTS
from tests.web.test_run import running

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
    """A person at the page: clicks with the mouse, or taps with a finger on a phone;
    never drags (the hands `play_on` and `play_by_the_rules` take)."""

    def __init__(self, page, touch: bool, size: str) -> None:
        self.page, self.touch, self.size = page, touch, size

    def click(self, selector: str) -> None:
        if self.touch:
            self.page.locator(selector).first.tap()
        else:
            self.page.locator(selector).first.click()

    def click_at(self, x: float, y: float) -> None:
        if self.touch:
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)

    def press(self, button: str) -> None:
        """Press a board button (``white.turn``)."""
        self.click(f"#button-{button.replace('.', '-')}")

    def press_again(self, button: str) -> None:
        """Press a board button once the last press's answer has settled (a quicker one is a bounce)."""
        settle(self.page)
        self.page.wait_for_timeout(450)
        self.press(button)
        settle(self.page)

    def control(self, label: str) -> None:
        """Click the control beside the board that starts with `label`."""
        self.click(f'#controls button:text-matches("^{label}")')
        settle(self.page)

    def take(self, loc: str) -> None:
        """Click a location: its top checker is taken into the hand."""
        settle(self.page)
        self.click_at(*spot(self.page, loc))
        self.page.wait_for_function("() => held !== null")

    def put(self, loc: str) -> None:
        """Click a location: the checker in hand is put down there."""
        self.click_at(*spot(self.page, loc))
        self.page.wait_for_function("() => held === null")
        settle(self.page)

    def move(self, source: str, target: str) -> None:
        self.take(source)
        self.put(target)

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
    player.press_again("white.cube")
    wait_words(page, "White doubles to 2")
    player.shot("offered-cube")
    player.press_again("black.cube")
    wait_words(page, "Black: drop?")
    player.press_again("black.cube")
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
    assert view(page, "checkers")["1"] == {"count": 2, "colour": "black"}
    assert checkers(page, "24", "white") == 2 and checkers(page, "6", "white") == 5
    assert page.locator("circle.checker.unknown").count() == 0
    assert page.locator("#cube text").text_content() == "64"
    assert page.locator("#cube-words").text_content() == "cube in the middle"
    player.shot("set-up")
    events = [event.kind for event in live.log]
    assert events.count("mismatch") == 0


def test_a_page_opened_at_game_over_draws_the_stacks_as_the_game_left_them(player_at, browser):
    player, live = player_at(position=TALL_ACE)
    player.press_again("white.cube")
    player.press_again("black.cube")
    player.press_again("black.cube")
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


def roll_31(player: Player, live, how, what: str) -> None:
    """White's opening 31, asked for with `how(what)` (a board button or a control)."""
    live.act({"dice": [3, 1]})
    how(what)
    player.page.wait_for_function("() => view.phase === 'move'")


def test_click_to_move_undo_and_the_used_dice_greyed(player_at):
    player, live = player_at()
    page = player.page
    roll_31(player, live, player.press, "white.turn")
    player.take("8")  # a click takes the top checker: it floats, its destinations light
    page.wait_for_selector("#in-hand.held")
    page.wait_for_selector('circle.led.lit[data-loc="5"][data-role="destination"]')
    player.put("8")  # clicked where it came from: put back, nothing moved
    assert checkers(page, "8") == 3 and page.locator("#in-hand").count() == 0
    assert page.locator("rect.die.used").count() == 0
    player.move("8", "5")
    wait_words(page, "White moves 8/5")
    page.wait_for_selector("rect.die.used")
    assert page.locator("rect.die.used").count() == 1
    assert page.eval_on_selector("rect.die.used", "die => die.id") == "die-1"  # the 3
    player.click("#undo")  # put back, as hands would
    wait_words(page, "White takes back")
    page.wait_for_function("() => document.querySelectorAll('rect.die.used').length === 0")
    assert checkers(page, "8") == 3 and checkers(page, "5") == 0
    player.move("8", "5")
    player.move("6", "5")
    page.wait_for_function("() => document.querySelectorAll('rect.die.used').length === 2")
    player.shot("moved")
    player.control("Commit")
    wait_words(page, "White plays 8/5 6/5")
    assert view(page, "plays")[-1]["move"] == "8/5 6/5"


def test_a_resignation_offered_and_accepted_with_the_controls(player_at):
    player, live = player_at()
    page = player.page
    roll_31(player, live, player.control, "Opening roll")
    player.move("8", "5")
    player.move("6", "5")
    player.control("Commit")
    page.wait_for_function("() => view.turn === 'black' && view.phase === 'roll_or_double' || view.phase === 'roll'")
    player.control("Black resigns")
    page.wait_for_function("() => view.phase === 'resigning'")
    asking = page.locator("#asking").text_content()
    assert asking.startswith("Black: Resign a single game (1 point at stake)?"), asking  # named, not pips
    player.control("Offer a gammon")
    page.wait_for_function("() => view.phase === 'resigned'")
    assert page.locator("#asking").text_content().startswith(
        "White: Black offers to resign a gammon (2 points): accept or decline.")
    player.shot("resign-offer")
    player.control("Accept")
    page.wait_for_selector("#banner:not([hidden])")
    assert "White wins a gammon: 2 points" in page.locator("#banner").text_content()
    wait_words(page, "White wins a gammon (resigned)")


def test_a_whole_three_point_match_by_clicks(player_at):
    player, live = player_at(config={"match": 3}, position=BEAR_OFF)
    page = player.page
    play_on(page, live, player)
    page.wait_for_function("() => view.phase === 'match_over'")
    assert "White wins the match" in page.locator("#banner").text_content()
    assert page.locator("#asking").text_content().startswith("Match over. Press White turn or Black turn")
    player.shot("match-over")
    events = [event.kind for event in live.log]
    assert events.count("match_over") == 1 and "mismatch" not in events


def test_the_session_chooser_names_its_choice(player_at):
    player, live = player_at()
    page = player.page
    player.control("Choose a new session")
    page.wait_for_function("() => view.phase === 'new_session'")
    first = page.locator("#asking").text_content()
    assert first.startswith("Choose the next session: money play."), first
    player.control("Next choice")
    page.wait_for_function("text => document.querySelector('#asking').textContent !== text", arg=first)
    chosen = page.locator("#asking").text_content()
    length = int(chosen.removeprefix("Choose the next session: a match to ").split(".")[0])
    player.control("Start this session")
    page.wait_for_function("n => view.match_length === n", arg=length)
    assert page.locator("#match").text_content() == f"match to {length}"


@pytest.mark.parametrize("size", list(SIZES))
def test_a_money_game_against_the_computer_with_a_resignation_by_clicks(browser, tmp_path, size):
    if find_gnubg() is None:
        pytest.skip("Debian's gnubg is not installed (apt-get install gnubg)")
    viewport, touch = SIZES[size]
    with running(tmp_path) as (_, first):
        url = first.split("its page: ")[1].split()[0]
        context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        page.wait_for_selector("#button-white-turn")
        player = Player(page, touch, size)
        page.select_option("#session select[name=opponent]", "black")  # a new session against the computer
        player.click("#new-session")
        page.wait_for_function("() => view.computers.includes('black')", timeout=60_000)
        assert page.locator("#players").text_content() == "white: you · black: the computer"
        player.control("Opening roll")
        white_played = False
        for _ in range(100):
            settle(page)
            phase, turn, prompt = view(page, "phase"), view(page, "turn"), view(page, "prompt") or {}
            if phase == "move" and turn == "white":
                play_by_the_rules(page, "white", player)
                white_played = True
            elif phase == "move" and turn == "black":
                follow_the_computer(player)
            elif prompt.get("side") == "white" and prompt.get("asks") in ("roll", "roll_or_double") and white_played:
                break
            elif prompt.get("side") == "white" and prompt.get("asks") in ("roll", "roll_or_double"):
                player.control("Roll")
            else:
                page.wait_for_timeout(200)  # the computer thinks, the dice roll
        else:
            raise AssertionError(f"white never came to roll again: {view(page, 'words')[-4:]}")
        player.control("White resigns")
        page.wait_for_function("() => view.phase === 'resigning'")
        player.shot("resigning")
        player.control("Offer a single game")
        page.wait_for_selector("#banner:not([hidden])", timeout=60_000)
        assert "Black wins a single game" in page.locator("#banner").text_content()
        wait_words(page, "(resigned)")
        player.shot("computer-game-over")
        context.close()
    assert errors == []


def follow_the_computer(player: Player) -> None:
    """Move the computer's checkers as the lights show (its play in blue: the checker to
    move blinks, where it goes is steady; a blot it hits to the bar), until it has committed."""
    page = player.page
    for _ in range(40):
        settle(page)
        if view(page, "phase") != "move" or view(page, "turn") != "black":
            return
        asking = page.locator("#asking").text_content()
        assert asking.startswith("Black (the computer): ") and "Press" not in asking, asking
        lights = view(page, "lights")
        hits = [loc for loc, light in lights.items() if light["role"] == "hit"]
        hints = {loc: light for loc, light in lights.items() if light["role"] == "hint"}
        sources = [loc for loc, light in hints.items() if light["period"]]
        targets = [loc for loc, light in hints.items() if not light["period"]]
        if hits:
            player.move(hits[0], "bar:white")
        elif sources and targets:
            player.move(sources[0], targets[0])
        else:
            page.wait_for_timeout(200)  # the computer still thinks
    raise AssertionError(f"the computer's play was not followed: {view(page, 'words')[-4:]}")
