"""Showing the hands at the end (issue 34): the reveal screen's keys, taps, buttons and
card reads, and a phone's reveal of its own seat.

:class:`RevealFlow` is the controller's mixin for it (a flow over
:class:`~companion.core.state.ControllerState`). Once a game with hand memory is over, the
end screen offers "Show hands": whose hand, then each card by slot, slot 1 first (its
colour and its rank, in either order, or one read), then OK (a reader's last read records
at once). Every rule is :mod:`engine.reveal`'s: each card is checked as it comes
(:meth:`~engine.reveal.Reveals.check` of the cards so far, a play's refusals), the whole
hand when it is recorded, by the one path of the panel and of a phone,
:meth:`RevealFlow._record_reveal`. Undo takes the last hand shown back.
"""

from __future__ import annotations

from companion.core import i18n
from companion.core.effects import (
    Beep,
    Effect,
    Info,
    PhoneOutcome,
    PhoneReply,
    RecordReveal,
    RecordUndo,
    Refused,
    Shown,
)
from companion.core.entry import SOFT_KEYS, EntryStep, choice_event
from companion.core.reveal_entry import RevealEntry
from companion.core.state import ControllerState, GamePage, Screen, game_screen
from companion.vocabulary.phone import PairedPhone, PhoneMove
from engine.cards import Card
from engine.errors import IllegalAction
from engine.reveal import Reveal
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


