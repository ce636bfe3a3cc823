"""The page for phones (issue 21): snapshots, the server over real sockets, the table
code, the limits, and the app that plays on when the server fails.

Every server here is the real one (aiohttp in its own thread, on a free port), spoken
to over TCP with the standard library; nothing is mocked.
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core import i18n
from companion.core.controller import Controller, Screen, SetupDraft
from companion.panel.display import open_display
from companion.shell.app import App, resume
from companion.shell.web_link import WebLink, table_code
from companion.storage import Storage, StorageError, end_line
from companion.web.address import CODE_SETTING, page_url
from companion.web.server import MAX_LINE, WebServer, page_weight
from companion.web.snapshot import SnapshotBoard, build_snapshot
from engine import Card, GameSetup
from engine.actions import Discard, Hint, Play
from engine.cards import Color
from engine.game import Game
from engine.options import GameOptions

CODE = "abcd2345"


def memory_game() -> Game:
    """Two players with hand memory: a hint, a discard of a last copy, a play."""
    setup = GameSetup(players=2, names=("Ann", "Bo"), options=GameOptions(hand_memory=True))
    game = Game(setup)
    game.apply(Hint(to=1, color=Color.RED, slots=(1, 3)))
    game.apply(Discard(Card.from_code("B5"), slot=2))
    game.apply(Play(Card.from_code("R1"), slot=1))
    return game


def controller_for(game: Game | None, language: str = "en") -> Controller:
    return Controller(SetupDraft(players=2, language=language), game)


@pytest.fixture
def served() -> Iterator[WebServer]:
    board = SnapshotBoard(build_snapshot(controller_for(memory_game()), game_key="1"))
    server = WebServer(board, CODE, port=0, bind="127.0.0.1")
    server.start()
    assert server.ready.wait(10) and server.failure is None
    yield server
    server.stop()


def get(
    server: WebServer, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    assert server.bound_port is not None
    connection = http.client.HTTPConnection("127.0.0.1", server.bound_port, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


class Stream:
    """An SSE stream read over a raw socket, event by event."""

    def __init__(
        self,
        server: WebServer,
        path: str,
        headers: dict[str, str] | None = None,
        source: str = "127.0.0.1",
    ):
        assert server.bound_port is not None
        self.sock = socket.create_connection(
            ("127.0.0.1", server.bound_port), timeout=10, source_address=(source, 0)
        )
        lines = [
            f"GET {path} HTTP/1.1",
            "Host: 127.0.0.1",
            *(f"{k}: {v}" for k, v in (headers or {}).items()),
        ]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        self.status = int(head.split(b" ")[1])

    def _until(self, mark: bytes) -> bytes:
        while mark not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError("the stream ended")
            self.buffer += data
        head, self.buffer = self.buffer.split(mark, 1)
        return head

    def event(self) -> tuple[str, dict[str, object]]:
        """The next event (chunk framing stripped): its id and its data."""
        while True:
            block = self._until(b"\n\n").decode()
            fields = dict(
                line.split(": ", 1)
                for line in block.splitlines()
                if ": " in line and not line.startswith(":")
            )
            if "data" in fields:
                return fields["id"], json.loads(fields["data"])

    def close(self) -> None:
        self.sock.close()


def test_snapshot_says_the_table_in_plain_values_and_the_tables_language():
    """The snapshot holds what the panel shows: turn, tokens, fireworks, score line, the
    discard pile by suit with its marks, the recent actions newest first, every hand's
    memory slot 1 first; its words are the companion's own, in the table's language."""
    game = memory_game()
    snapshot = build_snapshot(controller_for(game), game_key="7")
    assert snapshot.playing and snapshot.actions == 3 and snapshot.game == "7"
    assert snapshot.turn == "Bo to play"
    assert snapshot.hints == 8 and snapshot.fuses == 0
    assert [(suit.letter, suit.top) for suit in snapshot.suits][:2] == [("R", 1), ("Y", 0)]
    # B5 discarded: the only copy, gone for good: the blue firework is dead, the card "×"
    assert snapshot.discards == (("B", (snapshot.discards[0][1][0],)),)
    assert (snapshot.discards[0][1][0].rank, snapshot.discards[0][1][0].mark) == (5, "×")
    assert next(suit for suit in snapshot.suits if suit.letter == "B").dead
    assert snapshot.recent[0] == "Ann played red 1"
    # the hint said as the panel says it (one source: companion.core.i18n)
    assert snapshot.recent[-1] == i18n.describe_event("en", game.events[0], ("Ann", "Bo"))
    bo = snapshot.seats[1]
    assert bo.current and bo.name == "Bo"
    # Bo's slots 1 and 3 were hinted red; slot 2 left (discarded): slot 1 moved to 2,
    # the new card is slot 1, unknown; slots 4 and 5 are not red
    assert [slot.number for slot in bo.hand] == [1, 2, 3, 4, 5]
    assert bo.hand[0].color == "" and bo.hand[0].not_colors == ()
    assert bo.hand[0].not_ranks == () and not bo.hand[0].touched
    assert [slot.color for slot in bo.hand] == ["", "R", "R", "", ""]
    assert bo.hand[1].touched and bo.hand[2].touched
    assert bo.hand[3].not_colors == ("R",) and not bo.hand[3].touched
    french = build_snapshot(controller_for(game, "fr"))
    assert french.turn == "À Bo de jouer"
    assert dict(french.labels)["my_hand"] == "Ma main"
    assert json.loads(json.dumps(snapshot.to_json()))["labels"]["recent"] == "Last actions"


def test_the_pages_json_has_every_view_as_an_object_nested_values_included():
    """Rule: the JSON the page reads names every value, down to a hand's slots and the
    discards (the views are value types; their JSON is made recursively, not one level)."""
    snapshot = build_snapshot(controller_for(memory_game()), game_key="7")
    data = json.loads(json.dumps(snapshot.to_json()))
    assert data["seats"][1]["name"] == "Bo" and data["seats"][1]["current"] is True
    assert data["seats"][1]["hand"][1] == {
        "number": 2,
        "color": "R",
        "not_colors": [],
        "rank": 0,
        "not_ranks": [],
        "touched": True,
    }
    assert data["suits"][0] == {"letter": "R", "name": "red", "top": 1, "dead": False}
    assert data["discards"] == [["B", [{"letter": "B", "rank": 5, "mark": "×"}]]]
    assert data["hand_sizes"] == [5, 5]
    assert data["labels"]["my_hand"] == "My hand"


def test_board_publishes_only_a_changed_table():
    """Publishing the same table again is not a change (no event to the phones)."""
    controller = controller_for(memory_game())
    board = SnapshotBoard(build_snapshot(controller))
    woken = []
    board.listen(lambda: woken.append(1))
    assert not board.publish(build_snapshot(controller))
    assert controller.game is not None
    controller.game.apply(Hint(to=0, rank=1, slots=(2,)))
    assert board.publish(build_snapshot(controller))
    assert woken == [1] and board.latest()[0] == 1


def test_every_request_needs_the_table_code(served):
    """Without the code (or with a wrong one): 403 and one sentence, for every path; with
    ``?code=`` the page and a cookie; the cookie alone is then enough."""
    for path in ("/", "/snapshot.json", "/events", "/static/app.js", "/nothing"):
        status, _, body = get(served, path)
        assert status == 403, path
        assert body.decode().strip() == (
            "This page needs the table code: scan the QR code on the companion's Phones page."
        )
    assert get(served, "/?code=wrong")[0] == 403
    status, headers, body = get(served, f"/?code={CODE}")
    assert status == 200 and b"<!doctype html>" in body
    assert f"table={CODE}" in headers["Set-Cookie"] and "HttpOnly" in headers["Set-Cookie"]
    status, _, body = get(served, "/snapshot.json", {"Cookie": f"table={CODE}"})
    assert status == 200 and json.loads(body)["turn"] == "Bo to play"


def test_only_the_pages_files_are_served(served):
    """No directory listing, no path outside the page's files, no other method."""
    cookie = {"Cookie": f"table={CODE}"}
    for path in (
        "/static/",
        "/static/../server.py",
        "/static/..%2fserver.py",
        "/static/%2e%2e/%2e%2e/config.py",
        "/static/index.html",  # the page is "/", once
        "/static//etc/passwd",
        "/../../etc/passwd",
        "/static/.hidden",
    ):
        status, _, body = get(served, path, cookie)
        assert status == 404, (path, status)
        assert b"import" not in body and b"root:" not in body
    assert get(served, "/static/app.css", cookie)[0] == 200
    assert served.bound_port is not None
    connection = http.client.HTTPConnection("127.0.0.1", served.bound_port, timeout=10)
    connection.request("POST", "/snapshot.json", body=b"{}", headers=cookie)
    assert connection.getresponse().status == 405
    connection.close()


