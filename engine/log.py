"""The game log, ``hanabi-log/1`` (see GAME-LOG.md): parse, write, summarise.

One format serves the journal, the export, ``replay`` and test fixtures.
Parsing is pure (text in, values out); reading files is the caller's job.

An action line is read in two layers. First the **schemas** (``_HintLine``,
``_PlayLine``, ``_DiscardLine``: msgspec Structs that read like GAME-LOG.md's
field table) decode and check it in one pass, and a look-up or two turn it into
its action. Any line they do not take exactly (bad JSON, a wrong type, an
unknown key, a lower-case card, a repeated slot, what the header's hand memory
refuses...) is declined and read again by the **hand-written parser**
(:func:`parse_action`), which accepts what the format allows and words every
refusal. So the schemas say what a line may hold; the hand-written parser says
what is wrong with one. A line the schemas take gives exactly the action the
hand-written parser gives (``tests/engine/test_log_fast.py``); the header is read by
the hand-written parser alone.

>>> text = '''{"format": "hanabi-log/1", "players": 2}
... {"action": "play", "card": "r1"}
... # a comment
... {"action": "hint", "to": 0, "rank": 2}'''
>>> log = parse_log(text)
>>> [type(a).__name__ for a in log.actions], log.lines
(['Play', 'Hint'], [2, 4])
>>> print(format_log(log.setup, log.actions))
{"format": "hanabi-log/1", "players": 2, "names": ["Player 1", "Player 2"]}
{"action": "play", "card": "R1"}
{"action": "hint", "to": 0, "rank": 2}
<BLANKLINE>
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, NoReturn

import msgspec
import orjson

from engine.actions import Action, Discard, Hint, Play
from engine.cards import ALL_CARDS, Card, CardFormatError, Color
from engine.errors import CompanionError, IllegalAction
from engine.game import Game
from engine.memory import SlotKnowledge
from engine.options import OPTION_NAMES, GameOptions
from engine.setup import GameSetup, SetupError

FORMAT = "hanabi-log/1"

_HEADER_KEYS = frozenset(
    {"format", "players", "first_player", "names", "started_at", *OPTION_NAMES}
)
# Cards and colours as the log writes them, found with a look-up (the from_code and
# from_name that say what is wrong are called only when it fails).
_CARD_BY_CODE = {card.code(): card for card in ALL_CARDS}
_COLOR_BY_LABEL = {color.label: color for color in Color}


class LogFormatError(CompanionError, ValueError):
    """The text is not a valid log: bad JSON, unknown key, bad card (exit code 2)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


class LogRuleError(CompanionError, ValueError):
    """The log is well formed but an action breaks a rule (exit code 1)."""

    def __init__(self, line: int, error: IllegalAction) -> None:
        super().__init__(f"line {line}: {error}")
        self.line = line
        self.reason = str(error)
        self.error = error


@dataclass
class GameLog:
    """A parsed log: the set-up, the actions, and the line of each action."""

    setup: GameSetup
    actions: list[Action]
    lines: list[int]
    header_line: int = 1


def parse_log(text: str, *, fast: bool = True) -> GameLog:
    """Parse a whole log. Raises :class:`LogFormatError` with the line at fault.

    ``fast=False`` reads every action line with the hand-written parser alone: the same
    result, slower (the tests compare the two).
    """
    numbered = enumerate(text.split("\n"), start=1)
    for number, raw in numbered:
        obj = _json_of_line(raw, number)
        if obj is _NO_VALUE:
            continue  # a blank line or a comment
        if type(obj) is not dict:
            raise LogFormatError(number, "each line must be a JSON object")
        setup = _parse_header(obj, number)
        break
    else:
        raise LogFormatError(1, "the log is empty: it needs a header line")
    header_line = number
    hand_memory = setup.options.hand_memory
    decode = _ACTION_LINE.decode if fast else _decline
    actions: list[Action] = []
    lines: list[int] = []
    for number, raw in numbered:
        if not raw:
            continue
        try:
            action = decode(raw).to_action(hand_memory)
        except _DECLINED:  # not JSON, or not what a line may hold: the hand-written parser says
            action = None
        if action is None:
            action = _parse_action_line(raw, number, hand_memory)
            if action is None:
                continue  # a blank line or a comment
        actions.append(action)
        lines.append(number)
    return GameLog(setup, actions, lines, header_line)


# The hand-written parser of a line: it takes what the schemas decline, and it words every
# refusal (LogFormatError, with the line).

