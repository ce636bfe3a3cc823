"""What a clue touches in each kind of suit and under each flag, from Hanab Live's docs (issue 35).

Each test cites the section of Hanab Live's ``docs/variants.md`` (github.com/Hanabi-Live/
hanabi-live) whose rule it checks, on hand-made positions: the cards a clue touches
(``Variant.touches``, read by the referee and the hand memory), and the same at the table
through the referee with hand memory (a hint's slots, the card played from one).
Letters are the printed cards' (GAME-LOG.md, "Variants by name"): W stands for purple,
M for the variant's special (or teal) suit.
"""

from __future__ import annotations

import pytest

from engine import errors
from engine.actions import Discard, Hint, Play
from engine.cards import Card, Color
from engine.game import Game
from engine.options import GameOptions
from engine.setup import GameSetup
from engine.variants import Variant, variant_by_name

R, Y, G, B, W, M = Color
COLORS = (R, Y, G, B, W, M)


def touches(variant: Variant, clue: Color | int, code: str) -> bool:
    """Whether a hint naming ``clue`` touches the card ``code`` in ``variant``."""
    card = Card.from_code(code)
    index = variant.colors.index(card.color)
    return variant.touches(clue, index, card.rank)


def touched(variant: Variant, clue: Color | int) -> set[str]:
    return {card.code() for card in variant.touched_cards(clue)}


def game(name: str, players: int = 2, **options: bool) -> Game:
    return Game(GameSetup(players=players, options=GameOptions(variant=name, **options)))


# -- the special suits: "A Quick Overview of Special Suits" -----------------------------

#: The overview's two tables: which colour clues and which rank clues touch each suit
#: ("own", "all", "none"), and how many cards it has.
OVERVIEW = {
    "Null": ("none", "none", 10),
    "Brown": ("own", "none", 10),
    "Muddy Rainbow": ("all", "none", 10),
    "White": ("none", "own", 10),
    "6 Suits": ("own", "own", 10),  # the "No Variant" cell: teal, a normal suit
    "Rainbow": ("all", "own", 10),
    "Light Pink": ("none", "all", 10),
    "Pink": ("own", "all", 10),
    "Omni": ("all", "all", 10),
    "Dark Null": ("none", "none", 5),
    "Dark Brown": ("own", "none", 5),
    "Cocoa Rainbow": ("all", "none", 5),
    "Gray": ("none", "own", 5),
    "Black": ("own", "own", 5),
    "Dark Rainbow": ("all", "own", 5),
    "Gray Pink": ("none", "all", 5),
    "Dark Pink": ("own", "all", 5),
    "Dark Omni": ("all", "all", 5),
}


@pytest.mark.parametrize(("suit", "rules"), OVERVIEW.items())
def test_each_special_suit_is_touched_as_the_overview_table_says(suit, rules):
    """docs/variants.md, "A Quick Overview of Special Suits": the M cards of "<suit> (6
    Suits)" (R Y G B, purple on W, the special suit on M)."""
    colors, ranks, cards = rules
    variant = variant_by_name("6 Suits" if suit == "6 Suits" else f"{suit} (6 Suits)")
    for clue in (R, Y, G, B, W):
        assert touches(variant, clue, "M3") is (colors == "all")
        assert touches(variant, clue, f"{clue.letter}3")  # the plain suits as ever
    own = M in variant.named_colors()
    assert own is (colors == "own")
    if own:
        assert touched(variant, M) == {f"M{rank}" for rank in range(1, 6)}
    for rank in range(1, 6):
        for card_rank in range(1, 6):
            expected = {"all": True, "none": False, "own": rank == card_rank}[ranks]
            assert touches(variant, rank, f"M{card_rank}") is expected
    assert sum(variant.specs()[-1].copies) == cards


