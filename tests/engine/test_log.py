"""The game log (GAME-LOG.md): parse, format, summary, and a parser fuzz."""

import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from support.variants import ALL_BUT_CROWNING

from engine import Discard, GameSetup, Hint, Multicolor, Play, SetupError
from engine import errors as e
from engine.cards import Card, Color
from engine.log import (
    FORMAT,
    LogFormatError,
    LogRuleError,
    action_to_dict,
    format_log,
    parse_action,
    parse_log,
    replay_log,
    setup_to_dict,
    summary,
)
from engine.options import GameOptions
from engine.table import SimulatedTable

HEADER = '{"format": "hanabi-log/1", "players": 3}'
SUMMARY_KEYS = {
    "status", "outcome", "end_reason", "score", "max_score", "rating", "hints", "fuses",
    "deck", "turns", "current_player", "final_round_turns_left", "fireworks", "discards",
}  # fmt: skip


def header(**keys):
    return json.dumps({"format": FORMAT, "players": 3, **keys})


def log(*lines, head=HEADER):
    return "\n".join([head, *lines]) + "\n"


def format_error(text):
    with pytest.raises(LogFormatError) as raised:
        replay_log(text)
    return raised.value


def rule_error(text):
    with pytest.raises(LogRuleError) as raised:
        replay_log(text)
    return raised.value


@st.composite
def setups(draw):
    players = draw(st.integers(2, 5))
    options = {
        "players": players,
        "first_player": draw(st.integers(0, players - 1)),
        "options": draw(st.sampled_from(GameOptions.every())),  # every option, any value
        "started_at": draw(st.none() | st.just("2026-11-21T06:00:00Z")),
    }
    if draw(st.booleans()):
        options["names"] = tuple(
            draw(st.lists(st.text(min_size=1, max_size=8), min_size=players, max_size=players))
        )
    try:
        return GameSetup(**options)
    except SetupError:
        assume(False)


@st.composite
def played_games(draw):
    setup = draw(setups())
    table = SimulatedTable(setup, random.Random(draw(st.integers(0, 2**32 - 1))))
    for _ in range(draw(st.integers(0, 150))):
        if table.game.is_over:
            break
        table.step()
    return table.game


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


# -- round trip ---------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(played_games(), st.data())
def test_log_round_trip_random_games(game, data):
    # Drop some optional fields, as a real table might not enter them.
    actions = []
    for action in game.actions:
        if data.draw(st.booleans()):
            action = replace(action, player=None)
        if data.draw(st.booleans()):
            action = replace(action, at="2026-11-21T06:01:02Z")
        actions.append(action)
    text = format_log(game.setup, actions)
    parsed = parse_log(text)
    assert parsed.setup == game.setup
    assert parsed.actions == actions
    assert parsed.lines == list(range(2, len(actions) + 2))
    assert format_log(parsed.setup, parsed.actions) == text
    assert text.endswith("\n") and all(json.loads(line) for line in text[:-1].split("\n"))


def test_log_output_is_upper_case_and_defaults_are_left_out():
    setup = GameSetup(players=2)
    text = format_log(setup, [Play(Card.from_code("r1")), Discard(Card.from_code("b2"))])
    assert text == (
        '{"format": "hanabi-log/1", "players": 2, "names": ["Player 1", "Player 2"]}\n'
        '{"action": "play", "card": "R1"}\n'
        '{"action": "discard", "card": "B2"}\n'
    )


def test_log_header_writes_every_option_that_is_set():
    setup = GameSetup(
        players=4,
        first_player=2,
        names=("A", "B", "C", "D"),
        started_at="2026-11-21T06:00:00Z",
        options=ALL_BUT_CROWNING,
    )
    assert setup_to_dict(setup) == {
        "format": "hanabi-log/1",
        "players": 4,
        "first_player": 2,
        "names": ["A", "B", "C", "D"],
        "multicolor": "full",
        "wild_multicolor": True,
        "timed_display": True,
        "empty_clues": True,
        "strikeout_keeps_score": True,
        "started_at": "2026-11-21T06:00:00Z",
    }
    assert parse_log(format_log(setup, [])).setup == setup


def test_log_action_objects():
    assert action_to_dict(Hint(to=1, color=Color.RED, player=0)) == {
        "action": "hint", "player": 0, "to": 1, "color": "red",
    }  # fmt: skip
    assert action_to_dict(Hint()) == {"action": "hint"}
    assert action_to_dict(Play(Card.from_code("w5"), Color.WHITE, at="t")) == {
        "action": "play", "card": "W5", "announce": "white", "at": "t",
    }  # fmt: skip


