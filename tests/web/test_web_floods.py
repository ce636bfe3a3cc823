"""A guest on the Wi-Fi cannot lock the table out (issue 37): the floods, in small form.

Each test runs the real server on the loopback and floods it from one address
(127.0.0.x: every one of them is the machine itself, but each is its own address to the
server), then checks that another address is served as if nothing happened.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import json
import logging
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.core.controller import Controller, SetupDraft
from companion.vocabulary.phone import Answer, PhoneEvent, PhoneMove, PhonePair, hash_token
from companion.web import limits, live
from companion.web.limits import (
    CONNECTIONS_PER_ADDRESS,
    PAIR_TRIES_PER_ADDRESS,
    REFUSALS_PER_ADDRESS,
    STREAMS_PER_ADDRESS,
    QuietErrors,
    local_networks,
)
from companion.web.peer import address_key
from companion.web.server import SERVER_NAME, TOKEN_HEADER, WebServer
from companion.web.snapshot import SnapshotBoard, build_snapshot
from engine import Card, GameSetup
from engine.actions import Discard, Hint, Play
from engine.cards import Color
from engine.game import Game
from engine.options import GameOptions

CODE = "abcd2345"


def memory_game() -> Game:
    setup = GameSetup(players=2, names=("Ann", "Bo"), options=GameOptions(hand_memory=True))
    game = Game(setup)
    game.apply(Hint(to=1, color=Color.RED, slots=(1, 3)))
    game.apply(Discard(Card.from_code("B5"), slot=2))
    game.apply(Play(Card.from_code("R1"), slot=1))
    return game


def controller_for(game: Game | None) -> Controller:
    return Controller(SetupDraft(players=2), game)


TOKEN = "a-paired-phones-token"
JSON = {"Content-Type": "application/json", "Cookie": f"table={CODE}"}


class Loop:
    """The app loop as the server sees it: every request handed over is counted and
    answered (a pairing with code 123456 is paired, any other refused)."""

    def __init__(self) -> None:
        self.seen: list[PhoneEvent] = []

    def __call__(self, event: PhoneEvent) -> None:
        self.seen.append(event)
        if isinstance(event, PhonePair):
            ok = event.code == "123456"
            event.reply(Answer(ok, 200 if ok else 403, "paired" if ok else "wrong", name="Di"))
        else:
            assert isinstance(event, PhoneMove)
            event.reply(Answer(True, 200, "done", 1))


def serve(loop: Loop | None = None, **kw: object) -> WebServer:
    board = SnapshotBoard(build_snapshot(controller_for(memory_game()), game_key="1"))
    server = WebServer(board, CODE, port=0, bind="127.0.0.1", submit=loop, **kw)  # type: ignore[arg-type]
    server.paired = {hash_token(TOKEN): "Ann"}
    server.start()
    assert server.ready.wait(10) and server.failure is None
    return server


@pytest.fixture
def loop() -> Loop:
    return Loop()


@pytest.fixture
def served(loop: Loop) -> Iterator[WebServer]:
    server = serve(loop, networks=[ipaddress.ip_network("127.0.0.0/8")])
    yield server
    server.stop()


def ask(
    server: WebServer,
    method: str,
    path: str,
    body: object = None,
    headers: dict[str, str] | None = None,
    source: str = "127.0.0.1",
) -> tuple[int, dict[str, str], bytes]:
    assert server.bound_port is not None
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.bound_port, timeout=10, source_address=(source, 0)
    )
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={**JSON, **(headers or {})})
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


def test_a_pairing_flood_from_one_address_never_refuses_another(served, loop):
    """Twenty wrong codes from one address (the issue's flood used up a global limit):
    that address is limited, a phone at another address pairs at once."""
    statuses = [
        ask(served, "POST", "/api/pair", {"code": "000000"}, source="127.0.0.9")[0]
        for _ in range(20)
    ]
    assert statuses == [403] * PAIR_TRIES_PER_ADDRESS + [429] * (20 - PAIR_TRIES_PER_ADDRESS)
    status, _, body = ask(served, "POST", "/api/pair", {"code": "123456"}, source="127.0.0.10")
    assert status == 200 and json.loads(body)["token"]
    pairs = [e for e in loop.seen if isinstance(e, PhonePair)]
    assert {e.address for e in pairs} == {"127.0.0.9", "127.0.0.10"}  # the core counts by it


def test_unpaired_posts_never_reach_the_app_loop(served, loop):
    """Checked in the server's thread: a forged or missing token is refused there."""
    move = {"id": "x" * 20, "game": "1", "position": 3, "action": {"action": "undo"}}
    for token in ("", "forged", "a-paired-phones-token!"):
        for _ in range(REFUSALS_PER_ADDRESS // 3):
            status, _, _ = ask(served, "POST", "/api/act", move, {TOKEN_HEADER: token})
            assert status == 401
    assert loop.seen == []
    assert ask(served, "POST", "/api/act", move, {TOKEN_HEADER: TOKEN})[0] == 200
    assert len(loop.seen) == 1
    assert served.turned_away["not paired"] == REFUSALS_PER_ADDRESS // 3 * 3


def test_an_address_refused_too_often_is_closed_unread(served, loop):
    """Past REFUSALS_PER_ADDRESS unpaired POSTs in a minute an address's connections are
    closed unread, by the door's process (a flood from it then costs the panel's
    interpreter nothing); a paired phone at another address acts as before."""
    move = {"id": "x" * 20, "game": "1", "position": 3, "action": {"action": "undo"}}
    forged = {TOKEN_HEADER: "forged"}
    for _ in range(REFUSALS_PER_ADDRESS):
        assert ask(served, "POST", "/api/act", move, forged, source="127.0.0.30")[0] == 401
    for _ in range(30):
        with pytest.raises(ConnectionError):
            ask(served, "POST", "/api/act", move, forged, source="127.0.0.30")
    # closed by the door's process (decision 0126), which says so within a second
    assert wait_for(lambda: served.turned_away.get("refusals") == 30)
    assert served.door is not None and served.door.turned_away == 30
    assert ask(served, "POST", "/api/act", move, {TOKEN_HEADER: TOKEN})[0] == 200
    assert len(loop.seen) == 1


def test_the_server_header_names_no_version(served):
    for path in ("/", f"/?code={CODE}", "/no-such-page", "/snapshot.json"):
        _, headers, _ = ask(served, "GET", path)
        assert headers["Server"] == SERVER_NAME, headers


def test_a_host_or_origin_that_is_not_the_companion_is_refused(served, loop):
    """DNS rebinding: another site's name pointed at the Pi names that site in Host."""
    assert ask(served, "GET", "/snapshot.json", headers={"Host": "evil.example"})[0] == 421
    assert ask(served, "GET", "/snapshot.json", headers={"Host": "localhost:1"})[0] == 200
    origin = {"Origin": "http://evil.example", "Host": "evil.example"}
    status, _, _ = ask(served, "POST", "/api/pair", {"code": "123456"}, origin)
    assert status == 421 and loop.seen == []


class Idle:
    """A connection that says nothing (or opens a live page) and never reads."""

    def __init__(self, server: WebServer, source: str, request: bytes = b"") -> None:
        assert server.bound_port is not None
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.bind((source, 0))
        self.sock.connect(("127.0.0.1", server.bound_port))
        if request:
            self.sock.sendall(request)

    def closed_by_server(self, timeout: float = 2.0) -> bool:
        self.sock.settimeout(timeout)
        try:
            return self.sock.recv(1) == b""
        except ConnectionResetError:
            return True
        except TimeoutError:
            return False


def wait_for(check: object, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


STREAM = f"GET /events?code={CODE} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()


def test_live_pages_are_limited_per_address(served):
    """The issue's 32 never-reading streams held every place: now one address holds
    :data:`STREAMS_PER_ADDRESS`, and a phone elsewhere still gets its live page."""
    held = [Idle(served, "127.0.0.20", STREAM) for _ in range(STREAMS_PER_ADDRESS)]
    assert wait_for(lambda: served.streams == STREAMS_PER_ADDRESS)
    status, _, _ = ask(served, "GET", "/events", source="127.0.0.20")
    assert status == 503
    phone = Idle(served, "127.0.0.21", STREAM)
    assert wait_for(lambda: served.streams == STREAMS_PER_ADDRESS + 1)
    for idle in [*held, phone]:
        idle.sock.close()
    assert wait_for(lambda: served.streams == 0, 10)


def test_connections_are_limited_per_address_and_the_lan_only(loop):
    """One address holds :data:`CONNECTIONS_PER_ADDRESS` idle connections, the others are
    closed unread; another address is served; a peer off the LAN is closed at once."""
    server = serve(loop, networks=[ipaddress.ip_network("127.0.0.0/25")])
    try:
        idle = [Idle(server, "127.0.0.30") for _ in range(CONNECTIONS_PER_ADDRESS + 8)]
        assert wait_for(lambda: server.turned_away.get("connections", 0) == 8)
        assert sum(i.closed_by_server(0.2) for i in idle) == 8
        assert ask(server, "GET", "/snapshot.json", source="127.0.0.31")[0] == 200
        off_lan = Idle(server, "127.0.0.200")  # outside 127.0.0.0/25
        assert off_lan.closed_by_server() and server.turned_away["off the LAN"] == 1
        for each in idle:
            each.sock.close()
        assert wait_for(lambda: server.connections.count == 0)
    finally:
        server.stop()


def test_a_live_page_that_never_reads_is_dropped(monkeypatch, served):
    """A slow reader is dropped once its unread bytes pass the bound (it reconnects and
    gets the table then): its memory never grows with the table's changes."""
    monkeypatch.setattr(live, "WRITE_TIMEOUT", 1.0)
    slow = Idle(served, "127.0.0.40", STREAM)
    assert wait_for(lambda: served.streams == 1)
    controller = controller_for(memory_game())
    snapshots = [build_snapshot(controller, game_key=str(n)) for n in range(50)]
    end = time.monotonic() + 20
    number = 0
    while not served.turned_away.get("slow reader"):  # the kernel's buffers fill, then ours
        assert time.monotonic() < end, "never dropped"
        served.board.publish(snapshots[number % 50])
        number += 1
        time.sleep(0.001)
    assert wait_for(lambda: served.streams == 0)
    slow.sock.close()


def test_a_page_behind_gets_nothing_more_and_an_honest_one_every_event(monkeypatch, served):
    """A never-reading page is behind once the kernel's small buffer and the server's
    :data:`~limits.STREAM_BUFFER` are full: no more events are written to it (its
    unread bytes stay bounded), it is dropped after ``WRITE_TIMEOUT``; a page that
    reads, meanwhile, gets every change, in order."""
    monkeypatch.setattr(live, "WRITE_TIMEOUT", 2.0)
    slow = Idle(served, "127.0.0.41", STREAM)
    honest = socket.create_connection(("127.0.0.1", served.bound_port), timeout=10)
    honest.sendall(STREAM)
    assert wait_for(lambda: served.streams == 2)
    controller = controller_for(memory_game())
    snapshots = [build_snapshot(controller, game_key=str(n)) for n in range(2, 42)]
    for snapshot in snapshots:
        served.board.publish(snapshot)
        time.sleep(0.01)
    received = b""
    while received.count(b"\n\n") < len(snapshots) + 1:  # each event ends so
        received += honest.recv(65536)
    keys = [line for line in received.split(b"\n") if line.startswith(b"data: ")]
    assert [json.loads(k[6:])["game"] for k in keys[1:]] == [str(n) for n in range(2, 42)]
    assert wait_for(lambda: served.turned_away.get("slow reader") == 1, 10)
    assert served.streams == 1  # the honest page stays
    taken = b""
    slow.sock.settimeout(5)
    with contextlib.suppress(ConnectionError):
        while chunk := slow.sock.recv(65536):
            taken += chunk
    assert 0 < taken.count(b"event: table") < len(snapshots) // 2  # the rest never written
    assert len(taken) < 64 * 1024
    honest.close()
    slow.sock.close()


ACCEPT = "socket.accept() out of system resource"


def test_loop_errors_are_said_once_a_minute_with_a_count(caplog):
    """19,234 accept() tracebacks in 30 s (7.7 MB of journal): now a line a minute."""
    now = [0.0]
    handler = QuietErrors(clock=lambda: now[0])
    error = OSError(24, "Too many open files")
    with caplog.at_level(logging.WARNING, logger="hanabi-companion"):
        for second in range(120):
            now[0] = float(second)
            for _ in range(100):
                handler(
                    None, {"message": "socket.accept() out of system resource", "exception": error}
                )  # type: ignore[arg-type]
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2
    assert "too many open files" in lines[0] and "5999 more" in lines[1]
    assert all("Traceback" not in line and len(line) < 200 for line in lines)


def test_the_lan_is_the_networks_of_the_pis_own_interfaces(tmp_path: Path):
    """Read from the kernel: a /24 on wlan0, a carrier-NAT /10, a global IPv6 /64 and
    its link-local /64; not the default route, not a network behind a gateway."""
    (tmp_path / "route").write_text(
        "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\tMTU\tWindow\tIRTT\n"
        "wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
        "wlan0\t0001A8C0\t00000000\t0001\t0\t0\t600\t00FFFFFF\t0\t0\t0\n"
        "eth0\t00004064\t00000000\t0001\t0\t0\t100\t0000C0FF\t0\t0\t0\n"
        "tun0\t0000000A\t0101A8C0\t0003\t0\t0\t50\t000000FF\t0\t0\t0\n"
    )
    (tmp_path / "if_inet6").write_text(
        "20010db8000100020000000000000007 03 40 00 00     wlan0\n"
        "fe800000000000000000000000000007 03 40 20 80     wlan0\n"
        "00000000000000000000000000000001 01 80 10 80        lo\n"
    )
    networks = {str(n) for n in local_networks(tmp_path)}
    assert networks == {
        "127.0.0.0/8",
        "::1/128",
        "192.168.1.0/24",
        "100.64.0.0/10",
        "2001:db8:1:2::/64",
        "fe80::/64",
    }
    assert limits.on_networks("100.64.3.4", local_networks(tmp_path))
    assert not limits.on_networks("10.0.0.5", local_networks(tmp_path))  # behind tun0's gateway


def test_limits_count_an_ipv6_device_by_its_64():
    assert address_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd") == address_key("2001:db8:1:2::9")
    assert address_key("2001:db8:1:3::9") != address_key("2001:db8:1:2::9")


def test_the_attack_benchmark_runs_small(tmp_path: Path) -> None:
    """benchmarks/web_attacks.py in small form: two floods of 2 s; the honest phone pairs
    and acts, the panel's keys are timed, and no flood writes a log line."""
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [
            sys.executable,
            str(repo / "benchmarks" / "web_attacks.py"),
            "--floods",
            "pair,unpaired",
            "--seconds",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(repo), "SDL_VIDEODRIVER": "dummy"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines()[2:]}
    assert set(rows) == {"pair", "unpaired"}
    for row in rows.values():
        pairing, act_p99, journal = float(row[2]), float(row[4].removesuffix("ms")), row[9]
        key_p99 = float(row[5].removesuffix("ms"))
        assert pairing < 5 and act_p99 < 2000 and journal == "0", row
        assert 0 < key_p99 < 2000, row  # keys were timed to their frames


def test_the_names_the_companion_answers_to():
    """Its addresses, localhost, its host name alone or under a LAN's domains; never a
    name of the internet, even one that starts with its host name."""
    networks = [ipaddress.ip_network("127.0.0.0/8")]
    names = limits.host_names("", "192.168.1.20", networks)
    host = socket.gethostname().lower().partition(".")[0]
    for name in ("192.168.1.20", "localhost", host, f"{host}.local", f"{host}.fritz.box"):
        assert name in names
    assert f"{host}.evil.example" not in names and "evil.example" not in names


#: A server with 64 descriptors in all, in a process of its own: it prints its port,
#: serves until its input closes, then exits (its log on stderr).
SMALL_SERVER = """
import ipaddress, logging, resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
logging.basicConfig(level=logging.INFO, format="%(message)s")
from web.test_web_floods import serve
server = serve(networks=[ipaddress.ip_network("127.0.0.0/8")])
print(server.bound_port, flush=True)
sys.stdin.read()
server.stop()
"""


def test_a_server_out_of_descriptors_says_so_once_and_serves_again():
    """Connections past the process's descriptors (the unit's LimitNOFILE): accept() fails
    and is tried again a second later (never in a busy loop), one line in the log; once
    the flood lets go, the page is served again."""
    import subprocess
    import sys

    tests = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tests.parent), str(tests)])}
    child = subprocess.Popen(
        [sys.executable, "-c", SMALL_SERVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert child.stdout is not None and child.stdin is not None
        port = int(child.stdout.readline())
        held = []
        for number in range(100):  # 4 from each of 25 addresses: past 64 in all
            sock = socket.socket()
            sock.bind((f"127.0.4.{number // 4}", 0))
            sock.connect(("127.0.0.1", port))
            held.append(sock)
        time.sleep(2.5)  # accept() fails, waits a second, fails again
        for sock in held:
            sock.close()

        def served() -> bool:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            try:
                connection.request("GET", f"/snapshot.json?code={CODE}")
                return connection.getresponse().status == 200
            except OSError:
                return False
            finally:
                connection.close()

        assert wait_for(served, 10)
        _, log = child.communicate("", timeout=20)  # its input closes: it stops
    finally:
        if child.poll() is None:
            child.kill()
    lines = [line for line in log.splitlines() if line.strip()]
    assert len(lines) == 1 and "out of system resource: too many open files" in lines[0], log
