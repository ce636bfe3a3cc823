"""The backup of the games and their return: ``export --all`` and ``import`` (issue 23).

A backup is a folder of ``hanabi-log/1`` files, one game each (the format holds one game
per file, GAME-LOG.md), named by number and start date: ``game-00042-2026-11-20.jsonl``.
Each file begins with two comment lines, which every reader of the format skips: one for
people, and one that ``import`` reads back, so that a restored game keeps its number, its
dates and whether it was the game in play::

    # hanabi-companion game 42, finished (over), started 2026-11-20T20:10:00Z
    # hanabi-companion: {"game": 42, "status": "over", "started_at": "…", "finished_at": "…"}

A game damaged in the database is written as far as it replays, flagged in both comments
(``"damaged"``: why); a game of which not even the header reads back has no file, and
:class:`ExportSummary` names it.

``import`` referees every file before it writes anything: one refused file (named with
its line, as ``replay`` does) and nothing is imported; else every game goes in in one
transaction (:meth:`Storage.import_games`), and a game already stored (the same log) is
not stored again.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path
from typing import Any, Final

from msgspec import Struct, field

from companion.storage import (
    END_MISSING,
    DamagedGameError,
    Storage,
    StorageError,
    end_damaged,
    end_line,
    end_problem,
)
from companion.vocabulary.records import GameToImport, ImportedGame
from engine.log import LogFormatError, LogRuleError, replay_revealed
from hardware.os_words import reason_in_words

__all__ = [
    "METADATA_PREFIX",
    "BackupError",
    "ExportSummary",
    "ImportSummary",
    "Refusal",
    "export_all",
    "games",
    "import_logs",
    "log_file_name",
    "read_logs",
]

METADATA_PREFIX: Final = "# hanabi-companion: "
"""The comment line of an exported file that ``import`` reads (a JSON object follows)."""

LOG_SUFFIX: Final = ".jsonl"
"""The name ending of the logs ``export --all`` writes and ``import FOLDER`` reads."""

EXIT_RULE_BROKEN: Final = 1
EXIT_INVALID_LOG: Final = 2

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_STATUS_WORDS: Final = {
    "over": "finished",
    "playing": "unfinished, in play",
    "abandoned": "unfinished",
}


class BackupError(StorageError):
    """The error of a backup folder that cannot be made or written (a full or read-only
    stick, a file in the way): one sentence naming it."""


class ExportSummary(Struct):
    """The summary of what ``export --all`` wrote."""

    folder: Path
    files: list[Path] = field(default_factory=list)
    #: Games written as far as they replay: number, why, actions kept.
    damaged: list[tuple[int, str, int]] = field(default_factory=list)
    #: Games not written at all (not even their header reads back): number, why.
    unreadable: list[tuple[int, str]] = field(default_factory=list)


class Refusal(Struct, frozen=True):
    """A file ``import`` refused: where, why, and the exit code ``replay`` would give it."""

    path: Path
    line: int | None
    """The line at fault; None for the file as a whole (missing, unreadable, a folder)."""
    reason: str
    code: int = EXIT_INVALID_LOG

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.reason}"


class ImportSummary(Struct):
    """The summary of what ``import`` did: per file read, the game's number here and
    whether it is new."""

    results: list[tuple[Path, ImportedGame]]
    #: Files that were not whole (a game damaged when exported, a file cut or changed,
    #: taken with --partial): each with the sentence that says what came in.
    partial: list[tuple[Path, str]]

    @property
    def imported(self) -> int:
        return sum(1 for _, result in self.results if result.new)

    @property
    def already_stored(self) -> int:
        return len(self.results) - self.imported


# -- export --all ----------------------------------------------------------------------


def games(count: int) -> str:
    """``1 game``, ``7 games``.

    >>> games(1), games(0)
    ('1 game', '0 games')
    """
    return f"{count} game{'' if count == 1 else 's'}"


def log_file_name(game_id: int, started_at: str) -> str:
    """``game-00042-2026-11-20.jsonl``: by number (names sort in play order), then the date
    the game started (``undated`` if the stamp has none).

    >>> log_file_name(42, "2026-11-20T20:10:00Z"), log_file_name(7, "")
    ('game-00042-2026-11-20.jsonl', 'game-00007-undated.jsonl')
    """
    match = _DATE.match(started_at)
    return f"game-{game_id:05d}-{match.group() if match else 'undated'}{LOG_SUFFIX}"


def export_all(storage: Storage, folder: Path) -> ExportSummary:
    """Write every stored game into ``folder`` (created if needed), one log file each.

    A file of the same name is replaced (a second backup into the same folder brings it up
    to date); other files are left alone. Each file is written whole or not at all (a
    temporary file renamed), and everything is flushed to the medium once, at the end
    (a flush per file costs a USB stick minutes at 10,000 games): a stick pulled out after
    this returns holds every file. Raises :class:`BackupError`.
    """
    folder = Path(folder)
    summary = ExportSummary(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise BackupError(f"{folder} is a file, not a folder: nothing was exported") from None
    except OSError as error:
        raise BackupError(f"Could not create the folder {folder}: {_why(error)}") from error
    for entry in storage.catalogue():
        damaged = None
        try:
            text = storage.export(entry.id)
        except DamagedGameError as error:
            text, kept = storage.replayable_part(entry.id)
            damaged = str(error)
            if not text:
                summary.unreadable.append((entry.id, damaged))
                continue
            summary.damaged.append((entry.id, damaged, kept))
        metadata: dict[str, Any] = {
            "game": entry.id,
            "status": entry.status,
            "started_at": entry.started_at,
            "finished_at": entry.finished_at,
        }
        words = _STATUS_WORDS.get(entry.status, entry.status)
        about = f"# hanabi-companion game {entry.id}, {words}, started {entry.started_at}"
        if damaged is not None:
            metadata["damaged"] = damaged
            about = (
                f"# hanabi-companion game {entry.id}, DAMAGED in the database ({damaged});"
                " only the actions that replay follow"
            )
        head = about + "\n" + METADATA_PREFIX + json.dumps(metadata, ensure_ascii=False) + "\n"
        path = folder / log_file_name(entry.id, entry.started_at)
        _write_whole(path, head + text + end_line(entry.id, text, damaged=damaged is not None))
        summary.files.append(path)
    _sync_folder(folder)
    return summary


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed over it, flushed."""
    temporary = path.with_name(f".{path.name}.part")
    try:
        with temporary.open("w", encoding="utf-8", newline="\n") as file:
            file.write(text)
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise BackupError(f"Could not write {path}: {_why(error)}") from error


