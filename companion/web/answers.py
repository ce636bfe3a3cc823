"""A phone's answer over HTTP: the status each of the core's outcomes is given.

The controller judges a phone's request (:class:`~companion.core.effects.PhoneOutcome`)
and knows nothing of HTTP; this table is where an outcome becomes a status. Light: no
aiohttp, so the app may import it at start.
"""

from __future__ import annotations

from companion.core.effects import PhoneOutcome

#: The HTTP status of each outcome: 200 what was done or would be (a preview, even a
#: refused one: the phone asked what would happen), 401 a token not paired, 403 a
#: pairing refused, 429 an address out of tries at this pairing code, 409 a request that
#: does not fit the table as it is, 503 one the storage could not keep (the same request
#: may succeed later).
HTTP_STATUS: dict[PhoneOutcome, int] = {
    PhoneOutcome.RECORDED: 200,
    PhoneOutcome.PREVIEWED: 200,
    PhoneOutcome.PREVIEW_REFUSED: 200,
    PhoneOutcome.REFUSED: 409,
    PhoneOutcome.NOTHING_TO_UNDO: 409,
    PhoneOutcome.NO_GAME: 409,
    PhoneOutcome.STALE: 409,
    PhoneOutcome.NOT_PAIRED: 401,
    PhoneOutcome.PAGE_CLOSED: 403,
    PhoneOutcome.WRONG_CODE: 403,
    PhoneOutcome.OTHER_GAME: 409,
    PhoneOutcome.NOT_STORED: 503,
    PhoneOutcome.DECLINED: 403,
    PhoneOutcome.PAIR_BUSY: 409,
    PhoneOutcome.CODE_SPENT: 429,
    PhoneOutcome.SETUP_CLOSED: 409,
}


def http_status(outcome: PhoneOutcome) -> int:
    """The HTTP status a phone's answer with this outcome is given.

    >>> http_status(PhoneOutcome.STALE)
    409
    """
    return HTTP_STATUS[outcome]
