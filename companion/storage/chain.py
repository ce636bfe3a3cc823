"""The link chain of a game's lines (schema 3), which makes an edited or missing row evident.

Each action row keeps a 16-byte BLAKE2b of the previous link and its line, and the game's
row keeps the count and the last link, so an edited, moved or missing row shows when the
game is read back. The first link hashes the game's id and its header line. Every game row
is written through :func:`_start_chain` and :func:`_append_lines` (an import too), so every
game can be checked.
"""

from __future__ import annotations

import sqlite3

try:
    # The BLAKE2b that hashlib itself hands out (it never takes OpenSSL's for BLAKE2), without
    # hashlib's start: loading OpenSSL and trying each of its digests, before the first frame
    # (docs/decisions/0059: OpenSSL, megabytes and a tenth of the start, kept out of the
    # first frame; a tuning that stays to hold tests/shell/test_start_imports.py's guard).
    from _blake2 import blake2b
except ImportError:  # an interpreter built without its own BLAKE2
    from hashlib import blake2b

from companion.storage.errors import DamagedGameError, UnknownGameError


def _chain_start(game_id: int, header: bytes) -> bytes:
    """The link a game's chain starts from: its id and its header line (so a row moved to
    another game, or a changed header, breaks the chain)."""
    return blake2b(b"%d\n%s" % (game_id, header), digest_size=16).digest()


def _chain_next(link: bytes, line: bytes) -> bytes:
    """The link of an action: the previous link and the action's line, hashed."""
    return blake2b(link + line, digest_size=16).digest()


def _damaged(game_id: int, what: str) -> DamagedGameError:
    return DamagedGameError(f"Stored game {game_id} is damaged: {what}", game_id)


def _start_chain(db: sqlite3.Connection, game_id: int, header: str) -> None:
    """A new game row's count (0) and first link. Every game row is written through here
    and :func:`_append_lines` (an import too), so every game can be checked."""
    db.execute(
        "UPDATE games SET actions_count = 0, chain = ? WHERE id = ?",
        (_chain_start(game_id, header.encode()), game_id),
    )


def _append_lines(db: sqlite3.Connection, game_id: int, lines: list[str]) -> None:
    """Add action lines after the game's last one, each with its link, and keep the game's
    count and last link (in the caller's transaction)."""
    count, link = _chain_head(db, game_id)
    rows = []
    for line in lines:
        count += 1
        link = _chain_next(link, line.encode())
        rows.append((game_id, count, line, link))
    db.executemany("INSERT INTO actions (game_id, seq, line, chain) VALUES (?, ?, ?, ?)", rows)
    db.execute("UPDATE games SET actions_count = ?, chain = ? WHERE id = ?", (count, link, game_id))


def _drop_last_line(db: sqlite3.Connection, game_id: int, last: int) -> None:
    """Delete the game's last action row (number ``last``) and step its count and last link
    back to the row before (in the caller's transaction)."""
    db.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?", (game_id, last))
    before = db.execute(
        "SELECT chain FROM actions WHERE game_id = ? AND seq = ?", (game_id, last - 1)
    ).fetchone()
    if last == 1:
        (header,) = db.execute(
            "SELECT CAST(header AS BLOB) FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        link = _chain_start(game_id, bytes(header or b""))
    elif before is None or not isinstance(before[0], bytes):
        raise _damaged(game_id, f"action {last - 1} is missing")
    else:
        link = before[0]
    db.execute(
        "UPDATE games SET actions_count = ?, chain = ? WHERE id = ?",
        (last - 1, link, game_id),
    )


def _chain_head(db: sqlite3.Connection, game_id: int) -> tuple[int, bytes]:
    """How many actions the game holds as its row says, and its last link."""
    row = db.execute("SELECT actions_count, chain FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise UnknownGameError(f"There is no stored game {game_id}")
    count, head = row
    if not isinstance(count, int) or count < 0 or not isinstance(head, bytes):
        raise _damaged(game_id, "its count of actions or its digest is not one we write")
    return count, head


def _check_chain(
    game_id: int,
    header: bytes | None,
    rows: list[tuple[bytes | None, object]],
    count: object,
    head: object,
) -> None:
    """:class:`DamagedGameError` unless the rows are the game's saved actions, all of them:
    each row's link is the hash of the previous link and its line, the game's row keeps the
    count and the last link (a deleted last row, or a changed line or header, shows)."""
    link = _chain_start(game_id, bytes(header or b""))
    for number, (line, stored) in enumerate(rows, start=1):
        link = _chain_next(link, line or b"")
        if stored != link:
            where = "its header or action 1" if number == 1 else f"action {number}"
            raise _damaged(game_id, f"{where} was changed after it was saved")
    if not isinstance(count, int) or not isinstance(head, bytes):
        raise _damaged(game_id, "its count of actions or its digest is not one we write")
    if len(rows) < count:
        raise _damaged(game_id, f"its last {count - len(rows)} saved action(s) are missing")
    if len(rows) > count or head != link:
        raise _damaged(game_id, "its actions differ from those saved")
