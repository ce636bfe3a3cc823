"""The game log, ``hanabi-log/1`` (see GAME-LOG.md): its parser, its writer and its summary.

One format serves the journal, the export, ``replay`` and test fixtures.
Parsing is pure (text in, values out); reading files is the caller's job.

An action line is read by one parser: the **schemas** (``_HintLine``, ``_PlayLine``,
``_DiscardLine``: msgspec Structs that read like GAME-LOG.md's field table) decode and
check it in one pass, and :meth:`to_action` turns it into its action, checking what the
header's hand memory asks. A line they refuse is refused in words: :func:`_refusal`
says which field is wrong, in the sentence of the format (``rank must be a number from
1 to 5``), from msgspec's error and the line's JSON object. The header is read on its own
(:func:`_parse_header`).

>>> text = \'\'\'{"format": "hanabi-log/1", "players": 2}
... {"action": "play", "card": "r1"}
... # a comment
... {"action": "hint", "to": 0, "rank": 2}\'\'\'
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
import re
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec

from engine.actions import Action, Discard, Hint, Play
from engine.cards import ALL_CARDS, Card, Color
from engine.errors import CompanionError, IllegalAction
from engine.game import Game
from engine.memory import SlotKnowledge
from engine.options import OPTION_NAMES, GameOptions
from engine.setup import GameSetup, SetupError

FORMAT = "hanabi-log/1"

_HEADER_KEYS = frozenset(
    {"format", "players", "first_player", "names", "started_at", "variant", *OPTION_NAMES}
)
# Cards and colours as the log writes them, found with a look-up (the from_code and
# from_name that read other spellings, or say what is wrong, are called only when it fails).
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


def parse_log(text: str) -> GameLog:
    """Parse a whole log. Raises :class:`LogFormatError` with the line at fault."""
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
    actions: list[Action] = []
    lines: list[int] = []
    action: Action | None
    for number, raw in numbered:
        if not raw:
            continue
        try:
            action = _ACTION_LINE.decode(raw).to_action(hand_memory)
        except _NOT_TAKEN:  # a comment, spaces around the line, or a refusal to word
            action = _parse_action_line(raw, number, hand_memory)
            if action is None:
                continue  # a blank line or a comment
        actions.append(action)
        lines.append(number)
    return GameLog(setup, actions, lines, header_line)


_NO_VALUE: Any = object()  # what _json_of_line reads from a blank line or a comment


def _json_of_line(raw: str, number: int) -> Any:
    """The JSON value of a line, or _NO_VALUE for a blank line or a comment."""
    line = raw.strip()
    if not line or line[0] == "#":
        return _NO_VALUE
    try:
        return msgspec.json.decode(line)
    except (msgspec.DecodeError, UnicodeEncodeError, RecursionError) as error:
        # strict: one JSON value per line; a lone surrogate or absurd nesting is refused too
        raise LogFormatError(number, f"not valid JSON ({error})") from None


def _parse_action_line(raw: str, number: int, hand_memory: bool) -> Action | None:
    """The action of a line after the header, None for a blank line or a comment; a
    :class:`LogFormatError` in words for a line the schemas refuse."""
    line = raw.strip()
    if not line or line[0] == "#":
        return None
    try:
        return _ACTION_LINE.decode(line).to_action(hand_memory)
    except (msgspec.DecodeError, UnicodeEncodeError, RecursionError) as error:
        obj = _json_of_line(line, number)  # not JSON: refused there
        reason = _refusal(error, obj, _key_twice(line) if type(obj) is dict else None)
    except ValueError as error:  # to_action's words, or a card's or a colour's
        reason = str(error)
    raise LogFormatError(number, reason)


def _key_twice(line: str) -> str | None:
    """A key the line's object has twice (JSON allows it), or None."""
    try:
        pairs = json.loads(line, object_pairs_hook=lambda pairs: pairs)
    except (ValueError, RecursionError):
        return None
    keys = [key for key, _ in pairs] if type(pairs) is list else []
    return next((key for key in keys if keys.count(key) > 1), None)


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
    if "variant" in obj and ("multicolor" in obj or "wild_multicolor" in obj):
        raise LogFormatError(
            line, 'with "variant", "multicolor" and "wild_multicolor" must be absent'
        )
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
        line: _ActionLine = msgspec.convert(obj, _ActionLine)
    except msgspec.ValidationError as error:
        raise ValueError(_refusal(error, obj)) from None
    return line.to_action(hand_memory)


# -- the schemas: what an action line may hold, decoded and checked in one pass by msgspec --

# Whole numbers up to 64 bits, signed (msgspec bounds no wider); a larger one is refused.
_WholeNumber = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
_SlotNumber = Annotated[int, msgspec.Meta(ge=1, le=2**63 - 1)]
_Rank = Annotated[int, msgspec.Meta(ge=1, le=5)]


def _color(label: str | None) -> Color | None:
    """The colour of a label (None for none); CardFormatError, in words, for no colour."""
    if label is None:
        return None
    color = _COLOR_BY_LABEL.get(label)
    return color if color is not None else Color.from_name(label)


