"""How fast the companion answers and how little it costs while idle (issue 3, section 5).

    .venv/bin/python benchmarks/app_speed.py
    .venv/bin/python benchmarks/app_speed.py --start [RUNS]   # only 5 and 6a-6c, ~20 s

Starts its own Xvfb and measures, on this machine:

1. input to finished frame, events from threads: in-process, the real ``App``
   on an Xvfb window runs its own ``App.run()`` loop; a second thread calls
   ``app.inbox.emit(...)`` (what the button and scanner threads call) and the
   time runs from the emit to the end of ``Display.present()`` of the frame
   that shows it (``present`` wrapped in a subclass, no app change);
2. the same in-process for pygame ``KEYDOWN`` / ``MOUSEBUTTONDOWN`` events
   posted into the SDL queue (the app's path from the SDL queue to the frame);
3. keyboard and touch end to end: the real ``hanabi-companion run`` process;
   keys and clicks go in through the X server's XTEST extension (what
   ``xdotool key``/``click`` use), sent from this process so the send time is
   exact; the frame counts as visible when the window's pixels, read back with
   ``XGetImage`` in a tight loop, change;
4. idle CPU over 10 s of that process on the game screen (``/proc``);
5. start to first frame: process spawn to ``READY=1`` on ``$NOTIFY_SOCKET``,
   which the app sends right after presenting its first frame; median of 5,
   with bytecode cached as an install leaves it (the cache goes to a private
   ``PYTHONPYCACHEPREFIX``, not into the checkout);
6. resident memory (VmRSS) with ``SDL_FRAMEBUFFER_ACCELERATION=0`` (the
   app's default) and ``=1``.

Timings are reported, never asserted; the verdict column compares with the
goals of the issue. A Raspberry Pi 3 is about ten times slower than this
machine: the last column multiplies by ten. Takes about 70 s.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import queue
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

SIZE = (480, 320)
COMMAND = [sys.executable, "-m", "companion"]
REPO = Path(__file__).resolve().parent.parent
THREAD_CYCLES = 70  # x 9 events
PYGAME_CYCLES = 35  # x 9 keys, x 4 taps
X_CYCLES = 25  # x 9 keys, x 4 clicks
IDLE_SECONDS = 10.0
START_RUNS = 5
PI3_FACTOR = 10


# -- results -------------------------------------------------------------------------


@dataclass
class Row:
    what: str
    p50: str
    p99: str
    goal: str
    verdict: str
    pi3: str = ""


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def timing(self, what: str, samples_ms: list[float], goal_ms: float) -> None:
        p50, p99 = percentile(samples_ms, 50), percentile(samples_ms, 99)
        self.rows.append(
            Row(
                f"{what} (n={len(samples_ms)})",
                f"{p50:.2f} ms",
                f"{p99:.2f} ms",
                f"p99 <= {goal_ms:g} ms",
                "ok" if p99 <= goal_ms else "MISSED",
                f"p99 ~{p99 * PI3_FACTOR:.0f} ms",
            )
        )

    def single(self, what: str, value: str, goal: str, met: bool | None, pi3: str = "") -> None:
        verdict = "" if met is None else ("ok" if met else "MISSED")
        self.rows.append(Row(what, value, "", goal, verdict, pi3))

    def print(self) -> None:
        header = Row("measure", "p50 / value", "p99", "goal", "", "Pi 3 (x10)")
        rows = [header, *self.rows]
        widths = [
            max(len(getattr(row, name)) for row in rows)
            for name in ("what", "p50", "p99", "goal", "verdict", "pi3")
        ]
        for i, row in enumerate(rows):
            cells = (row.what, row.p50, row.p99, row.goal, row.verdict, row.pi3)
            print(
                "  ".join(
                    cell.ljust(width) for cell, width in zip(cells, widths, strict=True)
                ).rstrip()
            )
            if i == 0:
                print("  ".join("-" * width for width in widths))
        for note in self.notes:
            print(f"- {note}")


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    rank = (len(ordered) - 1) * pct / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def ms(ns: int) -> float:
    return ns / 1e6


def filesystem(path: Path) -> str:
    """The device and type of the filesystem holding ``path``, from /proc/mounts."""
    best = ("?", "?", "")
    with contextlib.suppress(OSError):
        for line in Path("/proc/mounts").read_text().splitlines():
            device, mount, kind = line.split()[:3]
            inside = str(path.resolve()).startswith(mount.rstrip("/") + "/") or mount == "/"
            if inside and len(mount) >= len(best[2]):
                best = (device, kind, mount)
    return f"{best[0]} ({best[1]})"


# -- Xvfb ----------------------------------------------------------------------------


@contextlib.contextmanager
def xvfb() -> Iterator[str]:
    """A private X server (the tests' own, ``tests/support/xwindow.py``); yields its DISPLAY."""
    for tool in ("Xvfb", "xdotool"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is not installed")
    sys.path.insert(0, str(REPO / "tests"))
    from support.xwindow import x_server

    with x_server() as env:
        yield env["DISPLAY"]


# -- 1 and 2: in-process, the real App and its own loop ------------------------------


def in_process(display_name: str, report: Report) -> dict[str, tuple[int, int]]:
    """Thread events, posted keys and posted taps into the real loop; returns tap points."""
    os.environ["DISPLAY"] = display_name
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    os.environ.pop("WAYLAND_DISPLAY", None)
    os.environ.pop("SDL_VIDEODRIVER", None)
    import pygame

    from companion.core.controller import RecordAction, RecordUndo, Screen, SetupDraft
    from companion.panel.display import Display, open_display
    from companion.shell.app import App, draft_from_config, resume
    from companion.shell.config import load_config
    from companion.storage import Storage
    from engine.cards import Color
    from hardware.events import ChooseColor, ChooseRank, Key, Press, TypeText

    presented: queue.SimpleQueue[int] = queue.SimpleQueue()

    marks: dict[str, list[int]] = {"dispatch": [], "commit": [], "render": [], "present": []}

    class TimedDisplay(Display):
        """The real display; notes when each frame has been presented."""

        def present(self) -> None:
            start = time.perf_counter_ns()
            super().present()
            end = time.perf_counter_ns()
            marks["present"].append(end - start)
            presented.put(end)

    real = open_display("window", SIZE)
    display = TimedDisplay(real.surface, real.framebuffer)
    tmp = Path(tempfile.mkdtemp(prefix="app-speed-"))
    storage = Storage.open(tmp / "data")
    draft = SetupDraft.from_settings({}, default=draft_from_config(load_config(None)))
    draft.hint_content = False  # the cycles time a hint of one press (the count level)
    controller, game_id = resume(storage, draft)
    app = App(storage, display, controller, game_id)

    # Instance wrappers (no app change) split a frame's latency into its parts.
    renderer_draw, app_dispatch, app_carry_out = app.renderer.draw, app.dispatch, app.carry_out

    def timed_draw(surface: pygame.Surface, ctl: object) -> object:
        start = time.perf_counter_ns()
        targets = renderer_draw(surface, ctl)  # type: ignore[arg-type]
        marks["render"].append(time.perf_counter_ns() - start)
        return targets

    def timed_dispatch(event: object) -> None:
        start = time.perf_counter_ns()
        app_dispatch(event)  # type: ignore[arg-type]
        marks["dispatch"].append(start)
        marks["dispatch"].append(time.perf_counter_ns() - start)

    def timed_carry_out(effect: object) -> None:
        start = time.perf_counter_ns()
        app_carry_out(effect)  # type: ignore[arg-type]
        if isinstance(effect, RecordAction | RecordUndo):
            marks["commit"].append(time.perf_counter_ns() - start)

    app.renderer.draw = timed_draw  # type: ignore[method-assign]
    app.dispatch = timed_dispatch  # type: ignore[method-assign]
    app.carry_out = timed_carry_out  # type: ignore[method-assign]

    def drain() -> None:
        with contextlib.suppress(queue.Empty):
            while True:
                presented.get_nowait()

    def one(send: Callable[[], None]) -> float:
        """Send one input when the loop is waiting; ms until its frame is presented."""
        time.sleep(random.uniform(0.002, 0.006))  # the loop is back in its wait, any phase
        drain()
        for kind in marks.values():
            kind.clear()
        start = time.perf_counter_ns()
        send()
        end = presented.get(timeout=5)
        latency = ms(end - start)
        if len(marks["dispatch"]) == 2 and len(marks["render"]) == 1:  # one input, one frame
            parts["wake"].append(ms(marks["dispatch"][0] - start))
            parts["dispatch"].append(ms(marks["dispatch"][1]))
            parts["render"].append(ms(marks["render"][0]))
            parts["present"].append(ms(marks["present"][0]))
            if marks["commit"]:
                parts["commit"].append(ms(sum(marks["commit"])))
        results["last_commit" if marks["commit"] else "last_plain"].append(latency)
        return latency

    def target_center(event: object) -> tuple[int, int]:
        for rect, target in app.targets:
            if target == event:
                return rect.center
        raise LookupError(f"no tap target for {event} on {app.controller.screen}")

    results: dict[str, list[float]] = {
        name: [] for name in ("thread", "keys", "taps", "last_commit", "last_plain")
    }
    parts: dict[str, list[float]] = {
        name: [] for name in ("wake", "dispatch", "commit", "render", "present")
    }
    taps: dict[str, tuple[int, int]] = {}
    failure: list[BaseException] = []

    # The loop sleeps on the X connection; an event posted into SDL's queue does not
    # touch it, so the post is followed by the wake-up the X socket would have given.
    def post_key(name: str) -> Callable[[], None]:
        code = pygame.key.key_code(name)

        def post() -> None:
            pygame.event.post(
                pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, scancode=0, unicode="")
            )
            app.sleeper.poke()

        return post

    def post_tap(point: tuple[int, int]) -> Callable[[], None]:
        def post() -> None:
            pygame.event.post(
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=point, touch=False)
            )
            app.sleeper.poke()

        return post

    def producer() -> None:
        try:
            emit = app.inbox.emit
            presented.get(timeout=10)  # the loop's first frame
            time.sleep(0.2)  # and any expose redraw
            one(lambda: emit(Press(Key.OK)))  # set-up screen, focus on "start": a game
            assert app.controller.screen is Screen.GAME, app.controller.screen
            thread_cycle = [
                Press(Key.HINT),
                Press(Key.UNDO),
                Press(Key.OK),
                Press(Key.PLAY),
                ChooseColor(Color.RED),
                ChooseRank(1),
                Press(Key.OK),
                Press(Key.UNDO),
                Press(Key.OK),
            ]
            for _ in range(2):  # warm-up: fonts and glyphs of every screen
                for event in thread_cycle:
                    one(lambda event=event: emit(event))
            for name in ("last_commit", "last_plain", *parts):
                (results if name.startswith("last") else parts)[name].clear()
            for _ in range(THREAD_CYCLES):
                for event in thread_cycle:
                    results["thread"].append(one(lambda event=event: emit(event)))
            thread_parts = {name: list(values) for name, values in parts.items()}
            results["thread_commit"] = list(results["last_commit"])
            results["thread_plain"] = list(results["last_plain"])
            key_cycle = ["h", "u", "return", "p", "r", "1", "return", "u", "return"]
            for _ in range(PYGAME_CYCLES):
                for name in key_cycle:
                    results["keys"].append(one(post_key(name)))
            for _ in range(PYGAME_CYCLES):
                for name, event in (
                    ("hint", Press(Key.HINT)),
                    ("undo", Press(Key.UNDO)),
                    ("undo_ok", Press(Key.OK)),
                    ("page", Press(Key.NEXT)),
                ):
                    taps[name] = target_center(event)
                    results["taps"].append(one(post_tap(taps[name])))
            assert app.controller.screen is Screen.GAME, app.controller.screen
            parts.update(thread_parts)
        except BaseException as error:  # reported by the main thread
            failure.append(error)
        finally:
            app.running = False
            app.inbox.emit(TypeText(""))  # wake the loop; an empty text changes nothing

    worker = threading.Thread(target=producer, daemon=True)
    worker.start()
    app.run()  # the app's own loop, on the main thread like in the real app
    worker.join()
    display.close()
    storage.close()
    shutil.rmtree(tmp, ignore_errors=True)
    if failure:
        raise failure[0]

    report.timing("1. thread emit -> frame presented", results["thread"], 2)
    report.timing("   1a. inputs that commit an action to SQLite", results["thread_commit"], 2)
    report.timing("   1b. inputs that commit nothing", results["thread_plain"], 2)
    report.timing("2a. pygame KEYDOWN post -> frame presented", results["keys"], 40)
    report.timing("2b. pygame MOUSEBUTTONDOWN post -> frame presented", results["taps"], 40)
    labels = {
        "wake": "emit -> App.dispatch starts (the loop waking up)",
        "dispatch": "App.dispatch (controller, + SQLite commit if any)",
        "commit": "of which the SQLite commit (synchronous=FULL)",
        "render": "Renderer.draw (the whole screen, every frame)",
        "present": "Display.present (pygame.display.flip)",
    }
    report.notes.append(
        "1 split by instance wrappers (no app change), p50 / p99:\n"
        + "\n".join(
            f"    {labels[name]:<52} {percentile(values, 50):6.2f} / "
            f"{percentile(values, 99):6.2f} ms"
            for name, values in parts.items()
        )
        + f"\n    (data directory on {filesystem(tmp)}; the loop sleeps in select())"
    )
    return taps


