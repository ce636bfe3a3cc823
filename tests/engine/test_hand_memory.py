"""Hand memory (RULES.md section 8; GAME-LOG.md, "Hand memory"): slots, what the hints
leave possible in each, how plays and discards shift them, and what is refused."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import errors
from engine.actions import Discard, Hint, Play
from engine.cards import Card, Color
from engine.game import Game
from engine.log import LogFormatError, LogRuleError, format_log, replay_log, summary
from engine.memory import SlotKnowledge
from engine.options import GameOptions, Multicolor
from engine.setup import GameSetup
from engine.table import SimulatedTable

MEMORY = GameOptions(hand_memory=True)
WILD = GameOptions(hand_memory=True, multicolor=Multicolor.SHORT, wild_multicolor=True)
FIVE_COLORS = [Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE, Color.WHITE]


def new_game(players: int = 2, options: GameOptions = MEMORY, names=("Ann", "Bo")) -> Game:
    return Game(GameSetup(players=players, names=names[:players] if names else (), options=options))


def card(code: str) -> Card:
    return Card.from_code(code)


def colors(slot: SlotKnowledge) -> list[Color]:
    return sorted(slot.colors)


def refused(game: Game, action, error: type[errors.IllegalAction]) -> errors.IllegalAction:
    """``action`` is refused with ``error`` and nothing changes."""
    before, applied = game.position.copy(), len(game.actions)
    with pytest.raises(error) as raised:
        game.apply(action)
    assert game.position == before and len(game.actions) == applied
    return raised.value


# -- the deal and the shift ----------------------------------------------------------------


def test_the_deal_gives_every_seat_one_fresh_slot_per_card():
    game = new_game(players=4, names=None)
    assert [len(game.hand_memory(seat)) for seat in range(4)] == [4, 4, 4, 4]
    fresh = game.hand_memory(0)[0]
    assert colors(fresh) == FIVE_COLORS and sorted(fresh.ranks) == [1, 2, 3, 4, 5]
    assert not fresh.touched and fresh.color is None and fresh.rank is None


def test_without_the_option_there_is_no_memory_and_the_position_is_as_before():
    game = Game(GameSetup(players=2))
    assert game.position.memory is None and game.hand_memory(0) == ()


def test_a_card_leaving_slot_k_moves_slots_1_to_k_minus_1_right_and_the_new_card_takes_slot_1():
    game = new_game()
    game.apply(Hint(to=1, rank=1, slots=(1,)))  # Ann: Bo's slot 1 is a 1
    game.apply(Hint(to=0, rank=5, slots=(2,)))  # Bo: Ann's slot 2 is a 5
    game.apply(Hint(to=1, rank=2, slots=(3,)))  # Ann: Bo's slot 3 is a 2
    assert [slot.rank for slot in game.hand_memory(1)] == [1, None, 2, None, None]
    game.apply(Play(card("Y1"), slot=1))  # Bo plays slot 1 and draws into slot 1
    assert [slot.rank for slot in game.hand_memory(1)] == [None, None, 2, None, None]
    game.apply(Discard(card("G3"), slot=3))  # Ann: slot 3 leaves; slots 1 and 2 move right
    ann = game.hand_memory(0)
    assert [slot.rank for slot in ann] == [None, None, 5, None, None]
    assert [slot.touched for slot in ann] == [False, False, True, False, False]
    assert 5 not in ann[1].ranks  # the old slot 1, untouched by the 5 hint, now slot 2


def test_a_game_that_ends_at_once_draws_nothing_and_the_hand_is_one_slot_shorter():
    game = new_game()
    for code in ("R5", "Y5"):
        game.apply(Play(card(code), slot=1))  # misplays: fuses 1 and 2
        game.apply(Hint(to=0, rank=2, slots=(2,)))
    game.apply(Play(card("G5"), slot=1))  # the third fuse: the game ends, nobody draws
    assert game.is_over and len(game.hand_memory(0)) == 4 == game.position.hands[0]


def test_in_the_final_round_no_card_is_drawn_and_the_hand_shrinks():
    for seed in range(50):
        table = SimulatedTable(GameSetup(players=2, options=MEMORY), random.Random(seed))
        game = table.game
        while game.position.final_round_turns_left is None and not game.is_over:
            table.step()
        while not game.is_over:
            seat = game.position.current
            before = len(game.hand_memory(seat))
            action = table.step()
            if not isinstance(action, Hint):
                assert len(game.hand_memory(seat)) == before - 1 == game.position.hands[seat]
                return
    pytest.fail("no seed reached a play or a discard in the final round")


# -- what a hint tells -----------------------------------------------------------------------


def test_a_colour_hint_keeps_its_colour_where_it_touched_and_removes_it_elsewhere():
    game = new_game()
    game.apply(Hint(to=1, color=Color.RED, slots=(1, 4)))
    bo = game.hand_memory(1)
    assert [slot.color for slot in bo] == [Color.RED, None, None, Color.RED, None]
    assert colors(bo[1]) == [Color.YELLOW, Color.GREEN, Color.BLUE, Color.WHITE]
    assert bo[0].clues == (Color.RED,) and bo[0].touched and not bo[1].touched


def test_a_rank_hint_keeps_its_rank_where_it_touched_and_removes_it_elsewhere():
    game = new_game()
    game.apply(Hint(to=1, rank=3, slots=(2,)))
    bo = game.hand_memory(1)
    assert bo[1].rank == 3 and sorted(bo[0].ranks) == [1, 2, 4, 5]


def test_with_wild_multicolor_a_colour_hint_keeps_multicolor_where_it_touched_only():
    game = new_game(options=WILD)
    game.apply(Hint(to=1, color=Color.RED, slots=(1,)))
    bo = game.hand_memory(1)
    assert colors(bo[0]) == [Color.RED, Color.MULTICOLOR]
    assert Color.MULTICOLOR not in bo[1].colors
    game.apply(Hint(to=0, rank=1, slots=(1,)))
    game.apply(Hint(to=1, color=Color.BLUE, slots=(1,)))  # red and blue: it is multicolor
    assert game.hand_memory(1)[0].color is Color.MULTICOLOR


def test_without_wild_multicolor_the_multicolor_suit_is_a_colour_like_the_others():
    game = new_game(options=GameOptions(hand_memory=True, multicolor=Multicolor.FULL))
    game.apply(Hint(to=1, color=Color.MULTICOLOR, slots=(5,)))
    bo = game.hand_memory(1)
    assert bo[4].color is Color.MULTICOLOR and Color.MULTICOLOR not in bo[0].colors


def test_a_hint_with_no_slot_is_allowed_with_empty_clues_and_removes_the_clue_everywhere():
    game = new_game(options=GameOptions(hand_memory=True, empty_clues=True))
    game.apply(Hint(to=1, rank=5, slots=()))
    assert all(5 not in slot.ranks for slot in game.hand_memory(1))


# -- refusals ---------------------------------------------------------------------------------


def test_a_slot_an_earlier_red_hint_touched_must_be_touched_by_a_new_red_hint():
    game = new_game()
    game.apply(Hint(to=1, color=Color.RED, slots=(2,)))
    game.apply(Hint(to=0, rank=1, slots=(1,)))
    error = refused(game, Hint(to=1, color=Color.RED, slots=(1,)), errors.HintMustTouch)
    assert str(error).startswith("Bo's slot 2 can only be red: a red hint must touch it")
    assert error.params == {"seat": 1, "slot": 2, "color": Color.RED}


def test_a_slot_known_not_to_be_red_cannot_be_touched_by_a_red_hint():
    game = new_game()
    game.apply(Hint(to=1, color=Color.RED, slots=(2,)))
    game.apply(Hint(to=0, rank=1, slots=(1,)))
    error = refused(game, Hint(to=1, color=Color.RED, slots=(2, 3)), errors.HintCannotTouch)
    assert str(error).startswith("Bo's slot 3 cannot be red: a red hint cannot touch it")


def test_a_blue_hint_cannot_touch_a_red_card_without_wild_multicolor_but_can_with_it():
    plain = new_game()
    plain.apply(Hint(to=1, color=Color.RED, slots=(1,)))
    plain.apply(Hint(to=0, rank=1, slots=(1,)))
    refused(plain, Hint(to=1, color=Color.BLUE, slots=(1,)), errors.HintCannotTouch)
    wild = new_game(options=WILD)
    wild.apply(Hint(to=1, color=Color.RED, slots=(1,)))
    wild.apply(Hint(to=0, rank=1, slots=(1,)))
    wild.apply(Hint(to=1, color=Color.BLUE, slots=(1,)))


def test_a_rank_hint_contradicting_an_earlier_rank_hint_is_refused():
    game = new_game()
    game.apply(Hint(to=1, rank=4, slots=(3,)))
    game.apply(Hint(to=0, rank=1, slots=(1,)))
    error = refused(game, Hint(to=1, rank=2, slots=(3,)), errors.HintCannotTouch)
    assert error.params == {"seat": 1, "slot": 3, "rank": 2}


def test_a_revealed_card_its_slot_was_hinted_against_is_refused_with_the_hint_named():
    game = new_game()
    game.apply(Hint(to=1, color=Color.RED, slots=(2,)))
    error = refused(game, Play(card("B3"), slot=2), errors.CardNotInSlot)
    assert (
        str(error) == "Slot 2 was hinted red: B3 cannot be there. Check the slot, or undo the hint"
    )
    assert error.params == {"slot": 2, "card": card("B3"), "color": Color.RED}
    game.apply(Play(card("R3"), slot=2))  # the right card goes


def test_a_revealed_card_its_slot_is_known_not_to_be_is_refused():
    game = new_game()
    game.apply(Hint(to=1, rank=3, slots=(2,)))  # Bo's turn next
    error = refused(game, Discard(card("G3"), slot=1), errors.CardRuledOut)
    assert str(error).startswith("Slot 1 cannot be 3: G3 cannot be there")
    error = refused(game, Discard(card("G4"), slot=2), errors.CardNotInSlot)
    assert str(error).startswith("Slot 2 was hinted 3: G4 cannot be there")


def test_a_slot_the_hand_does_not_have_is_refused_for_hints_plays_and_discards():
    game = new_game()
    error = refused(game, Hint(to=1, rank=1, slots=(6,)), errors.NoSuchSlot)
    assert str(error) == "Bo has 5 cards: there is no slot 6"
    refused(game, Play(card("R1"), slot=0), errors.NoSuchSlot)
    with pytest.raises(errors.NoSuchSlot):
        game.check_slot(6)
    game.check_slot(5)


def test_with_hand_memory_every_action_says_where_its_cards_were():
    game = new_game()
    refused(game, Hint(to=1, rank=1), errors.HintNeedsSlots)
    refused(game, Hint(rank=1, slots=(1,)), errors.HintNeedsSlots)
    refused(game, Hint(to=1, slots=(1,)), errors.HintNeedsSlots)
    refused(game, Play(card("R1")), errors.SlotNeeded)
    refused(game, Hint(to=1, rank=1, slots=(1, 1)), errors.SlotRepeated)
    refused(game, Hint(to=1, rank=1, slots=()), errors.HintTouchesNothing)


def test_a_card_refused_whatever_its_slot_is_refused_before_the_slot_is_asked():
    game = new_game()  # no multicolor suit: the card is wrong in any slot
    refused(game, Play(card("M1")), errors.SuitNotInGame)


def test_without_hand_memory_slots_are_refused():
    game = Game(GameSetup(players=2))
    refused(game, Hint(to=1, rank=1, slots=(1,)), errors.SlotsNotRecorded)
    refused(game, Play(card("R1"), slot=1), errors.SlotsNotRecorded)
    with pytest.raises(errors.SlotsNotRecorded):
        game.check_slot(1)


# -- properties over whole games -----------------------------------------------------------


def memory_options() -> st.SearchStrategy[GameOptions]:
    return st.sampled_from([o for o in GameOptions.every() if o.hand_memory and _allowed(o)])


def _allowed(options: GameOptions) -> bool:
    try:
        options.check()
    except ValueError:
        return False
    return True


GAMES = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


@GAMES
@given(memory_options(), st.integers(2, 5), st.integers(0, 2**32 - 1))
def test_every_real_card_is_always_possible_in_its_slot(options, players, seed):
    """Soundness: hints given by a real table never rule out the card really there."""
    table = SimulatedTable(GameSetup(players=players, options=options), random.Random(seed))
    while not table.game.is_over:
        table.step()
        for seat, hand in enumerate(table.hands):
            memory = table.game.hand_memory(seat)
            assert len(memory) == len(hand)
            for index, real in enumerate(hand):
                assert memory[len(hand) - 1 - index].allows(real)


@GAMES
@given(memory_options(), st.integers(2, 5), st.integers(0, 2**32 - 1))
def test_undo_restores_the_memory_exactly(options, players, seed):
    table = SimulatedTable(GameSetup(players=players, options=options), random.Random(seed))
    positions = [table.game.position.copy()]
    while not table.game.is_over:
        table.step()
        positions.append(table.game.position.copy())
    game = table.game
    while game.actions:
        game.undo()
        positions.pop()
        assert game.position == positions[-1]


def clues_from_events(game: Game) -> list[list[tuple]]:
    """Each seat's slot clues folded from the events, which say whether a card was drawn."""
    seats: list[list[tuple]] = [[()] * game.setup.hand_size for _ in range(game.setup.players)]
    for event in game.events:
        action = event.action
        if isinstance(action, Hint):
            clue = action.color if action.color is not None else action.rank
            for slot in action.slots:
                seats[action.to][slot - 1] += (clue,)
        else:
            hand = seats[event.player]
            del hand[action.slot - 1]
            if event.drew:
                hand.insert(0, ())
    return seats


