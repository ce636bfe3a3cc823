"""The page for phones in Firefox and in WebKit (Safari's engine), as issue 21 asks:
"works in Chromium, Firefox and Safari" (Chromium: tests/web/test_web_browser.py).

Real browsers from Debian, driven by their own clients, at a phone's 360x740:

- Firefox: ``firefox-esr``, headless, driven by Mozilla's Marionette client
  (``marionette_driver``), in a fresh profile of the test's own;
- WebKit: WebKitGTK's MiniBrowser under Xvfb, driven by ``WebKitWebDriver``
  (``webkit2gtk-driver``) through Selenium.

Each serves the page from the real server (:class:`~companion.web.server.WebServer`)
with the table code, shows the table, follows new snapshots live over Server-Sent
Events, shows "My hand" once a seat is picked, and draws the History tab's charts.

Skipped where a browser or its client is missing, except in CI (``CI`` set), where
their absence fails: ``.ci/run`` installs them. Screenshots go to
``HANABI_SCREENSHOTS`` when it names a folder (as ``firefox-NAME.png``,
``webkit-NAME.png``).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.needs import PHONE, need_tool, unavailable
from test_web_browser import free_port, snapshot_of

from companion.core.controller import Controller, SetupDraft
from companion.vocabulary.phone import hash_token
from companion.web.server import WebServer
from companion.web.snapshot import SnapshotBoard, build_snapshot

pytestmark = pytest.mark.filterwarnings(
    # the browsers' clients use old APIs of their own (mozinfo, mozrunner, selenium)
    "ignore::DeprecationWarning:mozinfo",
    "ignore::DeprecationWarning:mozrunner",
    "ignore::DeprecationWarning:selenium",
)
#: How long the page may take to show a change (a bound on liveness, not a timing).
SHOWN_S = 15.0
REFUSED = "This page needs the table code: scan the QR code on the companion's Phones page."

#: Firefox's test profile: Marionette on a port of Firefox's choosing (written to
#: ``MarionetteActivePort``), no first-run pages, and the user style sheet below.
FIREFOX_PREFS = {
    "marionette.port": 0,
    "toolkit.legacyUserProfileCustomizations.stylesheets": True,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "browser.aboutwelcome.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "app.update.disabledForTesting": True,
    # scroll bars over the page, as on a phone (not a desktop's 12 px taken off its width)
    "ui.useOverlayScrollbars": 1,
}
#: Firefox's toolbars keep its window at least 500 px wide: without them (and their
#: minimum width) the page gets the whole window, a phone's 360 px.
FIREFOX_CHROME_CSS = """\
:root, #main-window, #browser, #tabbrowser-tabbox { min-width: 0 !important; }
#navigator-toolbox { display: none !important; }
"""
#: MiniBrowser's toolbar keeps its window at least 447 px wide: GTK 3 reads this user
#: style sheet (``$XDG_CONFIG_HOME/gtk-3.0/gtk.css``) and lets the toolbar shrink.
MINIBROWSER_GTK_CSS = """\
headerbar, toolbar, toolbar *, headerbar *, entry, button {
  min-width: 0; min-height: 0; padding: 0; margin: 0; font-size: 1px;
}
"""

#: The non-transparent pixels of a chart's canvas (as tests/web/test_web_browser.py counts).
INKED = """
const canvas = document.querySelector(arguments[0] + " canvas");
const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
let inked = 0;
for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) inked++;
return inked;
"""


class Phone:
    """One browser at a phone's size; what the tests do with it, whatever drives it."""

    name = ""

    def open(self, url: str) -> None:
        raise NotImplementedError

    def reload(self) -> None:
        raise NotImplementedError

    def run(self, script: str, *args: Any) -> Any:
        """``script`` (a function body: ``arguments``, ``return``) run in the page."""
        raise NotImplementedError

    def click(self, selector: str) -> None:
        """A real click (the driver's input events) on the element ``selector`` finds."""
        raise NotImplementedError

    def png(self) -> bytes:
        """The viewport as a PNG."""
        raise NotImplementedError

    def wait_for(self, selector: str) -> None:
        """Until an element matches ``selector`` (a selector, not a JavaScript predicate:
        it reads the page as it is)."""
        deadline = time.monotonic() + SHOWN_S
        while not self.count(selector):
            assert time.monotonic() < deadline, f"{self.name}: nothing matches {selector}"
            time.sleep(0.05)

    def wait_for_actions(self, count: int) -> None:
        self.wait_for(f'body[data-actions="{count}"]')

    def count(self, selector: str) -> int:
        return int(self.run("return document.querySelectorAll(arguments[0]).length", selector))

    def text(self, selector: str) -> str:
        return str(self.run("return document.querySelector(arguments[0]).innerText", selector))

    def texts(self, selector: str) -> list[str]:
        found = self.run(
            "return Array.from(document.querySelectorAll(arguments[0]), e => e.innerText)",
            selector,
        )
        return [str(each).strip() for each in found]

    def visible(self, selector: str) -> bool:
        return bool(
            self.run(
                "const e = document.querySelector(arguments[0]);"
                "return e !== null && e.getClientRects().length > 0",
                selector,
            )
        )

    def width(self) -> int:
        """The page's width: more than the phone's means a sideways scroll."""
        return int(self.run("return document.documentElement.scrollWidth"))

    def shot(self, name: str) -> None:
        folder = os.environ.get("HANABI_SCREENSHOTS")
        if folder:
            (Path(folder) / f"{self.name}-{name}.png").write_bytes(self.png())


