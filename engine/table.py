"""A simulated table: a real shuffled deck, real hands, random legal turns.

The companion never sees hands; this simulator does, so it can play whole
games that a real table could have played. Tests and benchmarks use it to
produce logs, and to check that every card stays accounted for.

>>> import random
>>> table = SimulatedTable(GameSetup(players=3), random.Random(7))
>>> game = table.play_out()
>>> game.is_over, len(table.hands), sum(map(len, table.hands)) + len(table.draw_pile) > 0
(True, 3, True)
"""

from __future__ import annotations

import random

from msgspec.structs import replace

from engine.actions import Action, Discard, Hint, Play
from engine.cards import ALL_CARDS, Card
from engine.game import Game
from engine.setup import GameSetup


class SimulatedTable:
    """A simulated table: it deals a real deck and plays random legal turns (a :class:`Game`)."""

    def __init__(
        self,
        setup: GameSetup,
        rng: random.Random,
        *,
        skill: float = 0.9,
        play_bias: float = 0.45,
        announce_rate: float = 0.3,
    ) -> None:
        self.setup = setup
        self.rng = rng
        #: Chance that a turn is a sensible one (it sees every hand); else a random legal turn.
        self.skill = skill
        self.play_bias = play_bias
        self.announce_rate = announce_rate
        deck = [card for card in ALL_CARDS for _ in range(setup.copies[card.ordinal])]
        rng.shuffle(deck)
        #: The draw pile; the top card is the last one.
        self.draw_pile = deck
        self.hands: list[list[Card]] = [
            [self.draw_pile.pop() for _ in range(setup.hand_size)] for _ in range(setup.players)
        ]
        self.game = Game(setup)

    def touched(self, seat: int, hint: Hint) -> list[int]:
        """Positions in ``seat``'s hand that ``hint`` points at (complete information: the
        variant's rules say which cards a clue touches)."""
        setup = self.setup
        if hint.rank is not None:
            mask = setup.rank_touches[hint.rank]
        else:
            assert hint.color is not None
            mask = setup.color_touches[hint.color]
        return [i for i, card in enumerate(self.hands[seat]) if mask >> card.ordinal & 1]

    def legal_hints(self) -> list[Hint]:
        """Every complete hint the player to act may give."""
        game, setup = self.game, self.setup
        player = game.position.current
        if game.position.hints < setup.hint_cost:
            return []
        last = game.position.last_clue if setup.alternating else 0
        hints = []
        for seat in range(setup.players):
            if seat == player:
                continue
            options = []
            if last != 2:
                options += [Hint(seat, rank=rank) for rank in setup.clue_ranks]
            if last != 1:
                options += [Hint(seat, color=s.color) for s in setup.suits if s.named_in_hints]
            for hint in options:
                empty = setup.empty_rank_hints if hint.color is None else setup.empty_color_hints
                if empty or self.touched(seat, hint):
                    hints.append(hint)
        return hints

    def slot_of(self, seat: int, card: Card) -> int:
        """The slot of ``card`` in ``seat``'s hand (its first copy); the hand is kept oldest
        first, so slot 1, the newest card, is the last one (GAME-LOG.md, "Hand memory")."""
        hand = self.hands[seat]
        return len(hand) - hand.index(card)

    def with_slots(self, action: Action) -> Action:
        """``action`` with the slots a table keeping hand memory enters."""
        if not self.setup.options.hand_memory:
            return action
        if isinstance(action, Hint):
            assert action.to is not None
            size = len(self.hands[action.to])
            slots = tuple(sorted(size - index for index in self.touched(action.to, action)))
            return replace(action, slots=slots)
        return replace(action, slot=self.slot_of(self.game.position.current, action.card))

    def choose(self) -> Action:
        """A legal action for the player to act, with the real card (and slots, with hand
        memory)."""
        return self.with_slots(self._choose())

    def _choose(self) -> Action:
        game, rng = self.game, self.rng
        player = game.position.current
        hand = self.hands[player]
        hints = self.legal_hints()
        can_discard = bool(hand) and (
            game.position.hints < self.setup.max_hints or self.setup.discard_when_tokens_full
        )
        if rng.random() < self.skill:
            fireworks = game.position.fireworks
            playable = [card for card in hand if card.rank == fireworks[card.color] + 1]
            if playable:
                card = rng.choice(playable)
                announce = (
                    card.color if self.setup.options.timed_display and rng.random() < 0.5 else None
                )
                return Play(card, announce, player=player)
            critical = set(game.critical_cards())
            safe = [card for card in hand if card not in critical]
            if can_discard and safe and (not hints or rng.random() < 0.5):
                useless = [card for card in safe if card.rank <= fireworks[card.color]]
                return Discard(rng.choice(useless or safe), player=player)
            if hints:
                return rng.choice(hints)
        roll = rng.random()
        if hand and (roll < self.play_bias or not (hints or can_discard)):
            card = rng.choice(hand)
            announce = None
            if self.setup.options.timed_display and rng.random() < self.announce_rate:
                announce = card.color if rng.random() < 0.8 else rng.choice(self.setup.colors)
            return Play(card, announce, player=player)
        if can_discard and (roll < 0.75 or not hints):
            return Discard(rng.choice(hand), player=player)
        if hints:
            return rng.choice(hints)
        raise RuntimeError("the engine should have ended a game with no legal action")

    def step(self) -> Action:
        """Play one random legal turn (the engine referees it) and return it."""
        action = self.choose()
        player = self.game.position.current
        self.game.apply(action)
        if not isinstance(action, Hint):
            self.hands[player].remove(action.card)
            position = self.game.position
            if position.hands[player] > len(self.hands[player]):
                self.hands[player].append(self.draw_pile.pop())
        return action

    def play_out(self, max_turns: int = 10_000) -> Game:
        """Play until the game ends."""
        for _ in range(max_turns):
            if self.game.is_over:
                break
            self.step()
        return self.game
