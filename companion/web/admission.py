"""Who gets a connection to the page for phones: a peer on the LAN, within its limits.

A peer off the Pi's networks, closed for its refusals, or over its address's share of
connections is closed at once, unread (issue 37): an address closed for its refusals by
the door's process (:mod:`companion.web.door`), which accepts the connections and hands
the others over; then by :class:`Arrivals`, before asyncio makes a connection a
transport (a flood of connections then costs the interpreter, which the panel shares,
a tenth); else by :class:`Admission`, which stands in front of aiohttp's protocol for
each connection. A
connection that carries a live page is kept to a few tables unread
(:meth:`Admission.carry_live_page`) and says when it is behind and when not any more
(:attr:`Admission.paused`, :attr:`Admission.resumed`).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable
from typing import Protocol

from aiohttp import web

# when the descriptors run out: the door and this thread wait alike
from companion.web.door import ACCEPT_AGAIN, OUT_OF_RESOURCES
from companion.web.limits import STREAM_BUFFER, STREAM_SOCKET_BUFFER, Gate
from companion.web.peer import address_key


class Gatekeeper(Protocol):
    """What :class:`Admission` asks of the server: the LAN, the places, a count."""

    connections: Gate

    def on_lan(self, remote: str | None) -> bool: ...

    def closed_to(self, key: str) -> bool: ...

    def turn_away(self, why: str, key: str | None = None) -> None: ...


def turned_away_at_once(server: Gatekeeper, remote: str | None) -> str | None:
    """Why a peer is closed unread, or None: off the LAN, closed for its refusals, or
    holding its address's share of connections already (nothing is taken)."""
    key = address_key(remote)
    if not server.on_lan(remote):
        return "off the LAN"
    if server.closed_to(key):
        return "refusals"
    if server.connections.full(key):
        return "connections"
    return None


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
        why = turned_away_at_once(server, remote)
        if why is None and not server.connections.take(key):
            why = "connections"
        if why is not None:
            server.turn_away(why)  # a connection costs an accept: not counted against it
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


#: Connections waiting to be accepted (the kernel's queue of a listening socket).
BACKLOG = 128


def listening_sockets(host: str | None, port: int) -> list[socket.socket]:
    """Listening sockets as asyncio's ``create_server`` makes them: one for each address
    of ``host`` (None: of every interface), IPv6 ones for IPv6 only, the address reused."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    made: list[socket.socket] = []
    try:
        for family, kind, proto, _name, address in dict.fromkeys(found):
            try:
                sock = socket.socket(family, kind, proto)
            except OSError:
                continue  # a family this system does not have (IPv6 turned off)
            made.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(BACKLOG)
            sock.setblocking(False)
    except OSError:
        for sock in made:
            sock.close()
        raise
    return made


class Arrivals:
    """Connections accepted, by a listening socket here or by the door's process
    (:mod:`companion.web.door`): a peer :func:`turned_away_at_once` is closed at once;
    any other becomes a connection made by ``factory`` (:class:`Admission`)."""

    def __init__(self, factory: Callable[[], asyncio.BaseProtocol], server: Gatekeeper) -> None:
        self.factory = factory
        self.server = server
        self._connecting: set[asyncio.Task[object]] = set()

    def admit(self, connection: socket.socket, remote: str | None) -> None:
        """Turn ``connection`` (from ``remote``) away, or make it a connection."""
        why = turned_away_at_once(self.server, remote)
        if why is not None:
            self.server.turn_away(why)
            connection.close()
            return
        connection.setblocking(False)
        task = asyncio.get_running_loop().create_task(self._connect(connection))
        self._connecting.add(task)
        task.add_done_callback(self._connecting.discard)

    async def _connect(self, connection: socket.socket) -> None:
        try:
            await asyncio.get_running_loop().connect_accepted_socket(self.factory, connection)
        except OSError:  # the peer is gone already
            connection.close()


class GatedSite(web.BaseSite):
    """aiohttp's site for one listening socket whose connections are accepted by the
    door's process, or, with ``accepting`` (no door, or the door stopped:
    :meth:`accept_here`), by itself; either way they arrive at ``arrivals``."""

    def __init__(
        self,
        runner: web.BaseRunner,
        sock: socket.socket,
        arrivals: Arrivals,
        *,
        accepting: bool = True,
    ) -> None:
        super().__init__(runner, backlog=BACKLOG)
        self.sock = sock
        self.arrivals = arrivals
        self.accepting = accepting

    @property
    def name(self) -> str:
        host, port = self.sock.getsockname()[:2]
        return f"http://{host}:{port}"

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        # asyncio's server, for aiohttp to stop (it closes the socket), not to accept
        factory = self.arrivals.factory
        self._server = await loop.create_server(factory, sock=self.sock, start_serving=False)
        if self.accepting:
            loop.add_reader(self.sock.fileno(), self._accept)

    def accept_here(self) -> None:
        """Accept by itself from now on (the door stopped)."""
        if not self.accepting:
            self.accepting = True
            self._accept_again()

    def _accept(self) -> None:
        """Every connection waiting (as asyncio's own accept, but a peer turned away is
        closed before it becomes a transport)."""
        loop = asyncio.get_running_loop()
        for _ in range(BACKLOG):
            try:
                connection, peer = self.sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as error:
                if error.errno not in OUT_OF_RESOURCES:
                    raise  # the loop's handler says it (a line a minute)
                message = "socket.accept() out of system resource"
                loop.call_exception_handler({"message": message, "exception": error})
                loop.remove_reader(self.sock.fileno())
                loop.call_later(ACCEPT_AGAIN, self._accept_again)
                return
            self.arrivals.admit(connection, str(peer[0]) if peer else None)

    def _accept_again(self) -> None:
        if self._server is not None and self.sock.fileno() != -1:  # not stopped meanwhile
            asyncio.get_running_loop().add_reader(self.sock.fileno(), self._accept)