def test_a_rainbow_card_answers_a_red_hint_at_the_table():
    """docs/variants.md, "Rainbow": all colour clues touch the rainbow suit. A red hint
    touching Bo's slots 1 and 3 leaves a rainbow or red card there; a blue card played from
    slot 1 is refused, a rainbow one is not."""
    table = game("Rainbow (5 Suits)", hand_memory=True)
    table.apply(Hint(to=1, color=R, slots=(1, 3)))
    slot = table.hand_memory(1)[0]
    assert slot.colors == {R, M} and slot.ranks == {1, 2, 3, 4, 5}
    assert table.hand_memory(1)[1].colors == {Y, G, B}
    with pytest.raises(errors.CardNotInSlot, match="Slot 1 was hinted red: B3 cannot be there"):
        table.check(Play(Card.from_code("B3"), slot=1))  # Bo's turn
    table.apply(Play(Card.from_code("M1"), slot=1))
    assert table.position.fireworks[M] == 1


def test_no_hint_names_the_white_suit_and_none_touches_it():
    """docs/variants.md, "White": no colour clue touches the white suit; Hanab Live gives it
    no clue colour, so a hint naming its printed colour is refused in words."""
    table = game("White (5 Suits)", hand_memory=True)
    with pytest.raises(errors.HintColorNotNamed, match="No hint names multicolor"):
        table.apply(Hint(to=1, color=M, slots=(1,)))
    table.apply(Hint(to=1, color=R, slots=(1,)))
    with pytest.raises(errors.CardNotInSlot, match="Slot 1 was hinted red: M1 cannot be there"):
        table.apply(Play(Card.from_code("M1"), slot=1))  # a red hint cannot touch a white 1
    assert touched(variant_by_name("White (5 Suits)"), R) == {f"R{rank}" for rank in range(1, 6)}


def test_a_brown_card_answers_no_rank_hint_and_a_pink_card_every_one():
    """docs/variants.md, "Brown" and "Pink": no rank clue touches brown; all rank clues
    touch pink. A 2 hint at the table then tells a pink slot nothing about its rank."""
    brown, pink = variant_by_name("Brown (5 Suits)"), variant_by_name("Pink (5 Suits)")
    assert touched(brown, 2) == {"R2", "Y2", "G2", "B2"}
    assert touched(pink, 2) == {"R2", "Y2", "G2", "B2", *(f"M{rank}" for rank in range(1, 6))}
    assert touched(brown, M) == touched(pink, M) == {f"M{rank}" for rank in range(1, 6)}
    table = game("Pink (5 Suits)", hand_memory=True)
    table.apply(Hint(to=1, rank=2, slots=(4,)))
    four = table.hand_memory(1)[3]
    assert four.allows(Card.from_code("M5")) and four.allows(Card.from_code("R2"))
    assert not four.allows(Card.from_code("R5"))
    assert four.colors == set(COLORS) - {W} and four.ranks == {1, 2, 3, 4, 5}


def test_a_prism_card_answers_the_colour_of_its_rank_wrapping_around():
    """docs/variants.md, "Prism": the prism 1 is touched by the left-most colour, the 2 by
    the second, and so on; with fewer than 5 colours they wrap around."""
    five = variant_by_name("Prism (5 Suits)")  # R Y G B: 1 red, 2 yellow, 3 green, 4 blue
    assert [c for c in (R, Y, G, B) if touches(five, c, "M5")] == [R]  # wrapped: red
    assert {code for code in touched(five, G) if code[0] == "M"} == {"M3"}
    assert {code for code in touched(five, R) if code[0] == "M"} == {"M1", "M5"}
    three = variant_by_name("Prism (3 Suits)")  # R B: 1 red, 2 blue, 3 red, 4 blue, 5 red
    assert {code for code in touched(three, B) if code[0] == "M"} == {"M2", "M4"}
    assert {code for code in touched(three, R) if code[0] == "M"} == {"M1", "M3", "M5"}
    assert M not in five.named_colors()


