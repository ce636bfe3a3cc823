"""Where each region of the game screen's table page lies: worked out once for a panel,
a set-up and a language, and kept from the first turn to the last.

The regions: whose turn, the fuses, the draw pile, the fireworks, the hand strip (hand
memory), the hint tokens, the last action (a box of two lines), the score line, the
discard pile (on a wide or a tall panel) and the buttons. Each is as large as the
longest text the set-up can put in it needs (the final round with every player still
to play, the widest score), so nothing moves when a text grows, when the final round
starts, or when a notice comes or goes (it is said in the last action's box).

Where the roomiest arrangement does not fit, the layout gives way, one concession after
another, for the whole game: the final round's names shortened, the hand strip flat,
the fireworks flat, and last the hand strip left to the hands page (NEXT).

>>> kit = Kit((480, 320))
>>> layout = table_layout(kit, ("Ann", "Bo", "Cy"), 5, 5, hand_memory=False, lang="en")
>>> layout.turn.top == kit.pad, layout.fireworks.top > layout.turn.bottom
(True, True)
>>> layout.message.height == 2 * kit.line_height(kit.floor)
True
"""

from __future__ import annotations

from collections.abc import Iterator

import pygame
from msgspec import Struct
from msgspec.structs import replace

from companion.core import i18n
from companion.core.words import score_words, short_names, turn_words
from companion.panel.screens import hand, piles
from companion.panel.screens.kit import MENU_ICON, Kit

#: The lines the last action's box holds: a longer text is shortened ("…"); the recent
#: actions page says it whole.
MESSAGE_LINES = 2

#: The share of a wide panel's width the main column takes (the discard pile the rest:
#: its title and "unseen" on one line, seven lines of tiles under it at 800x480).
MAIN_SHARE = 0.53

#: The widest figure of the score line (score, max, pace: two digits each).
_WIDEST_FIGURE = 88


class TableLayout(Struct, frozen=True):
    """The table page's regions, in the panel's pixels, and the concessions made to fit
    them. ``pile`` and ``hand`` are None where the page does not show them."""

    turn: pygame.Rect
    fuses: pygame.Rect
    deck: pygame.Rect
    fireworks: pygame.Rect
    tokens: pygame.Rect
    message: pygame.Rect
    score: pygame.Rect
    buttons: pygame.Rect
    pile: pygame.Rect | None
    hand: pygame.Rect | None
    #: The hand strip's column for the player's name, at its left (0: the name on a line
    #: above the slots, or no strip).
    hand_name_w: int
    #: A page's band for whose turn (the pile's, the actions'), above the page: as high
    #: as a plain turn takes (the final round's order is the table page's).
    page_turn: pygame.Rect
    #: Whether the fuses and the draw pile share the turn's row (else the tokens' row).
    beside: bool
    #: The final round names the players after the current one by their beginnings.
    short_names: bool
    #: The fireworks are flat cards (the symbol and the rank on one line).
    flat_fireworks: bool
    #: The hand strip's slots are one line high.
    flat_hand: bool
    #: The score line says hand memory's efficiencies (where they fit: else the end's
    #: story does).
    efficiency: bool
    #: The score line names what the multicolour cards stand for (a variant by name).
    special: bool = False
    #: Else a line of its own under the score, at the floor size (None: on the score
    #: line, or no variant by name; where neither fits, the set-up and the phones say it).
    special_line: pygame.Rect | None = None
    #: The score line's text size: the big one, or the floor where that alone keeps the
    #: special suit's name on the page.
    score_size: int = 0

    def regions(self) -> dict[str, pygame.Rect]:
        """Every region shown, by name."""
        regions = {
            "turn": self.turn,
            "fuses": self.fuses,
            "deck": self.deck,
            "fireworks": self.fireworks,
            "tokens": self.tokens,
            "message": self.message,
            "score": self.score,
            "buttons": self.buttons,
        }
        if self.pile is not None:
            regions["pile"] = self.pile
        if self.hand is not None:
            regions["hand"] = self.hand
        if self.special_line is not None:
            regions["special"] = self.special_line
        return regions


class _Concessions(Struct, frozen=True):
    """What an arrangement gives up to fit: each for the whole game."""

    short_names: bool = False
    flat_hand: bool = False
    flat_fireworks: bool = False
    no_hand: bool = False
    #: The score line without hand memory's efficiencies (the end's story says them).
    no_efficiency: bool = False
    #: The special suit's name on a line of its own under the score, at the floor size.
    special_apart: bool = False
    #: The score line at the floor size, to keep the special suit's name under it.
    small_score: bool = False
    #: The special suit's name left to the set-up and the phones.
    no_special: bool = False


