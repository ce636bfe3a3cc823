"""Phones as input under faults (issue 22): no action lost, none recorded twice.

    .venv/bin/python benchmarks/phone_faults.py [--actions 3000] [--phones 4] [--kills 30]
        [--hand-memory both|on|off] [--seed 22] [--data-dir DIR]

The companion runs in a child process of its own (``--companion``, below): the real
``App`` loop on SDL's dummy driver with the real storage, the data directory's lock and
the real page for phones (``WebLink``, aiohttp), as ``hanabi-companion run --web`` has
them; what it adds is the table's hands at the panel: it opens the Phones page once, so
that the phones can pair (its code is printed on stdout), and starts a new game (2 to 5
players, hand memory on and off in turn, timed display every third game) whenever one
ends.

Then ``--phones`` paired phones (threads, raw HTTP over sockets) send ``--actions`` actions,
each with a fresh id, built from the table as it is (``/snapshot.json``) and the cards a
real table would hold: the benchmark deals every stored game a real shuffled deck (seeded
by the run and the game) and follows the stored actions on it (``SimulatedTable``), so a
legal play or discard names a card that is really in that hand, at its slot. About a
third are illegal on purpose: an old position (an action or an undo), a hint to oneself,
a slot beyond the hand, a card the rules refuse there, another game, a malformed body.
Each phone mostly acts for its own player's turns, and now and then races the others for
one (exactly one may win it). No undo is confirmed: an undo takes back an action a phone
was told is stored, which this count of stored actions cannot tell from a loss.
A response is dropped at random (the connection closed right after sending, or a client
timeout of a few milliseconds) and the same request is sent again later, with the same id;
a few are never sent again (a phone put away). ``--kills`` times, at a random moment,
the companion gets SIGKILL and is started again on the same data directory; the phones
retry what found it gone.

At the end the database is read (read-only) and held against what the phones were told:

- *confirmed*: requests answered ``ok`` (200) to a phone; *stored*: actions in the
  database, each with the receipt of the request that made it (``phone_requests``);
- *lost*: confirmed, but not stored where its answer said, as the action sent, right
  after the position it named (goal 0);
- *duplicates*: one request recorded more than once, or one stored action claimed by two
  confirmed requests, or a request confirmed at two positions (goal 0);
- *stored, unconfirmed*: stored, but its every answer was dropped and never asked again
  (not a loss: the table has it, the phone was put away);
- *illegal accepted*: a request the rules refuse at its position, confirmed (goal 0);
- *answered differently*: a retry answered otherwise than the first time: ``ok`` where it
  was refused or the other way round, other words, or (``ok``) another count (goal 0);
- *shown before stored*: a snapshot counting more actions than the database holds (goal 0);
- *set aside*: files the companion moved aside at a start as damaged (goal 0);
- *games that do not replay*: stored games the storage cannot load and the rules
  engine cannot replay (goal 0).

Exits 1 if any of those goals is missed. Figures are printed, never asserted on time
(``tests/web/test_phone_faults.py`` runs a small version as a test).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import random
import secrets
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.actions import Action, Hint  # noqa: E402
from engine.cards import ALL_CARDS, Card, Color  # noqa: E402
from engine.errors import IllegalAction  # noqa: E402
from engine.log import action_to_dict, parse_action, parse_log  # noqa: E402
from engine.setup import GameSetup  # noqa: E402
from engine.table import SimulatedTable  # noqa: E402

#: Kinds of request, by what the benchmark expects of them.
LEGAL = "legal"
ILLEGAL_KINDS = (
    "stale",
    "stale_undo",
    "self_hint",
    "beyond_hand",
    "wrong_card",
    "other_game",
    "malformed",
)
#: Share of requests made illegal on purpose.
ILLEGAL_SHARE = 0.3
#: Chance that a phone tries for a turn not its own (its player's seat, modulo the
#: phones): phones racing for the same turn; exactly one may win it.
RACE_SHARE = 0.15
#: Share of sends whose response the phone drops (half closed at once, half timed out).
DROP_SHARE = 0.2
#: Share of dropped requests never sent again (the phone was put away).
ABANDON_SHARE = 0.05
#: Tries of one request before the phone gives up on it (the companion never answered).
MAX_TRIES = 400
#: The phones' names (a table has at most five players; more phones get numbers).
PHONE_NAMES = tuple(["Ann", "Bo", "Cy", "Di", "Ed"] + [f"Phone {n}" for n in range(6, 100)])
#: A run that sends nothing for this long has failed (no game started, no answer).
STALLED_SECONDS = 90.0
#: Answers that are not final: the phone sends the request again, with the same id.
RETRY_STATUSES = (503, 429)


# -- the companion: a child process ---------------------------------------------------


def companion_main(data_dir: Path, port: int, memory: str, seed: int) -> int:
    """The companion at the table (runs in the child): the real App, storage and page for
    phones; on stdout ``ready CODE`` once it serves, ``pairing CODE`` when asked ``pair``
    on stdin; a new game whenever none is in play."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        os.environ.pop(name, None)
    from companion.core.controller import SETUP_ROWS, Screen, SetupDraft
    from companion.panel.display import open_display
    from companion.shell.app import App, resume
    from companion.shell.web_link import WebLink
    from companion.storage import DataDirLock, Storage
    from engine.options import GameOptions
    from hardware.events import Key, Press, Select

    running = [True]

    def stop(signum: int, frame: object) -> None:
        running[0] = False

    signal.signal(signal.SIGTERM, stop)
    commands: queue.SimpleQueue[str] = queue.SimpleQueue()

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    with DataDirLock(data_dir):
        storage = Storage.open(data_dir)
        stored = storage.get_setting("setup", {}) or {}
        draft = SetupDraft.from_settings(stored, default=SetupDraft(players=3))
        controller, game_id = resume(storage, draft)
        display = open_display("dummy", (480, 320))
        app = App(storage, display, controller, game_id)
        web = WebLink(storage, port=port, bind="127.0.0.1")
        app.attach_web(web)
        app.step()
        if not web.wait_ready(60) or web.server is None or web.server.failure:
            say(f"failed {web.server.failure if web.server else 'no server'}")
            return 1

        def read_commands() -> None:
            for line in sys.stdin:
                commands.put(line.strip())
                app.sleeper.poke()

        threading.Thread(target=read_commands, daemon=True).start()
        say(f"ready {web.code}")
        while running[0] and app.running:
            app.step(20)
            if app.controller.pending_pair is not None:  # "Pair Di's phone?": OK
                app.dispatch(Press(Key.OK))
            while not commands.empty():
                command = commands.get()
                if command == "pair":
                    if app.controller.screen is not Screen.PHONES:
                        app.dispatch(Press(Key.MENU))
                        app.dispatch(Select("phones"))
                        app.step()
                    say(f"pairing {app.controller.pairing_code}")
                elif command == "back" and app.controller.screen is Screen.PHONES:
                    app.dispatch(Press(Key.BACK))
            shown = app.controller
            if shown.screen in (Screen.END, Screen.SETUP) and (
                shown.game is None or shown.game.is_over
            ):
                number = (storage.latest_game_id() or 0) + 1
                rng = random.Random(f"{seed}-players-{number}")
                hand_memory = memory == "on" or (memory == "both" and number % 2 == 1)
                shown.draft.players = rng.randint(2, 5)
                shown.draft.first_player = 0
                shown.draft.options = GameOptions(
                    hand_memory=hand_memory, timed_display=number % 3 == 0
                )
                if shown.screen is Screen.END:
                    app.dispatch(Press(Key.OK))  # the end screen: to the set-up
                shown.focus = SETUP_ROWS.index("start")
                app.dispatch(Press(Key.OK))
        web.stop()
        display.close()
        storage.close()
    return 0


