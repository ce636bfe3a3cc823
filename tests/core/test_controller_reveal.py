"""Issue 34, the end reveal on the controller (pure): "Show hands" on the end screen, each
seat's hand by slot through every input's events (the keys' and the taps' choices, the
buttons as soft keys, a reader's reads), refusals as for a play, undo taking a hand back,
a phone showing its own seat's hand, and a reveal under way taken up after a restart."""

from __future__ import annotations

import random
from typing import Any

import pytest
from support.reveals import finished_table, true_hand, true_reveal, wrong_card

from companion.core.controller import (
    Beep,
    Controller,
    EntryStep,
    Info,
    NotStored,
    PhoneOutcome,
    PhoneReply,
    RecordReveal,
    RecordUndo,
    Refused,
    RevealsLoaded,
    Screen,
    SetupDraft,
    Shown,
    message_words,
)
from companion.panel.keys import key_event
from companion.vocabulary.phone import PairedPhone, PhoneMove, hash_token
from engine.cards import Card
from engine.errors import CardExhausted, CardNotInSlot, CardRuledOut
from engine.game import Game
from engine.options import GameOptions
from engine.reveal import Reveal, RevealedTwice, RevealNeedsHandMemory
from engine.setup import GameSetup
from engine.table import SimulatedTable
from hardware.events import (
    CardScanned,
    ChooseColor,
    ChooseRank,
    ChooseSeat,
    ChooseSlot,
    InputEvent,
    Key,
    Press,
)

TOKEN = hash_token("phone-of-bo")
BO = PairedPhone(2, "Bo")
IDS = iter(f"reveal-request-{n:08d}" for n in range(10**6))
SLOT_OR_COPY = (CardNotInSlot, CardRuledOut, CardExhausted)


def at_end(table: SimulatedTable) -> Controller:
    controller = Controller(SetupDraft(players=table.setup.players), table.game)
    controller.paired = {TOKEN: BO}
    assert controller.screen is Screen.END
    return controller


def typed(card: Card) -> list[InputEvent]:
    return [ChooseColor(card.color), ChooseRank(card.rank)]


def feed(controller: Controller, events: list[InputEvent]) -> list[Any]:
    effects: list[Any] = []
    for event in events:
        effects += controller.handle(event)
    return effects


def test_show_hands_enters_every_seats_hand_and_the_deal_is_known() -> None:
    table = finished_table(3, seed=2)
    controller = at_end(table)
    assert controller.can_show_hands()
    assert feed(controller, [Press(Key.HINT)]) == []  # "Show hands"
    assert controller.screen is Screen.REVEAL and controller.reveal_step() is EntryStep.SEAT
    recorded = []
    for seat in (1, 0, 2):
        if controller.reveal_step() is EntryStep.SEAT:
            feed(controller, [ChooseSeat(seat)])
        assert controller.reveal_entry is not None and controller.reveal_entry.seat == seat
        for slot, card in enumerate(true_hand(table, seat), start=1):
            assert controller.reveal_slot() == slot
            assert feed(controller, typed(card)) == []
        assert controller.reveal_step() is EntryStep.CONFIRM
        recorded += feed(controller, [Press(Key.OK)])
    assert recorded == [RecordReveal(true_reveal(table, seat)) for seat in (1, 0, 2)]
    assert controller.reveals.complete and controller.screen is Screen.END
    assert not controller.can_show_hands()
    assert message_words("en", controller.message, controller.names).startswith(
        "Cy showed their hand: "
    )
    feed(controller, [Press(Key.HINT)])  # every hand is shown: it says so
    assert controller.message == Info("deal_known")


def test_the_last_hand_left_is_asked_at_once_and_a_rank_may_come_first() -> None:
    table = finished_table(2, seed=3)
    controller = at_end(table)
    feed(controller, [Press(Key.HINT), ChooseSeat(1)])
    for card in true_hand(table, 1):
        feed(controller, [ChooseRank(card.rank), ChooseColor(card.color)])  # either order
    feed(controller, [Press(Key.OK)])
    assert controller.reveals.seats == [1]
    assert controller.screen is Screen.REVEAL and controller.reveal_entry is not None
    assert controller.reveal_entry.seat == 0  # the only hand left: no "whose?"


