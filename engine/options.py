"""The game's options (the variants) as one value: the single place that lists them.

Every list of options in the project (the set-up screen's rows, the config's
``[game]`` keys, the log header's keys, the labels, the stored variant)
iterates over :data:`OPTION_NAMES`; a new variant flag is a new field here,
its rule in ``engine/game.py`` and its label in ``companion/core/i18n.py``.

Beside those flags, ``variant`` names one of Hanab Live's variants
(``engine/variants.py``): its suits and rules replace the multicolor suit's
options, and the other options combine with it. The rules a game is played
with are one :class:`~engine.variants.Variant`, :meth:`GameOptions.rules`: the
named one, or the printed books' that the multicolor options pick.

A value may hold a combination the rules refuse (the set-up screen passes
through them while the players choose); :meth:`GameOptions.check` says
which rule, and :class:`engine.setup.GameSetup` checks on creation.

>>> options = GameOptions(multicolor=Multicolor.SHORT, timed_display=True)
>>> options.to_dict()
{'multicolor': 'short', 'timed_display': True}
>>> GameOptions.from_dict(options.to_dict()) == options
True
>>> options.code()
'multicolor=short timed_display'
>>> GameOptions.from_code(options.code()) == options
True
>>> GameOptions().code()
'base'
>>> options.variant_name()
'short multicolor, timed display'
>>> GameOptions(crowning_piece=True, multicolor=Multicolor.FULL, timed_display=True).check()
Traceback (most recent call last):
...
engine.errors.SetupError: the crowning piece combines with one other variant only
>>> pink = GameOptions(variant="Pink (5 Suits)", empty_clues=True)
>>> pink.code(), pink.variant_name()
('variant=Pink_(5_Suits) empty_clues', 'Pink (5 Suits), empty clues')
>>> GameOptions.from_code(pink.code()) == pink, pink.rules().suits[-1].name
(True, 'Pink')
"""

from __future__ import annotations

from enum import Enum
from functools import cache
from typing import Annotated, Any, Final, get_type_hints

from msgspec import Meta, Struct
from msgspec.structs import replace

from engine.cards import ALL_CARDS, Card
from engine.errors import SetupError
from engine.suits import NORMAL_COPIES, SHORT_COPIES, SuitSpec
from engine.variants import PRINTED, Variant, variant_by_name

__all__ = [
    "NORMAL_COPIES",
    "OPTION_NAMES",
    "SHORT_COPIES",
    "GameOptions",
    "Multicolor",
    "OptionValue",
    "SetupError",
    "SuitSpec",
]

#: A value of an option: a flag, or one of an enumeration's members.
OptionValue = bool | Enum


class Multicolor(Enum):
    """The sixth suit: none, short (one card per rank) or full (ten cards)."""

    NONE = "none"
    SHORT = "short"
    FULL = "full"


def _about(sentence: str) -> Meta:
    """An option's annotation: what it does, in one English sentence."""
    return Meta(description=sentence)


