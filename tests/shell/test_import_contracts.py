"""The layers' import contracts (pyproject.toml, ``[tool.importlinter]``), run by
import-linter as ``.ci/run`` runs them: kept by the tree, and broken by a copy of it
that takes one forbidden import, so a contract that could never fail would show here."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = Path(sys.executable).with_name("lint-imports")


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    if not LINT.exists():
        pytest.fail(f"{LINT} is missing: pip install -e '.[test]' installs import-linter")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(LINT), "--no-cache"], cwd=tree, env=env, capture_output=True, text=True, timeout=120
    )


def copy_of_the_tree(target: Path) -> Path:
    for name in ("engine", "hardware", "companion"):
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", target / "pyproject.toml")
    return target


def test_the_tree_keeps_every_contract():
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 broken" in done.stdout, done.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("engine/cards.py", "import companion.core.i18n", "The engine imports nothing of ours"),
        ("engine/cards.py", "import sqlite3", "The engine imports nothing of ours"),
        ("hardware/events.py", "import companion.storage", "Hardware turns devices"),
        ("companion/web/address.py", "import companion.panel.keys", "import only downward"),
        ("companion/core/words.py", "import companion.shell.config", "import only downward"),
        ("companion/storage/__init__.py", "import companion.core.i18n", "import only downward"),
        ("companion/core/words.py", "import pygame", "Core and storage"),
        ("companion/panel/screens/kit.py", "import companion.panel.display", "No import cycle"),
    ],
)
def test_a_forbidden_import_breaks_its_contract(tmp_path, module, line, contract):
    tree = copy_of_the_tree(tmp_path)
    target = tree / module
    if not target.exists():  # storage may still be one module
        target = tree / module.replace("/__init__.py", ".py")
    target.write_text(target.read_text() + f"\n{line}  # broken on purpose\n")
    done = lint(tree)
    assert done.returncode != 0, done.stdout
    assert contract in done.stdout, done.stdout
