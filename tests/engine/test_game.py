"""The rules, one test per rule and per refusal (docs/rules.md sections 3 to 7).

Each test name starts with the docs/rules.md section it checks. Positions are built
by applying real actions; a few refusals that need an unusual position (an
empty hand) use a hand-built :class:`Position`, said so in the docstring.
"""

import random

import pytest
from support.games import (
    B,
    C,
    G,
    M,
    R,
    Script,
    W,
    Y,
    all_plays,
    discard,
    hint,
    new,
    perfect,
    play,
    position_of,
    spend_hints,
)

from engine import (
    Discard,
    EndReason,
    EventKind,
    GameSetup,
    Hint,
    Multicolor,
    Outcome,
    Play,
    Rating,
    rating_for,
)
from engine import errors as e
from engine.table import SimulatedTable

# -- section 3: a hint ------------------------------------------------------


def test_3_hint_spends_one_token():
    game = new()
    event = hint(game, to=1, color=R)
    assert game.position.hints == 7
    assert event.kind is EventKind.HINT and event.hints_change == -1
    assert not event.drew and event.card is None


def test_3_hint_needs_a_token():
    game = new()
    spend_hints(game, 8)
    assert game.position.hints == 0
    with pytest.raises(e.NoHintTokens):
        hint(game, to=1, rank=1)


def test_3_hint_never_to_oneself():
    game = new(3, first_player=2)
    with pytest.raises(e.HintToSelf):
        hint(game, to=2, rank=1)
    hint(game, to=0, rank=1)


@pytest.mark.parametrize("seat", [-1, 3, 9])
def test_3_hint_to_a_seat_that_does_not_exist(seat):
    with pytest.raises(e.NoSuchSeat):
        hint(new(3), to=seat, rank=1)


def test_3_hint_names_a_colour_or_a_rank_never_both():
    game = new()
    with pytest.raises(e.HintNamesBoth):
        hint(game, to=1, color=R, rank=1)
    hint(game, to=1, color=R)
    hint(game, to=0, rank=5)


def test_3_hint_may_leave_out_receiver_and_content_at_a_real_table():
    game = new()
    hint(game)
    hint(game, to=0)
    hint(game, rank=2)
    assert game.position.hints == 5


@pytest.mark.parametrize("rank", [0, 6, -1])
def test_3_hint_rank_is_one_to_five(rank):
    with pytest.raises(e.IllegalAction):
        hint(new(), to=1, rank=rank)


def test_3_hint_goes_to_the_next_player_clockwise():
    game = new(4, first_player=2)
    seats = []
    for _ in range(6):
        seats.append(game.current_player)
        hint(game)
    assert seats == [2, 3, 0, 1, 2, 3]


def test_7_hint_colour_not_in_game():
    with pytest.raises(e.SuitNotInGame):
        hint(new(), to=1, color=M)


@pytest.mark.parametrize("multicolor", [Multicolor.SHORT, Multicolor.FULL])
def test_6_multicolor_can_be_named_without_wild(multicolor):
    game = new(multicolor=multicolor)
    hint(game, to=1, color=M)
    assert game.position.hints == 7


@pytest.mark.parametrize("multicolor", [Multicolor.SHORT, Multicolor.FULL])
def test_6_wild_multicolor_cannot_be_named_in_a_hint(multicolor):
    game = new(multicolor=multicolor, wild_multicolor=True)
    with pytest.raises(e.HintColorNotAllowed):
        hint(game, to=1, color=M)
    for color in (R, Y, G, B, W):
        hint(game, to=1 - game.current_player, color=color)


def test_6_wild_multicolor_cards_build_their_own_sixth_firework():
    game = new(multicolor=Multicolor.SHORT, wild_multicolor=True)
    play(game, "M1", "M2")
    assert game.position.fireworks[M] == 2
    assert game.position.fireworks[:5] == [0] * 5
    assert game.max_score == 30


