"""The floods of issue 37 against the real app, and what an honest phone and the panel see.

The companion runs here (a real App, dummy video, a real SQLite file, its page served
on 127.0.0.1 ONLY); each flood runs in a child process of this script, against
127.0.0.1 only, from loopback source addresses 127.0.0.2 and up (each its own address
to the server, as guests on the Wi-Fi are), bounded in count and in time. During each
flood an honest phone (127.0.0.1) pairs (the panel says OK), keeps its live page open,
and acts; the panel takes keys. Printed, per flood: pairing time, page update p99,
action answer p99, panel key to frame p99, the app loop's CPU and its door's (the
process that accepts the connections: companion/web/door.py), the log's bytes, RSS;
the panel's key p99 as a multiple of idle's (``none``, run first) and whether the
issue's aims hold (pairing within 5 s, action answer p99 at most 250 ms, the panel's p99
within 20 % of idle, the log at most 100 kB a minute). ``net p99`` is the panel's key p99
less the time its thread waited for a CPU (Linux's run-queue wait): on a machine busy
with other work, what the companion's own process makes the panel wait, the web
thread's share of the interpreter included. ``--runs N`` runs every flood N times in
turn and then prints the medians (figures on a shared machine vary). The database is on
a RAM disk where there is one (``--data`` says otherwise): see RAM_DISK.

    PYTHONPATH=. .venv/bin/python benchmarks/web_attacks.py [--seconds 30] [--data DIR]
        [--floods none,streams] [--runs 5]

Never point this at anything but 127.0.0.1: it refuses any other address.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import logging
import os
import resource
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

HOST = "127.0.0.1"  # the only address this script ever connects to or serves on
FLOODS = ("none", "pair", "streams", "idle", "unpaired")
#: Bounds of each flood (whatever --seconds says): requests, connections.
PAIR_FLOOD = 3000
STREAM_FLOOD = 1000
IDLE_FLOOD = 2000
UNPAIRED_RATE = 1000  # a second
SOURCES = 60  # 127.0.0.2 ... 127.0.0.61
#: A flood's connection not answered is given up after this long (seconds).
FLOOD_TIMEOUT = 2.0
#: The database on a RAM disk: a disk's flushes (here, up to 0.8 s on a shared virtual
#: disk, with no flood at all) stall the panel behind a phone's stored action, floods or
#: not, and would drown what the floods do (no flood writes to the disk: see "rows").
RAM_DISK = "/dev/shm"


def source(number: int) -> str:
    return f"127.0.0.{2 + number % SOURCES}"


# -- the floods (a child process each) ---------------------------------------------


async def _pair_flood(port: int, code: str, seconds: float) -> int:
    body = json.dumps({"code": "000000", "name": "Mal"}).encode()
    request = (
        f"POST /api/pair HTTP/1.1\r\nHost: {HOST}\r\nCookie: table={code}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode() + body
    return await _requests(port, request, seconds, PAIR_FLOOD, rate=None)


async def _unpaired_flood(port: int, code: str, seconds: float) -> int:
    move = {"id": "m" * 20, "game": "1", "position": 0, "action": {"action": "undo"}}
    body = json.dumps(move).encode()
    request = (
        f"POST /api/act HTTP/1.1\r\nHost: {HOST}\r\nCookie: table={code}\r\n"
        "X-Phone-Token: forged\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode() + body
    count = int(UNPAIRED_RATE * seconds)
    return await _requests(port, request, seconds, count, rate=UNPAIRED_RATE)


async def _requests(
    port: int, request: bytes, seconds: float, count: int, rate: float | None
) -> int:
    """Send ``request`` on a connection of its own ``count`` times in ``seconds``: at
    ``rate`` a second whatever became of the earlier ones (an attacker's pace), or else
    20 at a time. A connection not answered (a server that stopped accepting, or one
    that drops it) is given up after FLOOD_TIMEOUT, as a client's script would: a
    defence that slows the flood's connections cannot slow the flood itself."""
    end = time.monotonic() + seconds
    start = time.monotonic()
    places = asyncio.Semaphore(20 if rate is None else int(rate * FLOOD_TIMEOUT))
    pending: set[asyncio.Task[None]] = set()

    async def one(number: int) -> None:
        try:
            async with asyncio.timeout(FLOOD_TIMEOUT):
                reader, writer = await asyncio.open_connection(
                    HOST, port, local_addr=(source(number), 0)
                )
                writer.write(request)
                await reader.read()
                writer.close()
        except (OSError, TimeoutError):
            pass
        finally:
            places.release()

    sent = 0
    while sent < count and time.monotonic() < end:
        for _ in range(20):
            await places.acquire()
            task = asyncio.create_task(one(sent))
            pending.add(task)
            task.add_done_callback(pending.discard)
            sent += 1
        if rate is not None:
            ahead = sent / rate - (time.monotonic() - start)
            if ahead > 0:
                await asyncio.sleep(ahead)
    await asyncio.gather(*pending)
    return sent


async def _hold(port: int, code: str, seconds: float, count: int, stream: bool) -> int:
    held = []
    request = f"GET /events?code={code} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
    for number in range(count):
        try:
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.bind((source(number), 0))
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, (HOST, port))
            if stream:
                sock.send(request)
            held.append(sock)  # never read
        except OSError:
            continue
    await asyncio.sleep(seconds)
    for sock in held:
        sock.close()
    return len(held)


