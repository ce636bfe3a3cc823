"""Issue 36's last three fault classes, one trial at a time (benchmarks/corruption.py
``--all``, and tests/storage/test_corruption_classes.py in small form):

- :func:`schema_trial`: a byte written into the schema's text in ``sqlite_master`` (inside
  the CHECK expressions, the column names, the quoted values), then the companion's start
  in-process (its first frame drawn on SDL's dummy driver, an action stored) and a second
  start: a file it cannot use is moved aside and said, and said again at the next start.
- :func:`export_trial`: a finished game's export cut (its last 1 or 5 lines, at a line
  boundary), two of its lines swapped, one edited; ``import`` must refuse it in one
  sentence naming the file (exit non-zero, nothing imported); ``import --partial`` must
  bring in what replays of it, and say so.
- :func:`second_reader_run`: the app with its page for phones (in-process, as
  :class:`support.phone_table.LiveTable` has it); a hint, then each kind of read the app and
  its page do, after each a separate ``sqlite3`` process opens and closes the database
  read-write, then the files as a power cut leaves them (copied by another process) are
  counted by another process: the actions lost.

Every trial is judged as the other classes are: ``crash`` (an exception that is not a
sentence of ours, a start that does not reach its first frame, a command that dies),
``silent`` (a loss, or a damaged file used, nothing said), ``named`` or ``intact``; and
``lost_across`` (a finding said at one start and not at the next before OK).
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import shutil
import subprocess
import time
import traceback
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from companion.storage import FINDINGS_NAME, LEDGER_NAME, Storage
from engine import GameSetup, Hint, Play
from engine.cards import Card
from engine.log import LogFormatError, LogRuleError, replay_log
from engine.table import SimulatedTable
from support.faults import play_finished_games

SQLITE3 = shutil.which("sqlite3") or "/usr/bin/sqlite3"


@dataclass
class ClassTrial:
    """One trial of a class: what was lost, what was said, what broke."""

    kind: str
    seed: int
    said: str = ""  # the sentence, or the findings' keys
    silent: str = ""  # a loss (or a damaged file used) nothing said
    crash: str = ""
    lost_across: list[str] = field(default_factory=list)
    actions_lost: int = 0
    changed: bool = False  # something was lost or refused (then said, if not silent)

    @property
    def verdict(self) -> str:
        if self.crash:
            return "crash"
        if self.silent or self.actions_lost:
            return "silent"
        return "named" if self.said else "intact"


# -- schema bytes ------------------------------------------------------------------------------

#: Pieces of the schema's text (page 1 of games.db) where a byte is written: the CHECK
#: expressions, the column names, the quoted values, the names of tables, indexes, triggers.
SCHEMA_PLACES = {
    "check": b"players BETWEEN 2 AND 5",
    "check_list": b"('playing', 'over', 'abandoned')",
    "check_table": b"CHECK (status <> 'over' OR score IS NOT NULL)",
    "check_actions": b"CHECK (seq >= 1)",
    "column": b"finished_at TEXT",
    "column_id": b"game_id INTEGER",
    "quoted": b"'playing'",
    "table": b"CREATE TABLE settings",
    "index": b"games_by_status ON games",
    "trigger": b"CREATE TRIGGER",
}

TABLE_FILES = ("games.db", "games.db-wal", LEDGER_NAME, FINDINGS_NAME)


def stored_table(folder: Path) -> tuple[Path, dict[int, str]]:
    """A stored table as a power cut leaves it (finished games, a game in play whose last
    actions are only in the journal, the ledger): its folder and each game's export."""
    live, copy = folder / "live", folder / "table"
    copy.mkdir(parents=True)
    storage = Storage.open(live)
    try:
        play_finished_games(storage, 3, seed=36)
        game_id = storage.new_game(GameSetup(players=2, names=("Ann", "Bo")))
        storage.append_action(game_id, Play(Card.from_code("R1")))
        for _ in range(4):
            storage.append_action(game_id, Hint())
        exports = {row.id: storage.export(row.id) for row in storage.history()}
        for name in TABLE_FILES:
            if (live / name).exists():
                shutil.copyfile(live / name, copy / name)  # while open: the journal is there
    finally:
        storage.close()
    return copy, exports


def schema_offsets(table: Path) -> list[tuple[str, int]]:
    """Every offset of every piece of the schema's text, with the piece's name."""
    data = (table / "games.db").read_bytes()
    offsets = []
    for place, text in SCHEMA_PLACES.items():
        start = data.find(text)
        assert start > 0, place
        offsets.extend((place, offset) for offset in range(start, start + len(text)))
    return offsets


