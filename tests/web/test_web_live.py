"""The live pages under a flood of never-reading ones (issue 37, decision 0093).

The server shares the interpreter with the panel: what a change of the table costs the
web thread with many pages open, and how pages behind are dropped, is what the panel
waits for. Counted here in Python calls of the web thread (not timed: a busy machine
makes times meaningless), against the same server with one page.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from test_web_floods import STREAM, Idle, controller_for, memory_game, serve, wait_for

from companion.web import live
from companion.web.limits import STREAMS_PER_ADDRESS
from companion.web.server import WebServer
from companion.web.snapshot import Snapshot, build_snapshot


@pytest.fixture
def served() -> Iterator[WebServer]:
    server = serve(networks=[ipaddress.ip_network("127.0.0.0/8")])
    yield server
    server.stop()


class Calls:
    """Python function calls made in the web thread (a profile hook set for the threads
    started from now on): what a change costs the interpreter, counted, not timed."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, frame: object, event: str, arg: object) -> None:
        if event == "call" and threading.current_thread().name == "web":
            self.count += 1


@pytest.fixture
def calls() -> Iterator[Calls]:
    counter = Calls()
    threading.setprofile(counter)
    yield counter
    threading.setprofile(None)  # type: ignore[arg-type]


class Reader:
    """An honest live page: reads every event, counts them."""

    def __init__(self, server: WebServer) -> None:
        self.sock = socket.create_connection(("127.0.0.1", server.bound_port or 0), timeout=10)
        self.sock.sendall(STREAM)
        self.events = 0
        self.data = b""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            self.data += chunk
            self.events = self.data.count(b"event: table")


def snapshots(first: int, count: int) -> list[Snapshot]:
    controller = controller_for(memory_game())
    return [build_snapshot(controller, game_key=str(n)) for n in range(first, first + count)]


def changes_cost(server: WebServer, reader: Reader, tables: list[Snapshot], calls: Calls) -> int:
    """The web thread's Python calls for ``tables`` published one by one, each taken by
    ``reader`` before the next."""
    before = calls.count
    for table in tables:
        seen = reader.events
        server.board.publish(table)
        assert wait_for(lambda: reader.events > seen, 10)  # noqa: B023
    return calls.count - before


def test_a_change_costs_each_never_reading_page_a_few_calls(calls):
    """A hundred never-reading pages (4 from each of 25 addresses) and one that reads: the
    20 changes after they opened (the kernel takes their first bytes, then they are
    behind) cost the web thread fewer than 10 Python calls per page and change, over what
    they cost with the one page alone (a task per page and change made it about 60: a
    wake-up, two timers, a write through aiohttp's writer; now it is one write per page,
    then a look at a flag while it is behind)."""
    served = serve(networks=[ipaddress.ip_network("127.0.0.0/8")])
    try:
        reader = Reader(served)
        assert wait_for(lambda: reader.events == 1)
        alone = changes_cost(served, reader, snapshots(2, 20), calls)
        held = [Idle(served, f"127.0.2.{n // STREAMS_PER_ADDRESS}", STREAM) for n in range(100)]
        assert wait_for(lambda: served.streams == 101, 10)
        flooded = changes_cost(served, reader, snapshots(22, 20), calls)
        per_page = (flooded - alone) / (100 * 20)
        assert per_page < 10, (flooded, alone)
        for idle in held:
            idle.sock.close()
    finally:
        served.stop()


def test_quiet_pages_get_a_keepalive_line(monkeypatch, served):
    """A page with no change for KEEPALIVE_SECONDS gets a comment line (proxies and
    phones keep it open), from the one timer of every page."""
    monkeypatch.setattr(live, "KEEPALIVE_SECONDS", 0.3)
    monkeypatch.setattr(live, "TICK_SECONDS", 0.1)
    reader = Reader(served)
    assert wait_for(lambda: b": keep-alive\n\n" in reader.data, 5)
    assert reader.events == 1
    reader.sock.close()


def test_pages_behind_are_dropped_a_few_at_a_time(monkeypatch, served):
    """Forty pages that never read, behind at the same change, are not dropped in one
    turn of the loop (the panel would wait for all of them at once) but DROPS_AT_ONCE at
    a time, DROP_GAP apart; every one of them is dropped, the reading page stays."""
    monkeypatch.setattr(live, "WRITE_TIMEOUT", 0.5)
    monkeypatch.setattr(live, "DROPS_AT_ONCE", 8)
    monkeypatch.setattr(live, "DROP_GAP", 0.5)
    reader = Reader(served)
    held = [Idle(served, f"127.0.3.{n // STREAMS_PER_ADDRESS}", STREAM) for n in range(40)]
    assert wait_for(lambda: served.streams == 41, 10)
    tables = snapshots(2, 100)
    number = 0
    while not served.turned_away.get("slow reader"):
        served.board.publish(tables[number % len(tables)])
        number += 1
        time.sleep(0.005)
        assert number < 5000, "never dropped"
    first = served.turned_away["slow reader"]
    assert first <= 8, first
    assert wait_for(lambda: served.turned_away.get("slow reader") == 40, 10)
    assert wait_for(lambda: served.streams == 1)
    for idle in held:
        idle.sock.close()
    reader.sock.close()


def test_a_new_code_closes_a_page_behind_at_once(served):
    """A never-reading page that is behind cannot take the end of its answer either: a
    new table code closes its connection at once (it would hold its place for ever)."""
    slow = Idle(served, "127.0.0.42", STREAM)
    assert wait_for(lambda: served.streams == 1)
    tables = snapshots(2, 100)
    number = 0
    while not any(page.carrier.paused for page in served.live.pages):
        served.board.publish(tables[number % len(tables)])
        number += 1
        time.sleep(0.002)
        assert number < 5000, "never behind"
    served.code = "newcode9"
    assert wait_for(lambda: served.connections.count == 0)  # closed, though it reads nothing
    assert served.streams == 0
    slow.sock.settimeout(5)
    with contextlib.suppress(ConnectionResetError):
        while slow.sock.recv(65536):  # what it had not read, then the end
            pass
    slow.sock.close()
