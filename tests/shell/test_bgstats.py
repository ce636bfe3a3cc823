"""Issue 34: a finished game as the link that logs it in BG Stats (``export --bgstats``).

The link's JSON is decoded and every field checked, on real data directories through the
real command line; the location is the stored setting the ``location`` command writes.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.core.bgstats import (
    CREATE_PLAY,
    REQUIRED_GAME_KEYS,
    REQUIRED_KEYS,
    REQUIRED_PLAYER_KEYS,
    PlayFacts,
    bgstats_link,
    bgstats_play,
)
from companion.shell.cli import main
from companion.storage import Storage
from engine.game import Game
from engine.log import replay_log

LOGS = Path(__file__).resolve().parents[1] / "logs"
START = datetime(2026, 3, 1, 18, 0, 0, tzinfo=UTC)


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    out, err = capsys.readouterr()
    return code, out, err


def decoded(link: str) -> dict[str, object]:
    """The play a link carries, as BG Stats reads it: the ``data`` query, URL-decoded."""
    assert link.startswith(CREATE_PLAY)
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "https",
        "app.bgstatsapp.com",
        "/createPlay.html",
    )
    (data,) = parse_qs(parts.query, strict_parsing=True)["data"]
    play = json.loads(data)
    assert isinstance(play, dict)
    return play


def store(data: Path, game: Game, minutes: int) -> int:
    """Store ``game`` action by action with a clock that runs ``minutes`` from start to end."""
    clock = [START]
    with Storage.open(data, now=lambda: clock[0]) as storage:
        game_id = storage.new_game(game.setup)
        for action in game.actions:
            storage.append_action(game_id, action)
        clock[0] = START + timedelta(minutes=minutes, seconds=20)
        storage.finish(game_id, game)
    return game_id


def test_the_link_of_a_lost_game_has_every_field(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    game = replay_log((LOGS / "storm.jsonl").read_text())
    game_id = store(data, game, 41)
    assert run(capsys, "location", "--data-dir", str(data), "  The   kitchen  ") == (0, "", "")
    assert run(capsys, "location", "--data-dir", str(data)) == (0, "The kitchen\n", "")

    code, out, err = run(capsys, "export", "--bgstats", "--data-dir", str(data))
    assert (code, err) == (0, "")
    play = decoded(out.strip())
    assert play == {
        "sourceName": "Hanabi Companion",
        "sourcePlayId": play["sourcePlayId"],
        "playDate": "2026-03-01 18:00:00",
        "durationMin": 41,
        "location": "The kitchen",
        "board": "Base game",
        "comments": "0/25 · Lost: the third fuse burnt",
        "game": {
            "name": "Hanabi",
            "bggId": 98778,
            "sourceGameId": "hanabi",
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": name,
                "sourcePlayerId": name,
                "score": 0,
                "winner": False,
                "startPlayer": i == 0,
            }
            for i, name in enumerate(("Ann", "Bo", "Cy"))
        ],
    }
    assert str(play["sourcePlayId"]).startswith(f"{game_id}-")
    # the same game asked for by number gives the same link (the id is the game's own)
    assert run(capsys, "export", "--bgstats", "--game", str(game_id), "--data-dir", str(data))[
        1
    ] == (out)


def test_a_perfect_game_makes_every_player_a_winner(tmp_path: Path) -> None:
    game = replay_log((LOGS / "perfect_six_suits.jsonl").read_text())
    assert game.score == game.setup.max_score == 30
    facts = PlayFacts(3, "2026-03-01T18:00:00Z", "2026-03-01T19:12:31Z", "")
    play = decoded(bgstats_link(game, facts))
    players = play["players"]
    assert isinstance(players, list) and len(players) == 4
    assert {p["winner"] for p in players} == {True}
    assert {p["score"] for p in players} == {30}
    assert [p["startPlayer"] for p in players] == [True, False, False, False]
    assert play["durationMin"] == 73
    assert play["board"] == "Short multicolor"
    assert play["comments"] == "30/30 · Divine"
    # another language words the board and the comments, never the keys
    german = bgstats_play(game, facts, "de")
    assert german.keys() == play.keys() and german["board"] != play["board"]


def test_every_key_bgstats_needs_is_there_for_every_player(tmp_path: Path) -> None:
    game = replay_log((LOGS / "final_round.jsonl").read_text())
    play = decoded(bgstats_link(game, PlayFacts(1, "2026-03-01T18:00:00Z", None)))
    assert all(key in play for key in REQUIRED_KEYS)
    assert all(key in play["game"] for key in REQUIRED_GAME_KEYS)  # type: ignore[operator]
    players = play["players"]
    assert isinstance(players, list) and players
    for player in players:
        assert all(key in player for key in REQUIRED_PLAYER_KEYS)
        assert isinstance(player["winner"], bool)
    assert len({p["winner"] for p in players}) == 1  # one team, one result
    assert play["durationMin"] == 0  # the end not known: no duration made up


def test_a_game_not_over_is_refused_in_one_sentence(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    game = replay_log((LOGS / "storm.jsonl").read_text())
    with Storage.open(data) as storage:
        game_id = storage.new_game(game.setup)
        storage.append_action(game_id, game.actions[0])
    code, out, err = run(capsys, "export", "--bgstats", "--data-dir", str(data))
    assert (code, out) == (1, "")
    assert (
        err
        == f"hanabi-companion: game {game_id} is not over: only a finished game is a play to log\n"
    )
    code, out, err = run(capsys, "export", "--bgstats", "--all", str(tmp_path / "x"))
    assert code == 2 and "not with --all" in err


def test_a_location_too_long_changes_nothing(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    assert run(capsys, "location", "--data-dir", str(data), "Home")[0] == 0
    code, _, err = run(capsys, "location", "--data-dir", str(data), "x" * 61)
    assert code == 2 and err.count("\n") == 1
    assert run(capsys, "location", "--data-dir", str(data)) == (0, "Home\n", "")
