"""The rules of the variants, one test per rule and per refusal (docs/rules.md section 6):
the crowning piece, the multicolor suit, the timed display."""

import random

import pytest
from support.games import (
    C,
    M,
    R,
    Script,
    Y,
    discard,
    hint,
    new,
    perfect,
    play,
    spend_hints,
)

from engine import (
    EndReason,
    EventKind,
    GameSetup,
    Multicolor,
    Outcome,
    Rating,
)
from engine import errors as e
from engine.options import GameOptions
from engine.table import SimulatedTable

# -- section 6: crowning piece ------------------------------------------------


def test_6_crowning_piece_no_final_round_hands_shrink():
    game = new(3, crowning_piece=True)
    script = Script(game)
    script.draw_last_card(0)
    assert game.position.final_round_turns_left is None
    assert not any(event.final_round_started for event in game.events)
    for _ in range(6):
        event = script.card_action()
        assert not event.drew and not game.is_over
    assert game.position.hands == [3, 3, 3]
    assert game.final_round_order() is None


def test_6_crowning_piece_discarding_the_last_copy_of_a_needed_card_loses_at_once():
    game = new(crowning_piece=True)
    spend_hints(game, 2)
    discard(game, "R4")
    assert not game.is_over
    event = discard(game, "R4")
    assert event.end is EndReason.CRITICAL_DISCARD and not event.drew
    assert game.outcome is Outcome.LOST and game.score == 0 and game.rating is None


def test_6_crowning_piece_misplaying_the_last_copy_loses_at_once():
    game = new(crowning_piece=True)
    event = play(game, "G5")
    assert event.fuse_burnt and event.end is EndReason.CRITICAL_DISCARD
    assert not event.drew and game.position.fuses == 1
    assert game.outcome is Outcome.LOST


def test_6_crowning_piece_last_copy_of_a_card_no_longer_needed_is_no_loss():
    game = new(crowning_piece=True)
    spend_hints(game, 3)
    play(game, "Y1", "Y2")
    discard(game, "Y1", "Y1", "Y2")
    assert not game.is_over


def test_6_crowning_piece_strikeout_keeps_score_counts_a_critical_defeat():
    """Decision taken: the option keeps the fireworks for any lost game."""
    game = new(crowning_piece=True, strikeout_keeps_score=True)
    play(game, "R1", "R5")
    assert game.end_reason is EndReason.CRITICAL_DISCARD and game.score == 1


def test_6_crowning_piece_third_fuse_loses():
    game = new(crowning_piece=True)
    event = play(game, "R2", "R3", "R4")
    assert event.end is EndReason.STRIKEOUT and game.outcome is Outcome.LOST


def test_6_crowning_piece_perfect_is_won_and_rated_legendary():
    """docs/rules.md 6: no scale, perfect or lost; GAME-LOG.md: rating is null only when lost
    or playing. The perfect display carries its band, which says "perfect"."""
    game = new(crowning_piece=True)
    event = perfect(game)
    assert event.end is EndReason.PERFECT and game.outcome is Outcome.WON
    assert game.score == 25 and game.rating is Rating.LEGENDARY


def test_6_crowning_piece_simulated_perfect():
    table = SimulatedTable(
        GameSetup(players=3, options=GameOptions(crowning_piece=True)), random.Random(0), skill=1.0
    )
    game = table.play_out()
    assert game.end_reason is EndReason.PERFECT and game.rating is Rating.LEGENDARY


def test_6_crowning_piece_no_legal_action_loses():
    """Real actions: seat 2 plays out its hand, then faces its turn without a hint token."""
    game = new(3, crowning_piece=True)
    script = Script(game, spares_first=True)
    script.draw_last_card(0)
    while game.position.hands[2]:
        if game.current_player == 2 or len(script.plays) > 5 or game.position.hints == 0:
            script.one_turn()
        else:
            script.hint()
    refused = 0
    while not game.is_over:
        if game.current_player == 2:
            with pytest.raises(e.EmptyHand):
                play(game, "R1")
            refused += 1
            script.hint()
        elif game.position.hints:
            script.hint()
        else:
            script.one_turn()
    assert refused >= 1
    assert game.end_reason is EndReason.NO_LEGAL_ACTION and game.outcome is Outcome.LOST
    assert game.position.hints == 0 and game.position.current == 2
    assert game.position.hands[2] == 0 and game.current_player is None
    assert game.score == 0 and game.rating is None


def test_6_crowning_piece_no_legal_action_when_no_one_has_a_card_left():
    """Hand-built position: every hand empty after seat 0's last card; hint tokens left."""
    game = new(2, crowning_piece=True)
    game.position.deck = 0
    game.position.hands[:] = [1, 0]
    hint_tokens = game.position.hints
    event = play(game, "R1")
    assert event.end is EndReason.NO_LEGAL_ACTION and game.position.hints == hint_tokens


