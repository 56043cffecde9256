"""`footnote bench slack`: how fast Footnote acknowledges Slack, and that retries never double-answer.

N distinct signed mentions go to the real HTTP app (Bolt + WSGI on loopback) with C requests in
flight; every event is then delivered again R times with `X-Slack-Retry-Num`, the way Slack
retries, while the first copies are still being answered. The Web API is the fake from
tests/fakes (so run it from a checkout). Figures: ack latency p50/p99 (Slack's limit is 3 s; the
target is p99 under 100 ms at 50 in flight), answers per second, and duplicates (must be 0).
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import statistics
import sys
import time
import uuid
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

SECRET = "bench-signing-secret"

QUESTIONS = [
    "What was {t}'s revenue in fiscal {y}?",
    "What was {t}'s net income in fiscal {y}?",
    "What was {t}'s operating margin in fiscal {y}?",
    "What were {t}'s total assets at the end of fiscal {y}?",
    "What are {t}'s main risk factors?",
]


def _questions(footnote, n: int) -> list[str]:
    pairs = [(c["ticker"], y) for c in footnote.coverage(None) for y in (c.get("fiscal_years") or [])]
    if not pairs:
        pairs = [("AAPL", 2024)]
    combos = itertools.cycle([(q, t, y) for q in QUESTIONS for t, y in pairs])
    return [q.format(t=t, y=y) for q, t, y, in itertools.islice(combos, n)]


def fire(url: str, secret: str, deliveries: list, concurrency: int) -> list[tuple[int, float, float]]:
    """Deliver every event, `concurrency` at a time; returns (status, seconds to the ack, monotonic
    send time) for each (the monotonic clock is the machine's, shared with the app's process)."""
    from tests.fakes.fake_slack import SlackSender

    sender = SlackSender(url, secret)

    def deliver(item):
        eid, ev, retry = item
        sent_at = time.monotonic()
        status, _, seconds = sender.event(ev, event_id=eid, retry_num=retry)
        return status, seconds, sent_at

    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        return list(pool.map(deliver, deliveries))


def loopback_floor(deliveries: int, concurrency: int) -> list[float]:
    """The same client against a WSGI app that only says 200, on the same threaded server: the
    part of the ack latency that is the machine and the loopback, not Footnote."""
    from bot.slack.server import serving_wsgi

    def ok(environ, start_response):
        environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        start_response("200 OK", [("Content-Length", "0")])
        return [b""]

    with serving_wsgi(ok) as url, _client_process() as client:
        return client.submit(fire_plain, url, deliveries, concurrency).result()


def fire_plain(url: str, n: int, concurrency: int) -> list[float]:
    import urllib.request

    def one(_):
        started = time.perf_counter()
        with urllib.request.urlopen(urllib.request.Request(url, data=b"{}", method="POST"), timeout=10) as resp:
            resp.read()
        return time.perf_counter() - started

    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        return list(pool.map(one, range(n)))


def _client_process() -> ProcessPoolExecutor:
    # Slack's servers are not in the app's process: the client runs in its own, so its threads
    # do not share the app's interpreter lock and skew the ack figures.
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


REPO = Path(__file__).resolve().parents[2]


def run_bench(args, settings) -> int:
    if (REPO / "tests" / "fakes" / "fake_slack.py").exists() and str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    try:
        from tests.fakes.fake_slack import FakeSlack, SlackSender
    except ImportError:
        print("footnote bench slack: run it from the repository checkout (it uses tests/fakes/fake_slack.py)", file=sys.stderr)
        return 2
    from agent.service import Footnote
    from bot.slack.app import build_app
    from bot.slack.server import serving_http

    with FakeSlack() as fake, Footnote.open(settings, use_cache=args.cache) as footnote:
        bench_settings = settings.model_copy(update={
            "slack_bot_token": _secret("xoxb-bench-token"),
            "slack_signing_secret": _secret(SECRET),
            "slack_api_url": fake.base_url,
        })
        app = build_app(bench_settings, footnote, footnote.db, workers=args.workers)
        questions = _questions(footnote, args.mentions)
        run = uuid.uuid4().hex[:8]
        with serving_http(app) as url:
            sender = SlackSender(url, SECRET)
            events = []
            for i, q in enumerate(questions):
                ts, event = sender.mention(q, channel=f"CB{run}{i % 10}", ts=f"1700000000.{i:06d}")
                events.append((f"Ev{run}{i:06d}", ts, event))
            deliveries = [(eid, ev, None) for eid, _, ev in events]
            deliveries += [(eid, ev, r) for r in range(1, args.retries + 1) for eid, _, ev in events]
            # A running app is warm: its auth.test result is cached and its pools are open.
            sender.event(sender.message("", channel=f"CB{run}w", subtype="channel_join")[1])

            with _client_process() as client:
                client.submit(fire_plain, url.rsplit("/slack", 1)[0] + "/warm-up", 1, 1).exception()
                started = time.perf_counter()
                results = client.submit(fire, url, SECRET, deliveries, args.concurrency).result()
            sending_done = time.perf_counter()
            expected = {(ev["channel"], ts) for _, ts, ev in events}

            def finished():
                done = {(c.args.get("channel"), c.args.get("timestamp")) for c in fake.calls_to("reactions.remove")}
                return expected <= done

            fake.wait_for(finished, timeout=max(120.0, 5.0 * len(events)), interval=0.05)
            elapsed = time.perf_counter() - started

        floor = [s * 1000 for s in loopback_floor(len(deliveries), args.concurrency)]
        acks = [s * 1000 for _, s, _ in results]
        failures = sum(1 for status, _, _ in results if status != 200)
        # "Working" shown: from sending a mention to the 👀 on it (first delivery of each event).
        sent = {(ev["channel"], ev["ts"]): at for (_, ev, retry), (_, _, at) in zip(deliveries, results) if retry is None}
        reacted = {(c.args.get("channel"), c.args.get("timestamp")): c.at for c in fake.calls_to("reactions.add")}
        working = [(reacted[k] - sent[k]) * 1000 for k in sent if k in reacted]
        posted: dict[tuple[str, str], int] = {}
        for c in fake.calls_to("chat.postMessage") + fake.calls_to("chat.startStream"):
            key = (c.args.get("channel"), c.args.get("thread_ts"))
            posted[key] = posted.get(key, 0) + 1
        finals = [m for m in fake.all_messages() if (m.channel, m.thread_ts) in expected]
        cached = sum(1 for m in finals if any("cached" in json.dumps(b) for b in m.blocks if b.get("type") == "context"))
        duplicates = sum(max(0, posted.get(k, 0) - 1) for k in expected) + sum(1 for k in posted if k not in expected)
        figures = {
            "mentions": len(events),
            "deliveries": len(deliveries),
            "retries_per_event": args.retries,
            "concurrency": args.concurrency,
            "answer_workers": args.workers,
            "ack_ms_p50": round(statistics.median(acks), 2),
            "ack_ms_p99": round(percentile(acks, 99), 2),
            "ack_ms_max": round(max(acks), 2),
            "non_200_acks": failures,
            "loopback_floor_ms_p50": round(statistics.median(floor), 2),
            "loopback_floor_ms_p99": round(percentile(floor, 99), 2),
            "working_shown_ms_p50": round(statistics.median(working), 2),
            "working_shown_ms_p99": round(percentile(working, 99), 2),
            "send_seconds": round(sending_done - started, 3),
            "total_seconds": round(elapsed, 3),
            "answers_per_second": round(len(events) / elapsed, 2),
            "distinct_questions": len(set(questions)),
            "answers_from_cache": cached,
            "duplicates": duplicates,
        }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(figures, indent=2) + "\n")
    for k, v in figures.items():
        print(f"{k}: {v}")
    print(f"written to {args.out}")
    ok = figures["duplicates"] == 0 and failures == 0
    return 0 if ok else 1


def _secret(value: str):
    from pydantic import SecretStr

    return SecretStr(value)
