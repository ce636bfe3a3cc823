"""The ``replay`` command end to end (GAME-LOG.md "Replaying")."""

import contextlib
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.faults import damaged
from support.needs import unavailable

from companion.shell.cli import main
from engine import GameSetup, Multicolor
from engine.log import format_log, replay_log, summary
from engine.options import GameOptions
from engine.table import SimulatedTable

LOGS = Path(__file__).resolve().parents[1] / "logs"
ROOT = Path(__file__).resolve().parents[2]
OK = [
    "storm.jsonl",
    "timed_wild.jsonl",
    "final_round.jsonl",
    "perfect_six_suits.jsonl",
    "hand_memory.jsonl",
]
RULE_BROKEN = {
    "hint_names_both.jsonl": (4, "A hint names one colour or one rank, never both"),
    "announce_not_timed.jsonl": (2, "only allowed in the timed display variant"),
    "discard_full_tokens.jsonl": (2, "All 8 hint tokens are available: you cannot discard"),
    # Hand memory (GAME-LOG.md): a hint or a card that its slot contradicts, a slot too far.
    "hand_memory_mispointed.jsonl": (4, "Bo's slot 2 can only be red: a red hint must touch it"),
    "hand_memory_card_against_hint.jsonl": (3, "Slot 2 was hinted red: B3 cannot be there"),
    "hand_memory_no_such_slot.jsonl": (2, "Player 1 has 4 cards: there is no slot 5"),
}
INVALID = {
    "bad_card.jsonl": (3, "'P1' is not a card"),
    "seven_players.jsonl": (1, "2 to 5 players"),
    "unknown_key.jsonl": (2, "colour"),
    "bad_json.jsonl": (2, "not valid JSON"),
    "hand_memory_slot_missing.jsonl": (3, 'with hand memory a play names its "slot"'),
    "slots_without_hand_memory.jsonl": (2, '"slots" needs "hand_memory": true in the header'),
}