def test_log_the_examples_of_the_format_page_parse():
    text = log(
        '{"action": "hint", "to": 1, "color": "red"}',
        '{"action": "hint", "to": 2, "rank": 3}',
        '{"action": "hint"}',
        '{"action": "play", "card": "R3"}',
        '{"action": "play", "card": "W5", "announce": "white"}',
        '{"action": "discard", "card": "B1"}',
        head='{"format": "hanabi-log/1", "players": 3, "timed_display": true}',
    )
    actions = parse_log(text).actions
    assert actions == [
        Hint(to=1, color=Color.RED),
        Hint(to=2, rank=3),
        Hint(),
        Play(Card.from_code("R3")),
        Play(Card.from_code("W5"), Color.WHITE),
        Discard(Card.from_code("B1")),
    ]


def test_log_cards_are_case_insensitive():
    parsed = parse_log(log('{"action": "play", "card": "g1"}', '{"action": "play", "card": "G2"}'))
    assert [a.card.code() for a in parsed.actions] == ["G1", "G2"]


def test_log_comments_and_blank_lines_are_ignored_but_counted():
    text = "\n".join(
        [
            "# a game at the club",
            "",
            HEADER,
            "   ",
            "  # indented comment",
            '{"action": "play", "card": "R1"}',
            "",
            '{"action": "hint"}',
        ]
    )
    parsed = parse_log(text)
    assert parsed.header_line == 3
    assert parsed.lines == [6, 8]
    assert len(parsed.actions) == 2


def test_log_windows_line_ends_are_tolerated():
    parsed = parse_log(HEADER + '\r\n{"action": "hint"}\r\n')
    assert parsed.actions == [Hint()]


def test_log_header_defaults():
    setup = parse_log(HEADER).setup
    assert setup == GameSetup(players=3)
    assert setup.names == ("Player 1", "Player 2", "Player 3")
    assert setup.first_player == 0 and setup.options.multicolor is Multicolor.NONE
    assert setup.started_at is None


# -- header errors: each key and its type ---------------------------------------------


@pytest.mark.parametrize(
    "head",
    [
        '{"players": 3}',
        '{"format": "hanabi-log/2", "players": 3}',
        '{"format": "HANABI-LOG/1", "players": 3}',
        '{"format": 1, "players": 3}',
        '{"format": "hanabi-log/1"}',
        header(players="3"),
        header(players=3.0),
        header(players=True),
        header(players=None),
        header(players=1),
        header(players=6),
        header(players=7),
        header(first_player="0"),
        header(first_player=3),
        header(first_player=-1),
        header(first_player=False),
        header(names="Ann"),
        header(names=["A", "B"]),
        header(names=["A", "B", 3]),
        header(names=["A", "B", ""]),
        header(names=None),
        header(multicolor="half"),
        header(multicolor=True),
        header(multicolor=None),
        header(multicolor=["short"]),
        header(wild_multicolor="true"),
        header(crowning_piece=1),
        header(timed_display=None),
        header(empty_clues="yes"),
        header(strikeout_keeps_score=0),
        header(started_at=20261121),
        header(seed=4),
        header(Players=3),
        header(wild_multicolor=True),
        header(crowning_piece=True, multicolor="short", timed_display=True),
    ],
)
def test_log_bad_header_is_a_format_error_on_its_line(head):
    error = format_error("# header below\n" + head + '\n{"action": "hint"}\n')
    assert error.line == 2
    assert str(error).startswith("line 2: ") and error.reason


def test_log_unknown_header_key_is_named():
    error = format_error(header(colour_blind=True))
    assert "colour_blind" in error.reason


def test_log_empty_text_needs_a_header():
    for text in ("", "\n\n", "# only a comment\n"):
        error = format_error(text)
        assert error.line == 1


@pytest.mark.parametrize("line", ["not json", "{", '{"a": 1} {"b": 2}', "[1, 2]", "3", '"x"'])
def test_log_a_line_that_is_not_one_json_object(line):
    assert format_error(line).line == 1
    assert format_error(log("", line)).line == 3


