"""The web server for phones: aiohttp on its own asyncio loop, in a daemon thread.

It reads only the latest :class:`~companion.web.snapshot.Snapshot` of a
:class:`~companion.web.snapshot.SnapshotBoard` (never pygame, never the controller)
and the page's files, read once into memory at start (no path from a request ever
reaches the file system). Every request needs the table code (``?code=`` then a
cookie); nothing changes state.

Routes: ``/`` the page, ``/static/NAME`` its files, ``/snapshot.json`` the table now,
``/events`` the table as Server-Sent Events (one event per change, the action count as
its id; a phone that connects, or reconnects with ``Last-Event-ID``, gets the current
table at once: each event is the whole table, so resuming never shows half a change).

A paired phone also enters actions (issue 22): ``POST /api/pair`` (the code the
panel's Phones page shows), ``POST /api/preview`` and ``POST /api/act`` (an action, an
undo), ``GET /api/phone`` (is this phone paired). A POST needs the table code, a JSON
body and, but for pairing, the phone's token in ``X-Phone-Token``: a form on another
site can send none of the last two. Each request becomes one event of the app loop (see
:mod:`companion.vocabulary.phone`), and the answer is what the loop says once the action is
stored; the server decides nothing about the game.

A guest on the Wi-Fi cannot lock the table out (issue 37): a connection is admitted
only from the Pi's own networks and within its address's share
(:mod:`companion.web.admission`, :mod:`companion.web.limits`), the Host header must name
the companion, and a POST without a paired token is refused here, in the server's
thread: only paired phones' moves and pairings reach the app loop.

A failure here is one line in the log and the table plays on (:meth:`WebServer.start`
never raises).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gzip
import hmac
import logging
import mimetypes
import os
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
from aiohttp import web
from msgspec import Struct

from companion.core import i18n
from companion.core.variant_pick import MAX_SEARCH_LENGTH, variant_choices
from companion.vocabulary.phone import (
    Answer,
    BadRequest,
    PhoneEvent,
    PhoneMove,
    PhonePair,
    PhoneSetup,
    hash_token,
    new_token,
    parse_move,
)
from companion.web.admission import Admission, Arrivals, GatedSite, listening_sockets
from companion.web.door import Door
from companion.web.limits import (
    CONNECTIONS_PER_ADDRESS,
    MAX_CONNECTIONS,
    MAX_STREAMS,
    PAIR_TRIES_PER_ADDRESS,
    PAIR_WINDOW,
    REFUSAL_WINDOW,
    REFUSALS_PER_ADDRESS,
    STREAMS_PER_ADDRESS,
    Gate,
    Network,
    QuietErrors,
    Window,
    host_names,
    host_of,
    local_networks,
    on_networks,
)
from companion.web.live import LivePages, chunk
from companion.web.peer import address_key
from companion.web.snapshot import SnapshotBoard

if TYPE_CHECKING:
    from companion.web.history import HistorySource

log = logging.getLogger("hanabi-companion")

STATIC_DIR = Path(__file__).resolve().parent / "static"
PAGE = "index.html"
COOKIE = "table"
#: A phone keeps the code a month: a table that plays every week never rescans.
COOKIE_MAX_AGE = 30 * 24 * 3600

#: A phone's action is a hundred bytes or so; any body above this is refused (413).
MAX_BODY = 1024
#: The variants a phone's search is given at most (it says how many more there are).
VARIANTS_SHOWN = 40
MAX_LINE = 2048  # the request line (a URL with its code is ~60 characters)
MAX_FIELD = 4096  # one header
MAX_HEADERS = 40
#: An idle keep-alive connection is closed after this long.
IDLE_SECONDS = 30.0
#: How long a phone's request waits for the table's answer (the loop is busy at most
#: tens of milliseconds; past this the phone is told to try again, with the same id).
ANSWER_SECONDS = 10.0
#: How long a pairing waits for the panel's OK ("Pair Di's phone? OK").
PAIR_ANSWER_SECONDS = 90.0
#: How often at most the Pi's networks are read again for a peer not on them.
NETWORKS_AGAIN = 10.0
#: What the ``Server`` header says: no Python, no aiohttp, no version.
SERVER_NAME = "hanabi-companion"
#: The header a paired phone's requests carry its token in (a form cannot set one).
TOKEN_HEADER = "X-Phone-Token"

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
        " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    # the code is in the URL: it never leaves with a link followed from the page
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class _OneLine(logging.Filter):
    """aiohttp's request errors: a malformed request (the client's doing) says nothing; a
    failure of ours is one line in the companion's log, never a traceback. A phone on
    the Wi-Fi can thus not fill the journal."""

    def filter(self, record: logging.LogRecord) -> bool:
        from aiohttp.http_exceptions import HttpProcessingError

        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError | ConnectionError | TimeoutError):
            return False
        if error is not None:
            log.warning("web: a request failed: %s", _reason(error))
        else:
            log.warning("web: %s", record.getMessage())
        return False


#: Where aiohttp's server says what went wrong with a request (see :class:`_OneLine`).
REQUEST_LOG = logging.getLogger("hanabi-companion.web.requests")
REQUEST_LOG.addFilter(_OneLine())
REQUEST_LOG.propagate = False


class StaticFile(Struct, frozen=True):
    content_type: str
    raw: bytes
    gzipped: bytes


def load_static(folder: Path = STATIC_DIR) -> dict[str, StaticFile]:
    """The page's files by name (one folder, no sub-folders), each also gzipped."""
    files = {}
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.name.startswith("."):
            continue
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "image/svg+xml"):
            kind += "; charset=utf-8"
        raw = path.read_bytes()
        files[path.name] = StaticFile(kind, raw, gzip.compress(raw, 9, mtime=0))
    return files


