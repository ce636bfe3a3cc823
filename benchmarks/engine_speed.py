"""How fast the engine referees: actions per second, parsing included, hand memory off and on.

    .venv/bin/python benchmarks/engine_speed.py [GAMES] [ROUNDS]        # our engine alone
    PYTHONPATH=. /opt/hle/venv/bin/python benchmarks/engine_speed.py [GAMES] [ROUNDS]  # with HLE

With DeepMind's ``hanabi-learning-environment`` importable, HLE plays the
games (default 200 base games, 2 to 5 players) and both referees apply the
very same moves: HLE applies its moves (C++ behind cffi), we parse the log
text and apply it, as ``hanabi-companion replay`` does. Each game is
recorded twice, once as a base log and once with hand memory (the slots of
every hint, play and discard; GAME-LOG.md, "Hand memory"): HLE tracks card
knowledge on every move whatever we ask, so the hand-memory ratio is the
fair one. Without HLE, the games come from our simulated table. HLE's
Python imports our engine too, so its venv needs the engine's dependencies
(``orjson``, ``msgspec``: ``/opt/hle/venv/bin/pip install msgspec``).

The rounds (default 10) interleave the four measurements so that a busy
machine slows them alike; each figure is the median of its rounds.

Then Hanab Live's variants (issue 35): for each family of the table
(``engine.variants.family_of``: Rainbow, Pink-Ones, Clue Starved…), games of
its variants played on our simulated table (2 to 5 players, hand memory on),
parsed and refereed as ``replay`` does; it prints the slowest family's rate
and its ratio to HLE's base games (to our base games without HLE). Ends with
the median start-up time of ``hanabi-companion replay``.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from engine.game import Game
from engine.log import format_log, parse_log, replay_log
from engine.options import GameOptions
from engine.setup import GameSetup
from engine.table import SimulatedTable
from engine.variants import family_of, variant_names

GAMES = 200
ROUNDS = 10
#: Games per family of Hanab Live's variants (each a variant of the family in turn).
FAMILY_GAMES = 12


def hle_logs(hle_games: object, games: int) -> tuple[list[object], list[str], list[str]]:
    """HLE's games, and each as a base log and as a hand-memory log (the same moves)."""
    play = hle_games.play_hle_game  # type: ignore[attr-defined]
    base = [play(2 + i % 4, i, 0.5 + (i % 6) / 10) for i in range(games)]
    memory = [play(2 + i % 4, i, 0.5 + (i % 6) / 10, hand_memory=True) for i in range(games)]
    assert [g.recorded for g in base] == [g.recorded for g in memory]
    return base, [g.log_text for g in base], [g.log_text for g in memory]


def simulated_logs(games: int, hand_memory: bool) -> list[str]:
    rng = random.Random(2026)
    texts = []
    for i in range(games):
        setup = GameSetup(players=2 + i % 4, options=GameOptions(hand_memory=hand_memory))
        game = SimulatedTable(setup, rng, skill=rng.uniform(0.6, 1)).play_out()
        texts.append(format_log(game.setup, game.actions))
    return texts


