"""Cross-check our engine against DeepMind's HLE, move by move, hand memory included.

    PYTHONPATH=. /opt/hle/venv/bin/python benchmarks/crosscheck_hle.py [GAMES]

HLE plays each game (base rules, 2 to 5 players); our engine replays the
recorded log, which has hand memory on (the slots each hint touched, the slot
of each played or discarded card; GAME-LOG.md, "Hand memory"). After every
move both must agree on hint tokens, fuses, draw pile, fireworks, discard
pile, whose turn it is, whether the game is over, and the score; and, for
every seat and slot, HLE's card knowledge (``color_plausible`` and
``rank_plausible`` of each card, slot = hand size − index) must equal
``Game.hand_memory(seat)``. Exits 1 on the first disagreement. Not part of CI
(HLE is built from source with cmake). HLE's venv needs the engine's
dependencies too (``orjson``, ``msgspec``: ``/opt/hle/venv/bin/pip install msgspec``).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from hle_games import Knowledge, play_hle_game

from engine.game import Game
from engine.log import parse_log


def ours(game: Game) -> dict[str, Any]:
    position = game.position
    return {
        "hints": position.hints,
        "fuses": position.fuses,
        "deck": position.deck,
        "fireworks": {c.label: position.fireworks[c] for c in game.setup.colors},
        "discards": sorted(card.code() for card in position.discards),
        "over": game.is_over,
        "score": game.score,
        "current_player": game.current_player,
    }


def our_knowledge(game: Game) -> Knowledge:
    """``Game.hand_memory`` of every seat, in the shape ``hle_games.card_knowledge`` gives."""
    return [
        [
            (tuple(color.label for color in sorted(slot.colors)), tuple(sorted(slot.ranks)))
            for slot in game.hand_memory(seat)
        ]
        for seat in range(game.setup.players)
    ]


def knowledge_diff(expected: Knowledge, got: Knowledge) -> list[str]:
    """One line per seat whose hand size differs, or per slot where the two disagree."""
    lines = []
    for seat, (theirs, mine) in enumerate(zip(expected, got, strict=True)):
        if len(theirs) != len(mine):
            lines.append(f"  seat {seat}: HLE has {len(theirs)} cards, ours {len(mine)}")
            continue
        for number, (hle_slot, our_slot) in enumerate(zip(theirs, mine, strict=True), start=1):
            if hle_slot != our_slot:
                lines.append(
                    f"  seat {seat} slot {number}: HLE colors {list(hle_slot[0])} "
                    f"ranks {list(hle_slot[1])}; ours colors {list(our_slot[0])} "
                    f"ranks {list(our_slot[1])}"
                )
    return lines


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    start = time.perf_counter()
    moves = 0
    comparisons = 0
    endings: dict[str, int] = {}
    for seed in range(games):
        players = 2 + seed % 4
        hle = play_hle_game(players, seed, skill=0.5 + (seed % 6) / 10, hand_memory=True)
        log = parse_log(hle.log_text)
        game = Game(log.setup)
        checks = zip(log.actions, hle.snapshots, hle.knowledge, strict=True)
        for turn, (action, expected, expected_hands) in enumerate(checks):
            game.apply(action)
            got = ours(game)
            if got != expected:
                print(f"seed {seed}, {players} players, move {turn + 1}: {action}")
                print(f"  HLE:  {expected}\n  ours: {got}")
                return 1
            got_hands = our_knowledge(game)
            if got_hands != expected_hands:
                print(f"seed {seed}, {players} players, move {turn + 1}: {action}")
                print("card knowledge differs:")
                print("\n".join(knowledge_diff(expected_hands, got_hands)))
                return 1
            comparisons += sum(len(hand) for hand in got_hands)
        moves += len(log.actions)
        reason = game.end_reason.value if game.end_reason else "unfinished"
        endings[reason] = endings.get(reason, 0) + 1
    elapsed = time.perf_counter() - start
    print(
        f"{games} games, {moves} moves, {comparisons} slot comparisons: HLE and our engine "
        "agree after every move (position and card knowledge)"
    )
    print("endings:", ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    print(f"time: {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
