"""Which card carries which tag: the enrolled deck, saved as a small JSON file.

A tag that is itself a card code (``R3``, ``r3``) needs no enrolment: a
barcode scanner in serial mode prints the card code printed on the card.

>>> tags = TagMap()
>>> tags.enrol("0A1B2C3D4E", Card.from_code("R3"))
>>> tags.lookup("0a1b2c3d4e").code()
'R3'
>>> tags.lookup("y5").code()
'Y5'
>>> tags.lookup("FFFFFFFFFF") is None
True
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path

from engine.cards import Card, CardFormatError
from engine.errors import CompanionError
from hardware.os_words import reason_in_words

__all__ = ["MAX_TAG_LENGTH", "TagMap", "TagMapError", "card_code_of", "normalise_tag"]

FORMAT_VERSION = 1
"""The ``version`` written in the JSON file."""

MAX_TAG_LENGTH = 64
"""Longest tag accepted (a line of a serial scanner)."""


class TagMapError(CompanionError, ValueError):
    """A tag map file that cannot be read, or a tag that cannot be enrolled."""


def normalise_tag(tag: str) -> str:
    """The canonical spelling of a tag: stripped, upper case.

    >>> normalise_tag(" 0a1b2c3d4e ")
    '0A1B2C3D4E'
    >>> normalise_tag("")
    Traceback (most recent call last):
    ...
    hardware.tagmap.TagMapError: '' is not a tag: empty
    """
    if not isinstance(tag, str):
        raise TagMapError(f"{tag!r} is not a tag: not a string")
    text = tag.strip().upper()
    if not text:
        raise TagMapError(f"{tag!r} is not a tag: empty")
    if len(text) > MAX_TAG_LENGTH:
        raise TagMapError(f"{tag!r} is not a tag: longer than {MAX_TAG_LENGTH} characters")
    if not all(" " <= char <= "~" for char in text):
        raise TagMapError(f"{tag!r} is not a tag: not printable ASCII")
    return text


def card_code_of(tag: str) -> Card | None:
    """The card a tag names by itself (``"r3"`` → R3), or None for an ordinary tag."""
    try:
        return Card.from_code(tag.strip())
    except CardFormatError:
        return None


class TagMap:
    """An enrolled deck: tag → card. Tags are compared in upper case."""

    def __init__(self, cards: Mapping[str, Card] | None = None) -> None:
        self._cards: dict[str, Card] = {}
        for tag, card in (cards or {}).items():
            self.enrol(tag, card)

    def lookup(self, tag: str) -> Card | None:
        """The card for ``tag``: a card code names itself; else the enrolled card, or None."""
        card = card_code_of(tag)
        if card is not None:
            return card
        return self._cards.get(tag.strip().upper())

    def enrol(self, tag: str, card: Card) -> None:
        """Record that ``tag`` is on ``card``.

        Raises :class:`TagMapError` if the tag is already enrolled (forget it
        first) or is itself a card code (it needs no enrolment).
        """
        key = normalise_tag(tag)
        if card_code_of(key) is not None:
            raise TagMapError(f"tag {key} is a card code: it needs no enrolment")
        if key in self._cards:
            raise TagMapError(f"tag {key} is already enrolled as {self._cards[key].code()}")
        self._cards[key] = card

    def forget(self, tag: str) -> Card:
        """Remove ``tag``; returns its card. Raises :class:`TagMapError` if unknown."""
        key = tag.strip().upper()
        try:
            return self._cards.pop(key)
        except KeyError:
            raise TagMapError(f"tag {key} is not enrolled") from None

    def forget_card(self, card: Card) -> list[str]:
        """Remove every tag enrolled as ``card``; returns those tags."""
        tags = self.tags_of(card)
        for tag in tags:
            del self._cards[tag]
        return tags

    def tags_of(self, card: Card) -> list[str]:
        """The tags enrolled as ``card``, in enrolment order."""
        return [tag for tag, known in self._cards.items() if known == card]

    def counts(self) -> Counter[Card]:
        """How many tags each card has."""
        return Counter(self._cards.values())

    def items(self) -> Iterator[tuple[str, Card]]:
        """``(tag, card)`` pairs in enrolment order."""
        return iter(list(self._cards.items()))

    def __contains__(self, tag: object) -> bool:
        return isinstance(tag, str) and tag.strip().upper() in self._cards

    def __len__(self) -> int:
        return len(self._cards)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TagMap):
            return NotImplemented
        return self._cards == other._cards

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TagMap({len(self)} tags)"

    def to_json(self) -> str:
        """The file format: ``{"version": 1, "tags": {"0A1B2C3D4E": "R3", ...}}``."""
        document = {
            "version": FORMAT_VERSION,
            "tags": {tag: card.code() for tag, card in self._cards.items()},
        }
        return json.dumps(document, indent=2, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str, *, source: str = "<tag map>") -> TagMap:
        """Parse :meth:`to_json` output; :class:`TagMapError` names what is wrong."""
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            where = f"line {error.lineno}, column {error.colno}"
            raise TagMapError(
                f"{source}: not a tag map (invalid JSON at {where}: {error.msg})"
            ) from None
        if not isinstance(document, dict) or not isinstance(document.get("tags"), dict):
            raise TagMapError(
                f'{source}: not a tag map (expected {{"version": 1, "tags": {{...}}}})'
            )
        if document.get("version") != FORMAT_VERSION:
            raise TagMapError(
                f"{source}: tag map version {document.get('version')!r} is not {FORMAT_VERSION}"
            )
        tag_map = cls()
        for tag, code in document["tags"].items():
            if not isinstance(code, str):
                raise TagMapError(f"{source}: tag {tag!r}: {code!r} is not a card code")
            try:
                tag_map.enrol(tag, Card.from_code(code))
            except (TagMapError, CardFormatError) as error:
                raise TagMapError(f"{source}: tag {tag!r}: {error}") from None
        return tag_map

    @classmethod
    def load(cls, path: Path, *, missing_ok: bool = True) -> TagMap:
        """Read a tag map file. A missing file is an empty map when ``missing_ok``."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            if missing_ok:
                return cls()
            raise TagMapError(f"{path}: no such tag map file") from None
        except UnicodeDecodeError:
            raise TagMapError(f"{path}: not a tag map (not UTF-8 text)") from None
        except OSError as error:
            raise TagMapError(
                f"{path}: cannot read the tag map: {reason_in_words(error)}"
            ) from None
        return cls.from_json(text, source=str(path))

    def save(self, path: Path) -> None:
        """Write the map atomically (temporary file, then rename over ``path``)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(self.to_json())
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
