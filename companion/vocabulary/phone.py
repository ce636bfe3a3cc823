"""Phones as input: what a paired phone asks of the table, and what it is answered.

A phone's request becomes one input event of the app loop, handled by the same
controller as the panel's keys: :class:`PhoneMove` (an action, an undo, or only the
preview of one) and :class:`PhonePair` (pairing with the code the panel shows). The web
thread builds them from the request and waits for the answer: the loop answers through
:attr:`PhoneMove.reply` once the action is stored (never before: a phone never shows
an action the card does not have).

A move names the position it was made on (the game and its count of actions) and
carries an id the phone made up: a move made on a position the table has left is
refused in words and changes nothing; a move sent again with the same id (its answer was
lost on the Wi-Fi) is answered as the first time and recorded once (the answers are kept
in the database, in the same transaction as the action).

>>> move = parse_move({"id": "k3Jx-9aQ2mZ7pLw0", "game": "4", "position": 7,
...                    "action": {"action": "hint", "to": 1, "color": "yellow", "slots": [2, 3]}})
>>> move.position, move.action
(7, Hint(to=1, color=<Color.YELLOW: 1>, rank=None, player=None, at=None, slots=(2, 3)))
>>> move_to_json(move)["action"]
{'action': 'hint', 'to': 1, 'color': 'yellow', 'slots': [2, 3]}
>>> body = {"id": "k3Jx-9aQ2mZ7pLw0", "game": "4", "position": 7, "action": {"action": "undo"}}
>>> parse_move(body).action is None  # an undo
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from msgspec import Struct

from engine.actions import Action
from engine.errors import CompanionError
from engine.log import action_to_dict, parse_action
from engine.reveal import Reveal, parse_reveal, reveal_to_dict

#: A request id: what the phone made up to tell a retry from a new request (a pattern
#: ``re`` compiles with the first request, not at start).
REQUEST_ID = r"[A-Za-z0-9_-]{16,64}"
#: Digits of the pairing code the panel's Phones page shows.
PAIRING_DIGITS = 6
#: Wrong codes one address may try against one pairing code; then it is refused until
#: the panel shows a new code (the page opened again, or a phone paired). Others are not.
PAIRING_TRIES_PER_CODE = 5
#: The longest name a phone is listed under (as a player's name on the panel).
PHONE_NAME_LENGTH = 12


class BadRequest(CompanionError, ValueError):
    """A request the page would never send: the reason, for the one sentence answered."""


class Answer(Struct, frozen=True):
    """What a phone is answered: ``ok`` (recorded, or would be), ``status`` the HTTP
    status, ``text`` one sentence in the table's language, ``actions`` the count of
    actions after it (the position the phone looks at next), ``token`` for a pairing."""

    ok: bool
    status: int
    text: str
    actions: int | None = None
    token: str = ""
    name: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok, "text": self.text}
        if self.actions is not None:
            out["actions"] = self.actions
        if self.token:
            out["token"] = self.token
        if self.name:
            out["name"] = self.name
        return out

    @classmethod
    def from_json(cls, status: int, data: dict[str, Any]) -> Answer:
        """The answer kept in the database, as it was first given (a retry gets it)."""
        actions = data.get("actions")
        return cls(
            bool(data.get("ok")),
            status,
            str(data.get("text", "")),
            actions if isinstance(actions, int) else None,
        )


Reply = Callable[[Answer], None]


def _no_reply(answer: Answer) -> None:
    """The reply of a request nobody waits for (tests, benchmarks)."""


class PhoneMove(Struct, frozen=True):
    """A paired phone's action (None: an undo, the last one taken back; a :class:`Reveal`:
    its seat's hand shown at the end), made on ``position``
    (the count of actions the phone saw) of game ``game``; ``preview_only``: say what it
    would do, change nothing. ``token_hash``: the phone's pairing token, hashed."""

    request_id: str
    game: str
    position: int
    action: Action | Reveal | None
    token_hash: bytes = b""
    preview_only: bool = False
    #: Who waits for the answer (the server's request). A field like the others: two moves
    #: are equal only with the same reply (the tests' moves all have this default).
    reply: Reply = _no_reply


class PhonePair(Struct, frozen=True):
    """A phone asks to be paired with the code it was shown, under ``name``; the token
    it will be given is made by the server, and only its hash comes here."""

    code: str
    name: str
    token_hash: bytes
    #: Who waits for the answer (see :attr:`PhoneMove.reply`).
    reply: Reply = _no_reply
    #: Whom the wrong codes count against (an IPv4 address, an IPv6 /64: the server's).
    address: str = ""