def slot_clues(game: Game) -> list[list[tuple]]:
    return [[slot.clues for slot in game.hand_memory(seat)] for seat in range(game.setup.players)]


@GAMES
@given(memory_options(), st.integers(2, 5), st.integers(0, 2**32 - 1))
def test_each_slot_keeps_the_clues_that_touched_its_card_as_the_cards_move(options, players, seed):
    """RULES.md section 8: a hint adds its clue to the slots it touched, a card leaving its
    slot takes its clues along, a card drawn starts with none, and a game that ends at once
    draws nothing. The referee works the clues out when asked: asked after every action,
    once after a replay (no event built), and after an undo, they are what the events say."""
    table = SimulatedTable(GameSetup(players=players, options=options), random.Random(seed))
    while not table.game.is_over:
        table.step()
        assert slot_clues(table.game) == clues_from_events(table.game)
    game = table.game
    replayed = Game.replay(game.setup, list(game.actions))
    assert slot_clues(replayed) == clues_from_events(game)
    game.undo()
    assert slot_clues(game) == clues_from_events(game)
    assert slot_clues(replayed) == slot_clues(Game.replay(game.setup, list(replayed.actions)))


@GAMES
@given(memory_options(), st.integers(2, 5), st.integers(0, 2**32 - 1))
def test_a_log_with_slots_replays_to_the_same_memory(options, players, seed):
    table = SimulatedTable(GameSetup(players=players, options=options), random.Random(seed))
    game = table.play_out()
    text = format_log(game.setup, game.actions)
    assert '"hand_memory": true' in text.split("\n")[0]
    replayed = replay_log(text)
    assert replayed.position == game.position
    hands = summary(replayed)["hands"]
    assert [len(hand) for hand in hands] == game.position.hands


