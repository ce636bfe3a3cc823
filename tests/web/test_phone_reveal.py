"""Issue 34: a paired phone shows its own seat's hand at the end, through the web API of the
real companion (its app loop in a thread, its SQLite file, its server on a free port) and
in a real browser (Debian's Chromium at 360x740, Playwright): each card checked as it
comes (the preview of the cards so far), the hand recorded as a ``reveal`` line before it
is answered, refusals in the companion's words, the phone's undo taking it back; the page
says the hands shown and, once every hand is, that the whole deal is known.

The browser test is skipped where Chromium or Playwright is missing, except in CI."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.phone_table import LiveTable, Phone, PhoneApi, wait_until

from companion.core import i18n
from companion.core.controller import Screen
from engine.cards import Card
from engine.errors import CardExhausted
from engine.reveal import Reveal
from hardware.events import ChooseColor, ChooseRank, ChooseSeat, ChooseSlot, Key, Press

NAMES = ("Player 1", "Player 2", "Player 3")
#: The hands after three misplays from slot 1 (R5, Y5, G5): no hint, so any card a copy is
#: left of; the third player drew nothing after the last.
HANDS = {
    0: ("W1", "W1", "W1", "W2", "W2"),
    1: ("B1", "B1", "B1", "B2", "B2"),
    2: ("Y1", "Y1", "Y1", "Y2"),
}


def shot(page: Any, name: str) -> None:
    """A screenshot into ``HANABI_SCREENSHOTS`` when it names a folder."""
    folder = os.environ.get("HANABI_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def reveal(seat: int) -> Reveal:
    return Reveal(seat, tuple(Card.from_code(code) for code in HANDS[seat]))


def codes(seat: int) -> list[str]:
    return list(HANDS[seat])


def finish(table: LiveTable) -> None:
    """Three misplays on the panel: the game is over."""
    for code in ("R5", "Y5", "G5"):
        card = Card.from_code(code)
        table.emit(Press(Key.PLAY), ChooseSlot(1), ChooseColor(card.color))
        table.emit(ChooseRank(card.rank), Press(Key.OK))
    board = table.web.board
    assert board is not None
    wait_until(lambda: board.latest()[1].over, "the end, told to the phones")


def panel_shows(table: LiveTable, seat: int) -> None:
    """The panel shows ``seat``'s hand: Show hands, the seat (when asked), cards, OK."""
    controller = table.app.controller
    if controller.screen is Screen.END:
        table.emit(Press(Key.HINT))
        wait_until(lambda: controller.screen is Screen.REVEAL, "the reveal screen")
    wait_until(lambda: controller.reveal_entry is not None, "a hand asked")
    entry = controller.reveal_entry
    if entry is not None and entry.seat is None:
        table.emit(ChooseSeat(seat))
    for code in HANDS[seat]:
        card = Card.from_code(code)
        table.emit(ChooseColor(card.color), ChooseRank(card.rank))
    table.emit(Press(Key.OK))
    wait_until(lambda: seat in controller.reveals.seats, f"seat {seat}'s hand shown")


def shown(seat: int, cards: list[str]) -> dict[str, Any]:
    return {"action": "reveal", "player": seat, "cards": cards}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    live = LiveTable(tmp_path / "data", players=3, hand_memory=True)
    yield live
    live.close()