class GameOptions(Struct, frozen=True):
    """The variants of one game; the defaults are the printed base game."""

    multicolor: Annotated[
        Multicolor,
        _about('Multicolor suit: "none", "short" (one card per rank) or "full" (10).'),
    ] = Multicolor.NONE
    wild_multicolor: Annotated[
        bool, _about("Multicolor cards answer every colour hint (needs multicolor).")
    ] = False
    crowning_piece: Annotated[
        bool, _about("No final round: play on until the display is complete or lost.")
    ] = False
    timed_display: Annotated[
        bool, _about("A play may announce its colour: right, a hint back; wrong, a fuse.")
    ] = False
    empty_clues: Annotated[bool, _about("A hint may touch no card.")] = False
    strikeout_keeps_score: Annotated[
        bool, _about("Losing the third fuse keeps the score instead of 0.")
    ] = False
    hand_memory: Annotated[
        bool,
        _about("The companion remembers which cards each hint touched, by slot (new cards left)."),
    ] = False
    #: A Hanab Live variant by its exact name (None: the printed books' rules); not one
    #: of :data:`OPTION_NAMES`, which are the flags a set-up screen cycles through.
    variant: str | None = None

    # -- the options as data -------------------------------------------------

    @staticmethod
    def choices(name: str) -> tuple[OptionValue, ...]:
        """The values an option takes, in the order the set-up screen cycles them.

        >>> GameOptions.choices("timed_display")
        (False, True)
        >>> [m.value for m in GameOptions.choices("multicolor")]
        ['none', 'short', 'full']
        """
        default = _DEFAULTS[name]
        if isinstance(default, Enum):
            return tuple(type(default))
        return (False, True)

    @staticmethod
    def doc(name: str) -> str:
        """One English sentence on what the option does (the config's comment)."""
        return _option_docs()[name]

    def value(self, name: str) -> OptionValue:
        """The value of the option called ``name``."""
        if name not in _DEFAULTS:
            raise KeyError(f"no option called {name!r}")
        value: OptionValue = getattr(self, name)
        return value

    def with_value(self, name: str, value: OptionValue) -> GameOptions:
        """A copy with one option changed; ``SetupError`` if the value is not one of its choices."""
        if name not in _DEFAULTS:
            raise SetupError("unknown_option", f"unknown option {name!r}")
        if type(value) is not type(_DEFAULTS[name]) or value not in self.choices(name):
            raise SetupError("bad_option_value", f"{name} cannot be {value!r}")
        changes: dict[str, Any] = {name: value}
        return replace(self, **changes)

    def cycled(self, name: str) -> GameOptions:
        """A copy with the option moved on to its next choice (the set-up screen's OK).

        >>> GameOptions().cycled("multicolor").multicolor
        <Multicolor.SHORT: 'short'>
        >>> GameOptions().cycled("empty_clues").empty_clues
        True
        """
        choices = self.choices(name)
        return self.with_value(name, choices[(choices.index(self.value(name)) + 1) % len(choices)])

    @classmethod
    def every(cls) -> list[GameOptions]:
        """Every value the options can take, allowed or not, each once.

        >>> everything = GameOptions.every()
        >>> GameOptions() in everything, len(set(everything)) == len(everything)
        (True, True)
        """
        everything = [cls()]
        for name in OPTION_NAMES:
            everything = [o.with_value(name, v) for o in everything for v in cls.choices(name)]
        return everything

    # -- the rules of combination --------------------------------------------

    def effective(self) -> GameOptions:
        """The options a game is played with: wild multicolor without multicolor is off."""
        if self.wild_multicolor and self.multicolor is Multicolor.NONE:
            return replace(self, wild_multicolor=False)
        return self

    def check(self) -> None:
        """Raise :class:`SetupError` if the rules do not allow this combination."""
        if self.variant is not None:
            if self.multicolor is not Multicolor.NONE or self.wild_multicolor:
                raise SetupError(
                    "variant_with_multicolor",
                    "a variant by name brings its own suits: multicolor and wild multicolor "
                    "are left out",
                )
            variant_by_name(self.variant)  # raises, naming why
        if self.wild_multicolor and self.multicolor is Multicolor.NONE:
            raise SetupError(
                "wild_needs_multicolor", "wild multicolor needs a multicolor suit (short or full)"
            )
        if (
            self.crowning_piece
            and (self.multicolor is not Multicolor.NONE)
            + self.timed_display
            + (self.variant not in (None, BASE_VARIANT))
            > 1
        ):
            raise SetupError(
                "crowning_one_variant", "the crowning piece combines with one other variant only"
            )

    # -- the deck ------------------------------------------------------------------

    def rules(self) -> Variant:
        """The variant's rules: the named Hanab Live variant, else the printed books' that
        the multicolor options pick (:data:`engine.variants.PRINTED`).

        >>> GameOptions(multicolor=Multicolor.SHORT, wild_multicolor=True).rules().name
        'wild short multicolor'
        """
        if self.variant is not None:
            return variant_by_name(self.variant)
        effective = self.effective()
        return PRINTED[effective.multicolor.value, effective.wild_multicolor]

    def suits(self) -> tuple[SuitSpec, ...]:
        """The suits in play, in the variant's order."""
        return self.rules().specs()

    def copies(self) -> tuple[int, ...]:
        """Copies in the deck of each card, indexed by :attr:`Card.ordinal` (0: not in play)."""
        return _copies(self.rules())

    def deck_cards(self) -> list[Card]:
        """Every card of the deck, one entry per copy, colour by colour.

        >>> [card.code() for card in GameOptions().deck_cards()][:6]
        ['R1', 'R1', 'R1', 'R2', 'R2', 'R3']
        >>> [len(GameOptions(multicolor=m).deck_cards()) for m in Multicolor]
        [50, 55, 60]
        """
        return [
            card for card, count in zip(ALL_CARDS, self.copies(), strict=True) for _ in range(count)
        ]

    # -- formats ---------------------------------------------------------------

    def to_dict(self, *, defaults: bool = False) -> dict[str, str | bool]:
        """The options that differ from the base game, as JSON values (the log header's),
        the variant's name first when there is one; with ``defaults``, every option."""
        out: dict[str, str | bool] = {}
        if self.variant is not None:
            out["variant"] = self.variant
        for name in OPTION_NAMES:
            value = self.value(name)
            if defaults or value != _DEFAULTS[name]:
                out[name] = value.value if isinstance(value, Enum) else value
        return out

    @classmethod
    def from_dict(cls, obj: dict[str, object]) -> GameOptions:
        """Options from JSON values (absent: the default); ``SetupError`` naming a bad key.

        Keys that are not options are the caller's business and are ignored here.
        """
        given: dict[str, Any] = {
            name: _from_json(name, obj[name]) for name in OPTION_NAMES if name in obj
        }
        if "variant" in obj:
            given["variant"] = _variant_from_json(obj["variant"])
        return cls(**given)  # one object built, not one per option given

    def updated(self, obj: dict[str, object]) -> GameOptions:
        """A copy with the options in ``obj`` (JSON values) changed; ``SetupError`` if bad.

        >>> GameOptions(empty_clues=True).updated({"multicolor": "full"}).code()
        'multicolor=full empty_clues'
        """
        options = self
        for name in OPTION_NAMES:
            if name in obj:
                options = options.with_value(name, _from_json(name, obj[name]))
        if "variant" in obj:
            options = replace(options, variant=_variant_from_json(obj["variant"]))
        return options

    def code(self) -> str:
        """A short stable text of the options: ``base`` or ``multicolor=short timed_display``."""
        parts = []
        for name, value in self.to_dict().items():
            if name == "variant":  # a name's spaces as "_" (Hanab Live's names have none)
                value = str(value).replace(" ", "_")
            parts.append(name if value is True else f"{name}={value}")
        return " ".join(parts) or "base"

    @classmethod
    def from_code(cls, code: str) -> GameOptions:
        """Parse :meth:`code`'s text; ``SetupError`` if it is not one."""
        if code == "base":
            return cls()
        obj: dict[str, object] = {}
        for part in code.split(" "):
            name, sep, value = part.partition("=")
            obj[name] = value if sep else True
        if isinstance(obj.get("variant"), str):
            obj["variant"] = str(obj["variant"]).replace("_", " ")
        if not obj.keys() <= {*OPTION_NAMES, "variant"}:
            raise SetupError("unknown_option", f"{code!r} is not a set of options")
        return cls.from_dict(obj)

    def variant_name(self) -> str:
        """A short English description, e.g. ``"short multicolor, timed display"``."""
        parts = []
        for name in self.to_dict():
            if name == "variant":
                parts.append(str(self.variant))
            elif name == "multicolor":
                wild = "wild " if self.wild_multicolor else ""
                parts.append(f"{wild}{self.multicolor.value} multicolor")
            elif name != "wild_multicolor":
                parts.append(name.replace("_", " "))
        return ", ".join(parts) or "base game"


