"""Phones as input (issue 22): a paired phone records hints, plays and discards; no action
is ever lost or recorded twice.

The controller is tested alone (pure); the rest runs the real app (dummy video driver),
its real SQLite file, the real server on a free port, spoken to over TCP from worker
threads while this thread turns the app's loop, as the appliance does.
"""

from __future__ import annotations

import http.client
import json
import socket
import sqlite3
import string
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core import i18n
from companion.core.controller import (
    Controller,
    EntryKind,
    Info,
    NewPairingCode,
    PairingCodeMade,
    PairPhone,
    PhoneOutcome,
    PhoneReply,
    RecordAction,
    RecordUndo,
    Refused,
    Screen,
    SetupDraft,
    message_words,
)
from companion.panel.display import open_display
from companion.shell.app import App, resume
from companion.shell.web_link import WebLink
from companion.storage import Storage
from companion.vocabulary.phone import (
    PAIRING_TRIES_PER_CODE,
    BadRequest,
    PairedPhone,
    PhoneMove,
    PhonePair,
    hash_token,
    move_to_json,
    parse_move,
)
from companion.web.answers import http_status
from companion.web.limits import PAIR_TRIES_PER_ADDRESS
from companion.web.server import TOKEN_HEADER
from engine import Card, GameSetup
from engine.actions import Discard, Hint, Play
from engine.cards import Color
from engine.errors import IllegalAction
from engine.game import Game
from engine.options import GameOptions
from hardware.events import ChooseColor, ChooseRank, ChooseSlot, Key, Press, Select

TOKEN = hash_token("phone-of-ann")
ANN = PairedPhone(1, "Ann")
IDS = iter(f"request-{n:012d}" for n in range(10**6))


def memory_setup(players: int = 3) -> GameSetup:
    names = ("Ann", "Bo", "Cy", "Di", "Ed")[:players]
    return GameSetup(players=players, names=names, options=GameOptions(hand_memory=True))


def controller_with(game: Game) -> Controller:
    controller = Controller(SetupDraft(players=game.setup.players), game)
    controller.paired = {TOKEN: ANN}
    return controller


def move(position: int, action: Hint | Play | Discard | None, **kw: Any) -> PhoneMove:
    return PhoneMove(next(IDS), "1", position, action, token_hash=kw.pop("token", TOKEN), **kw)


# -- the request's value: a parse/format round trip -------------------------------------

ids = st.text(string.ascii_letters + string.digits + "-_", min_size=16, max_size=64)
colors = st.sampled_from(list(Color)[:5])
cards = st.builds(lambda c, r: Card(c, r), colors, st.integers(1, 5))
slots = st.integers(1, 5)
actions = st.one_of(
    st.none(),
    st.builds(
        lambda to, color, rank, touched: Hint(
            to, color if rank is None else None, rank, slots=touched
        ),
        st.integers(0, 4),
        colors,
        st.none() | st.integers(1, 5),
        st.none() | st.lists(slots, unique=True, max_size=5).map(tuple),
    ),
    st.builds(lambda card, slot: Play(card, slot=slot), cards, st.none() | slots),
    st.builds(lambda card, slot: Discard(card, slot=slot), cards, st.none() | slots),
)


@given(ids, st.text(max_size=12), st.integers(0, 9999), actions)
def test_a_move_round_trips_through_its_json(request_id, game, position, action):
    """Rule: what the page sends is what the table judges (parse ∘ format = identity)."""
    sent = PhoneMove(request_id, game, position, action)
    assert parse_move(json.loads(json.dumps(move_to_json(sent)))) == sent


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(), st.lists, max_leaves=8))
def test_any_other_body_is_a_bad_request_never_a_crash(body):
    """Rule: a body the page would never send is refused with a reason, nothing else."""
    with pytest.raises(BadRequest):
        parse_move(body)


def test_a_move_may_not_say_whose_turn_or_when():
    """Rule: the table says who plays and when; a phone cannot record for another seat."""
    body = {"id": "x" * 16, "game": "1", "position": 0, "action": {"action": "hint", "player": 2}}
    with pytest.raises(BadRequest, match="no player"):
        parse_move(body)


# -- the controller: one authority ---------------------------------------------------------


