"""The project's exceptions: their root, and one refusal per rule of the game, in words.

Every exception the project raises on purpose is a :class:`CompanionError`; each
leaf also inherits the builtin that matches what went wrong (gpiozero's pattern),
so a caller catches what it means: a refused action or a bad value is a
``ValueError``, an unusable storage an ``OSError``, no GPIO or no screen a
``RuntimeError``. The leaves live beside what raises them (``CardFormatError`` in
``engine/cards.py``, ``StorageError`` in ``companion/storage/errors.py``…), but
``SetupError`` lives here: the options and the variants both raise it::

    CompanionError
    ├── IllegalAction (ValueError)    a rule refuses the action; one subclass per rule
    ├── CardFormatError, SetupError, LogFormatError, LogRuleError (ValueError)
    ├── HardwareError                 hardware/wiring.py
    │   ├── WiringError (ValueError)  a pin, a value or a name that is not valid
    │   ├── NoGpioError (RuntimeError) no usable GPIO on this machine
    │   └── ScannerError (ValueError) → PortInUseError (+ OSError)
    ├── TagMapError (ValueError)
    ├── ConfigError (ValueError)
    ├── StorageError (OSError)        → UnknownGameError (+ LookupError), DamagedGameError,
    │                                   GameStateError (+ ValueError), StorageFullError
    │                                   (ENOSPC), CompanionRunningError (+ BlockingIOError)
    └── DisplayError, FramebufferError (RuntimeError)

Every refusal carries a stable ``code`` (for programs and tests) and a
sentence a player understands (``str(error)``). A refused action changes
nothing.

>>> error = HintTokensFull()
>>> error.code, str(error)
('hint_tokens_full', 'All 8 hint tokens are available: you cannot discard')
>>> isinstance(error, ValueError)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar


class CompanionError(Exception):
    """The root of every exception the project raises on purpose."""


class SetupError(CompanionError, ValueError):
    """A set-up the rules do not allow (player count, seats, variant mix, variant name).

    ``code`` names the rule, for programs and for other languages:

    >>> SetupError("crowning_one_variant", "...").code
    'crowning_one_variant'
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


#: Every refusal's English sentence, by its code: the one place they are written. The
#: engine's ``str(error)`` and the app's English (``companion/core/languages/en.py``) both
#: say them; other languages translate them, keyed the same. Placeholders: the error's
#: parameters, ``{player_name}``, ``{claimed_name}``, ``{seat_name}`` (a seat's player),
#: ``{card}``, ``{color}``, ``{clue}`` (a colour or a rank) and ``{cards}`` (a hand's size).
ENGLISH: dict[str, str] = {}


class IllegalAction(CompanionError, ValueError):
    """An action the rules forbid; each subclass is one rule.

    ``names`` (the players' names, by seat) words the seats of the sentence; a ``message``
    replaces it.
    """

    code: ClassVar[str] = "illegal_action"
    default_message: ClassVar[str] = "That action is not allowed"

    def __init__(
        self, message: str | None = None, *, names: Sequence[str] = (), **params: object
    ) -> None:
        #: What the sentence mentions (seat numbers, card codes…), for other languages.
        self.params = params
        super().__init__(message or self._english(names))

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        ENGLISH[cls.code] = cls.default_message

    def _english(self, names: Sequence[str]) -> str:
        """The class's sentence with the parameters in the log's words (a card as ``R3``, a
        colour as ``red``: a card's ``code()``, a colour's ``label``; engine/cards.py
        imports this module), or the rule's gist when a parameter is missing."""
        words = dict(self.params)
        clue = words.get("color", words.get("rank"))
        if clue is not None:
            words["clue"] = getattr(clue, "label", clue)
        size = words.get("size")
        if isinstance(size, int):
            words["cards"] = "1 card" if size == 1 else f"{size} cards"
        for key in ("player", "claimed", "seat"):
            seat = words.get(key)
            if isinstance(seat, int):
                known = 0 <= seat < len(names)
                words[f"{key}_name"] = names[seat] if known else f"Player {seat + 1}"
        card = words.get("card")
        if card is not None:
            words["card"] = card.code()  # type: ignore[attr-defined]
            words.setdefault("color", card.color)  # type: ignore[attr-defined]
        words["color"] = getattr(words.get("color"), "label", words.get("color"))
        try:
            return self.default_message.format(**words)
        except (KeyError, IndexError):
            return IllegalAction.default_message

    @property
    def message(self) -> str:
        """The sentence shown to the players."""
        return str(self)


