"""A finished game with every hand shown, as Hanab Live's JSON game and replay link.

Hanab Live (hanab.live) replays a game from its JSON (``misc/example_game_with_comments.jsonc``
there: the players, the whole deck from the top, each action with its card's order) or from
the compact text of a ``/shared-replay-json/`` link. It needs the whole deal: with hand
memory, every play and discard says the slot its card left, and once every seat has shown its
hand at the end (``reveal`` lines, :class:`engine.reveal.Reveals`) the order in which every
card was drawn follows (GAME-LOG.md, "The hands shown at the end"). The cards never drawn
are what the inventory leaves, in no known order: here, by suit then rank.

The deal: Hanab Live deals its first player's hand first, oldest card first, and its first
player is the one who starts; our first player is its player 0 and the seats follow in turn.
A hand's newest card is slot 1, as in ours. Clues are spelt as in our logs (decision 0110):
a colour clue's value is the colour's place among the variant's clue colours, a rank clue's
value is the rank named (Odds and Evens: 1 or 2); an orange card's action is the move chosen.

:func:`hanab_live_game` builds the JSON (a dict), :func:`replay_link` the link's text, the
encoding of Hanab Live's ``hypoCompress.ts`` (decision 0120): the player count and the
deck, the actions, the variant's number, separated by commas, a hyphen every 20
characters. A game that cannot go raises :class:`NotExportable` with the reason in one
sentence.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from functools import cache
from typing import Any, Final

import msgspec

from engine.actions import Hint, Play
from engine.cards import ALL_CARDS, Card
from engine.errors import CompanionError
from engine.game import EventKind, Game
from engine.log import replay_revealed
from engine.reveal import Reveal

#: Hanab Live's replay links start so; the text of :func:`replay_link` follows.
REPLAY_URL: Final = "https://hanab.live/shared-replay-json/"
IDS_FILE: Final = "hanab_live_ids.json"
#: The 62 characters of the link's numbers, 0 to 61.
DIGITS: Final = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Hanab Live's names of the printed books' variants (decision 0105), by the multicolor
#: option and wild multicolor.
PRINTED_NAMES: Final = {
    ("none", False): "No Variant",
    ("full", False): "6 Suits",
    ("short", False): "Black (6 Suits)",
    ("full", True): "Rainbow (6 Suits)",
    ("short", True): "Dark Rainbow (6 Suits)",
}
#: Hanab Live's action types.
PLAY, DISCARD, COLOR_CLUE, RANK_CLUE = 0, 1, 2, 3


class NotExportable(CompanionError, ValueError):
    """A game Hanab Live cannot replay as it was played; the message says why."""


class _Ids(msgspec.Struct, frozen=True):
    source: str
    ids: dict[str, int]


@cache
def _ids() -> dict[str, int]:
    """Hanab Live's number of each variant of our table (``benchmarks/hanab_live_crosscheck/
    variant_ids.py`` writes the file)."""
    with open(os.path.join(os.path.dirname(__file__), IDS_FILE), "rb") as data:
        return msgspec.json.decode(data.read(), type=_Ids).ids


def variant_name(game: Game) -> str:
    """Hanab Live's name of the game's variant; :class:`NotExportable` for a rule it lacks."""
    options = game.setup.options
    if options.timed_display:
        raise NotExportable("Hanab Live has no timed display, so this game cannot go there")
    if options.crowning_piece:
        raise NotExportable("Hanab Live has no crowning piece, so this game cannot go there")
    if options.variant is not None:
        return options.variant
    effective = options.effective()
    return PRINTED_NAMES[effective.multicolor.value, effective.wild_multicolor]


def hanab_live_game(game: Game, reveals: list[Reveal]) -> dict[str, Any]:
    """The finished ``game`` with every hand shown (``reveals``, one per seat) as Hanab
    Live's JSON game; :class:`NotExportable` says why one cannot be."""
    setup = game.setup
    if not setup.options.hand_memory:
        raise NotExportable("Only a game with hand memory knows its deal, so this one cannot go")
    if not game.is_over:
        raise NotExportable("The game is not over yet")
    shown = {reveal.player: reveal.cards for reveal in reveals}
    if sorted(shown) != list(range(setup.players)) or len(reveals) != setup.players:
        raise NotExportable("The hands are not shown, so the deal is not known")
    name = variant_name(game)
    rules = setup.rules
    suit_of = {suit.color: index for index, suit in enumerate(rules.suits)}
    clue_colors = rules.named_colors()
    players, first, size = setup.players, setup.first_player, setup.hand_size

    def seat_to_player(seat: int) -> int:
        return (seat - first) % players

    # Each seat's hand as card orders, slot 1 first: the first player's cards are dealt
    # first, and the oldest card of a hand (the first dealt) is in its last slot.
    hands = [
        [seat_to_player(seat) * size + size - slot for slot in range(1, size + 1)]
        for seat in range(players)
    ]
    drawn = players * size
    deck: dict[int, Card] = {}
    # Each action as Hanab Live's, with the card order that left the hand (None: a clue).
    moves: list[tuple[dict[str, int], int | None]] = []
    for action, event in zip(game.actions, game.events, strict=True):
        seat = event.player
        if type(action) is Hint:
            if action.to is None or action.slots is None:
                raise NotExportable("A hint says not whom it was for, so the game cannot go")
            target = seat_to_player(action.to)
            if action.color is not None:
                if action.color not in clue_colors:
                    raise NotExportable(
                        f"Hanab Live has no clue for the colour {action.color.label}"
                    )
                value = clue_colors.index(action.color)
                moves.append(({"type": COLOR_CLUE, "target": target, "value": value}, None))
            elif action.rank is not None:
                moves.append(({"type": RANK_CLUE, "target": target, "value": action.rank}, None))
            else:
                raise NotExportable("A hint names neither a colour nor a rank, so it cannot go")
            continue
        if action.slot is None:
            raise NotExportable("A card has no slot, so the deal is not known")
        order = hands[seat].pop(action.slot - 1)
        deck[order] = action.card
        kind = PLAY if type(action) is Play else DISCARD
        moves.append(({"type": kind, "target": order}, order))
        if event.drew:
            hands[seat].insert(0, drawn)
            drawn += 1
    for seat, hand in enumerate(hands):
        if len(shown[seat]) != len(hand):
            raise NotExportable("A hand shown does not hold as many cards as the game left it")
        deck.update(zip(hand, shown[seat], strict=True))
    left = Counter({card: setup.copies[card.ordinal] for card in ALL_CARDS})
    left.subtract(deck.values())
    if any(count < 0 for count in left.values()):
        raise NotExportable("The cards shown hold more copies of a card than the deck has")
    never_drawn = sorted(left.elements(), key=lambda card: (suit_of[card.color], card.rank))
    for order, card in enumerate(never_drawn, start=drawn):
        deck[order] = card
    moves = moves[: _hanab_live_end(game, deck, moves) + 1]
    actions = [action for action, _ in moves]
    options: dict[str, Any] = {"variant": name}
    if setup.options.empty_clues:
        options["emptyClues"] = True
    return {
        "players": [setup.names[(first + player) % players] for player in range(players)],
        "deck": [
            {"suitIndex": suit_of[deck[order].color], "rank": deck[order].rank}
            for order in range(len(deck))
        ],
        "actions": actions,
        "options": options,
    }