def test_an_orange_card_played_is_discarded_and_discarded_is_played():
    """docs/variants.md, "Orange": a card of the orange suit one tries to discard is played
    instead, one tries to play is discarded instead (Hanab Live's server: the discard of a
    played orange card gives a token back, and a discard is allowed with all 8 tokens)."""
    table = game("Orange (5 Suits)")
    event = table.apply(Discard(Card.from_code("M1")))  # 8 tokens: the discard plays it
    assert event.kind.value == "play" and table.position.fireworks[M] == 1
    assert table.position.hints == 8
    table.apply(Hint(to=0, rank=1))
    event = table.apply(Play(Card.from_code("M2")))  # played: it goes to the discard pile
    assert event.kind.value == "discard" and not event.fuse_burnt
    assert table.position.fireworks[M] == 1 and table.position.hints == 8
    event = table.apply(Discard(Card.from_code("M5")))  # discarded: a misplay
    assert event.fuse_burnt and table.position.fuses == 1
    with pytest.raises(errors.HintTokensFull):
        game("Rainbow (5 Suits)").apply(Discard(Card.from_code("R1")))


# -- special ranks: "Suit-Ones", "Suit-Fives", "Deceptive-…" -----------------------------


def test_rainbow_ones_are_touched_by_every_colour():
    """docs/variants.md, "Suit-Ones": ones have the property of the suit prefix;
    rainbow-ones are touched by all colours."""
    variant = variant_by_name("Rainbow-Ones (5 Suits)")
    assert touched(variant, Y) == {"R1", "G1", "B1", "W1", *(f"Y{rank}" for rank in range(1, 6))}
    table = game("Rainbow-Ones (5 Suits)", hand_memory=True)
    table.apply(Hint(to=1, color=R, slots=(2,)))
    slot = table.hand_memory(1)[1]
    assert slot.possible_cards() == {Card.from_code(c) for c in ("R1", "R2", "R3", "R4", "R5")} | {
        Card.from_code(c) for c in ("Y1", "G1", "B1", "W1")
    }
    missed = table.hand_memory(1)[0]  # not red and not a 1
    assert not missed.allows(Card.from_code("Y1")) and missed.allows(Card.from_code("Y2"))


def test_pink_fives_are_touched_by_every_rank_and_the_5_hint_is_gone():
    """docs/variants.md, "Suit-Fives": fives have the property of the suit prefix (pink:
    every rank touches them); Hanab Live's data leaves the 5 out of the clue ranks."""
    variant = variant_by_name("Pink-Fives (5 Suits)")
    assert touched(variant, 2) == {"R2", "Y2", "G2", "B2", "W2", "R5", "Y5", "G5", "B5", "W5"}
    assert variant.clue_ranks == (1, 2, 3, 4)
    with pytest.raises(errors.RankHintNotAllowed, match="a hint cannot name 5"):
        game("Pink-Fives (5 Suits)").apply(Hint(to=1, rank=5))


def test_white_fives_and_brown_ones_are_touched_by_no_colour_and_no_rank_clue():
    """docs/variants.md, "Suit-Ones"/"Suit-Fives": white fives take white's property (no
    colour clue), brown ones brown's (no rank clue)."""
    white = variant_by_name("White-Fives (5 Suits)")
    assert "R5" not in touched(white, R) and "R4" in touched(white, R)
    brown = variant_by_name("Brown-Ones (5 Suits)")
    assert "R1" in touched(brown, R) and touched(brown, 1) == set()


def test_special_ranks_with_another_special_suit_add_up_and_the_suit_wins_a_conflict():
    """docs/variants.md, "Suit-Ones or Suit-Fives with Another Special Suit": in Rainbow-Ones
    & Pink the pink 1 is touched by all colours and all ranks; in Null-Ones & Rainbow the
    rainbow 1 is touched by all colours (the suit's rule wins) and no rank."""
    rainbow_pink = variant_by_name("Rainbow-Ones & Pink (5 Suits)")
    assert all(touches(rainbow_pink, clue, "M1") for clue in (R, Y, G, B, M, 1, 2, 3, 4, 5))
    null_rainbow = variant_by_name("Null-Ones & Rainbow (5 Suits)")
    assert all(touches(null_rainbow, clue, "M1") for clue in (R, Y, G, B))
    assert not any(touches(null_rainbow, rank, "M1") for rank in null_rainbow.clue_ranks)
    assert not touches(null_rainbow, R, "Y1")  # a null 1 of a plain suit


