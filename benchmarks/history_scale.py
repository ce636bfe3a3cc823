"""The history at 0, 100, 1,000 and 10,000 stored games (issue 23).

    .venv/bin/python benchmarks/history_scale.py [COUNTS…]     # default: 0 100 1000 10000

For each count, a data directory is filled with that many distinct games (simulated
games, 1 in 10 left unfinished, each with its own start time), written straight into a
database made by ``Storage.open`` (one transaction: storing 10,000 games through the
app's calls would fsync 600,000 times). Then it measures:

1. ``hanabi-companion history`` wall time, a new process each time (median of 5), and
   its peak resident memory (``ru_maxrss`` of the child);
2. inside that: ``Storage.open`` (no whole-file check there since issue 36), the first
   page and the statistics, in-process (median of 5);
3. the panel: the real ``App`` on SDL's dummy driver (480x320) in a process of its own,
   the menu's History chosen with OK: the time the loop is busy from that key to the
   frame that shows the first page (median of 15 openings), the longest single step while
   NEXT walks down 60 games (each new page read on the way), and VmRSS after.

Timings are printed, never asserted. The aim: 10,000 games no slower than 2x an empty
history, and the loop never busy more than 50 ms at a time.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

COUNTS = (0, 100, 1000, 10000)
RUNS = 5
OPENINGS = 15
TEMPLATES = 60
WALK = 60
START = datetime(2020, 1, 1, 20, 0, tzinfo=UTC)


def fill(data_dir: Path, count: int) -> None:
    """``count`` distinct games in ``data_dir``: 9 in 10 finished, the others abandoned."""
    from companion.storage import Storage
    from companion.storage.chain import _append_lines, _start_chain
    from engine.log import action_to_dict, dump_line, setup_to_dict
    from engine.setup import GameSetup
    from engine.table import SimulatedTable

    rng = random.Random(23)
    plays = []
    for number in range(TEMPLATES):
        setup = GameSetup(players=2 + number % 4)
        game = SimulatedTable(setup, rng, skill=rng.uniform(0.6, 1.0)).play_out()
        lines = [dump_line(action_to_dict(action)) for action in game.actions]
        plays.append((setup, game, lines))
    Storage.open(data_dir).close()
    db = sqlite3.connect(data_dir / "games.db", isolation_level=None)
    db.execute("BEGIN")
    for number in range(count):
        setup, game, lines = plays[number % TEMPLATES]
        # a game every 97 minutes from 2020 on: 10,000 games run into 2021
        started = (START + timedelta(minutes=97 * number)).strftime("%Y-%m-%dT%H:%M:%SZ")
        header = dump_line(setup_to_dict(setup) | {"started_at": started})
        unfinished = number % 10 == 9
        cursor = db.execute(
            "INSERT INTO games (header, started_at, finished_at, players, variant, score,"
            " max_score, rating, outcome, end_reason, status)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                header,
                started,
                started,
                setup.players,
                setup.options.code(),
                None if unfinished else game.score,
                setup.max_score,
                None if unfinished or game.rating is None else game.rating.value,
                None if unfinished or game.outcome is None else game.outcome.value,
                None if unfinished or game.end_reason is None else game.end_reason.value,
                "abandoned" if unfinished else "over",
            ),
        )
        kept = lines[: len(lines) // 2] if unfinished else lines
        assert cursor.lastrowid is not None
        # the rows with their links, as the companion writes them (issue 24)
        _start_chain(db, cursor.lastrowid, header)
        _append_lines(db, cursor.lastrowid, kept)
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def cli_history(data_dir: Path) -> tuple[float, float, float]:
    """Median wall and CPU time (s) of `hanabi-companion history`, and its peak RSS (MB)."""
    times, cpu, peaks = [], [], []
    command = [sys.executable, "-m", "companion", "history", "--data-dir", str(data_dir)]
    for _ in range(RUNS + 1):
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        times.append(time.perf_counter() - start)
        cpu.append(usage.ru_utime + usage.ru_stime)
        peaks.append(usage.ru_maxrss / 1024)
        assert os.waitstatus_to_exitcode(status) == 0
    # the first run warms the disk cache
    return statistics.median(times[1:]), statistics.median(cpu[1:]), max(peaks)


def in_process(data_dir: Path) -> dict[str, float]:
    """Median ms of Storage.open, the first page and the statistics."""
    from companion.storage import Storage

    figures: dict[str, list[float]] = {"open": [], "page": [], "stats": []}
    for _ in range(RUNS):
        start = time.perf_counter()
        storage = Storage.open(data_dir)
        opened = time.perf_counter()
        storage.history_page()
        paged = time.perf_counter()
        storage.stats()
        done = time.perf_counter()
        storage.close()
        figures["open"].append(opened - start)
        figures["page"].append(paged - opened)
        figures["stats"].append(done - paged)
    return {name: statistics.median(values) * 1000 for name, values in figures.items()}


def panel(data_dir: Path) -> dict[str, float]:
    """In this process: the App's loop busy opening the History and walking down it."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        os.environ.pop(name, None)
    from companion.core.controller import MENU_ROWS, Screen, SetupDraft
    from companion.panel.display import open_display
    from companion.shell.app import App, resume
    from companion.storage import Storage
    from hardware.events import Key, Press

    storage = Storage.open(data_dir)
    controller, game_id = resume(storage, SetupDraft(players=3))
    app = App(storage, open_display("dummy", (480, 320)), controller, game_id)
    app.step()

    def busy(event: Press) -> tuple[float, float]:
        """Wall and CPU seconds of the loop's turn on ``event`` (input to frame drawn)."""
        start, start_cpu = time.perf_counter(), time.thread_time()
        app.dispatch(event)
        app.step()
        return time.perf_counter() - start, time.thread_time() - start_cpu

    openings, walk = [], []
    for _ in range(OPENINGS):
        app.dispatch(Press(Key.MENU))
        app.step()
        controller.menu_focus = controller.menu_rows().index("history")
        assert "history" in MENU_ROWS
        openings.append(busy(Press(Key.OK)))
        assert controller.screen is Screen.HISTORY
        app.dispatch(Press(Key.BACK))
        app.step()
    app.dispatch(Press(Key.MENU))
    controller.menu_focus = controller.menu_rows().index("history")
    app.dispatch(Press(Key.OK))
    app.step()
    for _ in range(WALK):
        walk.append(busy(Press(Key.NEXT)))
    rss = next(
        int(line.split()[1]) / 1024
        for line in Path("/proc/self/status").read_text().splitlines()
        if line.startswith("VmRSS:")
    )
    rows = len(controller.history[0]) if controller.history else 0
    storage.close()
    return {
        "first_page_ms": statistics.median(wall for wall, _ in openings) * 1000,
        "first_page_cpu_ms": statistics.median(cpu for _, cpu in openings) * 1000,
        "walk_max_ms": max(wall for wall, _ in walk) * 1000,
        "walk_max_cpu_ms": max(cpu for _, cpu in walk) * 1000,
        "rss_mb": rss,
        "rows_read": rows,
    }


