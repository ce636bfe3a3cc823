"""``benchmarks/corruption.py --all [SCALE]``: every fault class of issues 24 and 36, each
trial judged by the same rules, one line per class and a total (issue 36's "Done when").

Run through corruption.py (which puts tests/ and the code measured on sys.path).
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from support.issue36_classes import ClassTrial, class_counts

#: Trials per class at SCALE 1 (the second reader: runs of the app, 7 trials each).
FAULTS_EACH, TWO_FILES_EACH, KILLS, SCHEMA, EXPORTS_EACH, READER_RUNS = 60, 12, 60, 700, 150, 50

HEAD = (
    f"{'class':<24} {'tried':>5} {'intact':>6} {'named':>5} {'silent':>6} {'crashes':>7}"
    f" {'lost across':>11} {'actions lost':>12}"
)


def _line(name: str, counts: dict[str, int]) -> str:
    return (
        f"{name:<24} {counts['tried']:>5} {counts['intact']:>6} {counts['named']:>5}"
        f" {counts['silent']:>6} {counts['crash']:>7} {counts['across']:>11}"
        f" {counts['actions']:>12}"
    )


def _from_fault(fault: str, seed: int, trial: object) -> ClassTrial:
    """A trial of the older classes (FaultTrial, TwoFileTrial) in the common form."""
    verdict = trial.verdict  # type: ignore[attr-defined]
    common = ClassTrial(fault, seed, crash=str(getattr(trial, "crash", "") or ""))
    if verdict == "silent":
        common.silent = str(trial)
    elif verdict == "named":
        common.said = "named"
    common.lost_across = list(getattr(trial, "lost_across_restarts", []))
    return common


def every_class(scale: float = 1.0) -> int:
    """Run them all; 1 if any trial was silent, crashed, lost a finding or an action."""
    from support.faults import FAULTS, fault_trial
    from support.findings_trials import TWO_FILES, kill_trials, two_file_trial
    from support.issue36_classes import (
        EXPORT_CHANGES,
        export_trial,
        finished_exports,
        schema_offsets,
        schema_trial,
        second_reader_run,
        stored_table,
    )

    def count(base: int) -> int:
        return max(1, round(base * scale))

    began = time.monotonic()
    print(HEAD, flush=True)
    total: dict[str, int] = {}
    problems: list[str] = []

    def report(name: str, trials: list[ClassTrial]) -> None:
        counts = class_counts(trials)
        for key, value in counts.items():
            total[key] = total.get(key, 0) + value
        print(_line(name, counts), flush=True)
        for trial in trials:
            if trial.verdict in ("silent", "crash") or trial.lost_across:
                problems.append(f"{name} seed {trial.seed} ({trial.kind}): {trial}"[:400])

    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        for fault in FAULTS:
            trials = [
                _from_fault(fault, s, fault_trial(tmp, fault, s)) for s in range(count(FAULTS_EACH))
            ]
            report(fault, trials)
        for fault in TWO_FILES:
            done = [two_file_trial(tmp / "two", fault, s) for s in range(count(TWO_FILES_EACH))]
            report(fault, [_from_fault(fault, s, t) for s, t in enumerate(done)])
        kills = count(KILLS)
        try:
            lost, _ = kill_trials(tmp / "kills", kills)
            trials = [ClassTrial("kill", s, said="named") for s in range(kills)]
            for trial, what in zip(trials, lost, strict=False):
                trial.lost_across = [what]
        except Exception as error:  # a crash of the next start
            trials = [ClassTrial("kill", 0, crash=f"{type(error).__name__}: {error}")]
        report("kill-during-start", trials)
        table, exports = stored_table(tmp / "schema-table")
        offsets = schema_offsets(table)
        rng = random.Random(36)
        report(
            "schema-bytes",
            [
                schema_trial(tmp, table, exports, *rng.choice(offsets), s)
                for s in range(count(SCHEMA))
            ],
        )
        texts = finished_exports(tmp / "exports")
        for how in EXPORT_CHANGES:
            trials = [export_trial(tmp, texts, how, s) for s in range(count(EXPORTS_EACH))]
            report(f"export-{how}", trials)
        runs: list[ClassTrial] = []
        for seed in range(count(READER_RUNS)):
            runs.extend(_guarded(lambda seed=seed: second_reader_run(tmp, seed), seed))
        report("second-reader", runs)
    print(_line("all", total))
    for problem in problems[:20]:
        print("  !", problem)
    missed = total["silent"] + total["crash"] + total["across"] + total["actions"]
    print(
        f"issue 36, {total['tried']} trials: {total['silent']} silent, {total['crash']} crashes,"
        f" {total['across']} findings lost across restarts, {total['actions']} actions lost to"
        f" another program opening the database; elapsed {time.monotonic() - began:.0f} s"
    )
    return 1 if missed else 0


def _guarded(run: Callable[[], list[ClassTrial]], seed: int) -> list[ClassTrial]:
    """A run of the app: its trials, or one crash if the app itself did not start."""
    try:
        return run()
    except Exception as error:
        return [ClassTrial("start", seed, crash=f"{type(error).__name__}: {error}")]
