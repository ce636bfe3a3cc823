"""The hint levels on the phones (issue 33): what a hint said reaches every phone, and a
phone's hint works at every level.

On the real companion in-process (:class:`phone_table.LiveTable`: its app loop, its
SQLite files, its web server):

- the snapshot a phone reads (``/snapshot.json``: ``recent``, ``last_action``) says the
  colour or rank of a hint the panel entered at the content level, in the panel's words;
- through the API (``/api/act``), a paired phone records a hint with its receiver and
  clue at the count and content levels, and with its slots at the slots level;
- in Debian's Chromium (Playwright), a phone taps Hint, the receiver, the colour, OK at
  each level, and its page lists the hint in words.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from support.phone_table import LiveTable, Phone, PhoneApi, wait_until

from companion.core.controller import HintLevel
from engine.actions import Hint
from engine.cards import Color
from hardware.events import ChooseColor, ChooseRank, Key, Press, Select

IDS = (f"hint-levels-{n:08d}" for n in count())


def live(tmp_path: Path, level: HintLevel, players: int = 3) -> LiveTable:
    return LiveTable(
        tmp_path / "data",
        players=players,
        hand_memory=level is HintLevel.SLOTS,
        hint_content=level is HintLevel.CONTENT,
    )


@pytest.fixture(params=list(HintLevel), ids=lambda level: level.value)
def table(request: Any, tmp_path: Path) -> Iterator[LiveTable]:
    """Three players, at each hint level, the game started."""
    table = live(tmp_path, request.param)
    assert table.app.controller.hint_level is request.param
    yield table
    table.close()


def call(
    table: LiveTable, method: str, path: str, body: object = None, token: str = ""
) -> tuple[int, dict[str, Any]]:
    """One request to the table's server, as a phone makes it."""
    api = PhoneApi(table)
    api.token = token
    status, answer = api.request(method, path, body)
    return status, answer


def pair(table: LiveTable, name: str) -> str:
    """Pair a phone with the code the panel's Phones page shows (the panel says OK)."""
    code = table.open_phones_page()
    status, answer = call(table, "POST", "/api/pair", {"code": code, "name": name})
    assert status == 200, answer
    table.back_to_game()
    return str(answer["token"])


def snapshot(table: LiveTable) -> dict[str, Any]:
    return call(table, "GET", "/snapshot.json")[1]


def act(table: LiveTable, token: str, action: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    now = snapshot(table)
    body = {"id": next(IDS), "game": now["game"], "position": now["actions"], "action": action}
    return call(table, "POST", "/api/act", body, token)


def test_a_hint_the_panel_entered_at_the_content_level_is_said_on_the_phones(tmp_path):
    """Ann and Bo give hints on the panel, a colour and a rank: every phone's recent
    actions and last action say them."""
    table = live(tmp_path, HintLevel.CONTENT)
    try:
        table.emit(Press(Key.HINT), ChooseColor(Color.RED))
        table.emit(Press(Key.HINT), ChooseRank(4))
        wait_until(lambda: snapshot(table)["actions"] == 2, "two hints shown")
        shown = snapshot(table)
        assert shown["recent"] == ["Player 2 hinted 4s", "Player 1 hinted red"]
        assert shown["last_action"] == "Player 2 hinted 4s"
        assert table.stored().actions == [Hint(color=Color.RED, player=0), Hint(rank=4, player=1)]
    finally:
        table.close()


def test_a_phones_hint_at_each_level(table: LiveTable) -> None:
    """A phone names the receiver and the clue at every level (docs/decisions 0075, 0097);
    with hand memory the slots too. Stored as sent, said in the panel's words."""
    token = pair(table, "Di")
    action: dict[str, Any] = {"action": "hint", "to": 1, "color": "green"}
    if table.app.controller.hint_level is HintLevel.SLOTS:
        action["slots"] = [2]
    status, answer = act(table, token, action)
    assert status == 200, answer
    slot = ", slot 2" if "slots" in action else ""
    assert answer["text"] == f"Player 1 told Player 2: green{slot} (Di's phone)"
    slots = (2,) if slot else None
    assert table.stored().actions == [Hint(1, Color.GREEN, player=0, slots=slots)]
    assert snapshot(table)["recent"] == [f"Player 1 told Player 2: green{slot}"]


def test_a_phones_hint_with_no_token_left_is_refused_at_the_content_level(tmp_path):
    table = live(tmp_path, HintLevel.CONTENT, players=2)
    try:
        token = pair(table, "Di")
        for _ in range(8):
            table.emit(Press(Key.HINT), ChooseColor(Color.WHITE))
        wait_until(lambda: snapshot(table)["hints"] == 0, "every token used")
        status, answer = act(table, token, {"action": "hint", "to": 1, "rank": 2})
        assert status == 409 and not answer["ok"], answer
        assert len(table.stored().actions) == 8
    finally:
        table.close()


def test_a_phone_taps_a_hint_at_each_level_and_its_page_says_it(
    page: Any, table: LiveTable
) -> None:
    """In Chromium: Hint, the receiver, the colour, (the slot with hand memory), OK: the
    hint is stored and the page's recent actions say it."""
    phone = Phone(page, table.url)
    phone.shows_actions(0)
    phone.pair(table.open_phones_page(), "Di")
    table.back_to_game()
    phone.taps = 0
    phone.tap("[data-act=hint]")
    phone.tap("#flow .pick.seat[data-seat='2']")
    phone.tap("#flow .pick.color[data-color='B']")
    memory = table.app.controller.hint_level is HintLevel.SLOTS
    if memory:
        phone.tap("#flow .pick-hand .slot[data-slot='3']")
    page.wait_for_selector("#flow .confirm", timeout=15_000)
    phone.tap("#flow .confirm")
    phone.shows_actions(1)
    slots = (3,) if memory else None
    assert table.stored().actions == [Hint(2, Color.BLUE, player=0, slots=slots)]
    words = "Player 1 told Player 3: blue" + (", slot 3" if memory else "")
    assert page.inner_text("#recent li") == words
    assert phone.taps == (5 if memory else 4)


def test_the_panels_set_up_row_reaches_the_phone_s_game(tmp_path):
    """The level chosen on the panel's set-up (its Hints row, a tap) is the next game's,
    and a phone sees that game's hints in words."""
    table = LiveTable(
        tmp_path / "data", players=2, hand_memory=False, hint_content=True, start=False
    )
    try:
        table.emit(Select("hint_level"), Select("hint_level"))  # content -> slots -> count
        wait_until(lambda: table.app.controller.draft.hint_level is HintLevel.COUNT, "count chosen")
        table.emit(Select("start"))
        wait_until(lambda: table.app.controller.game is not None, "the game started")
        assert table.app.controller.hint_level is HintLevel.COUNT
        table.emit(Press(Key.HINT))
        wait_until(lambda: snapshot(table)["actions"] == 1, "the hint shown")
        assert snapshot(table)["recent"] == ["Player 1 gave a hint"]
    finally:
        table.close()
