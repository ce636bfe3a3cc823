"""The games the export to Hanab Live is checked on: simulated, every hand shown at the end.

    PYTHONPATH=<a checkout> .venv/bin/python tests/support/hanab_live_export.py OUT.jsonl

writes each game as Hanab Live's JSON and its replay link, one JSON line each, for
``benchmarks/hanab_live_crosscheck/export_check.mjs`` (its README): Hanab Live's own code
decodes the links and replays the games, and writes ``tests/data/hanab_live/exports.jsonl.gz``,
which ``tests/engine/test_hanab_live_export.py`` checks our exports against.

The games: one per every third variant of the table (players 2 to 5 and the first player
in turn), 20 of each of the printed books' option sets, and 40 with empty clues; the
simulated table (:class:`engine.table.SimulatedTable`) plays them with hand memory, and
each seat shows its hand at the end as the table dealt it.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from engine.game import Game
from engine.hanab_live import NotExportable, hanab_live_game, replay_url
from engine.options import GameOptions, Multicolor
from engine.reveal import Reveal, Reveals
from engine.setup import GameSetup
from engine.table import SimulatedTable
from engine.variants import variant_names

PRINTED = [("none", False), ("full", False), ("short", False), ("full", True), ("short", True)]


def plans() -> list[dict[str, Any]]:
    """What each game is: variant or printed options, players, first player, seed."""
    out: list[dict[str, Any]] = []
    for number, name in enumerate(variant_names()[::3]):
        out.append({"variant": name, "players": 2 + number % 4, "first": number % 2})
    for size, wild in PRINTED:
        for k in range(20):
            out.append(
                {
                    "multicolor": size,
                    "wild": wild,
                    "players": 2 + k % 4,
                    "first": k % 3 % (2 + k % 4),
                }
            )
    for k in range(40):
        out.append({"variant": "No Variant", "empty_clues": True, "players": 2 + k % 4, "first": 0})
    for seed, plan in enumerate(out, start=1):
        plan["seed"] = seed
    return out


def play(plan: dict[str, Any]) -> tuple[Game, list[Reveal]]:
    """The game a plan names, played out, and each seat's hand shown (slot 1 first)."""
    if "variant" in plan:
        options = GameOptions(
            variant=plan["variant"], hand_memory=True, empty_clues=plan.get("empty_clues", False)
        )
    else:
        options = GameOptions(
            multicolor=Multicolor(plan["multicolor"]),
            wild_multicolor=plan["wild"],
            hand_memory=True,
        )
    setup = GameSetup(players=plan["players"], options=options, first_player=plan["first"])
    table = SimulatedTable(setup, random.Random(plan["seed"]), skill=0.8)
    game = table.play_out()
    reveals = Reveals(game)
    for seat, hand in enumerate(table.hands):
        reveals.add(Reveal(seat, tuple(reversed(hand))))
    return game, reveals.shown


def exported(plan: dict[str, Any]) -> dict[str, Any]:
    """A plan's game as the export gives it: the JSON and the link (None: none)."""
    game, reveals = play(plan)
    url: str | None
    try:
        url = replay_url(game, reveals)
    except NotExportable:
        url = None
    return {"plan": plan, "json": hanab_live_game(game, reveals), "url": url}


def main(argv: list[str]) -> int:
    """Write every game's export to ``argv[0]``."""
    with open(argv[0], "w", encoding="utf-8") as out:
        for plan in plans():
            out.write(json.dumps(exported(plan)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
