"""What a writer process said it was doing and what it confirmed: the kill -9 tests' and
``benchmarks/kill9.py``'s model of the games a killed writer may leave on disk."""

#: The writer process (``python -c WRITER DATA_DIR SEED``): simulated games stored action by
#: action, the data directory locked as the companion locks it, each call said before it is
#: made (a line) and once it returned (``ok``), for :class:`WriterModel` to follow.
WRITER = """
import random, sys
from pathlib import Path
from companion.storage import DataDirLock, Storage
from engine import GameSetup
from engine.log import action_to_dict, dump_line
from engine.table import SimulatedTable

def say(*words):
    print(*words, flush=True)

rng = random.Random(int(sys.argv[2]))
lock = DataDirLock(Path(sys.argv[1]))
storage = Storage.open(Path(sys.argv[1]))
while True:
    setup = GameSetup(players=rng.randint(2, 5))
    say("new")
    game_id = storage.new_game(setup)
    say("ok", game_id)
    table = SimulatedTable(setup, random.Random(rng.random()), skill=1.0)
    while not table.game.is_over:
        action = table.step()
        line = dump_line(action_to_dict(action))
        say("append", game_id, line)
        storage.append_action(game_id, action)
        say("ok")
        if rng.random() < 0.2:
            say("undo", game_id)
            storage.drop_last_action(game_id)
            say("ok")
            say("append", game_id, line)
            storage.append_action(game_id, action)
            say("ok")
    say("finish", game_id)
    storage.finish(game_id, table.game)
    say("ok")
"""


class WriterModel:
    """What the writer said it was doing, and what it confirmed."""

    def __init__(self):
        self.lines = {}  # game id -> confirmed action lines
        self.over = set()
        self.pending = None  # the call in progress: ("append", id, line), ("undo", id)…
        self.confirmed = 0

    def feed(self, message):
        word, *rest = message.rstrip("\n").split(" ", 2)
        if word != "ok":
            assert self.pending is None, f"{message!r} before the previous call confirmed"
            self.pending = (word, *(int(rest[0]) if i == 0 else rest[i] for i in range(len(rest))))
            return
        kind, *args = self.pending
        if kind == "new":
            self.lines[int(rest[0])] = []
        elif kind == "append":
            self.lines[args[0]].append(args[1])
        elif kind == "undo":
            self.lines[args[0]].pop()
        elif kind == "finish":
            self.over.add(args[0])
        self.pending = None
        self.confirmed += 1

    def allowed(self, game_id):
        """The (lines, statuses) a game may have on disk: confirmed, or with the pending call."""
        lines = self.lines[game_id]
        status = "over" if game_id in self.over else "playing"
        allowed_lines, allowed_status = [lines], {status}
        if self.pending and len(self.pending) > 1 and self.pending[1] == game_id:
            kind = self.pending[0]
            if kind == "append":
                allowed_lines.append([*lines, self.pending[2]])
            elif kind == "undo":
                allowed_lines.append(lines[:-1])
            elif kind == "finish":
                allowed_status.add("over")
        return allowed_lines, allowed_status
