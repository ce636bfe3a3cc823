"""Issue 35: a paired phone chooses the next game's variant while the panel shows the
set-up (decision 0124), through the real companion (its app loop in a thread, its SQLite
file, its server on a free port) and in a real browser (Debian's Chromium at 360x740):
the companion's own search by a few letters, the choice taken by the set-up and said on
the panel, refusals in one sentence, Start left to the panel.

The browser test is skipped where Chromium or Playwright is missing, except in CI."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.phone_table import SHOWN_MS, LiveTable, Phone, PhoneApi, wait_until

from companion.core.controller import Screen, message_words
from companion.web.server import VARIANTS_SHOWN
from hardware.events import Key, Press

MUDDY = "Muddy Rainbow (6 Suits)"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    live = LiveTable(tmp_path / "data", players=3, hand_memory=False, start=False)
    yield live
    live.close()


def snapshot(table: LiveTable) -> Any:
    board = table.web.board
    assert board is not None
    return board.latest()[1]


def test_the_search_is_the_set_ups_own(table: LiveTable) -> None:
    api = PhoneApi(table)
    status, found = api.request("GET", "/api/variants?q=muddy%20rainbow%206")
    assert status == 200 and MUDDY in found["names"]
    for name in found["names"]:  # every word of the search in every name found
        assert all(word in name.casefold() for word in ("muddy", "rainbow", "6")), name
    status, families = api.request("GET", "/api/variants")
    assert families["names"][0] is None  # "No variant" first, then one per family
    assert "Rainbow (6 Suits)" in families["names"]
    assert len(families["names"]) == VARIANTS_SHOWN < families["count"]
    status, none = api.request("GET", "/api/variants?q=xyzzy")
    assert (status, none) == (200, {"count": 0, "names": []})
    status, cut = api.request("GET", "/api/variants?q=" + "pink%20" * 100)
    assert status == 200 and cut["count"] > 0  # cut to the search's length, as on the panel


def test_a_paired_phone_chooses_the_variant_at_the_set_up(table: LiveTable) -> None:
    api = PhoneApi(table)
    controller = table.app.controller
    status, answer = api.request("POST", "/api/setup", {"variant": MUDDY})
    assert status == 401 and not answer["ok"]  # not paired: never reaches the app loop
    code = table.open_phones_page()
    status, paired = api.request("POST", "/api/pair", {"code": code, "name": "Di"})
    assert status == 200
    api.token = paired["token"]
    status, answer = api.request("POST", "/api/setup", {"variant": MUDDY})
    assert status == 409 and answer["text"].startswith("The variant is chosen on a phone while")
    table.back_to_game()
    assert controller.screen is Screen.SETUP
    wait_until(lambda: snapshot(table).setting_up, "the set-up told to the phones")
    status, answer = api.request("POST", "/api/setup", {"variant": MUDDY})
    assert status == 200 and answer["ok"], answer
    assert answer["text"] == f"Variant for the next game: {MUDDY} (from Di's phone)"
    assert controller.draft.options.variant == MUDDY
    assert message_words("en", controller.message, ()) == answer["text"]  # the panel says it
    wait_until(lambda: snapshot(table).next_variant == MUDDY, "the choice told to the phones")
    status, answer = api.request("POST", "/api/setup", {"variant": "Muddy (6 Suits)"})
    assert status == 409 and answer["text"] == "No variant a printed deck can carry has that name."
    status, answer = api.request("POST", "/api/setup", {"variant": 6})
    assert status == 400
    assert controller.draft.options.variant == MUDDY
    table.emit(Press(Key.OK))  # Start: the panel's
    wait_until(lambda: controller.game is not None, "the game started on the panel")
    assert controller.game is not None and controller.game.setup.options.variant == MUDDY
    wait_until(lambda: not snapshot(table).setting_up, "the set-up gone from the phones")
    status, answer = api.request("POST", "/api/setup", {"variant": None})
    assert status == 409 and controller.draft.options.variant == MUDDY


def test_a_phone_searches_and_picks_in_a_real_browser(page: Any, table: LiveTable) -> None:
    phone = Phone(page, table.url)
    page.wait_for_selector("#setup:not([hidden])", timeout=SHOWN_MS)
    assert page.inner_text("#setup-next") == "Next game: No variant"
    assert page.is_hidden("#setup-search")  # not paired: one line says how
    assert page.inner_text("#setup-pair") == "Pair this phone to choose the variant from here."
    phone.pair(table.open_phones_page(), "Di")
    table.back_to_game()
    page.wait_for_selector("#setup-search:not([hidden])", timeout=SHOWN_MS)
    page.wait_for_selector("#setup-results button", timeout=SHOWN_MS)  # the families
    page.fill("#setup-search", "muddy rain 6")
    found = page.locator("#setup-results button", has_text="Omni-Ones & Muddy Rainbow")
    found.wait_for(timeout=SHOWN_MS)  # the search's answer, not the families
    names = page.locator("#setup-results button").all_inner_texts()
    assert 0 < len(names) <= VARIANTS_SHOWN
    assert all("Muddy" in name and "6 Suits" in name for name in names), names
    pick = page.locator("#setup-results button", has_text=MUDDY).first
    assert pick.inner_text() == MUDDY
    pick.click()
    page.wait_for_selector("#setup-status:not([hidden])", timeout=SHOWN_MS)
    assert page.inner_text("#setup-status") == (
        f"Variant for the next game: {MUDDY} (from Di's phone)"
    )
    page.wait_for_function(
        "(text) => document.getElementById('setup-next').textContent === text",
        arg=f"Next game: {MUDDY}",
        timeout=SHOWN_MS,
    )
    assert table.app.controller.draft.options.variant == MUDDY
    assert pick.get_attribute("aria-pressed") == "true"
    names = page.locator("#setup-results button").all_inner_texts()
    assert all("Muddy" in name for name in names), names  # still the search's answer
    folder = os.environ.get("HANABI_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / "phone-variant-search.png"), full_page=True)
    page.fill("#setup-search", "xyzzy")
    page.wait_for_function(
        "() => document.getElementById('setup-more').textContent"
        " === 'No variant has all these words'",
        timeout=SHOWN_MS,
    )
    table.emit(Press(Key.OK))  # Start on the panel: the search goes
    page.wait_for_selector("#setup", state="hidden", timeout=SHOWN_MS)
