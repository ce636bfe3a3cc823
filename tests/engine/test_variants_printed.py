"""The printed books' variants are entries of the variants' table and play as before (issue 35).

``tests/data/printed_replays.jsonl.gz`` holds a simulated game of every allowed set of
printed options (multicolor none, short or full, wild, crowning piece, timed display,
empty clues, strikeout keeps score, hand memory), recorded with the engine of main before
the variants became data (``tests/support/printed_replays.py``): each log, ``replay``'s
summary of it, and actions tried along the way with the refusal each met, word for word.
Today's engine must say the same.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from engine.errors import IllegalAction
from engine.game import Game
from engine.log import parse_action, parse_log, replay_log, summary
from engine.options import GameOptions, Multicolor
from engine.suits import ColorTouch
from engine.variants import PRINTED, variant_by_name

RECORDED = Path(__file__).resolve().parents[1] / "data" / "printed_replays.jsonl.gz"


def recorded_games() -> list[dict]:
    with gzip.open(RECORDED, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


GAMES = recorded_games()


def test_the_recording_covers_every_printed_option_set_and_many_refusals():
    headers = {json.dumps(json.loads(game["log"].split("\n")[0]), sort_keys=True) for game in GAMES}
    allowed = [options for options in GameOptions.every() if _allowed(options)]
    assert len(GAMES) == len(allowed) == len(headers) == 128
    codes = {probe[2] for game in GAMES for probe in game["probes"]}
    assert {"hint_color_not_allowed", "card_not_in_slot", "hint_must_touch"} <= codes


def _allowed(options: GameOptions) -> bool:
    try:
        options.check()
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game["log"].split("\n")[0][30:90])
def test_an_old_log_replays_to_the_same_summary(game):
    assert summary(replay_log(game["log"])) == game["summary"]


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game["log"].split("\n")[0][30:90])
def test_an_old_game_refuses_and_takes_the_same_actions_in_the_same_words(game):
    log = parse_log(game["log"])
    hand_memory = log.setup.options.hand_memory
    for played, obj, code, sentence in game["probes"]:
        position = Game.replay(log.setup, log.actions[:played])
        action = parse_action(obj, hand_memory)
        try:
            position.check(action)
            answer = (None, None)
        except IllegalAction as error:
            answer = (error.code, str(error))
        assert answer == (code, sentence), (played, obj)


def test_the_printed_variants_are_entries_of_the_same_table():
    """Each printed option set maps onto a Variant, named as the history names it, whose
    rules are those of a Hanab Live variant: base = No Variant, full multicolor = 6 Suits
    (teal), short = Black (one of each), wild = Rainbow and Dark Rainbow."""
    same = {
        ("none", False): "No Variant",
        ("full", False): "6 Suits",
        ("short", False): "Black (6 Suits)",
        ("full", True): "Rainbow (6 Suits)",
        ("short", True): "Dark Rainbow (6 Suits)",
    }
    for (size, wild), name in same.items():
        ours, theirs = PRINTED[size, wild], variant_by_name(name)
        options = GameOptions(multicolor=Multicolor(size), wild_multicolor=wild)
        assert options.rules() is ours
        assert ours.name in options.variant_name() or ours.name == "base game"
        assert [spec.copies for spec in ours.specs()] == [spec.copies for spec in theirs.specs()]
        for index in range(len(ours.suits)):
            for clue in (*ours.colors, 1, 2, 3, 4, 5):
                for rank in range(1, 6):
                    assert ours.touches(clue, index, rank) == theirs.touches(clue, index, rank)
    assert PRINTED["full", True].suits[-1].colors is ColorTouch.ALL
