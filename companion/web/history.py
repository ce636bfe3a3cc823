"""The games' history for the page for phones: every stored game, one game's actions
in words, its log to download, and the figures the charts draw.

Read through the app's read-only view of the database (:meth:`Storage.reader`): a
connection of its own, so a phone reading the history never holds the table's writes,
opened once and closed with the app's, never a second handle on the file (closing one
would drop the process's locks, and another program could then delete the live journal).
Every text is the companion's own (:mod:`companion.core.i18n`), in the language asked.
"""

from __future__ import annotations

from typing import Any

from companion.core import i18n
from companion.core.stats_words import figures_words
from companion.core.words import game_lines
from companion.storage import DamagedGameError, Storage, StorageError, end_line
from companion.vocabulary.records import HistoryRow

#: The page's history labels, by the key the page reads and the i18n key.
HISTORY_LABELS = {
    "history": "history",
    "unfinished": "history_unfinished",
    "stats": "stats",
    "download": "web_download_log",
    "back": "web_back",
    "scores_over_time": "web_scores_over_time",
    "score_distribution": "web_score_distribution",
    "games": "web_games",
    "score": "web_score",
    "no_charts": "web_no_charts",
    "players": "stats_players",
}


class HistorySource:
    """The history as the web thread reads it (thread-safe: Storage serialises calls).

    ``storage`` is the app's own handle; only its :meth:`Storage.reader` is used.
    """

    def __init__(self, storage: Storage) -> None:
        self._owner = storage

    def _storage(self) -> Storage:
        return self._owner.reader()

    def history(self, lang: str) -> dict[str, Any]:
        """Every game, newest first (resumable ones marked), best and average per table
        and variant, and the series the charts draw."""
        try:
            storage = self._storage()
            rows = storage.history()
            stats = storage.stats()
            players = storage.player_stats()
        except StorageError:
            rows, stats, players = [], [], []
        return {
            "labels": {name: i18n.tr(lang, key) for name, key in HISTORY_LABELS.items()},
            "games": [_game_row(lang, row) for row in rows],
            "stats": [
                {
                    "group": f"{stat.players}P · {i18n.variant_name(lang, stat.options)}",
                    "games": stat.games,
                    "best": stat.best,
                    "average": round(stat.average, 1),
                    "figures": figures_words(lang, stat),
                }
                for stat in stats
            ],
            "players": [
                {"name": row.name, "games": row.games, "figures": figures_words(lang, row)}
                for row in players
            ],
            "series": _series(lang, rows),
        }

    def game(self, game_id: int, lang: str) -> dict[str, Any] | None:
        """One game: its lines as the history says them and every action in words;
        None when there is no such game or it no longer reads back."""
        try:
            stored = self._storage().load(game_id)
        except StorageError:  # unknown, damaged, unreadable
            return None
        game = stored.replay()
        names = stored.setup.names
        return {
            "id": game_id,
            "names": list(names),
            "variant": i18n.variant_name(lang, stored.setup.options),
            "score": game.score,
            "max": stored.setup.max_score,
            "actions": [i18n.describe_event(lang, event, names) for event in game.events],
        }

    def log(self, game_id: int) -> str | None:
        """The game's ``hanabi-log/1`` text (as ``export``); a damaged game's part that
        replays; None when there is no such game."""
        try:
            storage = self._storage()
            try:
                text = storage.export(game_id)
                return text + end_line(game_id, text)
            except DamagedGameError:
                text, _ = storage.replayable_part(game_id)
                return text + end_line(game_id, text, damaged=True) if text else None
        except StorageError:
            return None


def _game_row(lang: str, row: HistoryRow) -> dict[str, Any]:
    first, second = game_lines(lang, row)
    return {
        "id": row.id,
        "first": first,
        "second": second,
        "resumable": row.resumable,
        "damaged": row.damaged is not None,
    }


def _series(lang: str, rows: list[HistoryRow]) -> list[dict[str, Any]]:
    """Per table size and variant (the most played first): the finished games' scores in
    the order played, and how many games ended on each score."""
    groups: dict[tuple[int, str], dict[str, Any]] = {}
    for row in reversed(rows):  # oldest first
        if row.damaged or row.resumable:
            continue
        key = (row.players, row.options.code())
        group = groups.setdefault(
            key,
            {
                "group": f"{row.players}P · {i18n.variant_name(lang, row.options)}",
                "max": row.max_score,
                "scores": [],
            },
        )
        group["scores"].append(row.score)
    series = sorted(groups.values(), key=lambda group: -len(group["scores"]))
    for group in series:
        counts = [0] * (group["max"] + 1)
        for score in group["scores"]:
            counts[min(score, group["max"])] += 1
        group["distribution"] = counts
    return series