@GAMES
@given(memory_options(), st.integers(2, 5), st.integers(0, 2**32 - 1), st.data())
def test_a_mis_pointed_hint_or_slot_is_refused_or_still_possible(options, players, seed, data):
    """Any slot list: the engine either refuses (changing nothing) or keeps every slot
    possible; never a slot that could be nothing."""
    table = SimulatedTable(GameSetup(players=players, options=options), random.Random(seed))
    for _ in range(data.draw(st.integers(0, 40))):
        if table.game.is_over:
            return
        table.step()
    game = table.game
    if game.is_over or game.position.hints == 0:
        return
    to = (game.position.current + 1) % players
    size = game.position.hands[to]
    slots = data.draw(st.lists(st.integers(1, size + 1), unique=True, max_size=size + 1))
    clue = data.draw(
        st.sampled_from([*(s.color for s in game.setup.suits if s.named_in_hints), 1, 2, 3, 4, 5])
    )
    hint = Hint(
        to=to,
        slots=tuple(slots),
        **({"color": clue} if isinstance(clue, Color) else {"rank": clue}),
    )
    before = game.position.copy()
    try:
        game.apply(hint)
    except errors.IllegalAction:
        assert game.position == before
        return
    assert all(slot.colors and slot.ranks for slot in game.hand_memory(to))


