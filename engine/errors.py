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