def panel_in_child(data_dir: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--panel", str(data_dir)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    if sys.argv[1:2] == ["--panel"]:
        print(json.dumps(panel(Path(sys.argv[2]))))
        return
    counts = [int(arg) for arg in sys.argv[1:]] or list(COUNTS)
    print(
        "history: `hanabi-companion history`, wall (CPU) median of 5, peak RSS; open, page,"
        " stats: in-process ms;\npanel: ms the loop is busy from OK on History to the first"
        " page drawn, wall (CPU), median of 15; walk: the longest turn of NEXT over 60 games\n"
    )
    print(
        f"{'games':>6} {'db MB':>6} | {'history s':>13} {'RSS MB':>6} | {'open':>5}"
        f" {'page':>5} {'stats':>5} | {'panel 1st page':>14} {'walk max':>13}"
        f" {'RSS MB':>6}",
        flush=True,
    )
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for count in counts:
            data_dir = Path(tmp) / f"games-{count}"
            fill(data_dir, count)
            size = (data_dir / "games.db").stat().st_size / 1e6
            wall, cpu, peak = cli_history(data_dir)
            parts = in_process(data_dir)
            shown = panel_in_child(data_dir)
            results[count] = (wall, cpu, shown["first_page_ms"], shown["first_page_cpu_ms"])
            print(
                f"{count:>6} {size:>6.1f} | {wall:>6.3f} ({cpu:.3f}) {peak:>6.1f} |"
                f" {parts['open']:>5.1f} {parts['page']:>5.1f} {parts['stats']:>5.1f} |"
                f" {shown['first_page_ms']:>5.1f} ({shown['first_page_cpu_ms']:>5.1f})"
                f" {shown['walk_max_ms']:>5.1f} ({shown['walk_max_cpu_ms']:>5.1f})"
                f" {shown['rss_mb']:>6.1f}",
                flush=True,
            )
    largest = max(results)
    for base in (0, 100):
        if base in results and largest > base:
            wall, cpu, first, first_cpu = results[largest]
            base_wall, base_cpu, base_first, base_first_cpu = results[base]
            print(
                f"{largest} games against {base or 'an empty history'}{' games' if base else ''}:"
                f" `history` x{wall / base_wall:.2f} (CPU x{cpu / base_cpu:.2f}), the panel's"
                f" first page x{first / base_first:.2f} (CPU x{first_cpu / base_first_cpu:.2f})"
                " (aim: at most x2)"
            )


if __name__ == "__main__":
    main()