class Companion:
    """The child process, started again after every kill on the same data directory."""

    def __init__(self, data_dir: Path, port: int, memory: str, seed: int) -> None:
        self.data_dir = data_dir
        self.port = port
        self.memory = memory
        self.seed = seed
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.code = ""
        #: Where the companion's log goes (next to the data directory).
        self.log = data_dir.parent / f"{data_dir.name}-companion.log"
        #: Spawn to serving, each start.
        self.start_seconds: list[float] = []

    def start(self) -> None:
        self.lines = queue.SimpleQueue()
        with self.log.open("a") as log:
            process = subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--companion",
                    str(self.data_dir),
                    str(self.port),
                    self.memory,
                    str(self.seed),
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                cwd=REPO,
            )
        self.process = process
        lines = self.lines

        def read() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                lines.put(line.strip())
            lines.put("")

        threading.Thread(target=read, daemon=True).start()
        began = time.monotonic()
        line = self.expect("ready", 120)
        self.start_seconds.append(time.monotonic() - began)
        self.code = line.split()[1]

    def expect(self, word: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"the companion did not say {word!r}") from None
            if line.startswith(word):
                return line
            if not line or line.startswith("failed"):
                raise RuntimeError(f"the companion stopped: {line or 'no answer'}{self.said()}")

    def said(self) -> str:
        """The end of the companion's log, to quote in a failure."""
        try:
            lines = self.log.read_text(errors="replace").splitlines()[-15:]
        except OSError:
            return ""
        return "".join(f"\n  {line}" for line in lines)

    def tell(self, command: str) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def pairing_code(self) -> str:
        self.tell("pair")
        return self.expect("pairing", 30).split()[1]

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()