def page_weight(files: dict[str, StaticFile] | None = None) -> tuple[int, int]:
    """The first load's bytes, raw and gzipped: every file of the page."""
    files = files if files is not None else load_static()
    return sum(len(f.raw) for f in files.values()), sum(len(f.gzipped) for f in files.values())


class WebServer:
    """The page for phones. :meth:`start` returns at once; the server runs in its own
    thread until :meth:`stop` (or the process ends: the thread is a daemon)."""

    def __init__(
        self,
        board: SnapshotBoard,
        code: str,
        *,
        port: int = 8080,
        bind: str = "",
        static: dict[str, StaticFile] | None = None,
        history: HistorySource | None = None,
        submit: Callable[[PhoneEvent], None] | None = None,
        networks: list[Network] | None = None,
        hosts: set[str] | None = None,
    ) -> None:
        self.board = board
        self.history = history
        #: Hands a phone's request to the app loop (None: phones only read).
        self.submit = submit
        #: The paired phones' names by their token's hash, as the app last published them.
        self.paired: dict[bytes, str] = {}
        #: The networks a peer must be on (None: the Pi's own, read at start) and the
        #: names a Host header may give (None: the companion's, worked out at start).
        self.networks = networks
        self._read_networks = networks is None
        self._networks_read = 0.0
        self.hosts = hosts
        self.pair_tries = Window(PAIR_TRIES_PER_ADDRESS, PAIR_WINDOW)
        self.connections = Gate(CONNECTIONS_PER_ADDRESS, MAX_CONNECTIONS)
        self.stream_places = Gate(STREAMS_PER_ADDRESS, MAX_STREAMS)
        #: What each address was refused for what no honest page does often.
        self.refusals = Window(REFUSALS_PER_ADDRESS, REFUSAL_WINDOW)
        #: Requests turned away here, by why (they never reach the app loop).
        self.turned_away: dict[str, int] = {}
        #: The process that accepts the connections (None: this thread accepts them).
        self.door: Door | None = None
        self.port = port
        self.bind = bind
        self._code = code
        self._code_lock = threading.Lock()
        self._static = static
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._stopped: asyncio.Event | None = None
        #: The open live pages (each change written to all of them at once).
        self.live = LivePages(self._latest_event, lambda: self.code, self._slow_reader)
        #: The latest snapshot's revision, its JSON and its live-page event (an HTTP/1.1
        #: chunk): encoded once per change, whatever the number of pages.
        self._encoded: tuple[int, bytes, bytes] = (-1, b"", b"")
        #: The port listened on (the one asked, or the one the system gave for port 0).
        self.bound_port: int | None = None
        #: Set once the server listens, or gave up (then :attr:`failure` says why).
        self.ready = threading.Event()
        self.failure: str | None = None

    @property
    def streams(self) -> int:
        """Live pages open now."""
        return self.stream_places.count

    def _slow_reader(self) -> None:
        self.turn_away("slow reader")

    def on_lan(self, remote: str | None) -> bool:
        """Whether a peer is on one of the Pi's networks. Not on those read last: read
        again (at most every :data:`NETWORKS_AGAIN` seconds), for a Wi-Fi that came up
        after the companion, or a new address; a fixed list (tests) is kept as given."""
        networks = self.networks
        if networks is None or on_networks(remote, networks):
            return True
        if not self._read_networks:
            return False
        now = time.monotonic()
        if now - self._networks_read < NETWORKS_AGAIN:
            return False
        self._networks_read = now
        self.networks = local_networks()
        return on_networks(remote, self.networks)

    def turn_away(self, why: str, key: str | None = None) -> None:
        """Count a request or connection turned away; with the address's ``key``, also
        against that address (:data:`REFUSALS_PER_ADDRESS`)."""
        self.turned_away[why] = self.turned_away.get(why, 0) + 1
        if key is not None:
            self.refusals.allow(key)
            until = self.refusals.full_until(key)
            if until is not None and self.door is not None:
                self.door.close_to(key, until)

    def closed_to(self, key: str) -> bool:
        """Whether an address has earned too many refusals: its connections are closed
        unread until its window has room again."""
        return self.refusals.full(key)

    # -- the app thread's side -------------------------------------------------

    @property
    def code(self) -> str:
        with self._code_lock:
            return self._code

    @code.setter
    def code(self, code: str) -> None:
        """A new table code: old links and open pages stop working at once."""
        with self._code_lock:
            self._code = code
        self._wake_threadsafe()

    def start(self) -> None:
        """Serve in a daemon thread; never raises (a failure is logged in one line)."""
        self._thread = threading.Thread(target=self._serve, name="web", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        loop, stopped = self._loop, self._stopped
        if loop is not None and stopped is not None:
            with contextlib.suppress(RuntimeError):  # the loop already ended
                loop.call_soon_threadsafe(stopped.set)
        if self._thread is not None:
            self._thread.join(timeout)

    def _wake_threadsafe(self) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop already ended
                loop.call_soon_threadsafe(self._wake)

    # -- the web thread --------------------------------------------------------

    def _serve(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception as error:  # one line, and the table plays on
            self._fail(f"the page for phones stopped: {_reason(error)}")

    def _fail(self, text: str) -> None:
        self.failure = text
        log.warning("web: %s", text)
        self.ready.set()

    async def _main(self) -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(QuietErrors())  # a failed accept(): a line a minute
        self._loop = loop
        if self._read_networks:
            self.networks = local_networks()
            self._networks_read = time.monotonic()
        if self.hosts is None:
            from companion.web.address import lan_address

            self.hosts = host_names(self.bind, lan_address(self.bind), self.networks or [])
        self._stopped = asyncio.Event()
        if self._static is None:
            self._static = load_static()
        runner = web.AppRunner(
            self._application(),
            access_log=None,
            logger=REQUEST_LOG,
            handle_signals=False,
            # a phone that closes its page ends its stream at once (its place is free)
            handler_cancellation=True,
            keepalive_timeout=IDLE_SECONDS,
            max_line_size=MAX_LINE,
            max_field_size=MAX_FIELD,
            max_headers=MAX_HEADERS,
            shutdown_timeout=1.0,
        )
        await runner.setup()
        self._runner = runner
        try:
            try:
                sockets = listening_sockets(self.bind or None, self.port)
            except OSError as error:
                where = f"{self.bind or 'every address'}, port {self.port}"
                self._fail(f"cannot serve the page for phones on {where}: {_reason(error)}")
                return
            await self._open_door(runner, sockets)
            addresses = runner.addresses
            self.bound_port = int(addresses[0][1]) if addresses else self.port
            self.board.listen(self._wake_threadsafe)
            self.ready.set()
            await self._stopped.wait()
        finally:
            self.board.listen(None)
            door, self.door = self.door, None
            if door is not None:
                door.close()  # before the sockets close: the port is free after stop()
            await runner.cleanup()

    async def _open_door(self, runner: web.AppRunner, sockets: list[socket.socket]) -> None:
        """Serve ``sockets``: the door's process accepts their connections (this thread
        does if it cannot start, or once it stops)."""
        arrivals = Arrivals(self._protocol, self)
        sites: list[GatedSite] = []

        def lost(why: str) -> None:
            log.warning("web: %s", why)
            self.door = None
            for site in sites:
                site.accept_here()

        door = Door(sockets, arrivals.admit, self._closed_by_door, lost)
        self.door = door if door.open(asyncio.get_running_loop()) else None
        for sock in sockets:
            site = GatedSite(runner, sock, arrivals, accepting=self.door is None)
            sites.append(site)
            await site.start()

    def _closed_by_door(self, count: int) -> None:
        self.turned_away["refusals"] = self.turned_away.get("refusals", 0) + count

    def _wake(self) -> None:
        """In the loop: the table (or the code) changed; the live pages follow."""
        self.live.changed()

    def _application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.on_response_prepare.append(_name_server)
        app.router.add_get("/", self._page)
        app.router.add_get("/static/{name}", self._file)
        app.router.add_get("/snapshot.json", self._snapshot)
        app.router.add_get("/events", self._events)
        app.router.add_get("/history.json", self._history)
        app.router.add_get(r"/games/{game:\d{1,9}}.json", self._game)
        app.router.add_get(r"/games/{game:\d{1,9}}.log", self._log)
        app.router.add_get("/api/phone", self._phone)
        app.router.add_post("/api/pair", self._pair)
        app.router.add_post("/api/preview", self._preview)
        app.router.add_post("/api/act", self._act)
        app.router.add_get("/api/variants", self._variants)
        app.router.add_post("/api/setup", self._setup)
        return app

    def _language(self) -> str:
        return self.board.latest()[1].language

    async def _history(self, request: web.Request) -> web.Response:
        """Every stored game and the charts' series (read in a worker thread: the loop
        keeps serving the live page meanwhile)."""
        if self.history is None:
            raise web.HTTPNotFound()
        data = await asyncio.to_thread(self.history.history, self._language())
        return web.Response(body=orjson.dumps(data), content_type="application/json")

    async def _game(self, request: web.Request) -> web.Response:
        if self.history is None:
            raise web.HTTPNotFound()
        game_id = int(request.match_info["game"])
        data = await asyncio.to_thread(self.history.game, game_id, self._language())
        if data is None:
            raise web.HTTPNotFound()
        return web.Response(body=orjson.dumps(data), content_type="application/json")

    async def _log(self, request: web.Request) -> web.Response:
        """The game's log to download (``hanabi-log/1``, as ``export`` prints it)."""
        if self.history is None:
            raise web.HTTPNotFound()
        game_id = int(request.match_info["game"])
        text = await asyncio.to_thread(self.history.log, game_id)
        if text is None:
            raise web.HTTPNotFound()
        disposition = f'attachment; filename="hanabi-game-{game_id}.jsonl"'
        return web.Response(
            text=text,
            content_type="application/x-ndjson",
            headers={"Content-Disposition": disposition},
        )

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """The Host header naming the companion, the table code on every request; the
        security headers on every answer. A page of another site that a DNS name
        points at the Pi (DNS rebinding) names that site in Host: refused."""
        if self.hosts is not None and host_of(request.headers.get("Host", "")) not in self.hosts:
            self.turn_away("host", address_key(request.remote))
            return web.Response(status=421, text="Misdirected Request\n", headers=SECURITY_HEADERS)
        given = request.query.get("code") or request.cookies.get(COOKIE) or ""
        # "replace": a query or cookie may hold anything, lone surrogates included
        if not hmac.compare_digest(given.encode("utf-8", "replace"), self.code.encode()):
            _, snapshot = self.board.latest()
            sentence = i18n.tr(snapshot.language, "web_code_needed")
            response: web.StreamResponse = web.Response(
                status=403, text=sentence + "\n", headers=SECURITY_HEADERS
            )
            return response
        try:
            response = await handler(request)
        except web.HTTPException as error:  # 404, 405: one plain line, nothing else
            error.headers.update(SECURITY_HEADERS)
            raise
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        # first visit: a cookie, so later requests need no URL (a live page sets its own)
        if request.query.get("code") and not response.prepared:
            response.set_cookie(
                COOKIE, self.code, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Strict"
            )
        return response

    def _static_response(self, request: web.Request, name: str) -> web.Response:
        files = self._static or {}
        found = files.get(name)
        if found is None:
            raise web.HTTPNotFound()
        headers = {"Content-Type": found.content_type, "Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return web.Response(body=found.gzipped, headers=headers)
        return web.Response(body=found.raw, headers=headers)

    async def _page(self, request: web.Request) -> web.Response:
        return self._static_response(request, PAGE)

    async def _file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name == PAGE:
            raise web.HTTPNotFound()
        return self._static_response(request, name)

    def _encoded_snapshot(self) -> tuple[int, bytes, bytes]:
        """The latest snapshot's revision, its JSON and its event (the action count as
        the event's id, framed as a chunk), encoded once per change."""
        revision, snapshot = self.board.latest()
        if self._encoded[0] != revision:
            body = orjson.dumps(snapshot.to_json())
            event = b"id: %d\nevent: table\ndata: %s\n\n" % (snapshot.actions, body)
            self._encoded = (revision, body, chunk(event))
        return self._encoded

    def _latest_event(self) -> tuple[int, bytes]:
        revision, _, frame = self._encoded_snapshot()
        return revision, frame

    async def _snapshot(self, request: web.Request) -> web.Response:
        _, body, _ = self._encoded_snapshot()
        return web.Response(body=body, content_type="application/json")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """The live page: at most :data:`STREAMS_PER_ADDRESS` per address (and
        :data:`MAX_STREAMS` in all); each change is written to it by :attr:`live`, which
        skips a page behind and drops it in time (:mod:`companion.web.live`)."""
        key = address_key(request.remote)
        if not self.stream_places.take(key):
            self.turn_away("streams")
            sentence = i18n.tr(self._language(), "web_too_many")
            raise web.HTTPServiceUnavailable(text=sentence + "\n")
        try:
            return await self._stream(request)
        finally:
            self.stream_places.give(key)

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        code = self.code
        response = web.StreamResponse(
            headers={
                **SECURITY_HEADERS,
                "Content-Type": "text/event-stream",
                "X-Accel-Buffering": "no",
            }
        )
        if request.query.get("code"):
            response.set_cookie(
                COOKIE, code, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Strict"
            )
        response.force_close()  # a page that ends (a new code) ends its connection
        transport = request.transport
        connection = transport.get_protocol() if transport is not None else None
        if transport is None or not isinstance(connection, Admission):
            return response  # the phone is gone
        connection.carry_live_page()
        try:
            await response.prepare(request)  # the headers; the events are chunks after them
            page = self.live.open(transport, connection, code)
            try:
                await page.ended
            finally:
                self.live.close(page)
        except ConnectionError:
            pass  # a phone gone
        return response

    def _protocol(self) -> asyncio.BaseProtocol:
        """A connection's protocol: aiohttp's, behind an :class:`Admission`."""
        runner = self._runner
        assert runner is not None and runner.server is not None
        return Admission(runner.server, self)

    # -- phones as input (issue 22) ---------------------------------------------------

    def _said(self, status: int, key: str) -> web.Response:
        """One of the companion's sentences, as a phone's JSON answer."""
        text = i18n.tr(self._language(), key)
        return _json(status, {"ok": False, "text": text})

    async def _phone(self, request: web.Request) -> web.Response:
        """Whether this phone is paired (its token in the header), and under which name."""
        token = request.headers.get(TOKEN_HEADER, "")
        name = self.paired.get(hash_token(token)) if token else None
        body = {"paired": True, "name": name} if name is not None else {"paired": False}
        return _json(200, body)

    async def _body(self, request: web.Request) -> object:
        """The request's JSON body; :class:`BadRequest` if it is none. Only the page's own
        script sends JSON with a custom header: a cross-site form cannot."""
        if request.content_type != "application/json":
            raise _CrossSite()
        origin = request.headers.get("Origin")
        if origin is not None and (
            origin.partition("://")[2] != request.host
            or (self.hosts is not None and host_of(origin.partition("://")[2]) not in self.hosts)
        ):
            raise _CrossSite()
        try:
            return orjson.loads(await request.read())
        except orjson.JSONDecodeError:
            raise BadRequest("the body is not JSON") from None
        except web.HTTPRequestEntityTooLarge:
            raise _TooLarge() from None

    def _bad_body(self, error: BadRequest) -> web.Response:
        """A body the page never sends, in one sentence: another site's (403), too long
        (413), not what the request takes (400)."""
        if isinstance(error, _CrossSite):
            return self._said(403, "web_cross_site")
        return self._said(413 if isinstance(error, _TooLarge) else 400, "web_bad_request")

    async def _pair(self, request: web.Request) -> web.Response:
        """A phone's pairing: at most :data:`PAIR_TRIES_PER_ADDRESS` a minute from one
        address (no limit in all: a flood from one address never refuses another); the
        app loop judges the code and the panel says yes."""
        if self.submit is None:
            raise web.HTTPNotFound()
        address = address_key(request.remote)
        if not self.pair_tries.allow(address):
            self.turn_away("pairing", address)
            return self._said(429, "phone_pair_too_many")
        try:
            body = await self._body(request)
        except BadRequest as error:
            return self._bad_body(error)
        if not isinstance(body, dict) or not isinstance(body.get("code"), str):
            return self._said(400, "web_bad_request")
        token = new_token()
        code, name, token_hash = body["code"][:16], body.get("name"), hash_token(token)
        name = name if isinstance(name, str) else ""
        answer = await self._ask(
            lambda reply: PhonePair(code, name, token_hash, reply, address), PAIR_ANSWER_SECONDS
        )
        data = answer.to_json()
        if answer.ok:
            data["token"] = token
        return _json(answer.status, data)

    async def _variants(self, request: web.Request) -> web.Response:
        """The variants a few letters leave (the set-up's own search), the first
        :data:`VARIANTS_SHOWN` of them; with nothing typed, "No variant" (null) and the
        families."""
        found = variant_choices(request.query.get("q", "")[:MAX_SEARCH_LENGTH])
        return _json(200, {"count": len(found), "names": found[:VARIANTS_SHOWN]})

    async def _setup(self, request: web.Request) -> web.Response:
        """A paired phone chooses the next game's variant while the panel shows the
        set-up (decision 0124); the token is checked here, as for an action."""
        if self.submit is None:
            raise web.HTTPNotFound()
        token = request.headers.get(TOKEN_HEADER, "")
        try:
            body = await self._body(request)
        except BadRequest as error:
            return self._bad_body(error)
        token_hash = hash_token(token)
        if not token or token_hash not in self.paired:
            self.turn_away("not paired", address_key(request.remote))
            return self._said(401, "phone_not_paired")
        variant = body.get("variant", False) if isinstance(body, dict) else False
        if not (variant is None or isinstance(variant, str)):
            return self._said(400, "web_bad_request")
        answer = await self._ask(lambda reply: PhoneSetup(variant, token_hash, reply))
        return _json(answer.status, answer.to_json())

    async def _preview(self, request: web.Request) -> web.Response:
        return await self._move(request, preview_only=True)

    async def _act(self, request: web.Request) -> web.Response:
        return await self._move(request, preview_only=False)

    async def _move(self, request: web.Request, *, preview_only: bool) -> web.Response:
        """A paired phone's action (or its preview), answered as the table judged it."""
        if self.submit is None:
            raise web.HTTPNotFound()
        token = request.headers.get(TOKEN_HEADER, "")
        try:
            body = await self._body(request)
            if not token:
                self.turn_away("not paired", address_key(request.remote))
                return self._said(401, "phone_not_paired")
            move = parse_move(body, preview_only=preview_only)
        except BadRequest as error:
            return self._bad_body(error)
        token_hash = hash_token(token)
        if token_hash not in self.paired:  # checked here: the app loop never sees it
            self.turn_away("not paired", address_key(request.remote))
            return self._said(401, "phone_not_paired")
        answer = await self._ask(
            lambda reply: PhoneMove(
                move.request_id,
                move.game,
                move.position,
                move.action,
                token_hash=token_hash,
                preview_only=preview_only,
                reply=reply,
            )
        )
        return _json(answer.status, answer.to_json())

    async def _ask(
        self,
        make: Callable[[Callable[[Answer], None]], PhoneEvent],
        seconds: float = ANSWER_SECONDS,
    ) -> Answer:
        """Hand a request to the app loop and wait for its answer (the loop answers once
        the action is stored). No answer in time: 503, and the phone tries again."""
        submit = self.submit
        assert submit is not None
        future: concurrent.futures.Future[Answer] = concurrent.futures.Future()

        def reply(answer: Answer) -> None:
            with contextlib.suppress(concurrent.futures.InvalidStateError):
                future.set_result(answer)

        submit(make(reply))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), seconds)
        except TimeoutError:
            text = i18n.tr(self._language(), "web_no_answer")
            return Answer(False, 503, text)


async def _name_server(request: web.Request, response: web.StreamResponse) -> None:
    """The ``Server`` header of every answer: a name, no versions."""
    response.headers["Server"] = SERVER_NAME


class _CrossSite(BadRequest):
    """A POST without the page's own JSON, or from another site's page."""


class _TooLarge(BadRequest):
    """A body over :data:`MAX_BODY`: no action of the page's is near that long."""


def _json(status: int, data: object) -> web.Response:
    return web.Response(status=status, body=orjson.dumps(data), content_type="application/json")


def _reason(error: BaseException) -> str:
    """An error in words, without Python's internals ("[Errno 98]")."""
    if isinstance(error, OSError) and error.errno:
        words = os.strerror(error.errno)  # asyncio's strerror also names the socket
        return words[:1].lower() + words[1:]
    return type(error).__name__