def test_deceptive_ones_and_fives_answer_the_rank_of_their_suits_place():
    """docs/variants.md, "Deceptive-Ones": the first suit's 1 is touched by a 2, the second
    by a 3, the third by a 4, the fourth by a 5, the fifth by a 2 (wrapping around);
    "Deceptive-Fives": 1, 2, 3, 4, then 1 again."""
    ones = variant_by_name("Deceptive-Ones (5 Suits)")
    assert [
        next(r for r in (2, 3, 4, 5) if touches(ones, r, f"{c.letter}1")) for c in ones.colors
    ] == [
        2,
        3,
        4,
        5,
        2,
    ]
    fives = variant_by_name("Deceptive-Fives (5 Suits)")
    assert [
        next(r for r in (1, 2, 3, 4) if touches(fives, r, f"{c.letter}5")) for c in fives.colors
    ] == [1, 2, 3, 4, 1]
    assert not touches(fives, 5, "R5") and touches(fives, 4, "R4")


# -- the rule flags ---------------------------------------------------------------------


def test_critical_fours_have_one_copy_and_scarce_ones_two():
    """docs/variants.md, "Critical Fours": one 4 is removed from each suit; "Scarce Ones":
    one 1 is removed from each suit."""
    critical = GameSetup(players=2, options=GameOptions(variant="Critical Fours (5 Suits)"))
    assert critical.deck_size == 45 and critical.copies[Card.from_code("B4").ordinal] == 1
    table = Game(critical)
    assert {card.code() for card in table.critical_cards()} >= {"R4", "Y4", "G4", "B4", "W4"}
    scarce = GameSetup(players=2, options=GameOptions(variant="Scarce Ones (5 Suits)"))
    assert scarce.deck_size == 45 and scarce.copies[Card.from_code("R1").ordinal] == 2


def test_clue_starved_discards_give_half_a_token_back():
    """docs/variants.md, "Clue Starved": each discard or 5 played generates 0.5 clues; the
    team still starts with 8."""
    table = game("Clue Starved (5 Suits)")
    assert table.setup.hint_tokens(table.position.hints) == 8
    table.apply(Hint(to=1, rank=1))
    table.apply(Discard(Card.from_code("R1")))
    assert table.setup.hint_tokens(table.position.hints) == 7.5
    for _ in range(7):
        table.apply(Hint(to=1 - table.position.current, rank=2))
    assert table.setup.hint_tokens(table.position.hints) == 0.5
    with pytest.raises(errors.NoHintTokens):
        table.apply(Hint(to=0, rank=3))


def test_colour_blind_colour_clues_touch_nothing_and_may_be_given_empty():
    """docs/variants.md, "Color Blind": colour clues touch no suits (empty colour clues are
    always allowed); "Number Blind" the same with ranks; "Totally Blind" both."""
    assert touched(variant_by_name("Color Blind (5 Suits)"), R) == set()
    table = game("Color Blind (5 Suits)", hand_memory=True)
    table.apply(Hint(to=1, color=R, slots=()))
    with pytest.raises(errors.HintTouchesNothing):
        table.apply(Hint(to=0, rank=1, slots=()))
    with pytest.raises(errors.HintCannotTouch):
        table.apply(Hint(to=0, color=B, slots=(1,)))
    number = game("Number Blind (5 Suits)", hand_memory=True)
    number.apply(Hint(to=1, rank=3, slots=()))
    assert touched(variant_by_name("Totally Blind (5 Suits)"), 3) == set()


def test_mute_variants_refuse_the_kind_of_hint_they_forbid():
    """docs/variants.md, "Color Mute": colour clues cannot be given; "Number Mute": rank
    clues cannot be given."""
    with pytest.raises(errors.NoColorHints):
        game("Color Mute (5 Suits)").apply(Hint(to=1, color=R))
    game("Color Mute (5 Suits)").apply(Hint(to=1, rank=1))
    with pytest.raises(errors.NoRankHints):
        game("Number Mute (5 Suits)").apply(Hint(to=1, rank=1))