def test_6_crowning_piece_empty_clues_a_hint_keeps_the_game_going():
    """Hand-built position: every hand empty, but empty hints are allowed and tokens remain."""
    game = new(2, crowning_piece=True, empty_clues=True)
    game.position.deck = 0
    game.position.hands[:] = [1, 0]
    play(game, "R1")
    assert not game.is_over
    hint(game, to=0)
    assert not game.is_over


def test_3_empty_hand_cannot_play_or_discard():
    """Hand-built position (seat 0 has no card, crowning piece)."""
    game = new(2, crowning_piece=True)
    game.position.deck = 0
    game.position.hands[0] = 0
    with pytest.raises(e.EmptyHand):
        play(game, "R1")
    hint(game, to=1)  # a hint is still possible
    assert game.position.hints == 7


# -- section 6: multicolor ------------------------------------------------------


def test_6_short_multicolor_has_one_copy_per_rank():
    game = new(multicolor=Multicolor.SHORT)
    play(game, "M1")
    with pytest.raises(e.CardExhausted):
        play(game, "M1")
    hint(game)
    discard(game, "M3")
    assert game.dead_fireworks() == [M] and game.max_score == 1 + 4 * 0 + 25 + 1


def test_6_full_multicolor_has_three_ones():
    game = new(multicolor=Multicolor.FULL)
    play(game, "M1", "M1", "M1")
    with pytest.raises(e.CardExhausted):
        play(game, "M1")
    assert game.position.fuses == 2


# -- section 6: timed display ---------------------------------------------------


def test_6_timed_right_colour_and_fits_gives_a_token():
    game = new(timed_display=True)
    hint(game)
    event = play(game, "R1", announce=R)
    assert event.kind is EventKind.PLAY and event.announce_right is True
    assert event.hints_change == 1 and game.position.hints == 8


def test_6_timed_right_colour_with_a_5_gives_two_tokens():
    game = new(timed_display=True)
    play(game, "R1", "R2", "R3", "R4")
    spend_hints(game, 3)
    event = play(game, "R5", announce=R)
    assert event.hints_change == 2 and game.position.hints == 7 and not event.bonus_lost


def test_6_timed_never_more_than_8_tokens():
    game = new(timed_display=True)
    play(game, "R1", "R2", "R3", "R4")
    hint(game)
    event = play(game, "R5", announce=R)
    assert event.hints_change == 1 and event.bonus_lost and game.position.hints == 8
    event = play(game, "Y1", announce=Y)
    assert event.hints_change == 0 and event.bonus_lost and game.position.hints == 8


def test_6_timed_wrong_colour_burns_a_fuse_even_if_the_card_fits():
    game = new(timed_display=True)
    hint(game)
    event = play(game, "R1", announce=Y)
    assert event.kind is EventKind.MISPLAY and event.announce_right is False
    assert event.fuse_burnt and game.position.fuses == 1
    assert game.position.fireworks[R] == 0 and game.position.discards == [C("R1")]
    assert game.position.hints == 7


def test_6_timed_right_colour_but_not_fitting_is_an_ordinary_misplay():
    game = new(timed_display=True)
    hint(game)
    event = play(game, "R2", announce=R)
    assert event.kind is EventKind.MISPLAY and event.announce_right is True
    assert event.fuse_burnt and event.hints_change == 0 and game.position.hints == 7


def test_6_timed_without_announce_is_a_plain_play():
    game = new(timed_display=True)
    hint(game)
    event = play(game, "R1")
    assert event.announce_right is None and event.hints_change == 0


def test_6_announce_without_timed_display_is_refused():
    game = new()
    with pytest.raises(e.AnnounceNotAllowed):
        play(game, "R1", announce=R)
    assert game.position.turns == 0


def test_6_timed_announce_a_colour_not_in_game_is_refused():
    with pytest.raises(e.SuitNotInGame):
        play(new(timed_display=True), "R1", announce=M)


def test_6_timed_wild_multicolor_card_must_be_announced_multicolor():
    game = new(multicolor=Multicolor.SHORT, wild_multicolor=True, timed_display=True)
    spend_hints(game, 2)
    event = play(game, "M1", announce=M)
    assert event.kind is EventKind.PLAY and event.hints_change == 1
    event = play(game, "M2", announce=R)
    assert event.kind is EventKind.MISPLAY and event.fuse_burnt


def test_6_crowning_with_timed_wrong_colour_on_a_last_copy_loses():
    game = new(crowning_piece=True, timed_display=True)
    play(game, "W1", "W2", "W3", "W4")
    event = play(game, "W5", announce=R)
    assert event.end is EndReason.CRITICAL_DISCARD
