"""The project's one exception tree, and why an action is refused: one exception per rule.

Every exception the project raises on purpose is a :class:`CompanionError`; each
leaf also inherits the builtin that matches what went wrong (gpiozero's pattern),
so a caller catches what it means: a refused action or a bad value is a
``ValueError``, an unusable storage an ``OSError``, no GPIO or no screen a
``RuntimeError``. The leaves live beside what raises them (``SetupError`` in
``engine/options.py``, ``StorageError`` in ``companion/storage.py``…)::

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

from typing import ClassVar


class CompanionError(Exception):
    """The root of every exception the project raises on purpose."""


class IllegalAction(CompanionError, ValueError):
    """An action the rules forbid. Subclasses name the rule."""

    code: ClassVar[str] = "illegal_action"
    default_message: ClassVar[str] = "That action is not allowed"

    def __init__(self, message: str | None = None, **params: object) -> None:
        super().__init__(message or self.default_message)
        #: What the sentence mentions (seat numbers, card codes…), for other languages.
        self.params = params

    @property
    def message(self) -> str:
        """The sentence shown to the players."""
        return str(self)


class GameIsOver(IllegalAction):
    code = "game_over"
    default_message = "The game is over: no more actions"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


class NoSuchSeat(IllegalAction):
    code = "no_such_seat"


class NoHintTokens(IllegalAction):
    code = "no_hint_tokens"
    default_message = "No hint token is left: you cannot give a hint"


class HintTokensFull(IllegalAction):
    code = "hint_tokens_full"
    default_message = "All 8 hint tokens are available: you cannot discard"


class HintToSelf(IllegalAction):
    code = "hint_to_self"
    default_message = "You cannot give a hint to yourself"


class HintNamesBoth(IllegalAction):
    code = "hint_names_both"
    default_message = "A hint names one colour or one rank, never both"


class NoSuchRank(IllegalAction):
    code = "no_such_rank"


class HintColorNotAllowed(IllegalAction):
    code = "hint_color_not_allowed"


class HintToEmptyHand(IllegalAction):
    code = "hint_to_empty_hand"


class NoOneToHint(IllegalAction):
    code = "no_one_to_hint"
    default_message = "Nobody else has a card left: there is no one to give a hint to"


class EmptyHand(IllegalAction):
    code = "empty_hand"
    default_message = "You have no card left to play or discard"


class SuitNotInGame(IllegalAction):
    code = "suit_not_in_game"


class CardExhausted(IllegalAction):
    code = "card_exhausted"


class AnnounceNotAllowed(IllegalAction):
    code = "announce_not_allowed"
    default_message = "Announcing a colour is only allowed in the timed display variant"


class NothingToUndo(IllegalAction):
    code = "nothing_to_undo"
    default_message = "Nothing to undo: the game has just started"


# -- hand memory (RULES.md section 8) --------------------------------------------


class SlotsNotRecorded(IllegalAction):
    code = "slots_not_recorded"
    default_message = "This game does not keep hand memory: slots are not recorded"


class SlotNeeded(IllegalAction):
    code = "slot_needed"
    default_message = "With hand memory, say which slot the card came from"


class HintNeedsSlots(IllegalAction):
    code = "hint_needs_slots"
    default_message = (
        "With hand memory, a hint names its receiver, one colour or rank, and the slots it touched"
    )


class NoSuchSlot(IllegalAction):
    code = "no_such_slot"


class SlotRepeated(IllegalAction):
    code = "slot_repeated"


class HintTouchesNothing(IllegalAction):
    code = "hint_touches_nothing"
    default_message = "A hint must touch at least one card"


class HintMustTouch(IllegalAction):
    """An untouched slot would be left with nothing possible (it can only be the clue)."""

    code = "hint_must_touch"


class HintCannotTouch(IllegalAction):
    """A touched slot cannot be what the hint names."""

    code = "hint_cannot_touch"


class CardNotInSlot(IllegalAction):
    """A revealed card contradicts a hint that touched its slot."""

    code = "card_not_in_slot"


class CardRuledOut(IllegalAction):
    """A revealed card is one its slot is known not to be."""

    code = "card_ruled_out"