# -- action errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        '{"card": "R1"}',
        '{"action": "pass"}',
        '{"action": "PLAY", "card": "R1"}',
        '{"action": ["play"], "card": "R1"}',
        '{"action": {"x": 1}}',
        '{"action": "play"}',
        '{"action": "play", "card": "R6"}',
        '{"action": "play", "card": "X1"}',
        '{"action": "play", "card": 31}',
        '{"action": "play", "card": ["R1"]}',
        '{"action": "discard", "card": {"R": 1}}',
        '{"action": "play", "card": "R1", "announce": "rouge"}',
        '{"action": "play", "card": "R1", "announce": "Red"}',
        '{"action": "play", "card": "R1", "to": 1}',
        '{"action": "discard", "card": "R1", "announce": "red"}',
        '{"action": "discard"}',
        '{"action": "hint", "card": "R1"}',
        '{"action": "hint", "colour": "red"}',
        '{"action": "hint", "color": "purple"}',
        '{"action": "hint", "color": 1}',
        '{"action": "hint", "rank": 0}',
        '{"action": "hint", "rank": 6}',
        '{"action": "hint", "rank": "3"}',
        '{"action": "hint", "rank": true}',
        '{"action": "hint", "rank": 2.0}',
        '{"action": "hint", "to": "1"}',
        '{"action": "hint", "to": true}',
        '{"action": "hint", "player": "0"}',
        '{"action": "hint", "player": 0.0}',
        '{"action": "hint", "at": 5}',
    ],
)
def test_log_bad_action_is_a_format_error_on_its_line(line):
    text = log('{"action": "hint"}', "# comment", line, '{"action": "hint"}')
    error = format_error(text)
    assert error.line == 4
    assert str(error) == f"line 4: {error.reason}"


def test_log_unknown_action_key_is_named():
    assert "colour" in format_error(log('{"action": "hint", "colour": "red"}')).reason


@pytest.mark.parametrize(
    "action",
    [{"action": "hint", "to": 1, "rank": 1}, {"action": "play", "card": "R1"},
     {"action": "discard", "card": "R1"}],
)  # fmt: skip
def test_log_every_kind_of_action_refuses_a_bad_player_or_time_in_the_same_words(action):
    """GAME-LOG.md: "player" is a seat number and "at" an ISO 8601 string, in every action;
    the hint parser and the play/discard parser each check them
    (docs/decisions/0081-log-lines-decoded-by-msgspec.md), with one wording."""
    with pytest.raises(ValueError, match=r"^player must be a seat number$"):
        parse_action({**action, "player": "0"})
    with pytest.raises(ValueError, match=r"^at must be a string \(ISO 8601 time\)$"):
        parse_action({**action, "at": 5})
    text = log(json.dumps({**action, "player": 0.0}))
    assert format_error(text).reason == "player must be a seat number"


def test_log_parse_action_reasons():
    with pytest.raises(ValueError, match="needs its card"):
        parse_action({"action": "play"})
    assert parse_action({"action": "hint", "to": None}) == Hint()


# -- rule errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "refusal"),
    [
        ('{"action": "discard", "card": "R1"}', e.HintTokensFull),
        ('{"action": "hint", "to": 0}', e.HintToSelf),
        ('{"action": "hint", "to": 1, "color": "red", "rank": 1}', e.HintNamesBoth),
        ('{"action": "hint", "to": 5}', e.NoSuchSeat),
        ('{"action": "hint", "color": "multicolor"}', e.SuitNotInGame),
        ('{"action": "play", "card": "M1"}', e.SuitNotInGame),
        ('{"action": "play", "card": "R1", "announce": "red"}', e.AnnounceNotAllowed),
        ('{"action": "play", "card": "R1", "player": 2}', e.NotYourTurn),
    ],
)
def test_log_rule_break_is_a_rule_error_on_its_line(line, refusal):
    error = rule_error(log("# first turn", "", line))
    assert error.line == 4
    assert isinstance(error.error, refusal)
    assert error.reason == str(error.error)
    assert str(error) == f"line 4: {error.reason}"


def test_log_rule_error_after_the_end():
    text = log(*['{"action": "play", "card": "B5"}'] + ['{"action": "play", "card": "R2"}'] * 3)
    error = rule_error(text)
    assert error.line == 5 and isinstance(error.error, e.GameIsOver)


def test_log_a_card_seen_too_often_is_a_rule_error():
    lines = ['{"action": "hint"}', '{"action": "discard", "card": "r5"}']
    text = log(*lines, '{"action": "hint"}', '{"action": "play", "card": "R5"}')
    error = rule_error(text)
    assert error.line == 5 and isinstance(error.error, e.CardExhausted)


def test_log_wild_multicolor_named_is_a_rule_error():
    head = header(multicolor="full", wild_multicolor=True)
    error = rule_error(log('{"action": "hint", "to": 1, "color": "multicolor"}', head=head))
    assert isinstance(error.error, e.HintColorNotAllowed)


