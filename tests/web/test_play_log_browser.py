"""Issue 34: the phone's game page shows the finished game's BG Stats link as a QR code.

Debian's Chromium through Playwright at a phone's 360x740: the page, served by the real
server from a real snapshot, shows the code (an SVG made on the companion: the page loads
nothing from elsewhere) and a link to tap; a screenshot of the screen is read back by
``zbarimg`` (zbar-tools), which must find exactly the link.
"""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path
from typing import Any

from support.needs import need_tool

from companion.core.bgstats import PlayFacts, bgstats_link
from companion.core.controller import Controller, PlayLinked, SetupDraft
from companion.web.server import WebServer
from companion.web.snapshot import SnapshotBoard, build_snapshot
from engine.log import replay_log

LOGS = Path(__file__).resolve().parents[1] / "logs"
SHOWN_MS = 15_000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_phone_shows_the_link_as_a_code_that_reads_back(page: Any, tmp_path: Path) -> None:
    zbarimg = need_tool("zbarimg")
    game = replay_log((LOGS / "perfect_six_suits.jsonl").read_text())
    link = bgstats_link(game, PlayFacts(5, "2026-03-01T18:00:00Z", "2026-03-01T19:02:00Z", "Home"))
    controller = Controller(SetupDraft(), game)
    before = build_snapshot(controller, game_key="5")
    assert before.play_link == "" and before.play_qr == ""  # no link made yet: no code
    controller.handle(PlayLinked(link, len(game.actions)))
    snapshot = build_snapshot(controller, game_key="5")
    assert snapshot.play_link == link and snapshot.play_qr.startswith("data:image/svg+xml")
    port, code = free_port(), "bgstats7"
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    server = WebServer(SnapshotBoard(snapshot), code, port=port, bind="127.0.0.1")
    server.start()
    try:
        assert server.ready.wait(10) and server.failure is None
        page.goto(f"http://127.0.0.1:{port}/?code={code}")
        page.wait_for_selector("#play-log:not([hidden])", timeout=SHOWN_MS)
        assert page.get_attribute("#play-log", "href") == link
        assert page.inner_text("#play-log-label") == "Log this game in BG Stats"
        box = page.locator("#play-qr").bounding_box()
        assert box is not None and box["width"] >= 250 and box["y"] + box["height"] <= 740
        png = tmp_path / "phone-bgstats-360x740.png"
        page.screenshot(path=str(png))  # the screen as the phone shows it
        keep = os.environ.get("HANABI_SCREENSHOTS")
        if keep:
            page.screenshot(path=str(Path(keep) / png.name))
    finally:
        server.stop()
    found = subprocess.run(
        [zbarimg, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(png)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.stdout.splitlines() == [link], found.stderr
    # nothing but the companion itself was asked for (the code is drawn, not fetched)
    assert requests and all(url.startswith(("http://127.0.0.1", "data:")) for url in requests)


def test_the_phone_charts_the_story_of_the_game(page: Any, tmp_path: Path) -> None:
    """The finished game's curve as a chart (the vendored uPlot) and its drops in words."""
    import random

    from companion.core.story_words import drop_words
    from engine import GameOptions, GameSetup
    from engine.story import story
    from engine.table import SimulatedTable

    setup = GameSetup(
        players=4,
        names=("Ann", "Bo", "Cy", "Di"),
        options=GameOptions(hand_memory=True, strikeout_keeps_score=True),
    )
    game = SimulatedTable(setup, random.Random(1), skill=0.7).play_out()
    snapshot = build_snapshot(Controller(SetupDraft(), game), game_key="9")
    assert len(snapshot.story) == len(game.actions) + 1
    port, code = free_port(), "story123"
    server = WebServer(SnapshotBoard(snapshot), code, port=port, bind="127.0.0.1")
    server.start()
    try:
        assert server.ready.wait(10) and server.failure is None
        page.goto(f"http://127.0.0.1:{port}/?code={code}")
        page.wait_for_selector("#story:not([hidden]) #chart-story canvas", timeout=SHOWN_MS)
        drops = page.locator("#story-drops li").all_inner_texts()
        assert drops == [drop_words("en", drop, game) for drop in story(game).drops]
        legend = page.locator("#story-legend span").all_inner_texts()
        assert legend == ["score", "max", "pace", "hints"]
        box = page.locator("#chart-story canvas").bounding_box()
        assert box is not None and box["width"] >= 250 and box["height"] >= 150
        keep = os.environ.get("HANABI_SCREENSHOTS")
        if keep:
            page.locator("#story").scroll_into_view_if_needed()
            page.screenshot(path=str(Path(keep) / "phone-story-360x740.png"))
    finally:
        server.stop()


def test_the_phone_shows_the_replay_once_every_hand_is_shown(page: Any, tmp_path: Path) -> None:
    """Every hand shown at the end: the phone's game page shows the Hanab Live replay's
    link as a code at the place the reveal left for it (#replay); zbarimg reads it back."""
    from support.reveals import finished_table, true_reveal

    from engine.hanab_live import replay_url

    zbarimg = need_tool("zbarimg")
    table = finished_table(players=4, seed=2)
    controller = Controller(SetupDraft(), table.game)
    controller.restore_reveals(tuple(true_reveal(table, seat) for seat in range(3)))
    partial = build_snapshot(controller, game_key="6")
    assert partial.replay_link == "" and partial.replay_qr == ""  # a hand still unshown
    controller.restore_reveals(tuple(true_reveal(table, seat) for seat in range(4)))
    snapshot = build_snapshot(controller, game_key="6")
    link = replay_url(table.game, controller.reveals.shown)
    assert snapshot.replay_link == link and snapshot.replay_qr.startswith("data:image/svg+xml")
    port, code = free_port(), "replay42"
    server = WebServer(SnapshotBoard(snapshot), code, port=port, bind="127.0.0.1")
    server.start()
    try:
        assert server.ready.wait(10) and server.failure is None
        page.goto(f"http://127.0.0.1:{port}/?code={code}")
        page.wait_for_selector("#replay:not([hidden]) #replay-qr", timeout=SHOWN_MS)
        assert page.get_attribute("#replay-link", "href") == link
        assert page.inner_text("#replay-link") == "Replay this game in Hanab Live"
        page.locator("#replay-qr").scroll_into_view_if_needed()
        box = page.locator("#replay-qr").bounding_box()
        assert box is not None and box["width"] >= 250 and box["y"] + box["height"] <= 740
        png = tmp_path / "phone-replay-360x740.png"
        page.screenshot(path=str(png))
        keep = os.environ.get("HANABI_SCREENSHOTS")
        if keep:
            page.screenshot(path=str(Path(keep) / png.name))
    finally:
        server.stop()
    found = subprocess.run(
        [zbarimg, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(png)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.stdout.splitlines() == [link], found.stderr


def test_the_phone_says_why_a_game_cannot_be_replayed(page: Any) -> None:
    from support.reveals import finished_table, true_reveal

    table = finished_table(players=3, seed=2, timed_display=True)
    controller = Controller(SetupDraft(), table.game)
    controller.restore_reveals(tuple(true_reveal(table, seat) for seat in range(3)))
    snapshot = build_snapshot(controller, game_key="8")
    why = "Hanab Live has no timed display, so this game cannot go there"
    assert (snapshot.replay_link, snapshot.replay_why_not) == ("", why)
    port, code = free_port(), "replay43"
    server = WebServer(SnapshotBoard(snapshot), code, port=port, bind="127.0.0.1")
    server.start()
    try:
        assert server.ready.wait(10) and server.failure is None
        page.goto(f"http://127.0.0.1:{port}/?code={code}")
        page.wait_for_selector("#replay:not([hidden]) .replay-why", timeout=SHOWN_MS)
        assert page.inner_text("#replay") == why
        assert page.locator("#replay img").count() == 0
    finally:
        server.stop()
