"""The page for phones: how fast a change reaches every phone, what it costs (issue 21).

    .venv/bin/python benchmarks/web_speed.py [--rss]

Measures on this machine, with the real server (aiohttp in its thread) and phones
simulated by SSE clients in another process (raw sockets, asyncio), so the phones do
not share the companion's interpreter:

1. action -> every phone updated, p50 and p99, with 1 and 10 phones: from just before
   the app thread builds and publishes the snapshot of an action to the moment the last
   phone has read that action's event (one clock: CLOCK_MONOTONIC, shared by processes);
2. the panel's input -> frame with 10 phones connected against none: the real ``App``
   with SDL's dummy driver, one action dispatched and its frame drawn (plus the
   snapshot published when phones are on), p50/p99; the actions 50 ms apart (a
   table's come seconds apart: the phones have had the previous one), in 5 rounds
   that alternate no page and 10 phones, so the machine's other work falls on both;
3. idle CPU of the companion's process with 10 phones connected, over 20 s;
4. resident memory added by the server: VmRSS of a process that has imported the app
   (pygame) and drawn, before and after the server starts and 10 phones connect, and
   what each step added (asyncio, aiohttp's package, ``aiohttp.web``, our server
   module, serving, the phones), the server imported as the app does (without
   ``ssl``: :mod:`companion.shell.no_tls`);
5. the page's weight: every file of the first load, raw and gzipped.

``--rss`` measures 4 alone (the system tier runs it in its VM).

Figures are printed, never asserted. Takes about two minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

ACTIONS = 300
#: The panel's actions: this many rounds of each (no page, 10 phones), alternating.
PANEL_ROUNDS, PANEL_ACTIONS, PANEL_PAUSE = 5, 100, 0.05
IDLE_SECONDS = 20.0
CODE = "bench234"


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- the phones: a child process ----------------------------------------------------


async def _phone(port: int, number: int, out: asyncio.Queue[str]) -> None:
    # Each phone from a loopback address of its own, as phones on the Wi-Fi each have one
    # (the server takes at most a few live pages from one address: issue 37).
    source = (f"127.0.1.{number + 1}", 0)
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=source)
    writer.write(f"GET /events?code={CODE} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    await writer.drain()
    while True:
        line = await reader.readline()
        if not line:
            return
        if line.startswith(b"id: "):
            await out.put(f"{line[4:].strip().decode()} {number} {time.monotonic_ns()}")


async def _phones(port: int, count: int) -> None:
    out: asyncio.Queue[str] = asyncio.Queue()
    tasks = [asyncio.create_task(_phone(port, n, out)) for n in range(count)]
    while True:
        line = await out.get()
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    await asyncio.gather(*tasks)


class Phones:
    """``count`` phones in a child process; ``arrivals[id]`` = the times they read it."""

    def __init__(self, port: int, count: int) -> None:
        self.count = count
        self.arrivals: dict[int, list[int]] = {}
        self.lock = threading.Lock()
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--phones", str(port), str(count)],
            stdout=subprocess.PIPE,
            text=True,
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            event_id, _, when = line.split()
            with self.lock:
                self.arrivals.setdefault(int(event_id), []).append(int(when))

    def all_read(self, event_id: int, since: int = 0, timeout: float = 10.0) -> int:
        """When the last phone read ``event_id`` after ``since`` (ns), waiting for it (an
        id comes again in the next game)."""
        deadline = time.monotonic() + timeout
        seen: list[int] = []
        while time.monotonic() < deadline:
            with self.lock:
                seen = [when for when in self.arrivals.get(event_id, []) if when >= since]
                if len(seen) >= self.count:
                    return max(seen)
            time.sleep(0.0002)
        raise TimeoutError(f"event {event_id}: {len(seen)} of {self.count} phones")

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


# -- the companion's side ----------------------------------------------------------------


def simulated_games(actions: int) -> list[list[object]]:
    """Simulated 4-player games with hand memory, their actions, ``actions`` in all."""
    from engine.options import GameOptions
    from engine.setup import GameSetup
    from engine.table import SimulatedTable

    games: list[list[object]] = []
    seed = 0
    while sum(len(game) for game in games) < actions:
        setup = GameSetup(players=4, options=GameOptions(hand_memory=True))
        table = SimulatedTable(setup, random.Random(seed), skill=0.8)
        while not table.game.is_over:
            table.step()
        games.append(list(table.game.actions))
        seed += 1
    return games


def to_every_phone(phones_count: int) -> list[float]:
    """Action -> every phone updated, in ms."""
    from companion.core.controller import Controller, SetupDraft
    from companion.web.server import WebServer
    from companion.web.snapshot import SnapshotBoard, build_snapshot
    from engine.game import Game
    from engine.options import GameOptions
    from engine.setup import GameSetup

    setup = GameSetup(players=4, options=GameOptions(hand_memory=True))
    controller = Controller(SetupDraft(players=4))
    board = SnapshotBoard(build_snapshot(controller))
    port = free_port()
    server = WebServer(board, CODE, port=port, bind="127.0.0.1")
    server.start()
    assert server.ready.wait(10) and server.failure is None
    phones = Phones(port, phones_count)
    phones.all_read(0)
    samples: list[float] = []
    try:
        for number, actions in enumerate(simulated_games(ACTIONS)):
            game = Game(setup)
            controller.game = game
            start = time.monotonic_ns()
            board.publish(build_snapshot(controller, game_key=str(number)))
            phones.all_read(0, since=start)
            for action in actions:
                game.apply(action)  # type: ignore[arg-type]
                start = time.monotonic_ns()
                board.publish(build_snapshot(controller, game_key=str(number)))
                done = phones.all_read(len(game.actions), since=start)
                samples.append((done - start) / 1e6)
                time.sleep(0.005)  # actions at a table come seconds apart, not in a burst
    finally:
        phones.stop()
        server.stop()
    return samples


def input_to_frame(phones_count: int, actions: int) -> list[tuple[float, float]]:
    """The real App (SDL dummy), one action each: (input -> frame presented, input ->
    the app thread free again), in ms. With ``phones_count`` phones, the page for phones
    is on: the snapshot is built and published after the frame is presented."""
    import tempfile

    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from companion.core.controller import SetupDraft
    from companion.panel.display import open_display
    from companion.shell.app import App, resume
    from companion.shell.web_link import WebLink
    from companion.storage import Storage
    from hardware.events import Key, Press

    with tempfile.TemporaryDirectory() as folder:
        storage = Storage.open(Path(folder))
        controller, game_id = resume(storage, SetupDraft(players=4, hint_content=False))
        display = open_display("dummy", (480, 320))
        app = App(storage, display, controller, game_id)
        web = None
        phones = None
        if phones_count:
            port = free_port()
            web = WebLink(storage, port=port, bind="127.0.0.1")
            app.attach_web(web)
        app.step()
        if web is not None:
            assert web.wait_ready(10) and web.server is not None
            web.server.code = CODE
            phones = Phones(port, phones_count)
            phones.all_read(0)
        app.dispatch(Press(Key.OK))  # start
        app.draw()
        presented = [0]
        present = display.present

        def timed_present() -> None:
            present()
            presented[0] = time.perf_counter_ns()

        display.present = timed_present  # type: ignore[method-assign]
        samples: list[tuple[float, float]] = []
        try:
            for _ in range(actions):
                game = app.controller.game
                assert game is not None
                key = Key.HINT if game.position.hints > 0 else Key.UNDO
                if game.is_over:
                    key = Key.UNDO
                start = time.perf_counter_ns()
                app.dispatch(Press(key))
                if key is Key.UNDO:
                    app.dispatch(Press(Key.OK))
                app.draw()
                end = time.perf_counter_ns()
                samples.append(((presented[0] - start) / 1e6, (end - start) / 1e6))
                time.sleep(PANEL_PAUSE)
        finally:
            if phones is not None:
                phones.stop()
            if web is not None:
                web.stop()
            display.close()
            storage.close()
    return samples


def idle_cpu(phones_count: int) -> float:
    """Per cent of one core used by this process (the server, 10 phones) while idle."""
    from companion.core.controller import Controller, SetupDraft
    from companion.web.server import WebServer
    from companion.web.snapshot import SnapshotBoard, build_snapshot

    board = SnapshotBoard(build_snapshot(Controller(SetupDraft(players=4))))
    port = free_port()
    server = WebServer(board, CODE, port=port, bind="127.0.0.1")
    server.start()
    assert server.ready.wait(10)
    phones = Phones(port, phones_count)
    phones.all_read(0)
    time.sleep(1.0)
    before = os.times()
    wall = time.monotonic()
    time.sleep(IDLE_SECONDS)
    after = os.times()
    used = (after.user - before.user) + (after.system - before.system)
    percent = 100 * used / (time.monotonic() - wall)
    phones.stop()
    server.stop()
    return percent


RSS_CHILD = """
import os, sys, time, socket, json
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
sys.path.insert(0, {repo!r})
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
import pygame
from companion.shell.app import App
from companion.core.controller import Controller, SetupDraft
from companion.panel.screens import Renderer
from companion.web.snapshot import SnapshotBoard, build_snapshot
pygame.font.init()
controller = Controller(SetupDraft(players=4))
surface = pygame.Surface((480, 320))
Renderer((480, 320)).draw(surface, controller)
board = SnapshotBoard(build_snapshot(controller))
from companion.shell.no_tls import without_tls
stages = [("before", rss())]
with without_tls():  # as the app's WebLink imports the server
    import asyncio
    stages.append(("asyncio", rss()))
    import aiohttp
    stages.append(("aiohttp's package (its client too)", rss()))
    from aiohttp import web
    stages.append(("aiohttp.web", rss()))
    from companion.web.server import WebServer
    stages.append(("companion.web.server", rss()))