_DEFAULTS: dict[str, OptionValue] = {
    name: default
    for name, default in zip(
        GameOptions.__struct_fields__, GameOptions.__struct_defaults__, strict=True
    )
    if isinstance(default, bool | Enum)
}

#: Every option, in the order the set-up screen, the config and the log list them (the
#: flags; the variant's name is apart: it is not cycled through).
OPTION_NAMES: Final[tuple[str, ...]] = tuple(_DEFAULTS)

#: Hanab Live's name of the base game: the crowning piece counts any other as a variant.
BASE_VARIANT: Final = "No Variant"


@cache
def _option_docs() -> dict[str, str]:
    """Each option's sentence, from its annotation (read when the config's comments are
    written, not at import: the annotations are strings until then)."""
    hints = get_type_hints(GameOptions, include_extras=True)
    return {name: str(hints[name].__metadata__[0].description) for name in OPTION_NAMES}


def _from_json(name: str, value: object) -> OptionValue:
    default = _DEFAULTS[name]
    if isinstance(default, Enum):
        for member in type(default):
            if member.value == value:
                return member
        *others, last = (f'"{member.value}"' for member in type(default))
        raise SetupError("bad_option_value", f"{name} must be {', '.join(others)} or {last}")
    if not isinstance(value, bool):
        raise SetupError("bad_option_value", f"{name} must be true or false")
    return value


def _variant_from_json(value: object) -> str:
    if not isinstance(value, str):
        raise SetupError("bad_option_value", "variant must be a Hanab Live variant's name")
    return value


@cache
def _copies(rules: Variant) -> tuple[int, ...]:
    """Copies of each card, by ordinal (one table per variant)."""
    copies = [0] * len(ALL_CARDS)
    for suit in rules.specs():
        for rank, count in enumerate(suit.copies, start=1):
            copies[Card(suit.color, rank).ordinal] = count
    return tuple(copies)