class FirefoxPhone(Phone):
    name = "firefox"

    def __init__(self, client: Any) -> None:
        from marionette_driver.by import By

        self.client = client
        self.by_css = By.CSS_SELECTOR

    def open(self, url: str) -> None:
        self.client.navigate(url)

    def reload(self) -> None:
        self.client.refresh()

    def run(self, script: str, *args: Any) -> Any:
        return self.client.execute_script(script, script_args=list(args))

    def click(self, selector: str) -> None:
        self.client.find_element(self.by_css, selector).click()

    def png(self) -> bytes:
        return bytes(self.client.screenshot(format="binary", full=False))


class WebKitPhone(Phone):
    name = "webkit"

    def __init__(self, driver: Any) -> None:
        from selenium.webdriver.common.by import By

        self.driver = driver
        self.by_css = By.CSS_SELECTOR

    def open(self, url: str) -> None:
        self.driver.get(url)

    def reload(self) -> None:
        self.driver.refresh()

    def run(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def click(self, selector: str) -> None:
        self.driver.find_element(self.by_css, selector).click()

    def png(self) -> bytes:
        return base64.b64decode(self.driver.get_screenshot_as_base64())


def viewport(phone: Phone) -> tuple[int, int]:
    width, height = phone.run("return [window.innerWidth, window.innerHeight]")
    return int(width), int(height)


def firefox(folder: Path) -> Iterator[Phone]:
    """Debian's Firefox ESR, headless, in a new profile, driven over Marionette."""
    binary = need_tool("firefox-esr")
    try:
        from marionette_driver.marionette import Marionette
    except ImportError:
        unavailable("marionette_driver is not installed (pip install -e '.[test]')")
    profile = folder / "profile"
    (profile / "chrome").mkdir(parents=True)
    (profile / "chrome" / "userChrome.css").write_text(FIREFOX_CHROME_CSS, encoding="utf-8")
    prefs = "".join(
        f"user_pref({json.dumps(name)}, {json.dumps(value)});\n"
        for name, value in FIREFOX_PREFS.items()
    )
    (profile / "user.js").write_text(prefs, encoding="utf-8")
    with (folder / "firefox.log").open("wb") as log:
        process = subprocess.Popen(
            [binary, "-marionette", "-headless", "-no-remote", "--profile", str(profile)],
            stdout=log,
            stderr=log,
        )
    try:
        active = profile / "MarionetteActivePort"
        deadline = time.monotonic() + 60
        while not (active.exists() and active.read_text().strip()):
            assert process.poll() is None, "firefox exited: " + (folder / "firefox.log").read_text()
            assert time.monotonic() < deadline, "firefox opened no Marionette port"
            time.sleep(0.1)
        client = Marionette(host="127.0.0.1", port=int(active.read_text()))
        client.start_session()
        try:
            client.set_window_rect(width=PHONE["width"], height=PHONE["height"])
            phone = FirefoxPhone(client)
            yield phone
        finally:
            client.delete_session()
    finally:
        process.terminate()
        process.wait(timeout=30)


def webkit(folder: Path, display: dict[str, str]) -> Iterator[Phone]:
    """WebKitGTK's MiniBrowser in Xvfb, driven by WebKitWebDriver through Selenium."""
    driver_binary = need_tool("WebKitWebDriver")
    try:
        from selenium import webdriver
    except ImportError:
        unavailable("selenium is not installed (pip install -e '.[test]')")
    gtk = folder / "config" / "gtk-3.0"
    gtk.mkdir(parents=True)
    (gtk / "gtk.css").write_text(MINIBROWSER_GTK_CSS, encoding="utf-8")
    # LANG=C.UTF-8, as on Debian's containers and most CI runners: WebKitGTK then says
    # navigator.language is "C", no valid language tag (uPlot 1.6.32 failed on it: see
    # companion/web/static/uplot.LICENSE.txt). Pinned, so the tests meet it everywhere.
    env = {
        **{name: value for name, value in display.items() if name not in ("LANGUAGE", "LC_ALL")},
        "LANG": "C.UTF-8",
        "XDG_CONFIG_HOME": str(folder / "config"),
    }
    service = webdriver.WebKitGTKService(
        executable_path=driver_binary, env=env, log_output=str(folder / "webkit.log")
    )
    driver = webdriver.WebKitGTK(options=webdriver.WebKitGTKOptions(), service=service)
    try:
        driver.set_window_rect(width=PHONE["width"], height=PHONE["height"])
        phone = WebKitPhone(driver)
        # the window holds a toolbar above the page: the page gets 740 px of height
        outer, inner = phone.run("return [window.outerHeight, window.innerHeight]")
        driver.set_window_rect(
            width=PHONE["width"], height=PHONE["height"] + int(outer) - int(inner)
        )
        yield phone
    finally:
        driver.quit()


@pytest.fixture(scope="module", params=["firefox", "webkit"])
def phone(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Phone]:
    folder = tmp_path_factory.mktemp(request.param)
    if request.param == "firefox":
        browser = firefox(folder)
    else:
        browser = webkit(folder, request.getfixturevalue("xvfb"))
    opened = next(browser)
    yield opened
    browser.close()


def serve(board: SnapshotBoard, code: str, **more: Any) -> tuple[WebServer, str]:
    """The real server on a port of its own (a page of its own origin: a fresh
    localStorage per test); its URL with the table code."""
    port = free_port()
    server = WebServer(board, code, port=port, bind="127.0.0.1", **more)
    server.start()
    assert server.ready.wait(10) and server.failure is None
    return server, f"http://127.0.0.1:{port}/"


def test_the_browser_has_a_phones_viewport(phone: Phone) -> None:
    """The other tests see the page at 360x740, as on a phone held upright."""
    server, url = serve(SnapshotBoard(snapshot_of(0)), "size2345")
    try:
        phone.open(url + "?code=size2345")
        phone.wait_for_actions(0)
        assert viewport(phone) == (PHONE["width"], PHONE["height"])
    finally:
        server.stop()


def test_the_page_shows_the_table_and_follows_it_live(phone: Phone) -> None:
    """Issue 21 in Firefox and Safari's engine: without the table code, one sentence; with
    it, the table (turn, tokens, draw pile, fireworks, the last action in words), then each
    new position of the table without a reload (Server-Sent Events), and the code kept
    (a cookie) when the link is opened bare."""
    first = snapshot_of(1)
    board = SnapshotBoard(first)
    server, url = serve(board, "live2345")
    try:
        phone.open(url)
        phone.wait_for("body")
        assert phone.text("body").strip() == REFUSED

        phone.open(url + "?code=live2345")
        phone.wait_for_actions(1)
        assert phone.text("#turn") == first.turn == "Bo to play"
        assert phone.text("#hints") == f"{first.hints}/8" == "7/8"
        assert phone.text("#fuses") == "0/3"
        assert phone.text("#deck") == str(first.deck)
        assert phone.texts("#fireworks .card .rank") == ["–"] * 5
        assert phone.text("#recent li:first-child") == first.recent[0]
        assert not phone.visible("#offline")
        assert phone.width() <= PHONE["width"]
        phone.shot("table")

        board.publish(snapshot_of(2))  # Bo plays red 1
        phone.wait_for_actions(2)
        assert phone.text("#turn") == "Ann to play"
        assert phone.texts("#fireworks .card .rank") == ["1", "–", "–", "–", "–"]
        board.publish(snapshot_of(3))  # Ann plays yellow 1
        phone.wait_for_actions(3)
        assert phone.texts("#fireworks .card .rank") == ["1", "1", "–", "–", "–"]
        assert phone.text("#recent li:first-child") == snapshot_of(3).recent[0]
        assert phone.run("return document.body.dataset.eventId") == "3"
        phone.shot("table-live")

        phone.open(url)  # the bare link: the cookie holds the code
        phone.wait_for_actions(3)
    finally:
        server.stop()


def test_the_page_reconnects_after_the_server_restarts(phone: Phone) -> None:
    """Issue 21 in Firefox and Safari's engine (each has its own EventSource): the server
    goes away while the table plays on; the page says it lost the connection, reconnects
    by itself, and shows the table as it is now (its last event id the table's)."""
    board = SnapshotBoard(snapshot_of(1))
    server, url = serve(board, "back2345")
    port = int(url.rsplit(":", 1)[1].strip("/"))
    phone.open(url + "?code=back2345")
    phone.wait_for_actions(1)
    server.stop()
    phone.wait_for("#offline:not([hidden])")
    assert phone.visible("#offline")
    phone.shot("offline")
    board.publish(snapshot_of(2))  # the table went on while the page was away
    board.publish(snapshot_of(3))
    again = WebServer(board, "back2345", port=port, bind="127.0.0.1")
    again.start()
    try:
        assert again.ready.wait(10) and again.failure is None
        phone.wait_for_actions(3)
        assert not phone.visible("#offline")
        assert phone.run("return document.body.dataset.eventId") == "3"
    finally:
        again.stop()


def slot_ranks(phone: Phone, selector: str) -> list[str]:
    """Each slot's known rank ('' when the hints leave more than one)."""
    found = phone.run(
        "return Array.from(document.querySelectorAll(arguments[0] + ' .slot'),"
        " s => s.querySelector('.rank') ? s.querySelector('.rank').innerText : '')",
        selector,
    )
    return [str(rank).strip() for rank in found]


def test_my_hand_shows_the_seat_picked_once(phone: Phone) -> None:
    """Issue 21 in Firefox and Safari's engine: "My hand" asks for a seat once (the phone
    remembers it, across a reload) and shows that seat's hand memory, slot 1 at the left,
    after a hint and after a card left the hand; every seat's hand a tap away."""
    board = SnapshotBoard(snapshot_of(1))  # Ann told Bo: 1s, slots 1 and 2
    server, url = serve(board, "mine2345")
    try:
        phone.open(url + "?code=mine2345")
        phone.wait_for_actions(1)
        phone.click("button[data-view=mine]")
        phone.wait_for("#seat-picker:not([hidden])")
        assert phone.texts("#seat-buttons button") == ["Ann", "Bo"]
        phone.click("#seat-buttons button:nth-child(2)")
        phone.wait_for("#my-hand:not([hidden])")
        assert phone.text("#my-name") == "Bo"
        assert slot_ranks(phone, "#my-slots") == ["1", "1", "", "", ""]
        assert phone.width() <= PHONE["width"]
        phone.shot("my-hand")

        board.publish(snapshot_of(2))  # Bo plays slot 1: a new card takes slot 1
        phone.wait_for_actions(2)
        assert slot_ranks(phone, "#my-slots") == ["", "1", "", "", ""]
        phone.reload()
        phone.wait_for_actions(2)
        assert phone.text("#my-name") == "Bo"

        phone.click("button[data-view=hands]")
        phone.wait_for("#all-hands .seat")
        assert phone.texts("#all-hands .seat .name") == ["Ann", "Bo"]
        assert phone.width() <= PHONE["width"]
        phone.shot("every-hand")
    finally:
        server.stop()


def test_a_paired_phone_searches_the_next_variant(phone: Phone) -> None:
    """Issue 35 in Firefox and Safari's engine: while the panel shows the set-up, a paired
    phone sees the next game's variant, and a few letters typed get the companion's own
    search (tests/web/test_phone_setup.py picks one in Chromium with the real app)."""
    board = SnapshotBoard(build_snapshot(Controller(SetupDraft(players=3))))
    server, url = serve(board, "setu2345")
    server.paired = {hash_token("phone-token"): "Di"}
    try:
        phone.open(url + "?code=setu2345")
        phone.wait_for("#setup:not([hidden])")
        assert phone.text("#setup-next") == "Next game: No variant"
        phone.run("localStorage.setItem('hanabi-phone-token', 'phone-token')")
        phone.reload()
        phone.wait_for('#setup-results[data-search=""] button')
        assert phone.texts("#setup-results button")[:3] == [
            "No variant",
            "Black (6 Suits)",
            "Rainbow (6 Suits)",
        ]
        phone.run(
            "const box = document.getElementById('setup-search');"
            "box.value = 'null rainbow'; box.dispatchEvent(new Event('input'));"
        )
        phone.wait_for('#setup-results[data-search="null rainbow"] button')
        names = phone.texts("#setup-results button")
        assert names[0] == "Rainbow-Ones & Null (6 Suits)"
        assert all("Null" in name and "Rainbow" in name for name in names), names
        assert phone.width() <= PHONE["width"]
        phone.shot("variant-search")
    finally:
        server.stop()


def test_the_history_draws_its_charts(phone: Phone, tmp_path: Path) -> None:
    """Issue 21 in Firefox and Safari's engine: the History tab lists the stored games (the
    unfinished one marked), draws both charts (uPlot on a canvas: pixels inked, not an
    empty frame), fits the phone, and opens a game's actions in words."""
    from test_web import stored_games

    from companion.web.history import HistorySource

    storage = stored_games(tmp_path / "data", finished=6)
    source = HistorySource(storage)
    server, url = serve(SnapshotBoard(snapshot_of(1)), "hist2345", history=source)
    try:
        phone.open(url + "?code=hist2345")
        phone.wait_for_actions(1)
        phone.click("button[data-view=history]")
        phone.wait_for("#games .game-row")
        assert phone.count("#games .game-row") == 7
        assert phone.count("#games .game-row.unfinished") == 1
        assert phone.count("#stats tr") == 2
        for chart in ("#chart-scores", "#chart-distribution"):
            phone.wait_for(f"{chart} canvas")
            inked = int(phone.run(INKED, chart))
            assert inked > 500, (phone.name, chart, inked)  # a line or bars drawn
        assert phone.width() <= PHONE["width"]
        # a page longer than the screen still has all of its width (as on a phone)
        assert phone.run("return document.documentElement.clientWidth") == PHONE["width"]
        phone.shot("history")

        phone.click("#games .game-row:not(.unfinished)")
        phone.wait_for("#game-detail:not([hidden])")
        assert phone.count("#game-actions li") > 10
        href = phone.run("return document.getElementById('game-log').getAttribute('href')")
        assert str(href).startswith("/games/") and ".log" in str(href)
        phone.shot("history-game")
    finally:
        server.stop()
        storage.close()


@pytest.mark.parametrize(("state", "lang"), [("hand_memory_final_round", "de"), ("end_five", "fr")])
def test_the_busiest_tables_fit_a_phone(phone: Phone, state: str, lang: str) -> None:
    """Issue 21 in Firefox and Safari's engine: five long names, six suits, the final
    round, a long discard pile, the end with its rating, in German and French (their long
    words break lines differently in each engine): every tab fits 360 px."""
    from support.screen_states import STATES

    controller = STATES[state](lang)
    assert controller.game is not None
    code = "busy2345"
    server, url = serve(SnapshotBoard(build_snapshot(controller, game_key="1")), code)
    try:
        phone.open(url + f"?code={code}")
        phone.wait_for_actions(len(controller.game.actions))
        assert phone.run("return document.documentElement.lang") == lang
        for view in ("table", "mine", "hands"):
            phone.click(f"button[data-view={view}]")
            if view == "mine" and phone.visible("#seat-picker"):
                phone.click("#seat-buttons button:nth-child(1)")
            assert phone.width() <= PHONE["width"], (phone.name, view, phone.width())
            phone.shot(f"{state}-{lang}-{view}")
        if controller.game.is_over:
            phone.click("button[data-view=table]")
            assert phone.visible("#result")
    finally:
        server.stop()