def replay(*files, cwd=ROOT):
    return subprocess.run(
        [sys.executable, "-m", "companion", "replay", *map(str, files)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


def test_replay_several_files_one_json_line_each_in_order():
    run = replay(*(LOGS / name for name in OK))
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    lines = run.stdout.split("\n")
    assert lines[-1] == "" and len(lines) == len(OK) + 1
    for name, line in zip(OK, lines, strict=False):
        expected = summary(replay_log((LOGS / name).read_text(encoding="utf-8")))
        assert json.loads(line) == expected


def test_replay_prints_what_the_hints_left_possible_in_each_slot_with_hand_memory():
    run = replay(LOGS / "hand_memory.jsonl")
    assert run.returncode == 0, run.stderr
    hands = json.loads(run.stdout)["hands"]
    five = ["red", "yellow", "green", "blue", "white"]
    not_red = five[1:]
    # Bo: slots 1 and 4 were hinted red; slot 5 went (B3), a new card took slot 1.
    assert [slot["colors"] for slot in hands[1]] == [five, ["red"], not_red, not_red, ["red"]]
    # Ann: her 1 in slot 2 was played; the new card is slot 1, the old slot 1 is slot 2.
    assert [slot["ranks"] for slot in hands[0]] == [[1, 2, 3, 4, 5]] + [[2, 3, 4, 5]] * 4


def test_replay_storm_summary_values():
    run = replay(LOGS / "storm.jsonl")
    out = json.loads(run.stdout)
    assert out == {
        "status": "over",
        "outcome": "lost",
        "end_reason": "strikeout",
        "score": 0,
        "max_score": 0,
        "rating": None,
        "hints": 8,
        "fuses": 3,
        "deck": 31,
        "turns": 6,
        "current_player": None,
        "final_round_turns_left": None,
        "fireworks": {"red": 1, "yellow": 0, "green": 0, "blue": 0, "white": 0},
        "discards": ["Y1", "G4", "B2", "W3"],
    }


def test_replay_timed_wild_summary_values():
    out = json.loads(replay(LOGS / "timed_wild.jsonl").stdout)
    assert out["status"] == "playing" and out["current_player"] == 0
    assert out["fireworks"]["multicolor"] == 2 and out["fuses"] == 1
    assert out["hints"] == 8 and out["discards"] == ["R1"] and out["max_score"] == 30


def test_replay_finished_and_perfect_games():
    finished = json.loads(replay(LOGS / "final_round.jsonl").stdout)
    assert finished["outcome"] == "finished" and finished["end_reason"] == "final_round"
    assert finished["rating"] == "amazing" and finished["score"] == 24 == finished["max_score"]
    perfect = json.loads(replay(LOGS / "perfect_six_suits.jsonl").stdout)
    assert perfect["outcome"] == "won" and perfect["score"] == 30 and perfect["rating"] == "divine"


@pytest.mark.parametrize("name", sorted(RULE_BROKEN))
def test_replay_rule_break_exit_1_file_and_line_on_stderr(name):
    line, reason = RULE_BROKEN[name]
    path = LOGS / name
    run = replay(path)
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr.startswith(f"{path}:{line}: ")
    assert reason in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("name", sorted(INVALID))
def test_replay_invalid_log_exit_2(name):
    line, reason = INVALID[name]
    path = LOGS / name
    run = replay(path)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.startswith(f"{path}:{line}: ")
    assert reason in run.stderr
    assert "Traceback" not in run.stderr


def test_replay_a_failing_file_among_good_ones_prints_the_good_summaries():
    """README: one line per file: a summary, or the error of the file that fails."""
    run = replay(LOGS / "storm.jsonl", LOGS / "hint_names_both.jsonl", LOGS / "final_round.jsonl")
    assert run.returncode == 1 and len(run.stdout.splitlines()) == 2
    assert run.stderr.count("\n") == 1 and "hint_names_both.jsonl:4:" in run.stderr


def test_replay_goes_on_after_a_failing_file():
    run = replay(LOGS / "bad_card.jsonl", LOGS / "hint_names_both.jsonl")
    assert run.returncode == 2 and "bad_card.jsonl:3:" in run.stderr
    assert "hint_names_both.jsonl:4:" in run.stderr


def test_replay_missing_file_is_exit_2(tmp_path):
    """Issue 20: a file that cannot be read has no line to name (no ":1:"), and the
    reason is in words (no "[Errno 2]")."""
    missing = tmp_path / "nope.jsonl"
    run = replay(missing)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == f"{missing}: cannot read the file: it does not exist\n"


def test_replay_file_that_is_not_utf8_is_exit_2(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"format": "hanabi-log/1", "players": 2, "names": ["Jos\xe9", "Ann"]}\n')
    run = replay(path)
    assert run.returncode == 2 and run.stdout == "" and "Traceback" not in run.stderr


def test_replay_installed_script():
    script = ROOT / ".venv" / "bin" / "hanabi-companion"
    if not script.exists():
        unavailable("the console script is not installed in .venv")
    run = subprocess.run(
        [str(script), "replay", str(LOGS / "storm.jsonl")], capture_output=True, text=True
    )
    assert run.returncode == 0 and json.loads(run.stdout)["end_reason"] == "strikeout"


def test_replay_does_not_import_pygame():
    code = (
        "import sys, contextlib, io\n"
        "from companion.shell.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    rc = main(['replay', {str(LOGS / 'storm.jsonl')!r}])\n"
        "assert rc == 0, rc\n"
        "assert out.getvalue().startswith('{'), out.getvalue()\n"
        "assert 'pygame' not in sys.modules, 'replay imported pygame'\n"
        "print('ok')\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == "ok\n"


def test_help_lists_every_command():
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    for command in ("run", "render", "export", "history", "replay", "scanner", "enrol"):
        assert command in out.getvalue()


@pytest.mark.parametrize("options", [[], ["--data-dir", "DATA"], ["--lang", "fr"]])
def test_no_command_runs_the_companion(tmp_path, options):
    """Plain `hanabi-companion` is `run`: with no screen at all it says so and exits 1."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)
    env["XDG_STATE_HOME"] = str(tmp_path)
    options = [str(tmp_path / o) if o == "DATA" else o for o in options]
    done = subprocess.run(
        [sys.executable, "-m", "companion", *options],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert "screen" in done.stderr or "display" in done.stderr


# -- fuzz of the command, in-process -------------------------------------------------


def run_main(path):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", str(path)])
    return code, out.getvalue(), err.getvalue()


@st.composite
def mutated_files(draw):
    setup = GameSetup(
        players=draw(st.integers(2, 5)),
        options=GameOptions(
            multicolor=draw(st.sampled_from(list(Multicolor))), timed_display=draw(st.booleans())
        ),
    )
    table = SimulatedTable(setup, random.Random(draw(st.integers(0, 2**32 - 1))))
    for _ in range(draw(st.integers(0, 80))):
        if table.game.is_over:
            break
        table.step()
    data = bytearray(format_log(setup, table.game.actions).encode("utf-8"))
    return damaged(draw, data, 6)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_files())
def test_replay_fuzz_only_exit_codes_0_1_2(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "game.jsonl"
    path.write_bytes(data)
    code, out, err = run_main(path)
    assert code in (0, 1, 2)
    if code == 0:
        assert err == "" and len(out.splitlines()) == 1
        assert set(json.loads(out)) >= {"status", "score", "discards"}
    else:
        assert out == ""
        assert err.startswith(f"{path}:") and err.endswith("\n") and err.count("\n") == 1
        line = err[len(str(path)) + 1 :].split(":", 1)[0]
        assert line.isdigit() and int(line) >= 1
