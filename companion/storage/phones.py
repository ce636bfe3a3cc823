"""The answers given to phones' requests, kept so that a retry is answered the same.

They are kept by the phone and the request's id (:func:`answer_key`): a request sent
again is recorded once (issue 22), and a phone reusing another's id is not given the
other's answer (issue 37).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from typing import Any, Final

from companion.storage.files import _STAMP
from companion.vocabulary.phone import PHONE_NAME_LENGTH, PairedPhone, PhoneReceipt

PHONE_ANSWERS_KEPT: Final = timedelta(days=1)
"""How long the answer to a phone's request is kept for a retry of it."""


def answer_key(phone_id: int, request_id: str) -> str:
    """Where a phone's answer is kept: the phone, then the request's id (which has no
    colon), so that two phones' ids never meet.

    >>> answer_key(3, "abc")
    '3:abc'
    """
    return f"{phone_id}:{request_id}"


def _keep_receipt(db: sqlite3.Connection, receipt: PhoneReceipt, now: datetime) -> None:
    """The answer to a phone's request, by its id (in the caller's transaction): a
    second one with the same id fails the transaction, so nothing is recorded twice.
    Answers older than :data:`PHONE_ANSWERS_KEPT` go in the same transaction."""
    _forget_answers(db, now - PHONE_ANSWERS_KEPT)
    db.execute(
        "INSERT INTO phone_requests (id, phone_id, status, answer, at) VALUES (?, ?, ?, ?, ?)",
        (
            answer_key(receipt.phone_id, receipt.request_id),
            receipt.phone_id,
            receipt.status,
            json.dumps(receipt.answer),
            now.strftime(_STAMP),
        ),
    )


def _forget_answers(db: sqlite3.Connection, before: datetime) -> int:
    """Delete the answers kept for requests made before ``before``; how many went."""
    return db.execute(
        "DELETE FROM phone_requests WHERE at < ?", (before.strftime(_STAMP),)
    ).rowcount


def _pair_phone(db: sqlite3.Connection, name: str, token_hash: bytes, stamp: str) -> PairedPhone:
    """Store a paired phone; a name already listed gets a number ("Ann 2")."""
    taken = {row[0] for row in db.execute("SELECT name FROM phones")}
    listed, number = name, 2
    while listed in taken:
        listed = f"{name[: PHONE_NAME_LENGTH - 2]} {number}"
        number += 1
    cursor = db.execute(
        "INSERT INTO phones (name, token_hash, paired_at) VALUES (?, ?, ?)",
        (listed, token_hash, stamp),
    )
    phone_id = cursor.lastrowid
    assert phone_id is not None
    return PairedPhone(phone_id, listed, stamp)


def _paired_phones(db: sqlite3.Connection) -> dict[bytes, PairedPhone]:
    """The paired phones by their token's hash, oldest first."""
    rows = db.execute("SELECT id, name, token_hash, paired_at FROM phones ORDER BY id").fetchall()
    return {bytes(token): PairedPhone(id_, name, at) for id_, name, token, at in rows}


def _phone_answer(
    db: sqlite3.Connection, phone_id: int, request_id: str
) -> tuple[int, dict[str, Any]] | None:
    """The answer kept for this phone's request (its HTTP status and JSON), if any."""
    row = db.execute(
        "SELECT status, answer FROM phone_requests WHERE id = ?",
        (answer_key(phone_id, request_id),),
    ).fetchone()
    if row is None:
        return None
    try:
        data = json.loads(row[1])
    except ValueError:
        data = None
    return int(row[0]), data if isinstance(data, dict) else {}
