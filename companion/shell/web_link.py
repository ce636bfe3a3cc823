"""The app's side of the page for phones, which publishes the table after every change.

It starts the server after the first frame and keeps the table code.

Imports no aiohttp: :mod:`companion.web.server` is imported when the first frame is on
the screen, and :mod:`companion.web.snapshot` when the first snapshot is made (after
that frame), so the time from start to the first frame does not grow. A server that
cannot start (aiohttp missing, the port taken) is one line in the log; the table plays
on, and the snapshots are still made (cheaply) for nothing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.core.controller import Controller, Screen
from companion.shell.no_tls import without_tls
from companion.vocabulary.phone import PairedPhone, PhoneEvent
from companion.web.address import CODE_SETTING, lan_address, new_code, page_url

if TYPE_CHECKING:
    from companion.storage import Storage
    from companion.web.server import WebServer
    from companion.web.snapshot import SnapshotBoard

log = logging.getLogger("hanabi-companion")


def table_code(storage: Storage) -> str:
    """The table code kept in the settings; a new one (stored) the first time."""
    code = storage.get_setting(CODE_SETTING)
    if isinstance(code, str) and code:
        return code
    code = new_code()
    storage.set_setting(CODE_SETTING, code)
    return code


class WebLink:
    """The app loop's link to the page for phones: it builds snapshots, hands them to the
    server (owned by the app loop, one thread)."""

    def __init__(self, storage: Storage, *, port: int = 8080, bind: str = "") -> None:
        self.storage = storage
        self.port = port
        self.bind = bind
        self.code = table_code(storage)
        self.address = lan_address(bind)
        self.board: SnapshotBoard | None = None
        self.server: WebServer | None = None
        #: Set once the server object exists (or could not be made): see :meth:`start`.
        self.started = threading.Event()
        self._key: Any = None
        #: Where the server leaves a phone's request for the app loop (set by the app).
        self.inbox: Callable[[PhoneEvent], None] | None = None
        self._paired: dict[bytes, str] = {}

    @property
    def url(self) -> str:
        """What a phone opens: the QR code of the Phones page, the ``phones:`` line."""
        return page_url(self.address, self.port, self.code)

    def frame(self, controller: Controller, game_id: int | None) -> None:
        """After a frame: publish the table if it changed; the first time, start serving.
        Only reads the controller (the app told it the URL: PhonesServed)."""
        game = controller.game
        key = (
            game_id,
            id(game),
            controller.language,
            len(game.actions) if game else -1,
            game.actions[-1] if game and game.actions else None,
            tuple(controller.reveals.shown) if game else (),  # the hands shown at the end
            controller.screen is Screen.SETUP,  # a phone may choose the next variant
            controller.draft.options.variant,
        )
        if key == self._key and self.board is not None:
            return  # nothing a phone shows changed (a key moved a focus, an entry step)
        self._key = key
        # The first snapshot is made after the first frame, which does not wait for it.
        from companion.web.snapshot import SnapshotBoard, build_snapshot

        snapshot = build_snapshot(controller, game_key="" if game_id is None else str(game_id))
        if self.board is None:
            self.board = SnapshotBoard(snapshot)
            self.start()
        else:
            self.board.publish(snapshot)

    def start(self) -> None:
        """Start serving, from a thread of its own: importing aiohttp takes a while (most
        of a second here, seconds on a Pi Zero), and the panel must not wait for it."""
        threading.Thread(target=self._start, name="web-start", daemon=True).start()

    def _start(self) -> None:
        assert self.board is not None
        try:
            try:
                with without_tls():  # aiohttp, optional, imported in this thread
                    from companion.web.server import WebServer
            except ImportError as error:
                missing = error.name or "aiohttp"
                log.warning("web: no page for phones: %s is not installed", missing)
                return
            from companion.web.history import HistorySource  # the server's, in its thread

            history = HistorySource(self.storage)
            server = WebServer(
                self.board,
                self.code,
                port=self.port,
                bind=self.bind,
                history=history,
                submit=self.inbox,
            )
            server.paired = self._paired
            self.server = server
            server.start()
        finally:
            self.started.set()

    def wait_ready(self, timeout: float) -> bool:
        """Until the server listens or gave up (tests, benchmarks); False on timeout."""
        if not self.started.wait(timeout):
            return False
        return self.server is None or self.server.ready.wait(timeout)

    def publish_phones(self, paired: dict[bytes, PairedPhone]) -> None:
        """Who may enter actions, for the server to turn other phones away early (the
        app loop still checks every request against its own list)."""
        self._paired = {token_hash: phone.name for token_hash, phone in paired.items()}
        if self.server is not None:
            self.server.paired = self._paired

    def renew_code(self) -> str:
        """A new table code (the menu's Phones page): stored, and old links stop working."""
        code = new_code()
        self.storage.set_setting(CODE_SETTING, code)
        self.code = code
        if self.server is not None:
            self.server.code = code
        return code

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
