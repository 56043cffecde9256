"""`footnote serve`: one hardened web front for Slack, Teams and health checks, on aiohttp.

One asyncio process holds every connection, so an idle or slow client costs a little memory,
not a thread: a thousand idle sockets do not delay a real request. What a client can hold is
still bounded:

- a body over MAX_BODY_BYTES gets 413 from its Content-Length, before a byte of it is read, and
  the connection is closed; a body must arrive within READ_TIMEOUT_S (else 408);
- a connection that sends no complete request within IDLE_TIMEOUT_S is closed (aiohttp's
  keep-alive timeout runs from the moment a connection opens: slow-loris headers included);
- Slack requests are checked (size, signature) before Bolt parses them, then dispatched to the
  synchronous Bolt App on a bounded thread pool; when `workers + queue` dispatches are already
  in flight, a slash command gets a polite ephemeral "busy" and an event a 503 with Retry-After
  (Slack redelivers it), instead of an unbounded queue;
- Teams messages go to the same CloudAdapter handler `footnote teams` serves;
- `GET /healthz` is 200 only when the database answers and the embedding model is loaded, so a
  load balancer can route around a replica that cannot answer. Replicas share one Postgres: the
  event ledger, thread memory and answer cache already live there.

Every `PRUNE_EVERY_S` the server prunes stale cache rows and old checkpoints (store.retention).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

from aiohttp import web

from store import inventory

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 1 << 20
READ_TIMEOUT_S = 10.0
IDLE_TIMEOUT_S = 10.0
HEALTH_TIMEOUT_S = 5.0
PRUNE_EVERY_S = 6 * 3600
SLACK_PATH = "/slack/events"
BUSY_TEXT = "Footnote is busy answering other questions right now. Please try again in a minute."


class Capacity:
    """A counter of dispatches in flight, refused past its limit rather than queued without end."""

    def __init__(self, limit: int):
        self.limit, self.used = limit, 0

    def enter(self) -> bool:
        if self.used >= self.limit:
            return False
        self.used += 1
        return True

    def leave(self) -> None:
        self.used -= 1


@web.middleware
async def bounded_body(request: web.Request, handler):
    if request.method in ("POST", "PUT", "PATCH"):
        length = request.content_length
        if length is not None and length > MAX_BODY_BYTES:
            log.info("refused a %d-byte request body to %s (the limit is %d)", length, request.path, MAX_BODY_BYTES)
            response = web.json_response({"error": f"request body over {MAX_BODY_BYTES} bytes"}, status=413)
            response.force_close()
            return response
        try:
            await asyncio.wait_for(request.read(), READ_TIMEOUT_S)  # cached: handlers read it again for free
        except asyncio.TimeoutError:
            response = web.json_response({"error": "request body too slow"}, status=408)
            response.force_close()
            return response
        except web.HTTPRequestEntityTooLarge:
            response = web.json_response({"error": f"request body over {MAX_BODY_BYTES} bytes"}, status=413)
            response.force_close()
            return response
    return await handler(request)


def make_front(footnote, *, slack_app=None, teams_handler=None, workers: int = 8, queue: int = 32,
               prune_every_s: float | None = PRUNE_EVERY_S, retention_days: int = 30) -> web.Application:
    app = web.Application(middlewares=[bounded_body], client_max_size=MAX_BODY_BYTES)
    app.router.add_get("/healthz", _healthz(footnote))
    if slack_app is not None:
        app.router.add_post(SLACK_PATH, _slack(slack_app, workers, queue))
    if teams_handler is not None:
        from bot.teams.app import MESSAGES_PATH

        app.router.add_post(MESSAGES_PATH, teams_handler)
    if prune_every_s:
        app.on_startup.append(lambda a: _start_pruning(a, footnote, prune_every_s, retention_days))
        app.on_cleanup.append(_stop_pruning)
    return app


def _slack(slack_app, workers: int, queue: int):
    from slack_bolt.request import BoltRequest
    from slack_sdk.signature import SignatureVerifier

    from bot.slack.gate import signed

    verifier = SignatureVerifier(slack_app._signing_secret)
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="footnote-web-slack")
    capacity = Capacity(workers + queue)

    async def events(request: web.Request) -> web.Response:
        body = await request.read()
        if not signed(verifier, body, request.headers.get("X-Slack-Request-Timestamp"),
                      request.headers.get("X-Slack-Signature")):
            log.info("refused a %d-byte Slack request whose signature did not verify", len(body))
            return web.json_response({"error": "invalid request"}, status=401)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return web.json_response({"error": "request body is not UTF-8"}, status=400)
        if not capacity.enter():
            return _busy(text)
        try:
            headers = {k.lower(): v for k, v in request.headers.items()}
            bolt = BoltRequest(body=text, query=request.query_string, headers=headers)
            response = await asyncio.get_running_loop().run_in_executor(pool, slack_app.dispatch, bolt)
        finally:
            capacity.leave()
        return web.Response(status=response.status, body=(response.body or "").encode("utf-8"),
                            headers=response.first_headers_without_set_cookie())

    return events


def _busy(text: str) -> web.Response:
    """A slash command can be answered in the response: say so politely. An event cannot: 503
    with Retry-After makes Slack deliver it again a little later."""
    if "command=" in text and not text.lstrip().startswith("{"):
        return web.json_response({"response_type": "ephemeral", "text": BUSY_TEXT})
    return web.json_response({"error": "busy"}, status=503, headers={"Retry-After": "5"})


def _healthz(footnote):
    def database_answers() -> None:
        with footnote.db.connection() as conn:
            inventory.ping(conn)

    async def healthz(request: web.Request) -> web.Response:
        try:
            await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(None, database_answers), HEALTH_TIMEOUT_S)
            database = "ok"
        except Exception as exc:  # an outage, a timeout: unhealthy, never a traceback
            database = f"unavailable ({exc.__class__.__name__})"
        model = "ok" if getattr(footnote, "embedder", None) is not None else "not loaded"
        healthy = database == "ok" and model == "ok"
        return web.Response(status=200 if healthy else 503, content_type="application/json",
                            text=json.dumps({"database": database, "model": model}))

    return healthz


async def _start_pruning(app: web.Application, footnote, every_s: float, days: int) -> None:
    from store.retention import prune

    def once() -> None:
        with footnote.db.connection() as conn:
            pruned = prune(conn, corpus_version=footnote.db.corpus_version(), days=days)
        log.info("pruned: %s", "; ".join(pruned.lines()))

    async def loop() -> None:
        while True:
            try:
                await asyncio.get_running_loop().run_in_executor(None, once)
            except Exception as exc:
                log.warning("pruning failed (%s); trying again later", exc.__class__.__name__)
            await asyncio.sleep(every_s)

    app["pruner"] = asyncio.create_task(loop())


async def _stop_pruning(app: web.Application) -> None:
    task = app.get("pruner")
    if task is not None:
        task.cancel()


async def _start(app: web.Application, host: str, port: int) -> tuple[web.AppRunner, int]:
    runner = web.AppRunner(app, keepalive_timeout=IDLE_TIMEOUT_S, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port, backlog=1024)
    await site.start()
    return runner, site._server.sockets[0].getsockname()[1]


def run(app: web.Application, host: str, port: int) -> None:
    async def main() -> None:
        runner, bound = await _start(app, host, port)
        log.info("Footnote listening on http://%s:%d (/healthz%s%s)", host, bound,
                 ", " + SLACK_PATH if any(r.resource.canonical == SLACK_PATH for r in app.router.routes()) else "",
                 ", /api/messages" if any(r.resource.canonical == "/api/messages" for r in app.router.routes()) else "")
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    asyncio.run(main())


@contextlib.contextmanager
def serving(app: web.Application, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve on a background event loop; yields the base URL (tests and the bench)."""
    loop = asyncio.new_event_loop()
    ready: dict = {}
    started = threading.Event()

    def main() -> None:
        asyncio.set_event_loop(loop)
        ready["runner"], ready["port"] = loop.run_until_complete(_start(app, host, port))
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=main, name="footnote-web", daemon=True)
    thread.start()
    started.wait(30)
    try:
        yield f"http://{host}:{ready['port']}"
    finally:
        asyncio.run_coroutine_threadsafe(ready["runner"].cleanup(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
