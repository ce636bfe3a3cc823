"""Write ``engine/hanab_live_ids.json``: Hanab Live's number of each variant in our table.

    .venv/bin/python benchmarks/hanab_live_crosscheck/variant_ids.py HANAB_LIVE [OUT]

Hanab Live's replay link names its variant by number (``packages/game/src/json/
variants.json``, each variant's ``id``), not by name. This keeps the numbers of the
variants ``engine/variants_table.json`` holds, one line each, in the table's order: data
(names and numbers) read from a checkout of Hanab Live (GPL-3.0), no code of it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str]) -> int:
    """Read the ids from the checkout ``argv[0]`` and write them (to ``argv[1]`` if given)."""
    source = Path(argv[0])
    variants = json.loads((source / "packages/game/src/json/variants.json").read_text("utf-8"))
    ids = {variant["name"]: variant["id"] for variant in variants}
    table = json.loads((ROOT / "engine/variants_table.json").read_text("utf-8"))
    commit = subprocess.run(
        ["git", "-C", str(source), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    # A snapshot without git: the same commit as the table it completes.
    where = f"github.com/Hanabi-Live/hanabi-live at {commit}" if commit else table["source"]
    lines = [f"    {json.dumps(name)}: {ids[name]}" for name in table["variants"]]
    text = f'{{\n  "source": {json.dumps(where)},\n  "ids": {{\n' + ",\n".join(lines) + "\n  }\n}\n"
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "engine/hanab_live_ids.json"
    out.write_text(text, encoding="utf-8")
    print(f"{len(lines)} variant ids written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
