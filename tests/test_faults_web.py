"""The web front (`footnote serve`, bot/web.py) under the red team's HTTP attacks: huge and
malformed unsigned bodies, a thousand idle sockets and slow-loris headers, a flood of slow Slack
work, and a database that stops answering. The real aiohttp server on 127.0.0.1 in front of a
real Bolt App; Footnote's own log handler writes to a buffer so log bytes can be counted."""

from __future__ import annotations

import concurrent.futures
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from types import SimpleNamespace

import pytest
from slack_bolt import App
from slack_sdk.signature import SignatureVerifier

from bot import web
from bot.bench_faults import _closed_by_server
from store.db import Database
from bot.fakes.slack_api import FakeSlack
from bot.fakes.tcp_faults import Blackhole

SECRET = "web-signing-secret"


def slack_app(api_url: str) -> App:
    from slack_sdk import WebClient

    app = App(client=WebClient(token="xoxb-web-test", base_url=api_url), signing_secret=SECRET,
              process_before_response=True)

    @app.command("/slow")
    def slow(ack):
        time.sleep(1.5)
        ack("done")

    return app


@pytest.fixture
def front(db):
    footnote = SimpleNamespace(db=db, embedder=object())
    with FakeSlack() as fake:
        app = web.make_front(footnote, slack_app=slack_app(fake.base_url), workers=1, queue=0, prune_every_s=None)
        with web.serving(app) as url:
            yield url


def signed_post(url: str, body: str, content_type: str = "application/json") -> tuple[int, str, float]:
    ts = str(int(time.time()))
    request = urllib.request.Request(url, data=body.encode(), method="POST", headers={
        "Content-Type": content_type, "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": SignatureVerifier(SECRET).generate_signature(timestamp=ts, body=body)})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as resp:
            return resp.status, resp.read().decode(), time.perf_counter() - started
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode(), time.perf_counter() - started


CHALLENGE = json.dumps({"type": "url_verification", "challenge": "c-123", "token": "t"})


def test_a_signed_request_is_served_by_bolt(front):
    status, body, _ = signed_post(front + web.SLACK_PATH, CHALLENGE)
    assert status == 200 and "c-123" in body


def test_a_100_mb_unsigned_body_is_refused_unread_with_a_short_log(front, log_buffer):
    parts = urllib.parse.urlsplit(front)
    started = time.perf_counter()
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall((f"POST {web.SLACK_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      f"Content-Length: {100 * 1024 * 1024}\r\n\r\n").encode() + b"{" + b"x" * 65_536)
        reply = sock.recv(4096)
    assert reply.startswith(b"HTTP/1.1 413"), reply[:80]
    assert time.perf_counter() - started < 2
    assert len(log_buffer.getvalue().encode()) < 10_000


@pytest.mark.parametrize("body", [b"{not json", b"\xff\xfe not utf-8", b"payload=%7Bbroken", b"x" * 900_000])
def test_unsigned_or_malformed_bodies_are_401_with_no_body_in_the_log(front, log_buffer, body):
    request = urllib.request.Request(front + web.SLACK_PATH, data=body, method="POST", headers={
        "Content-Type": "application/json", "X-Slack-Request-Timestamp": "nope", "X-Slack-Signature": "v0=1"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 401
    logged = log_buffer.getvalue()
    assert "Traceback" not in logged and len(logged.encode()) < 10_000


def test_a_thousand_idle_and_slow_loris_connections_do_not_delay_a_real_request(front):
    parts = urllib.parse.urlsplit(front)
    idle = [socket.create_connection((parts.hostname, parts.port), timeout=10) for _ in range(1000)]
    try:
        for s in idle[:100]:
            s.sendall(b"POST /slack/events HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # headers that never end
        time.sleep(0.5)
        status, body, seconds = signed_post(front + web.SLACK_PATH, CHALLENGE)
        assert status == 200 and "c-123" in body
        assert seconds < 1.0, f"took {seconds:.2f} s"
        health = urllib.request.urlopen(front + "/healthz", timeout=10)
        assert health.status == 200
    finally:
        for s in idle:
            s.close()


def test_an_idle_connection_is_closed(db, monkeypatch):
    monkeypatch.setattr(web, "IDLE_TIMEOUT_S", 0.5)
    footnote = SimpleNamespace(db=db, embedder=object())
    with web.serving(web.make_front(footnote, prune_every_s=None)) as url:
        parts = urllib.parse.urlsplit(url)
        with socket.create_connection((parts.hostname, parts.port), timeout=5) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
            started = time.perf_counter()
            assert sock.recv(1024) == b""
            assert time.perf_counter() - started < 3


def test_past_capacity_a_slash_command_gets_a_polite_busy_reply(front):
    body = urllib.parse.urlencode({"command": "/slow", "text": "", "user_id": "U1", "channel_id": "C1",
                                   "team_id": "T1", "response_url": "http://127.0.0.1:9/r", "trigger_id": "t"})
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        first = pool.submit(signed_post, front + web.SLACK_PATH, body, "application/x-www-form-urlencoded")
        time.sleep(0.3)
        second = pool.submit(signed_post, front + web.SLACK_PATH, body, "application/x-www-form-urlencoded")
        results = [first.result(), second.result()]
    assert results[0][0] == 200 and "done" in results[0][1]
    assert results[1][0] == 200 and "busy" in results[1][1] and results[1][2] < 1.0


def test_healthz_is_503_when_the_database_stops_answering():
    hole = Blackhole()
    database = Database(f"postgresql://u@127.0.0.1:{hole.port}/db", pool_wait_s=1.0, connect_timeout_s=2)
    try:
        with web.serving(web.make_front(SimpleNamespace(db=database, embedder=object()), prune_every_s=None)) as url:
            started = time.perf_counter()
            with pytest.raises(urllib.error.HTTPError) as unhealthy:
                urllib.request.urlopen(url + "/healthz", timeout=20)
            assert unhealthy.value.code == 503
            assert "unavailable" in unhealthy.value.read().decode()
            assert time.perf_counter() - started < web.HEALTH_TIMEOUT_S + 1
    finally:
        database.close()
        hole.close()


def test_open_connections_are_capped_and_a_real_request_still_gets_in(front, monkeypatch):
    """Past the cap the oldest idle connection makes room: the server never holds more than the cap,
    and a legitimate request after a flood of idle sockets is answered, within a second."""
    monkeypatch.setattr(web, "MAX_CONNECTIONS", 200)  # read when the server starts: this front keeps 512
    footnote = SimpleNamespace(db=None, embedder=object())
    with FakeSlack() as fake:
        app = web.make_front(footnote, slack_app=slack_app(fake.base_url), workers=1, queue=0, prune_every_s=None)
        with web.serving(app) as url:
            parts = urllib.parse.urlsplit(url)
            idle = [socket.create_connection((parts.hostname, parts.port), timeout=10) for _ in range(1000)]
            try:
                time.sleep(1.0)
                status, body, seconds = signed_post(url + web.SLACK_PATH, CHALLENGE)
                assert status == 200 and "c-123" in body
                assert seconds < 1.0, f"took {seconds:.2f} s"
                time.sleep(0.5)
                assert _closed_by_server(idle) >= 1000 - 200, "the server holds no more connections than its cap"
            finally:
                for s in idle:
                    s.close()