def test_a_phones_hint_is_recorded_as_the_panels_with_who_entered_it():
    """Rule: a phone's action goes through the same rules; the panel says whose phone."""
    controller = controller_with(Game(memory_setup()))
    effects = controller.handle(move(0, Hint(to=1, color=Color.YELLOW, slots=(2, 3))))
    assert isinstance(effects[0], RecordAction)
    assert effects[0].action == Hint(to=1, color=Color.YELLOW, player=0, slots=(2, 3))
    reply = effects[0].reply
    assert reply is not None and reply.ok and reply.actions == 1
    words = message_words("en", controller.message, controller.names)
    assert words == "Ann told Bo: yellow, slots 2 and 3 (Ann's phone)"


def test_an_entry_under_way_on_the_panel_is_closed_when_a_phone_records_the_turn():
    """Rule: one turn, one action: the panel's entry was about the position before."""
    controller = controller_with(Game(memory_setup()))
    controller.handle(Press(Key.PLAY))
    assert controller.screen is Screen.ENTRY and controller.entry is not None
    assert controller.entry.kind is EntryKind.PLAY
    controller.handle(move(0, Play(Card.from_code("R1"), slot=4)))
    assert controller.game is not None and len(controller.game.actions) == 1
    # the panel's keys were typed before it saw the phone's action: its entry is stale
    controller.handle(Press(Key.PLAY))  # pressed again: the entry, not a new one
    for key in (ChooseColor(Color.BLUE), ChooseRank(1), ChooseSlot(4)):
        controller.handle(key)
    effects = controller.handle(Press(Key.OK))
    assert not any(isinstance(e, RecordAction) for e in effects)
    assert isinstance(controller.message, Info) and controller.message.key == "phone_moved_on"
    assert controller.screen is Screen.GAME and controller.entry is None
    assert len(controller.game.actions) == 1


def test_a_move_made_on_a_position_the_table_left_is_refused_in_words():
    """Rule: a request names the position it was made on; a moved-on table refuses it."""
    controller = controller_with(Game(memory_setup()))
    controller.handle(move(0, Hint(to=1, rank=1, slots=(1,))))
    (reply,) = controller.handle(move(0, Play(Card.from_code("B1"), slot=4)))
    assert isinstance(reply, PhoneReply) and not reply.ok and http_status(reply.outcome) == 409
    words = message_words("en", reply.message, controller.names)
    assert words == "Already recorded: Ann told Bo: 1s, slot 1. Look again."
    assert controller.game is not None and len(controller.game.actions) == 1


def test_an_unpaired_or_removed_phone_can_do_nothing():
    """Rule: only a paired phone's token acts; removing it revokes it at once."""
    controller = controller_with(Game(memory_setup()))
    (reply,) = controller.handle(move(0, Hint(to=1, rank=1, slots=(1,)), token=b"other"))
    assert isinstance(reply, PhoneReply) and http_status(reply.outcome) == 401
    controller.paired = {}
    (reply,) = controller.handle(move(0, Hint(to=1, rank=1, slots=(1,))))
    assert isinstance(reply, PhoneReply) and http_status(reply.outcome) == 401
    assert controller.game is not None and not controller.game.actions


def test_a_phone_is_refused_what_the_panel_is_refused_in_the_same_words():
    """Rule: the same refusals in the same words (a hint to oneself)."""
    controller = controller_with(Game(memory_setup()))
    (reply,) = controller.handle(move(0, Hint(to=0, rank=1, slots=(1,))))
    assert isinstance(reply, PhoneReply) and isinstance(reply.message, Refused)
    with pytest.raises(IllegalAction) as panel:
        Game(memory_setup()).apply(Hint(to=0, rank=1, player=0, slots=(1,)))
    names = controller.names
    assert message_words("en", reply.message, names) == i18n.refusal_text("en", panel.value, names)
    assert controller.game is not None and not controller.game.actions


