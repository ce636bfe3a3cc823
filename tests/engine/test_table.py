"""Property tests over whole simulated games, every set-up the rules allow.

The simulator deals a real deck and sees every hand, so it can check what the
engine cannot: that every card stays accounted for (docs/rules.md sections 1-4, 6).
"""

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import Game, GameSetup, Hint, IllegalAction, SetupError
from engine.log import format_log, replay_log
from engine.options import GameOptions
from engine.setup import MAX_FUSES, MAX_HINTS
from engine.table import SimulatedTable


@st.composite
def setups(draw):
    players = draw(st.integers(2, 5))
    try:
        return GameSetup(
            players,
            first_player=draw(st.integers(0, players - 1)),
            options=draw(st.sampled_from(GameOptions.every())),  # every option, any value
        )
    except SetupError:
        assume(False)


tables = st.builds(
    lambda setup, seed, skill: SimulatedTable(setup, random.Random(seed), skill=skill),
    setups(),
    st.integers(0, 2**32 - 1),
    st.floats(0.0, 1.0),
)

FAST = settings(
    max_examples=250, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


def check_invariants(table: SimulatedTable, game: Game) -> None:
    setup, position = table.setup, game.position
    assert 0 <= position.hints <= MAX_HINTS
    assert 0 <= position.fuses <= MAX_FUSES
    played = sum(position.fireworks[color] for color in setup.colors)
    in_hands = sum(map(len, table.hands))
    assert played + len(position.discards) + in_hands + len(table.draw_pile) == setup.deck_size
    assert position.hands == [len(hand) for hand in table.hands]
    assert position.deck == len(table.draw_pile)
    assert all(position.fireworks[color] == 0 for color in set(range(6)) - set(setup.colors))
    assert game.score <= game.max_score <= setup.max_score
    assert sum(position.seen) == played + len(position.discards)


@FAST
@given(tables)
def test_every_card_stays_accounted_for_and_tokens_stay_in_range(table):
    game = table.game
    check_invariants(table, game)
    last_max = game.max_score
    while not game.is_over:
        table.step()
        check_invariants(table, game)
        assert game.max_score <= last_max, "the highest reachable score never goes up"
        last_max = game.max_score
        if not game.is_over:
            assert game.pace is not None and game.pace >= 0
    assert game.current_player is None and game.pace is None
    assert game.max_score == game.score
    assert game.position.turns == len(game.actions) == len(game.events)


@FAST
@given(tables)
def test_games_always_end_within_a_bound(table):
    game = table.play_out()
    assert game.is_over
    # Each turn either draws, spends a hint token or plays a card: bounded.
    assert len(game.actions) < 10 * table.setup.deck_size


@FAST
@given(tables, st.data())
def test_log_round_trip_gives_an_equal_position(table, data):
    game = table.game
    steps = data.draw(st.integers(0, 120))
    for _ in range(steps):
        if game.is_over:
            break
        table.step()
    replayed = replay_log(format_log(table.setup, game.actions))
    assert replayed.setup == table.setup
    assert replayed.position == game.position
    assert replayed.actions == game.actions
    assert replayed.events == game.events


@FAST
@given(tables, st.data())
def test_a_replayed_game_played_on_describes_every_action_as_one_played_all_along(table, data):
    """A replay folds its actions without describing them (issue 23, referee speed): the
    events worked out when asked, and those of actions applied after the replay, are the
    ones a game applied action by action has, and the replay's refusal is the same."""
    game = table.play_out()
    cut = data.draw(st.integers(0, len(game.actions)))
    replayed = Game.replay(table.setup, game.actions[:cut])
    for action in game.actions[cut:]:
        assert replayed.apply(action) == game.events[len(replayed.actions) - 1]
    assert replayed.events == game.events
    assert replayed.position == game.position
    if game.actions:
        with pytest.raises(IllegalAction) as folded:
            Game.replay(table.setup, [*game.actions, game.actions[-1]])
        with pytest.raises(IllegalAction) as applied:
            game.apply(game.actions[-1])
        assert str(folded.value) == str(applied.value)


@FAST
@given(tables)
def test_undo_then_the_same_action_again_gives_the_same_position_and_event(table):
    game = table.game
    while not game.is_over:
        table.step()
        if len(game.actions) % 7 and not game.is_over:
            continue
        position, event, action = game.position.copy(), game.events[-1], game.actions[-1]
        assert game.undo() is action
        assert len(game.actions) == event.turn - 1
        again = game.apply(action)
        assert again == event
        assert game.position == position


@FAST
@given(tables)
def test_events_agree_with_the_position(table):
    game = table.game
    while not game.is_over:
        before = game.position.copy()
        table.step()
        event, after = game.events[-1], game.position
        assert after.hints - before.hints == event.hints_change
        assert (event.hints_after, event.fuses_after) == (after.hints, after.fuses)
        assert after.fuses - before.fuses == int(event.fuse_burnt)
        assert before.deck - after.deck == int(event.drew)
        assert (event.card is None) == isinstance(event.action, Hint)
        if event.end is not None:
            assert not event.drew and game.end_reason is event.end
        if game.setup.options.crowning_piece:
            assert after.final_round_turns_left is None
            assert not event.final_round_started
