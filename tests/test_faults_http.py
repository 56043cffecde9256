"""Hostile HTTP at the Slack endpoint: the real Bolt app behind the real server on 127.0.0.1,
with Footnote's own log handler writing to a buffer, so each test measures the bytes a request
can put into the log and the status it gets (a fake Slack Web API answers auth.test)."""

from __future__ import annotations

import json
import socket
import time
import urllib.parse

import pytest
from slack_bolt.request import BoltRequest

from bot.settings import Settings
from bot.slack.app import build_app
from bot.slack.gate import MAX_BODY_BYTES
from bot.slack.server import serving_http
from bot.fakes.slack_api import FakeSlack, SlackSender

SECRET = "test-signing-secret"
MARKER = "SECRET-QUESTION-TEXT"


@pytest.fixture
def slack_app(db):
    with FakeSlack() as fake:
        settings = Settings(_env_file=None, SLACK_BOT_TOKEN="xoxb-test-token", SLACK_SIGNING_SECRET=SECRET,
                            SLACK_API_URL=fake.base_url, FOOTNOTE_LLM="off")
        # Nothing here reaches a listener: the app never needs a Footnote to answer.
        yield build_app(settings, None, db), fake


def _big_event(size: int) -> str:
    event = {"type": "app_mention", "user": "U1", "channel": "C1", "ts": "1.1", "text": MARKER * (size // len(MARKER))}
    return json.dumps({"type": "event_callback", "event_id": "EvBIG", "team_id": "T0FOOT", "event": event})


def test_bolt_never_logs_the_body_of_a_badly_signed_request(slack_app, log_buffer):
    """Straight into Bolt's dispatch (no gate in front): its own 'invalid signature' record is cut."""
    app, _ = slack_app
    body = _big_event(200_000)
    headers = {"content-type": ["application/json"], "x-slack-request-timestamp": [str(int(time.time()))],
               "x-slack-signature": ["v0=" + "0" * 64]}
    response = app.dispatch(BoltRequest(body=body, headers=headers))
    assert response.status == 401
    logged = log_buffer.getvalue()
    assert MARKER not in logged
    assert len(logged.encode()) < 10_000


def test_unsigned_body_under_the_cap_is_refused_with_a_short_log_line(slack_app, log_buffer):
    app, fake = slack_app
    with serving_http(app) as url:
        status, _, _ = SlackSender(url, "a-wrong-secret").post(_big_event(MAX_BODY_BYTES - 10_000), "application/json")
    assert status == 401
    logged = log_buffer.getvalue()
    assert MARKER not in logged and len(logged.encode()) < 10_000
    assert fake.calls_to("chat.postMessage") == []


def test_a_body_over_the_cap_gets_413_before_it_is_read(slack_app, log_buffer):
    app, _ = slack_app
    with serving_http(app) as url:
        parts = urllib.parse.urlsplit(url)
        declared = 100 * 1024 * 1024
        started = time.perf_counter()
        with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
            sock.sendall((f"POST {parts.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          f"X-Slack-Request-Timestamp: {int(time.time())}\r\nX-Slack-Signature: v0=00\r\n"
                          f"Content-Length: {declared}\r\n\r\n").encode() + b"{" + b"x" * 65_536)
            reply = sock.recv(4096)
        elapsed = time.perf_counter() - started
    assert reply.startswith(b"HTTP/1.0 413") or reply.startswith(b"HTTP/1.1 413"), reply[:80]
    assert elapsed < 2, "the server must answer without waiting for 100 MB"
    assert len(log_buffer.getvalue().encode()) < 10_000


@pytest.mark.parametrize("body, content_type", [
    (b"{not json", "application/json"),
    (b"\xff\xfe\x00 not utf-8", "application/json"),
    (b"payload=%7Bbroken", "application/x-www-form-urlencoded"),
])
def test_malformed_unsigned_bodies_are_401_not_500(slack_app, log_buffer, body, content_type):
    import urllib.error
    import urllib.request

    app, _ = slack_app
    with serving_http(app) as url:
        request = urllib.request.Request(url, data=body, method="POST", headers={
            "Content-Type": content_type, "X-Slack-Request-Timestamp": "not-a-number", "X-Slack-Signature": "v0=1"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 401
    assert "Traceback" not in log_buffer.getvalue()


def test_an_idle_connection_is_closed_and_does_not_hold_the_server(slack_app, monkeypatch):
    from bot.slack import server

    monkeypatch.setattr(server._QuietHandler, "timeout", 0.5)
    app, _ = slack_app
    with serving_http(app) as url:
        parts = urllib.parse.urlsplit(url)
        with socket.create_connection((parts.hostname, parts.port), timeout=5) as idle:
            idle.sendall(b"POST /slack/events HTTP/1.1\r\n")  # and then nothing
            started = time.perf_counter()
            assert idle.recv(1024) == b""  # the server hung up
            assert time.perf_counter() - started < 3


def test_past_the_connection_cap_idle_sockets_make_room_for_a_real_request(slack_app, monkeypatch):
    """`footnote slack --http` holds at most MAX_CONNECTIONS; idle ones beyond it are closed oldest
    first, so a signed request after 1,000 idle sockets is answered (it used to get a 503)."""
    from bot.slack import server

    monkeypatch.setattr(server, "MAX_CONNECTIONS", 100)
    app, _ = slack_app
    challenge = json.dumps({"type": "url_verification", "challenge": "c-9", "token": "t"})
    with serving_http(app) as url:
        parts = urllib.parse.urlsplit(url)
        idle = [socket.create_connection((parts.hostname, parts.port), timeout=10) for _ in range(1000)]
        try:
            time.sleep(1.0)
            status, body, seconds = SlackSender(url, SECRET).post(challenge, "application/json")
            assert status == 200 and "c-9" in body
            assert seconds < 1.0, f"took {seconds:.2f} s"
        finally:
            for s in idle:
                s.close()