# -- the log --------------------------------------------------------------------------------

HEADER = '{"format": "hanabi-log/1", "players": 2, "names": ["Ann", "Bo"], "hand_memory": true}'


def log(*lines: str, head: str = HEADER) -> str:
    return "\n".join([head, *lines]) + "\n"


@pytest.mark.parametrize(
    "line",
    [
        '{"action": "hint", "to": 1, "color": "red"}',  # no slots
        '{"action": "hint", "color": "red", "slots": [1]}',  # no receiver
        '{"action": "hint", "to": 1, "slots": [1]}',  # no clue
        '{"action": "play", "card": "R1"}',  # no slot
        '{"action": "hint", "to": 1, "rank": 1, "slots": [0]}',  # below 1
        '{"action": "hint", "to": 1, "rank": 1, "slots": [2, 2]}',  # repeated
        '{"action": "discard", "card": "R1", "slot": "1"}',  # not a number
    ],
)
def test_a_log_with_hand_memory_and_a_missing_or_bad_slot_is_invalid_exit_2(line):
    with pytest.raises(LogFormatError):
        replay_log(log(line))


def test_slots_in_a_log_without_hand_memory_make_it_invalid_exit_2():
    head = '{"format": "hanabi-log/1", "players": 2}'
    with pytest.raises(LogFormatError):
        replay_log(log('{"action": "play", "card": "R1", "slot": 1}', head=head))
    with pytest.raises(LogFormatError):
        replay_log(log('{"action": "hint", "to": 1, "rank": 1, "slots": [1]}', head=head))