def _sync_folder(folder: Path) -> None:
    """Put the files written and their names on the medium (one flush for them all)."""
    os.sync()
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _why(error: OSError) -> str:
    """An OS error in words, without its number (``No space left on device``)."""
    return error.strerror or type(error).__name__


# -- import ----------------------------------------------------------------------------


def read_logs(
    paths: list[Path], *, partial: bool = False
) -> tuple[list[tuple[Path, GameToImport, str | None]], list[Refusal]]:
    """Read and referee the logs (a folder stands for its ``*.jsonl`` files, by name).

    Returns the games, each with its file and why it is not whole (None if it is), and
    the refusals: a file that cannot be read, is not a valid log (exit code 2), breaks a
    rule (1), or (unless ``partial``) whose end line is missing or does not match its lines,
    each with the line at fault. With ``partial``, such a file brings what replays of it.
    Nothing is written.
    """
    games: list[tuple[Path, GameToImport, str | None]] = []
    refusals: list[Refusal] = []
    for path in _expand(paths, refusals):
        read = _read_one(path, partial)
        if isinstance(read, Refusal):
            refusals.append(read)
        else:
            games.append((path, *read))
    return games, refusals


def _expand(paths: list[Path], refusals: list[Refusal]) -> list[Path]:
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.name.endswith(LOG_SUFFIX))
            if not found:
                refusals.append(Refusal(path, None, f"the folder holds no {LOG_SUFFIX} log"))
            files.extend(found)
        else:
            files.append(path)
    return files