# -- Xlib through ctypes: read the window's pixels, send keys and clicks via XTEST --------


class XImage(ctypes.Structure):
    _fields_ = [  # the C layout: only the leading fields, which are read
        ("width", ctypes.c_int),
        ("height", ctypes.c_int),
        ("xoffset", ctypes.c_int),
        ("format", ctypes.c_int),
        ("data", ctypes.c_void_p),
        ("byte_order", ctypes.c_int),
        ("bitmap_unit", ctypes.c_int),
        ("bitmap_bit_order", ctypes.c_int),
        ("bitmap_pad", ctypes.c_int),
        ("depth", ctypes.c_int),
        ("bytes_per_line", ctypes.c_int),
        ("bits_per_pixel", ctypes.c_int),
    ]


ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


class X:
    """A connection to the X server for reading pixels and faking input (XTEST)."""

    def __init__(self, display_name: str) -> None:
        x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        xtst = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XGetImage.restype = ctypes.POINTER(XImage)
        x11.XGetImage.argtypes = [
            ctypes.c_void_p,
            ctypes.c_ulong,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_uint,
            ctypes.c_uint,
            ctypes.c_ulong,
            ctypes.c_int,
        ]
        x11.XFree.argtypes = [ctypes.c_void_p]
        x11.XFlush.argtypes = [ctypes.c_void_p]
        x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x11.XStringToKeysym.restype = ctypes.c_ulong
        x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
        x11.XKeysymToKeycode.restype = ctypes.c_ubyte
        x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        x11.XSetErrorHandler.argtypes = [ERROR_HANDLER]
        xtst.XTestFakeKeyEvent.argtypes = [
            ctypes.c_void_p,
            ctypes.c_uint,
            ctypes.c_int,
            ctypes.c_ulong,
        ]
        xtst.XTestFakeButtonEvent.argtypes = xtst.XTestFakeKeyEvent.argtypes
        self.x11, self.xtst = x11, xtst
        # A window that is not viewable yet makes XGetImage fail: ignore, do not exit.
        self._handler = ERROR_HANDLER(lambda display, error: 0)
        x11.XSetErrorHandler(self._handler)
        self.dpy = x11.XOpenDisplay(display_name.encode())
        if not self.dpy:
            raise RuntimeError(f"cannot open X display {display_name}")

    def grab(self, window: int) -> bytes | None:
        image = self.x11.XGetImage(self.dpy, window, 0, 0, *SIZE, 0xFFFFFFFF, 2)  # ZPixmap
        if not image:
            return None
        contents = image.contents
        data = ctypes.string_at(contents.data, contents.bytes_per_line * contents.height)
        self.x11.XFree(contents.data)
        self.x11.XFree(image)
        return data

    def key(self, name: str) -> None:
        code = self.x11.XKeysymToKeycode(self.dpy, self.x11.XStringToKeysym(name.encode()))
        self.xtst.XTestFakeKeyEvent(self.dpy, code, 1, 0)
        self.xtst.XTestFakeKeyEvent(self.dpy, code, 0, 0)
        self.x11.XFlush(self.dpy)

    def click(self) -> None:
        self.xtst.XTestFakeButtonEvent(self.dpy, 1, 1, 0)
        self.xtst.XTestFakeButtonEvent(self.dpy, 1, 0, 0)
        self.x11.XFlush(self.dpy)

    def close(self) -> None:
        self.x11.XCloseDisplay(ctypes.c_void_p(self.dpy))