def replay_link(data: dict[str, Any], *, empty_clue_given: bool = False) -> str:
    """The text of Hanab Live's replay link of the JSON game ``data`` (decision 0120).

    The link keeps the player count, the deck, the actions and the variant's number; the
    names and the other options stay behind, so a game with an empty clue has none.

    >>> replay_link({"players": ["A", "B"], "deck": [{"suitIndex": 0, "rank": 1},
    ...     {"suitIndex": 1, "rank": 5}], "actions": [{"type": 0, "target": 1},
    ...     {"type": 3, "target": 0, "value": 5}], "options": {"variant": "No Variant"}})
    '215aj,03ab1a,0'
    """
    if empty_clue_given:
        raise NotExportable(
            "A link to Hanab Live keeps no option, and this game gave an empty clue"
        )
    deck, actions = data["deck"], data["actions"]
    low = min(card["rank"] for card in deck)
    high = max(card["rank"] for card in deck)
    text = f"{len(data['players'])}{low}{high}"
    text += "".join(
        DIGITS[card["suitIndex"] * (high - low + 1) + card["rank"] - low] for card in deck
    )
    text += ","
    if actions:
        kinds = [action["type"] for action in actions]
        low, high = min(kinds), max(kinds)
        text += f"{low}{high}"
        for action in actions:
            value = action.get("value")
            code = (0 if value is None else value + 1) * (high - low + 1) + action["type"] - low
            text += DIGITS[code] + DIGITS[action["target"]]
    else:
        text += "00"
    text += f",{_ids()[data['options']['variant']]}"
    return "-".join(text[start : start + 20] for start in range(0, len(text), 20))


