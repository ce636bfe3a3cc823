"""Long games played through the real controller, key by key, as a table enters them.

A simulated table (:class:`engine.table.SimulatedTable`: a real shuffled deck, real
hands) chooses each turn; the turn is then entered on the controller with the panel's
keys (PLAY, a colour, a rank, OK; HINT, and with hand memory its receiver, clue and
slots), and the controller records it. :func:`controller_turns` yields the controller
before the first action and after each one, to the last turn of the game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from companion.core.controller import Controller, Screen, SetupDraft
from engine import Discard, Hint, Play
from engine.actions import Action
from engine.options import GameOptions
from engine.table import SimulatedTable
from hardware.events import ChooseColor, ChooseRank, ChooseSeat, ChooseSlot, InputEvent, Key, Press


def keys_for(action: Action, *, hand_memory: bool) -> list[InputEvent]:
    """The presses that enter ``action`` on the panel (a hint's receiver, clue and slots
    are said only where the panel asks for them: see :func:`enter`)."""
    if isinstance(action, Hint):
        return [Press(Key.HINT)]
    key = Key.PLAY if isinstance(action, Play) else Key.DISCARD
    card = action.card
    slot = [ChooseSlot(action.slot)] if hand_memory and action.slot is not None else []
    return [Press(key), *slot, ChooseColor(card.color), ChooseRank(card.rank), Press(Key.OK)]


def enter(controller: Controller, action: Action) -> None:
    """Enter ``action`` with the panel's keys; fail loudly if it was not recorded."""
    game = controller.game
    assert game is not None
    before = len(game.actions)
    for event in keys_for(action, hand_memory=controller.hand_memory):
        controller.handle(event)
    if isinstance(action, Hint) and len(game.actions) == before:
        # the panel asks for the hint's content: its receiver, its clue, its slots
        assert controller.screen is Screen.ENTRY, controller.message
        assert action.to is not None
        if controller.entry is not None and controller.entry.to is None:
            controller.handle(ChooseSeat(action.to))
        clue = ChooseColor(action.color) if action.color is not None else None
        controller.handle(clue or ChooseRank(action.rank or 1))
        for slot in action.slots or ():
            controller.handle(ChooseSlot(slot, seat=action.to))
        if len(game.actions) == before:
            controller.handle(Press(Key.OK))
    assert len(game.actions) == before + 1, f"{action} not recorded: {controller.message}"


def controller_turns(
    names: tuple[str, ...],
    options: GameOptions,
    lang: str,
    seed: int,
    *,
    skill: float = 0.8,
    play_bias: float = 0.3,
) -> Iterator[Controller]:
    """A whole game of these players, from the set-up's Start to its last turn: the
    controller on the game screen before each action (the last one included)."""
    draft = SetupDraft(players=len(names), names=list(names), language=lang, options=options)
    controller = Controller(draft)
    controller.handle(Press(Key.OK))  # Start
    game = controller.game
    assert game is not None and controller.screen is Screen.GAME
    table = SimulatedTable(game.setup, random.Random(seed), skill=skill, play_bias=play_bias)
    table.game = game  # the controller's game: the table only chooses and deals
    while not game.is_over:
        yield controller
        action = table.choose()
        player = game.position.current
        enter(controller, action)
        if isinstance(action, Play | Discard):
            table.hands[player].remove(action.card)
            if game.position.hands[player] > len(table.hands[player]):
                table.hands[player].append(table.draw_pile.pop())


def long_game_seed(
    names: tuple[str, ...], options: GameOptions, *, discards: int, seeds: range = range(200)
) -> int:
    """The first seed whose game (as :func:`controller_turns` plays it) ends with at
    least ``discards`` cards in the pile and reaches its final round."""
    from engine.game import Game

    for seed in seeds:
        game: Game | None = None
        final_round = False
        for controller in controller_turns(names, options, "en", seed):
            game = controller.game
            final_round = final_round or bool(game and game.final_round_order())
        if game is not None and final_round and len(game.position.discards) >= discards:
            return seed
    raise AssertionError(f"no seed plays a game of {discards} discards and a final round")
