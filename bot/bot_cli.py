"""`footnote slack` and `footnote teams`, plus `footnote bench slack` and `footnote bench teams`."""

from __future__ import annotations

import argparse
import logging
import subprocess
import sys

log = logging.getLogger(__name__)


def register(sub) -> None:
    slack = sub.add_parser("slack", help="run Footnote in Slack (Socket Mode or HTTP)")
    mode = slack.add_mutually_exclusive_group()
    mode.add_argument("--socket", action="store_true", help="Socket Mode: no public URL needed (default; needs SLACK_APP_TOKEN)")
    mode.add_argument("--http", action="store_true", help="HTTP: Slack POSTs to http://HOST:PORT/slack/events")
    slack.add_argument("--host", default="0.0.0.0", help="HTTP only (default 0.0.0.0)")
    slack.add_argument("--port", type=int, default=3000, help="HTTP only (default 3000)")
    slack.set_defaults(func=cmd_slack)

    serve = sub.add_parser("serve", help="one web front: Slack events (/slack/events), Teams (/api/messages), /healthz")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    serve.add_argument("--port", type=int, default=3000, help="port for /slack/events, /api/messages and /healthz (default 3000)")
    serve.add_argument("--workers", type=int, default=8, help="Slack dispatch threads (default 8)")
    serve.add_argument("--queue", type=int, default=32, help="Slack requests waiting beyond those before 'busy' (default 32)")
    serve.add_argument("--insecure-no-auth", action="store_true",
                       help="serve Teams beyond loopback with no MicrosoftAppId, i.e. with authentication off")
    serve.add_argument("--answer-processes", type=int, default=1,
                       help="answer worker processes started beside the front; Slack events are queued for them in "
                            "Postgres (default 1; 0: answer in the front; more can run elsewhere with `footnote worker`)")
    serve.set_defaults(func=cmd_serve)

    worker = sub.add_parser("worker", help="answer the Slack events `footnote serve` queued (run as many as you like)")
    worker.add_argument("--workers", type=int, default=4, help="answer threads (default 4)")
    worker.add_argument("--nice", type=int, default=None,
                        help="the answers' CPU priority below the web front's (nice value, default 5; SCHED_BATCH on Linux)")
    worker.add_argument("--parent", type=int, default=None, help=argparse.SUPPRESS)
    # For `footnote bench slack`: every answer computed, and its placeholder delay.
    worker.add_argument("--no-cache", action="store_true", help=argparse.SUPPRESS)
    worker.add_argument("--placeholder-after", type=float, default=4.0, help=argparse.SUPPRESS)
    worker.add_argument("--ready-file", default=None, help=argparse.SUPPRESS)  # touched once the model is loaded
    worker.set_defaults(func=cmd_worker)

    teams = sub.add_parser("teams", help="run Footnote for Microsoft Teams (Bot Framework endpoint /api/messages)")
    teams.add_argument("--host", default=None,
                       help="default 0.0.0.0 with MicrosoftAppId set, else 127.0.0.1 (authentication is off without one)")
    teams.add_argument("--port", type=int, default=3978, help="port for /api/messages (default 3978)")
    teams.add_argument("--insecure-no-auth", action="store_true",
                       help="listen beyond loopback with no MicrosoftAppId, i.e. with authentication off")
    teams.set_defaults(func=cmd_teams)

    from bot import feedback_cli

    feedback_cli.register(sub)


def register_bench(bench_sub) -> None:
    from bot import bench_faults

    bench_faults.register(bench_sub)
    bench = bench_sub.add_parser(
        "slack", help="concurrent signed mentions against the HTTP app and a fake Slack Web API on loopback"
    )
    bench.add_argument("-n", "--mentions", type=int, default=100, help="distinct mentions to send (default 100)")
    bench.add_argument("-c", "--concurrency", type=int, default=50, help="requests in flight at once (default 50)")
    bench.add_argument("--retries", type=int, default=1, help="forced retries of every event (X-Slack-Retry-Num), default 1")
    bench.add_argument("--workers", type=int, default=4, help="answer threads (default 4, as `footnote slack`)")
    bench.add_argument("--cache", action="store_true", help="let repeated questions come from the answer cache (default: every answer computed)")
    bench.add_argument("--update-per-minute", type=int, default=50,
                       help="the fake Web API's chat.update limit, as Slack's Tier 3 (default 50; 0: none)")
    bench.add_argument("--placeholder-after", type=float, default=4.0,
                       help="seconds before a slow answer gets a placeholder (default 4, as `footnote slack`; 0: every answer)")
    bench.add_argument("--mode", choices=("both", "base", "front"), default="both",
                       help="base: `footnote slack --http` (answers in the same process); front: `footnote serve`'s "
                            "front with queued answer workers; both (default): one after the other, same questions")
    bench.add_argument("--answer-processes", type=int, default=1, help="front mode: answer worker processes (default 1)")
    bench.add_argument("--out", default="bench-results/slack.json", help="where the figures are written (default bench-results/slack.json)")
    bench.set_defaults(func=cmd_bench_slack)

    teams = bench_sub.add_parser("teams", help="concurrent activities against the Teams endpoint and a fake Bot Framework connector")
    teams.add_argument("-n", "--activities", type=int, default=60, help="distinct activities to send (default 60), each twice")
    teams.add_argument("-c", "--concurrency", type=int, default=20, help="requests in flight at once (default 20)")
    teams.add_argument("--cache", action="store_true", help="let repeated questions come from the answer cache")
    teams.add_argument("--mode", choices=("both", "base", "front"), default="both",
                       help="base: `footnote teams` (answers in the same process); front: `footnote serve`'s front with "
                            "queued answer workers; both (default): one after the other, same questions")
    teams.add_argument("--answer-processes", type=int, default=1, help="front mode: answer worker processes (default 1)")
    teams.add_argument("--out", default="bench-results/teams.json", help="where the figures are written (default bench-results/teams.json)")
    teams.set_defaults(func=cmd_bench_teams)

    from bot import startup_bench

    startup_bench.register(bench_sub)