def test_pairing_needs_the_code_the_open_phones_page_shows():
    """Rule: pairing is for someone at the table: the Phones page open, its code typed,
    then the panel's OK ("Pair Bo's phone? OK"). Wrong codes never change the code; an
    address out of tries at this code is refused, and no other is."""
    controller = controller_with(Game(memory_setup()))
    controller.pairing_code = "123456"
    (closed,) = controller.handle(PhonePair("123456", "Bo", b"t"))
    assert isinstance(closed, PhoneReply) and http_status(closed.outcome) == 403
    controller.handle(Press(Key.MENU))
    assert isinstance(controller.choose_menu("phones")[0], NewPairingCode)
    controller.handle(PairingCodeMade("123456"))
    guess = PhonePair("000000", "Mal", b"m", address="10.0.0.66")
    effects = [controller.handle(guess) for _ in range(PAIRING_TRIES_PER_CODE + 3)]
    assert [http_status(e.outcome) for (e,) in effects] == [403] * PAIRING_TRIES_PER_CODE + [
        429
    ] * 3
    assert controller.pairing_code == "123456"  # never changed by a wrong code
    (spent,) = controller.handle(PhonePair("123456", "Mal", b"m", address="10.0.0.66"))
    assert isinstance(spent, PhoneReply) and http_status(spent.outcome) == 429
    # Bo, at another address, types the code: the panel asks, OK pairs, the code changes
    assert controller.handle(PhonePair("123456", "Bo", b"t", address="10.0.0.7")) == []
    assert controller.pending_pair_name() == "Bo"
    (busy,) = controller.handle(PhonePair("123456", "Cy", b"c", address="10.0.0.8"))
    assert isinstance(busy, PhoneReply) and http_status(busy.outcome) == 409
    assert controller.handle(Press(Key.NEXT)) == []  # only yes or no now
    paired, renew = controller.handle(Press(Key.OK))
    assert isinstance(paired, PairPhone) and paired.request.name == "Bo"
    assert isinstance(renew, NewPairingCode) and controller.pending_pair is None
    controller.handle(PairingCodeMade("654321"))
    assert controller.pairing_misses == {}  # a new code: everyone's tries anew
    # BACK says no: the phone is told, nothing is paired
    assert controller.handle(PhonePair("654321", "Di", b"d", address="10.0.0.9")) == []
    (declined,) = controller.handle(Press(Key.BACK))
    assert isinstance(declined, PhoneReply) and http_status(declined.outcome) == 403
    assert declined.outcome is PhoneOutcome.DECLINED and controller.screen is Screen.PHONES
    # MENU while the panel asks: a no, too (the phone is told at once)
    assert controller.handle(PhonePair("654321", "Di", b"d", address="10.0.0.9")) == []
    (left,) = controller.handle(Press(Key.MENU))
    assert isinstance(left, PhoneReply) and left.outcome is PhoneOutcome.DECLINED
    assert controller.pending_pair is None and controller.screen is Screen.MENU


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                Hint(to=1, rank=1, slots=(1,)),
                Hint(to=2, color=Color.RED, slots=(1,)),
                Hint(to=0, rank=2, slots=(1,)),  # to oneself: refused
                Discard(Card.from_code("B1"), slot=4),
                Play(Card.from_code("R1"), slot=2),
                Play(Card.from_code("R1"), slot=9),  # no such slot: refused
                None,  # undo
            ]
        ),
        min_size=2,
        max_size=6,
    ),
    st.integers(0, 3),
)
def test_phones_racing_for_one_turn_exactly_one_wins(racing, panel_at):
    """Rule: any number of phones (and an entry on the panel) sending for the same position:
    at most one is recorded, every other is refused and changes nothing."""
    game = Game(memory_setup())
    for to in (1, 2, 0):  # a round of hints: Ann's turn again, 5 tokens, an action to undo
        game.apply(Hint(to=to, rank=3, slots=(5,)))
    controller = controller_with(game)
    position = len(game.actions)
    recorded = 0
    for number, action in enumerate(racing):
        if number == panel_at:
            controller.handle(Press(Key.DISCARD))  # the panel starts an entry meanwhile
        effects = controller.handle(move(position, action))
        recorded += sum(isinstance(e, RecordAction | RecordUndo) for e in effects)
    legal = [a for a in racing if not _illegal(a)]
    assert recorded == (1 if legal else 0)
    expected = position + (0 if not legal else (-1 if legal[0] is None else 1))
    assert controller.game is not None and len(controller.game.actions) == expected


def _illegal(action: Hint | Play | Discard | None) -> bool:
    """The race's moves refused whatever the position: a hint to oneself, slot 9."""
    if isinstance(action, Hint):
        return action.to == 0
    return isinstance(action, Play) and action.slot == 9


# -- the real app, its database and its server --------------------------------------------


