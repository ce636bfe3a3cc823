"""Every string the companion shows, in every language of :mod:`companion.core.languages`.

The words live in one module per language (``companion/core/languages/en.py``…);
this module gathers them into tables by language and says things with them.

>>> tr("fr", "hint_tokens")
'Indices'
>>> rating_sentence("en", Rating.AMAZING)
'Amazing, will be remembered for a very long time!'
>>> card_name("fr", Card.from_code("W4"))
'4 blanc'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from enum import Enum
from functools import cache
from typing import TypeVar

from companion.core import languages
from companion.core.languages import FALLBACK, Language
from engine.actions import Hint
from engine.cards import Card, Color
from engine.errors import IllegalAction
from engine.game import Event, EventKind
from engine.options import GameOptions, OptionValue
from engine.outcome import EndReason, Outcome, Rating

#: Every language of the app, English (the fallback) first: one module each in
#: :mod:`companion.core.languages`, found there; a new language is a new file, nothing else.
LANGUAGES: tuple[str, ...] = tuple(languages.codes())


@cache
def _loaded(code: str) -> Language:
    return languages.load(code)


def language(lang: str) -> Language:
    """The language of code ``lang``, or English when there is no such language. Its
    module is imported the first time it is asked for: a start loads only the language
    it shows (and English, the fallback, when a text is missing there)."""
    return _loaded(lang if lang in LANGUAGES else FALLBACK)


_Part = TypeVar("_Part")


class _ByLanguage(Mapping[str, _Part]):
    """One part of every language (its texts, its colours' names…), by code: a table
    of every language that loads a language only when its part is read."""

    def __init__(self, part: Callable[[Language], _Part]) -> None:
        self._part = part

    def __getitem__(self, code: str) -> _Part:
        if code not in LANGUAGES:
            raise KeyError(code)
        return self._part(language(code))

    def __contains__(self, code: object) -> bool:
        return code in LANGUAGES

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)


#: Each language by its own name, as the set-up and the menu offer it.
LANGUAGE_NAMES: Mapping[str, str] = _ByLanguage(lambda lang: lang.name)

#: The help screen: (keyboard keys, buttons, what they do), row by row.
HELP_ROWS: Mapping[str, Sequence[tuple[str, str, str]]] = _ByLanguage(lambda lang: lang.help_rows)

COLOR_NAMES: Mapping[str, Mapping[Color, str]] = _ByLanguage(lambda lang: lang.colors)

#: Each rating band: (title, the rule book's sentence).
RATINGS: Mapping[str, Mapping[Rating, tuple[str, str]]] = _ByLanguage(lambda lang: lang.ratings)

TEXTS: Mapping[str, Mapping[str, str]] = _ByLanguage(lambda lang: lang.texts)

#: Which plural form a count takes, by language (gettext's ``plural=`` expressions):
#: English "1 turn, 0 turns"; French "0 tour, 1 tour, 2 tours".
PLURAL_FORM: Mapping[str, Callable[[int], int]] = _ByLanguage(lambda lang: lang.plural)

#: Words counted on the screens, each with its forms in the order of ``PLURAL_FORM``.
COUNTED: Mapping[str, Mapping[str, tuple[str, ...]]] = _ByLanguage(lambda lang: lang.counted)

#: Why the engine refused an action, by language and by the refusal's code.
REFUSALS: Mapping[str, Mapping[str, str]] = _ByLanguage(lambda lang: lang.refusals)


def counted(lang: str, key: str, n: int) -> str:
    """``n`` things, in the form the language gives that number (ngettext's rule).

    >>> counted("en", "misplays", 1), counted("en", "misplays", 0), counted("fr", "misplays", 0)
    ('1 misplay', '0 misplays', '0 erreur')
    """
    words = language(lang)
    return words.counted[key][words.plural(n)].format(n=n)


def has_text(key: str) -> bool:
    """Whether ``key`` is a text of the app (every language has the same keys)."""
    return key in language(FALLBACK).texts


def tr(lang: str, key: str, **params: object) -> str:
    """The text of ``key`` in ``lang`` (English if the language lacks it)."""
    template = language(lang).texts.get(key) or language(FALLBACK).texts[key]
    return template.format(**params) if params else template


def option_value(lang: str, name: str, value: OptionValue) -> str:
    """A game option's value as the set-up screen shows it: yes/no, or the choice's words."""
    if isinstance(value, Enum):
        return tr(lang, f"{name}_{value.value}")
    return tr(lang, "yes" if value else "no")


def variant_name(lang: str, options: GameOptions) -> str:
    """The options of a game in words, for the history: ``Short multicolor, Timed display``;
    a Hanab Live variant by its name, in every language (``Pink (5 Suits), …``)."""
    parts = [
        str(value)
        if name == "variant"
        else tr(lang, f"variant_{name}_{value}" if isinstance(value, str) else name)
        for name, value in options.to_dict().items()
    ]
    return ", ".join(parts) or tr(lang, "variant_base")


def color_name(lang: str, color: Color) -> str:
    return language(lang).colors[color]


def card_name(lang: str, card: Card) -> str:
    """``red 3`` / ``3 rouge`` / ``Rot 3``: each language's word order (its ``card``).

    >>> card_name("en", Card.from_code("R3")), card_name("de", Card.from_code("M5"))
    ('red 3', 'Bunt 5')
    """
    return language(lang).card.format(color=color_name(lang, card.color), rank=card.rank)


def rating_title(lang: str, rating: Rating) -> str:
    return language(lang).ratings[rating][0]


def rating_sentence(lang: str, rating: Rating) -> str:
    return language(lang).ratings[rating][1]


def refusal_text(lang: str, error: IllegalAction, names: tuple[str, ...] = ()) -> str:
    """Why an action was refused, in words a player understands.

    Every language says it with its sentence for the error's code (English's are
    the engine's own, ``engine.errors.ENGLISH``), filled with the error's
    parameters: a seat by its player's name (``Player 2`` without names), a card
    and a colour by their names.

    >>> from engine.errors import HintTokensFull
    >>> refusal_text("de", HintTokensFull())
    'Alle 8 Hinweisplättchen sind verfügbar: Abwerfen ist nicht erlaubt'
    """
    params: dict[str, object] = dict(error.params)
    # hand memory: what a hint named, a colour or a rank, as one word ({clue}); a hand's
    # size as a counted word ({cards})
    clue = params.get("color", params.get("rank"))
    if isinstance(clue, Color):
        params["clue"] = color_name(lang, clue)
    elif isinstance(clue, int):
        params["clue"] = str(clue)
    size = params.get("size")
    if isinstance(size, int):
        params["cards"] = counted(lang, "cards", size)
    for key in ("player", "claimed", "seat"):
        seat = params.get(key)
        if isinstance(seat, int):
            known = 0 <= seat < len(names)
            params[f"{key}_name"] = names[seat] if known else tr(lang, "player_n", n=seat + 1)
    card = params.get("card")
    if isinstance(card, Card):
        params["card"] = card_name(lang, card)
        params.setdefault("color", card.color)
    color = params.get("color")
    if isinstance(color, Color):
        params["color"] = color_name(lang, color)
    refusals = language(lang).refusals
    template = refusals.get(error.code, refusals[IllegalAction.code])
    try:
        return template.format(**params)
    except (KeyError, IndexError):  # a parameter the error does not carry: the gist
        return template.split(":")[0].rstrip()


def slot_list(lang: str, slots: Sequence[int]) -> str:
    """Slot numbers as a sentence lists them: ``1``, ``1 and 4``, ``2, 3 and 5``.

    >>> slot_list("en", [2, 3, 5]), slot_list("fr", [1, 4]), slot_list("de", [3])
    ('2, 3 and 5', '1 et 4', '3')
    """
    numbers = [str(slot) for slot in slots]
    if len(numbers) < 2:
        return "".join(numbers)
    return tr(lang, "list_and", first=", ".join(numbers[:-1]), last=numbers[-1])


def hint_text(
    lang: str, name: str, clue: Color | int, touched: Sequence[int], hand_size: int
) -> str:
    """What a hint adds to its receiver's hand memory, slot by slot.

    >>> hint_text("en", "Bo", Color.RED, [4, 1], 5)
    'Bo: slots 1 and 4 are red, slots 2, 3 and 5 are not'
    >>> hint_text("de", "Bo", 3, [2], 4)
    'Bo: 3 auf Platz 2, nicht auf den Plätzen 1, 3 und 4'
    """
    kind = "color" if isinstance(clue, Color) else "rank"
    word = color_name(lang, clue) if isinstance(clue, Color) else str(clue)
    hit = sorted(touched)
    missed = [slot for slot in range(1, hand_size + 1) if slot not in hit]
    if not hit:
        what = tr(lang, f"hint_touched_{kind}_none", clue=word)
    else:
        count = "one" if len(hit) == 1 else "many"
        what = tr(lang, f"hint_touched_{kind}_{count}", slots=slot_list(lang, hit), clue=word)
        if missed:
            count = "one" if len(missed) == 1 else "many"
            rest = tr(lang, f"hint_missed_{count}", slots=slot_list(lang, missed))
            what = tr(lang, "hint_touched_and_missed", touched=what, missed=rest)
    return tr(lang, "hint_preview", name=name, what=what)


def end_reason_text(lang: str, reason: EndReason, name: str = "") -> str:
    return tr(lang, f"end_{reason.value}", name=name)


def hint_event_text(lang: str, event: Event, names: tuple[str, ...]) -> str:
    """What a hint said, as far as the table told the companion: who to, the colour or
    the rank, and with hand memory the slots it touched.

    >>> from engine import GameSetup, Game, Hint
    >>> game = Game(GameSetup(players=3, names=("Ann", "Bo", "Cy")))
    >>> hint_event_text("en", game.apply(Hint(to=1, color=Color.YELLOW)), game.setup.names)
    'Ann told Bo: yellow'
    >>> hint_event_text("en", game.apply(Hint()), game.setup.names)
    'Bo gave a hint'
    >>> hint_event_text("en", game.apply(Hint(rank=3)), game.setup.names)
    'Cy hinted 3s'
    """
    name = names[event.player]
    action = event.action
    if not isinstance(action, Hint):
        return tr(lang, "ev_hint", name=name)
    clue = None
    if action.color is not None:
        clue = color_name(lang, action.color)
    elif action.rank is not None:
        clue = tr(lang, "clue_rank", rank=action.rank)
    if action.to is None or not 0 <= action.to < len(names):  # the content level: no receiver
        return (
            tr(lang, "ev_hint", name=name)
            if clue is None
            else tr(lang, "ev_hint_clue_only", name=name, clue=clue)
        )
    receiver = names[action.to]
    if clue is None:
        return tr(lang, "ev_hint_to", name=name, receiver=receiver)
    if action.slots is None:
        return tr(lang, "ev_hint_clue", name=name, receiver=receiver, clue=clue)
    if not action.slots:
        return tr(lang, "ev_hint_no_slot", name=name, receiver=receiver, clue=clue)
    count = "one" if len(action.slots) == 1 else "many"
    slots = slot_list(lang, sorted(action.slots))
    return tr(lang, f"ev_hint_slots_{count}", name=name, receiver=receiver, clue=clue, slots=slots)


def token_change_text(lang: str, event: Event) -> str:
    """What an action does to the hint tokens, in parentheses (empty if nothing): the
    token won back, or the bonus lost with all 8 there. One wording for the entry's
    preview and for what happened (the ``ev_tokens_gained`` and ``ev_bonus_lost`` texts).

    >>> from engine import Game, GameSetup, Play
    >>> from engine.cards import Card
    >>> game = Game.replay(GameSetup(players=2), [Play(Card.from_code(f"R{r}")) for r in range(1, 5)])
    >>> token_change_text("en", game.preview(Play(Card.from_code("R5"))))
    ' (bonus lost: all 8 hint tokens were there)'
    """
    extras = []
    if event.kind is not EventKind.HINT and event.hints_change > 0:
        key = "ev_tokens_gained_plural" if event.hints_change > 1 else "ev_tokens_gained"
        extras.append(tr(lang, key, n=event.hints_change))
    if event.bonus_lost:
        extras.append(tr(lang, "ev_bonus_lost"))
    return " (" + ", ".join(extras) + ")" if extras else ""


def describe_event(lang: str, event: Event, names: tuple[str, ...]) -> str:
    """One line saying what an action did: "Bo played red 3"."""
    name = names[event.player]
    card = card_name(lang, event.card) if event.card is not None else ""
    if event.kind is EventKind.HINT:
        text = hint_event_text(lang, event, names)
    elif event.kind is EventKind.DISCARD:
        text = tr(lang, "ev_discard", name=name, card=card)
    elif event.kind is EventKind.MISPLAY:
        key = "ev_misplay_announce" if event.announce_right is False else "ev_misplay"
        text = tr(lang, key, name=name, card=card, fuses=event.fuses_after)
    else:
        text = tr(
            lang, "ev_complete" if event.firework_completed else "ev_play", name=name, card=card
        )
    text += token_change_text(lang, event)
    if event.final_round_started:
        text += ". " + tr(lang, "ev_final_round")
    return text


def preview_text(lang: str, event: Event) -> str:
    """What confirming will do: "blue 1: fits: blue firework goes to 1"."""
    card = event.card
    assert card is not None
    color = color_name(lang, card.color)
    if event.kind is EventKind.PLAY:
        text = (
            tr(lang, "will_complete", color=color)
            if event.firework_completed
            else tr(lang, "will_fit", color=color, rank=card.rank)
        )
    elif event.kind is EventKind.MISPLAY:
        key = "will_wrong_announce" if event.announce_right is False else "will_misplay"
        text = tr(lang, key, fuses=event.fuses_after)
    else:
        text = tr(lang, "will_discard")
    text += token_change_text(lang, event)  # as what happened will say it
    if event.end is not None:
        lost = event.end.outcome is Outcome.LOST
        text += " " + tr(lang, "will_lose" if lost else "will_end")
    return f"{card_name(lang, card)} {text}"  # "blue 1 fits: …": one colon, the text's


def preview_words(lang: str, event: Event, names: tuple[str, ...]) -> str:
    """What confirming an action will do, as the panel's entry says it: a play's or a
    discard's outcome; a hint, as it will be told."""
    if event.kind is EventKind.HINT:
        return describe_event(lang, event, names)
    return preview_text(lang, event)
