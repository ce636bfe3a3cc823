"""Our referee against Hanab Live's own game code, after every action of thousands of games.

The fixture (``tests/data/hanab_live/games.jsonl.gz``) was made by
``benchmarks/hanab_live_crosscheck/driver.mjs``: random games in every Hanab Live variant a
printed deck carries, played through Hanab Live's game package, each game one log in our
format (hand memory on, the variant by its Hanab Live name) and Hanab Live's state after the
deal and after every action. Each game is replayed through ``engine.log`` and ``engine.game``
and compared after every action: hint tokens, fuses, draw pile, turn, player to act,
fireworks, discard pile, score, max score, pace, and what every slot may still be. The
differences Hanab Live has by design are accounted for as decision 0111 says; any other is
a failure, and so is a game whose header the engine refuses.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from engine.cards import Card, Color
from engine.errors import IllegalAction
from engine.game import Game
from engine.log import LogFormatError, parse_log, summary

FIXTURE = Path(__file__).parent.parent / "data" / "hanab_live" / "games.jsonl.gz"
FIXTURE_FORMAT = "hanab-live-crosscheck/1"
MIN_GAMES = 5000
MIN_PER_FAMILY = 20

#: The Hanab Live variants our printed-book options already play, and those options: the same
#: suits and copies, the same clue rules (a Rainbow card answers every colour clue and cannot be
#: named; Black and Teal are suits of their own colour, named ``multicolor`` in our logs).
PRINTED_BOOK: dict[str, dict[str, Any]] = {
    "No Variant": {},
    "6 Suits": {"multicolor": "full"},
    "Black (6 Suits)": {"multicolor": "short"},
    "Rainbow (6 Suits)": {"multicolor": "full", "wild_multicolor": True},
    "Dark Rainbow (6 Suits)": {"multicolor": "short", "wild_multicolor": True},
}

#: Hanab Live's reasons for a game's end that come before ours (decision 0111): the score
#: reached the most its cards allow, or no card still needed can be played by a player who has
#: a turn left (Hanab Live sees the hands; the referee does not).
EARLY_ENDS = frozenset({"max_score", "no_playable"})
_BASE32 = "0123456789abcdefghijklmnopqrstuv"


@cache
def fixture() -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """The fixture's first line (the variants, their letters and families) and its games."""
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as lines:
        meta = json.loads(next(lines))
        games = tuple(json.loads(line) for line in lines)
    assert meta["fixture"] == FIXTURE_FORMAT
    return meta, games


def log_text(record: dict[str, Any], header: dict[str, Any] | None = None) -> str:
    """The game's log in our format; ``header`` replaces its header's variant when given."""
    lines = list(record["log"])
    if header is not None:
        first = {key: value for key, value in lines[0].items() if key != "variant"}
        lines[0] = {**first, **header}
    return "".join(json.dumps(line) + "\n" for line in lines)


class _View:
    """Reads one game's state as Hanab Live's snapshot says it, for one variant's suit letters."""

    def __init__(self, letters: str) -> None:
        self.colors = [Color.from_letter(letter) for letter in letters]
        self.suits = [
            [Card(Color.from_letter(letter), rank) for rank in range(1, 6)] for letter in letters
        ]
        self._slots: dict[Any, str] = {}

    def slot(self, knowledge: Any) -> str:
        """A slot's possible cards (``SlotKnowledge.allows``) as the fixture writes them: one
        character per suit (Hanab Live's order), the ranks possible (bit rank − 1) in base 32."""
        text = self._slots.get(knowledge)
        if text is None:
            text = "".join(
                _BASE32[sum(1 << (card.rank - 1) for card in suit if knowledge.allows(card))]
                for suit in self.suits
            )
            self._slots[knowledge] = text
        return text

    def ours(self, game: Game) -> dict[str, Any]:
        """Our engine's state, in the snapshot's keys and units (hint tokens as the engine
        counts them: halves in Clue Starved, as Hanab Live)."""
        position = game.position
        over = game.is_over
        return {
            "clues": position.hints,
            "strikes": position.fuses,
            "deck": position.deck,
            "turn": position.turns,
            "current": game.current_player,
            "stacks": "".join(str(position.fireworks[color]) for color in self.colors),
            "discards": " ".join(sorted(card.code() for card in position.discards)),
            "score": game.score,
            "max": None if over else game.max_score,
            "pace": None if over else game.pace,
            "plays_left": 0 if over else game.plays_left(),
            "hands": [
                [self.slot(slot) for slot in game.hand_memory(seat)]
                for seat in range(game.setup.players)
            ],
        }