# -- HTTP, as a phone on the Wi-Fi does it ----------------------------------------------------


class Unanswered(Exception):
    """No answer came: ``dropped`` by the phone itself, or the companion ``down``."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def exchange(
    port: int,
    method: str,
    path: str,
    headers: dict[str, str],
    body: bytes = b"",
    *,
    drop: str = "",
    timeout: float = 30.0,
) -> tuple[int, dict[str, Any]]:
    """One request on a fresh connection: (status, JSON answer); :class:`Unanswered` if the
    phone dropped it (``drop``: "close" right after sending, "timeout" a few ms later) or
    the companion is gone."""
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    head += [f"{name}: {value}" for name, value in headers.items()]
    if body or method == "POST":
        head.append(f"Content-Length: {len(body)}")
    request = ("\r\n".join(head) + "\r\n\r\n").encode() + body
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    except OSError:
        raise Unanswered("down") from None
    with sock:
        try:
            sock.sendall(request)
        except OSError:
            raise Unanswered("down") from None
        if drop == "close":
            raise Unanswered("dropped")
        sock.settimeout(random.uniform(0.001, 0.03) if drop == "timeout" else timeout)
        answer = b""
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except TimeoutError:
            raise Unanswered("dropped" if drop == "timeout" else "down") from None
        except OSError:
            raise Unanswered("down") from None
    if b"\r\n\r\n" not in answer or not answer.startswith(b"HTTP/1."):
        raise Unanswered("down")  # cut off mid-answer: the companion died
    top, _, content = answer.partition(b"\r\n\r\n")
    status = int(top.split(b" ", 2)[1])
    try:
        data = json.loads(content)
    except ValueError:
        data = {"text": content.decode("utf-8", "replace")}
    return status, data if isinstance(data, dict) else {"value": data}


# -- the table's real cards ------------------------------------------------------------------


def without_player(obj: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in obj.items() if key not in ("player", "at")}


def same_action(sent: dict[str, Any], stored_line: str) -> bool:
    """Whether a stored line is the action a phone sent (the companion adds who and when)."""
    try:
        mine = action_to_dict(parse_action(sent))
        theirs = action_to_dict(parse_action(json.loads(stored_line)))
    except ValueError:
        return False
    return without_player(mine) == without_player(theirs)


class TableCards:
    """One stored game dealt from a real shuffled deck (the same for every phone of the
    run), kept in step with the stored actions."""

    def __init__(self, setup: GameSetup, seed: str, rng: random.Random) -> None:
        self.table = SimulatedTable(setup, random.Random(seed), skill=0.7)
        self.table.rng = rng  # the deal is the run's; the choices this phone's

    @property
    def game(self) -> Any:
        return self.table.game

    def follow(self, actions: list[Action]) -> None:
        """Apply the stored actions not yet applied (the draw as a real table draws)."""
        table = self.table
        for action in actions[len(table.game.actions) :]:
            player = table.game.position.current
            table.game.apply(action)
            if isinstance(action, Hint):
                continue
            hand = table.hands[player]
            if action.slot is not None and 1 <= action.slot <= len(hand):
                index = len(hand) - action.slot
            elif action.card in hand:
                index = hand.index(action.card)
            else:  # a card not in that hand was accepted ("illegal accepted" says so)
                index = len(hand) - 1
            hand.pop(index)
            if table.game.position.hands[player] > len(hand) and table.draw_pile:
                hand.append(table.draw_pile.pop())


class Unreadable(Exception):
    """The database could not be read just now (the companion restarting): look again."""


def stored_game(data_dir: Path, game: str) -> tuple[str, list[str]] | None:
    """A stored game's header and action lines, read-only, whatever the companion does;
    None when there is no such game. :class:`Unreadable` if SQLite says busy."""
    path = data_dir / "games.db"
    if not game.isdigit() or not path.exists():
        return None
    try:
        with contextlib.closing(
            sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=10)
        ) as db:
            row = db.execute("SELECT header FROM games WHERE id = ?", (int(game),)).fetchone()
            if row is None:
                return None
            lines = [
                line
                for (line,) in db.execute(
                    "SELECT line FROM actions WHERE game_id = ? ORDER BY seq", (int(game),)
                )
            ]
    except sqlite3.OperationalError as error:
        raise Unreadable(str(error)) from None
    return row[0], lines


# -- the phones --------------------------------------------------------------------------


@dataclass
class Request:
    """One action sent from a phone (its player pressed OK there), with every answer it
    got; sent again with the same id until one is final."""

    id: str
    phone: int
    game: str
    position: int
    action: dict[str, Any]
    kind: str
    #: The rules refuse it at its position (or it names a position or game gone).
    must_refuse: bool
    tries: int = 0
    answers: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    dropped: int = 0
    down: int = 0
    busy: int = 0
    abandoned: bool = False

    def body(self) -> bytes:
        return json.dumps(
            {"id": self.id, "game": self.game, "position": self.position, "action": self.action}
        ).encode()

    @property
    def confirmed(self) -> bool:
        return any(status == 200 and data.get("ok") is True for status, data in self.answers)


@dataclass
class Run:
    """What every phone shares: the plan, the ledger, the counters."""

    port: int
    data_dir: Path
    code: str
    target: int
    seed: int
    phones: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    ledger: dict[str, Request] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    #: Every action of the run is sent: the phones only send the unanswered ones again.
    no_more: threading.Event = field(default_factory=threading.Event)
    #: The run is over (it failed): the phones stop at once.
    stopped: threading.Event = field(default_factory=threading.Event)
    companion: Companion | None = None
    #: What went wrong in a phone's thread (the run stops).
    failure: str = ""
    #: The kills are over and every action sent: no response is dropped any more.
    draining: threading.Event = field(default_factory=threading.Event)
    _progress: tuple[int, float] = (-1, 0.0)

    def reserve(self) -> bool:
        """Take one of the run's actions; False once all are taken."""
        with self.lock:
            if self.counts["sent"] >= self.target:
                self.no_more.set()
                return False
            self.counts["sent"] += 1
            return True

    def check_progress(self) -> None:
        """Raise if no action could be sent for :data:`STALLED_SECONDS` (no game starts,
        the companion stopped answering): a stuck run says so instead of hanging."""
        if self.failure:
            raise RuntimeError(self.failure)
        sent, now = self.counts["sent"], time.monotonic()
        if sent != self._progress[0]:
            self._progress = (sent, now)
        elif now - self._progress[1] > STALLED_SECONDS:
            said = self.companion.said() if self.companion is not None else ""
            raise RuntimeError(f"no action sent for {STALLED_SECONDS:.0f} s at {sent}{said}")

    def count(self, name: str, by: int = 1) -> None:
        with self.lock:
            self.counts[name] += by


