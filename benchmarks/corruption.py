"""A hostile SD card (issues 10 and 24): how many games or confirmed actions are lost
without a word, and what the checks cost per action.

    .venv/bin/python benchmarks/corruption.py [TRIALS_PER_FAULT]          # default 130
    .venv/bin/python benchmarks/corruption.py --cost [ACTIONS]            # default 300
    .venv/bin/python benchmarks/corruption.py --start-check [GAMES]       # default 10000
    .venv/bin/python benchmarks/corruption.py --issue-10 [DB_TRIALS] [WAL_TRIALS]
    .venv/bin/python benchmarks/corruption.py --issue-36 [TRIALS_PER_CLASS] [KILLS]  # 30, 100
    PYTHONPATH=. .venv/bin/python benchmarks/corruption.py --all [SCALE]     # default 1

``--all`` (issue 36's "Done when"): every class, 2,286 trials at SCALE 1 (about 6-10 min on
a 2-core machine; SCALE multiplies each class's count): the faults of issue 24 (60 each),
the two files together (12 each), kills during the start (60), then the classes of
tests/support/issue36_classes.py: schema bytes (700: a byte written into the schema's
text in sqlite_master, half of them 0x80 or above, the start must move the file aside
and say it, and say it again at the next start), cut and swapped exports (150 of each of
cut_1, cut_5, swapped, edited: ``import`` refuses in one sentence, ``import --partial``
brings in what replays and says so), and another program on the database (50 runs of the
app in-process with its page for phones, 7 trials each: a hint, one kind of read, the
sqlite3 shell opening and closing the database read-write, the files as a power cut
leaves them counted by another process). One line per class, then the total: silent,
crashes, findings lost across restarts, actions lost; exit 1 if any is not 0.

Issue 36 (``--issue-36``): two files damaged together (tests/support/findings_trials.py
TWO_FILES), each opened three times: silent (a loss nothing said), findings lost across
restarts (said at the first start, not at the second), crashes; then KILLS openings killed
(kill -9) at a random moment in a child process, and whether the next start said the finding.

Issue 24 (the default): each trial is a data directory of 8 games (7 finished, one in
progress whose actions are in the -wal), then one fault of tests/support/faults.py FAULTS (random
bytes, truncation of each file at random lengths, deleted and edited rows, after a clean
stop or a kill -9), then the companion opens it, lists it and exports every game, compared
with what was confirmed before. Per fault: tried / intact (nothing lost) / named (a loss,
and a sentence said it) / silent (a loss nothing said) / crashes (an exception that is not
a sentence of ours). Then the cost of an action: time and bytes handed to write(), with
the chain and the ledger (run it on the code before them for the "before" figure).

Issue 10 (``--issue-10``):
Each database trial: 6 finished games, then 1-8 runs of random bytes anywhere in games.db
(tests/support/faults.py corrupt_trial). Each journal trial: finished games, a game in progress
whose actions are only in games.db-wal, the files copied as a crash leaves them, then random
bytes in the -wal (journal_trial). "Lost silently": nothing was said (no notice, no error,
no row marked damaged) and a game or a confirmed action is missing or different.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

#: The code measured: this checkout, or another one (``HANABI_ROOT=DIR``: the figures of the
#: code before a change, e.g. ``--cost`` on a checkout of main).
ROOT = Path(os.environ.get("HANABI_ROOT") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(ROOT))

from companion.storage import Storage  # noqa: E402
from engine import GameSetup  # noqa: E402
from engine.table import SimulatedTable  # noqa: E402


def faults(trials: int) -> None:
    from support.faults import FAULTS, fault_trial

    start = time.monotonic()
    print(f"{'fault':<11} {'tried':>5} {'intact':>6} {'named':>5} {'silent':>6} {'crashes':>7}")
    totals: Counter[str] = Counter()
    examples: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for fault in FAULTS:
            counts: Counter[str] = Counter()
            for seed in range(trials):
                trial = fault_trial(Path(tmp), fault, seed)
                counts[trial.verdict] += 1
                if trial.verdict in ("silent", "crash") and len(examples) < 10:
                    examples.append(f"{fault} seed {seed}: {trial}")
            totals.update(counts)
            totals["tried"] += trials
            print(
                f"{fault:<11} {trials:>5} {counts['intact']:>6} {counts['named']:>5}"
                f" {counts['silent']:>6} {counts['crash']:>7}"
            )
    print(
        f"{'all':<11} {totals['tried']:>5} {totals['intact']:>6} {totals['named']:>5}"
        f" {totals['silent']:>6} {totals['crash']:>7}"
    )
    for fault, what in FAULTS.items():
        print(f"  {fault}: {what}")
    for example in examples:
        print("  !", example[:300])
    print(f"elapsed: {time.monotonic() - start:.0f} s")


def _io() -> tuple[int, int]:
    """Bytes handed to write() and pwrite() by this process so far, and how many calls."""
    fields = dict(line.split(": ") for line in Path("/proc/self/io").read_text().splitlines())
    return int(fields["wchar"]), int(fields["syscw"])


def cost(actions: int) -> None:
    """Time and bytes written per action on this machine's disk (of the code imported)."""
    setup = GameSetup(players=3)
    with tempfile.TemporaryDirectory(dir=Path.home()) as tmp, Storage.open(Path(tmp)) as storage:
        done = 0
        elapsed = 0.0
        written = calls = 0
        game_id = storage.new_game(setup)
        table = SimulatedTable(setup, __import__("random").Random(1), skill=0.9)
        while done < actions:
            if table.game.is_over:
                storage.finish(game_id, table.game)
                game_id = storage.new_game(setup)
                table = SimulatedTable(setup, __import__("random").Random(done), skill=0.9)
            action = table.step()
            bytes_before, calls_before = _io()
            began = time.perf_counter()
            storage.append_action(game_id, action)
            elapsed += time.perf_counter() - began
            bytes_after, calls_after = _io()
            written += bytes_after - bytes_before
            calls += calls_after - calls_before
            done += 1
    print(
        f"per action ({actions} actions, the code of {ROOT}):"
        f" {elapsed / actions * 1000:.2f} ms, {written / actions:.0f} bytes written"
        f" in {calls / actions:.1f} write calls"
    )


