"""A variant as data: its suits and its rule flags, and what the rules read from them.

A :class:`Variant` is a tuple of :class:`~engine.suits.Suit` values plus Hanab
Live's rule flags (docs/variants.md on hanab.live's repository, its section
"Detailed Rules per Variant"): a special rank and how clues touch it, a critical
rank, scarce ones, clue starved, alternating clues, cow & pig, duck, odds and
evens, synesthesia, throw it in a hole, funnels, chimneys, colour or rank clues
that touch nothing, and which colours and ranks a hint may name. The referee,
the hand memory, the deck, the highest score and the end read the variant
through the methods here (:meth:`Variant.touches`, :meth:`Variant.copies_of`,
:attr:`Variant.hint_cost`…): no rule of the engine names a variant.

Two families of variants are entries of the same type:

- the printed books' (:data:`PRINTED`: the base game, short, full and wild
  multicolor), which :class:`~engine.options.GameOptions` picks from its options;
- Hanab Live's, by name (:func:`variant_by_name`), from the table
  ``engine/variants_table.json`` that ``benchmarks/variants_table.py`` writes from
  Hanab Live's JSON: the ones a printed deck can carry (GAME-LOG.md, "Variants by
  name").

>>> pink_ones = variant_by_name("Pink-Ones (6 Suits)")
>>> [suit.name for suit in pink_ones.suits][-2:], pink_ones.special_rank
(['Purple', 'Teal'], 1)
>>> pink_ones.touches(3, 0, 1), pink_ones.touches(3, 0, 2)  # a 3 clue touches a red 1
(True, False)
>>> try:
...     variant_by_name("Up or Down (5 Suits)")
... except SetupError as error:
...     print(error.code, "|", str(error).partition(": ")[2])
variant_not_printable | it needs START cards
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any, Final

import msgspec
from msgspec import Struct

from engine.cards import Card, Color
from engine.errors import SetupError
from engine.suits import NORMAL_COPIES, ColorTouch, RankTouch, Suit, SuitSpec

RANKS: Final = (1, 2, 3, 4, 5)
#: The table of Hanab Live's variants, in this package (data: read when a name is asked).
TABLE_FILE: Final = "variants_table.json"

#: Why a Hanab Live variant is not in the table, by the generator's key.
LEFT_OUT_REASONS: Final = {
    "start_cards": "it needs START cards",
    "two_special_suits": "it needs two special suits, and a printed deck has one",
    "shared_colors": "one of its suits answers the colour clues of other suits",
    "copies": "it needs more copies of a card than a printed suit has",
    "other_rules": "its stacks start at any rank",
    "reversed": "one of its suits is played downwards, from 5 to 1",
}


class Variant(Struct, frozen=True, forbid_unknown_fields=True):
    """The rules of a variant as data: its suits, in order, and its rule flags.

    Every flag's default is the base game's rule; the names are Hanab Live's, in
    ``snake_case`` (``throwItInAHole``: ``throw_it_in_a_hole``).
    """

    name: str
    suits: tuple[Suit, ...]
    #: The colours a hint may name, in order; None: the own colour of each suit that has
    #: one (an empty tuple: no colour hint at all, the Color Mute).
    clue_colors: tuple[Color, ...] | None = None
    #: The ranks a hint may name (odds and evens: 1 is "odd", 2 "even").
    clue_ranks: tuple[int, ...] = RANKS
    #: A rank whose cards every suit treats specially (Rainbow-Ones: 1).
    special_rank: int | None = None
    #: Which colour clues touch the special rank (None: as its suit says).
    special_colors: ColorTouch | None = None
    #: Which rank clues touch the special rank (None: as its suit says).
    special_ranks: RankTouch | None = None
    #: A rank with one copy in every suit (Critical Fours: 4).
    critical_rank: int | None = None
    scarce_ones: bool = False
    clue_starved: bool = False
    color_clues_touch_nothing: bool = False
    rank_clues_touch_nothing: bool = False
    alternating_clues: bool = False
    cow_and_pig: bool = False
    duck: bool = False
    odds_and_evens: bool = False
    synesthesia: bool = False
    throw_it_in_a_hole: bool = False
    funnels: bool = False
    chimneys: bool = False

    # -- the deck ----------------------------------------------------------------

    def copies_of(self, suit: Suit, rank: int) -> int:
        """Copies in the deck of the card of ``suit`` and ``rank``.

        >>> critical = variant_by_name("Critical Fours (5 Suits)")
        >>> [critical.copies_of(critical.suits[0], rank) for rank in RANKS]
        [3, 2, 2, 1, 1]
        """
        if suit.one_of_each or rank == self.critical_rank:
            return 1
        if rank == 1 and self.scarce_ones:
            return 2
        return NORMAL_COPIES[rank - 1]

    def specs(self) -> tuple[SuitSpec, ...]:
        """The suits in play, as the engine's set-up reads them."""
        return _specs(self)

    @property
    def colors(self) -> tuple[Color, ...]:
        """The printed colour of each suit, in the variant's order."""
        return tuple(suit.color for suit in self.suits)

    # -- the clues ----------------------------------------------------------------

    def named_colors(self) -> tuple[Color, ...]:
        """The colours a hint may name, in the variant's order (a prism's colours)."""
        if self.clue_colors is not None:
            return self.clue_colors
        return tuple(suit.color for suit in self.suits if suit.colors is ColorTouch.OWN)

    def touches(self, clue: Color | int, suit_index: int, rank: int) -> bool:
        """Whether a hint naming ``clue`` (a colour, or a rank) touches a card of the
        variant's ``suit_index``-th suit and ``rank``: the order of the rules is Hanab
        Live's (the suit's rule first, then the variant's special rank)."""
        suit = self.suits[suit_index]
        if isinstance(clue, Color):
            return self._color_touches(clue, suit, rank)
        return self._rank_touches(clue, suit_index, suit, rank)

    def _color_touches(self, clue: Color, suit: Suit, rank: int) -> bool:
        if self.color_clues_touch_nothing or suit.colors is ColorTouch.NONE:
            return False
        if suit.colors is ColorTouch.ALL:
            return True
        named = self.named_colors()
        if (  # synesthesia: its rank's colour touches it too (not a rankless suit's)
            self.synesthesia
            and suit.ranks is not RankTouch.NONE
            and named
            and named[(rank - 1) % len(named)] is clue
        ):
            return True
        if rank == self.special_rank and self.special_colors is not None:
            return self.special_colors is ColorTouch.ALL
        if suit.colors is ColorTouch.PRISM:
            return bool(named) and named[(rank - 1) % len(named)] is clue
        return suit.color is clue

    def _rank_touches(self, clue: int, suit_index: int, suit: Suit, rank: int) -> bool:
        if self.rank_clues_touch_nothing or suit.ranks is RankTouch.NONE:
            return False
        if suit.ranks is RankTouch.ALL:
            return True
        if self.funnels:
            return rank <= clue
        if self.chimneys:
            return rank >= clue
        if self.odds_and_evens:
            return rank % 2 == clue % 2  # 1: "odd", 2: "even"
        if rank == self.special_rank and self.special_ranks is not None:
            if self.special_ranks is RankTouch.DECEPTIVE:
                return clue == self.clue_ranks[suit_index % len(self.clue_ranks)]
            return self.special_ranks is RankTouch.ALL
        return clue == rank

    def touched_cards(self, clue: Color | int) -> frozenset[Card]:
        """Every card of the deck a hint naming ``clue`` touches."""
        return frozenset(
            Card(suit.color, rank)
            for index, suit in enumerate(self.suits)
            for rank in RANKS
            if self.touches(clue, index, rank)
        )

    @property
    def clues_heard(self) -> bool:
        """The receiver hears what a hint names (not with cow & pig or duck: "moo",
        "quack"), so that the hint tells each slot something."""
        return not (self.cow_and_pig or self.duck)

    # -- the tokens ----------------------------------------------------------------

    @property
    def hint_cost(self) -> int:
        """What a hint costs, in the units the engine counts tokens in: 1, or 2 with clue
        starved (a discard or a completed firework gives back one unit: half a token)."""
        return 2 if self.clue_starved else 1

    @property
    def completing_gives_a_token(self) -> bool:
        """A completed firework gives a unit back (not when the plays go in a hole)."""
        return not self.throw_it_in_a_hole

    @property
    def discard_when_tokens_full(self) -> bool:
        """A discard is allowed with every token available (an inverted suit's card may be
        played by it); it gives nothing back then."""
        return any(suit.inverted for suit in self.suits)

    # -- the printed deck ----------------------------------------------------------

    def printed_deck_shortfall(self) -> str | None:
        """Why the printed cards cannot carry this variant, in words; None when they can:
        one suit per printed colour (the multicolour cards for the one that is not R Y G
        B W), and no card with more copies than a printed suit has."""
        letters = [suit.color.letter for suit in self.suits]
        repeated = sorted({letter for letter in letters if letters.count(letter) > 1})
        if repeated:
            return f"two of its suits need the printed {repeated[0]} cards"
        for suit in self.suits:
            for rank in RANKS:
                if self.copies_of(suit, rank) > NORMAL_COPIES[rank - 1]:
                    return f"it needs more {suit.name} {rank}s than a printed suit has"
        return None