class RevealFlow(ControllerState):
    """The hands shown at the end: the end screen's "Show hands", the reveal screen, a
    phone's reveal, and undo taking the last one back."""

    # -- reading -----------------------------------------------------------------

    def can_show_hands(self) -> bool:
        """Whether the end screen offers "Show hands": a game with hand memory is over and
        a hand is still to be shown."""
        game = self.game
        return game is not None and game.is_over and self.hand_memory and not self.reveals.complete

    def unshown_seats(self) -> list[int]:
        """The seats whose hand is still to be shown, in seat order."""
        game = self.game
        if game is None:
            return []
        shown = set(self.reveals.seats)
        return [seat for seat in range(game.setup.players) if seat not in shown]

    def reveal_words(self) -> str:
        """What the end says of the hands shown, on the panel and the phones: none yet
        (""), whose so far, or that the whole deal is known (then the whole game can be
        replayed: a later step puts the Hanab Live replay's link beside these words)."""
        game = self.game
        if game is None or not self.reveals.shown:
            return ""
        if self.reveals.complete:
            return i18n.tr(self.language, "deal_known")
        names = ", ".join(game.setup.names[seat] for seat in self.reveals.seats)
        return i18n.tr(self.language, "reveal_progress", names=names)

    def reveal_step(self) -> EntryStep | None:
        """What the reveal screen asks: whose hand, a card's colour or rank, or OK."""
        entry, game = self.reveal_entry, self.game
        if entry is None or game is None:
            return None
        if entry.seat is None:
            return EntryStep.SEAT
        if len(entry.cards) >= game.position.hands[entry.seat]:
            return EntryStep.CONFIRM
        return EntryStep.RANK if entry.color is not None else EntryStep.COLOR

    def reveal_slot(self) -> int | None:
        """The slot whose card is asked (1: the newest), or None."""
        entry = self.reveal_entry
        if self.reveal_step() not in (EntryStep.COLOR, EntryStep.RANK) or entry is None:
            return None
        return len(entry.cards) + 1

    def reveal_choices(self) -> list[InputEvent]:
        """What each soft key picks on the reveal screen, in button order."""
        step, game = self.reveal_step(), self.game
        if game is None:
            return []
        if step is EntryStep.SEAT:
            return [ChooseSeat(seat) for seat in self.unshown_seats()]
        if step is EntryStep.COLOR:
            return [ChooseColor(color) for color in game.setup.colors]
        if step is EntryStep.RANK:
            return [ChooseRank(rank) for rank in range(1, 6)]
        return []

    def reveal_refusal(self, reveal: Reveal) -> IllegalAction | None:
        """The refusal the cards of ``reveal`` get so far (the engine's), or None."""
        try:
            self.reveals.check(reveal, whole=False)
        except IllegalAction as error:
            return error
        return None

    # -- the end screen's "Show hands" and the reveal screen ----------------------

    def _show_hands(self) -> list[Effect]:
        """The end screen's "Show hands": the reveal screen at "whose hand?" (at the only
        hand left, its first card). Without hand memory it is not offered: the key does
        nothing, as every game key on the end screen."""
        seats = self.unshown_seats()
        if not self.hand_memory:
            return []
        if self.game is None or not seats:
            self.message = Info("deal_known") if self.game is not None else None
            return []
        error = self.reveal_refusal(Reveal(seats[0], ()))
        if error is not None:
            self.message = Refused(error)
            return [Beep("refused")]
        self.reveal_entry = RevealEntry(seats[0] if len(seats) == 1 else None)
        self.screen = Screen.REVEAL
        self._acknowledge()
        return []

    def _on_reveal(self, event: InputEvent) -> list[Effect]:
        entry, game = self.reveal_entry, self.game
        if entry is None or game is None:  # nothing under way (closed meanwhile)
            self.screen = game_screen(game)
            return []
        step = self.reveal_step()
        if isinstance(event, CardScanned):
            return self._reveal_read(event, entry, step)
        if isinstance(event, ChooseSeat) and step is EntryStep.SEAT:
            if event.seat not in self.unshown_seats():  # a key beyond the table, or shown
                return self._refuse_seat(event.seat)
            entry.seat = event.seat
            self._acknowledge()
        elif isinstance(event, ChooseSlot) and entry.seat is not None:
            if 1 <= event.slot <= len(entry.cards):  # a card shown taken back, to enter again
                entry.cards, entry.color, entry.rank = entry.cards[: event.slot - 1], None, None
                self._acknowledge()
        elif isinstance(event, ChooseColor) and step in (EntryStep.COLOR, EntryStep.RANK):
            try:  # a colour this game has not: said at once, as for a play
                game.check_color(event.color)
            except IllegalAction as error:
                self.message = Refused(error)
                return [Beep("refused")]
            entry.color = event.color
            return self._reveal_card_entered(entry, read=False)
        elif isinstance(event, ChooseRank) and step in (EntryStep.COLOR, EntryStep.RANK):
            if 1 <= event.rank <= 5:
                entry.rank = event.rank
                return self._reveal_card_entered(entry, read=False)
        elif isinstance(event, Press):
            return self._reveal_press(event.key, step)
        elif isinstance(event, ChooseColor | ChooseRank) and step is EntryStep.SEAT:
            self.message = Info("reveal_seat_first")
            return [Beep("refused")]
        return []

    def _reveal_press(self, key: Key, step: EntryStep | None) -> list[Effect]:
        """A key on the reveal screen: BACK leaves it, ERASE steps back, OK records the hand,
        a button picks the choice shown above it."""
        if key is Key.BACK:
            self._leave_reveal()
            return []
        if key is Key.ERASE:
            return self._erase_reveal_choice()
        if step is EntryStep.CONFIRM and key is Key.OK:
            entry = self.reveal_entry
            assert entry is not None and entry.seat is not None
            return self._record_reveal(Reveal(entry.seat, entry.cards))
        if key in SOFT_KEYS:
            choices = self.reveal_choices()
            index = SOFT_KEYS.index(key)
            if index < len(choices):
                return self._on_reveal(choice_event(choices[index]))
        return []

    def _refuse_seat(self, seat: int) -> list[Effect]:
        """A seat that shows nothing: beyond the table (as the keys count), or shown."""
        error = self.reveal_refusal(Reveal(seat, ()))  # no such seat, or shown already
        self.message = Info("reveal_seat_first") if error is None else Refused(error)
        return [Beep("refused")]

    def _reveal_read(
        self, event: CardScanned, entry: RevealEntry, step: EntryStep | None
    ) -> list[Effect]:
        """A reader read a card (a pad's too: on this screen a card shown is a card read):
        it is the next slot's, whole; the hand's last one records it."""
        if event.card is None:
            self.message = Info("unknown_tag", (("tag", event.tag),))
            return [Beep("refused")]
        if step is EntryStep.SEAT:
            self.message = Info("reveal_seat_first")
            return [Beep("refused")]
        if step is EntryStep.CONFIRM:
            return []  # the hand is whole: OK records it, or a card is tapped again
        entry.color, entry.rank = event.card.color, event.card.rank
        return self._reveal_card_entered(entry, read=True)

    def _reveal_card_entered(self, entry: RevealEntry, *, read: bool) -> list[Effect]:
        """The next card is whole (its colour and its rank): refused as a play is (a card
        its slot cannot be, no copy left), else the hand's next card; a read completing
        the hand records it."""
        if entry.color is None or entry.rank is None or entry.seat is None:
            self._acknowledge()
            return []
        cards = (*entry.cards, Card(entry.color, entry.rank))
        entry.color = entry.rank = None
        error = self.reveal_refusal(Reveal(entry.seat, cards))
        if error is not None:
            self.message = Refused(error)
            return [Beep("refused")]
        entry.cards = cards
        self._acknowledge()
        if read and self.reveal_step() is EntryStep.CONFIRM:
            return self._record_reveal(Reveal(entry.seat, cards))
        return []

    def _erase_reveal_choice(self) -> list[Effect]:
        """Step back one choice: the colour or rank picked, the last card, the seat (when
        it was asked); with none left, leave the reveal screen."""
        entry = self.reveal_entry
        assert entry is not None
        if entry.color is not None or entry.rank is not None:
            entry.color = entry.rank = None
        elif entry.cards:
            entry.cards = entry.cards[:-1]
        elif entry.seat is not None and len(self.unshown_seats()) > 1:
            entry.seat = None
        else:
            self._leave_reveal()
        self._acknowledge()
        return []

    def _leave_reveal(self) -> None:
        """The reveal screen closed: the end screen, its result."""
        self.reveal_entry = None
        self.screen = game_screen(self.game)
        self.page = GamePage.TABLE
        self._acknowledge()

    def _next_hand(self) -> None:
        """After a hand shown: the next one is asked (the only one left: at its first
        card); none left, the end screen says the whole deal is known."""
        seats = self.unshown_seats()
        if not seats:
            self._leave_reveal()
            return
        self.reveal_entry = RevealEntry(seats[0] if len(seats) == 1 else None)

    # -- recording, undoing, and a phone's reveal ----------------------------------

    def _record_reveal(
        self, reveal: Reveal, phone: PairedPhone | None = None, move: PhoneMove | None = None
    ) -> list[Effect]:
        """Check and record a hand shown: the one path of the panel's and of a phone's
        (``phone`` and its ``move``, answered once stored). Refused, nothing changes."""
        game = self.game
        assert game is not None
        count = len(game.actions)
        try:
            self.reveals.add(reveal)
        except IllegalAction as error:
            if phone is None or move is None:
                self.message = Refused(error)
                return [Beep("refused")]
            refused = PhoneOutcome.REFUSED
            return [PhoneReply(move, phone.id, Refused(error), refused, count, keep=True)]
        self.message = Shown(reveal, by="" if phone is None else phone.name)
        if phone is None or move is None:
            self._next_hand()
            return [RecordReveal(reveal)]
        self._moved_by_phone()
        recorded = PhoneOutcome.RECORDED
        return [RecordReveal(reveal, PhoneReply(move, phone.id, self.message, recorded, count))]

    def _phone_reveal(self, move: PhoneMove, phone: PairedPhone, reveal: Reveal) -> list[Effect]:
        """A phone shows its seat's hand (or asks whether the cards it has so far would be
        refused: a preview)."""
        game = self.game
        assert game is not None
        count = len(game.actions)
        if move.preview_only:
            error = self.reveal_refusal(reveal)
            if error is not None:
                refused = PhoneOutcome.PREVIEW_REFUSED
                return [PhoneReply(move, phone.id, Refused(error), refused, count)]
            shown = Shown(reveal, by=phone.name)
            return [PhoneReply(move, phone.id, shown, PhoneOutcome.PREVIEWED, count)]
        return self._record_reveal(reveal, phone, move)

    def _undo(self, phone: PairedPhone | None = None, move: PhoneMove | None = None) -> Effect:
        """Undo with hands shown takes the last one back (the game stays over); else the
        last action, as ever."""
        if self.game is None or not self.reveals.shown:
            return super()._undo(phone, move)
        taken = self.reveals.undo()
        self.message = Shown(taken, by="" if phone is None else phone.name, undone=True)
        if phone is None or move is None:
            self.screen = Screen.END
            return RecordUndo()
        self._moved_by_phone()
        count = len(self.game.actions)
        return RecordUndo(PhoneReply(move, phone.id, self.message, PhoneOutcome.RECORDED, count))

    def _moved_by_phone(self) -> None:
        """A phone changed the game: a hand being entered on the panel stays while the game
        is still over (its cards are checked again when recorded), unless the phone showed
        that same hand; anything else as for an action."""
        entry, game = self.reveal_entry, self.game
        if entry is not None and self.screen is Screen.REVEAL and game and game.is_over:
            self.preview = None
            if entry.seat is not None and entry.seat in self.reveals.seats:
                self._next_hand()
            return
        self.reveal_entry = None
        super()._moved_by_phone()

    def _back_screen(self) -> Screen:
        """As ever; the reveal screen once its hand was closed (a phone's undo): the end."""
        screen = super()._back_screen()
        if screen is Screen.REVEAL and self.reveal_entry is None:
            return game_screen(self.game)
        return screen

    def restore_reveals(self, reveals: tuple[Reveal, ...], *, resume: bool = False) -> None:
        """The hands shown at the end of the game on screen, as stored; ``resume`` (a start
        after a power cut): a reveal under way is taken up again at its next hand."""
        if self.game is None:
            return
        shown = self.reveals
        shown.shown[:] = list(reveals)
        if resume and reveals and not shown.complete and self.screen is Screen.END:
            self.screen = Screen.REVEAL
            self._next_hand()