def _value(rng: random.Random, old: int) -> int:
    """A byte of 0x80 or above (never text in UTF-8) half the time; else a letter, a digit,
    a quote, a bracket, a space, a NUL: other text that may still parse."""
    if rng.random() < 0.5:
        return rng.randrange(0x80, 0x100)
    return rng.choice([v for v in b"aeoxzAZ019 '\"(),;\x00\x7f" if v != old])


def _start(data_dir: Path) -> tuple[str | None, list[str], int | None]:
    """The companion's start, in-process: the storage opened, the game resumed, the first
    frame drawn on the dummy screen; the start's notice, the findings it holds open and
    the game it resumed."""
    from companion.core.controller import SetupDraft
    from companion.panel.display import open_display
    from companion.shell.app import App, resume, storage_notice

    storage = Storage.open(data_dir)
    try:
        storage.get_setting("setup", {})
        controller, game_id = resume(storage, SetupDraft(players=2, hint_content=False))
        notice = " · ".join(filter(None, [storage_notice(storage, "en"), controller.notice]))
        display = open_display("dummy", (480, 320))
        try:
            app = App(storage, display, controller, game_id)
            try:
                app.draw()
            finally:
                app.sleeper.close()  # run() closes it; a start drawn once must too
        finally:
            display.close()
        return notice or None, [finding.key for finding in storage.open_findings], game_id
    finally:
        storage.close()


def schema_trial(
    tmp: Path, table: Path, exports: dict[int, str], place: str, offset: int, seed: int
) -> ClassTrial:
    """The byte at ``offset`` (in the schema's text) set to a value drawn by ``seed``; then
    the start, every game listed and exported (as issue 24's faults are judged), the next
    action stored in the game resumed, and a second start. A byte of 0x80 or above is
    damage (our schema is ASCII): the file must be moved aside and said. Another value:
    moved aside and said, or every game as before (or named) and the next action stored;
    a damaged file used without a word at the start is silent."""
    from companion.storage import StorageError
    from support.faults import FaultTrial, _look

    rng = random.Random(seed)
    trial = ClassTrial(place, seed)
    data_dir = tmp / f"schema-{seed}"
    data_dir.mkdir()
    for name in TABLE_FILES:
        if (table / name).exists():
            shutil.copyfile(table / name, data_dir / name)
    with (data_dir / "games.db").open("r+b") as file:
        file.seek(offset)
        old = file.read(1)[0]
        value = _value(rng, old)
        file.seek(offset)
        file.write(bytes([value]))
    trial.kind = f"{place}@{offset}={value:#04x}"
    try:
        notice, keys, game_id = _start(data_dir)
        trial.said = notice or ""
        moved = [p.name for p in data_dir.iterdir() if ".corrupt-" in p.name]
        if moved and (notice is None or not any(name in notice for name in moved)):
            trial.silent = f"moved aside ({moved}), not said: {notice!r}"
        elif not moved and value >= 0x80:
            trial.silent = f"a byte {value:#04x} in the schema, the file used: {notice!r}"
        looked = FaultTrial(place, seed)
        if not moved:  # (moved aside and said: every game is named by the start)
            _look(data_dir, exports, looked)  # every game as confirmed, or named
        named = {int(n) for n in re.findall(r"\b[Gg]ames? ([0-9]+)", notice or "")}
        unsaid = [game for game in looked.silent if game not in named]
        if looked.crash:
            trial.crash = looked.crash
        elif unsaid:
            trial.silent = trial.silent or f"games {unsaid} changed, nothing said"
        trial.changed = bool(moved or looked.changed)
        if game_id is not None and not moved:  # the table plays on: the next action
            with Storage.open(data_dir) as storage:
                try:
                    storage.append_action(game_id, Hint())
                except StorageError as error:
                    trial.changed = True
                    if not notice:
                        trial.silent = trial.silent or (
                            f"the start said nothing, then the next action was refused: {error}"
                        )
        _, again, _ = _start(data_dir)  # the next start: the same findings
        trial.lost_across = [key for key in keys if key not in again]
    except Exception as error:  # what the benchmark counts as a crash
        trial.crash = f"{type(error).__name__}: {error} | " + _where(error)
    shutil.rmtree(data_dir, ignore_errors=True)
    return trial


def _where(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)[-2:]
    return " < ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames))


# -- cut and swapped exports -------------------------------------------------------------------

EXPORT_CHANGES = ("cut_1", "cut_5", "swapped", "edited")


def finished_exports(folder: Path, games: int = 6) -> dict[int, str]:
    """``games`` finished games exported by the real command (``export --game N``)."""
    data = folder / "exported"
    with Storage.open(data) as storage:
        rng = random.Random(36)
        for _ in range(games):
            setup = GameSetup(players=rng.randint(2, 5))
            game = SimulatedTable(setup, random.Random(rng.random()), skill=0.9).play_out()
            game_id = storage.new_game(setup)
            for action in game.actions:
                storage.append_action(game_id, action)
            storage.finish(game_id, game)
    texts = {}
    for game_id in range(1, games + 1):
        code, out, err = _command("export", "--data-dir", str(data), "--game", str(game_id))
        assert code == 0 and not err, err
        texts[game_id] = out
    return texts