def big_database(data_dir: Path, games: int) -> None:
    """``games`` finished games (40 simulated ones, repeated) and a game in progress of 20
    actions, written in one transaction, as the companion writes them (links and all)."""
    import random
    import sqlite3

    from companion.storage.chain import _chain_next, _chain_start
    from engine.log import action_to_dict, dump_line, setup_to_dict

    Storage.open(data_dir).close()
    rng = random.Random(1)
    samples = []
    for index in range(40):
        setup = GameSetup(players=rng.randint(2, 5))
        game = SimulatedTable(setup, random.Random(index), skill=0.9).play_out()
        samples.append((setup, [dump_line(action_to_dict(a)) for a in game.actions], game))
    db = sqlite3.connect(data_dir / "games.db", isolation_level=None)
    db.execute("BEGIN")
    for game_id in range(1, games + 1):
        setup, lines, game = samples[game_id % len(samples)]
        playing = game_id == games
        header = dump_line(setup_to_dict(setup))
        link = _chain_start(game_id, header.encode())
        rows = []
        for seq, line in enumerate(lines[:20] if playing else lines, start=1):
            link = _chain_next(link, line.encode())
            rows.append((game_id, seq, line, link))
        result = (
            (None, None, None, None)
            if playing
            else (
                game.score,
                game.rating and game.rating.value,
                game.outcome and game.outcome.value,
                game.end_reason and game.end_reason.value,
            )
        )
        db.execute(
            "INSERT INTO games (id, header, started_at, finished_at, players, variant, score,"
            " rating, outcome, end_reason, max_score, status, actions_count, chain)"
            " VALUES (?, ?, '2026-01-01T00:00:00Z', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                header,
                None if playing else "2026-01-01T01:00:00Z",
                setup.players,
                setup.options.code(),
                *result,
                setup.max_score,
                "playing" if playing else "over",
                len(rows),
                link,
            ),
        )
        db.executemany("INSERT INTO actions (game_id, seq, line, chain) VALUES (?, ?, ?, ?)", rows)
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def start_check(games: int) -> None:
    """What the checks at start cost on a database of ``games`` games (best of 3)."""
    import sqlite3

    with tempfile.TemporaryDirectory(dir=Path.home()) as tmp:
        data_dir = Path(tmp)
        big_database(data_dir, games)
        size = (data_dir / "games.db").stat().st_size / 1e6
        db = sqlite3.connect(data_dir / "games.db")
        figures = []
        for pragma in ("quick_check", "integrity_check"):
            best = min(
                _timed(lambda pragma=pragma: db.execute(f"PRAGMA {pragma}").fetchall())
                for _ in range(3)
            )
            figures.append(f"{pragma} {best * 1000:.0f} ms")
        db.close()
        opening = min(_timed(lambda: Storage.open(data_dir).close()) for _ in range(3))
        with Storage.open(data_dir) as storage:
            resumed = min(_timed(storage.unfinished) for _ in range(3))
        print(
            f"start checks at {games} games ({size:.0f} MB): {', '.join(figures)};"
            f" Storage.open (quick_check included) {opening * 1000:.0f} ms; the resumed"
            f" game's rows and chain {resumed * 1000:.1f} ms"
        )


def _timed(work: object) -> float:
    began = time.perf_counter()
    work()  # type: ignore[operator]
    return time.perf_counter() - began


