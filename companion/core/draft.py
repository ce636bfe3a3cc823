"""The choices of the next game as the set-up screen shows them: the :class:`SetupDraft`.

A value with no screen behind it: the set-up screen's handling is
:class:`~companion.core.setup.SetupFlow`; the app keeps the draft between games.
"""

from __future__ import annotations

import contextlib
from typing import Any

from msgspec import Struct, field
from msgspec.structs import replace

from companion.core import i18n
from companion.core.hint_level import DEFAULT_HINT_LEVEL, HintLevel
from companion.core.i18n import LANGUAGES
from engine.options import OPTION_NAMES, GameOptions, SetupError
from engine.setup import GameSetup

MAX_NAME_LENGTH = 12

#: The set-up's row of what a hint records (count, content, slots): it stands where the
#: option ``hand_memory`` would, which is its third value (docs/decisions/0097).
HINT_LEVEL_ROW = "hint_level"

#: The rows of the set-up screen, top to bottom; the focus starts on "start". What a hint
#: records first of the options: it decides how every action is entered, the variants are rarer.
SETUP_ROWS = (
    "players",
    "start",  # next to the player count: the quick path is a digit, then Return
    "first_player",
    "names",
    *sorted(
        (HINT_LEVEL_ROW if name == "hand_memory" else name for name in OPTION_NAMES),
        key=lambda name: name != HINT_LEVEL_ROW,
    ),
    "language",
)


class SetupDraft(Struct):
    """The choices of the next game, as the set-up screen shows them; remembered between
    games."""

    players: int = 3
    names: list[str] = field(default_factory=list)
    first_player: int = 0
    options: GameOptions = field(default_factory=GameOptions)
    language: str = "en"
    #: Without hand memory, whether a hint records its colour or rank (the content
    #: level) or only that it was given (the count level): see :attr:`hint_level`.
    hint_content: bool = DEFAULT_HINT_LEVEL is not HintLevel.COUNT

    @property
    def hint_level(self) -> HintLevel:
        """What the next game records of a hint: slots (hand memory), content or count."""
        return HintLevel.of(hand_memory=self.options.hand_memory, content=self.hint_content)

    def choose_hint_level(self, level: HintLevel) -> None:
        """Set what the next game records of a hint (the slots level is hand memory)."""
        self.options = self.options.with_value("hand_memory", level is HintLevel.SLOTS)
        if level is not HintLevel.SLOTS:
            self.hint_content = level is HintLevel.CONTENT

    def name(self, seat: int) -> str:
        """The name typed for a seat, else "Player N" in the table's language."""
        if seat < len(self.names) and self.names[seat].strip():
            return self.names[seat].strip()
        return i18n.tr(self.language, "player_n", n=seat + 1)

    def to_setup(self, started_at: str | None = None) -> GameSetup:
        """The game set-up; :class:`SetupError` if the options do not combine."""
        return GameSetup(
            players=self.players,
            first_player=self.first_player % self.players,
            names=tuple(self.name(seat) for seat in range(self.players)),
            options=self.options.effective(),
            started_at=started_at,
        )

    def to_settings(self) -> dict[str, Any]:
        """The choices as the storage remembers them (:meth:`from_settings` reads them)."""
        return {
            "players": self.players,
            "names": list(self.names),
            "first_player": self.first_player,
            **self.options.to_dict(defaults=True),
            HINT_LEVEL_ROW: self.hint_level.value,
            "language": self.language,
        }

    @classmethod
    def from_settings(
        cls, settings: dict[str, Any], default: SetupDraft | None = None
    ) -> SetupDraft:
        """Rebuild remembered choices; anything unreadable keeps its default."""
        draft = replace(default) if default else cls()
        draft.names = list(draft.names)
        players = settings.get("players")
        if type(players) is int and 2 <= players <= 5:
            draft.players = players
        names = settings.get("names")
        if isinstance(names, list) and all(isinstance(n, str) for n in names):
            draft.names = [n[:MAX_NAME_LENGTH] for n in names[:5]]
        first = settings.get("first_player")
        if type(first) is int and 0 <= first < draft.players:
            draft.first_player = first
        draft.first_player %= draft.players
        for name in OPTION_NAMES:
            with contextlib.suppress(SetupError):
                draft.options = draft.options.updated({name: settings.get(name)})
        level = HintLevel.from_word(settings.get(HINT_LEVEL_ROW))
        if level is not None and level is not HintLevel.SLOTS:  # slots: the option says it
            draft.hint_content = level is HintLevel.CONTENT
        if settings.get("language") in LANGUAGES:
            draft.language = settings["language"]
        return draft


def step_language(draft: SetupDraft, step: int = 1) -> None:
    """The table's language moved on to the next one (``step`` -1: back), round."""
    index = LANGUAGES.index(draft.language) + step
    draft.language = LANGUAGES[index % len(LANGUAGES)]
