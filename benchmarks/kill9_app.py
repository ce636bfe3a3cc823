"""Many kill -9 of the real companion, typed into in a real X window (issue 10).

Round after round on one data directory: `hanabi-companion run` starts under Xvfb (so
it must get the data directory's lock back from the killed one), xdotool types legal
actions key by key (h; p/d, colour, rank, Return), and SIGKILL lands at a random moment,
mid-entry or mid-write. Each round checks, before typing: nothing was set aside (no
damaged file or journal renamed or copied), the stored game replays, and it still holds
every action seen stored before the kill (committed actions are never lost). Needs Xvfb
and xdotool.

    .venv/bin/python benchmarks/kill9_app.py [KILLS]      # default 100, ~6 min
"""

from __future__ import annotations

import random
import signal
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.xwindow import (  # noqa: E402
    keys,
    start_app,
    x_server,
)

from engine import Discard, Game, Play  # noqa: E402
from engine.cards import Card  # noqa: E402
from engine.errors import IllegalAction  # noqa: E402
from engine.log import parse_log  # noqa: E402


def stored_lines(data: Path) -> list[str]:
    """The latest game's stored lines (header first), read-only, whatever the app does."""
    path = data / "games.db"
    if not path.exists():
        return []
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5)
    try:
        row = db.execute("SELECT id, header FROM games ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return []
        lines = [
            line
            for (line,) in db.execute(
                "SELECT line FROM actions WHERE game_id = ? ORDER BY seq", (row[0],)
            )
        ]
        return [row[1], *lines]
    finally:
        db.close()


def legal_keys(game: Game, rng: random.Random) -> list[str]:
    """The keys of one legal action at this point of the game."""
    player = game.current_player
    if game.position.hints and rng.random() < 0.5:
        return ["h"]
    cards = [Card(color, rank) for color in game.setup.colors for rank in range(1, 6)]
    rng.shuffle(cards)
    for card in cards:
        for action, key in ((Play(card, player=player), "p"), (Discard(card, player=player), "d")):
            try:
                game.preview(action)
            except IllegalAction:
                continue
            return [key, card.color.letter.lower(), str(card.rank), "Return"]
    return ["h"]


def main() -> None:
    kills = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    rng = random.Random(9)
    survived = typed = 0
    failures: list[str] = []
    start = time.monotonic()
    with x_server() as env, tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        seen: list[str] = []
        for round_number in range(kills):
            app, window = start_app(env, data)
            problems = []
            now = stored_lines(data)
            if now[: len(seen)] != seen and seen:
                problems.append(f"lost: {len(seen)} lines seen, {len(now)} stored")
            aside = sorted(p.name for p in data.glob("games.db.*"))
            if aside:
                problems.append(f"files set aside: {aside}")
            game = None
            if now:
                try:
                    log = parse_log("\n".join(now))
                    game = Game.replay(log.setup, log.actions)
                except (ValueError, IllegalAction) as error:
                    problems.append(f"does not replay: {error}")
            if game is None or game.is_over:
                if game is not None:
                    keys(env, window, "Return")  # the end screen: to the set-up
                keys(env, window, str(rng.randint(2, 5)), "Return")
                time.sleep(0.3)
            for _ in range(rng.randint(1, 8)):
                now = stored_lines(data)
                if not now:
                    break
                log = parse_log("\n".join(now))
                game = Game.replay(log.setup, log.actions)
                if game.is_over:
                    break
                keys(env, window, *legal_keys(game, rng))
                typed += 1
            seen = stored_lines(data)
            time.sleep(rng.uniform(0, 0.15))
            app.send_signal(signal.SIGKILL)
            app.wait(timeout=10)
            if problems:
                failures.append(f"kill {round_number}: {'; '.join(problems)}")
            else:
                survived += 1
        app, _ = start_app(env, data)  # the last kill, checked by one more start
        now = stored_lines(data)
        app.terminate()
        app.wait(timeout=10)
        last_ok = now[: len(seen)] == seen
    print(f"kill -9 of the real companion survived / tried: {survived} / {kills}")
    print(f"last kill checked by a restart: {'ok' if last_ok else 'LOST ACTIONS'}")
    print(f"actions typed: {typed}; elapsed: {time.monotonic() - start:.0f} s")
    for failure in failures[:20]:
        print("  ", failure)


if __name__ == "__main__":
    main()
