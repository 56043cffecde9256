"""`footnote bench teams`: how fast the Teams endpoint answers the Bot Framework's HTTP request,
and how large its cards get as Teams counts them.

N distinct message activities go to the real aiohttp endpoint (CloudAdapter + FootnoteBot, auth
off as with the Emulator) with C in flight, each delivered twice (the Bot Framework redelivers
what it thinks was lost). The Bot Framework's side lives in processes of its own: the fake
connector (bot/fakes/connector.py), which receives the answers, in one, the sender in another, so
the answers' deliveries do not sit inside the measured responses.

Figures: time to the HTTP response p50/p99 as the sender sees it (Microsoft asks for one within
15 s; the target is p99 under 200 ms whatever the answer takes) and inside the app (handler to
response), time until the answer arrives, duplicates (must be 0), the largest card in UTF-16 bytes
against the budget (Teams refuses a message near 28 KB), and the load average before and after.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import statistics
import time
import uuid
from pathlib import Path

from bot.slack.bench import _questions, _summary, _timed_aiohttp

COMPARISONS = [
    "Compare revenue for {a} and {b} in fiscal {y}",
    "Compare net income, revenue and total assets for {a}, {b} and {c} in fiscal {y}",
]


def connector_side(conn, questions: list[str], concurrency: int) -> None:
    from bot.teams.cards import utf16_bytes
    from bot.fakes.connector import FakeConnector, activity

    with FakeConnector() as connector:
        conn.send(connector.url)
        url = conn.recv()
        run = uuid.uuid4().hex[:8]
        acts = [activity(q, service_url=connector.url, conversation_id=f"a:bench-{run}-{i}", activity_id=f"{run}-{i}")
                for i, q in enumerate(questions)]
        deliveries = acts + acts  # every activity twice

        started = time.monotonic()
        results = _send_from_own_process(url, [(json.dumps(a), {"Content-Type": "application/json"}) for a in deliveries],
                                         concurrency)
        expected = {a["conversation"]["id"] for a in acts}
        connector.wait_for(lambda: expected <= {r.conversation_id for r in connector.messages()}, timeout=max(120.0, 5.0 * len(acts)))
        time.sleep(1.0)  # a duplicate would arrive about now
        answers: dict[str, list] = {}
        for r in connector.messages():
            answers.setdefault(r.conversation_id, []).append(r)
        sent_at = {a["conversation"]["id"]: started for a in acts}
        conn.send({
            "http_ms": [ms for _, ms, _ in results],
            "non_2xx": sum(1 for status, _, _ in results if not 200 <= status < 300),
            "answer_ms": [(min(r.at for r in rs) - sent_at[c]) * 1000 for c, rs in answers.items() if c in sent_at],
            "card_bytes": [utf16_bytes(r.card) for rs in answers.values() for r in rs if r.card],
            "activity_bytes": [utf16_bytes(r.activity) for rs in answers.values() for r in rs],
            "messages_per_answer": [len(rs) for rs in answers.values()],
            # A second answer to one question (not a continuation of a split one) is a duplicate.
            "duplicates": sum(max(0, sum(1 for r in rs if not (r.card or {}).get("fallbackText", "").startswith("(continued")) - 1)
                              for rs in answers.values()),
            "answered": len(expected & set(answers)),
            "deliveries": len(deliveries),
        })


def _send_from_own_process(url: str, requests: list, concurrency: int) -> list:
    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe()
    proc = ctx.Process(target=sender_side, args=(theirs, url, requests, concurrency), daemon=True)
    proc.start()
    results = ours.recv()
    proc.join(10)
    return results


def sender_side(conn, url: str, requests: list, concurrency: int) -> None:
    from bot.slack.bench import fire

    conn.send(asyncio.run(fire(url, requests, concurrency)))


def _bench_questions(footnote, n: int) -> list[str]:
    tickers = [c["ticker"] for c in footnote.coverage(None)]
    years = sorted({y for c in footnote.coverage(None) for y in (c.get("fiscal_years") or [])}) or [2024]
    base = _questions(footnote, n)
    if len(tickers) >= 3:
        for i in range(0, n, 3):  # every third question a comparison: the large cards
            t = tickers[i % len(tickers):] + tickers[: i % len(tickers)]
            base[i] = COMPARISONS[(i // 3) % 2].format(a=t[0], b=t[1], c=t[2], y=years[-1])
    return base


def run_bench(args, settings) -> int:
    """Both ways of serving Teams in one run, on the same questions: `base`, the endpoint of
    `footnote teams` (answers in the same process), and `front`, `footnote serve`'s front that
    authenticates and queues, with answer workers in their own processes."""
    from bot.wiring import open_footnote

    modes = ["base", "front"] if args.mode == "both" else [args.mode]
    bench_settings = settings.model_copy(update={"microsoft_app_id": None, "microsoft_app_password": None,
                                                 "chat_per_user_per_minute": 0, "chat_per_workspace_per_minute": 0})
    with open_footnote(settings, use_cache=args.cache) as footnote:
        questions = _bench_questions(footnote, args.activities)
        results = {mode: _run_mode(mode, args, bench_settings, footnote, questions) for mode in modes}

    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    print(f"{'':34}" + "".join(f"{m:>14}" for m in modes))
    for k in results[modes[0]]:
        print(f"{k:34}" + "".join(f"{str(results[m].get(k)):>14}" for m in modes))
    print(f"written to {args.out}")
    from bot.teams.cards import CARD_BUDGET

    ok = all(f["non_2xx"] == 0 and f["answered"] == len(questions) and f["duplicates"] == 0
             and f["card_utf16_bytes_max"] <= CARD_BUDGET for f in results.values())
    return 0 if ok else 1


def _run_mode(mode: str, args, bench_settings, footnote, questions: list[str]) -> dict:
    import os

    from aiohttp import web

    from bot.teams.app import BOT_KEY, MESSAGES_PATH, make_app
    from bot.teams.cards import CARD_BUDGET

    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe()
    # Not a daemon: it starts the sender's process (it ends with this one's pipe either way).
    side_proc = ctx.Process(target=connector_side, args=(theirs, questions, args.concurrency))
    side_proc.start()
    ours.recv()
    answerers, in_app = [], []
    load_before = os.getloadavg()[0]
    try:
        if mode == "base":
            async def serve() -> dict:
                app = make_app(bench_settings, footnote)
                app.middlewares.append(_timed_aiohttp(in_app))
                runner = web.AppRunner(app)
                await runner.setup()
                site = web.TCPSite(runner, "127.0.0.1", 0)
                await site.start()
                port = site._server.sockets[0].getsockname()[1]
                ours.send(f"http://127.0.0.1:{port}{MESSAGES_PATH}")
                side = await asyncio.get_running_loop().run_in_executor(None, ours.recv)
                await app[BOT_KEY].idle()
                await runner.cleanup()
                return side

            side = asyncio.run(serve())
        else:
            from bot import web as front
            from bot.slack.bench import start_workers
            from bot.teams.app import messages_handler

            env = {k: v for k, v in os.environ.items() if not k.lower().startswith(("microsoftapp", "slack_"))}
            env.update(FOOTNOTE_CHAT_PER_USER_PER_MINUTE="0", FOOTNOTE_CHAT_PER_WORKSPACE_PER_MINUTE="0")
            answerers = start_workers(args.answer_processes, workers=4, env=env, extra=() if args.cache else ("--no-cache",))
            app = front.make_front(footnote, teams_handler=messages_handler(bench_settings, footnote, queue=True), prune_every_s=None)
            app.middlewares.insert(0, _timed_aiohttp(in_app))
            with front.serving(app) as base:
                ours.send(base + MESSAGES_PATH)
                side = ours.recv()
    finally:
        for proc in answerers:
            proc.terminate()
            proc.wait(30)
        side_proc.join(timeout=10)

    return {
        "activities": len(questions),
        "deliveries": side["deliveries"],
        "concurrency": args.concurrency,
        "answer_processes": 0 if mode == "base" else args.answer_processes,
        **_summary(side["http_ms"], "http_response_ms"),
        "http_response_ms_max": round(max(side["http_ms"]), 2),
        **_summary(in_app, "http_response_in_app_ms"),
        "non_2xx": side["non_2xx"],
        **_summary(side["answer_ms"], "answer_arrived_ms"),
        "answered": side["answered"],
        "duplicates": side["duplicates"],
        "messages_per_answer_max": max(side["messages_per_answer"]),
        "card_utf16_bytes_max": max(side["card_bytes"] or [0]),
        "card_utf16_bytes_p50": round(statistics.median(side["card_bytes"]), 0) if side["card_bytes"] else None,
        "activity_utf16_bytes_max": max(side["activity_bytes"] or [0]),
        "card_budget_utf16_bytes": CARD_BUDGET,
        "load_average_before": round(load_before, 2),
        "load_average_after": round(os.getloadavg()[0], 2),
    }
