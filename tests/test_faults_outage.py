"""A database outage as Slack and Teams users meet it, through the real `footnote serve` process.

The server runs as its own process against the fixture corpus, reached through a TCP cable that
can be frozen: connections stay open and no byte moves, which is what a client sees when the
server is stopped (SIGSTOP) or a host accepts TCP and never answers. Slack's side is the fake
Web API, Teams' the fake Bot Framework connector (tests/fakes); the test asserts what users see:
a short "temporarily unavailable" within 5 s, and every question asked during the outage
answered once the database is back, the first within 5 s of its return, none twice.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psycopg
import pytest

from bot.outage import UNAVAILABLE_TEXT
from bot.fakes.connector import FakeConnector, activity
from bot.fakes.slack_api import FakeSlack, SlackSender
from bot.fakes.tcp_faults import Cable
from tests.test_faults_db import _target
from tests.test_slack import SECRET, all_text

ROOT = Path(__file__).resolve().parents[1]
TOLD_WITHIN_S = 5.0
BACK_WITHIN_S = 5.0
UNAVAILABLE = UNAVAILABLE_TEXT.split(",")[0]  # "Footnote's database isn't answering right now"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def footnote_serve(database_url: str, slack_api_url: str, data_dir: Path):
    """The real `footnote serve` process, Slack and Teams on one port; yields its base URL."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.lower().startswith("microsoftapp")}
    env.update(PYTHONPATH=str(ROOT), DATABASE_URL=database_url, FOOTNOTE_DATA_DIR=str(data_dir), FOOTNOTE_LLM="off",
               SLACK_BOT_TOKEN="xoxb-outage-token", SLACK_SIGNING_SECRET=SECRET, SLACK_API_URL=slack_api_url,
               FOOTNOTE_CHAT_PER_USER_PER_MINUTE="0", FOOTNOTE_LOG_LEVEL="INFO")
    log = open(data_dir / "serve.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            assert proc.poll() is None, (data_dir / "serve.log").read_text()[-3000:]
            try:
                urllib.request.urlopen(base + "/healthz", timeout=5)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError("footnote serve did not start: " + (data_dir / "serve.log").read_text()[-3000:])
                time.sleep(0.3)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        log.close()


def slack_shows(fake: FakeSlack, channel: str, ts: str, needle: str):
    return [m for m in fake.thread(channel, ts) if needle in all_text(m)]


def teams_shows(connector: FakeConnector, conversation: str, needle: str):
    def text(reply) -> str:
        import json

        return (reply.activity.get("text") or "") + json.dumps(reply.card or {})

    return [r for r in connector.messages(conversation) if needle in text(r)]


def wait(predicate, timeout: float, what: str, log: Path):
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout:.0f} s; server log:\n" + log.read_text()[-4000:])
        time.sleep(0.05)
    return value


def test_an_outage_is_told_within_seconds_and_every_question_answered_once_it_is_back(pg_server_url, corpus_db, tmp_path):
    info = psycopg.conninfo.conninfo_to_dict(corpus_db.url)
    cable = Cable(_target(pg_server_url))
    url = psycopg.conninfo.make_conninfo(dbname=info["dbname"], user=info.get("user") or "postgres",
                                         password=info.get("password") or "", host="127.0.0.1", port=cable.port)
    log = tmp_path / "serve.log"
    with FakeSlack() as slack, FakeConnector() as connector, footnote_serve(url, slack.base_url, tmp_path) as base:
        send = SlackSender(base + "/slack/events", SECRET)

        def teams(text: str, conversation: str) -> None:
            body = activity(text, service_url=connector.url, conversation_id=conversation)
            request = urllib.request.Request(base + "/api/messages", data=__import__("json").dumps(body).encode(),
                                             headers={"Content-Type": "application/json"}, method="POST")
            with urllib.request.urlopen(request, timeout=10) as resp:
                assert resp.status in (200, 201, 202)

        # Warm: the model and the graph are loaded, the pools hold connections, as in a running workspace.
        ts, event = send.mention("What was Apple's revenue in fiscal 2024?", channel="C0WARM")
        send.event(event)
        wait(lambda: slack_shows(slack, "C0WARM", ts, "$391.04 billion"), 180, "the first Slack answer", log)
        teams("What was Apple's revenue in fiscal 2024?", "a:warm")
        wait(lambda: teams_shows(connector, "a:warm", "391.04"), 60, "the first Teams answer", log)

        cable.freeze()  # the database stops answering; its connections stay open
        try:
            asked_at = time.monotonic()
            ts_a, event = send.mention("What was Apple's revenue in fiscal 2023?", channel="C0DOWN")
            assert send.event(event)[0] == 200
            teams("What was Apple's revenue in fiscal 2023?", "a:down")
            ts_b, event = send.mention("What was Apple's revenue in fiscal 2024?", channel="C0DOWN2")
            send.event(event)
            wait(lambda: slack_shows(slack, "C0DOWN", ts_a, UNAVAILABLE), TOLD_WITHIN_S, "the Slack user told", log)
            told_slack = time.monotonic() - asked_at
            wait(lambda: teams_shows(connector, "a:down", UNAVAILABLE), TOLD_WITHIN_S, "the Teams user told", log)
            told_teams = time.monotonic() - asked_at
            wait(lambda: slack_shows(slack, "C0DOWN2", ts_b, UNAVAILABLE), TOLD_WITHIN_S, "the second Slack user told", log)
            time.sleep(3)  # an outage of some seconds: nothing is answered meanwhile
            assert not slack_shows(slack, "C0DOWN", ts_a, "$383.29 billion")
        finally:
            cable.thaw()
        back_at = time.monotonic()
        wait(lambda: slack_shows(slack, "C0DOWN", ts_a, "$383.29 billion"), BACK_WITHIN_S, "the kept Slack question answered", log)
        first_back = time.monotonic() - back_at
        wait(lambda: slack_shows(slack, "C0DOWN2", ts_b, "$391.04 billion"), 15, "the second kept Slack question answered", log)
        wait(lambda: teams_shows(connector, "a:down", "383.29"), 15, "the kept Teams question answered", log)
        time.sleep(1.0)
        # Each question answered once: one notice and one answer in each thread, no more.
        assert len(slack.thread("C0DOWN", ts_a)) == 2, [all_text(m)[:80] for m in slack.thread("C0DOWN", ts_a)]
        assert len(slack.thread("C0DOWN2", ts_b)) == 2
        assert len(connector.messages("a:down")) == 2, [r.activity.get("text") for r in connector.messages("a:down")]
        assert "Traceback" not in log.read_text()
    print(f"told: Slack {told_slack:.2f} s, Teams {told_teams:.2f} s; first answer {first_back:.2f} s after the database returned")
    cable.unplug()