def empty_clue_given(game: Game) -> bool:
    """Whether a hint of ``game`` touched no card by the Empty Clues option (hand memory
    knows the slots it touched; a variant whose clues of a kind touch nothing needs none)."""
    rules = game.setup.rules
    return game.setup.options.empty_clues and any(
        type(action) is Hint
        and action.slots == ()
        and not (action.color is not None and rules.color_clues_touch_nothing)
        and not (action.rank is not None and rules.rank_clues_touch_nothing)
        for action in game.actions
    )


def replay_url(game: Game, reveals: list[Reveal]) -> str:
    """Hanab Live's replay link of ``game`` with every hand shown; :class:`NotExportable`
    says why one cannot be made."""
    data = hanab_live_game(game, reveals)
    return REPLAY_URL + replay_link(data, empty_clue_given=empty_clue_given(game))


def _hanab_live_end(
    game: Game, deck: dict[int, Card], moves: list[tuple[dict[str, int], int | None]]
) -> int:
    """The index of the action after which Hanab Live's server ends the game (decision 0121).

    It sees the hands: besides the three fuses, the final round and the perfect score that
    end ours, it ends the game as soon as no card still needed can be played, each firework's
    next card being discarded or in the hand of a player who has had their last turn. The
    referee plays on (the score cannot change); the export stops where Hanab Live does.
    """
    setup = game.setup
    fireworks = [0] * 6
    left: Counter[Card] = Counter(deck.values())  # the copies not in the discard pile
    hands: list[set[int]] = [set() for _ in range(setup.players)]
    order = 0
    for seat in [(setup.first_player + p) % setup.players for p in range(setup.players)]:
        hands[seat] = set(range(order, order + setup.hand_size))
        order += setup.hand_size
    stuck: Counter[Card] = Counter()  # copies in the hands of players with no turn left
    last_round = False
    for index, ((_, gone), event) in enumerate(zip(moves, game.events, strict=True)):
        seat = event.player
        if gone is not None:
            hands[seat].discard(gone)
            card = deck[gone]
            if event.kind is EventKind.PLAY:
                fireworks[card.color] = card.rank
            else:
                left[card] -= 1
            if event.drew:
                hands[seat].add(order)
                order += 1
        if last_round:
            stuck.update(deck[held] for held in hands[seat])
            hands[seat] = set()
        last_round = last_round or event.final_round_started or order == len(deck)
        if event.end is not None:
            return index
        needed = [
            Card(suit.color, fireworks[suit.color] + 1)
            for suit in setup.rules.suits
            if fireworks[suit.color] < 5
        ]
        if all(left[card] - stuck[card] <= 0 for card in needed):
            return index
    return len(moves) - 1


def game_and_reveals(text: str) -> tuple[Game, list[Reveal]]:
    """A ``hanabi-log/1`` log's game and its ``reveal`` lines, checked as the rules check a
    reveal (:func:`engine.log.replay_revealed`, the one reader of reveals)."""
    game, reveals = replay_revealed(text)
    return game, reveals.shown


def export_log(text: str, *, link: bool = False) -> str:
    """A finished log with every hand shown as Hanab Live's JSON game (one line), or with
    ``link`` as its replay link; :class:`NotExportable` (or the log's error) says why not."""
    game, reveals = game_and_reveals(text)
    if link:
        return replay_url(game, reveals)
    return json.dumps(hanab_live_game(game, reveals), ensure_ascii=False)
