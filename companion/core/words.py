"""The lines a panel screen and a phone's page both say: whose turn, the score, a stored game.

Plain functions of the game (or a history row) and the language; the panel draws them,
the page for phones sends them, so each line is built in one place.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from companion.core import i18n
from companion.core.story_words import efficiency_text
from engine.cards import Color
from engine.game import Game

if TYPE_CHECKING:
    from companion.vocabulary.records import HistoryRow


def turn_text(lang: str, game: Game, *, short: bool = False) -> str:
    """Whose turn; in the final round, also who plays after, to the last.

    ``short`` names the players after by the shortest beginnings that tell them apart
    (a shorter wording where five long names would not fit).
    """
    order = game.final_round_order()
    return turn_words(lang, game.setup.names, game.position.current, order, short=short)


def turn_words(
    lang: str,
    names: tuple[str, ...],
    current: int,
    order: list[int] | None,
    *,
    short: bool = False,
) -> str:
    """Whose turn as :func:`turn_text` says it, from the seats alone: ``order`` is the
    final round's seats still to play (None outside it). The panel measures every line
    a set-up can show with it, before the game needs them.

    >>> turn_words("en", ("Ann", "Bo", "Cy"), 1, [1, 2, 0])
    'Final round: Bo to play, then Cy, Ann'
    """
    name = names[current]
    if not order:
        return i18n.tr(lang, "turn_of", name=name)
    if len(order) == 1:
        return i18n.tr(lang, "final_round_last", name=name)
    after = [names[seat] for seat in order[1:]]
    if short:
        after = short_names(after, names)
    return i18n.tr(lang, "final_round", name=name, order=", ".join(after))


def final_round_text(lang: str, game: Game) -> str:
    """The final round's line (empty outside it): the turn line says it then."""
    return turn_text(lang, game) if game.final_round_order() else ""


def short_names(names: list[str], everyone: tuple[str, ...]) -> list[str]:
    """Each name cut to the shortest beginning (3 letters at least) no other name shares.

    >>> short_names(["Dominique", "Bernadette"], ("Bernadette", "Bernard", "Dominique"))
    ['Dom.', 'Bernad.']
    """
    out = []
    for name in names:
        others = [other for other in everyone if other != name]
        for length in range(3, len(name)):
            if not any(other.startswith(name[:length]) for other in others):
                out.append(name[:length] + ".")
                break
        else:
            out.append(name)
    return out


def score_text(lang: str, game: Game) -> str:
    """``Score 15 · Max 22 · Pace 0`` (with hand memory ``· Eff. 1.25 · Needed 0.80``): each
    figure held to its word (no-break spaces), so a line that wraps never leaves a number
    alone."""
    efficiency = efficiency_text(lang, game) if game.setup.options.hand_memory else ""
    special = special_suit_text(lang, game)
    return score_words(lang, game.score, game.max_score, game.pace, efficiency, special)


def score_words(
    lang: str,
    score: int,
    max_score: int,
    pace: int | None,
    efficiency: str = "",
    special: str = "",
) -> str:
    """The score line of :func:`score_text` from its figures (``efficiency``: the hand
    memory's words, :func:`~companion.core.story_words.efficiency_text`; ``special``: what
    the multicolour cards stand for, :func:`special_suit_text`).

    >>> score_words("en", 15, 22, 0)
    'Score\xa015 · Max\xa022 · Pace\xa00'
    """
    parts = [
        i18n.tr(lang, "score", score=score),
        i18n.tr(lang, "max_score", score=max_score),
        i18n.tr(lang, "pace", pace=pace),
    ]
    parts += [efficiency] if efficiency else []
    line = " · ".join(part.replace(" ", "\u00a0") for part in parts)
    return f"{line} · {special}" if special else line


def special_suit_text(lang: str, game: Game) -> str:
    """What the multicolour cards stand for in a variant by name (``Multicolor = Pink``);
    empty without one (the printed books' multicolor is itself)."""
    if game.setup.options.variant is None:
        return ""
    for suit in game.setup.suits:
        if suit.color is Color.MULTICOLOR and suit.suit is not None:
            words = i18n.tr(lang, "special_suit", name=suit.suit.name)
            return words.replace(" = ", "\u00a0=\u00a0")  # never "Multicolor =" alone
    return ""


def token_count(hints: int, per_token: int = 1) -> str:
    """The hint tokens left in words: ``7``, or ``7½`` with a half token (Clue Starved
    counts in half tokens: ``per_token`` 2).

    >>> token_count(15, 2), token_count(1, 2), token_count(6)
    ('7½', '½', '6')
    """
    whole, half = divmod(hints, per_token)
    if not half:
        return str(whole)
    return f"{whole or ''}½"


def short_date(stamp: str | None) -> str:
    """``20/11 20:40``; what it can of a stamp it cannot read.

    >>> short_date("2026-11-20T20:40:00+00:00"), short_date(None)
    ('20/11 20:40', '?')
    """
    if not stamp:
        return "?"
    try:
        return datetime.fromisoformat(stamp).strftime("%d/%m %H:%M")
    except ValueError:
        return stamp[:16]


def game_lines(lang: str, row: HistoryRow) -> tuple[str, str]:
    """A stored game's two lines in the history: when, score and result; who and the variant."""
    when = short_date(row.finished_at or row.started_at)
    if row.damaged:  # its log no longer replays: a row that says so, nothing made up
        return f"{when}  ·  {i18n.tr(lang, 'history_damaged', game=row.id)}", ""
    if row.resumable:
        result = i18n.tr(lang, "history_unfinished")
    else:
        result = i18n.rating_title(lang, row.rating) if row.rating else i18n.tr(lang, "lost")
    first = f"{when}  ·  {row.score}/{row.max_score}  ·  {result}"  # 9/30: the variant's most
    second = f"{', '.join(row.names)}  ·  {i18n.variant_name(lang, row.options)}"
    return first, second