def main() -> None:
    logging.getLogger("hanabi-companion").setLevel(logging.ERROR)  # the trials' warnings
    if len(sys.argv) > 1 and sys.argv[1] == "--start-check":
        start_check(int(sys.argv[2]) if len(sys.argv) > 2 else 10_000)
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--cost":
        cost(int(sys.argv[2]) if len(sys.argv) > 2 else 300)
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--all":
        from corruption_all import every_class

        sys.exit(every_class(float(sys.argv[2]) if len(sys.argv) > 2 else 1.0))
    if len(sys.argv) > 1 and sys.argv[1] == "--issue-36":
        issue_36(sys.argv[2:])
        return
    if len(sys.argv) <= 1 or sys.argv[1] != "--issue-10":
        faults(int(sys.argv[1]) if len(sys.argv) > 1 else 130)
        cost(300)
        return
    issue_10(sys.argv[2:])


def issue_10(args: list[str]) -> None:
    from support.faults import corrupt_trial, journal_trial

    db_trials = int(args[0]) if args else 600
    wal_trials = int(args[1]) if len(args) > 1 else 150
    start = time.monotonic()
    kinds: Counter[str] = Counter()
    games_lost = trials_losing = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(db_trials):
            trial = corrupt_trial(Path(tmp), seed)
            if trial.reported:
                kinds[
                    {
                        "opening": "an error at opening (file kept in place)",
                        "notice": "damaged file renamed aside, notice at opening",
                        "history": "history: one-sentence error (file kept in place)",
                        "check": "the whole-file check after the first frame (file kept in place)",
                    }[trial.said_by or "notice"]
                ] += 1
                if not trial.kept_aside:
                    kinds["REPORTED BUT NOT KEPT"] += 1
            elif trial.damaged_rows:
                kinds["games marked damaged in the history"] += 1
            else:
                kinds["no visible change"] += 1
            if trial.silently_lost:
                trials_losing += 1
                games_lost += len(trial.silently_lost)
    print(
        f"games.db: {db_trials} corrupt databases tried, {trials_losing} lost games silently"
        f" ({games_lost} games)"
    )
    for kind, count in kinds.most_common():
        print(f"   {count:>4}  {kind}")
    kinds.clear()
    actions_lost = wal_losing = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(wal_trials):
            journal = journal_trial(Path(tmp), seed)
            if journal.reported:
                kinds["damage reported, -wal copy kept" if journal.kept_aside else "reported"] += 1
            elif journal.recovered == journal.confirmed:
                kinds["every confirmed action recovered"] += 1
            if journal.silently_lost:
                wal_losing += 1
                actions_lost += journal.silently_lost
    print(
        f"games.db-wal: {wal_trials} corrupt journals tried, {wal_losing} lost actions silently"
        f" ({actions_lost} actions)"
    )
    for kind, count in kinds.most_common():
        print(f"   {count:>4}  {kind}")
    print(f"elapsed: {time.monotonic() - start:.0f} s")


def issue_36(args: list[str]) -> None:
    """Two files together, and kills during the start (issue 36)."""
    from support.findings_trials import TWO_FILES, kill_trials, two_file_trial

    trials = int(args[0]) if args else 30
    kills = int(args[1]) if len(args) > 1 else 100
    start = time.monotonic()
    print(
        f"{'two files':<22} {'tried':>5} {'intact':>6} {'named':>5} {'silent':>6} {'crashes':>7}"
        f" {'lost across restarts':>21}"
    )
    totals: Counter[str] = Counter()
    examples: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for fault in TWO_FILES:
            counts: Counter[str] = Counter()
            for seed in range(trials):
                trial = two_file_trial(Path(tmp), fault, seed)
                counts[trial.verdict] += 1
                counts["across"] += bool(trial.lost_across_restarts)
                if (trial.verdict in ("silent", "crash") or trial.lost_across_restarts) and len(
                    examples
                ) < 10:
                    examples.append(f"{fault} seed {seed}: {trial}")
            totals.update(counts)
            totals["tried"] += trials
            print(
                f"{fault:<22} {trials:>5} {counts['intact']:>6} {counts['named']:>5}"
                f" {counts['silent']:>6} {counts['crash']:>7} {counts['across']:>21}"
            )
        print(
            f"{'all':<22} {totals['tried']:>5} {totals['intact']:>6} {totals['named']:>5}"
            f" {totals['silent']:>6} {totals['crash']:>7} {totals['across']:>21}"
        )
        for fault, what in TWO_FILES.items():
            print(f"  {fault}: {what}")
        lost, during = kill_trials(Path(tmp) / "kills", kills)
    print(
        f"kills during the start: {kills} tried, {during} inside the opening,"
        f" {len(lost)} findings lost at the next start"
    )
    for example in [*examples, *lost][:10]:
        print("  !", example[:300])
    print(
        f"issue 36: {totals['silent']} silent, {totals['crash']} crashes,"
        f" {totals['across'] + len(lost)} findings lost across restarts"
    )
    print(f"elapsed: {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