def test_a_card_its_slot_cannot_be_is_refused_at_once_and_changes_nothing() -> None:
    table = finished_table(3, seed=2)
    controller = at_end(table)
    slot, card = wrong_card(table, 1)
    feed(controller, [Press(Key.HINT), ChooseSeat(1)])
    for good in true_hand(table, 1)[: slot - 1]:
        feed(controller, typed(good))
    effects = feed(controller, typed(card))
    assert effects == [Beep("refused")]
    assert isinstance(controller.message, Refused)
    assert isinstance(controller.message.error, SLOT_OR_COPY)
    entry = controller.reveal_entry
    assert entry is not None and len(entry.cards) == slot - 1 and entry.color is None
    assert controller.reveal_slot() == slot  # the same slot is asked again
    assert controller.reveals.shown == []


def test_a_card_with_no_copy_left_is_refused() -> None:
    """A card its slot could be, but whose every copy is seen (played, discarded, or
    entered in an earlier slot): refused as a play of it would be."""
    table = finished_table(3, seed=2)
    game, setup = table.game, table.setup
    found = None
    for seat in range(setup.players):
        hand = true_hand(table, seat)
        for slot, known in enumerate(game.hand_memory(seat), start=1):
            for card in (Card(c, r) for c in known.colors for r in known.ranks):
                left = setup.copies[card.ordinal] - game.position.seen[card.ordinal]
                if left - hand[: slot - 1].count(card) <= 0 and found is None:
                    found = (seat, hand[: slot - 1], card)
    assert found is not None
    seat, before, card = found
    controller = at_end(table)
    feed(controller, [Press(Key.HINT), ChooseSeat(seat)])
    for good in before:
        feed(controller, typed(good))
    assert feed(controller, typed(card)) == [Beep("refused")]
    assert isinstance(controller.message, Refused)
    assert isinstance(controller.message.error, CardExhausted)


def test_erase_steps_back_and_a_tap_on_a_card_enters_it_again() -> None:
    table = finished_table(3, seed=2)
    controller = at_end(table)
    hand = true_hand(table, 2)
    feed(controller, [Press(Key.HINT), ChooseSeat(2), *typed(hand[0]), *typed(hand[1])])
    entry = controller.reveal_entry
    assert entry is not None and entry.cards == hand[:2]
    feed(controller, [ChooseColor(hand[2].color), Press(Key.ERASE)])  # the colour picked
    assert entry.cards == hand[:2] and entry.color is None
    feed(controller, [Press(Key.ERASE)])  # the last card
    assert entry.cards == hand[:1]
    feed(controller, [*typed(hand[1]), *typed(hand[2]), ChooseSlot(2)])  # a tap on card 2
    assert entry.cards == hand[:1] and controller.reveal_slot() == 2
    feed(controller, [Press(Key.ERASE), Press(Key.ERASE)])  # the card, then the seat
    assert controller.reveal_step() is EntryStep.SEAT
    feed(controller, [Press(Key.BACK)])  # Cancel: the end screen, nothing recorded
    assert controller.screen is Screen.END and controller.reveal_entry is None
    assert controller.reveals.shown == []


def test_the_buttons_pick_the_tiles_above_them_and_ok_records() -> None:
    """The six buttons are soft keys: HINT … OK the 1st … 6th tile (the seats, the
    colours, the ranks); OK once the hand is whole records it."""
    table = finished_table(3, seed=2)
    controller = at_end(table)
    buttons = [Key.HINT, Key.PLAY, Key.DISCARD, Key.UNDO, Key.NEXT, Key.OK]
    feed(controller, [Press(Key.HINT)])  # the end screen's "Show hands" is HINT
    feed(controller, [Press(buttons[1])])  # the 2nd seat tile: Bo
    assert controller.reveal_entry is not None and controller.reveal_entry.seat == 1
    colors = list(table.setup.colors)
    for card in true_hand(table, 1):
        feed(controller, [Press(buttons[colors.index(card.color)])])
        feed(controller, [Press(buttons[card.rank - 1])])
    assert feed(controller, [Press(Key.OK)]) == [RecordReveal(true_reveal(table, 1))]


