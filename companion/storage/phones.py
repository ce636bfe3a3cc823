"""The answers given to phones' requests, kept so that a retry is answered the same.

They are kept by the phone and the request's id (:func:`answer_key`): a request sent
again is recorded once (issue 22), and a phone reusing another's id is not given the
other's answer (issue 37).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from typing import Final

from companion.storage.files import _STAMP
from companion.vocabulary.phone import PhoneReceipt

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