class Table:
    """The companion as it runs: a real App (dummy video), its SQLite file, the server.

    Requests go from worker threads while :meth:`pump` turns the app's loop here."""

    def __init__(self, data_dir: Path, options: GameOptions) -> None:
        self.data_dir = data_dir
        self.storage = Storage.open(data_dir)
        draft = SetupDraft(players=3, names=["Ann", "Bo", "Cy"], options=options)
        controller, game_id = resume(self.storage, draft)
        self.display = open_display("dummy", (480, 320))
        self.app = App(self.storage, self.display, controller, game_id)
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.web = WebLink(self.storage, port=self.port, bind="127.0.0.1")
        self.app.attach_web(self.web)
        self.app.step()
        assert self.web.wait_ready(10) and self.web.server is not None
        self.workers = ThreadPoolExecutor(4)

    @property
    def code(self) -> str:
        return self.web.code

    def start_game(self) -> None:
        if self.app.controller.game is None:
            self.app.dispatch(Press(Key.OK))
            self.app.step()

    def pump(self, *futures: Future[Any], limit: float = 20.0) -> None:
        end = time.monotonic() + limit
        while not all(f.done() for f in futures):
            assert time.monotonic() < end, "no answer"
            self.app.step(20)

    def request(
        self,
        method: str,
        path: str,
        body: object = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, dict[str, Any]]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        future = self.workers.submit(self.send, method, path, data, headers)
        self.pump(future)
        return future.result()

    def send(
        self, method: str, path: str, data: bytes | None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, Any]]:
        """One request, answered (from a worker thread: the test's thread turns the loop)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            sent = {"Cookie": f"table={self.code}", **(headers or {})}
            if data is not None:
                sent.setdefault("Content-Type", "application/json")
            connection.request(method, path, body=data, headers=sent)
            answer = connection.getresponse()
            text = answer.read()
            try:
                return answer.status, json.loads(text)
            except ValueError:
                return answer.status, {"raw": text.decode()}
        finally:
            connection.close()

    def pair(self, name: str) -> str:
        controller = self.app.controller
        self.app.dispatch(Press(Key.MENU))
        self.app.dispatch(Select("phones"))
        assert controller.screen is Screen.PHONES and controller.pairing_code is not None
        body = json.dumps({"code": controller.pairing_code, "name": name}).encode()
        future = self.workers.submit(self.send, "POST", "/api/pair", body)
        end = time.monotonic() + 20
        while controller.pending_pair is None:  # the panel asks "Pair Ann's phone? OK"
            assert time.monotonic() < end and not future.done(), future
            self.app.step(20)
        self.app.dispatch(Press(Key.OK))
        self.pump(future)
        status, answer = future.result()
        assert status == 200, answer
        self.app.dispatch(Press(Key.BACK))
        return str(answer["token"])

    def act(
        self, token: str, action: dict[str, Any], request_id: str | None = None, **kw: Any
    ) -> tuple[int, dict[str, Any]]:
        snapshot = self.snapshot()
        body = {
            "id": request_id or next(IDS),
            "game": kw.get("game", snapshot["game"]),
            "position": kw.get("position", snapshot["actions"]),
            "action": action,
        }
        return self.request("POST", "/api/act", body, {TOKEN_HEADER: token})

    def snapshot(self) -> dict[str, Any]:
        return self.request("GET", "/snapshot.json")[1]

    def stored(self) -> list[Hint | Play | Discard]:
        game_id = self.app.game_id
        assert game_id is not None
        return list(self.storage.load(game_id).actions)

    def close(self) -> None:
        self.workers.shutdown(wait=False, cancel_futures=True)
        self.web.stop()
        self.display.close()
        self.storage.close()


@pytest.fixture
def open_table(tmp_path, headless) -> Iterator[Callable[..., Table]]:
    tables: list[Table] = []

    def make(options: GameOptions | None = None) -> Table:
        table = Table(tmp_path / "data", options or GameOptions(hand_memory=True))
        tables.append(table)
        return table

    yield make
    for table in tables:
        table.close()


def test_a_paired_phone_records_a_hint_with_slots_stored_before_it_is_answered(open_table):
    """Rule: a phone's hint is the panel's hint; it is in the database when answered."""
    table = open_table()
    table.start_game()
    token = table.pair("Ann")
    status, answer = table.act(token, {"action": "hint", "to": 1, "color": "red", "slots": [1, 2]})
    assert status == 200 and answer == {
        "ok": True,
        "text": "Ann told Bo: red, slots 1 and 2 (Ann's phone)",
        "actions": 1,
    }
    assert table.stored() == [Hint(to=1, color=Color.RED, player=0, slots=(1, 2))]
    assert table.snapshot()["last_action"] == answer["text"]
    assert table.request("GET", "/api/phone", headers={TOKEN_HEADER: token}) == (
        200,
        {"paired": True, "name": "Ann"},
    )
    assert table.request("GET", "/api/phone", headers={TOKEN_HEADER: "x"})[1] == {"paired": False}


def test_a_retried_request_is_recorded_once_and_answered_the_same(open_table):
    """Rule: the same id twice (the answer was lost) is one action and one answer, even
    after the companion restarted between the request and its retry."""
    table = open_table()
    table.start_game()
    token = table.pair("Ann")
    first = table.act(token, {"action": "play", "card": "B1", "slot": 5}, "retry-0000000001")
    again = table.act(
        token, {"action": "play", "card": "B1", "slot": 5}, "retry-0000000001", position=0
    )
    assert first == again and first[0] == 200
    table.close()
    reopened = open_table()
    later = reopened.act(
        token, {"action": "play", "card": "B1", "slot": 5}, "retry-0000000001", position=0
    )
    assert later == first
    assert len(reopened.stored()) == 1


def test_a_request_whose_answer_was_lost_is_recorded_once(open_table):
    """Rule: the phone sent, the Wi-Fi dropped the answer: the retry finds it recorded."""
    table = open_table()
    table.start_game()
    token = table.pair("Ann")
    body = json.dumps(
        {
            "id": "lost-answer-000001",
            "game": table.snapshot()["game"],
            "position": 0,
            "action": {"action": "hint", "to": 2, "rank": 1, "slots": [1]},
        }
    ).encode()
    with socket.create_connection(("127.0.0.1", table.port)) as sock:
        sock.sendall(
            b"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: table=%s\r\n%s: %s\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
            % (table.code.encode(), TOKEN_HEADER.encode(), token.encode(), len(body), body)
        )
        end = time.monotonic() + 10
        while not table.stored():  # recorded; the phone goes away without reading the answer
            assert time.monotonic() < end
            table.app.step(20)
    status, answer = table.act(
        token, {"action": "hint", "to": 2, "rank": 1, "slots": [1]}, "lost-answer-000001"
    )
    assert status == 200 and answer["actions"] == 1
    assert len(table.stored()) == 1


def test_a_removed_phone_is_refused_at_once(open_table):
    """Rule: removing a phone on the panel revokes its token from the next request."""
    table = open_table()
    table.start_game()
    token = table.pair("Ann")
    (phone,) = table.storage.paired_phones().values()
    table.app.dispatch(Press(Key.MENU))
    table.app.dispatch(Select("phones"))
    table.app.dispatch(Select(f"remove_phone:{phone.id}"))
    table.app.dispatch(Press(Key.OK))  # "Remove Ann's phone? OK"
    assert table.storage.paired_phones() == {}
    status, answer = table.act(token, {"action": "play", "card": "B1", "slot": 5})
    assert status == 401 and "pair it again" in answer["text"]
    assert table.stored() == []


def test_a_cross_site_form_post_changes_nothing(open_table):
    """Rule: no cross-site request can act: a form's body, another site's Origin, or no
    token header are all refused, even with the table's cookie."""
    table = open_table()
    table.start_game()
    token = table.pair("Ann")
    form = b"id=cross-site-00000001&game=1&position=0"
    status, _ = table.request(
        "POST",
        "/api/act",
        headers={"Content-Type": "application/x-www-form-urlencoded", TOKEN_HEADER: token},
        raw=form,
    )
    assert status == 403
    body = {"id": "cross-site-00000002", "game": "1", "position": 0, "action": {"action": "undo"}}
    status, _ = table.request(
        "POST", "/api/act", body, {TOKEN_HEADER: token, "Origin": "http://evil.example"}
    )
    assert status == 403
    status, _ = table.request("POST", "/api/act", body)  # the cookie alone
    assert status == 401
    assert table.stored() == []


