"""A finished game as BG Stats takes a play: the fields of its ``createPlay`` link.

BG Stats (the board-game play logger) creates a play from
``https://app.bgstatsapp.com/createPlay.html?data=<URL-encoded JSON>``; the panel and the
phone show that link as a QR code, ``export --bgstats`` prints it. Hanabi has no winner:
every player gets the team's result, ``winner`` true only for a perfect score
(docs/decisions/0113-bgstats-play-and-winner.md).

>>> from engine import GameSetup, Play
>>> from engine.cards import Card
>>> game = Game.replay(GameSetup(players=2, names=("Ann", "Bo")), [])
>>> facts = PlayFacts(7, "2026-03-01T18:00:00Z", "2026-03-01T18:41:20Z", "Kitchen")
>>> play_date("2026-03-01T18:00:00Z"), duration_minutes(facts)
('2026-03-01 18:00:00', 41)
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any, Final
from urllib.parse import quote

from msgspec import Struct

from companion.core import i18n
from engine.game import Game
from engine.log import action_to_dict, dump_line, setup_to_dict
from engine.outcome import Outcome

#: Where BG Stats takes a play from a link (its ``data`` is the play's JSON, URL-encoded).
CREATE_PLAY: Final = "https://app.bgstatsapp.com/createPlay.html?data="
#: Hanabi on BoardGameGeek: BG Stats files the play under it.
HANABI_BGG_ID: Final = 98778
#: Who made the play, for BG Stats (with ``sourcePlayId``, how it tells a play already in).
SOURCE_NAME: Final = "Hanabi Companion"
SOURCE_GAME_ID: Final = "hanabi"
#: The storage setting that names where the table plays (BG Stats' ``location``).
LOCATION_SETTING: Final = "location"
#: The keys of a play BG Stats needs (a play without one is refused or crashes a client).
REQUIRED_KEYS: Final = ("sourceName", "sourcePlayId", "playDate", "game", "players")
REQUIRED_GAME_KEYS: Final = ("name", "bggId", "sourceGameId", "highestWins", "noPoints")
REQUIRED_PLAYER_KEYS: Final = ("name", "sourcePlayerId", "score", "winner", "startPlayer")

_PLAY_DATE: Final = "%Y-%m-%d %H:%M:%S"  # BG Stats' playDate (UTC)


class PlayFacts(Struct, frozen=True):
    """What storage knows of a game beyond its log: its number, when it started and
    ended (storage's UTC stamps, ``2026-03-01T18:00:00Z``), where the table plays."""

    game_id: int
    started_at: str
    finished_at: str | None
    location: str = ""


def _moment(stamp: str) -> datetime:
    """A stored stamp (or a log header's ISO 8601 ``started_at``) as a time in UTC."""
    moment = datetime.fromisoformat(stamp)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def play_date(stamp: str) -> str:
    """A stored time stamp as BG Stats' ``playDate``: UTC, ``yyyy-MM-dd HH:mm:ss``."""
    return _moment(stamp).strftime(_PLAY_DATE)


def duration_minutes(facts: PlayFacts) -> int:
    """Minutes from the start to the end, rounded (0 when the end is not known)."""
    if facts.finished_at is None:
        return 0
    seconds = (_moment(facts.finished_at) - _moment(facts.started_at)).total_seconds()
    return max(0, round(seconds / 60))


def play_id(game: Game, facts: PlayFacts) -> str:
    """The play's id for BG Stats: the same game (its start and its log, as an export and
    an import keep them) gives the same id, so a play scanned twice is logged once."""
    lines = [dump_line(setup_to_dict(game.setup))]
    lines += [dump_line(action_to_dict(action)) for action in game.actions]
    digest = hashlib.blake2b("\n".join([facts.started_at, *lines]).encode(), digest_size=8)
    return f"{facts.game_id}-{digest.hexdigest()}"


def result_words(lang: str, game: Game) -> str:
    """The score and the rating ("21/25 · Amazing"), or how a lost game was lost."""
    rating, reason = game.rating, game.end_reason
    if rating is not None:
        said = i18n.rating_title(lang, rating)
    else:
        assert reason is not None
        said = i18n.end_reason_text(lang, reason, game.setup.names[game.position.current])
    return f"{game.score}/{game.setup.max_score} · {said}"


def bgstats_play(game: Game, facts: PlayFacts, lang: str = "en") -> dict[str, Any]:
    """The play as BG Stats' JSON: every player has the team's score and ``winner``."""
    if not game.is_over:
        raise ValueError("a game not over yet is no play to log")
    setup = game.setup
    won = game.outcome is Outcome.WON
    score = game.score
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(game, facts),
        "playDate": play_date(facts.started_at),
        "durationMin": duration_minutes(facts),
        "location": facts.location,
        "board": i18n.variant_name(lang, setup.options),
        "comments": result_words(lang, game),
        "game": {
            "name": "Hanabi",
            "bggId": HANABI_BGG_ID,
            "sourceGameId": SOURCE_GAME_ID,
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": name,
                "sourcePlayerId": name,
                "score": score,
                "winner": won,
                "startPlayer": seat == setup.first_player,
            }
            for seat, name in enumerate(setup.names)
        ],
    }
    return play


def bgstats_link(game: Game, facts: PlayFacts, lang: str = "en") -> str:
    """The ``createPlay`` link of the finished game: its JSON compact, URL-encoded but for
    ``:`` and ``,``, which a query may hold as they are (a shorter link, a smaller code)."""
    text = json.dumps(bgstats_play(game, facts, lang), ensure_ascii=False, separators=(",", ":"))
    return CREATE_PLAY + quote(text, safe=":,")
