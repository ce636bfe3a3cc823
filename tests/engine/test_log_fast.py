"""The log's one parser of an action line (engine/log.py): the schemas read a line and the
refusals are worded in the format's sentences, whatever the line holds."""

import json
import random
import re
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import ALL_CARDS, Color
from engine.log import (
    _ACTION_LINE,
    FORMAT,
    LogFormatError,
    _parse_action_line,
    action_to_dict,
    dump_line,
    format_log,
    parse_action,
    parse_log,
)
from engine.options import GameOptions
from engine.setup import GameSetup
from engine.table import SimulatedTable

PROPERTY = settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))

# -- action lines near the schemas: right and wrong types, odd spellings, JSON corners -------

FIELDS = ["to", "color", "rank", "player", "at", "slots", "card", "announce", "slot"]
ODD_KEYS = ["action", "Card", "x", "", "format", "\\u0061ction", "t\\u006f", "slot\\u0073"]
HUGE = [2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1, 10**30, -(10**30)]
STRINGS = [
    *("hint", "play", "discard", "Hint", "PLAY", "red", "Red", "multicolor", "purple", ""),
    *(card.code() for card in ALL_CARDS[::7]),
    *("r1", "m5", "R6", "R0", "X1", "R", "R11", "2026-11-21T06:01:02Z", "\x00", "\x7f", "é"),
    *("\ud800", "\udc00\ud800", "\ud83d\ude00", "😀", " red", "red ", "\\u0072ed"),
]  # fmt: skip
# Values written as raw JSON text: numbers and literals json.dumps would not write.
RAW_VALUES = ["1.0", "1e0", "-0", "01", "1e400", "NaN", "true", "[1, 1.0]", "[]", "{}", '"\\ud800"']

wild = (
    st.none()
    | st.booleans()
    | st.integers(-2, 7)
    | st.sampled_from(HUGE)
    | st.floats(allow_nan=False)
    | st.sampled_from(STRINGS)
    | st.text(max_size=4)
    | st.lists(st.integers(-1, 6) | st.sampled_from([True, 2.0, 2**64]), max_size=5)
)
seats = st.integers(-2, 6) | st.sampled_from(HUGE)
colours = st.sampled_from([color.label for color in Color] + ["Red", "purple"])
# Most often a value of the key's own kind (so that many lines are taken), else any value.
NEAR = {
    "to": seats,
    "player": seats,
    "rank": st.integers(0, 6),
    "color": colours,
    "announce": colours,
    "card": st.sampled_from([card.code() for card in ALL_CARDS] + ["r1", "R0", "X1"]),
    "at": st.sampled_from(STRINGS) | st.text(st.characters(exclude_categories=()), max_size=5),
    "slots": st.lists(st.integers(0, 6) | st.sampled_from(HUGE[:2]), max_size=5),
    "slot": st.integers(0, 6) | st.sampled_from(HUGE),
}


@st.composite
def json_texts(draw, value):
    """A value as JSON text: json.dumps escaped or not, or raw text."""
    if draw(st.integers(0, 19)) == 0:
        return draw(st.sampled_from(RAW_VALUES))
    return json.dumps(value, ensure_ascii=draw(st.booleans()))


@st.composite
def action_lines(draw):
    """A line of one object whose keys and values are near an action's."""
    members = []
    kinds = st.sampled_from(["hint", "play", "discard"])
    action = draw(kinds if draw(st.integers(0, 5)) else st.sampled_from([None, "Hint", 1]))
    if action is not None:
        members.append(("action", json.dumps(action)))
    if action == "hint" and draw(st.booleans()):  # a well-formed hand-memory hint, often
        slots = draw(st.lists(st.integers(1, 5), max_size=4))  # sometimes one twice
        members += [("to", "1"), ("color", '"red"'), ("slots", json.dumps(slots))]
    if action in ("play", "discard") and draw(st.booleans()):
        members += [("card", json.dumps(draw(st.sampled_from(STRINGS[10:20])))), ("slot", "2")]
    keys = st.sampled_from(FIELDS * 4 + ODD_KEYS)  # an odd key about once in six
    for key in draw(st.lists(keys, max_size=4)):
        near = NEAR.get(key)
        value = draw(wild if near is None or draw(st.integers(0, 3)) == 0 else near)
        members.append((key, draw(json_texts(value))))
    order = draw(st.permutations(members))
    if action is not None and draw(st.integers(0, 9)) == 0:  # a second "action"
        order.append(("action", json.dumps(draw(st.sampled_from(["hint", "play", "discard"])))))
    body = ", ".join(f'"{key}": {value}' for key, value in order)
    space = st.sampled_from(["", " ", "\t", "\r", "\x0c", "\xa0", "\ufeff"])
    before, after = (draw(space) if draw(st.integers(0, 4)) == 0 else "" for _ in range(2))
    return before + "{" + body + "}" + after


