"""Drive DeepMind's Hanabi Learning Environment (HLE) and translate its games into our log.

HLE deals from its own seeded generator, so the games come from HLE: it
plays, we record what the table would reveal (the card played or discarded,
the hint's receiver and colour or rank) as a ``hanabi-log/1`` text. With
``hand_memory=True`` the log also has ``hand_memory: true`` in its header, the
slots each hint touched and the slot of each played or discarded card, and
each move's HLE card knowledge is kept (GAME-LOG.md, "Hand memory"). HLE keeps
a hand oldest first, we number slots from the newest: slot = hand size − index.
Used by ``crosscheck_hle.py`` (hand memory) and ``engine_speed.py`` (base
logs); needs the ``hanabi-learning-environment`` package, which CI does not
install.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from hanabi_learning_environment import pyhanabi

from engine.actions import Action, Discard, Hint, Play
from engine.cards import Card, Color
from engine.log import format_log
from engine.options import GameOptions
from engine.setup import GameSetup

Move = Any  # pyhanabi.HanabiMove, or None for "deal a card" (a chance move)

SlotView = tuple[tuple[str, ...], tuple[int, ...]]
"""What one slot may be: colour labels (suit order) and ranks (ascending)."""

Knowledge = list[list[SlotView]]
"""Per seat, per slot from slot 1 (the newest card): what the hints leave possible."""


@dataclass
class HleGame:
    seed: int
    players: int
    moves: list[Move]  # player moves and None for each chance deal, in order
    recorded: list[tuple[int, int, int, int, int] | None]  # each move as plain numbers
    actions: list[Action]
    snapshots: list[dict[str, Any]]  # HLE's view after each player move
    log_text: str
    #: With hand memory: HLE's card knowledge after each player move (else empty).
    knowledge: list[Knowledge]


def new_hle_game(players: int, seed: int) -> pyhanabi.HanabiGame:
    return pyhanabi.HanabiGame({"players": players, "seed": seed, "random_start_player": False})


def _card(hle_card: pyhanabi.HanabiCard) -> Card:
    return Card(
        Color.from_letter(pyhanabi.color_idx_to_char(hle_card.color())), hle_card.rank() + 1
    )


def snapshot(state: pyhanabi.HanabiState) -> dict[str, Any]:
    fireworks = state.fireworks()
    return {
        "hints": state.information_tokens(),
        "fuses": 3 - state.life_tokens(),
        "deck": state.deck_size(),
        "fireworks": {
            Color.from_letter(pyhanabi.color_idx_to_char(i)).label: top
            for i, top in enumerate(fireworks)
        },
        "discards": sorted(_card(card).code() for card in state.discard_pile()),
        "over": state.is_terminal(),
        "score": state.score(),
        "current_player": None if state.is_terminal() else state.cur_player(),
    }


def _color(index: int) -> Color:
    return Color.from_letter(pyhanabi.color_idx_to_char(index))


def card_knowledge(state: pyhanabi.HanabiState, observer: int) -> Knowledge:
    """HLE's card knowledge as ``observer`` sees it, by seat and by our slot numbers.

    HLE lists each hand oldest first and relative to the observer: the card at
    index i of offset o is seat (observer + o) % players, slot len(hand) − i.
    """
    players = state.num_players()
    # Keep the observation alive while reading: each knowledge points into it.
    observation = state.observation(observer)
    by_offset = observation.card_knowledge()
    seats: Knowledge = [[] for _ in range(players)]
    for offset, hand in enumerate(by_offset):
        seats[(observer + offset) % players] = [
            (
                tuple(
                    color.label
                    for color in sorted(_color(c) for c in range(5) if card.color_plausible(c))
                ),
                tuple(r + 1 for r in range(5) if card.rank_plausible(r)),
            )
            for card in reversed(hand)  # slot 1 (the newest card) first
        ]
    del observation
    return seats


def hint_slots(hand: list[pyhanabi.HanabiCard], move: Move) -> tuple[int, ...]:
    """The slots (slot = hand size − index) of the cards a colour or rank hint touches."""
    if move.type() == pyhanabi.HanabiMoveType.REVEAL_COLOR:
        touched = [i for i, card in enumerate(hand) if card.color() == move.color()]
    else:
        touched = [i for i, card in enumerate(hand) if card.rank() == move.rank()]
    return tuple(sorted(len(hand) - i for i in touched))


def play_hle_game(
    players: int, seed: int, skill: float = 0.85, *, hand_memory: bool = False
) -> HleGame:
    """Let HLE play one game with a simple policy; record it as our log.

    With ``hand_memory`` the log records slots and HLE's card knowledge is kept
    after every move; without, the log is a base game's, as before.
    """
    rng = random.Random(seed)
    hle_game = new_hle_game(players, seed)  # keep it alive: HLE's state does not
    state = hle_game.new_initial_state()
    moves: list[Move] = []
    recorded: list[tuple[int, int, int, int, int] | None] = []
    actions: list[Action] = []
    snapshots = []
    knowledge: list[Knowledge] = []

    def deal() -> None:
        while not state.is_terminal() and state.cur_player() == pyhanabi.CHANCE_PLAYER_ID:
            state.deal_random_card()
            moves.append(None)
            recorded.append(None)

    deal()
    while not state.is_terminal():
        player = state.cur_player()
        hand = state.player_hands()[player]
        legal = state.legal_moves()
        playable = [
            m
            for m in legal
            if m.type() == pyhanabi.HanabiMoveType.PLAY
            and state.card_playable_on_fireworks(
                hand[m.card_index()].color(), hand[m.card_index()].rank()
            )
        ]
        if rng.random() < skill:  # a careful player: play what fits, else hint or discard
            careful = [m for m in legal if m.type() != pyhanabi.HanabiMoveType.PLAY]
            move = rng.choice(playable or careful or legal)
        else:
            move = rng.choice(legal)
        kind = move.type()
        if kind in (pyhanabi.HanabiMoveType.PLAY, pyhanabi.HanabiMoveType.DISCARD):
            card = _card(hand[move.card_index()])
            slot = len(hand) - move.card_index() if hand_memory else None
            if kind == pyhanabi.HanabiMoveType.PLAY:
                actions.append(Play(card, player=player, slot=slot))
            else:
                actions.append(Discard(card, player=player, slot=slot))
        else:
            to = (player + move.target_offset()) % players
            slots = hint_slots(state.player_hands()[to], move) if hand_memory else None
            if kind == pyhanabi.HanabiMoveType.REVEAL_COLOR:
                color = _color(move.color())
                actions.append(Hint(to=to, color=color, player=player, slots=slots))
            else:
                actions.append(Hint(to=to, rank=move.rank() + 1, player=player, slots=slots))
        state.apply_move(move)
        moves.append(move)
        recorded.append(
            (int(kind), move.card_index(), move.target_offset(), move.color(), move.rank())
        )
        deal()
        snapshots.append(snapshot(state))
        if hand_memory:
            knowledge.append(card_knowledge(state, observer=player))
    setup = GameSetup(players=players, options=GameOptions(hand_memory=hand_memory))
    text = format_log(setup, actions)
    return HleGame(seed, players, moves, recorded, actions, snapshots, text, knowledge)


def replay_in_hle(game: HleGame, hle_game: pyhanabi.HanabiGame) -> int:
    """Apply the recorded moves again in HLE (a fresh game with the same seed)."""
    state = hle_game.new_initial_state()
    applied = 0
    for move in game.moves:
        if move is None:
            state.deal_random_card()
        else:
            state.apply_move(move)
            applied += 1
    return applied


def replay_in_hle_building_moves(game: HleGame, hle_game: pyhanabi.HanabiGame) -> int:
    """Apply the recorded game in HLE, building each move from its recorded numbers.

    The counterpart of our parse + referee: both start from a recorded description
    of the moves, not from move objects made beforehand.
    """
    state = hle_game.new_initial_state()
    kinds = pyhanabi.HanabiMoveType
    applied = 0
    for record in game.recorded:
        if record is None:
            state.deal_random_card()
            continue
        kind, index, offset, color, rank = record
        if kind == kinds.PLAY:
            move = pyhanabi.HanabiMove.get_play_move(index)
        elif kind == kinds.DISCARD:
            move = pyhanabi.HanabiMove.get_discard_move(index)
        elif kind == kinds.REVEAL_COLOR:
            move = pyhanabi.HanabiMove.get_reveal_color_move(offset, color)
        else:
            move = pyhanabi.HanabiMove.get_reveal_rank_move(offset, rank)
        state.apply_move(move)
        applied += 1
    return applied