#: From the roomiest to the tightest: the first arrangement that holds everything wins.
_LADDER = (
    _Concessions(),
    _Concessions(short_names=True),
    _Concessions(short_names=True, flat_hand=True),
    _Concessions(short_names=True, flat_fireworks=True),
    _Concessions(short_names=True, flat_hand=True, flat_fireworks=True),
    _Concessions(short_names=True, no_hand=True),
    _Concessions(short_names=True, flat_fireworks=True, no_hand=True),
)


def buttons(lang: str) -> list[str]:
    """The table page's button labels."""
    keys = ("button_hint", "button_play", "button_discard", "button_undo")
    return [*(i18n.tr(lang, key) for key in keys), MENU_ICON]


def pile_on_table(size: tuple[int, int]) -> bool:
    """Whether a panel can show the discard pile on the table page: beside the fireworks
    on a wide one (700 px and more across), below them on a tall one (700 px and more
    high). Elsewhere the pile is a page of its own; so it is on a tall panel whose
    set-up leaves it too little room (:attr:`TableLayout.pile` is then None)."""
    width, height = size
    return max(width, height) >= 700 and width != height


def turn_lines(names: tuple[str, ...], lang: str, *, short: bool) -> Iterator[str]:
    """Every line whose turn can say in a game of these players: each player's turn,
    and the final round from each seat with each number of players still to play."""
    players = len(names)
    for current in range(players):
        yield turn_words(lang, names, current, None)
        for left in range(1, players + 1):
            order = [(current + i) % players for i in range(left)]
            yield turn_words(lang, names, current, order, short=short)


def widest_score(lang: str, *, hand_memory: bool, special: str = "") -> str:
    """The score line at its widest (with hand memory, its efficiencies too; ``special``:
    what the multicolour cards stand for in a variant by name)."""
    efficiency = ""
    if hand_memory:
        value = f"{_WIDEST_FIGURE}.{_WIDEST_FIGURE}"
        parts = [i18n.tr(lang, key, value=value) for key in ("efficiency", "efficiency_needed")]
        efficiency = " · ".join(part.replace(" ", "\u00a0") for part in parts)
    return score_words(lang, _WIDEST_FIGURE, _WIDEST_FIGURE, _WIDEST_FIGURE, efficiency, special)


_LAYOUTS: dict[tuple[object, ...], TableLayout] = {}
_LAYOUTS_KEPT = 16


def table_layout(
    kit: Kit,
    names: tuple[str, ...],
    suits: int,
    hand_size: int,
    *,
    hand_memory: bool,
    lang: str,
    special: str = "",
) -> TableLayout:
    """The table page's regions for this panel (the kit's drawing area), these players,
    this many suits and cards in a hand, and this language."""
    key = (kit.width, kit.height, kit.unit, names, suits, hand_size, hand_memory, lang, special)
    layout = _LAYOUTS.get(key)
    if layout is None:
        layout = _plan(
            kit, names, suits, hand_size, hand_memory=hand_memory, lang=lang, special=special
        )
        if len(_LAYOUTS) >= _LAYOUTS_KEPT:
            del _LAYOUTS[next(iter(_LAYOUTS))]
        _LAYOUTS[key] = layout
    return layout


def _plan(
    kit: Kit,
    names: tuple[str, ...],
    suits: int,
    hand_size: int,
    *,
    hand_memory: bool,
    lang: str,
    special: str = "",
) -> TableLayout:
    layout = None
    # the final round's names shortened where that keeps a line of whose turn free for
    # the whole game (it is kept for the final round from the first turn)
    full_w = kit.width - 2 * kit.pad
    lines = {
        short: max(
            len(kit.lines(line, kit.big, full_w)) for line in turn_lines(names, lang, short=short)
        )
        for short in (False, True)
    }
    # a tall panel's pile under the tokens needs a line for each suit's row: where the
    # set-up leaves less without flat fireworks or a hand strip left out, the pile is a
    # page of its own (NEXT), as on a smaller panel
    tall = kit.height > kit.width and pile_on_table((kit.width, kit.height))
    # hand memory's efficiencies on the score line where they cost nothing else
    ladder: tuple[_Concessions, ...] = _LADDER
    if hand_memory:
        roomy = [step for step in _LADDER if not (step.flat_hand or step.flat_fireworks)]
        roomy = [step for step in roomy if not step.no_hand]
        ladder = (*roomy, *(replace(step, no_efficiency=True) for step in _LADDER))
    if special:  # its name on the score line, else on a line of its own, at each step
        apart = (replace(step, special_apart=True) for step in ladder)
        ladder = (
            *(tried for pair in zip(ladder, apart, strict=True) for tried in pair),
            *(
                replace(step, no_efficiency=True, special_apart=True, small_score=True)
                for step in _LADDER
            ),
            *(replace(step, no_special=True, no_efficiency=True) for step in _LADDER),
        )
    for pile_here in (True, False) if tall else (True,):
        for concessions in ladder:
            if not hand_memory and (concessions.flat_hand or concessions.no_hand):
                continue
            if tall and pile_here and (concessions.flat_fireworks or concessions.no_hand):
                continue
            if lines[True] < lines[False] and not concessions.short_names:
                continue
            layout = _arrange(
                kit, names, suits, hand_size, hand_memory, concessions, lang, pile_here, special
            )
            if layout is not None:
                return layout
    # nothing holds the least of everything (not a supported panel): the tightest
    # arrangement all the same; the screen's strict layout says what overlaps
    tightest = replace(_LADDER[-1], no_efficiency=True, no_special=True)
    layout = _arrange(
        kit, names, suits, hand_size, hand_memory, tightest, lang, False, special, force=True
    )
    assert layout is not None
    return layout


