"""Malformed requests against the page for phones: counts tried / errors / crashes.

    .venv/bin/python benchmarks/web_fuzz.py [REQUESTS]

Starts the real server (aiohttp in its thread) and sends, over raw sockets, REQUESTS
(default 5,000) requests made from valid ones by mutation (bytes flipped, inserted,
cut, repeated), plus hand-written hostile ones (paths out of the page's folder, huge
lines and headers, bodies, bad methods, bad encodings, truncated requests). After each,
a valid request must still get the page.

- *tried*: requests sent;
- *refused*: answered 4xx (or closed without an answer: what a broken request gets);
- *served*: answered 2xx (a mutation that is still a valid request with the code);
- *errors*: answered 5xx (a bug on our side);
- *crashes*: the valid request after it failed (the server stopped serving), or a
  file outside the page's folder came back.

Figures are printed, never asserted (``tests/web/test_web.py`` runs a small fuzz as a test).
"""

from __future__ import annotations

import random
import socket
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

CODE = "fuzz2345"

VALID = [
    f"GET /?code={CODE} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode(),
    f"GET /events?code={CODE} HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: 3\r\n\r\n".encode(),
    f"GET /snapshot.json HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: table={CODE}\r\n\r\n".encode(),
    f"GET /static/app.js?code={CODE} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    "Accept-Encoding: gzip\r\n\r\n".encode(),
]

HOSTILE = [
    b"GET /static/../server.py?code=" + CODE.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET /static/..%2f..%2fconfig.py?code="
    + CODE.encode()
    + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET //etc/passwd?code=" + CODE.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\n\r\n",
    b"GET / HTTP/1.1\r\nX: " + b"b" * 100_000 + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\n" + b"X-A: 1\r\n" * 1000 + b"\r\n",
    b"POST /?code=" + CODE.encode() + b" HTTP/1.1\r\nContent-Length: 99999999\r\n\r\nxx",
    b"PUT /?code=" + CODE.encode() + b" HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n",
    b"GET /?code=\xff\xfe HTTP/1.1\r\nHost: \xc3\x28\r\n\r\n",
    b"GET / HTTP/9.9\r\n\r\n",
    b"\x00\x01\x02\x03\r\n\r\n",
    b"GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    b"GET /?code=" + CODE.encode() + b" HTTP/1.1\r\nCookie: " + b"table=x;" * 2000 + b"\r\n\r\n",
    b"GET /events?code=" + CODE.encode(),  # truncated, then closed
    b"\r\n" * 5000,
]

#: Bytes that only a file outside the page's folder would contain.
OUTSIDE = (b"import ", b"root:x:", b"[build-system]")


def mutate(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        kind = rng.randrange(5)
        at = rng.randrange(len(out) + 1)
        if kind == 0 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif kind == 1:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif kind == 2 and out:
            del out[at : at + rng.randint(1, 8)]
        elif kind == 3:
            piece = out[at : at + rng.randint(1, 16)]
            out[at:at] = piece * rng.randint(2, 50)
        else:
            out[at:at] = rng.choice([b"\r\n", b"%00", b"../", b"%2e%2e/", b":", b" ", b"\x00"])
    return bytes(out)


def send(port: int, data: bytes, timeout: float = 0.5) -> bytes:
    """Send ``data`` and read the answer's head (b"" when closed unanswered, or nothing
    came within ``timeout``: an incomplete request waits for the rest)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            sock.sendall(data)
        except OSError:
            return b""
        answer = b""
        try:
            while b"\r\n\r\n" not in answer:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
            if b"\r\n\r\n" in answer and b"text/event-stream" not in answer:
                head = answer.split(b"\r\n\r\n", 1)[0].lower()
                length = next(
                    (int(line.split(b":")[1]) for line in head.split(b"\r\n")
                     if line.startswith(b"content-length:")),
                    0,
                )  # fmt: skip
                while len(answer.split(b"\r\n\r\n", 1)[1]) < length:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    answer += chunk
        except OSError:
            pass
        return answer


def status_of(answer: bytes) -> int | None:
    if not answer.startswith(b"HTTP/1."):
        return None
    try:
        return int(answer.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None


def fuzz(port: int, requests: int, seed: int = 1) -> Counter[str]:
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    cases = [*HOSTILE]
    while len(cases) < requests:
        cases.append(mutate(rng, rng.choice(VALID)))
    for data in cases[:requests]:
        counts["tried"] += 1
        answer = send(port, data)
        status = status_of(answer)
        if status is None or 400 <= status < 500:
            counts["refused"] += 1
        elif status >= 500:
            counts["errors"] += 1
        else:
            counts["served"] += 1
        body = answer.split(b"\r\n\r\n", 1)[-1]
        outside = any(mark in body for mark in OUTSIDE)
        # the valid request may wait on a loaded machine: 10 s before it counts as a crash
        if outside or status_of(send(port, VALID[0], timeout=10.0)) != 200:
            counts["crashes"] += 1
    return counts


def main() -> None:
    from companion.core.controller import Controller, SetupDraft
    from companion.web.server import WebServer
    from companion.web.snapshot import SnapshotBoard, build_snapshot

    requests = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    board = SnapshotBoard(build_snapshot(Controller(SetupDraft(players=3))))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = WebServer(board, CODE, port=port, bind="127.0.0.1")
    server.start()
    assert server.ready.wait(10) and server.failure is None
    started = time.monotonic()
    counts = fuzz(port, requests)
    took = time.monotonic() - started
    server.stop()
    print(
        f"web fuzz: tried {counts['tried']}, refused {counts['refused']}, served"
        f" {counts['served']}, errors (5xx) {counts['errors']}, crashes {counts['crashes']}"
        f" ({took:.0f} s)"
    )


if __name__ == "__main__":
    main()
