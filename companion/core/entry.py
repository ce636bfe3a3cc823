"""The entry of a play, a discard or a hint: the :class:`Entry` value and what it asks.

:class:`EntryView` is the controller's mixin (over
:class:`~companion.core.state.ControllerState`) that reads the entry under way: its
step, the soft keys' choices, its preview and its refusal. Its keys are handled by
:class:`~companion.core.entering.EntryFlow`.
"""

from __future__ import annotations

from enum import Enum, StrEnum

from msgspec import Struct

from companion.core.state import ControllerState
from engine.actions import Action, Discard, Hint, Play
from engine.cards import Card, Color
from engine.errors import IllegalAction
from engine.memory import Clue
from hardware.events import (
    ChooseColor,
    ChooseRank,
    ChooseSeat,
    ChooseSlot,
    InputEvent,
    Key,
    Select,
)


class EntryStep(StrEnum):
    """One of the things the entry screen asks for: the step it is at."""

    KIND = "kind"  # play or discard? (a card was scanned first)
    COLOR = "color"
    RANK = "rank"
    ANNOUNCE = "announce"  # the colour announced (timed display)
    CONFIRM = "confirm"
    # hand memory (docs/rules.md section 8)
    RECEIVER = "receiver"  # who a hint is for
    CLUE = "clue"  # the colour or the rank a hint named
    SLOTS = "slots"  # the slots the hint touched (each pick toggles one); OK records it
    SLOT = "slot"  # the slot the played or discarded card came from


class EntryKind(Enum):
    """What is being entered: a play, a discard or a hint."""

    PLAY = "play"
    DISCARD = "discard"
    HINT = "hint"  # only with hand memory: without it a hint is one press


#: On the entry screen, the buttons act as soft keys under the choices shown.
SOFT_KEYS = (Key.HINT, Key.PLAY, Key.DISCARD, Key.UNDO, Key.NEXT, Key.OK)

#: The soft choice that turns to the next page of a hint's clues (hand memory): the
#: colours and the ranks are more than six buttons.
MORE_CLUES = Select("more_clues")
#: Clues shown per page, the sixth soft key turning the page.
CLUES_PER_PAGE = 5

#: The refusals of a play or a discard that are about where the card came from (hand
#: memory): OK on such a refused entry asks the slot again, not the card.
SLOT_REFUSALS = frozenset({"no_such_slot", "card_not_in_slot", "card_ruled_out"})

#: The refusals that only say a hand-memory entry is not complete yet (no slot, no
#: slots): a check made before the slots are known sets them aside.
NOT_YET_COMPLETE = frozenset({"slot_needed", "hint_needs_slots"})


class Entry(Struct):
    """The play, the discard or (with hand memory) the hint being entered, as far as
    it is entered."""

    kind: EntryKind | None  # None: a card was scanned first, "play or discard?"
    color: Color | None = None
    rank: int | None = None
    announce: Color | None = None
    choosing_announce: bool = False
    #: A hint's receiver (a seat), its clue (a colour or a rank) and the slots it touched.
    to: int | None = None
    clue: Clue | None = None
    touched: tuple[int, ...] = ()
    #: Which page of clues the soft keys show (the sixth turns it).
    clue_page: int = 0
    #: Where the played or discarded card came from (hand memory).
    slot: int | None = None
    #: The card came from a reader: the last choice records it, with no OK.
    from_reader: bool = False

    @property
    def card(self) -> Card | None:
        if self.color is None or self.rank is None:
            return None
        return Card(self.color, self.rank)

    def action(self, player: int, *, hand_memory: bool = False) -> Action | None:
        """The action entered, or None while something is missing."""
        if self.kind is EntryKind.HINT:
            if self.to is None or self.clue is None:
                return None
            color, rank = clue_parts(self.clue)
            return Hint(self.to, color, rank, player=player, slots=tuple(sorted(self.touched)))
        card = self.card
        if card is None or self.kind is None or (hand_memory and self.slot is None):
            return None
        if self.kind is EntryKind.PLAY:
            return Play(card, self.announce, player=player, slot=self.slot)
        return Discard(card, player=player, slot=self.slot)


def clue_parts(clue: Clue) -> tuple[Color | None, int | None]:
    """A clue as a hint's (colour, rank): a :class:`Color` is an ``int`` too, so it is
    told apart first."""
    if isinstance(clue, Color):
        return clue, None
    return None, clue


def choice_event(choice: object) -> InputEvent:
    """The input event a soft choice stands for (a colour, a rank, or an event)."""
    if isinstance(choice, ChooseColor | ChooseRank | ChooseSeat | ChooseSlot | Select):
        return choice
    if isinstance(choice, Color):
        return ChooseColor(choice)
    assert isinstance(choice, int)
    return ChooseRank(choice)