def flood(kind: str, port: int, code: str, seconds: float) -> None:
    # a guest's phone or laptop has CPUs of its own: here the flood takes what the
    # companion leaves, so its sending does not count as the companion's waiting; and
    # it sends from one CPU of this machine's, where the kernel's work for its
    # connections (its sending, its timers, loopback's receiving) is done too
    os.nice(19)
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) > 1:
        os.sched_setaffinity(0, {cpus[-1]})
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if kind == "pair":
        done = asyncio.run(_pair_flood(port, code, seconds))
    elif kind == "unpaired":
        done = asyncio.run(_unpaired_flood(port, code, seconds))
    elif kind == "streams":
        done = asyncio.run(_hold(port, code, seconds, STREAM_FLOOD, stream=True))
    else:
        done = asyncio.run(_hold(port, code, seconds, IDLE_FLOOD, stream=False))
    print(done, flush=True)


# -- the companion, an honest phone, the panel ---------------------------------------


class Journal(logging.Handler):
    """What the companion would write to the journal: bytes of its log lines."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.bytes = 0
        self.lines = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.bytes += len(self.format(record)) + 1
        self.lines += 1


def p99(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


class Companion:
    """The real app on 127.0.0.1, its loop in a thread (CPU counted), the panel's person
    saying OK to every "Pair Di's phone?"."""

    def __init__(self, data: Path) -> None:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        from companion.core.controller import SetupDraft
        from companion.panel.display import open_display
        from companion.shell.app import App, resume
        from companion.shell.web_link import WebLink
        from companion.storage import Storage
        from engine.options import GameOptions
        from hardware.events import Key, Press

        self.storage = Storage.open(data)
        draft = SetupDraft(players=3, options=GameOptions(hand_memory=False))
        controller, game_id = resume(self.storage, draft)
        self.display = open_display("dummy", (480, 320))
        self.app = App(self.storage, self.display, controller, game_id)
        probe = socket.socket()
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]
        probe.close()
        self.web = WebLink(self.storage, port=port, bind=HOST)
        self.app.attach_web(self.web)
        self.app.step()
        assert self.web.wait_ready(30) and self.web.server is not None
        self.port = port
        self.app.dispatch(Press(Key.OK))  # Start
        self.app.step()
        self.cpu = 0.0
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._turn, daemon=True)
        self.thread.start()

    def _turn(self) -> None:
        from hardware.events import Key, Press

        asked = None
        while not self._stop.is_set():
            before = time.thread_time()
            self.app.step(20)
            pending = self.app.controller.pending_pair
            if pending is not None and pending is not asked:
                asked = pending
                self.app.dispatch(Press(Key.OK))
            self.cpu += time.thread_time() - before

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(10)
        self.web.stop()
        self.display.close()
        self.storage.close()


def request(port: int, method: str, path: str, body: object, headers: dict[str, str]) -> Any:
    connection = http.client.HTTPConnection(HOST, port, timeout=120)
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers=headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"{}")
    finally:
        connection.close()


def honest_phone(companion: Companion, until: float) -> dict[str, float]:
    """Pair (the panel says OK), watch the live page, act until ``until`` (monotonic);
    the panel takes a key every KEY_EVERY seconds meanwhile."""
    from companion.core.controller import Screen
    from hardware.events import Key, Press, Select

    app, port, code = companion.app, companion.port, companion.web.code
    headers = {"Cookie": f"table={code}", "Content-Type": "application/json"}
    app.inbox.emit(Press(Key.MENU))
    app.inbox.emit(Select("phones"))
    end = time.monotonic() + 10
    while app.controller.screen is not Screen.PHONES or app.controller.pairing_code is None:
        assert time.monotonic() < end
        time.sleep(0.01)
    start = time.perf_counter()
    status, data = request(
        port, "POST", "/api/pair", {"code": app.controller.pairing_code, "name": "Di"}, headers
    )
    pairing = time.perf_counter() - start
    assert status == 200, (status, data)
    headers["X-Phone-Token"] = data["token"]
    app.inbox.emit(Press(Key.BACK))
    time.sleep(0.2)
    updates: list[float] = []
    sent_at: dict[int, float] = {}
    watching = threading.Event()

    def watch() -> None:  # the live page: time from the answer to the event with it
        sock = socket.create_connection((HOST, port), timeout=30)
        sock.sendall(f"GET /events?code={code} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
        buffer = b""
        watching.set()
        while True:
            try:
                chunk = sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                for line in event.split(b"\n"):
                    if line.startswith(b"id: "):
                        number = int(line[4:])
                        if number in sent_at:
                            updates.append(time.perf_counter() - sent_at.pop(number))

    threading.Thread(target=watch, daemon=True).start()
    watching.wait(10)
    keys: list[float] = []
    net: list[float] = []  # each key's time less the panel thread's wait for a CPU
    phone_done = threading.Event()
    keys_thread = threading.Thread(
        target=panel_keys, args=(companion, phone_done, keys, net), daemon=True
    )
    keys_thread.start()
    answers: list[float] = []
    number = -1
    while time.monotonic() < until:
        number += 1
        snapshot = request(port, "GET", "/snapshot.json", None, headers)[1]
        position = snapshot["actions"]
        action = {"action": "hint", "to": (snapshot["current"] + 1) % 3, "rank": 1}
        if number % 2:
            action = {"action": "undo"}
        body = {"id": f"honest-{number:016d}", "game": snapshot["game"], "position": position}
        body["action"] = action
        start = time.perf_counter()
        sent_at[position + (-1 if number % 2 else 1)] = start
        status, data = request(port, "POST", "/api/act", body, headers)
        answers.append(time.perf_counter() - start)
        time.sleep(0.02)
    phone_done.set()
    keys_thread.join(10)
    return {
        "pairing_s": pairing,
        "update_p99_ms": p99(updates) * 1000,
        "answer_p99_ms": p99(answers) * 1000,
        "keys": float(len(keys)),
        "key_p99_ms": p99(keys) * 1000,
        "key_median_ms": statistics.median(keys) * 1000,
        "net_p99_ms": p99(net) * 1000,
    }


KEY_EVERY = 0.025  # the panel takes a key this often while the phone acts


def panel_keys(
    companion: Companion, done: threading.Event, keys: list[float], net: list[float]
) -> None:
    """Press NEXT on the panel every KEY_EVERY seconds until ``done``: each key's time to
    the frame that shows it (told by the app's draw, not polled), and the same less the
    panel thread's waits for a CPU."""
    from hardware.events import Key, Press

    app = companion.app
    drawn = threading.Event()
    draw, dispatch = app.draw, app.dispatch
    key: list[Press | None] = [None]  # the key in flight, until the app has handled it
    handled = [False]

    def dispatch_and_note(event: Any) -> None:
        dispatch(event)
        if event is key[0]:
            handled[0] = True

    def draw_and_tell() -> None:
        draw()
        if handled[0]:  # the first frame after the key, not one a phone's move asked for
            drawn.set()

    app.draw = draw_and_tell  # type: ignore[method-assign]
    app.dispatch = dispatch_and_note  # type: ignore[method-assign]
    try:
        while not done.is_set():
            drawn.clear()
            handled[0] = False
            key[0] = press = Press(Key.NEXT)
            waited = cpu_wait(companion.thread)
            start = time.perf_counter()
            app.inbox.emit(press)
            if drawn.wait(2):
                keys.append(time.perf_counter() - start)
                net.append(keys[-1] - (cpu_wait(companion.thread) - waited))
            time.sleep(KEY_EVERY)
    finally:
        app.draw = draw  # type: ignore[method-assign]
        app.dispatch = dispatch  # type: ignore[method-assign]


def cpu_wait(thread: threading.Thread) -> float:
    """Seconds a thread has waited for a CPU so far (Linux's run-queue wait; 0 elsewhere):
    on a shared machine, the part of the panel's latency that other work causes."""
    try:
        fields = Path(f"/proc/self/task/{thread.native_id}/schedstat").read_text().split()
    except OSError:
        return 0.0
    return int(fields[1]) / 1e9


def rss_mb(pid: int | str = "self") -> float:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0.0
    for line in lines:
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def process_cpu(pid: int | None) -> float:
    """Seconds of CPU a process (the page's door) has used so far; 0 for none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def door_pid(companion: Companion) -> int | None:
    """The page's door (companion/web/door.py), a process of the app's own."""
    server = companion.web.server
    process = server.door.process if server and server.door else None
    return process.pid if process is not None else None


def run(kind: str, seconds: float, data: str | None = None) -> dict[str, float]:
    journal = Journal()
    logging.getLogger().addHandler(journal)
    logging.getLogger().setLevel(logging.INFO)
    with tempfile.TemporaryDirectory(dir=data) as folder:
        companion = Companion(Path(folder) / "data")
        child = None
        lead = min(2.0, seconds / 4)  # the flood's start before the phone's
        try:
            if kind != "none":
                child = subprocess.Popen(
                    [
                        sys.executable,
                        __file__,
                        "--flood",
                        kind,
                        str(companion.port),
                        companion.web.code,
                        str(seconds),
                    ],
                    stdout=subprocess.PIPE,
                    text=True,
                )
                time.sleep(lead)  # the flood under way
            door = door_pid(companion)
            cpu_before, wall = companion.cpu, time.perf_counter()
            door_before = process_cpu(door)
            figures = honest_phone(companion, time.monotonic() + seconds - lead)
            took = time.perf_counter() - wall
            figures["loop_cpu_pct"] = 100 * (companion.cpu - cpu_before) / took
            figures["door_cpu_pct"] = 100 * (process_cpu(door) - door_before) / took
            figures["door_rss_mb"] = rss_mb(door) if door is not None else 0.0
            if child is not None:
                out, _ = child.communicate(timeout=seconds + 60)
                figures["flood"] = float(out.strip() or 0)
            server = companion.web.server
            figures["turned_away"] = float(sum(server.turned_away.values())) if server else 0
            with contextlib.closing(sqlite3.connect(companion.storage.path)) as db:
                rows = db.execute("SELECT COUNT(*) FROM phone_requests").fetchone()[0]
            figures["answer_rows"] = float(rows)
        finally:
            if child is not None and child.poll() is None:
                child.kill()
            companion.stop()
    logging.getLogger().removeHandler(journal)
    figures["journal_bytes"] = float(journal.bytes)
    figures["rss_mb"] = rss_mb() + figures["door_rss_mb"]  # the app's and its door's
    return figures


#: The issue's aims for the honest phone and the panel under every flood.
AIM_PAIRING_S = 5.0
AIM_ANSWER_P99_MS = 250.0
AIM_KEY_OF_IDLE = 1.2  # the panel's key-to-frame p99 within 20 % of idle


def verdict(f: dict[str, float], idle: dict[str, float] | None) -> tuple[str, str, str]:
    """The panel's key p99 as a multiple of idle's, the same less its waits for a CPU,
    and whether every aim holds (the panel's on the key p99 itself)."""
    ratio = f["key_p99_ms"] / idle["key_p99_ms"] if idle else None
    net = f["net_p99_ms"] / idle["net_p99_ms"] if idle else None
    holds = (
        f["pairing_s"] <= AIM_PAIRING_S
        and f["answer_p99_ms"] <= AIM_ANSWER_P99_MS
        and f["journal_bytes"] <= 100_000 * max(1.0, f["seconds"] / 60)
        and (ratio is None or ratio <= AIM_KEY_OF_IDLE)
    )
    return (
        "-" if ratio is None else f"{ratio:.2f}",
        "-" if net is None else f"{net:.2f}",
        "holds" if holds else "MISSED",
    )


def print_row(kind: str, f: dict[str, float], idle: dict[str, float] | None) -> None:
    ratio, net, aims = verdict(f, idle)
    print(
        f"{kind:<9} {f.get('flood', 0):>7.0f} {f['pairing_s']:>7.2f} "
        f"{f['update_p99_ms']:>8.1f}ms {f['answer_p99_ms']:>6.1f}ms "
        f"{f['key_p99_ms']:>6.1f}ms {f['key_median_ms']:>6.1f}ms "
        f"{f['loop_cpu_pct']:>7.1f}% {f['door_cpu_pct']:>7.1f}% "
        f"{f['journal_bytes']:>9.0f} {f['answer_rows']:>5.0f} "
        f"{f['rss_mb']:>7.1f} {ratio:>8} {f['net_p99_ms']:>6.1f}ms {net:>8} {aims:>6}",
        flush=True,
    )


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--flood":
        kind, port, code, seconds = sys.argv[2], int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
        flood(kind, port, code, seconds)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="each flood's length")
    parser.add_argument("--floods", default=",".join(FLOODS))
    parser.add_argument(
        "--data",
        default=RAM_DISK if Path(RAM_DISK).is_dir() else None,
        help="where the database lives (default: a RAM disk where there is one)",
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="run every flood this often, in turn; then medians"
    )
    args = parser.parse_args()
    kinds = args.floods.split(",")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))  # as the unit
    print(f"the database in {args.data or tempfile.gettempdir()}; each flood {args.seconds:g} s")
    print(
        f"{'flood':<9} {'flood n':>7} {'pair s':>7} {'update p99':>10} {'act p99':>8} "
        f"{'key p99':>8} {'key med':>8} {'loop CPU':>8} {'door CPU':>8} "
        f"{'journal B':>9} {'rows':>5} "
        f"{'RSS MB':>7} {'key/idle':>8} {'net p99':>8} {'net/idle':>8} {'aims':>6}"
    )
    runs: dict[str, list[dict[str, float]]] = {kind: [] for kind in kinds}
    for _ in range(args.runs):
        idle = None
        for kind in kinds:
            f = run(kind, args.seconds, args.data)
            f["seconds"] = args.seconds
            runs[kind].append(f)
            if kind == "none":
                idle = f
            print_row(kind, f, idle)
    if args.runs > 1:
        medians = {
            kind: {name: statistics.median(f[name] for f in found) for name in found[0]}
            for kind, found in runs.items()
        }
        print(f"medians of {args.runs} runs, each flood's key/idle against the median idle:")
        for kind, f in medians.items():
            print_row(kind, f, medians.get("none"))
        for kind, found in runs.items():
            each = ", ".join(f"{f['key_p99_ms']:.1f}" for f in found)
            nets = ", ".join(f"{f['net_p99_ms']:.1f}" for f in found)
            counts = ", ".join(f"{f['keys']:.0f}" for f in found)
            print(f"  {kind}: key p99 of each run {each} ms; net of CPU waits {nets} ms")
            print(f"  {kind}: keys timed in each run {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
