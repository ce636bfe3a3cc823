"""The entry of a play, a discard or a hint: the :class:`Entry` value and its steps.

What the entry under way asks and shows is read by
:class:`~companion.core.entry_view.EntryView`; its keys are handled by
:class:`~companion.core.entering.EntryFlow`.
"""

from __future__ import annotations

from enum import Enum, StrEnum

from msgspec import Struct

from engine.actions import Action, Discard, Hint, Play
from engine.cards import Card, Color
from engine.errors import IllegalAction
from engine.game import Game
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
    HINT = "hint"  # at the content and slots levels: at the count level a hint is one press


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
    """The play, the discard or (at the content and slots levels) the hint being
    entered, as far as it is entered."""

    kind: EntryKind | None  # None: a card was scanned first, "play or discard?"
    color: Color | None = None
    rank: int | None = None
    announce: Color | None = None
    choosing_announce: bool = False
    #: A hint's receiver (a seat), its clue (a colour or a rank) and the slots it touched
    #: (hand memory; at the content level the clue records it, the receiver if known).
    to: int | None = None
    clue: Clue | None = None
    touched: tuple[int, ...] = ()
    #: Which page of clues the soft keys show (the sixth turns it).
    clue_page: int = 0
    #: Where the played or discarded card came from (hand memory).
    slot: int | None = None
    #: The card came from a reader: the last choice records it, with no OK.
    from_reader: bool = False
    #: A phone recorded the turn while this was entered: it is refused as stale, as a
    #: phone's request on a position the table left is (issue 37).
    stale: bool = False

    @property
    def card(self) -> Card | None:
        if self.color is None or self.rank is None:
            return None
        return Card(self.color, self.rank)

    def action(self, player: int, *, hand_memory: bool = False) -> Action | None:
        """The action entered, or None while something is missing."""
        if self.kind is EntryKind.HINT:  # the content level: the clue, a receiver if known
            if self.clue is None or (hand_memory and self.to is None):
                return None
            color, rank = clue_parts(self.clue)
            slots = tuple(sorted(self.touched)) if hand_memory else None
            return Hint(self.to, color, rank, player=player, slots=slots)
        card = self.card
        if card is None or self.kind is None or (hand_memory and self.slot is None):
            return None
        if self.kind is EntryKind.PLAY:
            return Play(card, self.announce, player=player, slot=self.slot)
        return Discard(card, player=player, slot=self.slot)


#: The kind of action each key of the game screen begins.
KEY_KINDS = {Key.HINT: EntryKind.HINT, Key.PLAY: EntryKind.PLAY, Key.DISCARD: EntryKind.DISCARD}


def refused_before_entry(game: Game, kind: EntryKind) -> IllegalAction | None:
    """The refusal every action of ``kind`` gets now, whatever is entered after it (the
    game is over, no hint token left for a hint, all 8 for a discard, no card in hand), or
    None. The one check of the panel's first key and of a phone's first tap (its snapshot
    carries it): both refuse at once, in the same words.

    >>> from engine import GameSetup
    >>> refused_before_entry(Game(GameSetup(players=2)), EntryKind.DISCARD).code
    'hint_tokens_full'
    >>> refused_before_entry(Game(GameSetup(players=2)), EntryKind.PLAY) is None
    True
    """
    try:
        if kind is EntryKind.HINT:
            game.check(Hint(player=game.position.current))
        else:
            game.check_kind(Play if kind is EntryKind.PLAY else Discard)
    except IllegalAction as error:
        if error.code not in NOT_YET_COMPLETE:  # only that the rest is still to enter
            return error
    return None


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
