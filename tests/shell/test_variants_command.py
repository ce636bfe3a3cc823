"""The ``variants`` command: what a printed deck can carry, by Hanab Live's names (issue 35)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine.variants import table_source, variant_names

ROOT = Path(__file__).resolve().parents[2]


def variants(*words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "variants", *words],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_variants_lists_every_playable_variant_and_prints_the_count():
    run = variants()
    assert run.returncode == 0, run.stderr
    *lines, count = run.stdout.splitlines()
    _, kept, total = table_source()
    assert (
        count == f"{kept:,} of Hanab Live's {total:,} variants can be played with a printed deck."
    )
    assert 1600 < kept < 1800 and total == 2426
    assert [line.split("  ")[0] for line in lines] == list(variant_names())
    by_name = {line.split("  ")[0]: line.split("  ")[-1].strip() for line in lines}
    assert by_name["No Variant"] == "R Y G B W=Purple"
    assert by_name["Rainbow (4 Suits)"] == "R G B M=Rainbow"
    assert by_name["6 Suits"] == "R Y G B W=Purple M=Teal"


def test_variants_with_words_keeps_the_names_holding_every_word_in_any_case():
    run = variants("MUDDY", "rainbow-ones", "4")
    assert run.returncode == 0, run.stderr
    *lines, count = run.stdout.splitlines()
    names = [line.split("  ")[0] for line in lines]
    assert "Muddy-Rainbow-Ones (4 Suits)" in names
    assert all("muddy" in name.lower() and "(4 Suits)" in name for name in names)
    kept = table_source()[1]
    said = f'{len(names)} of the {kept:,} variants a printed deck can carry match "MUDDY'
    assert count == said + ' rainbow-ones 4".'


def test_variants_matching_nothing_says_so_and_exits_1_as_grep_does():
    run = variants("Up or Down")
    assert run.returncode == 1
    assert run.stdout.startswith('No variant a printed deck can carry matches "Up or Down"')
