"""Issue 34: the ``reveal`` lines of a log (GAME-LOG.md, "The hands shown at the end") read by
the log's parser after the last action, replayed with the rules of engine/reveal.py, and
``revealed`` in the summary; a hand checked card by card as it is entered."""

from __future__ import annotations

import json

import pytest
from support.reveals import finished_table, revealed_log, true_hand, true_reveal, wrong_card

from engine.errors import CardExhausted, CardNotInSlot, CardRuledOut
from engine.log import (
    LogFormatError,
    LogRuleError,
    format_log,
    parse_log,
    replay_log,
    replay_revealed,
    summary,
)
from engine.reveal import Reveal, Reveals, RevealWrongCount, reveal_to_dict


def test_reveal_lines_are_read_after_the_last_action_and_replayed() -> None:
    table = finished_table(3, seed=2)
    text = revealed_log(table, [2, 0])
    log = parse_log(text)
    count = len(table.game.actions)
    assert log.actions == table.game.actions
    assert log.reveals == [true_reveal(table, 2), true_reveal(table, 0)]
    assert log.reveal_lines == [count + 2, count + 3]  # the header is line 1
    game, reveals = replay_revealed(text)
    assert reveals.seats == [2, 0] and not reveals.complete
    assert game.score == table.game.score
    out = summary(game, reveals)
    assert out["revealed"] == [2, 0]
    assert "revealed" not in summary(game, Reveals(game))  # no reveal: no key
    assert replay_log(text).actions == game.actions


def test_every_hand_shown_makes_the_whole_deal_known() -> None:
    table = finished_table(4, seed=5)
    _, reveals = replay_revealed(revealed_log(table))
    assert reveals.complete and reveals.seats == [0, 1, 2, 3]
    assert json.loads(json.dumps(summary(reveals.game, reveals)))["revealed"] == [0, 1, 2, 3]


def test_an_action_after_a_reveal_breaks_the_format_on_its_line() -> None:
    table = finished_table(3, seed=2)
    head, *rest = format_log(table.setup, table.game.actions).splitlines()
    reveal = json.dumps(reveal_to_dict(true_reveal(table, 0)))
    text = "\n".join([head, *rest[:-1], reveal, rest[-1]]) + "\n"
    with pytest.raises(LogFormatError) as refused:
        parse_log(text)
    assert refused.value.line == len(rest) + 2
    assert refused.value.reason == (
        "an action after a reveal: the hands are shown after the last action"
    )


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ('{"action": "reveal", "player": 0}', 'a reveal names its "player"'),
        ('{"action": "reveal", "player": "0", "cards": []}', 'a reveal names its "player"'),
        ('{"action": "reveal", "player": 0, "cards": [1]}', 'a reveal\'s "cards" are card codes'),
        ('{"action": "reveal", "player": 0, "cards": ["Q7"]}', "is not a card"),
        ('{"action": "reveal", "player": 0, "cards": [], "slot": 1}', '"action": "reveal"'),
        ('{"action": "reveal", "player": 0, "player": 1, "cards": []}', "is written twice"),
    ],
)
def test_a_malformed_reveal_line_is_refused_in_words_on_its_line(line: str, words: str) -> None:
    table = finished_table(2, seed=3)
    text = format_log(table.setup, table.game.actions) + line + "\n"
    with pytest.raises(LogFormatError) as refused:
        parse_log(text)
    assert refused.value.line == len(table.game.actions) + 2
    assert words in refused.value.reason


def test_a_reveal_the_rules_refuse_breaks_the_log_on_its_line() -> None:
    table = finished_table(3, seed=2)
    count = len(table.game.actions)
    twice = revealed_log(table, [1, 1])
    with pytest.raises(LogRuleError) as refused:
        replay_revealed(twice)
    assert refused.value.line == count + 3
    assert refused.value.reason == "Bo has shown their hand already"
    slot, card = wrong_card(table, 0)
    cards = list(true_hand(table, 0))
    cards[slot - 1] = card
    bad = format_log(table.setup, table.game.actions) + json.dumps(
        reveal_to_dict(Reveal(0, tuple(cards)))
    )
    with pytest.raises(LogRuleError) as refused:
        replay_log(bad)
    assert isinstance(refused.value.error, CardNotInSlot | CardRuledOut | CardExhausted)
    assert refused.value.line == count + 2


def test_a_reveal_before_the_end_or_without_hand_memory_is_refused() -> None:
    table = finished_table(2, seed=3)
    header, *lines = format_log(table.setup, table.game.actions).splitlines()
    reveal = json.dumps(reveal_to_dict(true_reveal(table, 0)))
    early = "\n".join([header, *lines[:-1], reveal]) + "\n"
    with pytest.raises(LogRuleError) as refused:
        replay_log(early)
    assert refused.value.reason == "The hands are shown once the game is over"
    plain = json.loads(header)
    del plain["hand_memory"]
    no_memory = json.dumps(plain) + '\n{"action": "reveal", "player": 0, "cards": []}\n'
    with pytest.raises(LogRuleError) as refused:
        replay_log(no_memory)
    assert refused.value.reason == "Only a game with hand memory shows its hands at the end"


def test_a_hand_being_entered_is_checked_card_by_card() -> None:
    """Reveals.check(whole=False): the cards entered so far, each as in the whole hand."""
    table = finished_table(3, seed=2)
    reveals = Reveals(table.game)
    hand = true_hand(table, 1)
    for count in range(len(hand) + 1):
        reveals.check(Reveal(1, hand[:count]), whole=False)  # every beginning is fine
    with pytest.raises(RevealWrongCount):
        reveals.check(Reveal(1, hand[:-1]))  # whole: the hand is not complete
    with pytest.raises(RevealWrongCount):
        reveals.check(Reveal(1, (*hand, hand[0])), whole=False)  # a card too many
    slot, card = wrong_card(table, 1)
    with pytest.raises((CardNotInSlot, CardRuledOut, CardExhausted)):
        reveals.check(Reveal(1, (*hand[: slot - 1], card)), whole=False)
    assert reveals.seats == []
