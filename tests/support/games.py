"""Building games by real actions for the rules' tests: short names for a card, a new
game, a play, a discard, a hint, and a scripted deal (:class:`Script`)."""

from engine import (
    Discard,
    Game,
    GameSetup,
    Hint,
    Play,
)
from engine.cards import ALL_CARDS, Card, Color
from engine.options import GameOptions

R, Y, G, B, W, M = Color


def C(code: str) -> Card:
    return Card.from_code(code)


def new(players=2, names=(), first_player=0, **options) -> Game:
    setup = GameSetup(players, first_player, names, options=GameOptions(**options))
    return Game(setup)


def play(game, *codes, announce=None):
    return [game.apply(Play(C(code), announce)) for code in codes][-1]


def discard(game, *codes):
    return [game.apply(Discard(C(code))) for code in codes][-1]


def hint(game, **kwargs):
    return game.apply(Hint(**kwargs))


def spend_hints(game, count):
    for _ in range(count):
        game.apply(Hint())


def all_plays(setup):
    """Every firework card in playing order, rank by rank."""
    return [Card(color, rank) for rank in range(1, 6) for color in setup.colors]


class Script:
    """Feeds a game cards a real deck could hold, so a test can reach any stage.

    It plays the fireworks rank by rank (never the very last card, so no perfect
    display by accident) and discards only spare copies (never a last copy).
    """

    def __init__(self, game: Game, *, spares_first: bool = False) -> None:
        self.game = game
        setup = game.setup
        self.plays = all_plays(setup)[:-1]
        self.spares = [card for card in ALL_CARDS for _ in range(setup.copies[card.ordinal] - 1)]
        self.spares_first = spares_first

    def hint(self):
        return self.game.apply(Hint())

    def card_action(self):
        game = self.game
        if self.plays and not (self.spares_first and self.spares):
            return game.apply(Play(self.plays.pop(0)))
        if game.position.hints == 8:
            self.hint()
        return game.apply(Discard(self.spares.pop(0)))

    def one_turn(self):
        """Exactly one action: a play, a discard, or a hint when a discard is not allowed."""
        if not self.plays and self.game.position.hints == 8:
            return self.hint()
        return self.card_action()

    def draw_down_to(self, left: int):
        while self.game.position.deck > left:
            self.card_action()

    def draw_last_card(self, seat: int):
        """Empty the draw pile so that ``seat`` draws its last card."""
        self.draw_down_to(1)
        if not self.plays and self.game.position.hints == 8:
            self.hint()
        while self.game.position.current != seat:
            self.hint()
        event = self.card_action()
        assert event.drew and self.game.position.deck == 0
        return event


def position_of(game):
    return game.position.copy()


def perfect(game):
    """Play every card of the game's suits in order: the perfect display's last event."""
    events = [game.apply(Play(card)) for card in all_plays(game.setup)]
    return events[-1]