class Phone:
    """A paired phone: a thread that reads the table, sends actions, sends again those it
    got no final answer to."""

    def __init__(self, run: Run, number: int, token: str) -> None:
        self.run = run
        self.number = number
        self.token = token
        self.rng = random.Random(f"{run.seed}-phone-{number}")
        self.pending: list[tuple[float, Request]] = []
        self.tables: dict[str, TableCards] = {}
        #: The count of actions each game had at the last answer (the page looks at the
        #: table from there on, not at an older snapshot).
        self.told: dict[str, int] = {}
        #: The turn this phone last decided to race for, or not.
        self.race: tuple[tuple[str, int], bool] = (("", -1), False)
        self.thread = threading.Thread(target=self.loop, name=f"phone-{number}", daemon=True)

    def headers(self, post: bool) -> dict[str, str]:
        out = {"Cookie": f"table={self.run.code}"}
        if post:
            out["X-Phone-Token"] = self.token
            out["Content-Type"] = "application/json"
        return out

    def loop(self) -> None:
        try:
            self.act()
        except Exception as error:  # a bug of the benchmark's: the run stops and says it
            self.run.failure = f"phone {self.number}: {type(error).__name__}: {error}"
            self.run.stopped.set()

    def act(self) -> None:
        run = self.run
        while not run.stopped.is_set():
            now = time.monotonic()
            due = [item for item in self.pending if item[0] <= now]
            if due:
                item = min(due, key=lambda item: item[0])
                self.pending.remove(item)
                self.send(item[1])
                continue
            if not run.no_more.is_set():
                request = self.new_request()
                if request is None:  # not this phone's turn, no game, the companion down
                    time.sleep(self.rng.uniform(0.005, 0.03))
                    continue
                if run.reserve():
                    with run.lock:
                        run.ledger[request.id] = request
                    self.send(request)
                continue
            if not self.pending:
                return
            time.sleep(max(0.0, min(item[0] for item in self.pending) - now))

    def send(self, request: Request) -> None:
        run, rng = self.run, self.rng
        request.tries += 1
        if request.tries > 1:
            run.count("retries")
        drop = ""
        if not run.draining.is_set() and rng.random() < DROP_SHARE:
            drop = "close" if rng.random() < 0.5 else "timeout"
        run.count("act_requests")
        try:
            status, data = exchange(
                run.port, "POST", "/api/act", self.headers(True), request.body(), drop=drop
            )
        except Unanswered as gone:
            if gone.why == "dropped":
                request.dropped += 1
                run.count("dropped")
                if not run.draining.is_set() and rng.random() < ABANDON_SHARE:
                    request.abandoned = True
                    return
            else:
                request.down += 1
                run.count("down")
            self.later(request)
            return
        if status in RETRY_STATUSES:
            request.busy += 1
            run.count(f"answered_{status}")
            self.later(request)
            return
        request.answers.append((status, data))
        if isinstance(data.get("actions"), int):
            self.told = {request.game: max(data["actions"], self.told.get(request.game, 0))}

    def later(self, request: Request) -> None:
        if request.tries >= MAX_TRIES:
            request.abandoned = True
            self.run.count("gave_up")
            return
        delay = self.rng.uniform(0.02, 0.6)
        self.pending.append((time.monotonic() + delay, request))

    # -- making requests ---------------------------------------------------------

    def races(self, game: str, position: int) -> bool:
        """Whether this phone tries for a turn not its own (decided once per turn)."""
        if self.race[0] != (game, position):
            self.race = ((game, position), self.rng.random() < RACE_SHARE)
        return self.race[1]

    def snapshot(self) -> dict[str, Any] | None:
        try:
            status, data = exchange(self.run.port, "GET", "/snapshot.json", self.headers(False))
        except Unanswered:
            return None
        return data if status == 200 else None

    def new_request(self) -> Request | None:
        run, rng = self.run, self.rng
        snapshot = self.snapshot()
        if snapshot is None or not snapshot.get("playing") or snapshot.get("over"):
            return None
        game, position = str(snapshot.get("game", "")), int(snapshot.get("actions", 0))
        if position < self.told.get(game, 0):
            return None  # the table is further on than this snapshot says: look again
        current = int(snapshot.get("current", -1))
        if current % run.phones != self.number - 1 and not self.races(game, position):
            return None  # mostly the phone of the player whose turn it is acts
        try:
            stored = stored_game(run.data_dir, game)
        except Unreadable:
            run.count("database_busy")
            return None
        if stored is None:
            run.count("shown_before_stored")
            return None
        header, lines = stored
        if len(lines) < position:
            run.count("shown_before_stored")
            return None
        if len(lines) > position:
            run.count("snapshot_behind")
        cards = self.tables.get(game)
        if cards is None:
            setup = parse_log(header).setup
            cards = TableCards(setup, f"{run.seed}-deck-{game}", rng)
            self.tables = {game: cards}
        log = parse_log("\n".join([header, *lines[:position]]))
        cards.follow(list(log.actions))
        kind = rng.choice(ILLEGAL_KINDS) if rng.random() < ILLEGAL_SHARE else LEGAL
        made = self.make(cards, kind, game, position)
        if made is None:
            return None
        kind, sent_game, sent_position, action = made
        at = len(cards.game.actions)
        must_refuse = (
            sent_game != game
            or sent_position != at
            or kind == "malformed"
            or not self.rules_allow(cards, action)
        )
        return Request(
            secrets.token_urlsafe(18),
            self.number,
            sent_game,
            sent_position,
            action,
            kind,
            must_refuse,
        )

    @staticmethod
    def rules_allow(cards: TableCards, action: dict[str, Any]) -> bool:
        try:
            cards.game.preview(parse_action(action))
        except (ValueError, IllegalAction):
            return False
        return True

    def make(
        self, cards: TableCards, kind: str, game_key: str, position: int
    ) -> tuple[str, str, int, dict[str, Any]] | None:
        """(kind, game, position, action) of a request of ``kind`` on this table."""
        table, rng = cards.table, self.rng
        game = table.game
        if game.is_over:
            return None
        setup = game.setup
        memory = setup.options.hand_memory
        current = game.position.current
        hand = table.hands[current]
        legal = without_player(action_to_dict(table.choose()))
        if kind == LEGAL:
            return kind, game_key, position, legal
        if kind == "stale" and position > 0:
            return kind, game_key, position - 1, legal
        if kind == "stale_undo":  # an undo made on a position gone (or with nothing to undo)
            return kind, game_key, max(0, position - 1), {"action": "undo"}
        if kind == "other_game":
            return kind, str(10_000 + rng.randrange(1000)), position, legal
        if kind == "self_hint":
            hint: dict[str, Any] = {"action": "hint", "to": current, "rank": rng.randint(1, 5)}
            if memory:
                hint["slots"] = [1]
            return kind, game_key, position, hint
        if kind == "beyond_hand" and memory and hand:
            verb = "play" if rng.random() < 0.5 else "discard"
            slot = len(hand) + rng.randint(1, 3)
            return kind, game_key, position, {"action": verb, "card": hand[-1].code(), "slot": slot}
        if kind == "malformed":
            bad = rng.choice(
                [
                    {"action": "hint", "to": "Bo"},
                    {"action": "play", "card": "R9"},
                    {"action": "discard"},
                    {"action": "fold"},
                    {**legal, "player": current},
                ]
            )
            return kind, game_key, position, bad
        # a card the rules refuse there (every copy seen, or what the hints ruled out)
        verb = "play" if rng.random() < 0.5 else "discard"
        slot = rng.randint(1, max(1, len(hand)))
        candidates = [card for card in ALL_CARDS if setup.copies[card.ordinal] > 0]
        rng.shuffle(candidates)
        for card in candidates:
            action: dict[str, Any] = {"action": verb, "card": card.code()}
            if memory:
                action["slot"] = slot
            if not self.rules_allow(cards, action):
                return "wrong_card", game_key, position, action
        colors = {suit.color for suit in setup.suits}
        missing = [color for color in Color if color not in colors]
        if missing:
            action = {"action": verb, "card": Card(missing[0], 1).code()}
            if memory:
                action["slot"] = slot
            return "wrong_card", game_key, position, action
        return LEGAL, game_key, position, legal