# -- the real app as a subprocess ----------------------------------------------------


class Companion:
    """``hanabi-companion run`` under Xvfb; ``start_ms``: from spawn to READY=1."""

    def __init__(self, env: dict[str, str], data: Path, *, extra_env: dict[str, str]) -> None:
        self.env = env
        self.scratch = Path(tempfile.mkdtemp(prefix="app-speed-run-"))
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(str(self.scratch / "notify"))
        self.notify.settimeout(0.1)
        with (self.scratch / "stderr").open("wb") as stderr:
            spawned = time.perf_counter_ns()
            self.process = subprocess.Popen(
                [*COMMAND, "run", "--data-dir", str(data), "--size", "480x320", "--gpio", "none"],
                env={**env, **extra_env, "NOTIFY_SOCKET": str(self.scratch / "notify")},
                cwd=REPO,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
        deadline = time.monotonic() + 20
        while True:
            try:
                if b"READY=1" in self.notify.recv(4096).split(b"\n"):
                    break
            except TimeoutError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the companion did not start: {self.stderr()}") from None
        self.start_ms = ms(time.perf_counter_ns() - spawned)
        self.window = 0

    def find_window(self) -> int:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for how in (["--pid", str(self.process.pid)], ["--classname", "hanabi-companion"]):
                found = subprocess.run(
                    ["xdotool", "search", "--onlyvisible", *how],
                    env=self.env,
                    capture_output=True,
                    text=True,
                )
                if found.stdout.split():
                    self.window = int(found.stdout.split()[0])
                    return self.window
            time.sleep(0.05)
        raise RuntimeError("the companion's window was not found")

    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, check=True, capture_output=True)

    def cpu_ns(self) -> tuple[int, int]:
        """(utime+stime in ns from /proc/PID/stat, run time in ns summed over threads)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])  # utime, stime
        stat_ns = ticks * 1_000_000_000 // os.sysconf("SC_CLK_TCK")
        sched_ns = 0
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            with contextlib.suppress(OSError):
                sched_ns += int((task / "schedstat").read_text().split()[0])
        return stat_ns, sched_ns

    def memory_kb(self, field_name: str = "VmRSS") -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
        raise LookupError(field_name)

    def stderr(self) -> str:
        return (self.scratch / "stderr").read_text(errors="replace")[-2000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.notify.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


def wait_change(x: X, window: int, before: bytes, timeout_s: float = 2.0) -> tuple[int, bytes]:
    """Poll the window's pixels until they differ from ``before``; (ns when seen, pixels)."""
    deadline = time.perf_counter_ns() + int(timeout_s * 1e9)
    while True:
        now_pixels = x.grab(window)
        now = time.perf_counter_ns()
        if now_pixels is not None and now_pixels != before:
            return now, now_pixels
        if now > deadline:
            raise TimeoutError("the window did not change")