def test_a_reader_reads_one_card_each_and_the_last_read_records() -> None:
    table = finished_table(3, seed=2)
    controller = at_end(table)
    feed(controller, [Press(Key.HINT)])
    assert feed(controller, [CardScanned("tag", true_hand(table, 0)[0])]) == [Beep("refused")]
    assert controller.message == Info("reveal_seat_first")
    feed(controller, [ChooseSeat(0)])
    assert feed(controller, [CardScanned("tag-x", None)]) == [Beep("refused")]  # not enrolled
    hand = true_hand(table, 0)
    effects = feed(controller, [CardScanned(f"tag-{i}", card) for i, card in enumerate(hand)])
    assert effects == [RecordReveal(true_reveal(table, 0))]  # no OK after the last read
    pad = [CardScanned("p", card, role="play") for card in true_hand(table, 2)]
    effects = feed(controller, [ChooseSeat(2), *pad])  # a pad's read is a card read here
    assert effects == [RecordReveal(true_reveal(table, 2))]
    slot, card = wrong_card(table, 1)
    good = [CardScanned("t", c) for c in true_hand(table, 1)[: slot - 1]]
    effects = feed(controller, [*good, CardScanned("t", card)])
    assert effects == [Beep("refused")] and isinstance(controller.message, Refused)


def test_undo_takes_the_last_hand_back_then_the_last_action() -> None:
    table = finished_table(2, seed=3)
    controller = at_end(table)
    feed(controller, [Press(Key.HINT), ChooseSeat(0)])
    for card in true_hand(table, 0):
        feed(controller, typed(card))
    feed(controller, [Press(Key.OK), Press(Key.BACK)])  # Bo's hand is left for later
    assert controller.screen is Screen.END and controller.reveals.seats == [0]
    feed(controller, [Press(Key.UNDO)])
    assert controller.screen is Screen.UNDO
    assert feed(controller, [Press(Key.OK)]) == [RecordUndo()]
    assert controller.screen is Screen.END and controller.reveals.shown == []
    assert controller.message == Shown(true_reveal(table, 0), undone=True)
    assert message_words("en", controller.message, controller.names).startswith(
        "Undone: Ann showed their hand: "
    )
    feed(controller, [Press(Key.UNDO), Press(Key.OK)])  # now the last action
    assert controller.screen is Screen.GAME and not controller.game.is_over  # type: ignore[union-attr]


def test_show_hands_is_not_offered_without_hand_memory() -> None:
    """The end screen's HINT does nothing, as before; a phone asking is refused in the
    engine's words."""
    game = SimulatedTable(GameSetup(players=2), random.Random(3)).play_out()
    controller = Controller(SetupDraft(players=2), game)
    controller.paired = {TOKEN: BO}
    message = controller.message
    assert not controller.can_show_hands()
    assert feed(controller, [Press(Key.HINT)]) == []
    assert controller.screen is Screen.END and controller.message == message
    (reply,) = controller.handle(phone(len(game.actions), Reveal(0, ())))
    assert reply.outcome is PhoneOutcome.REFUSED
    assert isinstance(reply.message.error, RevealNeedsHandMemory)


def test_the_keys_on_the_reveal_screen() -> None:
    """A digit picks a seat at "whose hand?", then a rank; a letter a colour; BackSpace
    steps back; u and Escape cancel."""
    step = EntryStep.SEAT
    assert key_event("2", Screen.REVEAL, entry_step=step) == ChooseSeat(1)
    assert key_event("3", Screen.REVEAL, entry_step=EntryStep.COLOR) == ChooseRank(3)
    assert key_event("b", Screen.REVEAL, entry_step=EntryStep.RANK) == ChooseColor(
        Card.from_code("B1").color
    )
    assert key_event("backspace", Screen.REVEAL, entry_step=step) == Press(Key.ERASE)
    assert key_event("u", Screen.REVEAL, entry_step=step) == Press(Key.BACK)
    assert key_event("escape", Screen.REVEAL, entry_step=step) == Press(Key.BACK)
    assert key_event("return", Screen.REVEAL, entry_step=EntryStep.CONFIRM) == Press(Key.OK)
    assert key_event("h", Screen.END, entry_step=None) == Press(Key.HINT)  # "Show hands"
    controller = at_end(finished_table(2, seed=3))
    feed(controller, [Press(Key.HINT)])
    assert controller.key_step() is EntryStep.SEAT


# -- a phone shows its own seat's hand ------------------------------------------------------


def phone(position: int, reveal: Reveal | None, *, preview: bool = False) -> PhoneMove:
    return PhoneMove(next(IDS), "1", position, reveal, token_hash=TOKEN, preview_only=preview)


