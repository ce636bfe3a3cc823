"""The live pages (Server-Sent Events): each change of the table written once to all of them.

A change is one pass over the open pages that writes the same bytes (the event, framed
once as an HTTP/1.1 chunk, as aiohttp frames a streamed answer) to each page's
connection, and skips a page that is behind; one timer for all pages says keep-alive to
a quiet page and drops a page that has been behind too long, a few at a time. Between
changes nothing runs per page: no task wakes, no timer per page.

Why (issue 37, decision 0093): the web server shares the interpreter with the panel, and
a task per page per change (a wake-up, two timers, a write through aiohttp's writer, about
30 µs each) made every change of the table with 240 never-reading pages cost the web
thread 8 ms at a stretch, right when the panel drew the key that followed it; 240 pages
dropped in the same turn of the loop cost another 13 ms at a stretch.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

#: A page that has been behind (see :data:`~companion.web.limits.STREAM_BUFFER`) this
#: many seconds is dropped: it reconnects and gets the table then. A slow or stuck
#: phone never holds the others.
WRITE_TIMEOUT = 10.0
#: A comment line this often keeps proxies and phones from closing a quiet page.
KEEPALIVE_SECONDS = 25.0
#: How often the one timer of every page looks at them (keep-alives, pages to drop).
TICK_SECONDS = 1.0
#: Pages dropped in one turn of the loop, and the pause before the next few: a drop
#: costs the interpreter about 50 µs, and the panel waits for it meanwhile. Keep this
#: small: it holds the panel's key-to-frame p99 under a flood (issue 37, decision 0093).
DROPS_AT_ONCE = 16
DROP_GAP = 0.02


def chunk(data: bytes) -> bytes:
    """``data`` as one chunk of a chunked HTTP/1.1 body.

    >>> chunk(b"data: 1\\n\\n")
    b'9\\r\\ndata: 1\\n\\n\\r\\n'
    """
    return b"%x\r\n%s\r\n" % (len(data), data)


#: The comment line that keeps a quiet page open, as a chunk.
KEEPALIVE = chunk(b": keep-alive\n\n")


class Carrier(Protocol):
    """A live page's connection as the pages see it (an
    :class:`~companion.web.admission.Admission`)."""

    paused: bool
    resumed: Callable[[], None] | None


class Page:
    """One open live page: where it is written, what it was sent, since when it is behind."""

    __slots__ = ("behind_since", "carrier", "code", "ended", "sent", "transport", "written")

    def __init__(
        self,
        transport: asyncio.WriteTransport,
        carrier: Carrier,
        code: str,
        ended: asyncio.Future[None],
        now: float,
    ) -> None:
        self.transport = transport
        self.carrier = carrier
        #: The table code the page was opened with: a new code ends it.
        self.code = code
        #: Done when the page ends (a new code, dropped, its connection closed).
        self.ended = ended
        #: The revision of the table it was last sent (-1: none yet).
        self.sent = -1
        self.written = now
        self.behind_since: float | None = None


class LivePages:
    """Every open live page, in the web loop; ``latest`` gives the table's revision and
    its event framed as a chunk, ``code`` the table code now, ``dropped`` is told of
    each page dropped for being behind."""

    def __init__(
        self,
        latest: Callable[[], tuple[int, bytes]],
        code: Callable[[], str],
        dropped: Callable[[], None],
    ) -> None:
        self.latest = latest
        self.code = code
        self.dropped = dropped
        self.pages: set[Page] = set()
        self._timer: asyncio.TimerHandle | None = None

    def open(self, transport: asyncio.WriteTransport, carrier: Carrier, code: str) -> Page:
        """A new page, sent the table now (whatever Last-Event-ID says: each event is the
        whole table, so this is exactly where the phone resumes)."""
        loop = asyncio.get_running_loop()
        page = Page(transport, carrier, code, loop.create_future(), loop.time())
        carrier.resumed = lambda: self._resumed(page)
        self.pages.add(page)
        revision, frame = self.latest()
        self._send(page, revision, frame, loop.time())
        if self._timer is None:
            self._timer = loop.call_later(TICK_SECONDS, self._tick)
        return page

    def close(self, page: Page) -> None:
        """The page's answer ends (its handler returns or is cancelled)."""
        self.pages.discard(page)
        page.carrier.resumed = None
        if not page.ended.done():
            page.ended.set_result(None)
        if not self.pages and self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def changed(self) -> None:
        """The table or the code changed: the table now to every page not behind (a
        page behind gets it once it has taken what it has); a page of an old code ends."""
        if not self.pages:
            return
        code = self.code()
        revision, frame = self.latest()
        now = asyncio.get_running_loop().time()
        for page in list(self.pages):
            if page.code != code:
                self._end(page)
            elif page.sent != revision:
                self._send(page, revision, frame, now)

    def _send(self, page: Page, revision: int, frame: bytes, now: float) -> None:
        transport = page.transport
        if transport.is_closing():
            self._end(page)
        elif page.carrier.paused:  # behind: nothing more until it has taken its bytes
            if page.behind_since is None:
                page.behind_since = now
        else:
            transport.write(frame)
            page.sent, page.written = revision, now

    def _resumed(self, page: Page) -> None:
        """A page behind took its bytes: the table now, if it has not got it."""
        page.behind_since = None
        revision, frame = self.latest()
        if page in self.pages and page.code == self.code() and page.sent != revision:
            self._send(page, revision, frame, asyncio.get_running_loop().time())

    def _end(self, page: Page) -> None:
        """The page's answer ends (aiohttp then writes the last chunk and closes); a
        page behind cannot take that either: its connection is closed at once."""
        if page.carrier.paused:
            page.transport.abort()
        if not page.ended.done():
            page.ended.set_result(None)

    def _tick(self) -> None:
        """The one timer of every page: a keep-alive to a quiet page, and the pages behind
        for :data:`WRITE_TIMEOUT` dropped, :data:`DROPS_AT_ONCE` at a time."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        due = []
        for page in self.pages:
            if page.transport.is_closing():
                self._end(page)
            elif page.behind_since is not None:
                if now - page.behind_since >= WRITE_TIMEOUT:
                    due.append(page)
            elif now - page.written >= KEEPALIVE_SECONDS:
                if page.carrier.paused:  # it has not taken what it has: behind from now
                    page.behind_since = now
                else:
                    page.transport.write(KEEPALIVE)
                    page.written = now
        for page in due[:DROPS_AT_ONCE]:
            page.transport.abort()  # it reconnects, and gets the table then
            self._end(page)
            self.dropped()
        later = DROP_GAP if len(due) > DROPS_AT_ONCE else TICK_SECONDS
        self._timer = loop.call_later(later, self._tick) if self.pages else None