def settle(x: X, window: int, quiet_s: float = 0.3) -> bytes:
    """The window's pixels once they have not changed for ``quiet_s``."""
    pixels = x.grab(window) or b""
    stable_since = time.monotonic()
    while time.monotonic() - stable_since < quiet_s:
        time.sleep(0.02)
        again = x.grab(window) or b""
        if again != pixels:
            pixels, stable_since = again, time.monotonic()
    return pixels


def end_to_end(
    env: dict[str, str], x: X, taps: dict[str, tuple[int, int]], report: Report
) -> tuple[Path, int]:
    """Keys and clicks into the real process, its idle CPU and memory; returns the data dir."""
    data = Path(tempfile.mkdtemp(prefix="app-speed-data-"))
    app = Companion(env, data, extra_env={})
    try:
        window = app.find_window()
        app.xdotool("windowfocus", "--sync", str(window))
        pixels = settle(x, window)
        x.key("Return")  # the set-up screen's focus is on "start": a 3-player game
        _, pixels = wait_change(x, window, pixels)
        pixels = settle(x, window)
        grab_ns = []
        for _ in range(30):
            start = time.perf_counter_ns()
            x.grab(window)
            grab_ns.append(time.perf_counter_ns() - start)

        def one(send: Callable[[], None]) -> float:
            nonlocal pixels
            time.sleep(random.uniform(0.02, 0.04))  # the previous frame is long done
            start = time.perf_counter_ns()
            send()
            seen, pixels = wait_change(x, window, pixels)
            return ms(seen - start)

        key_cycle = ["h", "u", "Return", "p", "r", "1", "Return", "u", "Return"]
        for name in key_cycle:  # warm-up
            one(lambda name=name: x.key(name))
        timed = [
            (name, one(lambda name=name: x.key(name)))
            for _ in range(X_CYCLES)
            for name in key_cycle
        ]
        # A character key is held back while it might start a USB reader's burst
        # (companion.panel.keys.KeyBurst, docs/decisions/0019-key-burst-is-a-scan.md): its goal
        # includes that hold.
        chars = [taken for name, taken in timed if len(name) == 1]
        others = [taken for name, taken in timed if len(name) > 1]
        clicks = []
        for _ in range(X_CYCLES):
            for name in ("hint", "undo", "undo_ok", "page"):
                app.xdotool("mousemove", "--window", str(window), *map(str, taps[name]))
                clicks.append(one(x.click))
        from companion.panel.keys import BURST_MAX_GAP

        hold_ms = BURST_MAX_GAP * 1000
        report.timing("3a. X key, Return (XTEST) -> window pixels changed", others, 40)
        report.timing(
            f"3a'. X character key (XTEST) -> pixels, incl. the {hold_ms:g} ms burst hold",
            chars,
            40 + hold_ms,
        )
        report.timing("3b. X click (XTEST) -> window pixels changed", clicks, 40)
        report.notes.append(
            "3: the real `hanabi-companion run` process; pixels read with XGetImage in a "
            f"tight loop, one read every {percentile([ms(n) for n in grab_ns], 50):.2f} ms "
            "(the resolution of 3a/3b)"
        )

        settle(x, window)
        time.sleep(1.0)
        stat0, sched0 = app.cpu_ns()
        wall0 = time.perf_counter_ns()
        time.sleep(IDLE_SECONDS)
        stat1, sched1 = app.cpu_ns()
        wall = time.perf_counter_ns() - wall0
        stat_pct = 100 * (stat1 - stat0) / wall
        sched_pct = 100 * (sched1 - sched0) / wall
        report.single(
            f"4. idle CPU over {IDLE_SECONDS:g} s, game screen (schedstat)",
            f"{sched_pct:.2f} % of a core",
            "<= 0.3 % of a core",
            sched_pct <= 0.3,
            f"~{min(100.0, sched_pct * PI3_FACTOR):.1f} %",
        )
        report.notes.append(
            f"4: /proc/PID/stat utime+stime says {stat_pct:.2f} % "
            f"(10 ms ticks: +-{100 * 0.01 / (wall / 1e9):.2f} %)"
        )
        rss = app.memory_kb()
    finally:
        app.stop()
    return data, rss


