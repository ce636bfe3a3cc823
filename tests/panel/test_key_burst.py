"""A USB reader typing into the window is one scan, not keys (issue 11, companion/panel/keys.py).

Pure: the detector is fed key events with the times they were seen. The
thresholds are the ones of docs/decisions/0019-key-burst-is-a-scan.md: at least
BURST_MIN_KEYS characters, each at most BURST_MAX_GAP after the one before, ended by Enter or Tab.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.panel.keys import BURST_MAX_GAP, BURST_MIN_KEYS, KeyBurst, TypedScan

#: A reader's pace: one character per USB poll pair (8 ms polls), well inside the gap.
READER_PACE = 0.016
#: A very fast typist's pace between two keys: still far above the gap.
TYPIST_PACE = 0.080


def typed(burst: KeyBurst[str], text: str, pace: float, start: float = 0.0) -> list[object]:
    """Each character then Enter, ``pace`` seconds apart; everything the detector gives."""
    out: list[object] = []
    now = start
    for char in text:
        out += burst.feed(char, now, char=char)
        now += pace
    out += burst.feed("Return", now, ends_line=True)
    out += burst.expire(now + 10)
    return out


def test_burst_thresholds_are_the_decided_ones():
    assert (BURST_MIN_KEYS, BURST_MAX_GAP) == (6, 0.050)


def test_burst_a_reader_typing_a_tag_then_enter_is_one_scan():
    assert typed(KeyBurst(), "0012345678", READER_PACE) == [TypedScan("0012345678")]


def test_burst_a_person_typing_the_same_keys_gets_the_keys():
    assert typed(KeyBurst(), "0012345678", TYPIST_PACE) == [*"0012345678", "Return"]


def test_burst_five_fast_characters_are_keys_not_a_scan():
    """A short entry typed with rollover (p, r, 1, Return) stays keys."""
    assert typed(KeyBurst(), "pr1", 0.010) == ["p", "r", "1", "Return"]
    assert typed(KeyBurst(), "12345", READER_PACE) == [*"12345", "Return"]


def test_burst_without_enter_is_released_as_keys_when_the_pace_stops():
    burst: KeyBurst[str] = KeyBurst()
    for index, char in enumerate("abcdefgh"):
        assert burst.feed(char, index * READER_PACE, char=char) == []
    last = 7 * READER_PACE
    assert burst.deadline() == last + BURST_MAX_GAP
    assert burst.expire(last + BURST_MAX_GAP) == []  # not yet
    assert burst.expire(last + BURST_MAX_GAP + 0.001) == list("abcdefgh")
    assert burst.deadline() is None


def test_burst_a_pause_before_enter_makes_it_keys():
    burst: KeyBurst[str] = KeyBurst()
    for index, char in enumerate("001234"):
        burst.feed(char, index * READER_PACE, char=char)
    assert burst.feed("Return", 1.0, ends_line=True) == [*"001234", "Return"]


def test_burst_shift_and_releases_inside_a_burst_are_swallowed_with_it():
    burst: KeyBurst[str] = KeyBurst()
    out: list[object] = []
    now = 0.0
    for char in "R3Y4B5":
        out += burst.feed("shift", now)  # a modifier: no character
        out += burst.feed(char, now, char=char)
        out += burst.feed(f"up {char}", now)  # a key release
        now += READER_PACE
    out += burst.feed("Return", now, ends_line=True)
    # The first shift comes before any character: it passes (a shift alone does nothing).
    assert out == ["shift", TypedScan("R3Y4B5")]


def test_burst_other_keys_pass_at_once_when_nothing_is_held():
    burst: KeyBurst[str] = KeyBurst()
    assert burst.feed("Escape", 0.0) == ["Escape"]
    assert burst.feed("Return", 0.0, ends_line=True) == ["Return"]
    assert burst.deadline() is None


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["char", "enter", "other"]),
            st.floats(min_value=0.0, max_value=0.2, allow_nan=False),
        ),
        max_size=40,
    )
)
def test_burst_property_nothing_is_lost_or_reordered(steps):
    """Whatever comes: the keys given back, plus those a scan stands for, are the keys fed,
    in order; a scan is exactly the characters it stands for."""
    burst: KeyBurst[tuple[int, str]] = KeyBurst()
    fed: list[tuple[int, str]] = []
    out: list[object] = []
    now = 0.0
    for index, (kind, gap) in enumerate(steps):
        now += gap
        item = (index, kind)
        fed.append(item)
        char = chr(ord("a") + index % 26) if kind == "char" else None
        out += burst.feed(item, now, char=char, ends_line=kind == "enter")
    out += burst.expire(now + 1.0)
    rebuilt: list[tuple[int, str]] = []
    for thing in out:
        if isinstance(thing, TypedScan):
            chars = [i for i, k in fed if k == "char" and i not in {j for j, _ in rebuilt}]
            consumed = [(i, "char") for i in chars[: len(thing.text)]]
            assert thing.text == "".join(chr(ord("a") + i % 26) for i, _ in consumed)
            assert len(thing.text) >= BURST_MIN_KEYS
            # what the scan swallowed: everything from its first character to its Enter
            first = consumed[0][0]
            enter = next(i for i, k in fed if i > consumed[-1][0] and k == "enter")
            rebuilt += [entry for entry in fed if first <= entry[0] <= enter]
        else:
            rebuilt.append(thing)  # type: ignore[arg-type]
    assert rebuilt == fed


@given(
    st.lists(st.floats(min_value=BURST_MAX_GAP * 1.01, max_value=2.0), min_size=1, max_size=30),
    st.text(alphabet="0123456789abcdefhpdu", min_size=30, max_size=30),
)
def test_burst_property_a_person_is_never_a_scan(gaps, text):
    """At a person's pace (every gap over the threshold) every key comes back as it was."""
    burst: KeyBurst[str] = KeyBurst()
    out: list[object] = []
    now = 0.0
    for gap, char in zip(gaps, text, strict=False):
        out += burst.feed(char, now, char=char)
        now += gap
    out += burst.feed("Return", now, ends_line=True)
    out += burst.expire(now + 10)
    assert out == [*text[: len(gaps)], "Return"]


@given(
    st.text(alphabet="0123456789ABCDEF", min_size=BURST_MIN_KEYS, max_size=20),
    st.lists(st.integers(min_value=0, max_value=49), min_size=21, max_size=21),
)
def test_burst_property_a_reader_is_always_one_scan(tag, gaps_ms):
    """Every gap under the threshold (whole milliseconds: no float rounding at the edge)."""
    burst: KeyBurst[str] = KeyBurst()
    out: list[object] = []
    elapsed_ms = 0
    for gap, char in zip(gaps_ms, tag, strict=False):
        out += burst.feed(char, elapsed_ms / 1000, char=char)
        elapsed_ms += gap
    out += burst.feed("Return", elapsed_ms / 1000, ends_line=True)
    assert out == [TypedScan(tag)]
