"""A hint's clue without its slots (issue 33, the companion's content level): the log
writes it, reads it back and the rules keep it, with or without its receiver."""

from __future__ import annotations

from engine import Game, GameSetup
from engine.actions import Hint, Play
from engine.cards import Card, Color
from engine.log import format_log, parse_log, replay_log

CONTENT_HINTS = [
    Hint(color=Color.RED, player=0),  # the panel at three players: no receiver
    Hint(None, None, 4, player=1),
    Hint(0, Color.BLUE, player=2),  # a phone's: the receiver named
    Play(Card.from_code("R1"), player=0),
    Hint(2, None, 1, player=1),
]


def test_hints_with_their_clue_and_no_slots_round_trip_and_replay_the_same():
    setup = GameSetup(players=3, names=("Ann", "Bo", "Cy"))
    game = Game.replay(setup, CONTENT_HINTS)
    assert game.actions == CONTENT_HINTS  # the rules keep what the table said
    text = format_log(setup, list(game.actions))
    assert '{"action": "hint", "player": 0, "color": "red"}' in text.splitlines()
    assert '{"action": "hint", "player": 2, "to": 0, "color": "blue"}' in text.splitlines()
    assert parse_log(text).actions == CONTENT_HINTS
    again = replay_log(text)
    assert again.actions == game.actions and again.position == game.position
    assert again.position.hints == 8 - 4
