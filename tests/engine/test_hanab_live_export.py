"""The export to Hanab Live, checked against what Hanab Live's own code saw (decision 0121).

``tests/data/hanab_live/exports.jsonl.gz`` was written by
``benchmarks/hanab_live_crosscheck/export_check.mjs`` (its README): for each game of
``tests/support/hanab_live_export.py`` it decoded our replay link with Hanab Live's
``expand``, found our JSON game again, and replayed the JSON with Hanab Live's game package
as its server would. Here our export is made again: the same link byte for byte, and our
engine's state where the export stops is the state Hanab Live reached.
"""

from __future__ import annotations

import gzip
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from support.hanab_live_export import exported, plans, play

from engine.actions import Hint
from engine.game import Game
from engine.hanab_live import (
    REPLAY_URL,
    NotExportable,
    hanab_live_game,
    replay_link,
    replay_url,
    variant_name,
)
from engine.options import GameOptions, Multicolor
from engine.reveal import Reveal, Reveals
from engine.setup import GameSetup
from engine.table import SimulatedTable

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "hanab_live" / "exports.jsonl.gz"


@cache
def fixture() -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """The fixture's first line and its games."""
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as lines:
        head, *games = (json.loads(line) for line in lines)
    return head, tuple(games)


def test_the_fixture_covers_hundreds_of_games_every_printed_set_and_every_kind_of_end():
    head, games = fixture()
    assert head["fixture"] == "hanab-live-export-check/1"
    assert [game["plan"] for game in games] == plans()
    assert len(games) >= 700
    variants = {game["plan"].get("variant") for game in games}
    assert len(variants) > 500
    printed = {
        (g["plan"]["multicolor"], g["plan"]["wild"]) for g in games if "multicolor" in g["plan"]
    }
    assert len(printed) == 5
    links = [game for game in games if game["url"] is not None]
    assert len(links) > 600 and all(game["expanded"] for game in links)
    assert all(game["hl"]["problems"] == [] and game["hl"]["over"] for game in games)
    strikes = {game["hl"]["strikes"] for game in games}
    assert strikes == {0, 1, 2, 3}


def _mismatches(recorded: dict[str, Any]) -> list[str]:
    """How our export of a recorded game differs from what Hanab Live saw (none: [])."""
    again = exported(recorded["plan"])
    out = []
    if again["url"] != recorded["url"]:
        out.append("the link differs")
    game, _ = play(recorded["plan"])
    data = again["json"]
    prefix = Game.replay(game.setup, game.actions[: len(data["actions"])])
    position = prefix.position
    letters = [suit.color.letter for suit in game.setup.rules.suits]
    deck = data["deck"]
    theirs = recorded["hl"]
    ours = {
        "score": prefix.fireworks_total,
        "stacks": "".join(str(position.fireworks[suit.color]) for suit in game.setup.rules.suits),
        "discards": sorted(card.code() for card in position.discards),
        "clues": position.hints,
        "strikes": position.fuses,
    }
    hanab_live = {
        **{key: theirs[key] for key in ("score", "stacks", "clues", "strikes")},
        "discards": sorted(
            f"{letters[deck[order]['suitIndex']]}{deck[order]['rank']}"
            for order in theirs["discards"]
        ),
    }
    out += [
        f"{key}: ours {ours[key]}, Hanab Live's {hanab_live[key]}"
        for key in ours
        if ours[key] != hanab_live[key]
    ]
    return out


def test_our_exports_are_byte_for_byte_the_links_hanab_live_replayed_to_the_same_end():
    _, games = fixture()
    wrong = {}
    for recorded in games:
        mismatches = _mismatches(recorded)
        if mismatches:
            wrong[json.dumps(recorded["plan"])] = mismatches
    assert wrong == {}


def _finished(options: GameOptions, seed: int = 3) -> tuple[Game, list[Reveal], SimulatedTable]:
    table = SimulatedTable(GameSetup(players=3, options=options), random.Random(seed))
    game = table.play_out()
    reveals = Reveals(game)
    if options.hand_memory:
        for seat, hand in enumerate(table.hands):
            reveals.add(Reveal(seat, tuple(reversed(hand))))
    return game, reveals.shown, table


def test_the_json_names_the_players_from_the_first_deals_the_whole_deck_and_maps_the_options():
    options = GameOptions(multicolor=Multicolor.FULL, wild_multicolor=True, hand_memory=True)
    game, reveals, _ = _finished(options)
    data = hanab_live_game(game, reveals)
    assert data["options"] == {"variant": "Rainbow (6 Suits)"}
    assert len(data["deck"]) == 60
    assert data["players"] == list(game.setup.names)
    assert replay_url(game, reveals).startswith(REPLAY_URL)
    empty = GameOptions(hand_memory=True, empty_clues=True)
    game, reveals, _ = _finished(empty)
    assert hanab_live_game(game, reveals)["options"] == {
        "variant": "No Variant",
        "emptyClues": True,
    }


def test_a_game_that_cannot_go_says_why_in_one_sentence():
    game, reveals, _ = _finished(GameOptions(hand_memory=True))
    with pytest.raises(NotExportable, match=r"^The hands are not shown, so the deal is not known$"):
        hanab_live_game(game, reveals[:-1])
    no_memory, _, _ = _finished(GameOptions())
    with pytest.raises(NotExportable, match=r"^Only a game with hand memory knows its deal"):
        hanab_live_game(no_memory, [])
    unfinished = Game(GameSetup(players=2, options=GameOptions(hand_memory=True)))
    with pytest.raises(NotExportable, match=r"^The game is not over yet$"):
        hanab_live_game(unfinished, [])
    timed = Game(GameSetup(players=2, options=GameOptions(timed_display=True, hand_memory=True)))
    with pytest.raises(NotExportable, match="no timed display"):
        variant_name(timed)
    crowning = Game(GameSetup(players=2, options=GameOptions(crowning_piece=True)))
    with pytest.raises(NotExportable, match="no crowning piece"):
        variant_name(crowning)


def test_a_link_keeps_no_option_so_a_game_with_an_empty_clue_has_none():
    for seed in range(1, 60):
        options = GameOptions(hand_memory=True, empty_clues=True)
        game, reveals, _ = _finished(options, seed)
        if any(type(a) is Hint and a.slots == () for a in game.actions):
            break
    else:
        pytest.fail("no simulated game gave an empty clue")
    assert hanab_live_game(game, reveals)["options"]["emptyClues"] is True
    with pytest.raises(NotExportable, match="keeps no option"):
        replay_url(game, reveals)
    # The same JSON, asked for its link anyway: the encoding itself does not refuse.
    assert replay_link(hanab_live_game(game, reveals))
