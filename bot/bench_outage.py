"""`footnote bench faults`, the chat outage: the database stops answering under a running
`footnote serve`, as a SIGSTOP'd server or a host that accepts TCP and never answers does.

The server runs as its own process with DATABASE_URL pointed through a TCP relay on loopback
that can freeze (connections stay open, no byte moves). Slack's side is the fake Web API and
Teams' the fake Bot Framework connector (tests/fakes, so run it from a checkout). K questions are
asked on each platform while the database is frozen; the figures are the seconds until each user
is told it is unavailable, the seconds from the database's return to each answer, and the
questions never answered (lost) or answered twice.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

SECRET = "bench-outage-secret"
REPO = Path(__file__).resolve().parents[1]
WAIT_S = 120.0


def chat_outage(settings, *, questions: int = 5, outage_s: float = 5.0) -> dict:
    sys.path.insert(0, str(REPO))
    import psycopg

    from bot.outage import UNAVAILABLE_TEXT
    from bot.fakes.connector import FakeConnector, activity
    from bot.fakes.slack_api import FakeSlack, SlackSender
    from bot.fakes.tcp_faults import Cable

    if not settings.database_url:
        return {"skipped": "needs DATABASE_URL (a server reachable over TCP)"}
    info = psycopg.conninfo.conninfo_to_dict(settings.database_url)
    cable = Cable(("tcp", f"{info.get('host') or '127.0.0.1'}:{info.get('port') or 5432}"))
    url = psycopg.conninfo.make_conninfo(settings.database_url, host="127.0.0.1", port=str(cable.port))
    notice = UNAVAILABLE_TEXT.split(",")[0]
    pairs = _asks(settings, questions)
    with FakeSlack() as slack, FakeConnector() as connector, _serve(url, slack.base_url) as base:
        send = SlackSender(base + "/slack/events", SECRET)

        def slack_text(channel: str, ts: str) -> list[str]:
            return [m.text + json.dumps(m.all_blocks) for m in slack.thread(channel, ts)]

        def teams_text(conversation: str) -> list[str]:
            return [(r.activity.get("text") or "") + json.dumps(r.card or {}) for r in connector.messages(conversation)]

        def answered(texts: list[str]) -> bool:
            return any(notice not in t and "Looking that up" not in t for t in texts)

        ts, event = send.mention(pairs[0], channel="CWARM")
        send.event(event)
        _until(lambda: answered(slack_text("CWARM", ts)), WAIT_S)
        _teams(base, activity(pairs[0], service_url=connector.url, conversation_id="a:warm"))
        _until(lambda: answered(teams_text("a:warm")), WAIT_S)

        cable.freeze()
        asked = []
        try:
            for i, q in enumerate(pairs):
                ts, event = send.mention(q, channel=f"COUT{i}")
                asked.append(("slack", (f"COUT{i}", ts), time.monotonic()))
                send.event(event)
                _teams(base, activity(q, service_url=connector.url, conversation_id=f"a:out{i}"))
                asked.append(("teams", f"a:out{i}", time.monotonic()))

            def texts(item):
                platform, where, _ = item
                return slack_text(*where) if platform == "slack" else teams_text(where)

            told = {}
            deadline = time.monotonic() + outage_s
            while time.monotonic() < deadline:
                for item in asked:
                    if item[1] not in told and any(notice in t for t in texts(item)):
                        told[item[1]] = time.monotonic() - item[2]
                time.sleep(0.05)
            early = sum(1 for item in asked if answered(texts(item)))
        finally:
            cable.thaw()
        back = time.monotonic()
        recovered = {}
        deadline = back + WAIT_S
        while len(recovered) < len(asked) and time.monotonic() < deadline:
            for item in asked:
                if item[1] not in recovered and answered(texts(item)):
                    recovered[item[1]] = time.monotonic() - back
            time.sleep(0.05)
        time.sleep(1.0)
        twice = sum(1 for item in asked if sum(1 for t in texts(item) if notice not in t and "Looking that up" not in t) > 1)
    cable.unplug()
    told_s = sorted(told.values())
    back_s = sorted(recovered.values())
    return {"questions_asked_during_outage": len(asked), "outage_seconds": outage_s,
            "told_unavailable": len(told), "told_seconds_max": round(max(told_s), 2) if told_s else None,
            "answered_after_return": len(recovered), "first_answer_after_return_s": round(back_s[0], 2) if back_s else None,
            "last_answer_after_return_s": round(back_s[-1], 2) if back_s else None,
            "lost": len(asked) - len(recovered), "answered_twice": twice, "answered_while_down": early}


def _asks(settings, n: int) -> list[str]:
    from store.cli import open_for
    from store.coverage import coverage

    with open_for(settings) as db, db.connection() as conn:
        pairs = [(c["ticker"], y) for c in coverage(conn) for y in c["fiscal_years"]] or [("AAPL", 2024)]
    return [f"What was {pairs[i % len(pairs)][0]}'s revenue in fiscal {pairs[i % len(pairs)][1]}?" for i in range(n)]


def _teams(base: str, body: dict) -> None:
    request = urllib.request.Request(base + "/api/messages", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as resp:
        resp.read()


def _until(predicate, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise RuntimeError("footnote serve did not answer the warm-up question")
        time.sleep(0.05)


@contextlib.contextmanager
def _serve(database_url: str, slack_api_url: str):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.lower().startswith("microsoftapp")}
    env.update(DATABASE_URL=database_url, SLACK_BOT_TOKEN="xoxb-bench-outage", SLACK_SIGNING_SECRET=SECRET,
               SLACK_API_URL=slack_api_url, FOOTNOTE_CHAT_PER_USER_PER_MINUTE="0", FOOTNOTE_CHAT_PER_WORKSPACE_PER_MINUTE="0",
               PYTHONPATH=str(REPO))
    log = tempfile.NamedTemporaryFile("w", prefix="footnote-bench-outage-", suffix=".log", delete=False)
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + WAIT_S
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"footnote serve exited; see {log.name}")
            try:
                urllib.request.urlopen(base + "/healthz", timeout=5)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"footnote serve did not start; see {log.name}") from None
                time.sleep(0.3)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
