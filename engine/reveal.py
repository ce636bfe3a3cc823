"""The hands shown at the end of a game with hand memory: the ``reveal`` line.

GAME-LOG.md, "The hands shown at the end": once a game with hand memory is over, each
seat may show the cards still in its hand, slot 1 first, at most once. Each card must be
one its slot can still be (what the hints said) and must still have a copy unseen,
counting the other reveals; a reveal is not a turn.

:class:`Reveals` is the table's reveals so far over a finished :class:`Game`:
:meth:`Reveals.check` refuses a reveal with the rule's sentence (the same refusals as a
play: :class:`~engine.errors.CardNotInSlot`, :class:`~engine.errors.CardRuledOut`,
:class:`~engine.errors.CardExhausted`), :meth:`Reveals.add` records it, :meth:`Reveals.undo`
takes the last one back. :func:`parse_reveal` and :func:`reveal_to_dict` read and write the
line.

>>> from engine import GameOptions, GameSetup, Play
>>> from engine.cards import Card
>>> game = Game(GameSetup(players=2, options=GameOptions(hand_memory=True)))
>>> Reveals(game).check(Reveal(0, ()))
Traceback (most recent call last):
...
engine.reveal.RevealBeforeTheEnd: The hands are shown once the game is over
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from msgspec import Struct

from engine import errors
from engine.cards import Card
from engine.game import Game, _refuse_card_in_slot


class RevealNeedsHandMemory(errors.IllegalAction):
    """A reveal in a game without hand memory: no slot is known, so none is shown."""

    code = "reveal_needs_hand_memory"
    default_message = "Only a game with hand memory shows its hands at the end"


class RevealBeforeTheEnd(errors.IllegalAction):
    """A reveal while the game is still played."""

    code = "reveal_before_end"
    default_message = "The hands are shown once the game is over"


class RevealedTwice(errors.IllegalAction):
    """A second reveal of the same seat."""

    code = "revealed_twice"
    default_message = "{seat_name} has shown their hand already"


class RevealWrongCount(errors.IllegalAction):
    """A reveal that does not show the whole hand, slot 1 first."""

    code = "reveal_wrong_count"
    default_message = "{seat_name} holds {cards}: show each of them, slot 1 first"


class Reveal(Struct, frozen=True):
    """One seat's hand shown at the end, slot 1 first."""

    player: int
    cards: tuple[Card, ...]


class Reveals:
    """The hands shown so far at the end of ``game`` (finished, with hand memory)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.shown: list[Reveal] = []

    @property
    def seats(self) -> list[int]:
        """The seats that have shown their hand, in the order they did."""
        return [reveal.player for reveal in self.shown]

    @property
    def complete(self) -> bool:
        """Every seat has shown its hand: the whole deal is known."""
        return len(self.shown) == self.game.setup.players

    def check(self, reveal: Reveal) -> None:
        """Raise the refusal ``reveal`` gets, if any; change nothing."""
        game, setup = self.game, self.game.setup
        if not setup.options.hand_memory:
            raise RevealNeedsHandMemory()
        if not game.is_over:
            raise RevealBeforeTheEnd()
        seat = reveal.player
        if not 0 <= seat < setup.players:
            raise errors.NoSuchSeat(seat=seat, players=setup.players)
        if seat in self.seats:
            raise RevealedTwice(names=setup.names, seat=seat)
        size = game.position.hands[seat]
        if len(reveal.cards) != size:
            raise RevealWrongCount(names=setup.names, seat=seat, size=size)
        slots = game.hand_memory(seat)
        unseen = Counter(
            {
                card.ordinal: setup.copies[card.ordinal] - game.position.seen[card.ordinal]
                for card in reveal.cards
            }
        )
        for shown in self.shown:
            unseen.subtract(card.ordinal for card in shown.cards)
        for number, (card, slot) in enumerate(zip(reveal.cards, slots, strict=True), start=1):
            copies = setup.copies[card.ordinal]
            if copies == 0:
                raise errors.SuitNotInGame(card=card)
            if card.color not in slot.colors or card.rank not in slot.ranks:
                _refuse_card_in_slot(setup, slot, number, card)
            if unseen[card.ordinal] <= 0:
                raise errors.CardExhausted(card=card, copies=copies)
            unseen[card.ordinal] -= 1

    def add(self, reveal: Reveal) -> None:
        """Record ``reveal``, or raise its refusal and change nothing."""
        self.check(reveal)
        self.shown.append(reveal)

    def undo(self) -> Reveal:
        """Take the last reveal back and return it."""
        if not self.shown:
            raise errors.NothingToUndo()
        return self.shown.pop()


def parse_reveal(obj: dict[str, Any]) -> Reveal:
    """A ``reveal`` line's object as a :class:`Reveal`; :class:`ValueError` (one sentence)
    for one that is not (the log's parser says it with the line's number)."""
    if obj.get("action") != "reveal" or set(obj) - {"action", "player", "cards"}:
        raise ValueError('a reveal has "action": "reveal", "player" and "cards" only')
    player, cards = obj.get("player"), obj.get("cards")
    if type(player) is not int or not isinstance(cards, list):
        raise ValueError('a reveal names its "player" (a seat) and its "cards" (a list)')
    if not all(isinstance(code, str) for code in cards):
        raise ValueError('a reveal\'s "cards" are card codes such as "R1"')
    return Reveal(player, tuple(Card.from_code(code) for code in cards))


def reveal_to_dict(reveal: Reveal) -> dict[str, Any]:
    """The ``reveal`` line's object (cards as codes, slot 1 first)."""
    return {
        "action": "reveal",
        "player": reveal.player,
        "cards": [card.code() for card in reveal.cards],
    }
