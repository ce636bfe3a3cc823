"""Entering a play, a discard or a hint on the panel: the game screen's keys, the entry
screen's, and the card readers' and pads' reads.

:class:`EntryFlow` is the controller's mixin for it (a flow over
:class:`~companion.core.state.ControllerState`, reading the entry through
:class:`~companion.core.entry_view.EntryView`); a complete entry is recorded by the one
record path, :meth:`~companion.core.state.ControllerState._record`.
"""

from __future__ import annotations

from msgspec.structs import replace

from companion.core import i18n
from companion.core.effects import Beep, Effect, Info, Refused
from companion.core.entry import (
    KEY_KINDS,
    MORE_CLUES,
    SLOT_REFUSALS,
    SOFT_KEYS,
    Entry,
    EntryKind,
    EntryStep,
    choice_event,
    clue_parts,
    refused_before_entry,
)
from companion.core.entry_view import EntryView
from companion.core.hint_level import HintLevel
from companion.core.state import Screen
from engine.actions import Discard, Hint, Play
from engine.cards import Card
from engine.errors import IllegalAction
from engine.memory import Clue
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


class EntryFlow(EntryView):
    """The keys, taps and reads that enter an action, from the game screen to its record."""

    def _on_game(self, event: InputEvent) -> list[Effect]:
        game = self.game
        assert game is not None
        if isinstance(event, CardScanned):
            return self._scanned(event, None)
        if not isinstance(event, Press):
            return []
        key = event.key
        if key in KEY_KINDS:  # refused whatever is entered after: said at once, as a phone
            refusal = refused_before_entry(game, KEY_KINDS[key])  # says it at its first tap
            if refusal is not None:
                self.message = Refused(refusal)
                return [Beep("refused")]
        if key is Key.HINT:
            if self.hint_level is HintLevel.COUNT:
                return self._record(Hint(player=game.position.current))
            return self._start_hint()
        if key in (Key.PLAY, Key.DISCARD):
            kind = KEY_KINDS[key]
            self.entry = Entry(kind)
            self.preview = None
            self.screen = Screen.ENTRY
            self._acknowledge()  # a refusal said before the entry is not the entry's
        elif key is Key.UNDO:
            return self._ask_undo()
        elif key in (Key.NEXT, Key.PREVIOUS):
            self.turn_page(1 if key is Key.NEXT else -1)
        elif key is Key.OK:
            self._acknowledge()
        return []

    def _start_hint(self) -> list[Effect]:
        """A hint is entered (its clue; with hand memory its receiver, clue and slots),
        unless refused whatever it names (no hint token left). At two players the
        receiver is the other seat."""
        game = self.game
        assert game is not None
        error = self._refusal(Hint(player=game.position.current))
        if error is not None:
            self.message = Refused(error)
            return [Beep("refused")]
        receivers = self.receivers()
        self.entry = Entry(EntryKind.HINT, to=receivers[0] if len(receivers) == 1 else None)
        self.preview = None
        self.screen = Screen.ENTRY
        self._acknowledge()
        return []

    def _scanned(self, event: CardScanned, entry: Entry | None) -> list[Effect]:
        if event.card is None:
            self.message = Info("unknown_tag", (("tag", event.tag),))
            return [Beep("refused")]
        if event.role != "any":
            return self._placed(event.card, event.role)
        if entry is None or entry.kind is EntryKind.HINT:
            entry = Entry(None)
        entry.color, entry.rank = event.card.color, event.card.rank
        entry.choosing_announce = False
        entry.from_reader = True
        self.entry = entry
        self.screen = Screen.ENTRY
        self._update_preview()
        return []

    def _placed(self, card: Card, role: str) -> list[Effect]:
        """A card placed on a play or discard pad: that was the action, recorded at once.

        Refused (a discard with 8 tokens, a card the game has not): said and beeped,
        nothing stored, back to the game screen; any entry under way is replaced.
        """
        kind = EntryKind.PLAY if role == "play" else EntryKind.DISCARD
        self.entry = Entry(kind, card.color, card.rank, from_reader=True)
        self.screen = Screen.ENTRY
        if self.hand_memory:  # the slot is still to say: refused now if it cannot help
            game = self.game
            assert game is not None
            action = Play(card) if kind is EntryKind.PLAY else Discard(card)
            error = self._refusal(replace(action, player=game.position.current))
            if error is None:
                self.preview = None
                self._acknowledge()
                return []
            self._cancel_entry()
            self.message = Refused(error)  # said on the game screen: the pad's card
            return [Beep("refused")]
        effects = self._confirm_entry()
        refusal = self.message
        if isinstance(refusal, Refused):
            self._cancel_entry()
            self.message = refusal
        return effects

    def _on_entry(self, event: InputEvent) -> list[Effect]:
        entry, game = self.entry, self.game
        assert entry is not None and game is not None
        if isinstance(event, CardScanned):
            return self._scanned(event, entry)
        step = self.entry_step()
        if entry.kind is EntryKind.HINT:
            return self._on_hint_entry(event, entry, step)
        if isinstance(event, ChooseSlot):
            return self._choose_slot(event.slot)
        if (
            entry.from_reader
            and not entry.choosing_announce
            and isinstance(event, (ChooseColor, ChooseRank))
        ):
            return []  # a reader read the card: a stray key does not change it (a read does)
        if isinstance(event, ChooseColor):
            try:  # a colour this game has not (multicolor in a base game): said at once
                game.check_color(event.color)
            except IllegalAction as error:
                self.message = Refused(error)
                return [Beep("refused")]
            if entry.choosing_announce:
                entry.announce = event.color
                entry.choosing_announce = False
            else:
                entry.color = event.color
            self._acknowledge()  # the refusal said before this choice has been read
        elif isinstance(event, ChooseRank) and 1 <= event.rank <= 5:
            entry.rank = event.rank
            self._acknowledge()
        elif isinstance(event, Press):
            key = event.key
            if key is Key.BACK:
                return self._cancel_entry()
            if key is Key.ERASE:
                return self._erase_last_choice()
            if step is EntryStep.KIND and key in (Key.PLAY, Key.DISCARD):
                return self._kind_of_scanned(key)
            refusal = self.entry_refusal()
            if key is Key.OK and refusal is not None:
                return self._change_refused_choice(refusal)
            if step is EntryStep.CONFIRM and key is Key.OK:
                return self._confirm_entry()
            announcing = game.setup.options.timed_display and entry.kind is EntryKind.PLAY
            if key is Key.PREVIOUS and announcing and step is not EntryStep.ANNOUNCE:
                # announcing is offered from the start of a play entry, not only at the end
                entry.choosing_announce = True
            elif step is EntryStep.CONFIRM and key is Key.NEXT and announcing:
                entry.announce = None
            elif key in SOFT_KEYS:
                return self._soft_key(key)
        self._update_preview()
        return []

    def _soft_key(self, key: Key) -> list[Effect]:
        """A button on the entry screen: the choice shown above it, if any."""
        choices = self.soft_choices()
        index = SOFT_KEYS.index(key)
        if index < len(choices):
            return self._on_entry(choice_event(choices[index]))
        self._update_preview()
        return []

    def _kind_of_scanned(self, key: Key) -> list[Effect]:
        """Scanned first: the press says what was done with the card, and records it
        (with hand memory, once the slot is said)."""
        entry = self.entry
        assert entry is not None
        entry.kind = EntryKind.PLAY if key is Key.PLAY else EntryKind.DISCARD
        if self.hand_memory and entry.slot is None:
            game = self.game
            assert game is not None
            card = entry.card
            assert card is not None
            action = Play(card) if entry.kind is EntryKind.PLAY else Discard(card)
            error = self._refusal(replace(action, player=game.position.current))
            if error is not None:
                self.message = Refused(error)
                entry.kind = None  # still "play or discard?": the other may be legal
                return [Beep("refused")]
            self._update_preview()
            return []
        effects = self._confirm_entry()
        if isinstance(self.message, Refused):
            entry.kind = None  # still "play or discard?": the other may be legal
        return effects

    def _choose_slot(self, slot: int) -> list[Effect]:
        """Where the played or discarded card came from: refused at once if the hand has
        no such slot; a card read by a reader is then recorded (no OK)."""
        entry, game = self.entry, self.game
        assert entry is not None and game is not None
        if not self.hand_memory:
            return []
        try:
            game.check_slot(slot)
        except IllegalAction as error:
            self.message = Refused(error)
            return [Beep("refused")]
        entry.slot = slot
        self._acknowledge()
        if entry.from_reader and entry.action(0, hand_memory=True) is not None:
            effects = self._confirm_entry()
            if isinstance(self.message, Refused):
                entry.slot = None  # the card cannot be there: the table says another slot
                self.preview = None
            return effects
        self._update_preview()
        return []

    def _on_hint_entry(
        self, event: InputEvent, entry: Entry, step: EntryStep | None
    ) -> list[Effect]:
        """A hint's colour or rank (the content level records it at once); with hand
        memory, its receiver first and then the slots it touched, OK."""
        game = self.game
        assert game is not None
        player = game.position.current
        if isinstance(event, Press):
            key = event.key
            if key is Key.BACK:
                return self._cancel_entry()
            if key is Key.ERASE:
                return self._erase_last_choice()
            refusal = self.entry_refusal()
            if key is Key.OK and refusal is not None:
                return self._change_refused_choice(refusal)
            if step is EntryStep.SLOTS and key is Key.OK:
                return self._confirm_entry()
            if key in SOFT_KEYS:
                return self._soft_key(key)
            return []
        if event == MORE_CLUES and step is EntryStep.CLUE:
            entry.clue_page = (entry.clue_page + 1) % len(self.clue_pages())
            return []
        if step is EntryStep.RECEIVER and isinstance(event, ChooseSeat | ChooseSlot):
            # a tap on a slot of a player's hand picks the receiver and that slot at once
            seat = event.seat
            if seat is None:
                return []
            players = game.setup.players
            if not 0 <= seat < players:  # a key beyond the table: said as the keys count
                self.message = Info("entry_no_such_seat", (("n", seat + 1), ("players", players)))
                return [Beep("refused")]
            error = self._refusal(Hint(seat, player=player))  # one's own seat: said why
            if error is not None:
                self.message = Refused(error)
                return [Beep("refused")]
            entry.to = seat
            if isinstance(event, ChooseSlot) and 1 <= event.slot <= game.position.hands[seat]:
                entry.touched = (event.slot,)
            self._acknowledge()
            return []
        clue: Clue | None = None
        if isinstance(event, ChooseColor):
            clue = event.color
        elif isinstance(event, ChooseRank) and 1 <= event.rank <= 5:
            clue = event.rank
        if clue is not None and step is EntryStep.CLUE:
            color, rank = clue_parts(clue)
            error = self._refusal(Hint(entry.to, color, rank, player=player))
            if error is not None:  # a colour this game has not, wild multicolor
                self.message = Refused(error)
                return [Beep("refused")]
            entry.clue = clue
            self._acknowledge()
            if not self.hand_memory:  # the content level: the clue was the last choice
                return self._confirm_entry()
        elif (
            isinstance(event, ChooseSlot)
            and self.hand_memory
            and step in (EntryStep.CLUE, EntryStep.SLOTS)
        ):
            assert entry.to is not None
            if event.seat in (None, entry.to) and 1 <= event.slot <= game.position.hands[entry.to]:
                touched = entry.touched
                entry.touched = (
                    tuple(s for s in touched if s != event.slot)
                    if event.slot in touched
                    else (*touched, event.slot)
                )
                self._acknowledge()
        self._update_preview()
        return []

    def _erase_last_choice(self) -> list[Effect]:
        """Step back one choice (announce, rank, colour, slot; a hint's slots, clue,
        receiver); with none left, leave the entry."""
        entry = self.entry
        assert entry is not None
        if entry.kind is EntryKind.HINT:
            if entry.touched:
                entry.touched = entry.touched[:-1]
            elif entry.clue is not None:
                entry.clue = None
            elif entry.to is not None and len(self.receivers()) > 1:
                entry.to = None
            else:
                return self._cancel_entry()
        elif entry.choosing_announce:
            entry.choosing_announce = False
        elif entry.announce is not None:
            entry.announce = None
        elif entry.rank is not None:
            entry.rank = None
        elif entry.color is not None:
            entry.color = None
        elif entry.slot is not None:
            entry.slot = None
        else:
            return self._cancel_entry()
        self._update_preview()
        return []

    def _cancel_entry(self) -> list[Effect]:
        """Leave the entry: the game screen shows the last action again (a refusal said
        during the entry was the entry's)."""
        self._close_entry()
        self._acknowledge()
        return []

    def _change_refused_choice(self, error: IllegalAction) -> list[Effect]:
        """OK on a refused play or discard: the choice the refusal is about is asked again
        (the card's slot, else the card), the refusal said until it is. A refused hint
        is still at its slots, the choice to change: OK is not offered, it only beeps."""
        entry = self.entry
        assert entry is not None
        self.message = Refused(error)
        if entry.kind is EntryKind.HINT:
            return [Beep("refused")]
        if error.code in SLOT_REFUSALS:
            entry.slot = None
        else:  # the card: a reader's read is typed or picked this time
            entry.color = entry.rank = entry.announce = None
            entry.from_reader = False
        self._update_preview()
        return [Beep("refused")]

    def _confirm_entry(self) -> list[Effect]:
        """The entry complete: recorded; refused, the entry stays open to be changed."""
        entry, game = self.entry, self.game
        assert entry is not None and game is not None
        action = entry.action(game.position.current, hand_memory=self.hand_memory)
        if action is None:
            return []
        if entry.stale:  # begun before a phone's action landed: refused as a phone's is
            self._close_entry()
            self.message = Info("phone_moved_back")
            if game.events:
                what = i18n.describe_event(self.language, game.events[-1], game.setup.names)
                self.message = Info("phone_moved_on", (("what", what),))
            return [Beep("refused")]
        effects = self._record(action)
        if isinstance(self.message, Refused):
            self.screen = Screen.ENTRY  # stay: the players fix the card or cancel
            self.preview = self.message.error
        return effects
