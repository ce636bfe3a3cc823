"""Write ``engine/variants_table.json`` from Hanab Live's ``suits.json`` and ``variants.json``.

    .venv/bin/python benchmarks/variants_table.py HANAB_LIVE [OUT]

``HANAB_LIVE`` is a copy of github.com/Hanabi-Live/hanabi-live: a checkout, or a
bare git directory (read at its ``HEAD``). The script reads the two JSON files of
``packages/game/src/json``, keeps the variants a printed deck can carry (GAME-LOG.md,
"Variants by name": Hanab Live's plain suits Red, Yellow, Green, Blue and Purple on
the printed R Y G B W cards, at most one other suit on the multicolour cards, ten of
them for a normal suit and five for a one-of-each suit; no START card, no card with
more copies than a printed suit has), and writes them as data, one JSON object a
line: each suit's name, printed letter and clue rules, each variant's suits and rule
flags (named as the fields of ``engine.suits.Suit`` and ``engine.variants.Variant``),
and the names left out with the reason (a key ``engine/variants.py`` words). It
prints how many it kept. Hanab Live is GPL-3.0: this is its data (names, suits,
flags), not its code; the rules that read the data are ours (``engine/variants.py``).

Kept here, in ``benchmarks/`` (the scripts run by hand against outside code, as
``crosscheck_hle.py`` is), not in ``engine/``: the engine does no I/O, and the app
never needs Hanab Live's files, only the table written from them. The table is a
JSON file rather than a Python module: it is data (about 2,400 lines, one variant a
line), read once when a variant is named (docs/decisions/0105-variants-as-data.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

JSON_DIR = "packages/game/src/json"

#: Hanab Live's plain suits and the printed cards that stand for them; any other suit
#: (Teal, or a special suit) is played with the multicolour cards, ``M``.
PRINTED_LETTERS = {"Red": "R", "Yellow": "Y", "Green": "G", "Blue": "B", "Purple": "W"}
OTHER_LETTER = "M"
#: Copies of each rank in a printed suit (1 to 5); the multicolour cards of the Deluxe
#: and Avalanche boxes are a whole suit too (the first box has one of each).
PRINTED_COPIES = (3, 2, 2, 2, 1)
REVERSED = " Reversed"

#: Why a variant is left out: the keys of ``engine.variants.LEFT_OUT_REASONS``.
REASON_KEYS = (
    "start_cards",
    "two_special_suits",
    "shared_colors",
    "copies",
    "other_rules",
    "reversed",
)


def read_json(source: Path, name: str) -> Any:
    """One of Hanab Live's JSON files, from a checkout or a bare git directory."""
    checkout = source / JSON_DIR / name
    if checkout.exists():
        return json.loads(checkout.read_text(encoding="utf-8"))
    text = subprocess.run(
        ["git", f"--git-dir={source}", "show", f"HEAD:{JSON_DIR}/{name}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(text)


def commit_of(source: Path) -> str:
    """The commit the files were read at (for the table's header), or ``unknown``."""
    git_dir = source if (source / "HEAD").is_file() else source / ".git"
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", "rev-parse", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


def suit_rules(suit: dict[str, Any]) -> dict[str, Any]:
    """A suit's name, printed letter, clue rules and copies as the table's fields (the
    fields of ``engine.suits.Suit``; an ordinary suit has only its name and letter)."""
    rules: dict[str, Any] = {
        "name": suit["name"],
        "color": PRINTED_LETTERS.get(suit["name"], OTHER_LETTER),
    }
    if suit.get("allClueColors"):
        rules["colors"] = "all"
    elif suit.get("noClueColors"):
        rules["colors"] = "none"
    elif suit.get("prism"):
        rules["colors"] = "prism"
    elif len(suit.get("clueColors", [suit["name"]])) != 1:
        raise ValueError(f"{suit['name']} is touched by several colours")
    if suit.get("allClueRanks"):
        rules["ranks"] = "all"
    elif suit.get("noClueRanks"):
        rules["ranks"] = "none"
    if suit.get("oneOfEach"):
        rules["one_of_each"] = True
    if suit.get("inverted"):
        rules["inverted"] = True
    return rules


#: Hanab Live's variant flags (true or absent) and the fields of ``engine.variants.Variant``.
FLAGS = {
    "scarceOnes": "scarce_ones",
    "clueStarved": "clue_starved",
    "colorCluesTouchNothing": "color_clues_touch_nothing",
    "rankCluesTouchNothing": "rank_clues_touch_nothing",
    "alternatingClues": "alternating_clues",
    "cowAndPig": "cow_and_pig",
    "duck": "duck",
    "oddsAndEvens": "odds_and_evens",
    "synesthesia": "synesthesia",
    "throwItInAHole": "throw_it_in_a_hole",
    "funnels": "funnels",
    "chimneys": "chimneys",
}


def variant_rules(variant: dict[str, Any], ids: dict[str, str]) -> dict[str, Any]:
    """A variant's suits (Hanab Live's suit ids) and rule flags as the table's fields (the
    fields of ``engine.variants.Variant``; absent: as in the base game)."""
    rules: dict[str, Any] = {"suits": [ids[name] for name in variant["suits"]]}
    special = variant.get("specialRank")
    if special is not None:
        rules["special_rank"] = special
        if variant.get("specialRankAllClueColors"):
            rules["special_colors"] = "all"
        elif variant.get("specialRankNoClueColors"):
            rules["special_colors"] = "none"
        if variant.get("specialRankAllClueRanks"):
            rules["special_ranks"] = "all"
        elif variant.get("specialRankNoClueRanks"):
            rules["special_ranks"] = "none"
        elif variant.get("specialRankDeceptive"):
            rules["special_ranks"] = "deceptive"
    if variant.get("criticalRank") is not None:
        rules["critical_rank"] = variant["criticalRank"]
    if "clueRanks" in variant:
        rules["clue_ranks"] = variant["clueRanks"]
    if "clueColors" in variant:
        if variant["clueColors"]:
            raise ValueError(f"{variant['name']} names its clue colours")
        rules["clue_colors"] = []
    for key, field in FLAGS.items():
        if variant.get(key):
            rules[field] = True
    return rules


def copies(suit: dict[str, Any], rank: int, variant: dict[str, Any], reversed_: bool) -> int:
    """Copies of a card in the variant's deck (Hanab Live's deck rules, as data)."""
    if suit.get("oneOfEach"):
        return 1
    if variant.get("criticalRank") == rank:
        return 1
    if variant.get("sudoku"):
        return 2
    if rank == 1:
        if variant.get("upOrDown") or reversed_:
            return 1
        return 2 if variant.get("scarceOnes") else 3
    if rank == 5:
        return 3 if reversed_ else 1
    return 2


def why_not(variant: dict[str, Any], suits: dict[str, dict[str, Any]]) -> str | None:
    """Why a printed deck cannot carry the variant (one of REASON_KEYS); None if it can."""
    names = variant["suits"]
    if variant.get("upOrDown"):
        return "start_cards"
    others = [name for name in names if name.removesuffix(REVERSED) not in PRINTED_LETTERS]
    if len(others) > 1 or len(names) > 6:
        return "two_special_suits"
    for name in others:  # its clue colour is its own, or it has none (rainbow, white, prism)
        suit = suits[name.removesuffix(REVERSED)]
        colors = suit.get("clueColors", [suit["name"]])
        special = any(suit.get(key) for key in ("allClueColors", "noClueColors", "prism"))
        if not special and (len(colors) != 1 or colors[0] in PRINTED_LETTERS):
            return "shared_colors"
    for name in names:
        base = name.removesuffix(REVERSED)
        for rank in range(1, variant.get("stackSize", 5) + 1):
            need = copies(suits[base], rank, variant, name != base)
            if need > PRINTED_COPIES[rank - 1]:
                return "copies"
    if variant.get("sudoku") or variant.get("stackSize", 5) != 5:
        return "other_rules"
    if any(name.endswith(REVERSED) for name in names):
        return "reversed"
    return None


def table_json(
    suits_json: list[dict[str, Any]], variants_json: list[dict[str, Any]], commit: str
) -> tuple[str, int]:
    """The table's JSON text (one suit, one variant a line), and how many variants it keeps."""
    suits = {suit["name"]: suit for suit in suits_json}
    kept: list[dict[str, Any]] = []
    left_out: dict[str, str] = {}
    for variant in variants_json:
        reason = why_not(variant, suits)
        if reason is None:
            kept.append(variant)
        else:
            left_out[variant["name"]] = reason
    used = [suit for suit in suits_json if any(suit["name"] in v["suits"] for v in kept)]
    ids = {suit["name"]: suit["id"] for suit in suits_json}

    def line(key: str, value: object) -> str:
        return f"    {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"

    def block(name: str, lines: list[str]) -> str:
        return f'  "{name}": {{\n' + ",\n".join(lines) + "\n  }"

    header = [
        f'  "source": {json.dumps(f"github.com/Hanabi-Live/hanabi-live at {commit}")}',
        '  "generated_by": "benchmarks/variants_table.py"',
        f'  "count": {len(kept)}',
        f'  "total": {len(variants_json)}',
    ]
    blocks = [
        block("suits", [line(suit["id"], suit_rules(suit)) for suit in used]),
        block("variants", [line(v["name"], variant_rules(v, ids)) for v in kept]),
        block("left_out", [line(name, reason) for name, reason in left_out.items()]),
    ]
    return "{\n" + ",\n".join(header + blocks) + "\n}\n", len(kept)


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    source = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("engine/variants_table.json")
    suits_json = read_json(source, "suits.json")
    variants_json = read_json(source, "variants.json")
    text, count = table_json(suits_json, variants_json, commit_of(source))
    out.write_text(text, encoding="utf-8")
    print(f"{count} of {len(variants_json)} Hanab Live variants can be played with a printed deck")
    print(f"written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
