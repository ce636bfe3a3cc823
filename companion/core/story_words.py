"""The story of a game in the table's words: why the highest score dropped, and the
efficiency figures of the score line (the numbers: :mod:`engine.story`)."""

from __future__ import annotations

from companion.core import i18n
from engine.game import EventKind, Game
from engine.story import Drop, efficiency, future_efficiency


def drop_words(lang: str, drop: Drop, game: Game) -> str:
    """``turn 31: Bo discarded the last blue 4: max 24``: why the highest score dropped."""
    names = game.setup.names
    name = names[drop.player]
    turn = drop.turn
    if drop.end:
        reason = game.end_reason
        assert reason is not None
        why = i18n.end_reason_text(lang, reason, name)
        return i18n.tr(lang, "story_end", turn=turn, why=why, score=drop.after)
    if drop.card is not None and drop.card in drop.lost:
        key = "story_misplayed_last" if drop.kind is EventKind.MISPLAY else "story_discarded_last"
        card = i18n.card_name(lang, drop.card)
        return i18n.tr(lang, key, turn=turn, name=name, card=card, max=drop.after)
    if drop.lost:  # a card gone took the cards above it with it
        card = i18n.card_name(lang, drop.lost[0])
        return i18n.tr(lang, "story_lost", turn=turn, card=card, max=drop.after)
    return i18n.tr(lang, "story_turns", turn=turn, name=name, max=drop.after)


def efficiency_text(lang: str, game: Game) -> str:
    """``Eff. 1.25 · Needed 0.80`` for the score line (hand memory only; "" without)."""
    done, needed = efficiency(game), future_efficiency(game)
    if not game.setup.options.hand_memory:
        return ""
    parts = [i18n.tr(lang, "efficiency", value="–" if done is None else f"{done:.2f}")]
    if needed is not None:
        parts.append(i18n.tr(lang, "efficiency_needed", value=f"{needed:.2f}"))
    return " · ".join(part.replace(" ", "\u00a0") for part in parts)