# Every sentence the format refuses an action line with (GAME-LOG.md; tests/engine/test_log.py
# pins them word for word): a refusal is one of them, never msgspec's own words.
REFUSAL_WORDS = re.compile(
    "|".join(
        re.escape(words)
        for words in (
            "not valid JSON (",
            "each line must be a JSON object",
            '"action" must be "hint", "play", "discard" or "reveal", not ',
            '" is written twice',
            "unknown key ",
            "action needs its card, like",
            "player must be a seat number",
            "to must be a seat number",
            "at must be a string (ISO 8601 time)",
            "rank must be a number from 1 to 5",
            "slot must be a whole number from 1",
            "slots must be a list of whole numbers from 1",
            "is listed twice in slots",
            "is not a card: a suit letter",
            "is not a colour (",
            "with hand memory a ",
            'needs "hand_memory": true in the header',
        )
    )
)


def read(line, hand_memory):
    """What the parser makes of a line: an action, None (blank), or the refusal."""
    try:
        return _parse_action_line(line, 2, hand_memory)
    except LogFormatError as error:
        return error


def taken(line, hand_memory):
    """The action of a line the schemas take at once (no word needed), else None."""
    try:
        return _ACTION_LINE.decode(line).to_action(hand_memory)
    except ValueError:
        return None


@PROPERTY
@given(action_lines(), st.sampled_from([True, False, None]))
def test_log_fast_a_line_reads_as_its_action_or_is_refused_in_the_formats_words(line, hand_memory):
    """For any line, the parser gives an action that the log writer writes back to a line
    read as the same action (same kind, same fields, same types), or refuses it on its line
    in one of the format's sentences; what the schemas take at once is that action."""
    result = read(line, hand_memory)
    if isinstance(result, LogFormatError):
        assert result.line == 2 and REFUSAL_WORDS.search(result.reason), (line, result)
        assert taken(line, hand_memory) is None
        return
    assert result is not None, line  # a line of one object is never a comment
    written = dump_line(action_to_dict(result))
    assert repr(read(written, hand_memory)) == repr(result)
    fast = taken(line, hand_memory)
    assert fast is None or repr(fast) == repr(result)
    if hand_memory is not None:
        assert parse_action(json.loads(written), hand_memory) == result


def outcome(text):
    try:
        return parse_log(text)
    except LogFormatError as error:
        return ("refused", error.line, error.reason)


@PROPERTY
@given(
    st.sampled_from([None, False, True]),
    st.lists(action_lines() | st.sampled_from(["", "  ", "# a comment", "[1]", "{"]), max_size=6),
)
def test_log_fast_parse_log_gives_each_lines_action_or_the_first_refusal(hand_memory, lines):
    """parse_log gives the GameLog of the lines read one by one, or the LogFormatError (words
    and line) of the first line refused."""
    header = {"format": FORMAT, "players": 3}
    if hand_memory is not None:
        header["hand_memory"] = hand_memory
    text = "\n".join(["# before the header", json.dumps(header), *lines])
    expected_actions, expected_lines, refused = [], [], None
    for number, line in enumerate(lines, start=3):
        result = _line_alone(line, number, bool(hand_memory))
        if isinstance(result, LogFormatError):
            refused = ("refused", number, result.reason)
            break
        if result is not None:
            expected_actions.append(result)
            expected_lines.append(number)
    got = outcome(text)
    if refused is not None:
        assert got == refused
        assert REFUSAL_WORDS.search(refused[2]), refused
    else:
        assert repr(got.actions) == repr(expected_actions)
        assert got.lines == expected_lines and got.header_line == 2


def _line_alone(line, number, hand_memory):
    try:
        return _parse_action_line(line, number, hand_memory)
    except LogFormatError as error:
        return error


# -- the lines a table writes are all taken by the schemas (the benchmark's figure is real) ---