_NO_VALUE: Any = object()  # what _json_of_line reads from a blank line or a comment


def _json_of_line(raw: str, number: int) -> Any:
    """The JSON value of a line, or _NO_VALUE for a blank line or a comment."""
    # Strict: one JSON value per line; 2.5x the standard library's speed; deep nesting
    # is a JSONDecodeError too (no RecursionError). A line is read as it comes first:
    # one that parses would parse the same stripped (JSON allows spaces around a value).
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        line = raw.strip()
        if not line or line[0] == "#":
            return _NO_VALUE
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError as error:
            raise LogFormatError(number, f"not valid JSON ({error})") from None


def _parse_action_line(raw: str, number: int, hand_memory: bool) -> Action | None:
    """The action of a line after the header, None for a blank line or a comment."""
    obj = _json_of_line(raw, number)
    if obj is _NO_VALUE:
        return None
    try:
        parse = _PARSER_OF[obj["action"]]
    except (KeyError, TypeError):  # not an object, or no known "action"
        parse = parse_action  # refuses it, saying which
    try:
        return parse(obj, hand_memory)
    except ValueError as error:
        raise LogFormatError(number, str(error)) from None


def replay_log(text: str) -> Game:
    """Parse a log and apply it; :class:`LogFormatError` or :class:`LogRuleError` if it fails."""
    log = parse_log(text)
    game = Game(log.setup)
    try:
        game.fold_all(log.actions)  # no event built: replay reads none (Game.events works them out)
    except IllegalAction as error:
        raise LogRuleError(log.lines[len(game.actions)], error) from None
    return game