def _compare(ours: dict[str, Any], theirs: dict[str, Any], acted: int | None) -> Iterator[str]:
    """Where our state differs from Hanab Live's, but for the differences of decision 0111;
    ``acted`` is the seat that took the action (None after the deal)."""
    theirs = dict(theirs)
    end = theirs.pop("end", None)
    over = ours["current"] is None
    if end is not None and over and acted is not None and theirs["deck"] == ours["deck"] - 1:
        # Hanab Live draws after the move that ends the game: one card more in the actor's hand.
        theirs["deck"] += 1
        theirs["hands"] = [
            hand[1:] if seat == acted else hand for seat, hand in enumerate(theirs["hands"])
        ]
    if end in EARLY_ENDS and not over:
        # Hanab Live ends when its cards allow no more points; the referee, not seeing the
        # hands, plays on (the log ends there).
        if end == "max_score" and theirs["score"] != theirs["max"]:
            yield f"Hanab Live ended at its maximum {theirs['max']} with {theirs['score']} points"
        theirs["current"] = ours["current"]
    for key in ("clues", "strikes", "deck", "turn", "current", "stacks", "discards", "score"):
        if ours[key] != theirs[key]:
            yield f"{key}: ours {ours[key]!r}, Hanab Live's {theirs[key]!r} (its end: {end})"
    if ours["hands"] != theirs["hands"]:
        yield f"cards by seat and slot: ours {ours['hands']}, Hanab Live's {theirs['hands']}"
    if not over:
        # Hanab Live's max score counts the cards left, ours also the turns left to play them.
        expected = min(theirs["max"], ours["score"] + ours["plays_left"])
        if ours["max"] != expected:
            yield f"max score: ours {ours['max']}, Hanab Live's {theirs['max']} (cards): {expected}"
        # Its pace goes below zero; ours stops at zero (nothing more can be thrown away).
        if theirs["pace"] is not None and ours["pace"] != max(0, theirs["pace"]):
            yield f"pace: ours {ours['pace']}, Hanab Live's {theirs['pace']}"


def whole_states(columns: dict[str, Any]) -> list[dict[str, Any]]:
    """Hanab Live's states, one dict per state, from the fixture's columns (one list per key;
    the hands, after the first state, only where they changed, by seat; ``end`` the last
    state's reason to end, if any)."""
    count = len(columns["turn"])
    keys = [key for key in columns if key not in ("hands", "end")]
    states = [{key: columns[key][index] for key in keys} for index in range(count)]
    hands = columns["hands"][0]
    for index, state in enumerate(states):
        if index:
            hands = list(hands)
            for seat, hand in columns["hands"][index].items():
                hands[int(seat)] = hand
        state["hands"] = hands
    if columns.get("end") is not None:
        states[-1]["end"] = columns["end"]
    return states


def differences(
    record: dict[str, Any], variant: dict[str, Any], header: dict[str, Any] | None = None
) -> list[str]:
    """Every difference between our replay of a fixture game and Hanab Live's states, each
    naming the action after which it was seen (the first action with any ends the replay).
    ``variant`` is the fixture's entry for the game's variant (its letters, its families)."""
    try:
        log = parse_log(log_text(record, header))
    except LogFormatError as error:
        return [f"the header is refused: {error.reason}"]
    game = Game(log.setup)
    view = _View(variant["letters"])
    states = whole_states(record["hl"])
    found = [f"after the deal: {d}" for d in _compare(view.ours(game), states[0], None)]
    for number, action in enumerate(log.actions, start=1):
        acted = game.position.current
        try:
            game.fold(action)
        except IllegalAction as error:
            return [*found, f"action {number} is refused: {error}"]
        found.extend(
            f"after action {number}: {d}" for d in _compare(view.ours(game), states[number], acted)
        )
        if found:
            return found  # one action's differences are enough to look at
    # What ``replay`` prints counts whole hint tokens (7.5 in Clue Starved, Hanab Live's half).
    tokens = states[-1]["clues"] / (2 if "flag:clueStarved" in variant["families"] else 1)
    if summary(game)["hints"] != tokens:
        found.append(f"replay's hint tokens: {summary(game)['hints']}, Hanab Live's {tokens}")
    return found


