"""The companion in-process with its page for phones, and a phone driving that page in a
real Chromium: shared by tests/web/test_web_input_browser.py and
benchmarks/inputs_per_action.py (the taps a phone needs per action).

:class:`LiveTable` is the real app (:class:`companion.shell.app.App`, real SQLite files, the
real web server on a free port), its loop turning in a thread of its own as it turns on
the appliance; the panel's own inputs reach it as the buttons' thread sends them
(:meth:`LiveTable.emit`). :class:`Phone` is a page at 360x740 that counts every tap it
makes on what the page drew.
"""

from __future__ import annotations

import http.client
import itertools
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from companion.core.controller import Screen, SetupDraft
from companion.panel.display import open_display
from companion.shell.app import App, resume
from companion.shell.web_link import WebLink
from companion.storage import Storage
from companion.web.server import TOKEN_HEADER
from engine.log import GameLog, parse_log
from engine.options import GameOptions
from hardware.events import InputEvent, Key, Press, Select

#: How long the page or the panel may take to show a change (a bound on liveness).
SHOWN_MS = 15_000
COMMAND = [sys.executable, "-m", "companion"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(check: Any, what: str, timeout: float = SHOWN_MS / 1000) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.02)


class LiveTable:
    """The companion, its page served on 127.0.0.1, a game started with ``players`` and
    the options (``start=False``: the set-up still shown). :meth:`close` stops it all."""

    def __init__(
        self,
        data: Path,
        *,
        players: int = 3,
        hand_memory: bool = True,
        hint_content: bool = False,
        language: str = "en",
        start: bool = True,
        confirm_pairing: bool = True,
        **options: Any,
    ) -> None:
        # no window, no systemd: given back as they were by close()
        names = ("SDL_VIDEODRIVER", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")
        self._environ = {name: os.environ.pop(name, None) for name in names}
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        self.data = data
        self.storage = Storage.open(data)
        options = GameOptions(hand_memory=hand_memory, **options)
        draft = SetupDraft(
            players=players, options=options, language=language, hint_content=hint_content
        )
        controller, game_id = resume(self.storage, draft)
        self.display = open_display("dummy", (480, 320))
        self.app = App(self.storage, self.display, controller, game_id)
        self.web = WebLink(self.storage, port=free_port(), bind="127.0.0.1")
        self.app.attach_web(self.web)
        self.app.step()
        assert self.web.wait_ready(10) and self.web.server is not None
        if start:
            self.app.dispatch(Press(Key.OK))  # Start
            self.app.step()
            assert self.app.controller.game is not None
        #: The person at the panel says yes to every "Pair Di's phone? OK" (False: the
        #: test answers, with :meth:`emit`).
        self.confirm_pairing = confirm_pairing
        self._stop = threading.Event()
        self._loop = threading.Thread(target=self._turn, name="app-loop", daemon=True)
        self._loop.start()

    def _turn(self) -> None:
        asked = None
        while not self._stop.is_set():
            self.app.step(50)
            pending = self.app.controller.pending_pair
            if self.confirm_pairing and pending is not None and pending is not asked:
                asked = pending
                self.app.dispatch(Press(Key.OK))  # "Pair Di's phone?": OK

    @property
    def url(self) -> str:
        assert self.web.server is not None
        return f"http://127.0.0.1:{self.web.server.bound_port}/?code={self.web.code}"

    def emit(self, *events: InputEvent) -> None:
        """The panel's inputs (buttons, keys), as their threads hand them to the loop."""
        for event in events:
            self.app.inbox.emit(event)

    def open_phones_page(self) -> str:
        """Open the panel's Phones page (menu, Phones) and read the pairing code it shows."""
        self.emit(Press(Key.MENU), Select("phones"))
        controller = self.app.controller
        wait_until(
            lambda: controller.screen is Screen.PHONES and controller.pairing_code is not None,
            "the Phones page with its pairing code",
        )
        code = controller.pairing_code
        assert code is not None
        return code

    def back_to_game(self) -> None:
        """Leave the Phones page (for the game, or the set-up before one)."""
        self.emit(Press(Key.BACK))
        wait_until(
            lambda: self.app.controller.screen in (Screen.GAME, Screen.SETUP), "the game screen"
        )

    def remove_phone(self, name: str) -> None:
        """On the Phones page: the phone's Remove button."""
        self.open_phones_page()
        phones = [p for p in self.app.controller.paired.values() if p.name == name]
        assert len(phones) == 1, phones
        self.emit(Select(f"remove_phone:{phones[0].id}"), Press(Key.OK))  # asked, then OK
        wait_until(lambda: not self.app.controller.paired, f"{name}'s phone removed")
        self.back_to_game()

    def stored(self) -> GameLog:
        """The game as the database holds it (``export``, in a process of its own)."""
        text = subprocess.run(
            [*COMMAND, "export", "--data-dir", str(self.data)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return parse_log(text)

    def close(self) -> None:
        self._stop.set()
        self.app.sleeper.poke()
        self._loop.join(10)
        self.web.stop()
        self.app.sleeper.close()
        self.display.close()
        self.storage.close()
        for name, value in self._environ.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class Phone:
    """A phone's page (Playwright), counting the taps made on it."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.taps = 0
        page.goto(url)

    def tap(self, selector: str) -> None:
        self.page.click(selector)
        self.taps += 1

    def shows_actions(self, count: int) -> None:
        self.page.wait_for_selector(
            f'body[data-actions="{count}"]', state="attached", timeout=SHOWN_MS
        )

    def pair(self, code: str, name: str | None = None) -> None:
        """The pairing form at the bottom of the Table tab: the code, the name, Pair."""
        self.tap("#pair-open")
        self.page.fill("#pair-code", code)
        if name is not None:
            self.page.fill("#pair-name", name)
        self.tap("#pair-submit")
        self.page.wait_for_selector("#paired-as:not([hidden])", timeout=SHOWN_MS)

    def preview(self) -> str:
        return str(self.page.inner_text("#flow .preview", timeout=SHOWN_MS))

    def answer(self) -> str:
        self.page.wait_for_selector("#act-status:not([hidden])", timeout=SHOWN_MS)
        return str(self.page.inner_text("#act-status"))


class PhoneApi:
    """The page's requests to a :class:`LiveTable`, made from the test's thread as a phone
    makes them (the table code as a cookie, the pairing token once paired)."""

    def __init__(self, table: LiveTable) -> None:
        assert table.web.server is not None
        self.port, self.code = table.web.server.bound_port, table.web.code
        self.token = ""
        self._ids = (f"phone-api-{n:010d}" for n in itertools.count())

    def request(self, method: str, path: str, body: object = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            headers = {"Cookie": f"table={self.code}", "Content-Type": "application/json"}
            if self.token:
                headers[TOKEN_HEADER] = self.token
            data = None if body is None else json.dumps(body).encode()
            connection.request(method, path, body=data, headers=headers)
            answer = connection.getresponse()
            return answer.status, json.loads(answer.read())
        finally:
            connection.close()

    def pair(self, table: LiveTable, name: str) -> None:
        """Pair with the code the panel's Phones page shows (the panel says OK), then
        back to where the panel was."""
        code = table.open_phones_page()
        status, answer = self.request("POST", "/api/pair", {"code": code, "name": name})
        assert status == 200, answer
        self.token = answer["token"]
        table.back_to_game()

    def new_id(self) -> str:
        return next(self._ids)

    def move(self, path: str, action: object, request_id: str | None = None) -> tuple[int, Any]:
        """An action on the position the phone sees (a new request id unless given)."""
        snapshot = self.request("GET", "/snapshot.json")[1]
        body = {
            "id": request_id or self.new_id(),
            "game": snapshot["game"],
            "position": snapshot["actions"],
            "action": action,
        }
        return self.request("POST", path, body)