def test_pairing_is_rate_limited_and_needs_the_open_page(open_table):
    """Rule: pairing attempts are limited per address; a wrong code pairs nothing."""
    table = open_table()
    status, answer = table.request("POST", "/api/pair", {"code": "000000", "name": "X"})
    assert status == 403 and "Phones page" in answer["text"]
    for _ in range(PAIR_TRIES_PER_ADDRESS - 1):
        assert table.request("POST", "/api/pair", {"code": "000000", "name": "X"})[0] == 403
    status, answer = table.request("POST", "/api/pair", {"code": "000000", "name": "X"})
    assert status == 429 and "wait a minute" in answer["text"]
    assert table.storage.paired_phones() == {}


def test_a_phones_undo_and_preview_say_the_panels_words(open_table):
    """Rule: the same preview and the same undo as the panel, in the same words."""
    table = open_table()
    table.start_game()
    token = table.pair("Ann")
    snapshot = table.snapshot()
    body = {
        "game": snapshot["game"],
        "position": 0,
        "action": {"action": "play", "card": "R1", "slot": 1},
    }
    status, preview = table.request("POST", "/api/preview", body, {TOKEN_HEADER: token})
    assert status == 200 and preview == {
        "ok": True,
        "text": "red 1 fits: red firework goes to 1",
        "actions": 0,
    }
    assert table.stored() == []  # a preview changes nothing
    table.act(token, {"action": "play", "card": "R1", "slot": 1})
    status, undone = table.act(token, {"action": "undo"})
    assert status == 200 and undone["text"] == "Undone: Ann played red 1 (Ann's phone)"
    assert table.stored() == []


