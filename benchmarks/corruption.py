"""Random bytes in a real games database and in its journal (issue 10, item 4): how many
games or confirmed actions are lost without a word.

    .venv/bin/python benchmarks/corruption.py [DB_TRIALS] [WAL_TRIALS]   # default 600 150

Each database trial: 6 finished games, then 1-8 runs of random bytes anywhere in games.db
(tests/faults.py corrupt_trial). Each journal trial: finished games, a game in progress
whose actions are only in games.db-wal, the files copied as a crash leaves them, then random
bytes in the -wal (journal_trial). "Lost silently": nothing was said (no notice, no error,
no row marked damaged) and a game or a confirmed action is missing or different.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from faults import corrupt_trial, journal_trial  # noqa: E402


def main() -> None:
    db_trials = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    wal_trials = int(sys.argv[2]) if len(sys.argv) > 2 else 150
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


if __name__ == "__main__":
    main()