def _parse_header(obj: dict[str, Any], line: int) -> GameSetup:
    if obj.get("format") != FORMAT:
        raise LogFormatError(
            line, f'the first object must be the header, with "format": "{FORMAT}"'
        )
    unknown = obj.keys() - _HEADER_KEYS
    if unknown:
        raise LogFormatError(line, f"unknown header key {sorted(unknown)[0]!r}")
    if "players" not in obj:
        raise LogFormatError(line, 'the header needs "players" (2 to 5)')
    for key in ("players", "first_player"):
        if key in obj and not _is_int(obj[key]):
            raise LogFormatError(line, f"{key} must be a whole number")
    names = obj.get("names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise LogFormatError(line, "names must be a list of strings")
    started_at = obj.get("started_at")
    if started_at is not None and not isinstance(started_at, str):
        raise LogFormatError(line, "started_at must be a string (ISO 8601 time)")
    try:
        return GameSetup(
            players=obj["players"],
            first_player=obj.get("first_player", 0),
            names=tuple(names),
            options=GameOptions.from_dict(obj),
            started_at=started_at,
        )
    except SetupError as error:
        raise LogFormatError(line, str(error)) from None


def _is_int(value: object) -> bool:
    return type(value) is int


def parse_action(obj: dict[str, Any], hand_memory: bool | None = None) -> Action:
    """Build an action from its JSON object; ``ValueError`` with the reason if malformed.

    With ``hand_memory`` (the header's flag), also what the header asks of the slots: with
    hand memory every action says where its cards were, without none does (GAME-LOG.md,
    "Hand memory"). None (a line alone) asks neither.

    >>> parse_action({"action": "discard", "card": "B1", "player": 1})
    Discard(card=Card(color=<Color.BLUE: 3>, rank=1), player=1, at=None, slot=None)
    >>> parse_action({"action": "discard", "card": "B1"}, hand_memory=True)
    Traceback (most recent call last):
    ...
    ValueError: with hand memory a discard names its "slot"
    """
    try:
        parse = _PARSER_OF[obj["action"]]
    except (KeyError, TypeError):  # no "action", an unknown or unhashable one, not an object
        if type(obj) is not dict:
            raise ValueError("each line must be a JSON object") from None
        raise ValueError(
            f'"action" must be "hint", "play" or "discard", not {obj.get("action")!r}'
        ) from None
    try:
        return parse(obj, hand_memory)
    except CardFormatError as error:
        raise ValueError(str(error)) from None


# A parser for hints and one for plays and discards, found by the line's "action"
# (parse_log calls them directly). Each checks, in this order: no unknown key, "player",
# "at", then the action's own fields, then what the header's hand memory asks. A card or
# colour spelt wrong raises CardFormatError (a ValueError) with its reason.


def _parse_hint(obj: dict[str, Any], hand_memory: bool | None) -> Hint:
    if not _HINT_KEYS.issuperset(obj):
        _refuse_unknown_key(obj, "hint")
    player = obj.get("player")
    if player is not None and type(player) is not int:
        raise ValueError("player must be a seat number")
    at = obj.get("at")
    if at is not None and type(at) is not str:
        raise ValueError("at must be a string (ISO 8601 time)")
    to = obj.get("to")
    if to is not None and type(to) is not int:
        raise ValueError("to must be a seat number")
    rank = obj.get("rank")
    if rank is not None and (type(rank) is not int or not 1 <= rank <= 5):
        raise ValueError("rank must be a number from 1 to 5")
    color = obj.get("color")
    if color is not None:
        color = _COLOR_BY_LABEL.get(color) if type(color) is str else None
        if color is None:
            color = Color.from_name(obj["color"])  # raises, saying what is wrong
    slots = obj.get("slots")
    if slots is not None:
        slots = _parse_slots(slots)
    if hand_memory:
        if to is None or (color is None and rank is None):
            raise ValueError('with hand memory a hint names "to" and a "color" or a "rank"')
        if slots is None:
            raise ValueError('with hand memory a hint lists the "slots" it touched')
    elif slots is not None and hand_memory is not None:
        raise ValueError('"slots" needs "hand_memory": true in the header')
    return Hint(to, color, rank, player, at, slots)


def _parse_card_action(obj: dict[str, Any], hand_memory: bool | None) -> Play | Discard:
    """A play or a discard: they share their fields but a play's "announce"."""
    kind = obj["action"]
    play = kind == "play"
    if not (_PLAY_KEYS if play else _DISCARD_KEYS).issuperset(obj):
        _refuse_unknown_key(obj, kind)
    player = obj.get("player")
    if player is not None and type(player) is not int:
        raise ValueError("player must be a seat number")
    at = obj.get("at")
    if at is not None and type(at) is not str:
        raise ValueError("at must be a string (ISO 8601 time)")
    code = obj.get("card")
    if code is None:
        raise ValueError(f'a {kind} action needs its card, like "card": "R3"')
    card = _CARD_BY_CODE.get(code) if type(code) is str else None
    if card is None:
        card = Card.from_code(code)  # lower case, or raises saying what is wrong
    slot = obj.get("slot")
    if slot is not None and (type(slot) is not int or slot < 1):
        raise ValueError("slot must be a whole number from 1")
    announce = obj.get("announce") if play else None
    if announce is not None:
        announce = _COLOR_BY_LABEL.get(announce) if type(announce) is str else None
        if announce is None:
            announce = Color.from_name(obj["announce"])  # raises, saying what is wrong
    if hand_memory is not None and (slot is None) == hand_memory:
        _refuse_slot(kind, hand_memory)
    if play:
        return Play(card, announce, player, at, slot)
    return Discard(card, player, at, slot)


def _refuse_slot(kind: str, hand_memory: bool) -> NoReturn:
    """A play's or a discard's slot against the header: with hand memory one, without none."""
    if hand_memory:
        raise ValueError(f'with hand memory a {kind} names its "slot"')
    raise ValueError('"slot" needs "hand_memory": true in the header')


def _refuse_unknown_key(obj: dict[str, Any], kind: str) -> NoReturn:
    unknown = sorted(set(obj) - _ACTION_KEYS[kind])[0]
    raise ValueError(f"unknown key {unknown!r} in a {kind} action")


_ACTION_KEYS = {
    "hint": frozenset({"action", "to", "color", "rank", "player", "at", "slots"}),
    "play": frozenset({"action", "card", "announce", "player", "at", "slot"}),
    "discard": frozenset({"action", "card", "player", "at", "slot"}),
}
_HINT_KEYS, _PLAY_KEYS, _DISCARD_KEYS = (_ACTION_KEYS[kind] for kind in ("hint", "play", "discard"))
_PARSER_OF: dict[str, Callable[[dict[str, Any], bool | None], Action]] = {
    "hint": _parse_hint,
    "play": _parse_card_action,
    "discard": _parse_card_action,
}


_SLOTS_SPELLING = "slots must be a list of whole numbers from 1, like [1, 4]"


def _parse_slots(value: object) -> tuple[int, ...]:
    """The ``slots`` of a hint: distinct whole numbers from 1 (GAME-LOG.md, "Hand memory")."""
    if type(value) is not list:
        raise ValueError(_SLOTS_SPELLING)
    for slot in value:
        if type(slot) is not int or slot < 1:
            raise ValueError(_SLOTS_SPELLING)
    if len(set(value)) < len(value):
        repeated = next(slot for slot in value if value.count(slot) > 1)
        raise ValueError(f"slot {repeated} is listed twice in slots")
    return tuple(value)


# -- the schemas: what an action line may hold, decoded and checked in one pass by msgspec --
# A line a schema takes exactly becomes its action with a look-up or two. Any other line is
# declined, and read again by the hand-written parser above, which words the refusal:
# msgspec refuses it (DecodeError, ValidationError), a card or colour is not in the tables
# (KeyError: a lower-case card is the hand-written parser's), or to_action raises
# _Declined (what the header's hand memory refuses, a slot listed twice). So a schema may
# be stricter than the format, never looser: declining a line costs time, not meaning.

# orjson reads whole numbers up to 64 bits as int, beyond as float (which the hand-written
# parser refuses); msgspec reads any size, so a schema bounds them (int64: narrower, so safe).
_WholeNumber = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
_SlotNumber = Annotated[int, msgspec.Meta(ge=1, le=2**63 - 1)]
_Rank = Annotated[int, msgspec.Meta(ge=1, le=5)]
# The colour of a label the log writes, or None for no colour (KeyError for anything else).
_COLOR_OR_NONE: dict[str | None, Color | None] = {None: None}
_COLOR_OR_NONE.update(_COLOR_BY_LABEL.items())


class _Declined(CompanionError, ValueError):
    """A line the schemas leave to the hand-written parser (never seen outside this module)."""


class _HintLine(
    msgspec.Struct, tag_field="action", tag="hint", forbid_unknown_fields=True, gc=False
):
    """``{"action": "hint", ...}``: the fields GAME-LOG.md lists for a hint, all optional."""

    to: _WholeNumber | None = None
    color: str | None = None  # a label of _COLOR_BY_LABEL
    rank: _Rank | None = None
    player: _WholeNumber | None = None
    at: str | None = None
    slots: tuple[_SlotNumber, ...] | None = None

    def to_action(self, hand_memory: bool | None) -> Hint:
        """The hint; _Declined (or KeyError) where the hand-written parser has the last word.

        With hand memory a hint names its receiver, a clue and its slots, without it no slots
        (``(x is None) is hand_memory`` is never true for None: a line alone asks neither).
        """
        color = _COLOR_OR_NONE[self.color]
        slots = self.slots
        if (slots is None) is hand_memory or (
            hand_memory and (self.to is None or (color is None and self.rank is None))
        ):
            raise _Declined
        if slots is not None and len(slots) > 1 and len(set(slots)) < len(slots):
            raise _Declined  # a slot listed twice
        return Hint(self.to, color, self.rank, self.player, self.at, slots)


class _PlayLine(
    msgspec.Struct, tag_field="action", tag="play", forbid_unknown_fields=True, gc=False
):
    """``{"action": "play", "card": "R3", ...}``."""

    card: str  # a code of _CARD_BY_CODE (upper case)
    announce: str | None = None  # a label of _COLOR_BY_LABEL
    player: _WholeNumber | None = None
    at: str | None = None
    slot: _SlotNumber | None = None

    def to_action(self, hand_memory: bool | None) -> Play:
        """The play; _Declined (or KeyError) where the hand-written parser has the last word."""
        if (self.slot is None) is hand_memory:
            raise _Declined  # with hand memory a slot, without none
        return Play(
            _CARD_BY_CODE[self.card], _COLOR_OR_NONE[self.announce], self.player, self.at, self.slot
        )


class _DiscardLine(
    msgspec.Struct, tag_field="action", tag="discard", forbid_unknown_fields=True, gc=False
):
    """``{"action": "discard", "card": "B1", ...}``."""

    card: str  # a code of _CARD_BY_CODE (upper case)
    player: _WholeNumber | None = None
    at: str | None = None
    slot: _SlotNumber | None = None

    def to_action(self, hand_memory: bool | None) -> Discard:
        """The discard; _Declined (or KeyError) where the hand-written parser has the last
        word."""
        if (self.slot is None) is hand_memory:
            raise _Declined  # with hand memory a slot, without none
        return Discard(_CARD_BY_CODE[self.card], self.player, self.at, self.slot)


_ActionLine = _HintLine | _PlayLine | _DiscardLine
_ACTION_LINE: msgspec.json.Decoder[_ActionLine] = msgspec.json.Decoder(_ActionLine)
# What reading a line the schemas do not take raises: msgspec's DecodeError and
# ValidationError, _Declined and UnicodeEncodeError (a lone surrogate in the text) are
# ValueErrors; KeyError from the look-ups; RecursionError for absurd nesting (msgspec skips
# an unknown value by recursion).
_DECLINED = (ValueError, KeyError, RecursionError)


def fast_action(line: str, hand_memory: bool | None) -> Action | None:
    """The action of a line as the schemas read it, or None: the hand-written parser decides.

    When not None, it is what :func:`parse_action` makes of the line's JSON object.

    >>> fast_action('{"action": "play", "card": "R1", "slot": 2}', hand_memory=True)
    Play(card=Card(color=<Color.RED: 0>, rank=1), announce=None, player=None, at=None, slot=2)
    >>> fast_action('{"action": "play", "card": "r1", "slot": 2}', hand_memory=True) is None
    True
    """
    try:
        return _ACTION_LINE.decode(line).to_action(hand_memory)
    except _DECLINED:
        return None


def _decline(line: str) -> NoReturn:
    """The decoder of ``parse_log(fast=False)``: declines every line."""
    raise _Declined(line)


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON object of an action, keys in a stable order."""
    out: dict[str, Any]
    if isinstance(action, Hint):
        out = {"action": "hint"}
        if action.player is not None:
            out["player"] = action.player
        if action.to is not None:
            out["to"] = action.to
        if action.color is not None:
            out["color"] = action.color.label
        if action.rank is not None:
            out["rank"] = action.rank
        if action.slots is not None:
            out["slots"] = list(action.slots)
    else:
        out = {"action": "play" if isinstance(action, Play) else "discard"}
        if action.player is not None:
            out["player"] = action.player
        out["card"] = action.card.code()
        if isinstance(action, Play) and action.announce is not None:
            out["announce"] = action.announce.label
        if action.slot is not None:
            out["slot"] = action.slot
    if action.at is not None:
        out["at"] = action.at
    return out


def setup_to_dict(setup: GameSetup) -> dict[str, Any]:
    """The header object of a log; options only when they differ from the default."""
    out: dict[str, Any] = {"format": FORMAT, "players": setup.players}
    if setup.first_player:
        out["first_player"] = setup.first_player
    out["names"] = list(setup.names)
    out.update(setup.options.to_dict())
    if setup.started_at is not None:
        out["started_at"] = setup.started_at
    return out


def dump_line(obj: dict[str, Any]) -> str:
    """One log line (no newline)."""
    return json.dumps(obj, ensure_ascii=False)


def format_log(setup: GameSetup, actions: list[Action]) -> str:
    """The whole log text, one object per line, ending with a newline."""
    lines = [dump_line(setup_to_dict(setup))]
    lines.extend(dump_line(action_to_dict(action)) for action in actions)
    return "\n".join(lines) + "\n"


def summary(game: Game) -> dict[str, Any]:
    """The object ``replay`` prints (GAME-LOG.md, "Replaying")."""
    position = game.position
    outcome, reason, rating = game.outcome, game.end_reason, game.rating
    out: dict[str, Any] = {
        "status": "over" if game.is_over else "playing",
        "outcome": None if outcome is None else outcome.value,
        "end_reason": None if reason is None else reason.value,
        "score": game.score,
        "max_score": game.max_score,
        "rating": None if rating is None else rating.value,
        "hints": position.hints,
        "fuses": position.fuses,
        "deck": position.deck,
        "turns": position.turns,
        "current_player": game.current_player,
        "final_round_turns_left": position.final_round_turns_left,
        "fireworks": {color.label: position.fireworks[color] for color in game.setup.colors},
        "discards": [card.code() for card in sorted(position.discards)],
    }
    if position.memory is not None:
        out["hands"] = [
            [slot_to_dict(slot) for slot in game.hand_memory(seat)]
            for seat in range(game.setup.players)
        ]
    return out


def slot_to_dict(slot: SlotKnowledge) -> dict[str, list[Any]]:
    """What a slot may still be, as ``replay`` prints it: colours in suit order, ranks up.

    >>> from engine.options import GameOptions
    >>> slot_to_dict(SlotKnowledge(SlotKnowledge.fresh(GameOptions()).colors, frozenset({4, 2})))
    {'colors': ['red', 'yellow', 'green', 'blue', 'white'], 'ranks': [2, 4]}
    """
    return {
        "colors": [color.label for color in sorted(slot.colors)],
        "ranks": sorted(slot.ranks),
    }