ENGLISH[IllegalAction.code] = IllegalAction.default_message


class GameIsOver(IllegalAction):
    """The game is over: no action is left to take."""

    code = "game_over"
    default_message = "The game is over: no more actions"


class NotYourTurn(IllegalAction):
    """An action said to be another player's than the one whose turn it is."""

    code = "not_your_turn"
    default_message = "It is {player_name}'s turn, not {claimed_name}'s"


class NoSuchSeat(IllegalAction):
    """A seat number the table does not have."""

    code = "no_such_seat"
    default_message = "There is no seat {seat} at a {players}-player table"


class NoHintTokens(IllegalAction):
    """A hint with no hint token left."""

    code = "no_hint_tokens"
    default_message = "No hint token is left: you cannot give a hint"


class HintTokensFull(IllegalAction):
    """A discard while all 8 hint tokens are available."""

    code = "hint_tokens_full"
    default_message = "All 8 hint tokens are available: you cannot discard"


class HintToSelf(IllegalAction):
    """A hint a player gives to themself."""

    code = "hint_to_self"
    default_message = "You cannot give a hint to yourself"


class HintNamesBoth(IllegalAction):
    """A hint naming a colour and a rank at once."""

    code = "hint_names_both"
    default_message = "A hint names one colour or one rank, never both"


class NoSuchRank(IllegalAction):
    """A hint naming a rank that is not 1 to 5."""

    code = "no_such_rank"
    default_message = "A hint names a rank from 1 to 5, not {rank}"


class HintColorNotAllowed(IllegalAction):
    """A hint naming the wild colour, which every colour hint touches."""

    code = "hint_color_not_allowed"
    default_message = (
        "With wild {color}, a hint cannot name {color}: every colour hint touches those cards"
    )


class HintColorNotNamed(IllegalAction):
    """A hint naming a colour the variant's suit of that colour has none of (a white, a
    null, a prism suit: no hint names it)."""

    code = "hint_color_not_named"
    default_message = "No hint names {color} in this variant: its cards have no colour of their own"


class NoColorHints(IllegalAction):
    """A colour hint in a variant whose hints never name a colour (Color Mute)."""

    code = "no_color_hints"
    default_message = "In this variant a hint never names a colour: name a rank"


class NoRankHints(IllegalAction):
    """A rank hint in a variant whose hints never name a rank (Number Mute, Synesthesia)."""

    code = "no_rank_hints"
    default_message = "In this variant a hint never names a rank: name a colour"


class RankHintNotAllowed(IllegalAction):
    """A hint naming a rank the variant's hints do not name (Pink-Ones: no 1 hint)."""

    code = "rank_hint_not_allowed"
    default_message = "In this variant a hint cannot name {rank}"


class HintMustNameRank(IllegalAction):
    """Alternating clues: a colour hint after a colour hint."""

    code = "hint_must_name_rank"
    default_message = "The last hint named a colour: in this variant the next one names a rank"


class HintMustNameColor(IllegalAction):
    """Alternating clues: a rank hint after a rank hint."""

    code = "hint_must_name_color"
    default_message = "The last hint named a rank: in this variant the next one names a colour"


class HintToEmptyHand(IllegalAction):
    """A hint to a player who has no card left."""

    code = "hint_to_empty_hand"
    default_message = "{seat_name} has no card left: a hint must touch at least one card"


class NoOneToHint(IllegalAction):
    """A hint when no other player has a card left."""

    code = "no_one_to_hint"
    default_message = "Nobody else has a card left: there is no one to give a hint to"


