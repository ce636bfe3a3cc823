"""The set-up's variant search: the variants a few typed letters leave, one of them picked.

The Variant row's OK opens the search (docs/decisions/0108): the letters typed narrow
Hanab Live's variants a printed deck carries (every word in the name, any case, as the
``variants`` command finds them), NEXT and PREVIOUS step through what is left, OK or a
tap picks. With nothing typed the list is "No variant" and the first variant of each
family (the families of :func:`engine.variants.family_of`): with the buttons alone,
NEXT walks the families.

>>> variant_choices("")[:4]
(None, 'Black (6 Suits)', 'Rainbow (6 Suits)', 'Pink (6 Suits)')
>>> variant_choices("null rainbow")[:2]
('Rainbow-Ones & Null (6 Suits)', 'Rainbow-Ones & Null (5 Suits)')
"""

from __future__ import annotations

from functools import cache
from typing import Final

from engine.variants import family_of, search, variant_names

#: The longest search typed (a variant's name is at most some forty characters).
MAX_SEARCH_LENGTH: Final = 40


@cache
def _families() -> tuple[str | None, ...]:
    first: dict[str, str] = {}
    for name in variant_names():
        first.setdefault(family_of(name), name)
    first.pop("No Variant", None)  # the printed options' rows are the plain variants
    return (None, *first.values())


def variant_choices(text: str) -> tuple[str | None, ...]:
    """The variants offered for ``text`` typed: with nothing typed, no variant (None) and
    the first of each family; else every variant whose name holds each word."""
    if not text.strip():
        return _families()
    return tuple(search(text))
