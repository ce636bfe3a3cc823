"""Issue 34: the hands shown at the end (GAME-LOG.md, the ``reveal`` line), checked by the
rules as a play is: a card its slot cannot be, a card with no copy left (counting the
other reveals), each seat once, the whole hand; undo takes the last one back."""

from __future__ import annotations

import pytest
from support.games import C

from engine import Game, GameOptions, GameSetup, Hint, Play
from engine.errors import CardExhausted, CardNotInSlot, CardRuledOut, NothingToUndo
from engine.reveal import (
    Reveal,
    RevealBeforeTheEnd,
    RevealedTwice,
    RevealNeedsHandMemory,
    Reveals,
    RevealWrongCount,
    parse_reveal,
    reveal_to_dict,
)

NAMES = ("Ann", "Bo", "Cy")


def finished() -> Game:
    """Ann tells Bo his slots 1 and 2 are red; then three misplays (Bo's from slot 3: his
    red cards are in slots 2 and 3 after the draw; Ann's, the last, draws nothing)."""
    setup = GameSetup(players=3, names=NAMES, options=GameOptions(hand_memory=True))
    game = Game(setup)
    game.apply(Hint(to=1, color=C("R1").color, slots=(1, 2)))
    game.apply(Play(C("B5"), slot=3))  # Bo
    game.apply(Play(C("G5"), slot=1))  # Cy
    game.apply(Play(C("Y5"), slot=1))  # Ann: the third fuse
    assert game.is_over
    return game


def hand(*codes: str) -> tuple:
    return tuple(C(code) for code in codes)


def test_every_seat_shows_its_hand_once_and_undo_takes_it_back() -> None:
    reveals = Reveals(finished())
    reveals.add(Reveal(0, hand("W1", "W1", "W1", "W2")))
    reveals.add(Reveal(1, hand("B1", "R1", "R2", "B2", "G1")))  # the new card in slot 1
    with pytest.raises(RevealedTwice) as refused:
        reveals.add(Reveal(0, hand("Y1", "Y1", "Y1", "Y2")))
    assert str(refused.value) == "Ann has shown their hand already"
    assert reveals.seats == [0, 1] and not reveals.complete
    reveals.add(Reveal(2, hand("Y1", "Y1", "Y1", "Y2", "Y2")))
    assert reveals.complete
    assert reveals.undo() == Reveal(2, hand("Y1", "Y1", "Y1", "Y2", "Y2"))
    assert reveals.seats == [0, 1]
    reveals.undo()
    reveals.undo()
    with pytest.raises(NothingToUndo):
        reveals.undo()


def test_a_card_its_slot_cannot_be_is_refused_as_for_a_play() -> None:
    reveals = Reveals(finished())
    with pytest.raises(CardNotInSlot) as refused:  # slot 2 was hinted red
        reveals.check(Reveal(1, hand("R1", "B1", "B2", "B3", "B4")))
    assert "Slot 2 was hinted red: B1 cannot be there" in str(refused.value)
    with pytest.raises(CardRuledOut):  # slot 4 was not touched by the red hint
        reveals.check(Reveal(1, hand("B1", "R1", "R2", "R3", "B4")))
    assert reveals.seats == []  # a refusal changes nothing


def test_a_card_with_no_copy_left_is_refused_counting_the_other_reveals() -> None:
    reveals = Reveals(finished())
    with pytest.raises(CardExhausted):  # the only blue 5 was misplayed
        reveals.check(Reveal(0, hand("B5", "W1", "W1", "W2")))
    with pytest.raises(CardExhausted):  # three white 1s in the deck, four shown
        reveals.check(Reveal(0, hand("W1", "W1", "W1", "W1")))
    reveals.add(Reveal(0, hand("W1", "W1", "W2", "W3")))
    with pytest.raises(CardExhausted) as refused:  # two white 1s shown by Ann already
        reveals.check(Reveal(2, hand("W1", "W1", "Y1", "Y2", "Y3")))
    assert str(refused.value).startswith("Every W1 is already revealed (3 in the deck)")


def test_the_whole_hand_after_the_end_of_a_game_with_hand_memory() -> None:
    with pytest.raises(RevealWrongCount) as refused:
        Reveals(finished()).check(Reveal(2, hand("Y1")))
    assert str(refused.value) == "Cy holds 5 cards: show each of them, slot 1 first"
    playing = Game(GameSetup(players=2, options=GameOptions(hand_memory=True)))
    with pytest.raises(RevealBeforeTheEnd):
        Reveals(playing).check(Reveal(0, ()))
    plain = Game(GameSetup(players=2))
    with pytest.raises(RevealNeedsHandMemory):
        Reveals(plain).check(Reveal(0, ()))


def test_the_line_reads_and_writes_as_the_log_says() -> None:
    line = {"action": "reveal", "player": 2, "cards": ["R1", "B5", "Y2", "W4"]}
    reveal = parse_reveal(line)
    assert reveal == Reveal(2, hand("R1", "B5", "Y2", "W4"))
    assert reveal_to_dict(reveal) == line
    for bad in (
        {"action": "reveal", "player": "2", "cards": []},
        {"action": "reveal", "player": 2, "cards": "R1"},
        {"action": "reveal", "player": 2, "cards": [1]},
        {"action": "reveal", "player": 2, "cards": [], "slot": 1},
    ):
        with pytest.raises(ValueError):
            parse_reveal(bad)
