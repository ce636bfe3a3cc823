"""The set-up screen: its rows, a name being typed, and Start, over the :class:`SetupDraft`.

:class:`SetupFlow` is the controller's mixin for the set-up screen (a flow over
:class:`~companion.core.state.ControllerState`): its rows, a name being typed, and
Start.
"""

from __future__ import annotations

from companion.core import i18n
from companion.core.draft import HINT_LEVEL_ROW, MAX_NAME_LENGTH, SETUP_ROWS, step_language
from companion.core.effects import Beep, Effect, Info, Refused, SaveSettings, StartGame
from companion.core.hint_level import HintLevel
from companion.core.state import (
    NEXT_VALUE,
    PREVIOUS_VALUE,
    ControllerState,
    GamePage,
    Screen,
    game_screen,
)
from engine.errors import IllegalAction
from engine.game import Game
from engine.options import OPTION_NAMES, SetupError
from hardware.events import ChooseNumber, InputEvent, Key, Press, Select, TypeText


class SetupFlow(ControllerState):
    """The set-up screen's handling: rows, values, names, Start."""

    def _on_setup(self, event: InputEvent) -> list[Effect]:
        draft = self.draft
        # Start while a game is unfinished says first that it is kept; the question lasts
        # one input.
        asked, self._asked_to_abandon = self._asked_to_abandon, False
        if self.editing_name is not None:
            return self._edit_name(event)
        if isinstance(event, Select) and event.target in SETUP_ROWS:
            self.focus = SETUP_ROWS.index(event.target)
            event = Press(Key.OK)
        if isinstance(event, ChooseNumber) and 2 <= event.number <= 5:
            draft.players = event.number
            draft.first_player %= draft.players
            return []
        if event in (PREVIOUS_VALUE, NEXT_VALUE):  # Left, Right: the focused row's value
            row = SETUP_ROWS[self.focus]
            if row not in ("names", "start"):  # typed, or a button: no value to move
                self.change_setup_row(row, -1 if event == PREVIOUS_VALUE else 1)
            return []
        if not isinstance(event, Press):
            return []
        key = event.key
        if key in (Key.NEXT, Key.PREVIOUS):
            step = 1 if key is Key.NEXT else -1
            self.focus = (self.focus + step) % len(SETUP_ROWS)
        elif key is Key.OK:
            row = SETUP_ROWS[self.focus]
            if row == "start":
                # a game with actions stays in the history, resumable: said once first
                # (one with none is not kept: nothing to say, decision 0101)
                if (
                    self.game is not None
                    and self.game.actions
                    and not self.game.is_over
                    and not asked
                ):
                    self._asked_to_abandon = True
                    self.message = Info("start_keeps_the_game")
                    return []
                return self._start_game()
            self.change_setup_row(row)
        elif key is Key.BACK and self.game is not None:
            self.screen = game_screen(self.game)
        return []

    def change_setup_row(self, row: str, step: int = 1) -> None:
        """Move the value of a set-up row on to the next choice (``step`` -1: back to the
        one before), round the choices as OK does."""
        draft = self.draft
        if row == "players":
            draft.players = (draft.players - 2 + step) % 4 + 2  # 2 to 5
            draft.first_player %= draft.players
        elif row == "first_player":
            draft.first_player = (draft.first_player + step) % draft.players
        elif row == "names":
            self.editing_name = 0
            self.name_selected = True
            while len(draft.names) < draft.players:
                draft.names.append("")
        elif row == "language":
            step_language(draft, step)
        elif row == HINT_LEVEL_ROW:
            levels = list(HintLevel)
            draft.choose_hint_level(levels[(levels.index(draft.hint_level) + step) % len(levels)])
            # said once, as hand memory is chosen: how to hold the cards
            slots = draft.hint_level is HintLevel.SLOTS
            self.message = Info("hand_memory_how_to_hold") if slots else None
        elif row in OPTION_NAMES:
            choices = draft.options.choices(row)
            index = choices.index(draft.options.value(row)) + step
            draft.options = draft.options.with_value(row, choices[index % len(choices)])

    def _edit_name(self, event: InputEvent) -> list[Effect]:
        """A name typed: each one starts selected (the first character typed replaces
        what an earlier table typed, BackSpace erases it whole), then characters add."""
        draft, seat = self.draft, self.editing_name
        assert seat is not None
        selected, self.name_selected = self.name_selected, False
        if isinstance(event, TypeText):
            text = "".join(ch for ch in event.text if ch.isprintable())
            before = "" if selected and text else draft.names[seat]
            draft.names[seat] = (before + text)[:MAX_NAME_LENGTH]
            self.name_selected = selected and not text  # nothing typed: still selected
        elif isinstance(event, Press) and event.key is Key.UNDO:
            draft.names[seat] = "" if selected else draft.names[seat][:-1]
        elif isinstance(event, Press) and event.key in (Key.OK, Key.NEXT):
            self.editing_name = seat + 1 if seat + 1 < draft.players else None
            self.name_selected = self.editing_name is not None
        elif isinstance(event, Press) and event.key is Key.BACK:
            self.editing_name = None
        else:
            self.name_selected = selected  # a key that does nothing here
        return []

    def _start_game(self) -> list[Effect]:
        started_at = self._clock() if self._clock else None
        try:
            setup = self.draft.to_setup(started_at)
        except SetupError as error:  # options the rules do not combine
            self.message = (
                Info(error.code)
                if i18n.has_text(error.code)
                else Refused(IllegalAction(str(error)))
            )
            return [Beep("refused")]
        self.game = Game(setup)
        level = self.draft.hint_level
        self.hint_content = level is HintLevel.CONTENT
        self.screen = Screen.GAME
        self.entry = None
        self.preview = None
        self.page = GamePage.TABLE
        self.message = None
        return [SaveSettings(self.draft.to_settings()), StartGame(setup, level)]