def cmd_slack(args, settings) -> int:
    from bot.wiring import open_footnote
    from bot.slack.app import build_app
    from bot.slack.server import run_http, run_socket_mode
    from store.errors import FootnoteError

    if not args.http and not settings.slack_app_token:
        raise FootnoteError("Socket Mode needs SLACK_APP_TOKEN (an xapp- token with connections:write); or run with --http.")
    with open_footnote(settings, background=True) as footnote:
        app = build_app(settings, footnote, footnote.db)
        footnote.start()  # the graph and the model load while the server already listens
        if args.http:
            run_http(app, args.host, args.port)
        else:
            run_socket_mode(app, settings.slack_app_token.get_secret_value() if settings.slack_app_token else None)
    return 0


def cmd_serve(args, settings) -> int:
    from bot.wiring import open_footnote
    from bot.slack.app import build_app
    from bot.teams.app import listen_host, messages_handler
    from bot.web import make_front, run
    from store.errors import FootnoteError

    try:
        listen_host(settings, args.host, insecure_no_auth=args.insecure_no_auth)
        teams_on = True
    except FootnoteError as exc:
        log.warning("Teams endpoint off: %s", exc)
        teams_on = False
    slack_on = bool(settings.slack_bot_token and settings.slack_signing_secret)
    with open_footnote(settings) as footnote:
        handoff, outage, writer, answerers = None, None, None, []
        queue = (slack_on or teams_on) and args.answer_processes > 0
        if queue:
            from bot.outage import Outage
            from bot.web import Handoff
            from store.inbound import Writer

            outage = Outage(footnote.db)
            writer = Writer(footnote.db.url)  # one connection and thread write both platforms' requests
            handoff = Handoff(footnote.db, outage, writer)
            from bot.worker import start_worker

            answerers = [start_worker() for _ in range(args.answer_processes)]
        slack_app = build_app(settings, footnote, footnote.db, outage=outage) if slack_on else None
        teams = messages_handler(settings, footnote, queue=queue, writer=writer) if teams_on else None
        front = make_front(footnote, slack_app=slack_app, teams_handler=teams, workers=args.workers,
                           queue=args.queue, retention_days=settings.retention_days, handoff=handoff)
        try:
            run(front, args.host, args.port)
        finally:
            for proc in answerers:
                proc.terminate()
            for proc in answerers:
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
    return 0


def cmd_worker(args, settings) -> int:
    from bot.wiring import open_footnote
    from bot.slack.app import build_app
    from bot.teams.app import messages_handler
    from bot.worker import NICENESS, lower_priority, run_worker, slack_handler, teams_handler

    lower_priority(NICENESS if args.nice is None else args.nice)  # before any thread starts: they inherit it
    with open_footnote(settings, background=True, use_cache=not args.no_cache) as footnote:
        handlers = {}
        if settings.slack_bot_token and settings.slack_signing_secret:
            handlers["slack"] = slack_handler(build_app(settings, footnote, footnote.db, workers=args.workers,
                                                        verify_requests=False, placeholder_after_s=args.placeholder_after))
        handlers["teams"] = teams_handler(messages_handler(settings, footnote).bot)
        footnote.start()  # the graph and the model load while queued requests are already taken
        if args.ready_file:
            import threading
            from pathlib import Path

            threading.Thread(target=lambda: (footnote.wait(), Path(args.ready_file).touch()), daemon=True).start()
        log.info("Footnote answer worker: taking queued %s requests", " and ".join(handlers))
        run_worker(footnote.db, handlers, parent=args.parent)
    return 0


def cmd_teams(args, settings) -> int:
    from bot.wiring import open_footnote
    from bot.teams.app import listen_host, run

    host = listen_host(settings, args.host, insecure_no_auth=args.insecure_no_auth)
    with open_footnote(settings, background=True) as footnote:
        footnote.start()  # the graph and the model load while the server already listens
        run(settings, footnote, host, args.port)
    return 0


def cmd_bench_teams(args, settings) -> int:
    from bot.teams.bench import run_bench

    return run_bench(args, settings)


def cmd_bench_slack(args, settings) -> int:
    from bot.slack.bench import run_bench

    return run_bench(args, settings)
