"""Whole games in every family of Hanab Live's variants, on a simulated table (issue 35).

The simulated table sees every card and deals a real deck of the variant; its hints point
at the cards the variant's rules say a clue touches. After every action the referee must
have taken it, and each slot's hand memory must still allow the card really there (the
hints never rule out the truth); the log then replays to the same summary.
"""

from __future__ import annotations

import random

import pytest

from engine.log import format_log, replay_log, summary
from engine.options import GameOptions
from engine.setup import GameSetup
from engine.table import SimulatedTable
from engine.variants import family_of, variant_names

NAMES = variant_names()
FAMILIES = sorted({family_of(name) for name in NAMES})


def play_checking_memory(name: str, players: int, rng: random.Random) -> SimulatedTable:
    setup = GameSetup(players=players, options=GameOptions(variant=name, hand_memory=True))
    table = SimulatedTable(setup, rng, skill=rng.uniform(0.6, 1.0))
    assert len(table.draw_pile) == setup.initial_deck
    while not table.game.is_over:
        table.step()
        game = table.game
        assert game.score <= game.max_score <= setup.max_score
        for seat, hand in enumerate(table.hands):
            slots = game.hand_memory(seat)
            assert len(slots) == len(hand)
            for slot, card in zip(slots, reversed(hand), strict=True):  # slot 1: the newest
                assert slot.allows(card), (name, seat, card, slot)
    return table


@pytest.mark.parametrize("family", FAMILIES)
def test_games_in_every_family_are_refereed_and_the_hints_never_rule_out_a_real_card(family):
    rng = random.Random(family)
    members = [name for name in NAMES if family_of(name) == family]
    for players in (2, 3, 4, 5):
        name = rng.choice(members)
        table = play_checking_memory(name, players, rng)
        game = table.game
        assert summary(replay_log(format_log(game.setup, game.actions))) == summary(game)


def test_the_families_are_the_issue_s_and_every_special_suit_plays():
    assert 50 <= len(FAMILIES) <= 60
    rng = random.Random(35)
    specials = {name.split(" & ")[-1].split(" (")[0] for name in NAMES if " & " in name}
    for special in sorted(specials - {"Pig"}):
        name = next(name for name in NAMES if name.startswith(f"Rainbow-Ones & {special} ("))
        play_checking_memory(name, 3, rng)