def _kind(difference: str) -> str:
    """What a difference is about (its field, or the refusal's words), to count them."""
    if difference.startswith("after "):
        return difference.split(": ")[1]
    return difference.partition(" is refused: ")[2][:70] or difference[:70]


def _report(failures: list[tuple[int, str, list[str]]], games: int) -> str:
    kinds = Counter(_kind(found[0]) for _, _, found in failures)
    lines = [f"{len(failures)} of {games} games differ from Hanab Live:"]
    lines += [f"  {count} × {kind}" for kind, count in kinds.most_common(10)]
    for index, variant, found in failures[:5]:
        lines.append(f"game {index} ({variant}): " + "; ".join(found[:3]))
    return "\n".join(lines)


def test_fixture_covers_every_variant_and_family() -> None:
    """At least 5,000 games, at least one in every variant listed and 20 in every family."""
    meta, games = fixture()
    played = Counter(record["log"][0]["variant"] for record in games)
    assert len(games) >= MIN_GAMES
    assert set(played) == set(meta["variants"])
    per_family: Counter[str] = Counter()
    for name, count in played.items():
        for family in meta["variants"][name]["families"]:
            per_family[family] += count
    thin = {family: count for family, count in per_family.items() if count < MIN_PER_FAMILY}
    assert not thin, f"families with fewer than {MIN_PER_FAMILY} games: {thin}"
    # the families are what decision 0111 says: special suit, size, special rank, flag, name
    kinds = {family.split(":")[0] for family in per_family}
    assert kinds == {"suit", "suits", "special", "flag", "name"}
    assert sum(1 for record in games if record["log"][0].get("empty_clues")) >= MIN_PER_FAMILY
    # every way a game ends, and a pace below zero, happen: each accounting of 0111 is used
    ends = Counter(record["hl"].get("end") for record in games)
    assert set(ends) == {"strikeout", "final_round", *EARLY_ENDS}
    assert any(pace < 0 for record in games for pace in record["hl"]["pace"] if pace is not None)


def test_every_game_matches_hanab_live() -> None:
    """Every fixture game, replayed by the engine with its Hanab Live header, matches Hanab
    Live's state after every action (but for decision 0111's differences)."""
    meta, games = fixture()
    failures = []
    for index, record in enumerate(games):
        variant = record["log"][0]["variant"]
        found = differences(record, meta["variants"][variant])
        if found:
            failures.append((index, variant, found))
    assert not failures, _report(failures, len(games))


def test_printed_book_variants_match_hanab_live() -> None:
    """Our printed-book options play their Hanab Live namesakes exactly: the fixture's games
    in those variants, replayed with our own options in the header instead of the name."""
    meta, games = fixture()
    failures = []
    checked: Counter[str] = Counter()
    for index, record in enumerate(games):
        header = record["log"][0]
        options = PRINTED_BOOK.get(header["variant"])
        if options is None:
            continue
        checked[header["variant"]] += 1
        found = differences(record, meta["variants"][header["variant"]], options)
        if found:
            failures.append((index, header["variant"], found))
    assert set(checked) == set(PRINTED_BOOK), f"fixture games by variant: {dict(checked)}"
    assert not failures, _report(failures, sum(checked.values()))


def test_a_state_changed_by_one_is_a_difference() -> None:
    """The comparison sees a change in any one of Hanab Live's values after one action."""
    meta, games = fixture()
    record = next(r for r in games if r["log"][0]["variant"] == "Rainbow (6 Suits)")
    variant, options = meta["variants"]["Rainbow (6 Suits)"], PRINTED_BOOK["Rainbow (6 Suits)"]
    assert differences(record, variant, options) == []
    changes: dict[str, Callable[[Any], Any]] = {
        "clues": lambda value: value - 1,
        "strikes": lambda value: value + 1,
        "deck": lambda value: value - 1,
        "turn": lambda value: value + 1,
        "current": lambda value: (value + 1) % record["log"][0]["players"],
        "stacks": lambda value: "1" + value[1:] if value[0] != "1" else "2" + value[1:],
        "discards": lambda value: (value + " R1").strip(),
        "score": lambda value: value + 1,
        "max": lambda value: value - 1,
        "pace": lambda value: value - 1,
        "hands": lambda value: {"1": ["v" * len(variant["letters"])] * 9},
    }
    for key, change in changes.items():
        columns = {**record["hl"], key: list(record["hl"][key])}
        columns[key][8] = change(columns[key][8])
        found = differences({**record, "hl": columns}, variant, options)
        assert found and found[0].startswith("after action 8: "), (key, found)
