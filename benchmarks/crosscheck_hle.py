"""Cross-check our engine against DeepMind's HLE, move by move, on base games.

    /opt/hle/venv/bin/python benchmarks/crosscheck_hle.py [GAMES]

HLE plays each game; our engine replays the recorded log; after every move
both must agree on hint tokens, fuses, draw pile, fireworks, discard pile,
whose turn it is, whether the game is over, and the score. Exits 1 on the
first disagreement. Not part of CI (HLE is built from source with cmake).
"""

from __future__ import annotations

import sys

from hle_games import play_hle_game

from engine.game import Game
from engine.log import parse_log


def ours(game: Game) -> dict[str, object]:
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


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    moves = 0
    endings: dict[str, int] = {}
    for seed in range(games):
        players = 2 + seed % 4
        hle = play_hle_game(players, seed, skill=0.5 + (seed % 6) / 10)
        log = parse_log(hle.log_text)
        game = Game(log.setup)
        for turn, (action, expected) in enumerate(zip(log.actions, hle.snapshots, strict=True)):
            game.apply(action)
            got = ours(game)
            if got != expected:
                print(f"seed {seed}, {players} players, move {turn + 1}: {action}")
                print(f"  HLE:  {expected}\n  ours: {got}")
                return 1
        moves += len(log.actions)
        reason = game.end_reason.value if game.end_reason else "unfinished"
        endings[reason] = endings.get(reason, 0) + 1
    print(f"{games} games, {moves} moves: HLE and our engine agree after every move")
    print("endings:", ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