def test_a_slot_beyond_the_hand_breaks_the_log_exit_1():
    with pytest.raises(LogRuleError) as raised:
        replay_log(log('{"action": "hint", "to": 1, "rank": 1, "slots": [6]}'))
    assert raised.value.line == 2 and "no slot 6" in raised.value.reason


def test_a_hint_that_leaves_a_slot_nothing_breaks_the_log_exit_1():
    text = log(
        '{"action": "hint", "to": 1, "color": "red", "slots": [1]}',
        '{"action": "hint", "to": 0, "rank": 1, "slots": [1]}',
        '{"action": "hint", "to": 1, "color": "red", "slots": [2]}',
    )
    with pytest.raises(LogRuleError) as raised:
        replay_log(text)
    assert raised.value.line == 4 and "must touch" in raised.value.reason


def test_replay_prints_hands_slot_1_first_colours_in_suit_order_ranks_ascending():
    game = replay_log(log('{"action": "hint", "to": 1, "color": "yellow", "slots": [2]}'))
    hands = json.loads(json.dumps(summary(game)))["hands"]
    assert len(hands) == 2 and len(hands[1]) == 5
    assert hands[1][1] == {"colors": ["yellow"], "ranks": [1, 2, 3, 4, 5]}
    assert hands[1][0] == {"colors": ["red", "green", "blue", "white"], "ranks": [1, 2, 3, 4, 5]}


def test_a_log_without_hand_memory_has_no_hands_in_its_summary():
    game = replay_log('{"format": "hanabi-log/1", "players": 2}\n')
    assert "hands" not in summary(game)


def test_the_log_writes_slots_after_the_other_fields():
    setup = GameSetup(players=2, options=MEMORY)
    text = format_log(setup, [Hint(to=1, color=Color.RED, slots=(1, 4)), Play(card("R1"), slot=2)])
    assert text.split("\n")[1:3] == [
        '{"action": "hint", "to": 1, "color": "red", "slots": [1, 4]}',
        '{"action": "play", "card": "R1", "slot": 2}',
    ]
