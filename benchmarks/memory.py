"""Resident memory of the companion over many games (issue 10, item 7).

The real App, in-process on SDL's dummy driver (480x320), fed the keys a table would
press: each game is played by the simulator (engine/table.py) and typed in key by key
(h; p/d, colour, rank, Return), every frame drawn; every 5th game the history screen is
opened. Prints VmRSS after game 1 and after the last game (goal: within 5 MB), and the
size of the renderer's caches.

    .venv/bin/python benchmarks/memory.py [GAMES]      # default 100
"""

from __future__ import annotations

import gc
import os
import random
import sys
import tempfile
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
    os.environ.pop(name, None)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.core.controller import Screen, SetupDraft  # noqa: E402
from companion.panel.display import open_display  # noqa: E402
from companion.shell.app import App, resume  # noqa: E402
from companion.storage import Storage  # noqa: E402
from engine import Discard, Hint, Play  # noqa: E402
from engine.table import SimulatedTable  # noqa: E402
from hardware.events import ChooseColor, ChooseNumber, ChooseRank, Key, Press  # noqa: E402


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def press(app: App, event: object, counter: list[int]) -> None:
    app.dispatch(event)  # type: ignore[arg-type]
    app.step()
    counter[0] += 1


def play_one_game(app: App, rng: random.Random, counter: list[int]) -> None:
    players = rng.randint(2, 5)
    press(app, ChooseNumber(players), counter)
    press(app, Press(Key.OK), counter)  # start (a second OK if a game was unfinished)
    if app.controller.screen is Screen.SETUP:
        press(app, Press(Key.OK), counter)
    game = app.controller.game
    assert game is not None and app.controller.screen is Screen.GAME
    table = SimulatedTable(game.setup, random.Random(rng.random()), skill=0.9)
    while not table.game.is_over:
        action = table.step()
        if isinstance(action, Hint):
            press(app, Press(Key.HINT), counter)
        else:
            kind = Key.PLAY if isinstance(action, Play) else Key.DISCARD
            assert isinstance(action, Play | Discard)
            press(app, Press(kind), counter)
            press(app, ChooseColor(action.card.color), counter)
            press(app, ChooseRank(action.card.rank), counter)
            press(app, Press(Key.OK), counter)
    assert app.controller.screen is Screen.END, app.controller.screen
    press(app, Press(Key.OK), counter)  # back to the set-up


def open_history(app: App, counter: list[int]) -> None:
    press(app, Press(Key.MENU), counter)
    for effect in app.controller.choose_menu("history"):
        app.carry_out(effect)
    app.step()
    for _ in range(3):
        press(app, Press(Key.NEXT), counter)
    press(app, Press(Key.BACK), counter)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    rng = random.Random(10)
    counter = [0]
    with tempfile.TemporaryDirectory() as tmp:
        storage = Storage.open(Path(tmp))
        controller, game_id = resume(storage, SetupDraft(players=3, hint_content=False))
        display = open_display("dummy", (480, 320))
        app = App(storage, display, controller, game_id)
        figures = {}
        for number in range(1, games + 1):
            play_one_game(app, rng, counter)
            if number % 5 == 0:
                open_history(app, counter)
            if number in (1, 10, 25, 50, games):
                gc.collect()
                figures[number] = rss_mb()
                print(
                    f"after {number:>3} games ({counter[0]:>6} events): VmRSS"
                    f" {figures[number]:.1f} MB, rendered-text cache"
                    f" {len(app.renderer.kit._rendered)} entries,"
                    f" fonts {len(app.renderer.kit._fonts)}",
                    flush=True,
                )
        display.close()
        storage.close()
    growth = figures[games] - figures[1]
    verdict = "ok" if growth <= 5 else "OVER"
    print(f"growth from game 1 to game {games}: {growth:+.1f} MB (goal: within 5 MB) {verdict}")


if __name__ == "__main__":
    main()
