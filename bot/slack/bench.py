"""`footnote bench slack`: how fast Footnote acknowledges Slack, and that retries never double-answer.

N distinct signed mentions go to the real HTTP app with C requests in flight; every event is then
delivered again R times with `X-Slack-Retry-Num`, the way Slack retries, while the first copies are
still being answered. Slack's side lives in processes of its own, as Slack's servers do: the fake
Web API (bot/fakes/slack_api.py) in one, the Events API sender in another (an asyncio client, a
new connection per request, every body signed before the clock starts), so neither the answers'
Web API calls nor the sender's own threads sit inside the measured acknowledgements.

The fake Web API rate-limits chat.update as Slack's Tier 3 does (50 a minute, 429 with
Retry-After), so the figures show whether every answer still lands.

Figures: ack latency p50/p99 as the sender sees it (Slack's limit is 3 s; the target is p99 under
100 ms at 50 in flight) and inside the app (from the request's handler to its response: what the
server adds to the machine's floor), the same sender against a server that only says 200 (the
machine's floor, measured just before), time until the 👀 shows, answers per second, duplicates
(must be 0), answers delivered (target 100%, none left showing only the placeholder), Web API calls
per answer (target at most 3), and the machine's load average before and after.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import statistics
import time
import uuid
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
    """Start the fake Web API, send its URL, get the app's events URL, have the sender fire every
    delivery, wait for every answer, and send back the figures measured on Slack's side."""
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
        signed = []
        for eid, ev, retry in deliveries:
            body = sender.event_body(ev, event_id=eid)
            signed.append((body, sender.headers(body, "application/json", retry_num=retry)))

        floor, results = _send_from_own_process(url, floor_url, signed, concurrency)
        expected = {(ev["channel"], ev["ts"]) for _, ev in events}

        def finished():
            done = {(c.args.get("channel"), c.args.get("timestamp")) for c in fake.calls_to("reactions.remove")}
            return expected <= done

        fake.wait_for(finished, timeout=max(120.0, 5.0 * len(events)), interval=0.05)
        first_sent = min(at for _, _, at in results)
        elapsed = time.monotonic() - first_sent

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
            "acks": [ms for _, ms, _ in results],
            "non_200": sum(1 for status, _, _ in results if status != 200),
            "floor": floor,
            "working": [(reacted[k] - sent[k]) * 1000 for k in sent if k in reacted],
            "sending": max(at for _, _, at in results) - first_sent,
            "elapsed": elapsed,
            "cached": sum(1 for m in finals if any("cached" in json.dumps(b) for b in m.blocks if b.get("type") == "context")),
            "duplicates": sum(max(0, posted.get(k, 0) - 1) for k in expected)
            + sum(1 for k in posted if k not in expected and k[0] in {c for c, _ in expected}),
            "deliveries": len(deliveries),
        })


def _send_from_own_process(url: str, floor_url: str, signed: list, concurrency: int) -> tuple[list[float], list]:
    """The floor, then every delivery, fired from a process that does nothing else."""
    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe()
    proc = ctx.Process(target=sender_side, args=(theirs, url, floor_url, signed, concurrency), daemon=True)
    proc.start()
    floor, results = ours.recv()
    proc.join(10)
    return floor, results


def sender_side(conn, url: str, floor_url: str, signed: list, concurrency: int) -> None:
    import asyncio

    floor = asyncio.run(fire(floor_url, [("{}", {"Content-Type": "application/json"})] * len(signed), concurrency))
    results = asyncio.run(fire(url, signed, concurrency))
    conn.send(([ms for _, ms, _ in floor], results))


async def fire(url: str, requests: list[tuple[str, dict]], concurrency: int) -> list[tuple[int, float, float]]:
    """POST each (body, headers) with `concurrency` in flight, each on a new connection; for each,
    (status, milliseconds to the whole response, time.monotonic() when it was sent)."""
    import asyncio

    import aiohttp

    gate = asyncio.Semaphore(concurrency)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency, force_close=True),
                                     timeout=aiohttp.ClientTimeout(total=30)) as session:
        async def one(body: str, headers: dict) -> tuple[int, float, float]:
            async with gate:
                sent_at, started = time.monotonic(), time.perf_counter()
                async with session.post(url, data=body.encode("utf-8"), headers=headers) as resp:
                    await resp.read()
                    return resp.status, (time.perf_counter() - started) * 1000, sent_at

        return list(await asyncio.gather(*(one(body, headers) for body, headers in requests)))


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


def _ok(environ, start_response):
    environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    start_response("200 OK", [("Content-Length", "0")])
    return [b""]


async def _ok_async(request):
    await request.read()
    from aiohttp import web

    return web.Response(status=200)


class _TimedWsgi:
    """The time a WSGI app takes over each request, its body included (the app's share of an ack)."""

    def __init__(self, app, spent: list[float]):
        self.app, self.spent = app, spent

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        try:
            return list(self.app(environ, start_response))
        finally:
            self.spent.append((time.perf_counter() - started) * 1000)


def _timed_aiohttp(spent: list[float]):
    from aiohttp import web

    @web.middleware
    async def timed(request, handler):
        started = time.perf_counter()
        try:
            return await handler(request)
        finally:
            spent.append((time.perf_counter() - started) * 1000)

    return timed


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

    from bot import web
    from bot.slack.app import build_app
    from bot.slack.server import EVENTS_PATH, serving_wsgi, slack_wsgi

    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe()
    # Not a daemon: it starts the sender's process (it ends with this one's pipe either way).
    slack = ctx.Process(target=slack_side, args=(theirs, questions, args.retries, args.concurrency, args.update_per_minute))
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
    answerers, in_app = [], []
    load_before = os.getloadavg()[0]
    try:
        if mode == "base":
            app = build_app(bench_settings, footnote, footnote.db, workers=args.workers, placeholder_after_s=args.placeholder_after)
            with serving_wsgi(_TimedWsgi(slack_wsgi(app), in_app)) as base, serving_wsgi(_ok) as floor_url:
                ours.send((base + EVENTS_PATH.lstrip("/"), floor_url))
                side = ours.recv()
        else:
            from aiohttp import web as aioweb

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
            front.middlewares.insert(0, _timed_aiohttp(in_app))
            floor = aioweb.Application()
            floor.router.add_post("/", _ok_async)
            with web.serving(front) as base, web.serving(floor) as floor_base:
                ours.send((base + web.SLACK_PATH, floor_base + "/"))
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
        **_summary(in_app, "ack_in_app_ms"),
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
        "load_average_before": round(load_before, 2),
        "load_average_after": round(os.getloadavg()[0], 2),
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