def test_oversized_requests_are_refused(served):
    """A request line or a header beyond the limits is refused, and the server serves on."""
    assert get(served, "/?code=" + "x" * (MAX_LINE + 10))[0] in (400, 414)
    assert get(served, "/", {"Cookie": "table=" + "y" * 10000})[0] in (400, 431)
    assert get(served, f"/?code={CODE}")[0] == 200


def test_events_start_with_the_table_now_and_follow_every_change(served):
    """SSE: the first event is the current table (whatever Last-Event-ID says), its id the
    action count; each change after is one event."""
    stream = Stream(served, f"/events?code={CODE}", {"Last-Event-ID": "1"})
    try:
        assert stream.status == 200
        event_id, table = stream.event()
        assert (event_id, table["actions"]) == ("3", 3)
        game = memory_game()
        game.apply(Hint(to=0, rank=1, slots=(2,)))
        served.board.publish(build_snapshot(controller_for(game), game_key="1"))
        event_id, table = stream.event()
        assert event_id == "4" and table["turn"] == "Ann to play"
    finally:
        stream.close()


def test_a_new_code_closes_open_pages_and_old_links(served):
    """A new table code ends every open stream and the old code gets 403."""
    stream = Stream(served, f"/events?code={CODE}")
    try:
        stream.event()
        served.code = "newcode9"
        with pytest.raises((EOFError, ConnectionError)):
            stream.event()
    finally:
        stream.close()
    assert get(served, f"/?code={CODE}")[0] == 403
    assert get(served, "/?code=newcode9")[0] == 200