def _crowning_with_empty_hand(players=2, **options):
    """Hand-built position: crowning piece, draw pile empty, seat 1 without a card."""
    game = new(players, crowning_piece=True, **options)
    game.position.deck = 0
    game.position.hands[1] = 0
    return game


def test_3_hint_to_an_empty_hand_refused_strict_rule():
    """Hand-built position (seat 1 has no card)."""
    game = _crowning_with_empty_hand(3)
    before = position_of(game)
    with pytest.raises(e.HintToEmptyHand):
        hint(game, to=1, rank=1)
    assert game.position == before
    hint(game, to=2, rank=1)


def test_3_empty_clues_allows_a_hint_to_an_empty_hand():
    """Hand-built position (seat 1 has no card); option empty_clues."""
    game = _crowning_with_empty_hand(3, empty_clues=True)
    hint(game, to=1, rank=1)
    assert game.position.hints == 7


def test_3_no_one_to_hint_when_every_other_hand_is_empty():
    """Hand-built position (2 players, seat 1 has no card)."""
    game = _crowning_with_empty_hand(2)
    with pytest.raises(e.NoOneToHint):
        hint(game)
    with pytest.raises(e.HintToEmptyHand):
        hint(game, to=1)


def test_3_empty_clues_no_one_to_hint_is_allowed():
    """Hand-built position (2 players, seat 1 has no card); option empty_clues."""
    game = _crowning_with_empty_hand(2, empty_clues=True)
    hint(game)
    assert game.position.hints == 7


# -- section 3: a discard ---------------------------------------------------


def test_3_discard_refused_with_8_hint_tokens():
    game = new()
    with pytest.raises(e.HintTokensFull) as refused:
        discard(game, "B1")
    assert str(refused.value) == "All 8 hint tokens are available: you cannot discard"


def test_3_discard_gives_one_token_back_card_face_up_and_a_draw():
    game = new()
    hint(game)
    event = discard(game, "B1")
    position = game.position
    assert position.hints == 8 and event.hints_change == 1
    assert position.discards == [C("B1")]
    assert event.kind is EventKind.DISCARD and event.card == C("B1")
    assert event.drew and position.deck == 39 and position.hands == [5, 5]
    assert not event.fuse_burnt


def test_3_discard_allowed_below_8_tokens():
    game = new()
    spend_hints(game, 8)
    for code in ("B1", "B1", "R2", "Y3"):
        discard(game, code)
    assert game.position.hints == 4


# -- section 3: a play ------------------------------------------------------


def test_3_a_1_starts_a_firework_and_the_next_rank_fits():
    game = new()
    event = play(game, "G1")
    assert event.kind is EventKind.PLAY and not event.fuse_burnt
    play(game, "G2", "G3")
    assert game.position.fireworks[G] == 3
    assert game.position.discards == []
    assert game.score == 3


def test_3_a_card_fits_only_one_above_the_top():
    game = new()
    play(game, "R1")
    event = play(game, "R3")
    assert event.kind is EventKind.MISPLAY
    assert game.position.fireworks[R] == 1
    event = play(game, "R1")
    assert event.kind is EventKind.MISPLAY


def test_3_misplay_burns_a_fuse_and_goes_to_the_discard_pile():
    game = new()
    event = play(game, "Y2")
    position = game.position
    assert event.fuse_burnt and position.fuses == 1
    assert position.discards == [C("Y2")]
    assert position.fireworks[Y] == 0
    assert position.hints == 8 and event.hints_change == 0
    assert event.drew and position.deck == 39


def test_3_play_draws_when_the_pile_is_not_empty():
    game = new()
    event = play(game, "R1")
    assert event.drew and game.position.deck == 39 and game.position.hands == [5, 5]


def test_3_playing_a_5_gives_a_token_back():
    game = new()
    hint(game)
    event = play(game, "W1", "W2", "W3", "W4", "W5")
    assert event.firework_completed and event.hints_change == 1 and not event.bonus_lost
    assert game.position.hints == 8