def test_the_web_api_takes_a_phones_hand_card_by_card(table: LiveTable) -> None:
    api = PhoneApi(table)
    api.pair(table, "Bo")
    finish(table)
    status, answer = api.move("/api/preview", shown(1, codes(1)[:2]))
    assert status == 200 and answer["ok"]  # the cards so far: fine
    status, answer = api.move("/api/preview", shown(1, ["R5"]))  # its only copy is gone
    assert status == 200 and not answer["ok"]
    assert answer["text"] == i18n.refusal_text(
        "en", CardExhausted(card=Card.from_code("R5"), copies=1), NAMES
    )
    assert table.stored().reveals == []
    request_id = api.new_id()
    status, answer = api.move("/api/act", shown(1, codes(1)), request_id)
    assert status == 200 and answer["ok"], answer
    assert answer["text"] == (
        "Player 2 showed their hand: blue 1, blue 1, blue 1, blue 2, blue 2 (Bo's phone)"
    )
    assert table.stored().reveals == [reveal(1)]  # stored before it was answered
    again = api.move("/api/act", shown(1, codes(1)), request_id)  # its answer was lost
    assert again == (status, answer) and table.stored().reveals == [reveal(1)]
    status, answer = api.move("/api/act", shown(1, codes(1)))  # a new request: refused
    assert status == 409 and answer["text"] == "Player 2 has shown their hand already"
    status, answer = api.move("/api/act", {"action": "reveal", "player": 1, "cards": "B1"})
    assert status == 400 and not answer["ok"]  # a body the page never sends: one sentence
    snapshot = api.request("GET", "/snapshot.json")[1]
    assert snapshot["revealed"] == [1] and snapshot["seats"][1]["shown"] == codes(1)
    assert snapshot["reveal_line"] == "Hands shown: Player 2" and not snapshot["deal_known"]
    assert snapshot["undo_what"].startswith("Player 2 showed their hand: ")
    status, answer = api.move("/api/act", {"action": "undo"})  # the phone's undo: the hand
    assert status == 200 and answer["text"].startswith("Undone: Player 2 showed their hand")
    assert table.stored().reveals == [] and table.stored().actions  # the game stays over
    for seat in (0, 2):
        panel_shows(table, seat)
    status, answer = api.move("/api/act", shown(1, codes(1)))
    assert status == 200 and answer["ok"], answer
    # the answer comes once the hand is stored; the phones' snapshot follows it
    wait_until(
        lambda: api.request("GET", "/snapshot.json")[1]["deal_known"], "the deal known, told"
    )
    snapshot = api.request("GET", "/snapshot.json")[1]
    assert snapshot["deal_known"] and snapshot["revealed"] == [0, 2, 1]
    assert snapshot["replay_link"].startswith("https://hanab.live/shared-replay-json/")
    assert snapshot["reveal_line"] == "Every hand shown: the whole deal is known"


def test_a_phone_shows_its_seats_hand_in_a_real_browser(page: Any, table: LiveTable) -> None:
    phone = Phone(page, table.url)
    phone.shows_actions(0)
    page.click("button[data-view=mine]")
    page.click("#seat-buttons button:nth-child(2)")  # "Player 2": this phone's seat
    page.click("button[data-view=table]")
    phone.pair(table.open_phones_page(), "Bo")
    table.back_to_game()
    finish(table)
    phone.shows_actions(3)
    page.wait_for_selector("#show-hand:not([hidden])")
    assert page.inner_text("#show-hand") == "Show my hand"
    phone.tap("#show-hand")
    page.wait_for_selector("#flow .reveal-hand")
    assert page.inner_text("#flow .flow-ask") == "Slot 1: colour?"

    def enter(code: str) -> None:
        phone.tap(f"#flow .pick.color[data-color={code[0]}]")
        phone.tap(f'#flow .pick.rank[data-rank="{code[1]}"]')

    enter("R5")  # every red 5 is gone: refused in the companion's words, slot 1 again
    page.wait_for_selector("#flow .preview.warning")
    assert page.inner_text("#flow .preview.warning").startswith("Every red 5 is already revealed")
    assert page.inner_text("#flow .flow-ask") == "Slot 1: colour?"
    for count, code in enumerate(codes(1), start=1):
        enter(code)
        page.wait_for_function(
            "n => document.querySelectorAll('#flow .reveal-hand .slot.shown').length === n",
            arg=count,
        )
    page.wait_for_selector("#flow .confirm")
    shot(page, "phone-reveal")
    phone.tap("#flow .confirm")
    assert phone.answer().startswith("Player 2 showed their hand: blue 1")
    assert table.stored().reveals == [reveal(1)]
    page.wait_for_selector("#show-hand", state="hidden")  # this seat's hand is shown
    page.wait_for_selector("#deal:not([hidden])")
    assert page.inner_text("#deal") == "Hands shown: Player 2"
    for seat in (0, 2):
        panel_shows(table, seat)
    page.wait_for_function(
        "() => document.querySelector('#deal').textContent.includes('whole deal')"
    )
    assert page.inner_text("#deal") == "Every hand shown: the whole deal is known"
    # the whole deal known: the Hanab Live replay's code and link come under it
    page.wait_for_selector("#replay:not([hidden]) #replay-qr")
    href = page.get_attribute("#replay-link", "href")
    assert href is not None and href.startswith("https://hanab.live/shared-replay-json/")
    shot(page, "phone-deal-known")
    page.click("button[data-view=hands]")
    shown_cards = page.eval_on_selector_all(
        "#all-hands .shown-hand", "hands => hands.map(h => h.querySelectorAll('.slot').length)"
    )
    assert shown_cards == [5, 5, 4]
    shot(page, "phone-every-hand-shown")