def test_a_slow_phone_does_not_stall_the_others(served):
    """A client that sends half a request and never reads holds nothing: others are served
    (it holds at most its own address's connections: tests/web/test_web_floods.py)."""
    assert served.bound_port is not None
    port = served.bound_port
    stuck = [
        socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.50", 0))
        for _ in range(20)
    ]
    for sock in stuck:
        sock.sendall(b"GET /events?code=" + CODE.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    try:
        assert get(served, f"/snapshot.json?code={CODE}")[0] == 200
    finally:
        for sock in stuck:
            sock.close()


def test_a_server_that_cannot_start_is_one_line_and_start_returns(caplog):
    """Port taken: the server says so in one line (no Python internals) and gives up;
    start() never raises."""
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    board = SnapshotBoard(build_snapshot(controller_for(None)))
    server = WebServer(board, CODE, port=port, bind="127.0.0.1")
    with caplog.at_level(logging.WARNING, logger="hanabi-companion"):
        server.start()
        assert server.ready.wait(10)
        server.stop()
    taken.close()
    lines = [record.getMessage() for record in caplog.records]
    assert lines == [
        f"web: cannot serve the page for phones on 127.0.0.1, port {port}: address already in use"
    ]


def test_the_app_plays_on_when_the_server_fails(tmp_path, headless, caplog):
    """The app with [web] on and its port taken: one line in the log, and the game goes on
    (actions recorded, frames drawn), the snapshot still built."""
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    storage = Storage.open(tmp_path / "data")
    controller, game_id = resume(storage, SetupDraft(players=2, hint_content=False))
    display = open_display("dummy", (480, 320))
    app = App(storage, display, controller, game_id)
    web = WebLink(storage, port=taken.getsockname()[1], bind="127.0.0.1")
    app.attach_web(web)
    from hardware.events import Key, Press

    try:
        with caplog.at_level(logging.WARNING, logger="hanabi-companion"):
            app.step()
            assert web.wait_ready(10) and web.server is not None
            app.dispatch(Press(Key.OK))  # start a game
            app.dispatch(Press(Key.HINT))
            app.step()
        assert app.controller.game is not None and len(app.controller.game.actions) == 1
        assert web.board is not None and web.board.latest()[1].actions == 1
        warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1 and warnings[0].startswith("web: cannot serve")
    finally:
        web.stop()
        display.close()
        storage.close()
        taken.close()


def test_the_app_publishes_each_change_and_a_new_code_from_the_menu(tmp_path, headless):
    """In the app: the page follows the game (an action is an event), the Phones page
    shows the URL, and its New code button replaces the stored code: old links get 403."""
    storage = Storage.open(tmp_path / "data")
    controller, game_id = resume(storage, SetupDraft(players=2, hint_content=False))
    display = open_display("dummy", (480, 320))
    app = App(storage, display, controller, game_id)
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    web = WebLink(storage, port=port, bind="127.0.0.1")
    app.attach_web(web)
    from hardware.events import Key, Press, Select

    try:
        app.step()
        assert web.wait_ready(10) and web.server is not None
        old = web.code
        assert storage.get_setting(CODE_SETTING) == old
        stream = Stream(web.server, f"/events?code={old}")
        assert stream.event()[1]["playing"] is False
        app.dispatch(Press(Key.OK))
        app.step()
        assert stream.event()[1]["playing"] is True
        app.dispatch(Press(Key.HINT))
        app.step()
        event_id, table = stream.event()
        game = app.controller.game
        assert game is not None
        said = i18n.describe_event("en", game.events[0], game.setup.names)
        assert event_id == "1" and table["recent"] == [said]
        app.dispatch(Press(Key.MENU))
        app.controller.choose_menu("phones")
        assert app.controller.screen is Screen.PHONES
        assert app.controller.phones_url == page_url("127.0.0.1", port, old)
        app.dispatch(Select("phones_new_code"))
        app.step()
        assert web.code != old and storage.get_setting(CODE_SETTING) == web.code
        assert app.controller.phones_url == page_url("127.0.0.1", port, web.code)
        assert get(web.server, f"/?code={old}")[0] == 403
        assert get(web.server, f"/?code={web.code}")[0] == 200
        stream.close()
    finally:
        web.stop()
        display.close()
        storage.close()


def test_the_table_code_is_kept(tmp_path):
    """The code survives a restart (it is in the settings): printed links keep working."""
    with Storage.open(tmp_path / "data") as storage:
        first = table_code(storage)
    with Storage.open(tmp_path / "data") as storage:
        assert table_code(storage) == first


def test_the_first_load_is_under_150_kB_compressed():
    """Issue 21: the page's first load (every file) is at most 150 kB gzipped."""
    raw, gzipped = page_weight()
    assert gzipped <= 150_000 and raw > gzipped


def test_no_resource_from_the_internet():
    """The page loads nothing from another host: no http(s):// or // URL in its files."""
    import re

    from companion.web.server import STATIC_DIR

    loads = re.compile(
        r"""(src|href|action)\s*=\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//"""
        r"""|(fetch|import|EventSource)\(\s*["'`](https?:)?//|@import"""
    )
    for path in STATIC_DIR.iterdir():
        found = loads.search(path.read_text())
        assert found is None, (path.name, found)


def test_serving_waits_for_the_first_frame_and_does_not_import_aiohttp_before(tmp_path):
    """Importing the app and building snapshots loads no aiohttp: it comes with the first
    frame (the start-to-first-frame time does not grow)."""
    import subprocess
    import sys

    code = (
        "import sys, companion.shell.app, companion.shell.cli, companion.shell.web_link,"
        " companion.web.snapshot;"
        "print('aiohttp' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_server_is_imported_and_serves_without_openssl():
    """Issue 21's memory aim: the app imports the server as on a Python without ``ssl``
    (``companion.shell.no_tls``, as ``run`` and ``WebLink`` do), so OpenSSL's TLS library is
    never loaded; the page, plain HTTP, is served all the same, and ``ssl`` is
    importable again afterwards."""
    import subprocess
    import sys

    code = f"""
import sys
from companion.shell.no_tls import without_tls
assert "ssl" not in sys.modules
with without_tls():
    from companion.web.server import WebServer
print("ssl" in sys.modules, "_ssl" in sys.modules)
from companion.core.controller import Controller, SetupDraft
from companion.web.snapshot import SnapshotBoard, build_snapshot
server = WebServer(SnapshotBoard(build_snapshot(Controller(SetupDraft(players=3)))), {CODE!r},
                   port=0, bind="127.0.0.1")
server.start()
assert server.ready.wait(10)
with open("/proc/self/maps") as maps:
    print(any("libssl" in line for line in maps))
import urllib.request  # loads ssl: the block is over
url = f"http://127.0.0.1:{{server.bound_port}}/snapshot.json?code={CODE}"
with urllib.request.urlopen(url) as got:
    print(got.status)
server.stop()
import ssl
print(ssl.OPENSSL_VERSION.split()[0])
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:4] == ["False False", "False", "200", "OpenSSL"]


def _answer_status(port: int, data: bytes) -> int | None:
    """Send raw bytes; the status of the answer (None: closed or silent, as a broken
    request may be)."""
    with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
        try:
            sock.sendall(data)
            answer = sock.recv(65536)
        except OSError:
            return None
    if not answer.startswith(b"HTTP/1."):
        return None
    return int(answer.split(b" ", 2)[1])


REQUEST_PARTS = st.sampled_from(
    [b"GET ", b"POST ", b"/", b"/static/", b"../", b"%2e%2e/", b"?code=", CODE.encode(), b"%00",
     b" HTTP/1.1", b"\r\n", b"Host: x", b"Cookie: table=", b"Last-Event-ID: ", b":", b"\xff",
     b"events", b"snapshot.json", b"app.js", b"Content-Length: 5", b"\r\n\r\n"]
)  # fmt: skip


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.one_of(st.binary(max_size=300), st.lists(REQUEST_PARTS, max_size=14).map(b"".join)))
def test_malformed_requests_never_break_the_server(served, data):
    """Fuzz (a small one; benchmarks/web_fuzz.py sends thousands): any bytes get a refusal
    or a page, never a server error, never a file outside the page's folder, and the next
    valid request is served."""
    assert served.bound_port is not None
    status = _answer_status(served.bound_port, data)
    assert status is None or status < 500, (data, status)
    status, _, body = get(served, f"/?code={CODE}")
    assert status == 200 and b"<!doctype html>" in body


def stored_games(data_dir: Path, finished: int = 4) -> Storage:
    """A games database with ``finished`` games played to their end (3 players, then 2),
    and one left unfinished."""
    import random

    from engine.table import SimulatedTable

    storage = Storage.open(data_dir)
    for seed in range(finished + 1):
        players = 3 if seed % 2 == 0 else 2
        setup = GameSetup(players=players, names=("Ann", "Bo", "Cy")[:players])
        table = SimulatedTable(setup, random.Random(seed), skill=0.9)
        game_id = storage.new_game(setup)
        steps = 6 if seed == finished else 10_000
        while not table.game.is_over and steps:
            table.step()
            storage.append_action(game_id, table.game.actions[-1])
            steps -= 1
        if table.game.is_over:
            storage.finish(game_id, table.game)
    return storage


def test_the_history_is_read_through_a_read_only_handle(tmp_path):
    """Issue 21: the history for phones lists every game (the unfinished one marked),
    best/average per table, the scores the charts draw, a game's actions in words and
    its log as ``export`` gives it; its handle cannot write."""
    from companion.web.history import HistorySource

    storage = stored_games(tmp_path / "data")
    source = HistorySource(storage)
    try:
        data = source.history("en")
        assert len(data["games"]) == 5
        assert data["games"][0]["resumable"] and "unfinished" in data["games"][0]["first"]
        assert not any(game["resumable"] for game in data["games"][1:])
        groups = {series["group"]: series for series in data["series"]}
        assert set(groups) == {"3P · Base game", "2P · Base game"}
        assert all(len(series["scores"]) == 2 for series in groups.values())
        assert sum(groups["3P · Base game"]["distribution"]) == 2
        assert data["labels"]["download"] == "Download the log"
        game = source.game(1, "fr")
        assert game is not None and game["names"] == ["Ann", "Bo", "Cy"]
        assert len(game["actions"]) == len(storage.load(1).actions)
        assert source.log(1) == storage.export(1) + end_line(1, storage.export(1))
        assert source.game(99, "en") is None and source.log(99) is None
        reader = source._storage()
        with pytest.raises(StorageError):
            reader.set_setting("x", 1)
    finally:
        storage.close()


def test_the_history_routes_need_the_code_and_serve_the_log(tmp_path):
    """/history.json, /games/N.json, /games/N.log: the code needed, the log downloaded as
    a file, an unknown game 404."""
    from companion.web.history import HistorySource

    storage = stored_games(tmp_path / "data", finished=2)
    source = HistorySource(storage)
    board = SnapshotBoard(build_snapshot(controller_for(None)))
    server = WebServer(board, CODE, port=0, bind="127.0.0.1", history=source)
    server.start()
    try:
        assert server.ready.wait(10) and server.failure is None
        assert get(server, "/history.json")[0] == 403
        status, _, body = get(server, f"/history.json?code={CODE}")
        assert status == 200 and len(json.loads(body)["games"]) == 3
        status, headers, body = get(server, f"/games/1.log?code={CODE}")
        assert status == 200 and body.decode() == storage.export(1) + end_line(1, storage.export(1))
        assert headers["Content-Disposition"] == 'attachment; filename="hanabi-game-1.jsonl"'
        assert get(server, f"/games/77.json?code={CODE}")[0] == 404
        assert get(server, f"/games/-1.json?code={CODE}")[0] == 404
    finally:
        server.stop()
        storage.close()


def test_live_pages_are_limited_and_a_closed_one_frees_its_place(served):
    """At most MAX_STREAMS live pages in all (from many addresses, each within its
    STREAMS_PER_ADDRESS): one more gets 503 and one sentence; a page that is closed frees
    its place."""
    from companion.web.limits import STREAMS_PER_ADDRESS

    MAX_STREAMS = served.stream_places.total = 10 * STREAMS_PER_ADDRESS  # small, for speed
    streams = [
        Stream(served, f"/events?code={CODE}", source=f"127.0.1.{n // STREAMS_PER_ADDRESS}")
        for n in range(MAX_STREAMS)
    ]
    try:
        for stream in streams:
            stream.event()
        status, _, body = get(served, f"/events?code={CODE}")
        assert status == 503
        assert body.decode().strip() == (
            "Too many pages are open on the table right now: close one and try again."
        )
        streams.pop().close()
        deadline = time.monotonic() + 10
        while served.streams >= MAX_STREAMS and time.monotonic() < deadline:
            time.sleep(0.05)
        extra = Stream(served, f"/events?code={CODE}")
        assert extra.status == 200
        extra.close()
    finally:
        for stream in streams:
            stream.close()