def test_a_game_that_ends_by_a_phone_is_finished_in_the_database(open_table):
    """Rule: the end of a game entered from a phone is stored as the panel's is."""
    table = open_table(GameOptions())
    table.start_game()
    token = table.pair("Ann")
    for card in ("R2", "Y2", "G2"):  # three misplays lose the game
        status, answer = table.act(token, {"action": "play", "card": card})
        assert status == 200, answer
    assert table.app.controller.screen is Screen.END
    assert table.storage.load(table.app.game_id or 0).status.value == "over"


def test_answers_are_kept_a_day_for_retries_then_forgotten(tmp_path):
    """Rule: a retry is answered from the database for a day; older answers are dropped
    (the table refuses such a request anyway: its position is long gone)."""
    from datetime import UTC, datetime, timedelta

    from companion.vocabulary.phone import PhoneReceipt

    now = [datetime(2026, 11, 25, 12, 0, tzinfo=UTC)]
    with Storage.open(tmp_path / "data", now=lambda: now[0]) as storage:
        storage.keep_phone_answer(PhoneReceipt("old-request-00000001", 1, 409, {"ok": False}))
        storage.keep_phone_answer(PhoneReceipt("old-request-00000001", 2, 200, {"ok": True}))
        now[0] += timedelta(hours=23)
        storage.keep_phone_answer(PhoneReceipt("new-request-00000001", 1, 200, {"ok": True}))
        now[0] += timedelta(hours=2)
        assert storage.forget_phone_answers() == 2
        assert storage.phone_answer(1, "old-request-00000001") is None
        assert storage.phone_answer(1, "new-request-00000001") == (200, {"ok": True})
        assert storage.phone_answer(2, "new-request-00000001") is None  # phone 1's, not 2's


def test_a_move_made_on_the_game_before_is_refused_and_an_unpaired_phone_learns_nothing(
    open_table,
):
    """Rule: a position is a game and its count of actions: a request made on the game
    before is refused in words; an unpaired phone hears only that it is not paired."""
    table = open_table()
    table.start_game()
    token = table.pair("Ann")
    status, answer = table.act(token, {"action": "play", "card": "R1", "slot": 1}, game="999")
    assert status == 409 and answer["text"] == "A new game has started: look again."
    status, answer = table.act("stranger", {"action": "play", "card": "R1", "slot": 1}, game="999")
    assert status == 401 and "not paired" in answer["text"]
    assert table.stored() == []


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=10,
)
ACTION_BODIES = st.fixed_dictionaries(
    {"action": st.sampled_from(["hint", "play", "discard", "undo", "pass", ""])},
    optional={
        "to": JSON | st.integers(-1, 5),
        "card": JSON | st.sampled_from(["R1", "B5", "Z9", ""]),
        "slot": JSON | st.integers(-1, 9),
        "slots": JSON | st.lists(st.integers(-1, 9), max_size=6),
        "color": JSON | st.sampled_from(["red", "blue", "pink"]),
        "rank": JSON | st.integers(-1, 7),
        "announce": JSON,
    },
)


@pytest.fixture(scope="module")
def fuzzed_table(tmp_path_factory) -> Iterator[tuple[Table, str]]:
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(name, raising=False)
    table = Table(tmp_path_factory.mktemp("fuzz") / "data", GameOptions(hand_memory=True))
    table.start_game()
    token = table.pair("Ann")
    yield table, token
    table.close()
    monkeypatch.undo()