class PhoneSetup(Struct, frozen=True):
    """A paired phone chooses the next game's variant by Hanab Live's name (None: no
    variant, the printed options), while the panel shows the set-up; Start stays the
    panel's. ``token_hash``: the phone's pairing token, hashed."""

    variant: str | None
    token_hash: bytes
    #: Who waits for the answer (see :attr:`PhoneMove.reply`).
    reply: Reply = _no_reply


PhoneEvent = PhoneMove | PhonePair | PhoneSetup


class PairedPhone(Struct, frozen=True):
    """A phone that may enter actions, as the panel lists it."""

    id: int
    name: str
    paired_at: str = ""


class PhoneReceipt(Struct, frozen=True):
    """A phone's request and the answer it was given (its HTTP status and JSON), as the
    database keeps it."""

    request_id: str
    phone_id: int
    status: int
    answer: dict[str, Any]


def hash_token(token: str) -> bytes:
    """What the database keeps of a pairing token (never the token itself)."""
    import hashlib  # here: a phone pairs after the first frame, OpenSSL's start with it

    return hashlib.sha256(token.encode("utf-8", "replace")).digest()


def new_token() -> str:
    """A pairing token: 256 random bits, URL-safe."""
    import secrets  # with the first pairing (it imports random): not at start

    return secrets.token_urlsafe(32)


def new_pairing_code() -> str:
    """The code the panel's Phones page shows: six digits."""
    import secrets  # when the Phones page opens: not at start

    return f"{secrets.randbelow(10**PAIRING_DIGITS):0{PAIRING_DIGITS}d}"


def clean_name(name: object) -> str:
    """A phone's name as listed: printable, trimmed, at most :data:`PHONE_NAME_LENGTH`."""
    if not isinstance(name, str):
        return ""
    text = "".join(c for c in name if c.isprintable()).strip()
    return text[:PHONE_NAME_LENGTH]


def parse_move(obj: object, *, preview_only: bool = False) -> PhoneMove:
    """A move from the phone's JSON body; :class:`BadRequest` says what is wrong.

    >>> parse_move({"id": "short", "game": "1", "position": 0, "action": {"action": "undo"}})
    Traceback (most recent call last):
    ...
    companion.vocabulary.phone.BadRequest: id must be 16 to 64 letters, digits, - or _
    """
    if not isinstance(obj, dict):
        raise BadRequest("the body must be a JSON object")
    unknown = set(obj) - {"id", "game", "position", "action"}
    if unknown:
        raise BadRequest(f"unknown key {sorted(unknown)[0]!r}")
    request_id = obj.get("id", "" if preview_only else None)
    if not isinstance(request_id, str) or (
        not preview_only and re.fullmatch(REQUEST_ID, request_id) is None
    ):
        raise BadRequest("id must be 16 to 64 letters, digits, - or _")
    game = obj.get("game")
    if not isinstance(game, str) or len(game) > 64:
        raise BadRequest("game must be the snapshot's game")
    position = obj.get("position")
    if type(position) is not int or not 0 <= position < 10_000:
        raise BadRequest("position must be the snapshot's count of actions")
    body = obj.get("action")
    if not isinstance(body, dict):
        raise BadRequest("action must be a JSON object")
    action: Action | Reveal | None
    if body == {"action": "undo"}:
        action = None
    elif body.get("action") == "reveal":  # the phone's seat's hand: it names the seat
        try:
            action = parse_reveal(body)
        except ValueError as error:
            raise BadRequest(str(error)) from None
    else:
        if "player" in body or "at" in body:
            raise BadRequest("the table says whose turn it is and when: no player, no at")
        try:
            action = parse_action(body)
        except ValueError as error:
            raise BadRequest(str(error)) from None
    return PhoneMove(request_id, game, position, action, preview_only=preview_only)


def move_to_json(move: PhoneMove) -> dict[str, Any]:
    """The JSON body a page sends for ``move`` (the round trip of :func:`parse_move`)."""
    action = move.action
    body = (
        {"action": "undo"}
        if action is None
        else reveal_to_dict(action)
        if isinstance(action, Reveal)
        else action_to_dict(action)
    )
    return {"id": move.request_id, "game": move.game, "position": move.position, "action": body}