def test_3_the_5_bonus_is_lost_with_8_tokens():
    game = new()
    event = play(game, "W1", "W2", "W3", "W4", "W5")
    assert event.firework_completed and event.bonus_lost and event.hints_change == 0
    assert game.position.hints == 8


# -- section 4: end of the game -----------------------------------------------


def _storm(game):
    play(game, "R1", "G1")
    play(game, "B3", "B4")
    return play(game, "B5")


def test_4_1_two_fuses_do_not_end_the_game():
    game = new()
    play(game, "R2", "R3")
    assert game.position.fuses == 2 and not game.is_over


def test_4_1_third_fuse_ends_the_game_at_once_lost_score_0():
    game = new()
    event = _storm(game)
    position = game.position
    assert event.fuse_burnt and event.end is EndReason.STRIKEOUT
    assert game.is_over and game.outcome is Outcome.LOST
    assert game.end_reason is EndReason.STRIKEOUT
    assert game.score == 0 and game.max_score == 0
    assert game.rating is None and game.current_player is None and game.pace is None
    assert position.fuses == 3


def test_4_1_storm_still_shows_how_far_each_firework_got():
    game = new()
    _storm(game)
    assert game.position.fireworks[R] == 1 and game.position.fireworks[G] == 1
    assert game.fireworks_total == 2


def test_4_1_storm_draws_no_card():
    game = new()
    play(game, "R1", "G1", "B3", "B4")
    deck, hands = game.position.deck, list(game.position.hands)
    event = play(game, "B5")
    assert not event.drew
    assert game.position.deck == deck
    assert game.position.hands[0] == hands[0] - 1


def test_4_1_strikeout_keeps_score_option_counts_the_fireworks():
    game = new(strikeout_keeps_score=True)
    _storm(game)
    assert game.outcome is Outcome.LOST and game.end_reason is EndReason.STRIKEOUT
    assert game.score == 2 == game.max_score
    assert game.rating is None


def test_4_2_perfect_display_ends_at_once_with_25():
    game = new()
    event = perfect(game)
    assert event.end is EndReason.PERFECT and not event.drew
    assert game.position.deck == 40 - 24
    assert game.position.hands == [4, 5]  # seat 0 made the 25th play and drew nothing
    assert game.outcome is Outcome.WON and game.score == 25 == game.max_score
    assert game.rating is Rating.LEGENDARY
    with pytest.raises(e.GameIsOver):
        hint(game)


@pytest.mark.parametrize("multicolor", [Multicolor.SHORT, Multicolor.FULL])
def test_4_2_perfect_display_with_six_suits_is_30(multicolor):
    game = new(3, multicolor=multicolor)
    event = perfect(game)
    assert event.end is EndReason.PERFECT
    assert game.score == 30 and game.rating is Rating.DIVINE


def test_4_2_five_complete_fireworks_of_six_are_not_perfect():
    game = new(multicolor=Multicolor.SHORT)
    for card in all_plays(game.setup):
        if card.color is not M:
            game.apply(Play(card))
    assert not game.is_over and game.score == 25


@pytest.mark.parametrize(("players", "seed"), [(2, 2), (3, 1), (4, 0), (5, 0)])
def test_4_2_a_simulated_perfect_game(players, seed):
    table = SimulatedTable(GameSetup(players=players), random.Random(seed), skill=1.0)
    game = table.play_out()
    assert game.end_reason is EndReason.PERFECT
    assert game.score == 25 and game.outcome is Outcome.WON
    assert not game.events[-1].drew