def _read_one(path: Path, partial: bool) -> tuple[GameToImport, str | None] | Refusal:
    try:
        # utf-8-sig: a byte-order mark, as some editors save, is not part of the log
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        return Refusal(path, 1, "the file is not UTF-8 text")
    except OSError as error:  # the words `replay` says too: one sentence everywhere
        return Refusal(path, None, f"cannot read the file: {reason_in_words(error)}")
    metadata = _metadata(path, text)
    if isinstance(metadata, Refusal):
        return metadata
    damaged: str | None = None
    if "damaged" in metadata or end_damaged(text):
        damaged = "the game was damaged when exported: the part that replays came in"
    problem = end_problem(text)
    not_whole = Refusal(
        path,
        text.count("\n", 0, len(text.rstrip())) + 1,
        f"the file is not a whole export: {problem} (import --partial brings in what it holds)",
        EXIT_RULE_BROKEN,
    )
    if problem is not None and partial:
        damaged = f"the file is not a whole export ({problem}): what replays of it came in"
    try:
        game, reveals = replay_revealed(text)
    except (LogFormatError, LogRuleError) as error:
        code = EXIT_RULE_BROKEN if isinstance(error, LogRuleError) else EXIT_INVALID_LOG
        refusal = Refusal(path, error.line, error.reason, code)
        if problem is None or (problem == END_MISSING and not partial) or error.line <= 1:
            return refusal  # not an export of ours, or its header is at fault
        if not partial:
            return not_whole  # an export cut or changed: that is the news
        try:  # --partial: the lines before the first that breaks
            game, reveals = replay_revealed("\n".join(text.split("\n")[: error.line - 1]) + "\n")
        except (LogFormatError, LogRuleError):
            return refusal
    if problem is not None and not partial:
        return not_whole
    number = metadata.get("game")
    item = GameToImport.of(
        game,
        started_at=metadata.get("started_at") or None,
        finished_at=metadata.get("finished_at"),
        number=number,
        playing=metadata.get("status") == "playing" and problem is None,
        reveals=reveals,
    )
    return item, damaged


def _metadata(path: Path, text: str) -> dict[str, Any] | Refusal:
    """The object of the ``# hanabi-companion:`` comment before the header, or {} if none."""
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            return {}  # the header: comments after it are the log's own
        if not line.startswith(METADATA_PREFIX.strip()):
            continue
        try:
            found = json.loads(line[len(METADATA_PREFIX.strip()) :])
        except ValueError:
            found = None
        if not isinstance(found, dict):
            return Refusal(path, number, "the hanabi-companion comment is not a JSON object")
        problem = _metadata_problem(found)
        if problem:
            return Refusal(path, number, f"the hanabi-companion comment: {problem}")
        return found
    return {}


def _metadata_problem(found: dict[str, Any]) -> str | None:
    number = found.get("game")
    if number is not None and (type(number) is not int or number < 1):
        return '"game" must be a game number (1 or more)'
    for key in ("status", "started_at", "damaged"):
        if key in found and not isinstance(found[key], str):
            return f'"{key}" must be a string'
    if found.get("finished_at") is not None and not isinstance(found["finished_at"], str):
        return '"finished_at" must be a string or null'
    return None


def import_logs(
    storage: Storage, games: list[tuple[Path, GameToImport, str | None]]
) -> ImportSummary:
    """Store the refereed games (:func:`read_logs`) in one transaction."""
    results = storage.import_games([item for _, item, _ in games])
    return ImportSummary(
        [(path, result) for (path, _, _), result in zip(games, results, strict=True)],
        [(path, why) for path, _, why in games if why is not None],
    )