def pair(run: Run, companion: Companion, phones: int) -> list[str]:
    """Pair ``phones`` phones with the code the panel's Phones page shows."""
    tokens = []
    for number in range(1, phones + 1):
        code = companion.pairing_code()  # a new code after each pairing
        body = json.dumps({"code": code, "name": PHONE_NAMES[number - 1]}).encode()
        headers = {"Cookie": f"table={run.code}", "Content-Type": "application/json"}
        status, data = exchange(run.port, "POST", "/api/pair", headers, body)
        if status == 429:  # five tries a minute from one address: a sixth phone waits
            time.sleep(61)
            status, data = exchange(run.port, "POST", "/api/pair", headers, body)
        if status != 200 or not data.get("token"):
            raise RuntimeError(f"pairing phone {number}: {status} {data}")
        tokens.append(str(data["token"]))
    companion.tell("back")
    return tokens


# -- the verdict -------------------------------------------------------------------------


#: The counts that must be 0 (the run fails otherwise).
GOALS = (
    "lost",
    "duplicates",
    "illegal_accepted",
    "answered_differently",
    "stored_without_request",
    "shown_before_stored",
    "set_aside",
    "not_replayed",
)


@dataclass
class Figures:
    run: Run
    counts: Counter[str]
    seconds: float
    kills: int
    phones: int
    games: int
    games_with_memory: int
    start_seconds: list[float]

    @property
    def failed(self) -> bool:
        return any(self.counts[name] for name in GOALS)

    def lines(self) -> list[str]:
        c = self.counts
        per_second = c["act_requests"] / self.seconds if self.seconds else 0.0
        return [
            f"phones {self.phones}, games {self.games} ({self.games_with_memory} with hand"
            f" memory), kill -9 of the companion {self.kills}, {self.seconds:.0f} s (a start"
            f" to serving: median {statistics.median(self.start_seconds):.2f} s)",
            f"actions sent {c['sent']} ({c['legal']} built legal, {c['illegal']} illegal on"
            f" purpose); requests {c['act_requests']} ({per_second:.1f} per second),"
            f" retries {c['retries']}",
            f"responses dropped by the phone {c['dropped']}, companion down {c['down']},"
            f" 503 {c['answered_503']}, never sent again {c['abandoned']}",
            f"confirmed {c['confirmed']}, refused {c['refused']} ({c['refused_illegal']} illegal,"
            f" {c['refused_legal']} legal but a race lost or the table moved on; 409"
            f" {c['refused_409']}, 400 {c['refused_400']}, other {c['refused_other']})",
            f"stored {c['stored']} = confirmed and stored {c['confirmed_stored']}"
            f" + stored, unconfirmed {c['stored_unconfirmed']}",
            f"lost {c['lost']}, duplicates {c['duplicates']}, illegal accepted"
            f" {c['illegal_accepted']}, answered differently {c['answered_differently']},"
            f" stored without a request {c['stored_without_request']}, shown before stored"
            f" {c['shown_before_stored']}, files set aside {c['set_aside']}, games that do"
            f" not replay {c['not_replayed']}",
        ]