def test_4_3_last_card_drawn_the_rules_a_b_c_example():
    game = new(3, names=("A", "B", "C"))
    script = Script(game)
    event = script.draw_last_card(0)
    assert event.player == 0 and event.final_round_started
    assert game.position.final_round_turns_left == 3
    assert game.final_round_order() == [1, 2, 0]
    turns = []
    while not game.is_over:
        turns.append(game.current_player)
        hands = list(game.position.hands)
        event = script.one_turn()
        assert not event.drew and game.position.deck == 0
        if event.card is not None:
            assert game.position.hands[event.player] == hands[event.player] - 1
    assert turns == [1, 2, 0]
    assert game.end_reason is EndReason.FINAL_ROUND and game.outcome is Outcome.FINISHED
    assert game.final_round_order() is None and game.position.final_round_turns_left is None


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_4_3_every_player_including_the_drawer_one_more_turn(players):
    for drawer in range(players):
        game = new(players, first_player=(drawer + 1) % players)
        script = Script(game)
        script.draw_last_card(drawer)
        expected = [(drawer + 1 + i) % players for i in range(players)]
        assert game.final_round_order() == expected
        turns = []
        while not game.is_over:
            assert game.final_round_order() == expected[len(turns) :]
            assert game.position.final_round_turns_left == players - len(turns)
            turns.append(game.current_player)
            script.hint() if len(turns) % 2 else script.one_turn()
        assert turns == expected
        assert turns[-1] == drawer
        assert game.end_reason is EndReason.FINAL_ROUND


def test_4_3_no_final_round_before_the_last_card():
    game = new(3)
    script = Script(game)
    script.draw_down_to(1)
    assert game.position.final_round_turns_left is None
    assert game.final_round_order() is None
    assert not any(event.final_round_started for event in game.events)


def test_4_3_a_storm_during_the_final_round_ends_it():
    game = new(3)
    script = Script(game)
    script.draw_last_card(0)
    event = play(game, *[card.code() for card in script.spares[:3]])
    assert event.player == 0  # the drawer's turn, the last of the final round
    assert game.end_reason is EndReason.STRIKEOUT and game.score == 0


def test_4_the_score_is_the_sum_of_the_tops():
    game = new()
    play(game, "R1", "R2", "Y1", "B1", "B2", "B3")
    assert game.score == 6 == game.fireworks_total


def test_4_final_round_score_and_rating():
    game = new(3)
    script = Script(game)
    script.draw_last_card(1)
    while not game.is_over:
        script.one_turn()
    assert game.score == game.fireworks_total == sum(game.position.fireworks)
    assert game.rating is rating_for(game.score, 25)
    assert game.max_score == game.score


# -- section 5: the rating scale ----------------------------------------------

BANDS = (
    [(s, Rating.HORRIBLE) for s in range(0, 6)]
    + [(s, Rating.MEDIOCRE) for s in range(6, 11)]
    + [(s, Rating.HONOURABLE) for s in range(11, 16)]
    + [(s, Rating.EXCELLENT) for s in range(16, 21)]
    + [(s, Rating.AMAZING) for s in range(21, 25)]
)


@pytest.mark.parametrize(("score", "band"), [*BANDS, (25, Rating.LEGENDARY)])
def test_5_rating_bands_five_suits(score, band):
    assert rating_for(score, 25) is band


@pytest.mark.parametrize(
    ("score", "band"),
    [*BANDS, *[(s, Rating.LEGENDARY) for s in range(25, 30)], (30, Rating.DIVINE)],
)
def test_5_rating_bands_six_suits(score, band):
    assert rating_for(score, 30) is band


def test_5_rating_values_are_the_log_words():
    assert [r.value for r in Rating] == [
        "horrible", "mediocre", "honourable", "excellent", "amazing", "legendary", "divine",
    ]  # fmt: skip


def test_5_no_rating_while_playing():
    game = new()
    play(game, "R1")
    assert game.rating is None


def test_5_a_game_lost_to_the_storm_is_not_rated():
    game = new(strikeout_keeps_score=True)
    _storm(game)
    assert game.outcome is Outcome.LOST and game.rating is None


# -- section 7: what the companion checks ---------------------------------------