def start_up(
    envs: tuple[dict[str, str], dict[str, str]],
    data: Path,
    x: X,
    rss_used: int | None,
    report: Report,
    runs: int = START_RUNS,
) -> None:
    """Spawn to first frame presented (READY=1), resuming the stored game; and memory."""
    env, as_is_env = envs
    as_is = []
    for _ in range(3):
        app = Companion(as_is_env, data, extra_env={})
        as_is.append(app.start_ms)
        app.stop()
    times = []
    fresh_rss = []
    for _ in range(runs):
        app = Companion(env, data, extra_env={})
        try:
            times.append(app.start_ms)
            window = app.find_window()
            pixels = x.grab(window) or b""
            if len(set(pixels[::4])) < 2:
                report.notes.append("5: a window was blank right after READY=1")
            time.sleep(1.0)
            fresh_rss.append(app.memory_kb())
        finally:
            app.stop()
    median = statistics.median(times)
    report.single(
        f"5. start to first frame (spawn -> READY=1), median of {runs}",
        f"{median / 1000:.3f} s",
        "<= 0.15 s",
        median <= 150,
        f"~{median * PI3_FACTOR / 1000:.1f} s",
    )
    report.notes.append(
        "5: runs " + ", ".join(f"{t / 1000:.3f}" for t in times) + " s: python -m companion "
        "run, resuming a stored game, bytecode cached (as a pip install leaves it; here in a "
        "private PYTHONPYCACHEPREFIX); READY=1 is sent after the first display.present()"
    )
    if as_is_env.get("PYTHONDONTWRITEBYTECODE"):
        report.notes.append(
            "5: this checkout as it is (PYTHONDONTWRITEBYTECODE set, no __pycache__, every "
            "start compiles the project's modules): "
            + ", ".join(f"{t / 1000:.3f}" for t in as_is)
            + " s"
        )
    rss0 = statistics.median(fresh_rss)
    report.single(
        "6a. VmRSS 1 s after start, SDL_FRAMEBUFFER_ACCELERATION=0 (default)",
        f"{rss0 / 1024:.1f} MB",
        "<= 60 MB",
        rss0 / 1024 <= 60,
    )
    app = Companion(env, data, extra_env={"SDL_FRAMEBUFFER_ACCELERATION": "1"})
    try:
        app.find_window()
        time.sleep(1.0)
        rss1 = app.memory_kb()
    finally:
        app.stop()
    if rss_used is not None:
        report.single(
            "6b. VmRSS after the input runs of 3 (~350 frames), =0",
            f"{rss_used / 1024:.1f} MB",
            "<= 60 MB",
            rss_used / 1024 <= 60,
        )
    report.single(
        "6c. VmRSS 1 s after start, SDL_FRAMEBUFFER_ACCELERATION=1",
        f"{rss1 / 1024:.1f} MB",
        "(comparison)",
        None,
    )


