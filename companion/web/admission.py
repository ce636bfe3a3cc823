"""Who gets a connection to the page for phones: a peer on the LAN, within its limits.

:class:`Admission` stands in front of aiohttp's protocol for each connection; a peer off
the Pi's networks, or over its address's share of connections, is closed at once,
unread (issue 37); a connection that carries a live page is kept to a few tables
unread (:meth:`Admission.carry_live_page`) and says when it is behind and when not any
more (:attr:`Admission.paused`, :attr:`Admission.resumed`). :class:`GatedSite` is
aiohttp's TCP site with that protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable
from typing import Protocol

from aiohttp import web

from companion.web.limits import STREAM_BUFFER, STREAM_SOCKET_BUFFER, Gate, address_key


class Gatekeeper(Protocol):
    """What :class:`Admission` asks of the server: the LAN, the places, a count."""

    connections: Gate

    def on_lan(self, remote: str | None) -> bool: ...

    def closed_to(self, key: str) -> bool: ...

    def turn_away(self, why: str, key: str | None = None) -> None: ...


class Admission(asyncio.Protocol):
    """A connection let in only from the LAN (the server's ``on_lan``), from an address
    not closed for its refusals (``closed_to``) and within the connection limits (its
    ``connections``); else closed at once, unread. aiohttp's protocol (``make_inner``)
    is made only for a connection let in: one turned away costs its accept alone."""

    def __init__(self, make_inner: Callable[[], asyncio.Protocol], server: Gatekeeper) -> None:
        self.make_inner = make_inner
        self.inner: asyncio.Protocol | None = None
        self.server = server
        self.key = ""
        #: Whether the transport's buffer is over its high-water mark (a slow reader).
        self.paused = False
        #: Called when it is under it again (set by the live pages).
        self.resumed: Callable[[], None] | None = None
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        remote = str(peer[0]) if isinstance(peer, tuple) and peer else None
        server, key = self.server, address_key(remote)
        if not server.on_lan(remote):
            server.turn_away("off the LAN")
        elif server.closed_to(key):
            server.turn_away("refusals")
        elif not server.connections.take(key):
            server.turn_away("connections")  # it costs an accept: not counted against it
        else:
            self.key = key
            assert isinstance(transport, asyncio.Transport)
            self.transport = transport
            self.inner = self.make_inner()
            self.inner.connection_made(transport)
            return
        assert isinstance(transport, asyncio.Transport)
        transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is not None:
            self.server.connections.give(self.key)
            inner, self.inner = self.inner, None
            inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        self.paused = True
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.paused = False
        if self.inner is not None:
            self.inner.resume_writing()
        if self.resumed is not None:
            self.resumed()

    def carry_live_page(self) -> None:
        """This connection carries a live page: :data:`STREAM_SOCKET_BUFFER` in the
        kernel, and :attr:`paused` past :data:`STREAM_BUFFER` of the server's."""
        transport = self.transport
        if transport is None:
            return
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_SOCKET_BUFFER)
        transport.set_write_buffer_limits(high=STREAM_BUFFER)


class GatedSite(web.TCPSite):
    """aiohttp's TCP site, each connection made by ``factory`` (:class:`Admission`)."""

    def __init__(
        self,
        runner: web.BaseRunner,
        host: str | None,
        port: int,
        factory: Callable[[], asyncio.BaseProtocol],
    ) -> None:
        super().__init__(runner, host, port, backlog=128)
        self.factory = factory

    async def start(self) -> None:
        await web.BaseSite.start(self)
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            self.factory, self._host, self._port, backlog=self._backlog
        )
