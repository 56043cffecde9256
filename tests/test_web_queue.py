"""The web front hands Slack events and Teams activities to answer workers through Postgres.

The real aiohttp front (bot/web.py) with a Handoff, the real Bolt App, the real FootnoteBot and
botbuilder adapter, and a worker loop (bot/worker.py) on a thread of its own: what the user sees
is asserted on the fake Slack Web API and the fake Bot Framework connector. The front answers
nothing itself: the answers come from the worker's own App and bot."""

from __future__ import annotations

import json
import os
import threading
import urllib.request

import pytest

from bot import web
from bot.outage import Outage
from bot.slack.app import build_app
from bot.teams.app import messages_handler
from bot.worker import run_worker, slack_handler, teams_handler
from store import inbound
from bot.fakes.connector import FakeConnector, activity
from bot.fakes.slack_api import FakeSlack, SlackSender
from tests.test_slack import SECRET, all_text, footnote, slack_settings  # noqa: F401  (fixture)
from tests.test_teams import teams_settings


def test_the_front_only_queues_and_a_worker_answers_each_event_once(footnote, corpus_db):  # noqa: F811
    with FakeSlack() as slack, FakeConnector() as connector:
        settings = slack_settings(slack.base_url)
        outage = Outage(corpus_db)
        front_app = build_app(settings, footnote, corpus_db, outage=outage)
        front = web.make_front(footnote, slack_app=front_app, prune_every_s=None,
                               teams_handler=messages_handler(teams_settings(), footnote, queue=True),
                               handoff=web.Handoff(corpus_db, outage))
        stop = threading.Event()
        with web.serving(front) as base:
            send = SlackSender(base + web.SLACK_PATH, SECRET)
            ts, event = send.mention("What was Apple's revenue in fiscal 2024?", channel="C0QUEUE")
            status, _, _ = send.event(event, event_id="EvQUEUE1")
            assert status == 200
            assert send.event(event, event_id="EvQUEUE1", retry_num=1)[0] == 200  # Slack's retry
            request = urllib.request.Request(base + "/api/messages", method="POST", headers={"Content-Type": "application/json"},
                                             data=json.dumps(activity("What was Apple's revenue in fiscal 2024?",
                                                                      service_url=connector.url, conversation_id="a:queued")).encode())
            assert urllib.request.urlopen(request, timeout=10).status in (200, 201)
            status, body, _ = send.command("/footnote", "ask What was Tesla's revenue in fiscal 2024?", slack.response_url("ask"))
            assert status == 200 and body == "", "a slash command is acknowledged empty, like an event"
            assert slack.calls_to("reactions.add") == [] and connector.messages("a:queued") == [], "the front answered nothing"

            def queued_commands() -> int:
                with corpus_db.connection() as conn:
                    return conn.execute("SELECT count(*) FROM inbound_events WHERE event_id LIKE 'slack:command:%%'").fetchone()[0]

            _until(queued_commands)  # the command waits for a worker, as the event does
            assert slack.responses == [], "nor the slash command"

            worker_app = build_app(settings, footnote, corpus_db, verify_requests=False)
            handlers = {"slack": slack_handler(worker_app),
                        "teams": teams_handler(messages_handler(teams_settings(), footnote).bot)}
            worker = threading.Thread(target=run_worker, args=(corpus_db, handlers), kwargs={"stop": stop}, daemon=True)
            worker.start()
            try:
                slack.wait_for(lambda: [m for m in slack.thread("C0QUEUE", ts) if "$391.04 billion" in all_text(m)], timeout=60)
                connector.wait_for(lambda: [r for r in connector.messages("a:queued") if "391.04" in json.dumps(r.card or {})])
                slack.wait_for(lambda: slack.calls_to("reactions.remove"), timeout=30)
                slack.wait_for(lambda: [r for r in slack.responses if "Tesla" in r.args.get("text", "")
                                        or "TSLA" in r.args.get("text", "")], timeout=60)
            finally:
                stop.set()
                worker.join(10)
        assert len(slack.thread("C0QUEUE", ts)) == 1, "the retry was not queued a second time"
        assert inbound.take(corpus_db, "slack", 10) == [] and inbound.take(corpus_db, "teams", 10) == [], "nothing left queued"


def _threads_priority(pid: int) -> set[tuple[int, int]]:
    """(nice value, scheduling policy) of every thread of `pid` (Linux keeps them per thread)."""
    import os

    found = set()
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            found.add((os.getpriority(os.PRIO_PROCESS, int(tid)), os.sched_getscheduler(int(tid))))
        except (ProcessLookupError, OSError):
            pass  # a thread that ended meanwhile
    return found


def _until(check, timeout_s: float = 60.0):
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if (found := check()):
            return found
        time.sleep(0.05)
    raise AssertionError("timed out")


@pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="Linux scheduling policies")
@pytest.mark.parametrize("started_by", ["serve", "alone"])
def test_answer_workers_run_every_thread_below_the_front(corpus_db, tmp_path, started_by):  # noqa: F811
    """The front acknowledges at nice 0; a worker, and each thread it starts, answers at a lower
    priority (nice 5, or --nice) under SCHED_BATCH, whether `footnote serve` started it or it was started on its own."""
    import subprocess
    import sys

    from bot.worker import NICENESS, start_worker

    env = {**os.environ, "DATABASE_URL": corpus_db.url, "FOOTNOTE_DATA_DIR": str(tmp_path)}
    env.pop("SLACK_BOT_TOKEN", None)
    assert os.getpriority(os.PRIO_PROCESS, 0) < NICENESS, "the test runs above the workers' priority"
    if started_by == "serve":
        proc = start_worker(env=env)
    else:
        proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "worker", "--nice", "12"], env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # Once its answer threads exist (the Teams loop, the database pool's), every one is below the front.
        threads = _until(lambda: len(os.listdir(f"/proc/{proc.pid}/task")) >= 4 and _threads_priority(proc.pid))
        wanted = NICENESS if started_by == "serve" else 12
        assert threads == {(wanted, os.SCHED_BATCH)}, threads
    finally:
        proc.terminate()
        proc.wait(30)
