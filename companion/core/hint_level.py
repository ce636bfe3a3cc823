"""What the table records of a hint: that one was given, what it said, or the slots it touched.

The three levels (docs/decisions/0097-hint-levels.md):

- ``count``: a hint is one press; the log says a hint was given (``{"action": "hint"}``).
- ``content``: the hint's colour or rank too, no slots (``{"action": "hint", "color":
  "red"}``; ``to`` as well when it is known: at two players, or from a phone); two
  presses on keys.
- ``slots``: hand memory, the game option ``hand_memory`` (the log header says it): the
  receiver, the clue and the slots it touched.

The content level is not in the log's header (GAME-LOG.md has no key for it): it is the
companion's setting, chosen with the others at the set-up (or ``hints`` in the config's
``[game]``) and stored with each game, so that a game taken up again keeps it.

>>> HintLevel.of(hand_memory=False, content=True)
<HintLevel.CONTENT: 'content'>
>>> HintLevel.of(hand_memory=True, content=False)
<HintLevel.SLOTS: 'slots'>
>>> [level.value for level in HintLevel]
['count', 'content', 'slots']
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class HintLevel(StrEnum):
    """What the table records of a hint, in the order the set-up cycles them."""

    COUNT = "count"
    CONTENT = "content"
    SLOTS = "slots"

    @classmethod
    def of(cls, *, hand_memory: bool, content: bool) -> HintLevel:
        """The level of a game: slots with hand memory, else content or count."""
        if hand_memory:
            return cls.SLOTS
        return cls.CONTENT if content else cls.COUNT

    @classmethod
    def from_word(cls, word: object) -> HintLevel | None:
        """The level a stored or configured word names, None for anything else.

        >>> HintLevel.from_word("count"), HintLevel.from_word("loud")
        (<HintLevel.COUNT: 'count'>, None)
        """
        return next((level for level in cls if level.value == word), None)


#: The level a table gets until it chooses another (the set-up's and the config's).
DEFAULT_HINT_LEVEL: Final[HintLevel] = HintLevel.CONTENT

#: The level of a game stored without one (recorded before the levels existed, or
#: brought in by ``import``): a hint is one press, as it was then.
UNKNOWN_HINT_LEVEL: Final[HintLevel] = HintLevel.COUNT