def played_logs(hand_memory):
    rng = random.Random(23)
    for players in (2, 3, 4, 5):
        options = GameOptions(hand_memory=hand_memory)
        game = SimulatedTable(GameSetup(players=players, options=options), rng).play_out()
        yield format_log(game.setup, game.actions)


def slow_reads(text):
    """How many lines parse_log(text) reads a second time, to skip a comment or word a
    refusal (every call is a line the schemas did not take at once), counted with a profiler,
    not a mock."""
    calls = 0
    code = _parse_action_line.__code__

    def profile(frame, event, arg):
        nonlocal calls
        if event == "call" and frame.f_code is code:
            calls += 1

    sys.setprofile(profile)
    try:
        parse_log(text)
    finally:
        sys.setprofile(None)
    return calls


def test_log_fast_every_line_a_table_writes_is_taken_by_the_schemas():
    """Every action line of whole games, with hand memory and without (as the log writer and
    HLE's benchmark logs write them), is taken by the schemas at once: none is read a second
    time, so the benchmark's figure is the schemas' one."""
    for hand_memory in (True, False):
        for text in played_logs(hand_memory):
            log = parse_log(text)
            lines = text.split("\n")
            kinds = set()
            for action, number in zip(log.actions, log.lines, strict=True):
                assert taken(lines[number - 1], hand_memory) == action
                kinds.add(type(action).__name__)
            assert kinds == {"Hint", "Play", "Discard"}
            assert slow_reads(text) == 0
            # the count sees the lines read twice: a comment; a lower-case card is taken at once
            assert slow_reads(text + "# the end\n") == 1
            lower = text.replace('"R', '"r', 1)
            assert parse_log(lower).actions == log.actions
            assert slow_reads(lower) == 0


def test_log_fast_the_hle_style_lines_are_taken_by_the_schemas():
    """The lines of the HLE benchmark's logs: a hint with slots, a play, a discard."""
    lines_by_header = {
        True: [
            '{"action": "hint", "player": 0, "to": 1, "color": "yellow", "slots": [2, 4, 5]}',
            '{"action": "hint", "player": 1, "to": 0, "rank": 1, "slots": [1]}',
            '{"action": "play", "player": 1, "card": "Y1", "slot": 2}',
            '{"action": "discard", "player": 0, "card": "B4", "slot": 5}',
        ],
        False: [
            '{"action": "hint", "player": 0, "to": 1, "color": "yellow"}',
            '{"action": "hint", "player": 1, "to": 0, "rank": 1}',
            '{"action": "play", "player": 1, "card": "Y1"}',
            '{"action": "discard", "player": 0, "card": "B4"}',
        ],
    }
    for hand_memory, lines in lines_by_header.items():
        for line in lines:
            assert taken(line, hand_memory=hand_memory) is not None
            # slots need hand memory, and hand memory needs the slots
            assert taken(line, hand_memory=not hand_memory) is None


def test_log_fast_refused_lines_are_refused_in_the_formats_words():
    """A line the schemas refuse is refused in the format's words, on its line."""
    cases = {
        '{"action": "hint", "to": 1, "rank": 2, "slots": [1, 1]}': "slot 1 is listed twice",
        '{"action": "hint", "to": 18446744073709551616}': "to must be a seat number",
        '{"action": "play", "card": "R1", "action": "dance"}': '"action" must be',
        '{"action": "play", "card": "R1"} x': "not valid JSON",
        '{"action": "discard", "card": "R9"}': "'R9' is not a card",
        '{"action": "hint", "color": "purple"}': "'purple' is not a colour",
    }
    for line, words in cases.items():
        text = "\n".join(['{"format": "hanabi-log/1", "players": 3}', "", line])
        try:
            parse_log(text)
        except LogFormatError as error:
            assert error.line == 3 and words in error.reason, (line, error)
        else:
            raise AssertionError(f"{line} was taken")
        assert taken(line, hand_memory=False) is None


def test_log_fast_lower_case_cards_are_read_as_upper_case():
    """The log writes R3; the format allows r3 too, read to the same action."""
    text = '{"format": "hanabi-log/1", "players": 2}\n{"action": "play", "card": "r1"}\n'
    assert taken('{"action": "play", "card": "r1"}', False) == taken(
        '{"action": "play", "card": "R1"}', False
    )
    assert parse_log(text).actions[0].card.color is Color.RED