server = WebServer(board, {code!r}, port={port}, bind="127.0.0.1")
server.start()
server.ready.wait(300)
stages.append(("serving", rss()))
print("listening", flush=True)
sys.stdin.readline()  # the phones are connected
time.sleep(1.0)
stages.append(("10 phones", rss()))
with open("/proc/self/maps") as maps:
    tls = any("libssl" in line for line in maps)
print(json.dumps({{"stages": stages, "libssl": tls}}), flush=True)
"""


def rss_added(phones_count: int) -> tuple[list[tuple[str, int]], bool]:
    """VmRSS (kB) of an app process before the server, after each step of starting it
    (its imports one by one, as the app's ``WebLink`` makes them, then serving), and
    after it serves ``phones_count``; and whether OpenSSL's libssl got loaded.

    With bytecode cached, as an install leaves it (a private ``PYTHONPYCACHEPREFIX``,
    filled first): compiling our modules from source would grow the heap before the
    server starts, and the server's imports would then fill that room unseen."""
    port = free_port()
    pycache = tempfile.mkdtemp(prefix="web-speed-pycache-")
    env = {**os.environ, "PYTHONPYCACHEPREFIX": pycache, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(
        [sys.executable, "-c", "import aiohttp.web, companion.shell.app, companion.web.server"],
        env={**env, "SDL_VIDEODRIVER": "dummy"},
        cwd=REPO,
        check=True,
    )
    child = subprocess.Popen(
        [sys.executable, "-c", RSS_CHILD.format(repo=str(REPO), code=CODE, port=port)],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdin is not None
    assert child.stdout.readline().strip() == "listening"
    phones = Phones(port, phones_count)
    phones.all_read(0, timeout=300)  # the system tier's VM runs this under emulation
    child.stdin.write("go\n")
    child.stdin.flush()
    measured = json.loads(child.stdout.readline())
    stages = [(str(name), int(kb)) for name, kb in measured["stages"]]
    phones.stop()
    child.kill()
    child.wait()
    shutil.rmtree(pycache, ignore_errors=True)
    return stages, bool(measured["libssl"])


def main() -> None:
    from companion.web.server import page_weight

    print("The page for phones (issue 21) on this machine; figures, not goals checked.\n")
    raw, gzipped = page_weight()
    print(f"page weight, first load: {raw / 1000:.1f} kB raw, {gzipped / 1000:.1f} kB gzipped"
          " (goal <= 150 kB compressed)")  # fmt: skip
    for count in (1, 10):
        samples = to_every_phone(count)
        print(
            f"action -> every phone updated, {count:>2} phone(s): p50 "
            f"{statistics.median(samples):.2f} ms, p99 {percentile(samples, 99):.2f} ms"
            f" ({len(samples)} actions)"
        )
    without: list[tuple[float, float]] = []
    with_phones: list[tuple[float, float]] = []
    for _ in range(PANEL_ROUNDS):
        without += input_to_frame(0, PANEL_ACTIONS)
        with_phones += input_to_frame(10, PANEL_ACTIONS)
    for index, what in ((0, "input -> frame presented"), (1, "input -> app thread free")):
        off = [sample[index] for sample in without]
        on = [sample[index] for sample in with_phones]
        p99_off, p99_on = percentile(off, 99), percentile(on, 99)
        print(
            f"panel {what} (App, SDL dummy): no page p50 {statistics.median(off):.2f} ms"
            f" p99 {p99_off:.2f} ms; 10 phones p50 {statistics.median(on):.2f} ms p99"
            f" {p99_on:.2f} ms ({100 * (p99_on / p99_off - 1):+.0f} %)"
        )
    cpu = idle_cpu(10)
    print(f"idle CPU, 10 phones connected, {IDLE_SECONDS:.0f} s: {cpu:.3f} % of a core"
          " (goal <= 0.3 %)")  # fmt: skip
    print_rss_added()


def print_rss_added() -> None:
    """Section 4 alone (``--rss``; the system tier runs it in the VM, with the installed
    venv's Python)."""
    stages, tls = rss_added(10)
    before, after = stages[0][1], stages[-1][1]
    print(
        f"resident memory: {before / 1024:.1f} MB before the server, {after / 1024:.1f} MB with"
        f" it and 10 phones: +{(after - before) / 1024:.1f} MB (goal <= 15 MB); added by:"
    )
    for (_, previous), (name, kb) in itertools.pairwise(stages):
        print(f"  {(kb - previous) / 1024:+5.1f} MB  {name}")
    print(f"  libssl {'loaded' if tls else 'not loaded'} (the server is imported without ssl)")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--phones":
        with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
            asyncio.run(_phones(int(sys.argv[2]), int(sys.argv[3])))
    elif sys.argv[1:] == ["--rss"]:
        print_rss_added()
    else:
        main()