def test_7_player_field_must_be_the_seat_to_act():
    game = new(3, names=("Ann", "Bo", "Cy"))
    with pytest.raises(e.NotYourTurn) as refused:
        game.apply(Play(C("R1"), player=1))
    assert "Ann" in str(refused.value) and "Bo" in str(refused.value)
    game.apply(Play(C("R1"), player=0))
    game.apply(Hint(player=1))
    game.apply(Discard(C("R1"), player=2))
    assert game.position.turns == 3


@pytest.mark.parametrize("seat", [3, -1, 17])
def test_7_player_field_outside_the_table(seat):
    with pytest.raises(e.NoSuchSeat):
        new(3).apply(Hint(player=seat))


def test_7_card_that_cannot_exist_too_many_copies_seen():
    game = new()
    play(game, "B1")
    spend_hints(game, 3)
    discard(game, "B1", "B1")
    with pytest.raises(e.CardExhausted) as refused:
        discard(game, "B1")
    assert "B1" in str(refused.value)
    with pytest.raises(e.CardExhausted):
        play(game, "B1")


def test_7_the_only_5_cannot_be_seen_twice():
    game = new()
    play(game, "Y5")
    with pytest.raises(e.CardExhausted):
        play(game, "Y5")


@pytest.mark.parametrize("code", ["M1", "M5"])
def test_7_card_of_a_suit_not_in_game(code):
    game = new()
    hint(game)
    with pytest.raises(e.SuitNotInGame):
        play(game, code)
    with pytest.raises(e.SuitNotInGame):
        discard(game, code)


def _refusal_cases():
    def at_start():
        return new(3, names=("Ann", "Bo", "Cy"))

    def no_tokens():
        game = at_start()
        spend_hints(game, 8)
        return game

    def after_storm():
        game = at_start()
        _storm(game)
        return game

    def b1_gone():
        game = at_start()
        hint(game)
        discard(game, "B1")
        hint(game)
        discard(game, "B1")
        hint(game)
        discard(game, "B1")
        hint(game)
        return game

    return [
        (at_start, Discard(C("R1")), e.HintTokensFull),
        (at_start, Hint(to=0, rank=1), e.HintToSelf),
        (at_start, Hint(to=1, color=R, rank=1), e.HintNamesBoth),
        (at_start, Hint(to=1, color=M), e.SuitNotInGame),
        (at_start, Hint(to=7), e.NoSuchSeat),
        (at_start, Play(C("R1"), player=2), e.NotYourTurn),
        (at_start, Play(C("M2")), e.SuitNotInGame),
        (at_start, Play(C("R1"), R), e.AnnounceNotAllowed),
        (no_tokens, Hint(to=1, rank=1), e.NoHintTokens),
        (after_storm, Hint(to=1), e.GameIsOver),
        (after_storm, Play(C("R2")), e.GameIsOver),
        (b1_gone, Play(C("B1")), e.CardExhausted),
    ]


@pytest.mark.parametrize(("build", "action", "refusal"), _refusal_cases())
def test_7_a_refused_action_changes_nothing(build, action, refusal):
    game = build()
    before, actions, events = position_of(game), len(game.actions), len(game.events)
    with pytest.raises(refusal):
        game.check(action)
    with pytest.raises(refusal):
        game.preview(action)
    with pytest.raises(refusal) as refused:
        game.apply(action)
    assert game.position == before
    assert len(game.actions) == actions and len(game.events) == events
    assert refused.value.code == refusal.code and str(refused.value)


def test_7_nothing_is_accepted_after_the_game_is_over():
    game = new()
    perfect(game)
    for action in (Hint(to=1), Play(C("R1")), Discard(C("B1"))):
        with pytest.raises(e.GameIsOver):
            game.apply(action)