@cache
def _specs(variant: Variant) -> tuple[SuitSpec, ...]:
    named = set(variant.named_colors())
    return tuple(
        SuitSpec(
            suit.color,
            tuple(variant.copies_of(suit, rank) for rank in RANKS),  # type: ignore[arg-type]
            named_in_hints=suit.color in named,
            touched_by_every_color_hint=suit.colors is ColorTouch.ALL,
            suit=suit,
        )
        for suit in variant.suits
    )


# -- the printed books' variants -----------------------------------------------------

_PLAIN = tuple(Suit(color.label.capitalize(), color) for color in Color)[:5]
_MULTICOLOR = {
    ("short", False): Suit("Multicolor", Color.MULTICOLOR, one_of_each=True),
    ("full", False): Suit("Multicolor", Color.MULTICOLOR),
    ("short", True): Suit("Multicolor", Color.MULTICOLOR, colors=ColorTouch.ALL, one_of_each=True),
    ("full", True): Suit("Multicolor", Color.MULTICOLOR, colors=ColorTouch.ALL),
}

#: The printed books' variants, by the multicolor option's value and wild multicolor:
#: the base game, the short (Avalanche of colours) and full multicolor suits, and wild
#: multicolor (every colour hint touches it; a hint cannot name it). Their rules are
#: Hanab Live's "No Variant", "Black", "6 Suits", "Dark Rainbow" and "Rainbow" (6 Suits).
PRINTED: Final[dict[tuple[str, bool], Variant]] = {
    ("none", False): Variant("base game", _PLAIN),
    **{
        (size, wild): Variant(
            f"{'wild ' if wild else ''}{size} multicolor", (*_PLAIN, _MULTICOLOR[size, wild])
        )
        for size, wild in _MULTICOLOR
    },
}