class _HintLine(
    msgspec.Struct, tag_field="action", tag="hint", forbid_unknown_fields=True, gc=False
):
    """The schema of a hint's line, ``{"action": "hint", ...}``: its fields, all optional."""

    to: _WholeNumber | None = None
    color: str | None = None  # a colour's label
    rank: _Rank | None = None
    player: _WholeNumber | None = None
    at: str | None = None
    slots: tuple[_SlotNumber, ...] | None = None

    def to_action(self, hand_memory: bool | None) -> Hint:
        """The hint; ``ValueError`` in words for a colour that is none, a slot listed twice,
        or what the header's hand memory refuses (None: a line alone asks nothing)."""
        color = _color(self.color)
        slots = self.slots
        if slots is not None and len(slots) > 1 and len(set(slots)) < len(slots):
            repeated = next(slot for slot in slots if slots.count(slot) > 1)
            raise ValueError(f"slot {repeated} is listed twice in slots")
        if hand_memory:
            if self.to is None or (color is None and self.rank is None):
                raise ValueError('with hand memory a hint names "to" and a "color" or a "rank"')
            if slots is None:
                raise ValueError('with hand memory a hint lists the "slots" it touched')
        elif slots is not None and hand_memory is not None:
            raise ValueError(_SLOT_NEEDS_HAND_MEMORY.replace("slot", "slots", 1))
        return Hint(self.to, color, self.rank, self.player, self.at, slots)


class _PlayLine(
    msgspec.Struct, tag_field="action", tag="play", forbid_unknown_fields=True, gc=False
):
    """The schema of a play's line, ``{"action": "play", "card": "R3", ...}``."""

    card: str  # a card's code, R3 (or r3)
    announce: str | None = None  # a colour's label
    player: _WholeNumber | None = None
    at: str | None = None
    slot: _SlotNumber | None = None

    def to_action(self, hand_memory: bool | None) -> Play:
        """The play; ``ValueError`` in words as :meth:`_HintLine.to_action`."""
        card = _CARD_BY_CODE.get(self.card) or Card.from_code(self.card)
        announce = _color(self.announce)
        if (self.slot is None) is hand_memory:
            _refuse_slot("play", hand_memory)
        return Play(card, announce, self.player, self.at, self.slot)


class _DiscardLine(
    msgspec.Struct, tag_field="action", tag="discard", forbid_unknown_fields=True, gc=False
):
    """The schema of a discard's line, ``{"action": "discard", "card": "B1", ...}``."""

    card: str  # a card's code, B1 (or b1)
    player: _WholeNumber | None = None
    at: str | None = None
    slot: _SlotNumber | None = None

    def to_action(self, hand_memory: bool | None) -> Discard:
        """The discard; ``ValueError`` in words as :meth:`_HintLine.to_action`."""
        card = _CARD_BY_CODE.get(self.card) or Card.from_code(self.card)
        if (self.slot is None) is hand_memory:
            _refuse_slot("discard", hand_memory)
        return Discard(card, self.player, self.at, self.slot)


_SLOT_NEEDS_HAND_MEMORY = '"slot" needs "hand_memory": true in the header'


def _refuse_slot(kind: str, hand_memory: bool) -> None:
    """A play's or a discard's slot against the header: with hand memory one, without none."""
    if hand_memory:
        raise ValueError(f'with hand memory a {kind} names its "slot"')
    raise ValueError(_SLOT_NEEDS_HAND_MEMORY)


_ActionLine = _HintLine | _PlayLine | _DiscardLine
_ACTION_LINE: msgspec.json.Decoder[_ActionLine] = msgspec.json.Decoder(_ActionLine)
# What reading a line the schemas do not take at once raises: msgspec's DecodeError and
# ValidationError, to_action's words and UnicodeEncodeError (a lone surrogate in the text)
# are ValueErrors; RecursionError for absurd nesting.
_NOT_TAKEN = (ValueError, RecursionError)

# -- a refusal in words: which field is wrong, in the format's sentence ---------------------

_ACTION_KEYS = {
    "hint": frozenset({"action", "to", "color", "rank", "player", "at", "slots"}),
    "play": frozenset({"action", "card", "announce", "player", "at", "slot"}),
    "discard": frozenset({"action", "card", "player", "at", "slot"}),
}
_FIELD_WORDS = {
    "player": "player must be a seat number",
    "at": "at must be a string (ISO 8601 time)",
    "to": "to must be a seat number",
    "rank": "rank must be a number from 1 to 5",
    "slot": "slot must be a whole number from 1",
    "slots": "slots must be a list of whole numbers from 1, like [1, 4]",
}
_FIELD_AT = re.compile(r"at `\$\.([a-z]+)")


def _refusal(error: Exception, obj: Any, twice: str | None = None) -> str:
    """Why the schemas refused ``obj`` (the line's JSON value), in the format's words:
    msgspec's ``error`` says which field; a card or a colour says what is wrong itself."""
    if type(obj) is not dict:
        return "each line must be a JSON object"
    kind = obj.get("action")
    if type(kind) is not str or kind not in _ACTION_KEYS:
        return f'"action" must be "hint", "play" or "discard", not {kind!r}'
    if twice is not None:  # the schemas read one of its values, a JSON object the last
        return f"{json.dumps(twice, ensure_ascii=False)} is written twice"
    found = _FIELD_AT.search(str(error))
    field = found.group(1) if found else ""
    unknown = set(obj) - _ACTION_KEYS[kind]
    if unknown:
        return f"unknown key {sorted(unknown)[0]!r} in a {kind} action"
    if kind != "hint" and "card" not in obj:
        return f'a {kind} action needs its card, like "card": "R3"'
    try:
        if field == "card":
            Card.from_code(obj["card"])  # raises, saying what is wrong
        elif field in ("color", "announce"):
            Color.from_name(obj[field])  # raises, saying what is wrong
    except ValueError as wrong:
        return str(wrong)
    return _FIELD_WORDS.get(field) or f"not a valid {kind} action ({error})"


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
        "hints": game.setup.hint_tokens(position.hints),
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