def _arrange(
    kit: Kit,
    names: tuple[str, ...],
    suits: int,
    hand_size: int,
    hand_memory: bool,
    concessions: _Concessions,
    lang: str,
    pile_here: bool,
    special: str = "",
    *,
    force: bool = False,
) -> TableLayout | None:
    """One arrangement, or None when its least sizes do not fit the panel.
    ``pile_here``: a tall panel shows the pile under the tokens, with room for a line
    for each suit's row."""
    w, h, pad, gap = kit.width, kit.height, kit.pad, kit.gap
    portrait = h > w
    wide = not portrait and pile_on_table((w, h))
    tall = portrait and pile_on_table((w, h)) and pile_here
    if not pile_here and not (portrait and pile_on_table((w, h))) and not force:
        return None  # only a tall panel may leave its pile to a page
    main_w = int(w * MAIN_SHARE) if wide else w
    inner_w = main_w - 2 * pad
    full_w = w - 2 * pad
    big_line, floor_line = kit.line_height(kit.big), kit.line_height(kit.floor)
    row_h = max(big_line, kit.line_height(kit.figure))

    bar_h = kit.bar_height(buttons(lang), full_w)
    bar = pygame.Rect(pad, h - bar_h - pad, full_w, bar_h)

    # whose turn: as high as its longest line; the fuses and the draw pile beside it
    # where every line fits one row beside them, else in the tokens' row
    lines = list(turn_lines(names, lang, short=concessions.short_names))
    fuses_w = int(row_h * 3.3)
    deck_w = int(row_h * 0.72) + pad + kit.width_of("50", kit.figure)
    beside_w = full_w - fuses_w - deck_w - 4 * pad
    beside = all(kit.width_of(line, kit.big) <= beside_w for line in lines)
    if beside:
        turn = pygame.Rect(pad, pad, beside_w, row_h)
        fuses = pygame.Rect(turn.right + 2 * pad, pad, fuses_w, row_h)
        deck = pygame.Rect(fuses.right + 2 * pad, pad, deck_w, row_h)
    else:
        most = max(len(kit.lines(line, kit.big, full_w)) for line in lines)
        turn = pygame.Rect(pad, pad, full_w, most * big_line)
    top = turn.bottom + pad
    plain = [turn_words(lang, names, seat, None) for seat in range(len(names))]
    page_turn = turn.copy()
    if not beside:
        page_turn.height = max(len(kit.lines(line, kit.big, full_w)) for line in plain) * big_line

    # the main column, from the buttons up: the score, the last action, the tokens
    efficiency = hand_memory and not concessions.no_efficiency
    named = bool(special) and not (concessions.special_apart or concessions.no_special)
    widest = widest_score(lang, hand_memory=efficiency, special=special if named else "")
    score_size = kit.floor if concessions.small_score else kit.big
    score_lines = len(kit.lines(widest, score_size, inner_w))
    score_h = score_lines * kit.line_height(score_size)
    special_h = 0
    if special and concessions.special_apart:
        special_h = len(kit.lines(special, kit.floor, inner_w)) * floor_line
    message_h = MESSAGE_LINES * floor_line
    tokens_h = max(row_h, int(kit.unit * 0.11))

    hand_h = 0
    hand_name_w = 0
    if hand_memory and not concessions.no_hand:
        flat = concessions.flat_hand
        hand_h = hand.flat_tile_height(kit) if flat else hand.tile_height(kit)
        slots_w = hand.row_width(kit, hand_size, flat=flat)
        if slots_w > inner_w and not force:
            return None  # the slots themselves do not fit: not this way
        hand_name_w = _name_column(kit, names, inner_w - slots_w)
        if hand_name_w <= 0:  # no room at the slots' left: the name on a line above them
            hand_h += floor_line
    least = kit.flat_card_height() if concessions.flat_fireworks else kit.card_height()
    # what the column holds besides the fireworks (and a tall panel's pile), with the
    # room between: the tokens, the last action and the score close together
    fixed = gap + (hand_h + gap if hand_h else 0) + tokens_h + gap + message_h + gap
    fixed += score_h + pad + (special_h + gap if special_h else 0)
    pile_least = 0
    if tall:  # the pile under the tokens: at least a line for each suit's row
        fixed += pad - gap + pad
        pile_w = inner_w - 2 * gap
        pile_least = piles.least_pile_height(kit, suits, pile_w, lang) + 2 * gap
    room = bar.top - top - fixed
    if room - pile_least < least and not force:
        return None
    # the fireworks: as high as three tenths of the panel (the rest stays above the
    # buttons); flat ones stay flat; on a tall panel the pile takes what is left
    most = kit.card_height() - 1 if concessions.flat_fireworks else int(kit.unit * 0.3)
    if tall:
        most = least
    fireworks_h = max(least, min(room - pile_least, most))
    fireworks = pygame.Rect(pad, top, inner_w, fireworks_h)
    y = fireworks.bottom + gap
    hand_box = None
    if hand_h:
        hand_box = pygame.Rect(pad, y, inner_w, hand_h)
        y = hand_box.bottom + gap
    tokens = pygame.Rect(pad, y, inner_w, tokens_h)
    y = tokens.bottom + gap
    pile = None
    if tall:  # the pile takes the room left, under the tokens
        y = tokens.bottom + pad
        pile = pygame.Rect(pad, y, inner_w, room - fireworks_h)
        y = pile.bottom + pad
    message = pygame.Rect(pad, y, inner_w, message_h)
    score = pygame.Rect(pad, message.bottom + gap, inner_w, score_h)
    special_line = None
    if special_h:
        special_line = pygame.Rect(pad, score.bottom + gap, inner_w, special_h)
    if not beside:  # the fuses and the draw pile at the right of the tokens
        fuses_w = int(tokens_h * 3.3)
        deck_w = int(tokens_h * 0.72) + pad + kit.width_of("50", kit.figure)
        deck = pygame.Rect(tokens.right - deck_w, tokens.top, deck_w, tokens_h)
        fuses = pygame.Rect(deck.left - 2 * pad - fuses_w, tokens.top, fuses_w, tokens_h)
        tokens = pygame.Rect(tokens.left, tokens.top, fuses.left - 2 * pad - tokens.left, tokens_h)
    if wide:  # the discard pile: the right-hand column, from under the turn to the buttons
        pile = pygame.Rect(main_w + pad, top, w - main_w - 2 * pad, bar.top - pad - top)
    return TableLayout(
        turn=turn,
        fuses=fuses,
        deck=deck,
        fireworks=fireworks,
        tokens=tokens,
        message=message,
        score=score,
        buttons=bar,
        pile=pile,
        hand=hand_box,
        hand_name_w=hand_name_w,
        page_turn=page_turn,
        beside=beside,
        short_names=concessions.short_names,
        flat_fireworks=concessions.flat_fireworks,
        flat_hand=concessions.flat_hand,
        efficiency=efficiency,
        special=named,
        special_line=special_line,
        score_size=score_size,
    )


def pile_body(kit: Kit, pile: pygame.Rect) -> pygame.Rect:
    """Where the discard pile is drawn inside its region (its panel's margin)."""
    return pile.inflate(-2 * kit.gap, -2 * kit.gap)


def name_labels(name: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """A player's name as the hand strip may say it, from the longest: whole, cut to the
    beginning no other name shares, its first three letters."""
    return (name, *short_names([name], names), name[:3])


def _name_column(kit: Kit, names: tuple[str, ...], room: int) -> int:
    """The width of the hand strip's name column: each player's longest label that fits
    ``room`` (less a gap); 0 when some player's shortest does not."""
    widest = 0
    for name in names:
        fitting = [
            kit.width_of(label, kit.floor)
            for label in name_labels(name, names)
            if kit.width_of(label, kit.floor) <= room - kit.pad
        ]
        if not fitting:
            return 0
        widest = max(widest, fitting[0])
    return widest