def verdict(run: Run, data_dir: Path) -> Counter[str]:
    """Hold the database in ``data_dir`` against the phones' ledger (see the module's
    docstring)."""
    counts: Counter[str] = Counter()
    path = data_dir / "games.db"
    with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
        stored = {
            (str(game), seq): line
            for game, seq, line in db.execute("SELECT game_id, seq, line FROM actions")
        }
        receipts: dict[str, tuple[int, dict[str, Any]]] = {}
        for key, status, answer in db.execute("SELECT id, status, answer FROM phone_requests"):
            data = json.loads(answer)
            # Kept by (phone, request id) as "<phone>:<id>" (issue 37); the ids here are unique.
            request_id = key.partition(":")[2] or key
            receipts[request_id] = (int(status), data if isinstance(data, dict) else {})
        twice = db.execute(
            "SELECT COUNT(*) FROM (SELECT id FROM phone_requests GROUP BY id HAVING COUNT(*) > 1)"
        ).fetchone()[0]
    counts["duplicates"] += twice
    counts["stored"] = len(stored)
    claimed: dict[tuple[str, int], list[str]] = {}
    claimed_ids: set[str] = set()
    for request in run.ledger.values():
        counts["legal" if request.kind == LEGAL else "illegal"] += 1
        if request.abandoned and not request.answers:
            counts["abandoned"] += 1
        oks = [data for status, data in request.answers if status == 200 and data.get("ok")]
        refusals = [(status, data) for status, data in request.answers if not data.get("ok")]
        # a retry is answered as the first time: the same ok, words (and count, if ok)
        said = {
            (
                status,
                bool(data.get("ok")),
                data.get("text"),
                data.get("actions") if data.get("ok") else None,
            )
            for status, data in request.answers
        }
        if len(said) > 1:
            counts["answered_differently"] += 1
        if refusals and not oks:
            counts["refused"] += 1
            counts["refused_legal" if request.kind == LEGAL else "refused_illegal"] += 1
            status = refusals[0][0]
            counts[f"refused_{status}" if status in (409, 400) else "refused_other"] += 1
        receipt = receipts.get(request.id)
        recorded_at = None
        if receipt is not None and receipt[0] == 200 and receipt[1].get("ok"):
            recorded_at = receipt[1].get("actions")
        elif oks:
            recorded_at = oks[0].get("actions")
        if oks or recorded_at is not None:
            if request.must_refuse:
                counts["illegal_accepted"] += 1
            if isinstance(recorded_at, int):
                claimed.setdefault((request.game, recorded_at), []).append(request.id)
                claimed_ids.add(request.id)
        if not oks:
            continue
        counts["confirmed"] += 1
        seq = oks[0].get("actions")
        line = stored.get((request.game, seq)) if isinstance(seq, int) else None
        if (
            line is None
            or not same_action(request.action, line)
            or seq != request.position + 1
            or recorded_at != seq
        ):
            counts["lost"] += 1
    for key, line in stored.items():
        owners = claimed.get(key, [])
        if not owners:
            # Recorded twice (a request stored again, without its receipt), or by no one.
            again = any(
                request.game == key[0]
                and (request.id in claimed_ids or request.confirmed)
                and same_action(request.action, line)
                for request in run.ledger.values()
            )
            counts["duplicates" if again else "stored_without_request"] += 1
            continue
        counts["duplicates"] += len(owners) - 1
        if any(run.ledger[owner].confirmed for owner in owners):
            counts["confirmed_stored"] += 1
        else:
            counts["stored_unconfirmed"] += 1
    return counts


