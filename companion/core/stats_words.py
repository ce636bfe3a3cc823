"""The figures across games in the table's words: a set-up's or a player's line."""

from __future__ import annotations

from companion.core import i18n
from companion.vocabulary.records import PlayerStatsRow, StatsRow


def share(part: int, whole: int) -> str:
    """``17%``: a share of the games, rounded to a whole per cent."""
    return f"{round(100 * part / whole)}%" if whole else "–"


def setup_label(lang: str, row: StatsRow) -> str:
    """``3P · Base game``: the set-up a line of figures is about."""
    return f"{row.players}P · {i18n.variant_name(lang, row.options)}"


def figures_text(lang: str, label: str, row: StatsRow | PlayerStatsRow) -> str:
    """``3P · Base game: 25 / 19.5 (12) · perfect 17% · struck out 8% · Eff. 1.42``."""
    return f"{label}: {figures_words(lang, row)}"


def figures_short(label: str, row: StatsRow | PlayerStatsRow) -> str:
    """``3P · Base game: 25 / 19.5 (12) · 17% · 8% · 1.42``: the panel's line, its columns
    named once above the lines (the ``stats_columns`` heading)."""
    efficiency = "–" if row.efficiency is None else f"{row.efficiency:.2f}"
    return (
        f"{label}: {row.best} / {row.average:.1f} ({row.games}) · {share(row.perfect, row.games)}"
        f" · {share(row.strikeouts, row.games)} · {efficiency}"
    )


def figures_words(lang: str, row: StatsRow | PlayerStatsRow) -> str:
    """``25 / 19.5 (12) · perfect 17% · struck out 8% · Eff. 1.42``: best / average (games)."""
    parts = [
        f"{row.best} / {row.average:.1f} ({row.games})",
        i18n.tr(lang, "stats_perfect", share=share(row.perfect, row.games)),
        i18n.tr(lang, "stats_struck", share=share(row.strikeouts, row.games)),
    ]
    if row.efficiency is not None:
        parts.append(i18n.tr(lang, "efficiency", value=f"{row.efficiency:.2f}"))
    return " · ".join(parts)
