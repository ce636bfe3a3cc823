"""The page for phones in a real browser (issue 21): Debian's Chromium, headless, driven
by Playwright, at a phone's 360x740.

- the page follows a game typed into the real companion (its X window under Xvfb,
  keys sent with xdotool), move by move, and "My hand" shows the hints;
- the page reconnects by itself after the server restarts, and shows the change made
  while it was away;
- without the table code: 403 and one sentence.

Skipped where Chromium, Playwright, Xvfb or xdotool is missing, except in CI (``CI``
set), where their absence fails: ``.ci/run`` installs them. Screenshots go to
``HANABI_SCREENSHOTS`` when it names a folder (``docs/screenshots`` holds the ones
looked at).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.needs import PHONE
from support.xwindow import find_window, keys

from companion.core.controller import Controller, SetupDraft
from companion.storage import Storage, end_line
from companion.web.server import WebServer
from companion.web.snapshot import SnapshotBoard, build_snapshot
from engine import Card, GameSetup
from engine.actions import Hint, Play
from engine.game import Game
from engine.options import GameOptions

pytestmark = pytest.mark.xvfb
COMMAND = [sys.executable, "-m", "companion"]
#: How long the page may take to show a change (a bound on liveness, not a timing).
SHOWN_MS = 15_000


def shot(page: Any, name: str) -> None:
    folder = os.environ.get("HANABI_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int) -> None:
    """Until the server listens (it starts after the companion's first frame)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"nothing listens on port {port}")


def wait_for_actions(page: Any, count: int) -> None:
    # a selector, not a JavaScript predicate: the page's CSP forbids eval
    page.wait_for_selector(f'body[data-actions="{count}"]', state="attached", timeout=SHOWN_MS)


def start_app(
    env: dict[str, str], data: Path, config: Path
) -> tuple[subprocess.Popen[str], str, str]:
    """The companion in its window, with the page for phones; its window and its URL."""
    app = subprocess.Popen(
        [*COMMAND, "run", "--data-dir", str(data), "--size", "480x320", "--gpio", "none",
         "--config", str(config)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert app.stdout is not None
    line = app.stdout.readline()
    assert line.startswith("phones: http://127.0.0.1:"), line + app.stderr.read()  # type: ignore[union-attr]
    url = line.split(" ", 1)[1].strip()
    return app, find_window(app, env), url


def said(data: Path, index: int) -> str:
    """Action ``index`` of the stored game, in the companion's words (one source)."""
    from companion.core import i18n
    from engine.log import replay_log

    log = subprocess.run(
        [*COMMAND, "export", "--data-dir", str(data)], capture_output=True, text=True, check=True
    ).stdout
    game = replay_log(log)
    return i18n.describe_event("en", game.events[index], game.setup.names)


def slot_colors(page: Any, selector: str) -> list[str]:
    """Each slot's suit letter ('' when the hints leave more than one colour)."""
    return page.eval_on_selector_all(
        f"{selector} .slot",
        "slots => slots.map(s => ['R','Y','G','B','W','M']"
        ".find(c => s.classList.contains(c)) || '')",
    )


def test_the_page_follows_a_game_played_in_the_real_app(
    xvfb: dict[str, str], page: Any, tmp_path: Path
) -> None:
    """Issue 21: the page shows the table of the companion's window, move by move, without
    a reload; "My hand" (a seat picked once) shows that seat's hand memory after the hints
    and after a card left the hand (slot 1 at the left). The companion serves it without
    loading OpenSSL (the server's memory aim: plain HTTP needs no TLS library)."""
    data, config = tmp_path / "data", tmp_path / "config.toml"
    port = free_port()
    config.write_text(
        "[game]\nplayers = 3\nhand_memory = true\n\n"
        f'[web]\nenabled = true\nport = {port}\nbind = "127.0.0.1"\n',
        encoding="utf-8",
    )
    app, window, url = start_app(xvfb, data, config)
    try:
        wait_for_port(port)
        page.goto(url)
        page.wait_for_selector("#no-game:not([hidden])", timeout=SHOWN_MS)
        assert "No game in progress" in page.inner_text("#no-game")
        keys(xvfb, window, "Return")  # start: 3 players, hand memory on
        wait_for_actions(page, 0)
        assert page.inner_text("#turn") == "Player 1 to play"
        shot(page, "table-start")

        keys(xvfb, window, "h", "2", "r", "1", "4", "Return")  # Player 2: slots 1, 4 red
        wait_for_actions(page, 1)
        assert page.inner_text("#turn") == "Player 2 to play"
        assert page.inner_text("#hints") == "7/8"
        assert page.inner_text("#recent li:first-child") == said(data, 0)

        page.click("button[data-view=mine]")
        page.click("#seat-buttons button:nth-child(2)")  # "Player 2": remembered
        assert page.inner_text("#my-name") == "Player 2"
        assert slot_colors(page, "#my-slots") == ["R", "", "", "R", ""]
        shot(page, "my-hand-after-hint")

        keys(xvfb, window, "p", "2", "b", "1", "Return")  # Player 2 plays B1 from slot 2
        wait_for_actions(page, 2)
        # slot 1 moved right, a new card took slot 1; slots 3 to 5 stayed
        assert slot_colors(page, "#my-slots") == ["", "R", "", "R", ""]
        page.reload()  # the seat is remembered by the phone
        wait_for_actions(page, 2)
        assert page.inner_text("#my-name") == "Player 2"

        page.click("button[data-view=table]")
        fireworks = page.eval_on_selector_all(
            "#fireworks .card", "cards => cards.map(c => c.dataset.suit + c.innerText.trim())"
        )
        assert "B1" in fireworks and "R–" in fireworks
        keys(xvfb, window, "d", "3", "y", "1", "Return")  # Player 3 discards Y1 (slot 3)
        wait_for_actions(page, 3)
        assert page.inner_text("#discards .chip") == "1"
        assert page.inner_text("#recent li:first-child") == said(data, 2)
        assert said(data, 2) == "Player 3 discarded yellow 1 (+1 hint)"
        shot(page, "table")
        page.click("button[data-view=hands]")
        assert page.locator("#all-hands .seat").count() == 3
        shot(page, "every-hand")
        with open(f"/proc/{app.pid}/maps", encoding="utf-8") as maps:
            assert not any("libssl" in line for line in maps), "the server loaded OpenSSL"
    finally:
        app.terminate()
        app.wait(timeout=10)
    assert app.returncode == 0


def game_of(actions: int) -> Game:
    setup = GameSetup(players=2, names=("Ann", "Bo"), options=GameOptions(hand_memory=True))
    game = Game(setup)
    moves = [
        Hint(to=1, color=None, rank=1, slots=(1, 2)),
        Play(Card.from_code("R1"), slot=1),
        Play(Card.from_code("Y1"), slot=3),
    ]
    for move in moves[:actions]:
        game.apply(move)
    return game


def snapshot_of(actions: int) -> Any:
    return build_snapshot(Controller(SetupDraft(players=2), game_of(actions)), game_key="1")


def test_the_page_reconnects_after_the_server_restarts(page: Any) -> None:
    """Issue 21: the server goes away (the companion restarts) while the table plays on;
    the page says it lost the connection, reconnects by itself, and shows the table as
    it is now (resumed from its last event id, never a stale position)."""
    port, code = free_port(), "restart9"
    board = SnapshotBoard(snapshot_of(1))
    server = WebServer(board, code, port=port, bind="127.0.0.1")
    server.start()
    assert server.ready.wait(10) and server.failure is None
    page.goto(f"http://127.0.0.1:{port}/?code={code}")
    wait_for_actions(page, 1)
    server.stop()
    page.wait_for_selector("#offline:not([hidden])", timeout=SHOWN_MS)
    shot(page, "offline")
    board.publish(snapshot_of(2))  # the table went on while the page was away
    board.publish(snapshot_of(3))
    again = WebServer(board, code, port=port, bind="127.0.0.1")
    again.start()
    try:
        assert again.ready.wait(10) and again.failure is None
        wait_for_actions(page, 3)
        assert page.is_hidden("#offline")
        assert page.evaluate("document.body.dataset.eventId") == "3"
    finally:
        again.stop()


def test_without_the_code_the_page_is_refused_in_one_sentence(page: Any) -> None:
    """Issue 21: a browser without the table code gets 403 and one sentence."""
    port = free_port()
    server = WebServer(SnapshotBoard(snapshot_of(0)), "secret99", port=port, bind="127.0.0.1")
    server.start()
    try:
        assert server.ready.wait(10) and server.failure is None
        answer = page.goto(f"http://127.0.0.1:{port}/")
        assert answer is not None and answer.status == 403
        assert page.inner_text("body").strip() == (
            "This page needs the table code: scan the QR code on the companion's Phones page."
        )
        answer = page.goto(f"http://127.0.0.1:{port}/?code=wrong")
        assert answer is not None and answer.status == 403
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("state", "lang"),
    [
        ("hand_memory_game", "en"),
        ("hand_memory_final_round", "en"),
        ("hand_memory_final_round", "de"),
        ("end_five", "fr"),
    ],
)
def test_the_busiest_tables_fit_a_phone(page: Any, state: str, lang: str) -> None:
    """Issue 21: five long names, six suits, the final round, a long discard pile, the
    end with its rating, in every language: every tab fits 360 px (nothing wider than the
    phone), and the words are the companion's own in the table's language."""
    from support.screen_states import STATES

    controller = STATES[state](lang)
    port, code = free_port(), "busy2345"
    board = SnapshotBoard(build_snapshot(controller, game_key="1"))
    server = WebServer(board, code, port=port, bind="127.0.0.1")
    server.start()
    try:
        assert server.ready.wait(10) and server.failure is None
        page.goto(f"http://127.0.0.1:{port}/?code={code}")
        assert controller.game is not None
        wait_for_actions(page, len(controller.game.actions))
        assert page.evaluate("document.documentElement.lang") == lang
        for view in ("table", "mine", "hands"):
            page.click(f"button[data-view={view}]")
            if view == "mine" and page.is_visible("#seat-picker"):
                page.click("#seat-buttons button:nth-child(1)")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (view, width)
            shot(page, f"{state}-{lang}-{view}")
        game = controller.game
        if game.is_over:
            page.click("button[data-view=table]")
            assert page.is_visible("#result")
    finally:
        server.stop()


@contextlib.contextmanager
def on_history_tab(page: Any, storage: Storage) -> Iterator[None]:
    """The real server with the games of ``storage`` (its read-only view, as the app serves them),
    and ``page`` on its History tab; stopped after."""
    from companion.web.history import HistorySource

    source = HistorySource(storage)
    port, code = free_port(), "hist2345"
    server = WebServer(
        SnapshotBoard(snapshot_of(1)), code, port=port, bind="127.0.0.1", history=source
    )
    server.start()
    try:
        assert server.ready.wait(10) and server.failure is None
        page.goto(f"http://127.0.0.1:{port}/?code={code}")
        wait_for_actions(page, 1)
        page.click("button[data-view=history]")
        yield
    finally:
        server.stop()


def test_the_history_lists_the_games_and_draws_its_charts(page: Any, tmp_path: Path) -> None:
    """Issue 21: the History tab lists every stored game (the unfinished one marked),
    draws the scores game after game and how often each score came (uPlot, served by the
    companion), gives best / average, and a game's actions in words with its log to
    download."""
    from test_web import stored_games

    storage = stored_games(tmp_path / "data", finished=6)
    try:
        with on_history_tab(page, storage):
            page.wait_for_selector("#games .game-row", timeout=SHOWN_MS)
            assert page.locator("#games .game-row").count() == 7
            assert page.locator("#games .game-row.unfinished").count() == 1
            assert page.locator("#stats tr").count() == 2
            # the figures per player (issue 34), in a table of their own
            names = page.locator("#players tr td:first-child").all_inner_texts()
            assert set(names) <= {"Ann", "Bo", "Cy"} and "Ann" in names
            for chart in ("#chart-scores", "#chart-distribution"):
                page.wait_for_selector(f"{chart} canvas", timeout=SHOWN_MS)
                inked = page.evaluate(
                    """(selector) => {
                        const canvas = document.querySelector(selector + " canvas");
                        const pixels = canvas.getContext("2d")
                            .getImageData(0, 0, canvas.width, canvas.height).data;
                        let inked = 0;
                        for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) inked++;
                        return inked;
                    }""",
                    chart,
                )
                assert inked > 500, (chart, inked)  # a line or bars drawn, not an empty frame
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"]
            shot(page, "history")
            page.click("#games .game-row:not(.unfinished)")
            page.wait_for_selector("#game-detail:not([hidden])", timeout=SHOWN_MS)
            assert page.locator("#game-actions li").count() > 10
            href = page.get_attribute("#game-log", "href")
            assert href is not None and href.startswith("/games/") and ".log" in href
            with page.expect_download() as download:
                page.click("#game-log")
            saved = tmp_path / "saved.jsonl"
            download.value.save_as(saved)
            game_id = int(href.split("/")[2].split(".")[0])
            whole = storage.export(game_id)
            assert saved.read_text() == whole + end_line(game_id, whole)
            shot(page, "history-game")
    finally:
        storage.close()


@pytest.mark.parametrize("stored", ["nothing", "a game in play"])
def test_an_empty_history_says_so_and_shows_no_empty_chart(
    page: Any, tmp_path: Path, stored: str
) -> None:
    """Issue 21's leftover: before the first game ends the History tab says in one
    sentence (the companion's own, in the page's language) why there is no chart, and
    shows no empty chart box; the game in play is still listed, marked unfinished."""
    from test_web import stored_games

    from companion.core import i18n

    played = stored != "nothing"
    storage = stored_games(tmp_path / "data", finished=0) if played else Storage.open(tmp_path)
    try:
        with on_history_tab(page, storage):
            page.wait_for_selector("#charts-empty:not([hidden])", timeout=SHOWN_MS)
            assert page.inner_text("#charts-empty") == i18n.tr("en", "web_no_charts")
            for box in ("#chart-scores", "#chart-distribution"):
                assert not page.is_visible(box), box
            assert page.locator("canvas").count() == 0
            assert page.locator("#games .game-row").count() == (1 if played else 0)
            assert page.locator("#games .game-row.unfinished").count() == played
            assert page.is_visible("#games-title") == played
            shot(page, "history-in-play" if played else "history-empty")
    finally:
        storage.close()


def test_the_page_reconnects_when_the_companion_restarts(
    xvfb: dict[str, str], page: Any, tmp_path: Path
) -> None:
    """Issue 21: the companion stops (a restart, a power cut) and comes back: the open
    page says it lost the connection, reconnects by itself with the same link (the code
    is kept), and follows the game typed after the restart."""
    data, config = tmp_path / "data", tmp_path / "config.toml"
    port = free_port()
    config.write_text(
        f'[web]\nenabled = true\nport = {port}\nbind = "127.0.0.1"\n', encoding="utf-8"
    )
    app, window, url = start_app(xvfb, data, config)
    try:
        wait_for_port(port)
        page.goto(url)
        keys(xvfb, window, "Return", "h", "r")  # start (3 players), a hint: red
        wait_for_actions(page, 1)
    finally:
        app.terminate()
        app.wait(timeout=10)
    page.wait_for_selector("#offline:not([hidden])", timeout=SHOWN_MS)
    app, window, again = start_app(xvfb, data, config)
    try:
        assert again == url  # the same link: the table code is kept
        wait_for_port(port)
        wait_for_actions(page, 1)  # reconnected, the game resumed
        keys(xvfb, window, "h", "2")  # the game's level kept: its colour or rank
        wait_for_actions(page, 2)
        assert page.inner_text("#recent li") == "Player 2 hinted 2s"
        assert page.is_hidden("#offline")
        assert page.inner_text("#turn") == "Player 3 to play"
    finally:
        app.terminate()
        app.wait(timeout=10)
    assert app.returncode == 0


def test_the_page_says_the_findings_not_yet_seen(page: Any) -> None:
    """Issue 36: what storage found and no player has acknowledged is on the phones too,
    until OK on the panel."""
    from companion.core.controller import FindingsOpen
    from companion.core.i18n import tr
    from companion.vocabulary.records import Finding

    controller = Controller(SetupDraft(players=2), game_of(1))
    controller.handle(FindingsOpen((Finding("f1", "database_emptied", {"games": 4}, "x"),)))
    port, code = free_port(), "findings1"
    board = SnapshotBoard(build_snapshot(controller, game_key="1"))
    server = WebServer(board, code, port=port, bind="127.0.0.1")
    server.start()
    try:
        assert server.ready.wait(10) and server.failure is None
        page.goto(f"http://127.0.0.1:{port}/?code={code}")
        page.wait_for_selector("#findings:not([hidden])", timeout=SHOWN_MS)
        said = page.inner_text("#findings")
        assert tr("en", "database_emptied", games=4) in said
        assert tr("en", "web_findings_ok") in said
        shot(page, "findings")
        controller.handle(FindingsOpen(()))  # OK on the panel
        board.publish(build_snapshot(controller, game_key="1"))
        page.wait_for_selector("#findings[hidden]", state="attached", timeout=SHOWN_MS)
    finally:
        server.stop()
