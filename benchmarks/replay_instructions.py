"""The referee's cost in instructions, which a busy machine does not change.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/replay_instructions.py LOGS REPLAYS

``LOGS`` is a JSON file ``{"base": [log text, ...], "memory": [...]}``, written
once with HLE's games by ``PYTHONPATH=. /opt/hle/venv/bin/python
benchmarks/replay_instructions.py --write LOGS`` (the 200 games of
``engine_speed.py``). The script replays every log of ``$KIND`` (``base`` or
``memory``, default ``memory``) REPLAYS times with ``replay_log``. Run it under
callgrind with REPLAYS 1 and 0, both with ``PYTHONHASHSEED=0``: the difference
of the "Collected" totals over the number of actions it prints is the cost of
one action, parsing included (since issue 23's fourth pass an action line is
decoded by msgspec's schemas; since issue 32 they are the log's one parser, a
refusal worded from msgspec's error). ``--hle LOGS REPLAYS`` does the same for
HLE building and applying the same moves (run with HLE's Python, which imports
``engine.log`` too and so needs ``msgspec`` in HLE's venv:
``/opt/hle/venv/bin/pip install msgspec``).
"""

from __future__ import annotations

import json
import os
import sys

from engine.log import parse_log, replay_log

GAMES = 200


def main() -> None:
    if sys.argv[1] in ("--write", "--hle"):
        import hle_games
        from engine_speed import hle_logs

        played, base, memory = hle_logs(hle_games, GAMES)
        if sys.argv[1] == "--write":
            with open(sys.argv[2], "w", encoding="utf-8") as out:
                json.dump({"base": base, "memory": memory}, out)
            return
        fresh = [hle_games.new_hle_game(game.players, game.seed) for game in played]
        for _ in range(int(sys.argv[3])):
            for game, hle_game in zip(played, fresh, strict=True):
                hle_games.replay_in_hle_building_moves(game, hle_game)
        return
    with open(sys.argv[1], encoding="utf-8") as logs:
        texts = json.load(logs)[os.environ.get("KIND", "memory")]
    print(sum(len(parse_log(text).actions) for text in texts), "actions", file=sys.stderr)
    for _ in range(int(sys.argv[2])):
        for text in texts:
            replay_log(text)


if __name__ == "__main__":
    main()