# -- summary ----------------------------------------------------------------------------------


def test_log_summary_at_the_start():
    out = summary(replay_log(HEADER))
    assert set(out) == SUMMARY_KEYS
    assert out == {
        "status": "playing",
        "outcome": None,
        "end_reason": None,
        "score": 0,
        "max_score": 25,
        "rating": None,
        "hints": 8,
        "fuses": 0,
        "deck": 35,
        "turns": 0,
        "current_player": 0,
        "final_round_turns_left": None,
        "fireworks": {"red": 0, "yellow": 0, "green": 0, "blue": 0, "white": 0},
        "discards": [],
    }
    assert list(out["fireworks"]) == ["red", "yellow", "green", "blue", "white"]


def test_log_summary_discards_sorted_by_suit_order_then_rank():
    lines = ['{"action": "hint"}'] * 4
    for code in ("m2", "W1", "R4", "B1", "Y3", "R1", "G2"):
        lines += [json.dumps({"action": "discard", "card": code}), '{"action": "hint"}']
    out = summary(replay_log(log(*lines, head=header(multicolor="short"))))
    assert out["discards"] == ["R1", "R4", "Y3", "G2", "B1", "W1", "M2"]
    assert set(out["fireworks"]) == {"red", "yellow", "green", "blue", "white", "multicolor"}


def test_log_summary_misplays_are_in_the_discards():
    out = summary(
        replay_log(log('{"action": "play", "card": "Y4"}', '{"action": "play", "card": "R1"}'))
    )
    assert out["discards"] == ["Y4"] and out["fuses"] == 1
    assert out["fireworks"]["red"] == 1 and out["score"] == 1 and out["turns"] == 2
    assert out["current_player"] == 2 and out["deck"] == 33


def test_log_summary_storm():
    lines = ['{"action": "play", "card": "R1"}'] + ['{"action": "play", "card": "B2"}'] * 2
    out = summary(replay_log(log(*lines, '{"action": "play", "card": "G3"}')))
    assert out["status"] == "over" and out["outcome"] == "lost"
    assert out["end_reason"] == "strikeout" and out["score"] == 0 and out["max_score"] == 0
    assert out["rating"] is None and out["current_player"] is None
    assert out["fireworks"]["red"] == 1 and out["fuses"] == 3


def test_log_summary_storm_keeps_score_with_the_option():
    lines = ['{"action": "play", "card": "R1"}'] + ['{"action": "play", "card": "B2"}'] * 2
    lines.append('{"action": "play", "card": "G3"}')
    out = summary(replay_log(log(*lines, head=header(strikeout_keeps_score=True))))
    assert out["outcome"] == "lost" and out["score"] == 1 and out["rating"] is None


def test_log_summary_perfect_six_suits():
    codes = [f"{c}{r}" for r in range(1, 6) for c in "RYGBWM"]
    lines = [json.dumps({"action": "play", "card": code}) for code in codes]
    out = summary(replay_log(log(*lines, head=header(multicolor="full"))))
    assert out["outcome"] == "won" and out["end_reason"] == "perfect"
    assert out["score"] == 30 == out["max_score"] and out["rating"] == "divine"
    assert out["fireworks"]["multicolor"] == 5 and out["turns"] == 30


def test_log_summary_crowning_critical_discard():
    out = summary(
        replay_log(log('{"action": "play", "card": "G5"}', head=header(crowning_piece=True)))
    )
    assert out["outcome"] == "lost" and out["end_reason"] == "critical_discard"
    assert out["rating"] is None and out["score"] == 0


def _final_round_log(players=3):
    """Plays every firework card but W5, then discards spare copies, by the real rules."""
    setup = GameSetup(players=players)
    plays = [Card(c, r) for r in range(1, 6) for c in setup.colors][:-1]
    spares = [Card(c, r) for c in setup.colors for r, n in enumerate((3, 2, 2, 2, 1), 1)
              for _ in range(n - 1)]  # fmt: skip
    lines = [header(players=players)]
    deck = setup.initial_deck
    hints = 8
    for card in plays:
        lines.append(json.dumps({"action": "play", "card": card.code()}))
        deck -= 1
        hints = min(8, hints + (card.rank == 5))
    while deck:
        if hints == 8:
            lines.append('{"action": "hint"}')
            hints -= 1
        lines.append(json.dumps({"action": "discard", "card": spares.pop().code()}))
        hints += 1
        deck -= 1
    return lines