# -- Hanab Live's variants, by name --------------------------------------------------


class _Table(Struct, frozen=True):
    """The table's file (``benchmarks/variants_table.py`` writes it)."""

    source: str
    generated_by: str
    count: int
    total: int
    suits: dict[str, dict[str, Any]]
    variants: dict[str, dict[str, Any]]
    left_out: dict[str, str]


@cache
def _table() -> _Table:
    """The table, read and decoded once, when a variant is first named or listed: the
    package's data file, read as an import reads a module (not at import: the base
    game's start never pays for it)."""
    with open(os.path.join(os.path.dirname(__file__), TABLE_FILE), "rb") as table:
        return msgspec.json.decode(table.read(), type=_Table)


@cache
def _suit(suit_id: str) -> Suit:
    fields = dict(_table().suits[suit_id])
    fields["color"] = Color.from_letter(fields["color"])
    return msgspec.convert(fields, Suit)


def variant_names() -> tuple[str, ...]:
    """The names of Hanab Live's variants a printed deck can carry, in Hanab Live's order.

    >>> names = variant_names()
    >>> names[:3], len(names) > 1000
    (('No Variant', '6 Suits', '4 Suits'), True)
    """
    return tuple(_table().variants)


def table_source() -> tuple[str, int, int]:
    """Where the table comes from, how many variants it keeps and of how many."""
    table = _table()
    return table.source, table.count, table.total


@cache
def variant_by_name(name: str) -> Variant:
    """Hanab Live's variant of that exact name; :class:`SetupError` naming the reason
    when it is not one, or when a printed deck cannot carry it."""
    table = _table()
    entry = table.variants.get(name)
    if entry is None:
        reason = table.left_out.get(name)
        if reason is not None:
            raise SetupError(
                "variant_not_printable",
                f"{_quoted(name)} cannot be played with a printed deck: {LEFT_OUT_REASONS[reason]}",
            )
        folded = name.casefold()
        close = next((known for known in table.variants if known.casefold() == folded), None)
        hint = "" if close is None else f" (its name is {_quoted(close)})"
        raise SetupError(
            "unknown_variant", f"{_quoted(name)} is not the name of a Hanab Live variant{hint}"
        )
    fields = dict(entry)
    fields["name"] = name
    fields["suits"] = [_suit(suit_id) for suit_id in entry["suits"]]
    return msgspec.convert(fields, Variant)


def search(text: str) -> list[str]:
    """The variants whose name holds every word of ``text`` (any case), in table order.

    >>> search("light-pink-ones orange 4")
    ['Light-Pink-Ones & Orange (4 Suits)']
    """
    words = text.casefold().split()
    return [name for name in _table().variants if all(word in name.casefold() for word in words)]


def family_of(name: str) -> str:
    """The family of a variant: its name without its suit count and without the special
    suit it adds ("Pink-Ones & Rainbow (6 Suits)": "Pink-Ones"); the plain variants ("No
    Variant", "6 Suits"…) are one family, "No Variant".

    >>> family_of("Pink-Ones & Rainbow (6 Suits)"), family_of("Black (5 Suits)")
    ('Pink-Ones', 'Black')
    >>> family_of("6 Suits"), family_of("Cow & Pig (4 Suits)")
    ('No Variant', 'Cow & Pig')
    """
    base = name.partition(" (")[0]
    if base.endswith(" Suits") or base == "No Variant":
        return "No Variant"
    if base.startswith("Cow & Pig"):  # the one name with "&" of its own
        return "Cow & Pig"
    return base.partition(" & ")[0]


def _quoted(name: str) -> str:
    return msgspec.json.encode(name).decode()
