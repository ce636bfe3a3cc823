"""Finished games with hand memory and the hands a real table holds at their end, for the
tests of the end reveal (GAME-LOG.md, "The hands shown at the end")."""

from __future__ import annotations

import random

from engine.cards import Card
from engine.log import dump_line, format_log
from engine.options import GameOptions
from engine.reveal import Reveal, reveal_to_dict
from engine.setup import GameSetup
from engine.table import SimulatedTable

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed")


def finished_table(players: int = 3, seed: int = 1, **options: object) -> SimulatedTable:
    """A simulated table with hand memory, played to its end."""
    setup = GameSetup(
        players=players,
        names=NAMES[:players],
        options=GameOptions(hand_memory=True, **options),  # type: ignore[arg-type]
    )
    table = SimulatedTable(setup, random.Random(seed), skill=0.8)
    table.play_out()
    assert table.game.is_over
    return table


def true_hand(table: SimulatedTable, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` holds at the end, slot 1 (the newest) first."""
    return tuple(reversed(table.hands[seat]))


def true_reveal(table: SimulatedTable, seat: int) -> Reveal:
    return Reveal(seat, true_hand(table, seat))


def revealed_log(table: SimulatedTable, seats: list[int] | None = None) -> str:
    """The table's log with a ``reveal`` line per seat of ``seats`` (every seat: None)."""
    shown = range(table.setup.players) if seats is None else seats
    lines = [dump_line(reveal_to_dict(true_reveal(table, seat))) for seat in shown]
    return format_log(table.setup, table.game.actions) + "".join(line + "\n" for line in lines)


def wrong_card(table: SimulatedTable, seat: int) -> tuple[int, Card]:
    """A slot of ``seat`` and a card that slot cannot be (the hints ruled it out), or a
    card with no copy left: refused as a play would be."""
    game = table.game
    for slot, known in enumerate(game.hand_memory(seat), start=1):
        for color in table.setup.colors:
            for rank in range(1, 6):
                if color not in known.colors or rank not in known.ranks:
                    return slot, Card(color, rank)
    raise AssertionError("no slot of this hand was ruled out by a hint")


# -- a short game the real app finishes: three misplays at two players -------------------

#: Ann misplays R5, Bo Y5, Ann G5 (each from slot 1): the third fuse, the game is over.
STRUCK_OUT = (("R5", 0), ("Y5", 1), ("G5", 0))
#: The hands a table could show after it (no hint: any card a copy is left of), slot 1 first;
#: Ann drew nothing after the last misplay.
STRUCK_OUT_HANDS = {0: ("W1", "W1", "W1", "W2"), 1: ("B1", "B1", "B1", "B2", "B2")}


def struck_out_setup() -> GameSetup:
    return GameSetup(players=2, names=("Ann", "Bo"), options=GameOptions(hand_memory=True))


def struck_out_reveal(seat: int) -> Reveal:
    return Reveal(seat, tuple(Card.from_code(code) for code in STRUCK_OUT_HANDS[seat]))


def store_struck_out(storage: object) -> int:
    """The short game stored finished, as the app stores it (a Storage)."""
    from engine.actions import Play
    from engine.game import Game

    setup = struck_out_setup()
    game = Game(setup)
    game_id: int = storage.new_game(setup)  # type: ignore[attr-defined]
    for code, seat in STRUCK_OUT:
        action = Play(Card.from_code(code), player=seat, slot=1)
        game.apply(action)
        storage.append_action(game_id, action)  # type: ignore[attr-defined]
    assert game.is_over
    storage.finish(game_id, game)  # type: ignore[attr-defined]
    return game_id


# -- the reveal's screens in their hard cases (tests/panel/test_reveal_screen.py) ----------


def long_table() -> SimulatedTable:
    """Five players with the longest names allowed, six suits, hand memory, played out."""
    from engine.options import Multicolor
    from support.screen_states import LONG_NAMES

    setup = GameSetup(
        players=5,
        names=LONG_NAMES,
        options=GameOptions(hand_memory=True, multicolor=Multicolor.SHORT),
    )
    table = SimulatedTable(setup, random.Random(11), skill=0.8)
    table.play_out()
    return table


def _at_end(lang: str, shown: tuple[int, ...] = ()) -> tuple[SimulatedTable, object]:
    from companion.core.controller import Controller, SetupDraft

    table = long_table()
    controller = Controller(SetupDraft(players=5, language=lang), table.game)
    controller.restore_reveals(tuple(true_reveal(table, seat) for seat in shown))
    return table, controller


def _typed(controller: object, cards: tuple[Card, ...]) -> None:
    from hardware.events import ChooseColor, ChooseRank

    for card in cards:
        controller.handle(ChooseColor(card.color))  # type: ignore[attr-defined]
        controller.handle(ChooseRank(card.rank))  # type: ignore[attr-defined]


def reveal_states() -> dict[str, object]:
    """Each of the reveal's screens, by name: a builder taking a language."""
    from hardware.events import ChooseSeat, Key, Press

    def end_offer(lang: str) -> object:
        return _at_end(lang, (0, 3))[1]  # two hands shown: "Hands shown: …", Show hands

    def end_known(lang: str) -> object:
        return _at_end(lang, (0, 1, 2, 3, 4))[1]

    def seat(lang: str) -> object:
        controller = _at_end(lang)[1]
        controller.handle(Press(Key.HINT))  # type: ignore[attr-defined]
        return controller

    def colour(lang: str) -> object:
        table, controller = _at_end(lang)
        controller.handle(Press(Key.HINT))  # type: ignore[attr-defined]
        controller.handle(ChooseSeat(4))  # type: ignore[attr-defined]
        _typed(controller, true_hand(table, 4)[:2])
        return controller

    def refused(lang: str) -> object:
        table, controller = _at_end(lang)
        controller.handle(Press(Key.HINT))  # type: ignore[attr-defined]
        controller.handle(ChooseSeat(1))  # type: ignore[attr-defined]
        slot, card = wrong_card(table, 1)
        _typed(controller, (*true_hand(table, 1)[: slot - 1], card))
        return controller

    def confirm(lang: str) -> object:
        table, controller = _at_end(lang, (0, 1, 2, 3))
        controller.handle(Press(Key.HINT))  # type: ignore[attr-defined]
        _typed(controller, true_hand(table, 4))  # the last hand: no "whose?"
        return controller

    def undo(lang: str) -> object:
        controller = _at_end(lang, (2,))[1]
        controller.handle(Press(Key.UNDO))  # type: ignore[attr-defined]
        return controller

    return {
        "reveal_end_offer": end_offer,
        "reveal_end_known": end_known,
        "reveal_seat": seat,
        "reveal_colour": colour,
        "reveal_refused": refused,
        "reveal_confirm": confirm,
        "reveal_undo": undo,
    }