def test_log_summary_during_and_after_the_final_round():
    lines = _final_round_log()
    out = summary(replay_log("\n".join(lines)))
    assert out["status"] == "playing" and out["deck"] == 0
    assert out["final_round_turns_left"] == 3 and out["max_score"] == 25
    lines.append('{"action": "hint"}')
    out = summary(replay_log("\n".join(lines)))
    assert out["final_round_turns_left"] == 2
    lines += ['{"action": "hint"}', '{"action": "hint"}']
    out = summary(replay_log("\n".join(lines)))
    assert out["status"] == "over" and out["outcome"] == "finished"
    assert out["end_reason"] == "final_round" and out["final_round_turns_left"] is None
    assert out["score"] == 24 == out["max_score"] and out["rating"] == "amazing"
    assert out["current_player"] is None
    lines.append('{"action": "hint"}')
    assert isinstance(rule_error("\n".join(lines)).error, e.GameIsOver)


def test_log_summary_is_json():
    out = summary(replay_log(log('{"action": "play", "card": "R1"}')))
    assert json.loads(json.dumps(out)) == out


# -- fuzz ------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False)
    | st.text(max_size=6) | st.sampled_from(["R1", "r5", "M3", "red", "multicolor", "hint",
                                              "play", "discard", "short", FORMAT]),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=6,
)  # fmt: skip
KEYS = [
    *("format", "players", "first_player", "names", "multicolor", "wild_multicolor"),
    *("crowning_piece", "timed_display", "empty_clues", "strikeout_keeps_score", "started_at"),
    *("action", "to", "color", "rank", "card", "announce", "player", "at"),
]


def parse_only_fails_cleanly(text):
    try:
        replay_log(text)
    except (LogFormatError, LogRuleError) as error:
        assert error.line >= 1 and error.reason
        assert error.line <= text.count("\n") + 1


@FUZZ
@given(st.lists(st.text(max_size=40), max_size=6))
def test_log_fuzz_random_lines(lines):
    parse_only_fails_cleanly("\n".join(lines))
    parse_only_fails_cleanly("\n".join([HEADER, *lines]))


@FUZZ
@given(st.lists(st.text(st.characters(exclude_categories=()), max_size=30), max_size=4))
def test_log_fuzz_any_code_point_even_lone_surrogates(lines):
    parse_only_fails_cleanly("\n".join(lines))
    parse_only_fails_cleanly("\n".join([HEADER, *lines]))
    parse_only_fails_cleanly("\n".join([HEADER, *(json.dumps({"action": x}) for x in lines)]))


@FUZZ
@given(st.lists(st.dictionaries(st.sampled_from(KEYS), json_values, max_size=5), max_size=5))
def test_log_fuzz_random_objects(objects):
    lines = [json.dumps(obj) for obj in objects]
    parse_only_fails_cleanly("\n".join(lines))
    parse_only_fails_cleanly("\n".join([HEADER, *lines]))


@st.composite
def mutated_logs(draw):
    game = draw(played_games())
    lines = format_log(game.setup, game.actions)[:-1].split("\n")
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["drop", "dup", "swap", "flip", "value", "key", "insert"]))
        i = draw(st.integers(0, len(lines) - 1))
        if kind == "drop" and len(lines) > 1:
            del lines[i]
        elif kind == "dup":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "flip" and lines[i]:
            k = draw(st.integers(0, len(lines[i]) - 1))
            char = draw(st.characters(codec="utf-8"))
            lines[i] = lines[i][:k] + char + lines[i][k + 1 :]
        elif kind in ("value", "key"):
            try:
                obj = json.loads(lines[i])
            except ValueError:
                continue
            if not isinstance(obj, dict) or not obj:
                continue
            key = draw(st.sampled_from(sorted(obj) if kind == "value" else KEYS))
            obj[key] = draw(json_values)
            lines[i] = json.dumps(obj)
        elif kind == "insert":
            lines.insert(i, draw(st.text(max_size=20)))
    return "\n".join(lines)


@FUZZ
@given(mutated_logs())
def test_log_fuzz_mutated_valid_logs(text):
    parse_only_fails_cleanly(text)


def test_log_fuzz_absurd_nesting_is_a_format_error():
    assert format_error("[" * 100_000).line == 1
    assert format_error(HEADER + "\n" + '{"a":' * 50_000).line == 2


def test_log_fuzz_unhashable_action_is_a_format_error():
    assert format_error(log('{"action": ["play"]}')).line == 2


def test_log_format_error_and_rule_error_are_value_errors():
    assert issubclass(LogFormatError, ValueError) and issubclass(LogRuleError, ValueError)