class EntryView(ControllerState):
    """What the entry under way asks and shows: read by the panel, used by the flows."""

    def receivers(self) -> list[int]:
        """Who a hint may be for: every other seat, the next player first."""
        game = self.game
        if game is None:
            return []
        players, current = game.setup.players, game.position.current
        return [(current + i) % players for i in range(1, players)]

    def clue_pages(self) -> list[list[InputEvent]]:
        """A hint's clues, as pages of soft choices: the colours a hint may name, five
        to a page, then the ranks."""
        game = self.game
        if game is None:
            return []
        colors: list[InputEvent] = [
            ChooseColor(suit.color) for suit in game.setup.suits if suit.named_in_hints
        ]
        pages = [colors[i : i + CLUES_PER_PAGE] for i in range(0, len(colors), CLUES_PER_PAGE)]
        return [*pages, [ChooseRank(rank) for rank in range(1, 6)]]

    def entry_hand(self) -> int | None:
        """The seat whose hand the slot steps show: a hint's receiver, else the player."""
        entry, game = self.entry, self.game
        if entry is None or game is None:
            return None
        if entry.kind is EntryKind.HINT:
            return entry.to
        return game.position.current

    def entry_step(self) -> EntryStep | None:
        """Which part of the entry is asked; None when no entry is under way."""
        entry = self.entry
        if entry is None:
            return None
        if entry.kind is EntryKind.HINT:
            if entry.to is None:
                return EntryStep.RECEIVER
            if entry.clue is None:
                return EntryStep.CLUE
            return EntryStep.SLOTS
        if entry.choosing_announce:
            return EntryStep.ANNOUNCE
        # the slot: first when the card is typed (the player takes it from the hand,
        # then shows it), after "play or discard?" when a reader read it first
        if (
            self.hand_memory
            and entry.slot is None
            and (entry.card is None or entry.kind is not None)
        ):
            return EntryStep.SLOT
        if entry.color is None:
            return EntryStep.COLOR
        if entry.rank is None:
            return EntryStep.RANK
        if entry.kind is None:
            return EntryStep.KIND
        return EntryStep.CONFIRM

    def soft_choices(self) -> list[object]:
        """What each soft key picks on the entry screen, in button order."""
        step = self.entry_step()
        if self.game is None or step is None:
            return []
        if step in (EntryStep.COLOR, EntryStep.ANNOUNCE):
            return list(self.game.setup.colors)
        if step is EntryStep.RANK:
            return [1, 2, 3, 4, 5]
        if step is EntryStep.RECEIVER:
            return [ChooseSeat(seat) for seat in self.receivers()]
        if step is EntryStep.CLUE:
            pages = self.clue_pages()
            assert self.entry is not None
            page = pages[self.entry.clue_page % len(pages)]
            return [*page, MORE_CLUES]
        if step in (EntryStep.SLOTS, EntryStep.SLOT):
            seat = self.entry_hand()
            assert seat is not None
            return [ChooseSlot(slot) for slot in range(1, self.game.position.hands[seat] + 1)]
        return []

    def _refusal(self, action: Action) -> IllegalAction | None:
        """The refusal ``action`` gets, setting aside that its slots are still to come."""
        game = self.game
        assert game is not None
        try:
            game.check(action)
        except IllegalAction as error:
            if error.code not in NOT_YET_COMPLETE:
                return error
        return None

    def entry_refusal(self) -> IllegalAction | None:
        """Why the entry, complete, would be refused (then OK changes it), or None."""
        if self.entry is None or not isinstance(self.preview, IllegalAction):
            return None
        if self.entry_step() not in (EntryStep.CONFIRM, EntryStep.SLOTS):
            return None
        return self.preview

    def _update_preview(self) -> None:
        entry, game = self.entry, self.game
        self.preview = None
        if entry is None or game is None:
            return
        player = game.position.current
        if entry.kind is EntryKind.HINT:
            hint = entry.action(player)
            if hint is not None and entry.touched:  # nothing touched yet: nothing to say
                try:
                    self.preview = game.preview(hint)
                except IllegalAction as error:
                    self.preview = error
            return
        if entry.card is None:
            return
        action = entry.action(player, hand_memory=self.hand_memory)
        if action is None:
            if self.hand_memory:
                return  # no preview before the slot is known: where it was decides
            action = Play(entry.card, player=player)
        try:
            self.preview = game.preview(action)
        except IllegalAction as error:
            self.preview = error
