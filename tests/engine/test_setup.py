"""Components and set-up (docs/rules.md sections 1, 2 and the variant mixes of section 6)."""

import pytest
from support.variants import ALL_BUT_CROWNING

from engine import Game, GameSetup, Multicolor, SetupError
from engine.cards import ALL_CARDS, Card, Color
from engine.options import GameOptions
from engine.setup import MAX_FUSES, MAX_HINTS

BASE = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE, Color.WHITE)


@pytest.mark.parametrize(
    ("multicolor", "deck", "max_score"),
    [(Multicolor.NONE, 50, 25), (Multicolor.SHORT, 55, 30), (Multicolor.FULL, 60, 30)],
)
def test_1_deck_size_and_maximum_per_deck(multicolor, deck, max_score):
    setup = GameSetup(players=2, options=GameOptions(multicolor=multicolor))
    assert setup.deck_size == deck
    assert setup.max_score == max_score


@pytest.mark.parametrize("multicolor", list(Multicolor))
def test_1_ten_cards_per_base_suit_1_1_1_2_2_3_3_4_4_5(multicolor):
    setup = GameSetup(players=3, options=GameOptions(multicolor=multicolor))
    for color in BASE:
        assert [setup.copies[Card(color, r).ordinal] for r in range(1, 6)] == [3, 2, 2, 2, 1]


def test_1_short_multicolor_one_card_of_each_rank():
    setup = GameSetup(players=3, options=GameOptions(multicolor=Multicolor.SHORT))
    assert [setup.copies[Card(Color.MULTICOLOR, r).ordinal] for r in range(1, 6)] == [1] * 5


def test_1_full_multicolor_ten_cards_like_the_others():
    setup = GameSetup(players=3, options=GameOptions(multicolor=Multicolor.FULL))
    assert [setup.copies[Card(Color.MULTICOLOR, r).ordinal] for r in range(1, 6)] == [3, 2, 2, 2, 1]


def test_1_base_game_has_no_multicolor_card():
    setup = GameSetup(players=3)
    assert all(
        setup.copies[card.ordinal] == 0 for card in ALL_CARDS if card.color is Color.MULTICOLOR
    )
    assert setup.colors == BASE
    assert setup.suit(Color.MULTICOLOR) is None


@pytest.mark.parametrize("multicolor", [Multicolor.SHORT, Multicolor.FULL])
def test_1_multicolor_is_a_sixth_suit(multicolor):
    setup = GameSetup(players=3, options=GameOptions(multicolor=multicolor))
    assert setup.colors == (*BASE, Color.MULTICOLOR)
    assert setup.suit(Color.MULTICOLOR).named_in_hints


def test_1_eight_hint_tokens_available_and_no_fuse_burnt_at_the_start():
    assert (MAX_HINTS, MAX_FUSES) == (8, 3)
    position = Game(GameSetup(players=4)).position
    assert position.hints == 8
    assert position.fuses == 0
    assert position.discards == []
    assert position.fireworks == [0] * 6


@pytest.mark.parametrize(("players", "hand"), [(2, 5), (3, 5), (4, 4), (5, 4)])
def test_2_hand_size_5_with_2_or_3_players_4_with_4_or_5(players, hand):
    setup = GameSetup(players=players)
    assert setup.hand_size == hand
    assert Game(setup).position.hands == [hand] * players


@pytest.mark.parametrize(("players", "pile"), [(2, 40), (3, 35), (4, 34), (5, 30)])
def test_2_base_draw_pile_after_the_deal(players, pile):
    setup = GameSetup(players=players)
    assert setup.initial_deck == pile
    assert Game(setup).position.deck == pile


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize(("multicolor", "deck"), [(Multicolor.SHORT, 55), (Multicolor.FULL, 60)])
def test_2_draw_pile_is_deck_minus_players_times_hand_size(players, multicolor, deck):
    setup = GameSetup(players=players, options=GameOptions(multicolor=multicolor))
    hand = 5 if players <= 3 else 4
    assert setup.initial_deck == deck - players * hand


@pytest.mark.parametrize("players", [-1, 0, 1, 6, 7, 100])
def test_2_two_to_five_players_only(players):
    with pytest.raises(SetupError):
        GameSetup(players=players)


@pytest.mark.parametrize("players", [True, 3.0, "3", None])
def test_2_player_count_must_be_a_whole_number(players):
    with pytest.raises(SetupError):
        GameSetup(players=players)


def test_2_setup_error_is_a_value_error():
    assert issubclass(SetupError, ValueError)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_2_the_first_player_is_any_seat_chosen_at_set_up(players):
    for seat in range(players):
        game = Game(GameSetup(players=players, first_player=seat))
        assert game.current_player == seat


@pytest.mark.parametrize("first", [-1, 3, 4, "0", None])
def test_2_first_player_outside_the_seats_is_refused(first):
    with pytest.raises(SetupError):
        GameSetup(players=3, first_player=first)


def test_2_default_names_one_per_seat():
    assert GameSetup(players=3).names == ("Player 1", "Player 2", "Player 3")
    assert GameSetup(players=2, names=("Ann", "Bo")).names == ("Ann", "Bo")


@pytest.mark.parametrize("names", [("Ann",), ("Ann", "Bo", "Cy"), ("Ann", ""), ("Ann", 3)])
def test_2_one_non_empty_name_per_seat(names):
    with pytest.raises(SetupError):
        GameSetup(players=2, names=names)


def test_6_wild_multicolor_needs_a_multicolor_suit():
    with pytest.raises(SetupError):
        GameSetup(players=3, options=GameOptions(wild_multicolor=True))
    for multicolor in (Multicolor.SHORT, Multicolor.FULL):
        suit = GameSetup(
            players=3, options=GameOptions(multicolor=multicolor, wild_multicolor=True)
        ).suit(Color.MULTICOLOR)
        assert not suit.named_in_hints
        assert suit.touched_by_every_color_hint


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"multicolor": Multicolor.SHORT},
        {"multicolor": Multicolor.FULL},
        {"multicolor": Multicolor.SHORT, "wild_multicolor": True},
        {"timed_display": True},
        {"empty_clues": True, "strikeout_keeps_score": True},
    ],
)
def test_6_crowning_piece_combines_with_any_one_other_variant(options):
    setup = GameSetup(players=3, options=GameOptions(crowning_piece=True, **options))
    assert setup.options.crowning_piece


@pytest.mark.parametrize("multicolor", [Multicolor.SHORT, Multicolor.FULL])
def test_6_crowning_piece_refuses_two_other_variants(multicolor):
    with pytest.raises(SetupError):
        GameSetup(
            players=3,
            options=GameOptions(crowning_piece=True, multicolor=multicolor, timed_display=True),
        )


def test_6_other_variants_combine_freely_without_crowning_piece():
    setup = GameSetup(
        players=5,
        options=ALL_BUT_CROWNING,
    )
    assert setup.deck_size == 60
    assert setup.options.variant_name() == (
        "wild full multicolor, timed display, empty clues, strikeout keeps score"
    )


def test_6_variant_names():
    assert GameOptions().variant_name() == "base game"
    assert (
        GameOptions(multicolor=Multicolor.SHORT, crowning_piece=True).variant_name()
        == "short multicolor, crowning piece"
    )


def test_setup_is_immutable_and_compares_by_value():
    setup = GameSetup(players=3)
    assert setup == GameSetup(players=3, names=("Player 1", "Player 2", "Player 3"))
    assert setup != GameSetup(players=3, options=GameOptions(timed_display=True))
    with pytest.raises(AttributeError):
        setup.players = 4
