"""How fast the engine referees: actions per second, parsing included.

    .venv/bin/python benchmarks/engine_speed.py            # our engine alone
    PYTHONPATH=. /opt/hle/venv/bin/python benchmarks/engine_speed.py   # side by side with HLE

With DeepMind's ``hanabi-learning-environment`` importable, HLE plays the
games and both referees apply the very same moves in one run: HLE applies
pre-built move objects (C++ behind cffi), we parse the log text and apply it.
Without it, the games come from our simulated table. Prints the median of
several rounds, and the median start-up time of ``hanabi-companion replay``.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.log import format_log, parse_log, replay_log
from engine.setup import GameSetup
from engine.table import SimulatedTable

ROUNDS = 7
GAMES = 400


def median_rate(run: object, count: int) -> float:
    rates = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    try:
        import hle_games
    except ImportError:
        hle_games = None
    if hle_games is not None:
        games = [hle_games.play_hle_game(2 + i % 4, i, 0.5 + (i % 6) / 10) for i in range(GAMES)]
        texts = [game.log_text for game in games]
    else:
        rng = random.Random(2026)
        texts = []
        for i in range(GAMES):
            table = SimulatedTable(GameSetup(players=2 + i % 4), rng, skill=rng.uniform(0.6, 1))
            game = table.play_out()
            texts.append(format_log(game.setup, game.actions))
    actions = sum(len(parse_log(text).actions) for text in texts)
    print(f"{len(texts)} base games, {actions} actions, median of {ROUNDS} rounds")

    def ours() -> None:
        for text in texts:
            replay_log(text)

    ours_rate = median_rate(ours, actions)
    print(f"our engine, parse + referee: {ours_rate:,.0f} actions/s")

    parsed = [parse_log(text) for text in texts]

    def ours_apply_only() -> None:
        from engine.game import Game

        for log in parsed:
            Game.replay(log.setup, log.actions)

    referee_rate = median_rate(ours_apply_only, actions)
    print(f"our engine, referee only:    {referee_rate:,.0f} actions/s")

    if hle_games is not None:
        # HLE deals from its game's generator: fresh games (same seeds) before each round.
        def hle_rate(replay: object) -> float:
            rates = []
            for _ in range(ROUNDS):
                fresh = [hle_games.new_hle_game(g.players, g.seed) for g in games]
                start = time.perf_counter()
                for game, hle_game in zip(games, fresh, strict=True):
                    replay(game, hle_game)  # type: ignore[operator]
                rates.append(actions / (time.perf_counter() - start))
            return statistics.median(rates)

        built = hle_rate(hle_games.replay_in_hle_building_moves)
        prebuilt = hle_rate(hle_games.replay_in_hle)
        print(f"DeepMind HLE, build + apply each move: {built:,.0f} actions/s")
        print(f"DeepMind HLE, apply pre-built moves:   {prebuilt:,.0f} actions/s")
        print(f"ratio ours (parse + referee) / HLE (build + apply): {ours_rate / built:.2f}")
        print(f"ratio ours (referee only) / HLE (pre-built moves):   {referee_rate / prebuilt:.2f}")

    command = Path(sys.executable).with_name("hanabi-companion")
    if command.exists():
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as log_file:
            log_file.write(texts[0])
        times = []
        for _ in range(15):
            start = time.perf_counter()
            subprocess.run([command, "replay", log_file.name], check=True, capture_output=True)
            times.append(time.perf_counter() - start)
        median_ms = statistics.median(times) * 1000
        print(f"'hanabi-companion replay' start to exit: median {median_ms:.0f} ms")
        Path(log_file.name).unlink()


if __name__ == "__main__":
    main()
