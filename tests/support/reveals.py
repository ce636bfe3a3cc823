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