def test_a_phone_shows_its_seats_hand_through_the_one_path() -> None:
    table = finished_table(3, seed=2)
    controller = at_end(table)
    count = len(table.game.actions)
    hand = true_hand(table, 1)
    asked = phone(count, Reveal(1, hand[:2]), preview=True)  # the cards so far: fine
    (reply,) = controller.handle(asked)
    assert isinstance(reply, PhoneReply) and reply.outcome is PhoneOutcome.PREVIEWED
    slot, card = wrong_card(table, 1)
    wrong = phone(count, Reveal(1, (*hand[: slot - 1], card)), preview=True)
    (reply,) = controller.handle(wrong)
    assert reply.outcome is PhoneOutcome.PREVIEW_REFUSED
    assert isinstance(reply.message, Refused) and isinstance(reply.message.error, SLOT_OR_COPY)
    sent = phone(count, true_reveal(table, 1))
    (effect,) = controller.handle(sent)
    assert isinstance(effect, RecordReveal) and effect.reveal == true_reveal(table, 1)
    assert effect.reply is not None and effect.reply.outcome is PhoneOutcome.RECORDED
    assert message_words("en", effect.reply.message, controller.names).endswith("(Bo's phone)")
    again = phone(count, true_reveal(table, 1))
    (refused,) = controller.handle(again)
    assert refused.outcome is PhoneOutcome.REFUSED and refused.keep
    assert isinstance(refused.message.error, RevealedTwice)
    (undone,) = controller.handle(phone(count, None))  # a phone's undo: the hand first
    assert isinstance(undone, RecordUndo) and controller.reveals.shown == []


def test_a_phone_showing_the_hand_the_panel_enters_moves_the_panel_on() -> None:
    table = finished_table(3, seed=2)
    controller = at_end(table)
    feed(controller, [Press(Key.HINT), ChooseSeat(1), *typed(true_hand(table, 1)[0])])
    controller.handle(phone(len(table.game.actions), true_reveal(table, 1)))
    assert controller.screen is Screen.REVEAL
    assert controller.reveal_step() is EntryStep.SEAT  # Bo's hand is shown: whose next?
    feed(controller, [ChooseSeat(0)])
    controller.handle(phone(len(table.game.actions), true_reveal(table, 2)))
    entry = controller.reveal_entry
    assert entry is not None and entry.seat == 0  # another hand: the panel's stays


def test_a_reveal_under_way_is_taken_up_after_a_restart() -> None:
    table = finished_table(3, seed=2)
    controller = Controller(SetupDraft(players=3), table.game)
    controller.handle(RevealsLoaded((true_reveal(table, 0),)))
    assert controller.screen is Screen.REVEAL and controller.reveal_step() is EntryStep.SEAT
    assert controller.unshown_seats() == [1, 2]
    done = Controller(SetupDraft(players=3), table.game)
    done.handle(RevealsLoaded(tuple(true_reveal(table, s) for s in range(3))))
    assert done.screen is Screen.END and done.reveals.complete


def test_a_hand_not_stored_is_taken_back() -> None:
    table = finished_table(2, seed=3)
    controller = at_end(table)
    feed(controller, [Press(Key.HINT), ChooseSeat(0)])
    for card in true_hand(table, 0):
        feed(controller, typed(card))
    feed(controller, [Press(Key.OK)])
    assert controller.reveals.seats == [0]
    stored = Game.replay(table.setup, table.game.actions)
    controller.handle(NotStored(stored, Info("storage_full"), None, ()))
    assert controller.reveals.shown == [] and controller.screen is Screen.REVEAL
    assert controller.reveal_step() is EntryStep.SEAT  # Ann's hand is asked again
    assert controller.message == Info("storage_full")


@pytest.mark.parametrize("players", [2, 5])
def test_every_table_size_shows_its_hands(players: int) -> None:
    table = finished_table(players, seed=7)
    controller = at_end(table)
    feed(controller, [Press(Key.HINT)])
    for seat in range(players):
        if controller.reveal_step() is EntryStep.SEAT:
            feed(controller, [ChooseSeat(seat)])
        for card in true_hand(table, seat):
            feed(controller, typed(card))
        feed(controller, [Press(Key.OK)])
    assert controller.reveals.complete
    assert GameOptions(hand_memory=True) == table.setup.options