@settings(max_examples=150, deadline=None)
@given(
    body=st.one_of(
        JSON,
        st.fixed_dictionaries(
            {"id": st.text(string.ascii_letters, min_size=16, max_size=20), "game": JSON},
            optional={"position": JSON | st.integers(-1, 3), "action": JSON | ACTION_BODIES},
        ),
    ),
    path=st.sampled_from(["/api/act", "/api/preview"]),
)
def test_any_body_from_a_paired_phone_gets_one_sentence_and_only_a_legal_one_acts(
    fuzzed_table, body, path
):
    """Rule: bad input gets a clear message and changes nothing: whatever a paired phone
    sends (over 1 kB too), the answer is one sentence with a 2xx/4xx status (never a
    server error, never the library's own English), and
    the stored game changes only by an accepted action."""
    table, token = fuzzed_table
    before = len(table.stored())
    headers = {TOKEN_HEADER: token, "Content-Type": "application/json"}
    status, answer = table.request("POST", path, headers=headers, raw=json.dumps(body).encode())
    assert status in (200, 400, 409, 413), (status, answer)
    assert isinstance(answer.get("text"), str) and answer["text"]
    assert "Traceback" not in answer["text"] and "Error" not in answer["text"]
    accepted = path == "/api/act" and status == 200
    assert len(table.stored()) == before + (0 if not accepted else answer["actions"] - before)


def test_a_body_over_a_kilobyte_gets_the_tables_sentence(open_table):
    """Rule: an oversized body is refused in the table's words (413), not the library's."""
    table = open_table()
    token = table.pair("Ann")
    headers = {TOKEN_HEADER: token, "Content-Type": "application/json"}
    status, answer = table.request(
        "POST", "/api/act", headers=headers, raw=b'"' + b"x" * 2000 + b'"'
    )
    assert status == 413 and answer == {
        "ok": False,
        "text": "The companion did not understand this request: reload the page.",
    }


def test_refused_actions_are_counted_not_stored_and_answers_are_per_phone(open_table):
    """Issue 37: 4,000 refused requests were 4,000 rows (the action rate fell from 496 to
    76 a second): refusals are counted and their answers kept in memory for a retry;
    a stored answer is found by (phone, request id): Bo reusing Ann's id is judged anew."""
    table = open_table()
    table.start_game()
    ann = table.pair("Ann")
    bo = table.pair("Bo")
    to_herself = {"action": "hint", "to": 0, "rank": 1, "slots": [1]}
    for number in range(30):
        status, answer = table.act(ann, to_herself, request_id=f"refused-{number:012d}")
        assert status == 409, answer
    first = table.act(ann, to_herself, request_id=f"refused-{0:012d}")  # a retry: the same
    assert first[0] == 409 and table.app.refused == 30
    with sqlite3.connect(table.storage.path) as db:
        assert db.execute("SELECT COUNT(*) FROM phone_requests").fetchone()[0] == 0
    hint = {"action": "hint", "to": 1, "rank": 1, "slots": [1]}
    status, answer = table.act(ann, hint, request_id="shared-id-00000001")
    assert status == 200
    status, other = table.act(bo, hint, request_id="shared-id-00000001")
    assert status == 409 and other != answer  # Bo's own answer (the table moved on), not Ann's
    assert len(table.stored()) == 1


def test_a_pairing_question_no_phone_waits_for_any_more_is_dropped():
    """The server stops waiting after 90 s: the panel's question goes before that, so an
    OK never pairs a phone that did not get its token; the next right code is asked."""
    now = ["2026-11-28T12:00:00+00:00"]
    controller = Controller(SetupDraft(players=3), Game(memory_setup()), clock=lambda: now[0])
    controller.handle(Press(Key.MENU))
    controller.choose_menu("phones")
    controller.handle(PairingCodeMade("123456"))
    assert controller.handle(PhonePair("123456", "Di", b"d", address="10.0.0.9")) == []
    now[0] = "2026-11-28T12:01:30+00:00"
    assert controller.handle(PhonePair("123456", "Ed", b"e", address="10.0.0.8")) == []
    assert controller.pending_pair_name() == "Ed"  # Di's question was dropped
    now[0] = "2026-11-28T12:03:00+00:00"
    assert controller.handle(Press(Key.OK)) == []  # too late: the page's OK (back)
    assert controller.pending_pair is None and controller.screen is not Screen.PHONES