def stored_games(data_dir: Path) -> tuple[int, int, int]:
    """(games, games with hand memory, games that do not load and replay) in the database,
    read as the history reads it (the storage's read-only handle: the lines, their chain,
    the rules)."""
    from companion.storage import Storage, StorageError

    storage = Storage.open_existing(data_dir)
    if storage is None:
        return 0, 0, 0
    games = with_memory = broken = 0
    with storage:
        for row in storage.history():
            games += 1
            try:
                stored = storage.load(row.id)
                stored.replay()
            except (StorageError, IllegalAction, ValueError):
                broken += 1
                continue
            with_memory += stored.setup.options.hand_memory
    return games, with_memory, broken


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def data_directory(given: Path | None) -> Iterator[Path]:
    if given is not None:
        given.mkdir(parents=True, exist_ok=True)
        yield given
        return
    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder) / "data"


def run_benchmark(
    *,
    actions: int,
    phones: int = 4,
    kills: int = 30,
    memory: str = "both",
    seed: int = 22,
    data_dir: Path | None = None,
) -> Figures:
    """The whole run; the figures, with the verdict's counts."""
    rng = random.Random(f"{seed}-kills")
    with data_directory(data_dir) as data:
        port = free_port()
        companion = Companion(data, port, memory, seed)
        companion.start()
        try:
            run = Run(port, data, companion.code, actions, seed, phones)
            run.companion = companion
            tokens = pair(run, companion, phones)
            started = time.monotonic()
            crew = [Phone(run, number + 1, token) for number, token in enumerate(tokens)]
            for phone in crew:
                phone.thread.start()
            moments = sorted(rng.sample(range(1, max(2, actions)), min(kills, actions - 1)))
            done = 0
            for moment in moments:
                while run.counts["sent"] < moment and not run.no_more.is_set():
                    run.check_progress()
                    time.sleep(0.005)
                time.sleep(rng.uniform(0, 0.08))  # mid-request, mid-write, or idle
                companion.kill()
                done += 1
                time.sleep(rng.uniform(0, 0.4))  # the phones find it gone
                companion.start()
            while not run.no_more.wait(0.5):
                run.check_progress()
            run.draining.set()  # what is still unanswered is asked again, undropped
            for phone in crew:
                phone.thread.join()
            if run.failure:  # a phone that failed while the others drained
                raise RuntimeError(run.failure)
            seconds = time.monotonic() - started
        finally:
            run.stopped.set()
            companion.stop()
        counts = verdict(run, data)
        counts["sent"] = run.counts["sent"]
        for name in ("act_requests", "retries", "dropped", "down", "answered_503", "gave_up"):
            counts[name] = run.counts[name]
        counts["shown_before_stored"] += run.counts["shown_before_stored"]
        counts["set_aside"] = len(list(data.glob("games.db.*")))
        games, with_memory, counts["not_replayed"] = stored_games(data)
    return Figures(run, counts, seconds, done, phones, games, with_memory, companion.start_seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--phones", type=int, default=4)
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--hand-memory", choices=("both", "on", "off"), default="both")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--data-dir", type=Path, help="keep the database here (default: a temp)")
    args = parser.parse_args()
    figures = run_benchmark(
        actions=args.actions,
        phones=args.phones,
        kills=args.kills,
        memory=args.hand_memory,
        seed=args.seed,
        data_dir=args.data_dir,
    )
    for line in figures.lines():
        print(line)
    print("verdict:", "FAILED" if figures.failed else "ok (0 lost, 0 duplicates)")
    return 1 if figures.failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--companion":
        sys.exit(companion_main(Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])))
    sys.exit(main())