class EmptyHand(IllegalAction):
    """A play or a discard by a player who has no card left."""

    code = "empty_hand"
    default_message = "You have no card left to play or discard"


class SuitNotInGame(IllegalAction):
    """A card, a hint's colour or an announcement of a suit the game does not have."""

    code = "suit_not_in_game"
    default_message = "There is no {color} suit in this game"

    def _english(self, names: Sequence[str]) -> str:
        sentence = super()._english(names)
        card = self.params.get("card")
        if card is not None:  # the engine says which card; the app names its colour
            return f"{sentence}: {card.code()} cannot be revealed"  # type: ignore[attr-defined]
        return sentence


class CardExhausted(IllegalAction):
    """A card revealed when every copy of it already is."""

    code = "card_exhausted"
    default_message = (
        "Every {card} is already revealed ({copies} in the deck): this card cannot "
        "exist any more. Check the card"
    )


class AnnounceNotAllowed(IllegalAction):
    """A colour announced outside the timed display variant."""

    code = "announce_not_allowed"
    default_message = "Announcing a colour is only allowed in the timed display variant"


class NothingToUndo(IllegalAction):
    """An undo before the first action."""

    code = "nothing_to_undo"
    default_message = "Nothing to undo: the game has just started"


# -- hand memory (RULES.md section 8) --------------------------------------------


class SlotsNotRecorded(IllegalAction):
    """Slots named in a game without hand memory."""

    code = "slots_not_recorded"
    default_message = "This game does not keep hand memory: slots are not recorded"


class SlotNeeded(IllegalAction):
    """A play or a discard that does not say its slot, with hand memory."""

    code = "slot_needed"
    default_message = "With hand memory, say which slot the card came from"


class HintNeedsSlots(IllegalAction):
    """A hint that does not name its receiver, its clue and its slots, with hand memory."""

    code = "hint_needs_slots"
    default_message = (
        "With hand memory, a hint names its receiver, one colour or rank, and the slots it touched"
    )


class NoSuchSlot(IllegalAction):
    """A slot the hand does not have."""

    code = "no_such_slot"
    default_message = "{seat_name} has {cards}: there is no slot {slot}"


class SlotRepeated(IllegalAction):
    """A hint naming one slot twice."""

    code = "slot_repeated"
    default_message = "Slot {slot} is named twice"


class HintTouchesNothing(IllegalAction):
    """A hint that touches no card."""

    code = "hint_touches_nothing"
    default_message = "A hint must touch at least one card"


_CHECK_THE_SLOTS = "Check the slots, or undo the earlier hint"
_CHECK_THE_SLOT = "Check the slot, or undo the hint"


class HintMustTouch(IllegalAction):
    """An untouched slot would be left with nothing possible (it can only be the clue)."""

    code = "hint_must_touch"
    default_message = (
        "{seat_name}'s slot {slot} can only be {clue}: a {clue} hint must touch it. "
        + _CHECK_THE_SLOTS
    )


class HintCannotTouch(IllegalAction):
    """A touched slot cannot be what the hint names."""

    code = "hint_cannot_touch"
    default_message = (
        "{seat_name}'s slot {slot} cannot be {clue}: a {clue} hint cannot touch it. "
        + _CHECK_THE_SLOTS
    )


class CardNotInSlot(IllegalAction):
    """A revealed card contradicts a hint that touched its slot."""

    code = "card_not_in_slot"
    default_message = "Slot {slot} was hinted {clue}: {card} cannot be there. " + _CHECK_THE_SLOT


class CardNotPossible(IllegalAction):
    """A revealed card the hints about its slot rule out, though its colour and its rank
    each remain possible (a special suit's or a special rank's rules)."""

    code = "card_not_possible"
    default_message = "The hints about slot {slot} rule {card} out. " + _CHECK_THE_SLOT


class CardRuledOut(IllegalAction):
    """A revealed card is one its slot is known not to be."""

    code = "card_ruled_out"
    default_message = "Slot {slot} cannot be {clue}: {card} cannot be there. " + _CHECK_THE_SLOT
