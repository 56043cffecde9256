"""`footnote bench slack`: how fast Footnote acknowledges Slack, and that retries never double-answer.

N distinct signed mentions go to the real HTTP app (Bolt + WSGI on loopback) with C requests in
flight; every event is then delivered again R times with `X-Slack-Retry-Num`, the way Slack
retries, while the first copies are still being answered. Slack's side (the sender and the fake
Web API, bot/fakes/slack_api.py) lives in its own process, as Slack's servers
do, so it does not compete with the app for the interpreter lock.

The fake Web API rate-limits chat.update as Slack's Tier 3 does (50 a minute, 429 with
Retry-After), so the figures show whether every answer still lands.

Figures: ack latency p50/p99 (Slack's limit is 3 s; the target is p99 under 100 ms at 50 in
flight), the same client against a bare WSGI app (the machine's floor), time until the 👀 shows,
answers per second, duplicates (must be 0), answers delivered (target 100%, none left showing only
the placeholder), and Web API calls per answer (target at most 3).
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import statistics
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
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
    return [q.format(t=t, y=y) for q, t, y in itertools.islice(combos, n)]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def _summary(values: list[float], name: str) -> dict:
    if not values:
        return {f"{name}_p50": None, f"{name}_p99": None}
    return {f"{name}_p50": round(statistics.median(values), 2), f"{name}_p99": round(percentile(values, 99), 2)}


# --- Slack's side, in its own process ------------------------------------------------------------

def slack_side(conn, questions: list[str], retries: int, concurrency: int, update_per_minute: int = 50) -> None:
    """Start the fake Web API, send its URL, get the app's events URL, fire every delivery, wait for
    every answer, and send back the figures measured on this side."""
    from bot.fakes.slack_api import FakeSlack, SlackSender

    with FakeSlack(rate_limits={"chat.update": update_per_minute} if update_per_minute else None) as fake:
        conn.send(fake.base_url)
        url, floor_url = conn.recv()
        sender = SlackSender(url, SECRET)
        run = uuid.uuid4().hex[:8]
        events = []
        for i, q in enumerate(questions):
            ts, event = sender.mention(q, channel=f"CB{run}{i % 10}", ts=f"1700000000.{i:06d}")
            events.append((f"Ev{run}{i:06d}", event))
        deliveries = [(eid, ev, None) for eid, ev in events] + [(eid, ev, r) for r in range(1, retries + 1) for eid, ev in events]
        # A running app is warm: its auth.test result is cached and its pools are open.
        sender.event(sender.message("", channel=f"CB{run}w", subtype="channel_join")[1])
        floor = _fire_plain(floor_url, len(deliveries), concurrency)

        def deliver(item):
            eid, ev, retry = item
            sent_at = time.monotonic()
            status, _, seconds = sender.event(ev, event_id=eid, retry_num=retry)
            return status, seconds, sent_at

        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            results = list(pool.map(deliver, deliveries))
        sending = time.perf_counter() - started
        expected = {(ev["channel"], ev["ts"]) for _, ev in events}

        def finished():
            done = {(c.args.get("channel"), c.args.get("timestamp")) for c in fake.calls_to("reactions.remove")}
            return expected <= done

        fake.wait_for(finished, timeout=max(120.0, 5.0 * len(events)), interval=0.05)
        elapsed = time.perf_counter() - started

        sent = {(ev["channel"], ev["ts"]): at for (_, ev, retry), (_, _, at) in zip(deliveries, results) if retry is None}
        reacted = {(c.args.get("channel"), c.args.get("timestamp")): c.at for c in fake.calls_to("reactions.add")}
        # What each thread shows in the end: one message per question (a placeholder replaced by a
        # new message is deleted, so it does not count).
        posted: dict[tuple, int] = {}
        for m in fake.all_messages():
            key = (m.channel, m.thread_ts)
            posted[key] = posted.get(key, 0) + 1
        finals = [m for m in fake.all_messages() if (m.channel, m.thread_ts) in expected]
        per_answer = _calls_per_answer(fake, expected)
        shown = {}
        for m in finals:
            shown.setdefault((m.channel, m.thread_ts), []).append(m)
        placeholder = "Looking that up"
        delivered = sum(1 for k in expected if any(placeholder not in m.text for m in shown.get(k, [])))
        conn.send({
            "calls_per_answer": per_answer,
            "delivered": delivered,
            "only_placeholder": sum(1 for k in expected if shown.get(k) and all(placeholder in m.text for m in shown[k])),
            "placeholder_visible": sum(1 for k in expected if any(placeholder in m.text for m in shown.get(k, []))),
            "rate_limited": len(fake.rate_limited),
            "acks": [s * 1000 for _, s, _ in results],
            "non_200": sum(1 for status, _, _ in results if status != 200),
            "floor": floor,
            "working": [(reacted[k] - sent[k]) * 1000 for k in sent if k in reacted],
            "sending": sending,
            "elapsed": elapsed,
            "cached": sum(1 for m in finals if any("cached" in json.dumps(b) for b in m.blocks if b.get("type") == "context")),
            "duplicates": sum(max(0, posted.get(k, 0) - 1) for k in expected)
            + sum(1 for k in posted if k not in expected and k[0] in {c for c, _ in expected}),
            "deliveries": len(deliveries),
        })


def _calls_per_answer(fake, expected: set) -> list[int]:
    """Web API calls (429s included) made for each question, attributed by the thread they touch."""
    counts = {k: 0 for k in expected}
    for c in fake.calls:
        channel = c.args.get("channel") or c.args.get("channel_id")
        if c.method in ("reactions.add", "reactions.remove"):
            key = (channel, c.args.get("timestamp"))
        elif c.method in ("chat.update", "chat.delete"):
            msg = fake.messages.get((channel, c.args.get("ts")))
            key = (channel, msg.thread_ts if msg else None)
        else:
            key = (channel, c.args.get("thread_ts"))
        if key in counts:
            counts[key] += 1
    return list(counts.values())


def _fire_plain(url: str, n: int, concurrency: int) -> list[float]:
    """The same client against an app that only says 200: the machine's and loopback's share."""
    import urllib.request

    def one(_):
        started = time.perf_counter()
        with urllib.request.urlopen(urllib.request.Request(url, data=b"{}", method="POST"), timeout=10) as resp:
            resp.read()
        return (time.perf_counter() - started) * 1000

    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        return list(pool.map(one, range(n)))


def _ok(environ, start_response):
    environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    start_response("200 OK", [("Content-Length", "0")])
    return [b""]


# --- the app's side ----------------------------------------------------------------------------

def run_bench(args, settings) -> int:
    """Both ways of serving Slack in one run, on the same questions: `base`, Bolt behind the threaded
    HTTP server with the answers in the same process (`footnote slack --http`), and `front`, the
    aiohttp front that only acknowledges and queues, with answer workers in their own processes
    (`footnote serve`)."""
    from bot.wiring import open_footnote

    modes = ["base", "front"] if args.mode == "both" else [args.mode]
    with open_footnote(settings, use_cache=args.cache) as footnote:
        questions = _questions(footnote, args.mentions)
        results = {mode: _run_mode(mode, args, settings, footnote, questions) for mode in modes}

    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    keys = list(results[modes[0]])
    print(f"{'':34}" + "".join(f"{m:>14}" for m in modes))
    for k in keys:
        print(f"{k:34}" + "".join(f"{str(results[m].get(k)):>14}" for m in modes))
    print(f"written to {args.out}")
    ok = all(r["duplicates"] == 0 and r["non_200_acks"] == 0 for r in results.values())
    return 0 if ok else 1


def _run_mode(mode: str, args, settings, footnote, questions: list[str]) -> dict:
    import os

    from pydantic import SecretStr

    from bot.slack.app import build_app
    from bot.slack.server import serving_http, serving_wsgi

    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe()
    slack = ctx.Process(target=slack_side, args=(theirs, questions, args.retries, args.concurrency, args.update_per_minute),
                        daemon=True)
    slack.start()
    api_url = ours.recv()
    bench_settings = settings.model_copy(update={
        "slack_bot_token": SecretStr("xoxb-bench-token"),
        "slack_signing_secret": SecretStr(SECRET),
        "slack_api_url": api_url,
        # One sender asks everything: the per-person limit would answer most of it politely.
        "chat_per_user_per_minute": 0,
        "chat_per_workspace_per_minute": 0,
    })
    answerers = []
    try:
        if mode == "base":
            app = build_app(bench_settings, footnote, footnote.db, workers=args.workers, placeholder_after_s=args.placeholder_after)
            with serving_http(app) as url, serving_wsgi(_ok) as floor_url:
                ours.send((url, floor_url))
                side = ours.recv()
        else:
            from bot import web
            from bot.outage import Outage

            env = {**os.environ, "SLACK_BOT_TOKEN": "xoxb-bench-token", "SLACK_SIGNING_SECRET": SECRET,
                   "SLACK_API_URL": api_url, "FOOTNOTE_CHAT_PER_USER_PER_MINUTE": "0",
                   "FOOTNOTE_CHAT_PER_WORKSPACE_PER_MINUTE": "0"}
            answerers = start_workers(args.answer_processes, workers=args.workers, env=env,
                                      extra=("--placeholder-after", str(args.placeholder_after), *(() if args.cache else ("--no-cache",))))
            outage = Outage(footnote.db)
            app = build_app(bench_settings, footnote, footnote.db, workers=args.workers,
                            placeholder_after_s=args.placeholder_after, outage=outage)
            front = web.make_front(footnote, slack_app=app, prune_every_s=None, handoff=web.Handoff(footnote.db, outage))
            with web.serving(front) as base, serving_wsgi(_ok) as floor_url:
                ours.send((base + web.SLACK_PATH, floor_url))
                side = ours.recv()
    finally:
        for proc in answerers:
            proc.terminate()
            proc.wait(30)
        slack.join(timeout=10)

    return {
        "mentions": len(questions),
        "deliveries": side["deliveries"],
        "retries_per_event": args.retries,
        "concurrency": args.concurrency,
        "answer_workers": args.workers,
        "answer_processes": 0 if mode == "base" else args.answer_processes,
        **_summary(side["acks"], "ack_ms"),
        "ack_ms_max": round(max(side["acks"]), 2),
        "non_200_acks": side["non_200"],
        **_summary(side["floor"], "loopback_floor_ms"),
        **_summary(side["working"], "working_shown_ms"),
        "send_seconds": round(side["sending"], 3),
        "total_seconds": round(side["elapsed"], 3),
        "answers_per_second": round(len(questions) / side["elapsed"], 2),
        "distinct_questions": len(set(questions)),
        "answers_from_cache": side["cached"],
        "duplicates": side["duplicates"],
        "chat_update_limit_per_minute": args.update_per_minute,
        "placeholder_after_s": args.placeholder_after,
        "answers_delivered_pct": round(100.0 * side["delivered"] / len(questions), 1),
        "left_on_placeholder": side["only_placeholder"],
        "placeholders_still_visible": side["placeholder_visible"],
        "web_api_calls_per_answer_mean": round(statistics.mean(side["calls_per_answer"]), 2),
        "web_api_calls_per_answer_max": max(side["calls_per_answer"]),
        "answers_over_3_calls": sum(1 for n in side["calls_per_answer"] if n > 3),
        "rate_limited_responses": side["rate_limited"],
    }


def start_workers(n: int, *, workers: int, env: dict, extra: tuple[str, ...] = (), timeout_s: float = 300) -> list:
    """`footnote worker` processes, returned once each has its model loaded (a worker still loading
    would take the machine's cores from what is measured)."""
    import tempfile

    from bot.worker import start_worker

    folder = Path(tempfile.mkdtemp(prefix="footnote-bench-"))
    ready = [folder / f"ready-{i}" for i in range(n)]
    procs = [start_worker(workers=workers, env=env, extra=(*extra, "--ready-file", str(r))) for r in ready]
    deadline = time.monotonic() + timeout_s
    while not all(r.exists() for r in ready):
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            raise RuntimeError("an answer worker did not start")
        time.sleep(0.2)
    time.sleep(1.0)
    return procs
