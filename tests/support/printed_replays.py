"""Record simulated games of every printed option set, as the engine of the day referees them.

    PYTHONPATH=<a checkout> .venv/bin/python tests/support/printed_replays.py | gzip -9n \
        > tests/data/printed_replays.jsonl.gz

One JSON object a line per allowed option set (``GameOptions.every()``, 2 to 5 players
in turn): the game's log, ``replay``'s summary of it, and probes: actions tried along
the way (random hints, plays and discards, slots with hand memory), each with the
number of actions played before it and the refusal's code and sentence (null when the
engine took it). The file in ``tests/data`` was recorded with the engine of main before
issue 35 (commit c93f2e2); ``tests/engine/test_variants_printed.py`` replays it with
today's engine, which must say the same, word for word.
"""

from __future__ import annotations

import json
import random
import sys

from engine.actions import Action, Discard, Hint, Play
from engine.cards import ALL_CARDS, Color
from engine.errors import IllegalAction
from engine.game import Game
from engine.log import action_to_dict, format_log, summary
from engine.options import GameOptions
from engine.setup import GameSetup, SetupError
from engine.table import SimulatedTable


def probe(rng: random.Random, game: Game, hand_memory: bool) -> Action:
    """A random action, legal or not."""
    kind = rng.choice(["hint", "play", "discard"])
    if kind == "hint":
        clue: dict[str, object] = (
            {"color": rng.choice(list(Color))}
            if rng.random() < 0.5
            else {"rank": rng.randint(1, 5)}
        )
        slots = tuple(sorted(rng.sample(range(1, 6), rng.randint(0, 3)))) if hand_memory else None
        return Hint(to=rng.randrange(game.setup.players), slots=slots, **clue)  # type: ignore[arg-type]
    slot = rng.randint(1, 5) if hand_memory else None
    return (Play if kind == "play" else Discard)(rng.choice(ALL_CARDS), slot=slot)


def record(seed: int = 35) -> list[dict[str, object]]:
    rng = random.Random(seed)
    games = []
    for options in GameOptions.every():
        try:
            options.check()
        except SetupError:
            continue
        setup = GameSetup(players=2 + len(games) % 4, options=options)
        table = SimulatedTable(setup, rng, skill=rng.uniform(0.5, 1))
        probes: list[list[object]] = []
        while not table.game.is_over:
            if rng.random() < 0.35:
                action = probe(rng, table.game, options.hand_memory)
                try:
                    table.game.check(action)
                    answer: list[object] = [None, None]
                except IllegalAction as error:
                    answer = [error.code, str(error)]
                probes.append([len(table.game.actions), action_to_dict(action), *answer])
            table.step()
        game = table.game
        games.append(
            {
                "log": format_log(game.setup, game.actions),
                "summary": summary(game),
                "probes": probes,
            }
        )
    return games


if __name__ == "__main__":
    sys.stdout.write("".join(json.dumps(game, ensure_ascii=False) + "\n" for game in record()))
