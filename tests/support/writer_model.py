"""What a writer process said it was doing and what it confirmed: the kill -9 tests' and
``benchmarks/kill9.py``'s model of the games a killed writer may leave on disk."""


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
