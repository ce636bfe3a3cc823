"""The door of the page for phones (issue 37, decision 0126): a process of its own that
closes, unread, the connections of an address closed for its refusals.

The door's loop runs here on real sockets (a listening socket on the loopback, a Unix
socket pair), and the server's door as the app starts it: a child process.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from web.test_web_floods import ask, serve, wait_for

from companion.web.door import DOOR_NICE, run_door
from companion.web.server import WebServer


@pytest.fixture
def door() -> Iterator[tuple[socket.socket, socket.socket]]:
    """The door's loop in a thread: its listening socket and the server's end."""
    listening = socket.create_server(("127.0.0.1", 0))
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    thread = threading.Thread(target=run_door, args=([listening], theirs), daemon=True)
    thread.start()
    yield listening, ours
    ours.close()  # the door ends when the server's end closes
    thread.join(5)
    assert not thread.is_alive()
    listening.close()
    theirs.close()


def connect(listening: socket.socket, source: str) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect(listening.getsockname())
    return sock


def test_the_door_closes_what_it_is_told_and_hands_over_the_rest(door):
    listening, ours = door
    ours.send(f"-127.0.0.7 {time.monotonic() + 60!r}".encode())  # closed for a minute
    ours.send(f"-127.0.0.8 {time.monotonic() - 1!r}".encode())  # its minute is over
    time.sleep(0.2)
    closed = [connect(listening, "127.0.0.7") for _ in range(5)]
    handed = connect(listening, "127.0.0.8")
    data, fds, _, _ = socket.recv_fds(ours, 256, 1)
    assert data == b"+127.0.0.8" and len(fds) == 1
    with socket.socket(fileno=fds[0]) as connection:  # the very connection, to read from
        handed.sendall(b"hello")
        assert connection.recv(5) == b"hello"
        assert connection.getpeername() == handed.getsockname()
    for sock in closed:
        sock.settimeout(5)
        assert sock.recv(1) == b""  # closed unread by the door
        sock.close()
    ours.settimeout(5)
    assert ours.recv(256) == b"=5"  # and said, within a second
    handed.close()


def test_an_order_the_door_cannot_read_changes_nothing(door):
    listening, ours = door
    for order in (b"-127.0.0.7 soon", b"?127.0.0.7 1e99", b"-", b"\xff\xfe"):
        ours.send(order)
    sock = connect(listening, "127.0.0.7")
    ours.settimeout(5)
    data, fds, _, _ = socket.recv_fds(ours, 256, 1)
    assert data == b"+127.0.0.7" and len(fds) == 1
    os.close(fds[0])
    sock.close()


@pytest.fixture
def served() -> Iterator[WebServer]:
    server = serve(networks=[ipaddress.ip_network("127.0.0.0/8")])
    yield server
    server.stop()


def door_pid(server: WebServer) -> int:
    assert server.door is not None and server.door.process is not None
    return server.door.process.pid


def test_the_door_is_a_process_of_its_own_below_the_panels_priority(served):
    pid = door_pid(served)
    assert pid != os.getpid()

    def nice() -> int:
        return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[16])

    assert wait_for(lambda: nice() == min(19, os.nice(0) + DOOR_NICE))  # once it runs
    command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    assert b"companion.web.door" in command
    assert ask(served, "GET", "/")[0] == 200  # it hands the connections over


def test_stop_ends_the_door_and_frees_the_port(served):
    pid, port = door_pid(served), served.bound_port
    served.stop()
    assert not Path(f"/proc/{pid}").exists()  # waited for, not left a zombie
    with socket.create_server(("127.0.0.1", port or 0)):  # nobody listens on it any more
        pass


def test_a_door_that_stops_is_said_and_the_server_accepts_itself(served, caplog):
    caplog.set_level(logging.WARNING, logger="hanabi-companion")
    os.kill(door_pid(served), signal.SIGKILL)
    assert wait_for(lambda: served.door is None)
    said = [r.getMessage() for r in caplog.records if "door" in r.getMessage()]
    assert said == ["web: the door stopped (exit status -9): connections are accepted here"], said
    assert ask(served, "GET", "/")[0] == 200
    assert ask(served, "GET", "/", source="127.0.0.40")[0] == 200


def test_a_door_that_cannot_start_is_said_and_the_server_accepts_itself(monkeypatch, caplog):
    caplog.set_level(logging.WARNING, logger="hanabi-companion")
    monkeypatch.setattr("sys.executable", "/nonexistent/python")
    server = serve(networks=[ipaddress.ip_network("127.0.0.0/8")])
    try:
        assert server.door is None
        said = [r.getMessage() for r in caplog.records if "door" in r.getMessage()]
        assert len(said) == 1 and said[0].startswith("web: the door cannot start"), said
        assert ask(server, "GET", "/")[0] == 200
    finally:
        server.stop()