def _command(*arguments: str) -> tuple[int, str, str]:
    """The real command line, in-process (``main``): its exit code, stdout and stderr.
    An exception out of it is a crash (the caller's)."""
    from companion.shell.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(arguments))
        except SystemExit as leaving:  # argparse's own exits
            code = leaving.code if isinstance(leaving.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def changed_export(text: str, how: str, rng: random.Random) -> str:
    """``text`` cut by its last 1 or 5 lines, two different lines of it swapped, or one of
    its header or action lines edited (a card, a hint, a name, spaces, a number)."""
    lines = text.rstrip("\n").split("\n")
    body = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")]
    if how == "cut_1":
        lines = lines[:-1]
    elif how == "cut_5":
        lines = lines[:-5]
    elif how == "swapped":
        while True:
            i, j = rng.sample(body, 2)
            if lines[i] != lines[j]:
                break
        lines[i], lines[j] = lines[j], lines[i]
    else:
        while True:
            i = rng.choice(body)
            line = lines[i]
            kind = rng.randrange(4)
            if kind == 0 and '"card": "' in line:
                card = line.split('"card": "')[1][:2]
                other = rng.choice([c + r for c in "RYGBW" for r in "12345" if c + r != card])
                new = line.replace(f'"card": "{card}"', f'"card": "{other}"')
            elif kind == 1:
                new = line.replace(": ", ":  ", 1)  # the same JSON, other bytes
            elif kind == 2:
                digits = [k for k, ch in enumerate(line) if ch.isdigit()]
                if not digits:
                    continue
                k = rng.choice(digits)
                new = line[:k] + str((int(line[k]) + rng.randint(1, 9)) % 10) + line[k + 1 :]
            else:
                letters = [k for k, ch in enumerate(line) if ch.isalpha()]
                k = rng.choice(letters)
                new = line[:k] + ("x" if line[k] != "x" else "y") + line[k + 1 :]
            if new != line:
                lines[i] = new
                break
    return "\n".join(lines) + "\n"


def _replayable_prefix(text: str) -> int | None:
    """How many actions of ``text`` replay before the first line that breaks; None if not
    even its header does."""
    lines = text.split("\n")
    for end in range(len(lines), 0, -1):
        try:
            return len(replay_log("\n".join(lines[:end]) + "\n").actions)
        except (LogFormatError, LogRuleError):
            continue
    return None


def export_trial(tmp: Path, texts: dict[int, str], how: str, seed: int) -> ClassTrial:
    """One export changed by ``how``: ``import`` must refuse it in one sentence naming the
    file and import nothing; ``import --partial`` must bring in what replays, and say so."""
    rng = random.Random(f"{how}-{seed}")
    game_id = rng.choice(sorted(texts))
    trial = ClassTrial(f"{how} game {game_id}", seed, changed=True)
    folder = tmp / f"export-{how}-{seed}"
    folder.mkdir()
    file = folder / "game.jsonl"
    changed = changed_export(texts[game_id], how, rng)
    file.write_text(changed)
    try:
        code, out, err = _command("import", str(file), "--data-dir", str(folder / "a"))
        lines = err.strip().split("\n")
        refused = (
            code != 0
            and out == ""
            and len(lines) == 2
            and lines[0].startswith(f"hanabi-companion: {file}:")
            and lines[1] == "hanabi-companion: nothing was imported: 1 file(s) refused"
        )
        if "Traceback" in err:
            trial.crash = err.strip().split("\n")[-1]
        elif not refused:
            trial.silent = f"import: exit {code}, out {out!r}, err {err!r}"
        else:
            trial.said = lines[0]
        if (folder / "a" / "games.db").exists():
            with Storage.open_existing(folder / "a") as storage:
                if storage.history():
                    trial.silent = trial.silent or "import refused the file, yet imported a game"
        expected = _replayable_prefix(changed)
        code, out, err = _command("import", "--partial", str(file), "--data-dir", str(folder / "b"))
        if "Traceback" in err:
            trial.crash = trial.crash or err.strip().split("\n")[-1]
        elif expected is None or (expected == 0 and code != 0):
            if code == 0 and "1 game imported" in out:
                trial.silent = trial.silent or f"--partial imported an unreadable file: {out!r}"
        elif code != 0:
            trial.actions_lost = expected
            trial.silent = trial.silent or f"--partial refused it: exit {code}, {err.strip()!r}"
        else:
            if f"{file}: " not in out or "not a whole export" not in out:
                trial.silent = trial.silent or f"--partial imported it without a word: {out!r}"
            with Storage.open_existing(folder / "b") as storage:
                rows = storage.history()
                got = len(storage.load(rows[0].id).actions) if rows else 0
                playing = bool(rows) and rows[0].status == "playing"
            trial.actions_lost = max(0, expected - got)
            if got != expected:
                trial.silent = trial.silent or f"--partial brought {got} actions of {expected}"
            if playing:
                trial.silent = trial.silent or "--partial made it the game in play"
    except Exception as error:
        trial.crash = f"{type(error).__name__}: {error} | " + _where(error)
    shutil.rmtree(folder, ignore_errors=True)
    return trial


# -- another program on the database -----------------------------------------------------------

#: Each kind of read the app and its page do (the panel's History is the app's own).
READS = ("/snapshot.json", "/history.json", "/games/{game}.json", "/games/{game}.log", "/", "panel")


def other_program(database: Path) -> str:
    """The sqlite3 shell opens the database read-write, reads, and closes it; its error."""
    done = subprocess.run(
        [SQLITE3, str(database), "select count(*) from games"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    return "" if done.returncode == 0 else done.stderr.strip()


def power_cut_count(data: Path, snap: Path, game_id: int) -> int:
    """The game's actions in the files as a power cut would leave them now: copied (by
    another process: this one must never open the database) and counted by another."""
    shutil.rmtree(snap, ignore_errors=True)
    snap.mkdir()
    subprocess.run(
        ["sh", "-c", f"cp games.db games.db-wal* {snap}/ 2>/dev/null; true"],
        cwd=data,
        check=True,
    )
    done = subprocess.run(
        [SQLITE3, str(snap / "games.db"), f"select count(*) from actions where game_id={game_id}"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    return int(done.stdout.strip() or 0)


def _get(url: str) -> None:
    with urllib.request.urlopen(url, timeout=10) as answer:
        answer.read()


def second_reader_run(tmp: Path, seed: int) -> list[ClassTrial]:
    """One app started on a fresh data directory; each read of :data:`READS` (in a random
    order) is a trial: a hint at the panel, the read, another program, the files counted."""
    from companion.core.controller import Screen
    from hardware.events import Key, Press, Select
    from support.phone_table import LiveTable, wait_until

    rng = random.Random(seed)
    data = tmp / f"reader-{seed}"
    table = LiveTable(data, players=rng.randint(2, 5), hand_memory=False)
    trials = []
    try:
        controller = table.app.controller
        assert table.web.server is not None and controller.game is not None
        base = f"http://127.0.0.1:{table.web.server.bound_port}"
        code = table.web.code
        game_id = table.app.game_id
        assert game_id is not None
        reads = list(READS)
        rng.shuffle(reads)
        lost = 0
        for read in [*reads, "after all"]:
            trial = ClassTrial(read, seed)
            trials.append(trial)
            try:
                shown = len(controller.game.actions) + 1
                table.emit(Press(Key.HINT))
                wait_until(lambda n=shown: len(controller.game.actions) >= n, "the hint shown")
                time.sleep(rng.uniform(0, 0.05))
                if read == "panel":
                    table.emit(Press(Key.MENU), Select("history"))
                    wait_until(lambda: controller.screen is Screen.HISTORY, "the History")
                    time.sleep(0.2)
                    table.emit(Press(Key.BACK), Press(Key.BACK))
                    wait_until(lambda: controller.screen is Screen.GAME, "the game again")
                elif read != "after all":
                    _get(base + read.format(game=game_id) + f"?code={code}")
                problem = other_program(data / "games.db")
                if problem:
                    trial.crash = f"sqlite3: {problem}"
                stored = power_cut_count(data, tmp / f"snap-{seed}", game_id)
                trial.actions_lost = max(0, shown - stored - lost)  # each loss counted once
                lost += trial.actions_lost
                if trial.actions_lost:
                    trial.silent = f"{shown} shown, {stored} in the files after {read}"
            except Exception as error:
                trial.crash = f"{type(error).__name__}: {error} | " + _where(error)
                break
    finally:
        table.close()
    shutil.rmtree(data, ignore_errors=True)
    return trials


def class_counts(trials: list[ClassTrial]) -> dict[str, int]:
    """The figures of a class: tried, intact, named, silent, crashes, findings lost across
    restarts, actions lost."""
    counts = {"tried": len(trials), "intact": 0, "named": 0, "silent": 0, "crash": 0}
    for trial in trials:
        counts[trial.verdict] += 1
    counts["across"] = sum(bool(t.lost_across) for t in trials)
    counts["actions"] = sum(t.actions_lost for t in trials)
    return counts
