"""The settings table's values: JSON text in, JSON data out, a damaged value as absent.

>>> encode("language", ["fr"])
'["fr"]'
>>> decode(b'["fr"]', None)
['fr']
>>> decode(b'{not json', "en")
'en'
"""

from __future__ import annotations

import json
from typing import Any


def encode(key: str, value: Any) -> str:
    """The JSON text stored for ``value`` under ``key`` (a :class:`TypeError` if it is not
    JSON data, or if ``key`` is not a string)."""
    if not isinstance(key, str):
        raise TypeError(f"a setting's key must be a string, not {key!r}")
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise TypeError(f"the setting {key!r} must be JSON data ({error})") from None


def decode(raw: bytes | None, default: Any) -> Any:
    """The value stored as ``raw``, or ``default`` when the bytes are not JSON text (a
    hand-edited value: a set-up choice is not worth a crash)."""
    try:
        return json.loads(bytes(raw or b"").decode("utf-8"))
    except ValueError:  # UnicodeDecodeError too
        return default
