"""The BG Stats link of a stored game: its log, its stored times and the table's location."""

from __future__ import annotations

from companion.core.bgstats import LOCATION_SETTING, PlayFacts, bgstats_link
from companion.storage import Storage
from engine.game import Game


def stored_location(storage: Storage) -> str:
    """Where the table plays, as stored (``""``: not said)."""
    value = storage.get_setting(LOCATION_SETTING, "")
    return value if isinstance(value, str) else ""


def stored_play_link(storage: Storage, game_id: int, game: Game, lang: str = "en") -> str:
    """The link that logs stored game ``game_id`` (``game``, over) in BG Stats."""
    stored = storage.load(game_id)
    facts = PlayFacts(game_id, stored.started_at, stored.finished_at, stored_location(storage))
    return bgstats_link(game, facts, lang)