def test_alternating_clues_each_hint_the_other_kind_than_the_last():
    """docs/variants.md, "Alternating Clues": the first clue is free; each next one is of
    the other type than the one before."""
    table = game("Alternating Clues (5 Suits)", players=3)
    table.apply(Hint(to=1, rank=2))
    with pytest.raises(errors.HintMustNameColor):
        table.apply(Hint(to=2, rank=1))
    table.apply(Hint(to=2, color=B))
    with pytest.raises(errors.HintMustNameRank):
        table.apply(Hint(to=0, color=R))
    table.apply(Discard(Card.from_code("R1")))  # a discard changes nothing
    with pytest.raises(errors.HintMustNameRank):
        table.apply(Hint(to=1, color=R))


def test_cow_and_pig_and_duck_hints_tell_the_receiver_nothing_of_what_they_named():
    """docs/variants.md, "Cow & Pig" and "Duck": the giver points at the cards but says
    "moo", "oink" or "quack": the hand memory learns nothing of the clue."""
    for name in ("Cow & Pig (5 Suits)", "Duck (5 Suits)"):
        table = game(name, hand_memory=True)
        table.apply(Hint(to=1, color=R, slots=(1,)))
        assert all(len(slot.possible_cards()) == 25 for slot in table.hand_memory(1))
        assert table.hand_memory(1)[0].clues == (R,)


def test_odds_and_evens_a_1_hint_touches_the_odd_cards_and_a_2_the_even_ones():
    """docs/variants.md, "Odds and Evens": rank clues are limited to 1 and 2; "O" touches
    all odd cards, "E" all even cards (logs write them as ranks 1 and 2)."""
    variant = variant_by_name("Odds and Evens (5 Suits)")
    assert {code[1] for code in touched(variant, 1)} == {"1", "3", "5"}
    assert {code[1] for code in touched(variant, 2)} == {"2", "4"}
    with pytest.raises(errors.RankHintNotAllowed):
        game("Odds and Evens (5 Suits)").apply(Hint(to=1, rank=3))


def test_synesthesia_a_colour_also_touches_the_rank_of_its_place_but_not_brown():
    """docs/variants.md, "Synesthesia": only colour clues; a card of rank 1 counts as the
    first colour, 2 the second…; brown cards only get clued by brown."""
    variant = variant_by_name("Synesthesia (5 Suits)")  # R Y G B W
    assert touched(variant, Y) == {*(f"Y{rank}" for rank in range(1, 6)), "R2", "G2", "B2", "W2"}
    assert variant.clue_ranks == ()
    brown = variant_by_name("Synesthesia & Brown (5 Suits)")  # R Y G B, brown on M
    assert not touches(brown, R, "M1") and touches(brown, R, "Y1")
    assert touches(brown, M, "R5")  # the fifth colour is brown's


def test_throw_it_in_a_hole_a_completed_firework_gives_no_token():
    """docs/variants.md, "Throw It in a Hole": players do not get a clue back for
    successfully playing a 5."""
    table = game("Throw It in a Hole (5 Suits)")
    table.apply(Hint(to=1, rank=1))
    for rank in range(1, 6):
        table.apply(Play(Card.from_code(f"R{rank}")))
    assert table.position.fireworks[R] == 5 and table.position.hints == 7
    plain = game("No Variant")
    plain.apply(Hint(to=1, rank=1))
    for rank in range(1, 6):
        plain.apply(Play(Card.from_code(f"R{rank}")))
    assert plain.position.hints == 8


def test_funnels_touch_the_lower_ranks_too_and_chimneys_the_higher():
    """docs/variants.md, "Funnels": rank clues also touch all lower ranked cards;
    "Chimneys": also all higher ranked cards."""
    funnels, chimneys = variant_by_name("Funnels (5 Suits)"), variant_by_name("Chimneys (5 Suits)")
    assert {code[1] for code in touched(funnels, 3)} == {"1", "2", "3"}
    assert {code[1] for code in touched(chimneys, 3)} == {"3", "4", "5"}
    table = game("Funnels (5 Suits)", hand_memory=True)
    table.apply(Hint(to=1, rank=3, slots=(1,)))
    assert table.hand_memory(1)[0].ranks == {1, 2, 3} and table.hand_memory(1)[1].ranks == {4, 5}
