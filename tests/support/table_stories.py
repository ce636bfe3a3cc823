"""Shared parts of the controller's stories: the table's inputs, and what they record.

The controller tests (``test_controller_*.py``) drive a :class:`Controller` with the
input events a keyboard, the GPIO buttons or the scanner would send; these helpers
say those inputs the way a table would ("play R3", "three hints", "a storm").
"""

from __future__ import annotations

import random

from companion.core.controller import (
    SETUP_ROWS,
    SOFT_KEYS,
    Controller,
    RecordAction,
    SaveSettings,
    Screen,
    SetupDraft,
    StartGame,
)
from engine import (
    EndReason,
    Game,
    GameSetup,
    Hint,
    Play,
)
from engine.cards import Card, Color
from engine.game import Position
from engine.options import GameOptions
from engine.table import SimulatedTable
from hardware.events import (
    ChooseColor,
    ChooseRank,
    Key,
    Press,
)

R, Y, G, B, W, M = Color
OK, BACK, NEXT, PREVIOUS = (Press(Key.OK), Press(Key.BACK), Press(Key.NEXT), Press(Key.PREVIOUS))
HINT, PLAY, DISCARD, UNDO = (Press(Key.HINT), Press(Key.PLAY), Press(Key.DISCARD), Press(Key.UNDO))
MENU, HELP = Press(Key.MENU), Press(Key.HELP)


# -- helpers ------------------------------------------------------------------


def C(code: str) -> Card:
    return Card.from_code(code)


def drive(controller: Controller, *events) -> list:
    """Feed the events one by one; return every effect, in order."""
    effects = []
    for event in events:
        effects.extend(controller.handle(event))
    return effects


def started(players: int = 2, *, hint_content: bool = False, **options) -> Controller:
    """A table that pressed Return on the set-up screen (focus starts on "start"); its
    hints at the count level (one press, ``hints``), unless ``hint_content``."""
    draft = SetupDraft(players=players, options=GameOptions(**options), hint_content=hint_content)
    controller = Controller(draft)
    effects = drive(controller, OK)
    assert [type(e) for e in effects] == [SaveSettings, StartGame]
    assert controller.screen is Screen.GAME
    return controller


def card_keys(key: Key, code: str, announce: Color | None = None) -> list:
    """The keyboard: ``p``/``d``, a colour letter, a rank, [announce], Return."""
    card = C(code)
    events = [Press(key), ChooseColor(card.color), ChooseRank(card.rank)]
    if announce is not None:
        events += [PREVIOUS, ChooseColor(announce)]
    return [*events, OK]


def play(controller: Controller, code: str, announce: Color | None = None) -> list:
    return drive(controller, *card_keys(Key.PLAY, code, announce))


def discard(controller: Controller, code: str) -> list:
    return drive(controller, *card_keys(Key.DISCARD, code))


def hints(controller: Controller, count: int = 1) -> list:
    return drive(controller, *[HINT] * count)


def recorded(effects: list) -> list:
    return [effect.action for effect in effects if isinstance(effect, RecordAction)]


def replayed(game: Game) -> Position:
    """What storage would rebuild: the set-up and the recorded actions, folded again."""
    return Game.replay(game.setup, list(game.actions)).position


def fresh(game: Game) -> Position:
    return Game(game.setup).position


def soft_key(controller: Controller, choice: object) -> Press:
    """The GPIO button under ``choice`` on the entry screen."""
    choices = controller.soft_choices()
    assert choice in choices, (choice, choices)
    return Press(SOFT_KEYS[choices.index(choice)])


def events_for(action) -> list:
    """The keyboard events a table would type for an engine action."""
    if isinstance(action, Hint):
        return [HINT]
    key = Key.PLAY if isinstance(action, Play) else Key.DISCARD
    announce = action.announce if isinstance(action, Play) else None
    return card_keys(key, action.card.code(), announce)


def storm(controller: Controller) -> list:
    """Three misplays on empty fireworks."""
    return play(controller, "R2") + play(controller, "R3") + play(controller, "R4")


def nexts_to(c: Controller, row: str) -> list:
    """The NEXT presses that move the set-up focus to ``row`` (it wraps around)."""
    return [NEXT] * ((SETUP_ROWS.index(row) - c.focus) % len(SETUP_ROWS))


def focus(c: Controller, row: str) -> None:
    c.focus = SETUP_ROWS.index(row)


def final_round_game(players: int = 3) -> tuple[GameSetup, list]:
    """The actions of a simulated game that ends with the final round."""
    for seed in range(100):
        setup = GameSetup(players=players)
        table = SimulatedTable(setup, random.Random(seed), skill=1.0)
        game = table.play_out()
        if game.end_reason is EndReason.FINAL_ROUND:
            return setup, list(game.actions)
    raise AssertionError("no simulated game reached the final round")