def family_logs(games: int) -> dict[str, list[str]]:
    """Per family of Hanab Live's variants, ``games`` simulated games with hand memory."""
    rng = random.Random(35)
    families: dict[str, list[str]] = {}
    for name in variant_names():
        families.setdefault(family_of(name), []).append(name)
    logs: dict[str, list[str]] = {}
    for family, names in families.items():
        texts = []
        for i in range(games):
            options = GameOptions(variant=names[i % len(names)], hand_memory=True)
            setup = GameSetup(players=2 + i % 4, options=options)
            game = SimulatedTable(setup, rng, skill=rng.uniform(0.6, 1)).play_out()
            texts.append(format_log(game.setup, game.actions))
        logs[family] = texts
    return logs


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else ROUNDS
    try:
        import hle_games
    except ImportError:
        hle_games = None
    if hle_games is not None:
        played, base_texts, memory_texts = hle_logs(hle_games, games)
        source = "HLE's"
    else:
        base_texts, memory_texts = simulated_logs(games, False), simulated_logs(games, True)
        source = "simulated"
    actions = sum(len(parse_log(text).actions) for text in base_texts)
    memory_actions = sum(len(parse_log(text).actions) for text in memory_texts)
    print(f"{games} {source} base games, {actions} actions, median of {rounds} rounds")
    if memory_actions != actions:
        print(f"(hand-memory games: {memory_actions} actions)")

    base_parsed = [parse_log(text) for text in base_texts]
    memory_parsed = [parse_log(text) for text in memory_texts]

    def replay_all(texts: list[str]) -> Callable[[], None]:
        def run() -> None:
            for text in texts:
                replay_log(text)

        return run

    def referee_all(parsed: list[object]) -> Callable[[], None]:
        def run() -> None:
            for log in parsed:
                Game.replay(log.setup, log.actions)  # type: ignore[attr-defined]

        return run

    # name: (what to time, actions it applies)
    measures: dict[str, tuple[Callable[[], None], int]] = {
        "ours, hand memory off": (replay_all(base_texts), actions),
        "ours, hand memory on": (replay_all(memory_texts), memory_actions),
        "ours referee only, off": (referee_all(base_parsed), actions),
        "ours referee only, on": (referee_all(memory_parsed), memory_actions),
    }
    times: dict[str, list[float]] = {name: [] for name in measures}
    hle_times: dict[str, list[float]] = {"built": [], "prebuilt": []}
    for _ in range(rounds):
        for name, (run, _) in measures.items():
            times[name].append(timed(run))
        if hle_games is not None:
            # HLE deals from its game's generator: fresh games (same seeds) before each run.
            for key, replay in (
                ("built", hle_games.replay_in_hle_building_moves),
                ("prebuilt", hle_games.replay_in_hle),
            ):
                fresh = [hle_games.new_hle_game(g.players, g.seed) for g in played]
                pairs = list(zip(played, fresh, strict=True))
                hle_times[key].append(timed(lambda: [replay(g, h) for g, h in pairs]))  # noqa: B023

    def rate(name: str) -> float:
        return measures[name][1] / statistics.median(times[name])

    print(f"our engine, parse + referee, hand memory off: {rate('ours, hand memory off'):,.0f} /s")
    print(f"our engine, parse + referee, hand memory on:  {rate('ours, hand memory on'):,.0f} /s")
    print(f"our engine, referee only, hand memory off:    {rate('ours referee only, off'):,.0f} /s")
    print(f"our engine, referee only, hand memory on:     {rate('ours referee only, on'):,.0f} /s")
    if hle_games is not None:
        built = actions / statistics.median(hle_times["built"])
        prebuilt = actions / statistics.median(hle_times["prebuilt"])
        print(f"DeepMind HLE, build + apply each move: {built:,.0f} actions/s")
        print(f"DeepMind HLE, apply pre-built moves:   {prebuilt:,.0f} actions/s")
        print("ratio ours (parse + referee) / HLE (build + apply), the `replay` comparison:")
        print(f"  hand memory off: {rate('ours, hand memory off') / built:.2f}")
        print(f"  hand memory on:  {rate('ours, hand memory on') / built:.2f}  (the fair one)")
        print("ratio ours (referee only) / HLE (pre-built moves):")
        print(f"  hand memory off: {rate('ours referee only, off') / prebuilt:.2f}")
        print(f"  hand memory on:  {rate('ours referee only, on') / prebuilt:.2f}")

    # Hanab Live's variants, family by family: parse + referee, hand memory on.
    families = family_logs(FAMILY_GAMES)
    family_actions = {
        family: sum(len(parse_log(text).actions) for text in texts)
        for family, texts in families.items()
    }
    family_times: dict[str, list[float]] = {family: [] for family in families}
    for _ in range(rounds):
        for family, texts in families.items():
            family_times[family].append(timed(replay_all(texts)))
    family_rates = {
        family: family_actions[family] / statistics.median(times_)
        for family, times_ in family_times.items()
    }
    slowest = min(family_rates, key=family_rates.__getitem__)
    fastest = max(family_rates, key=family_rates.__getitem__)
    total = sum(family_actions.values())
    print(
        f"Hanab Live's variants: {len(families)} families, {FAMILY_GAMES} games each "
        f"({total} actions), parse + referee, hand memory on:"
    )
    print(f"  slowest family, {slowest}: {family_rates[slowest]:,.0f} /s")
    print(f"  fastest family, {fastest}: {family_rates[fastest]:,.0f} /s")
    slowest_rate = family_rates[slowest]
    if hle_games is not None:
        built = actions / statistics.median(hle_times["built"])
        print(
            f"  ratio slowest family / HLE base games (build + apply): {slowest_rate / built:.2f}"
        )
    else:
        base = rate("ours, hand memory on")
        print(f"  ratio slowest family / our base games, hand memory on: {slowest_rate / base:.2f}")

    command = Path(sys.executable).with_name("hanabi-companion")
    if command.exists():
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as log_file:
            log_file.write(base_texts[0])
        starts = []
        for _ in range(15):
            start = time.perf_counter()
            subprocess.run([command, "replay", log_file.name], check=True, capture_output=True)
            starts.append(time.perf_counter() - start)
        median_ms = statistics.median(starts) * 1000
        print(f"'hanabi-companion replay' start to exit: median {median_ms:.0f} ms")
        Path(log_file.name).unlink()


if __name__ == "__main__":
    main()