def game_to_resume(env: dict[str, str], x: X) -> Path:
    """A data directory holding a 3-player game just started (what a start resumes)."""
    data = Path(tempfile.mkdtemp(prefix="app-speed-data-"))
    app = Companion(env, data, extra_env={})
    try:
        window = app.find_window()
        app.xdotool("windowfocus", "--sync", str(window))
        pixels = settle(x, window)
        x.key("Return")  # the set-up screen's focus is on "start": a 3-player game
        wait_change(x, window, pixels)
        settle(x, window)
    finally:
        app.stop()
    return data


def main() -> None:
    start_only = sys.argv[1:2] == ["--start"]
    start_runs = int(sys.argv[2]) if start_only and len(sys.argv) > 2 else START_RUNS
    random.seed(2026)
    report = Report()
    began = time.monotonic()
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    with xvfb() as display_name:
        env = {**os.environ, "DISPLAY": display_name}
        for name in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY", "SDL_FRAMEBUFFER_ACCELERATION"):
            env.pop(name, None)
        for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
            env.pop(name, None)
            os.environ.pop(name, None)
        os.environ.pop("SDL_FRAMEBUFFER_ACCELERATION", None)
        # The subprocesses run with bytecode, as installed; the cache stays out of the checkout.
        pycache = tempfile.mkdtemp(prefix="app-speed-pycache-")
        cached_env = {**env, "PYTHONPYCACHEPREFIX": pycache}
        cached_env.pop("PYTHONDONTWRITEBYTECODE", None)
        taps = {} if start_only else in_process(display_name, report)
        x = X(display_name)
        try:
            if start_only:
                data, rss_used = game_to_resume(cached_env, x), None
            else:
                data, rss_used = end_to_end(cached_env, x, taps, report)
            start_up((cached_env, env), data, x, rss_used, report, start_runs)
        finally:
            x.close()
            shutil.rmtree(pycache, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)
    print(
        f"hanabi-companion app speed, {SIZE[0]}x{SIZE[1]} under Xvfb, "
        f"{os.cpu_count()} CPUs, python {sys.version.split()[0]}, "
        f"load average at start {load}"
    )
    print()
    report.print()
    print(f"\n(benchmark took {time.monotonic() - began:.0f} s)")


if __name__ == "__main__":
    main()