def test_7_check_and_preview_change_nothing():
    game = new()
    play(game, "R1")
    before = position_of(game)
    game.check(Play(C("R2")))
    event = game.preview(Play(C("R2")))
    assert event.kind is EventKind.PLAY and event.turn == 2
    assert game.position == before and len(game.actions) == 1
    assert game.apply(Play(C("R2"))) == event


def test_7_undo_back_to_the_start():
    game = new(3)
    fresh = position_of(game)
    actions = [Hint(to=1, rank=1), Play(C("R1")), Discard(C("B1")), Play(C("R3"))]
    for action in actions:
        game.apply(action)
    undone = [game.undo() for _ in actions]
    assert undone == actions[::-1]
    assert game.position == fresh and game.actions == [] and game.events == []
    with pytest.raises(e.NothingToUndo):
        game.undo()


def test_7_nothing_to_undo_at_the_start():
    with pytest.raises(e.NothingToUndo):
        new().undo()


def test_7_undo_after_the_end_reopens_the_game():
    game = new()
    _storm(game)
    assert game.is_over
    assert game.undo() == Play(C("B5"))
    assert not game.is_over and game.position.fuses == 2 and game.current_player == 0
    event = play(game, "R4")
    assert event.end is EndReason.STRIKEOUT


def test_7_undo_gives_the_same_position_as_never_having_acted():
    game = new()
    play(game, "R1", "Y1")
    other = new()
    play(other, "R1")
    game.undo()
    assert game.position == other.position and game.events == other.events


# -- section 7: public knowledge ------------------------------------------------


def test_7_max_score_critical_and_pace_at_the_start():
    game = new()
    assert game.max_score == 25
    assert game.critical_cards() == [C("R5"), C("Y5"), C("G5"), C("B5"), C("W5")]
    assert game.dead_fireworks() == []
    assert game.pace == 40 + 2 - 25


def test_7_the_last_copy_becomes_critical():
    game = new()
    hint(game)
    discard(game, "B1")
    assert C("B1") not in game.critical_cards()
    hint(game)
    discard(game, "B1")
    assert C("B1") in game.critical_cards()
    play(game, "B1")
    assert C("B1") not in game.critical_cards()


def test_7_a_firework_dies_when_a_card_it_needs_is_gone():
    game = new()
    play(game, "B1")
    hint(game)
    discard(game, "B3")
    hint(game)
    discard(game, "B3")
    assert game.dead_fireworks() == [B]
    assert game.max_score == 24 - 2  # blue can only reach 2
    critical = game.critical_cards()
    assert C("B2") not in critical  # two copies left
    assert C("B5") not in critical  # the only B5, but blue can no longer reach it
    hint(game)
    discard(game, "B2")
    assert C("B2") in game.critical_cards()
    assert game.pace == game.position.deck + 2 - (game.max_score - 1)


def test_7_max_score_counts_only_what_the_remaining_turns_allow():
    game = new(3)
    script = Script(game, spares_first=True)
    script.draw_last_card(0)
    total = game.fireworks_total
    assert total == 10
    assert game.max_score == total + 3
    assert game.pace == 0
    script.hint()
    assert game.max_score == total + 2


def test_7_max_score_counts_deck_and_players_before_the_final_round():
    game = new(5)
    script = Script(game)
    script.draw_down_to(2)
    total = game.fireworks_total
    assert game.max_score == min(25, total + 2 + 5)
    assert game.pace == 2 + 5 - (game.max_score - total)


def test_7_max_score_with_crowning_counts_the_cards_left():
    game = new(2, crowning_piece=True)
    script = Script(game)
    script.draw_down_to(0)
    for _ in range(4):
        script.card_action()
    total = game.fireworks_total
    cards = sum(game.position.hands)
    assert cards == 6
    assert game.max_score == total + min(cards, 25 - total)
    assert game.pace == cards - (game.max_score - total)


def test_7_max_score_and_pace_when_over():
    game = new()
    _storm(game)
    assert game.max_score == game.score == 0 and game.pace is None
