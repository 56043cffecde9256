"""`footnote serve`: one hardened web front for Slack, Teams and health checks, on aiohttp.

One asyncio process holds every connection, so an idle or slow client costs a little memory,
not a thread: a thousand idle sockets do not delay a real request. What a client can hold is
still bounded:

- a body over MAX_BODY_BYTES gets 413 from its Content-Length, before a byte of it is read, and
  the connection is closed; a body must arrive within READ_TIMEOUT_S (else 408);
- a connection that sends no complete request within IDLE_TIMEOUT_S is closed (aiohttp's
  keep-alive timeout runs from the moment a connection opens: slow-loris headers included);
- at most MAX_CONNECTIONS are open at once (a hard cap: file descriptors and buffers are finite).
  A connection past it takes the place of the oldest one that is not in the middle of a request
  (idle, or still sending its headers), so a flood of idle sockets cannot lock a real request
  out; only when every connection is busy is the newcomer told 503 and closed;
- Slack requests are checked (size, signature) before Bolt parses them; with a Handoff, events
  and slash commands are queued for answer workers, and anything else is dispatched to the
  synchronous Bolt App on a bounded thread pool; when `workers + queue` dispatches are already in
  flight, a slash command gets a polite ephemeral "busy" and an event a 503 with Retry-After
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
from urllib.parse import parse_qs

from aiohttp import web

from store import inventory

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 1 << 20
READ_TIMEOUT_S = 10.0
IDLE_TIMEOUT_S = 10.0
MAX_CONNECTIONS = 512
HEALTH_TIMEOUT_S = 5.0
PRUNE_EVERY_S = 6 * 3600
SLACK_PATH = "/slack/events"
TEAMS_PATH = "/api/messages"  # the Bot Framework messaging endpoint, as registered with Azure Bot
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
               prune_every_s: float | None = PRUNE_EVERY_S, retention_days: int = 30, handoff=None) -> web.Application:
    """`handoff` (a Handoff): Slack events are queued for answer workers instead of answered here."""
    app = web.Application(middlewares=[bounded_body], client_max_size=MAX_BODY_BYTES)
    app.router.add_get("/healthz", _healthz(footnote))
    if slack_app is not None:
        app.router.add_post(SLACK_PATH, _slack(slack_app, workers, queue, handoff))
    if teams_handler is not None:
        app.router.add_post(TEAMS_PATH, teams_handler)
    if prune_every_s:
        app.on_startup.append(lambda a: _start_pruning(a, footnote, prune_every_s, retention_days))
        app.on_cleanup.append(_stop_pruning)
    return app


class Handoff:
    """Slack events go to answer workers through the queue in Postgres (store/inbound.py).

    The acknowledgement waits at most ACK_WAIT_S for the write: it normally lands within it, so
    the event is in Postgres before Slack hears 200; on a database slowed by load it lands a
    little later, and the acknowledgement does not wait for it (until then the event is in this
    process's memory, as every event was before the queue). A write that fails as an outage, or
    has not finished within the outage bound (bot.outage), marks the database down, and the event
    is answered by this process's own Bolt App instead, which tells the user at once and keeps
    the event until the database is back (a write that lands after all is claimed once)."""

    ACK_WAIT_S = 0.05

    def __init__(self, db, outage, writer=None):
        from store import inbound

        self.db = db
        self.outage = outage
        # One connection and thread of its own, warm before the first event, batching what arrives
        # together (store.inbound.Writer); `footnote serve` shares it with the Teams endpoint.
        self.writer = writer or inbound.Writer(db.url)
        # Answering here has threads of its own: writes stuck in an outage must not hold them up.
        self.here_pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="footnote-web-here")
        self.queued = self.answered_here = 0

    async def hand(self, slack_app, event_id: str, body: str, headers: dict, query: str) -> None:
        """Returns once the event is queued, or it is on its way here, or ACK_WAIT_S has passed."""
        loop = asyncio.get_running_loop()
        if self.outage.down:
            self._here(loop, slack_app, body, headers, query)
            return
        put = asyncio.wrap_future(self.writer.submit("slack", event_id, body, headers), loop=loop)
        put.add_done_callback(_retrieved)  # a write abandoned to an outage may still fail later: not an error
        done, _ = await asyncio.wait({put}, timeout=self.ACK_WAIT_S)
        if done:
            self._settle(put, loop, slack_app, body, headers, query)
            return

        async def later() -> None:
            finished, _ = await asyncio.wait({put}, timeout=max(0.0, self.outage.step_wait_s - self.ACK_WAIT_S))
            if not finished:
                self.outage.went_down(f"queueing an event took over {self.outage.step_wait_s:.0f} s")
                self._here(loop, slack_app, body, headers, query)
                return
            self._settle(put, loop, slack_app, body, headers, query)

        task = loop.create_task(later())
        _background.add(task)
        task.add_done_callback(_background.discard)

    def _settle(self, put, loop, slack_app, body: str, headers: dict, query: str) -> None:
        from store.db import is_outage

        error = put.exception()
        if error is None:
            self.queued += 1
            return
        if is_outage(error):
            self.outage.went_down(error.__class__.__name__)
        else:
            log.error("could not queue a Slack event (%s); answering it here", error.__class__.__name__)
        self._here(loop, slack_app, body, headers, query)

    def _here(self, loop, slack_app, body: str, headers: dict, query: str) -> None:
        from slack_bolt.request import BoltRequest

        self.answered_here += 1
        loop.run_in_executor(self.here_pool, _dispatch, slack_app, BoltRequest(body=body, query=query, headers=headers))


_background: set = set()


def _retrieved(future) -> None:
    if not future.cancelled():
        future.exception()


def _dispatch(slack_app, bolt_request) -> None:
    try:
        slack_app.dispatch(bolt_request)
    except Exception:
        log.exception("a Slack event failed")


def _event_id(body: str) -> str | None:
    """What is queued: an Events API callback, by its event id, and a slash command, by its
    trigger id (each invocation's own; every command is acknowledged empty and answered through
    its response_url, valid for 30 minutes, so a worker can answer it as well as the front). None
    for anything else: clicks (a 👎 opens a form with a trigger id that expires in 3 s),
    url_verification, answered here, in the response."""
    if not body.lstrip().startswith("{"):
        try:
            form = parse_qs(body, max_num_fields=64)
        except ValueError:
            return None
        command, trigger = form.get("command"), form.get("trigger_id")
        return f"command:{trigger[0]}" if command and trigger and "payload" not in form else None
    try:
        parsed = json.loads(body)
    except ValueError:
        return None
    if isinstance(parsed, dict) and parsed.get("type") == "event_callback" and isinstance(parsed.get("event_id"), str):
        return parsed["event_id"]
    return None


def _slack(slack_app, workers: int, queue: int, handoff: Handoff | None = None):
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
        headers = {k.lower(): v for k, v in request.headers.items()}
        event_id = _event_id(text) if handoff is not None else None
        if event_id is not None:
            await handoff.hand(slack_app, event_id, text, headers, request.query_string)
            return web.Response(status=200)
        if not capacity.enter():
            return _busy(text)
        try:
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
        from store import teams_cards

        with footnote.db.connection() as conn:
            pruned = prune(conn, corpus_version=footnote.db.corpus_version(), days=days)
        cards = teams_cards.prune(footnote.db, days)
        log.info("pruned: %s; Teams cards forgotten: %d", "; ".join(pruned.lines()), cards)

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


class _CappedServer(web.Server):
    """aiohttp's connection manager with a hard cap on open connections (see the module's notes).

    Checked as each connection is made (a burst is accepted in one go, before any is made)."""

    limit = MAX_CONNECTIONS
    evicted = 0

    def connection_made(self, handler, transport) -> None:
        super().connection_made(handler, transport)
        live = [h for h, t in self._connections.items() if not t.is_closing()]
        if len(live) <= self.limit:
            return
        # The oldest connection not in the middle of a request (idle, or still sending headers) goes.
        victim = next((h for h in live if h is not handler and not getattr(h, "_request_in_progress", False)), None)
        if victim is None:
            transport.write(_BUSY)  # every connection is busy: the newcomer is told, nothing read
            handler.force_close()
            return
        victim.force_close()
        self.evicted += 1
        if self.evicted % 100 == 1:
            log.info("connection cap (%d) reached: closed the oldest idle connection (%d so far)", self.limit, self.evicted)


_BUSY = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


class _CappedRunner(web.AppRunner):
    def __init__(self, app: web.Application, *, max_connections: int, **kwargs):
        super().__init__(app, **kwargs)
        self.max_connections = max_connections

    async def _make_server(self):
        server = await super()._make_server()
        server.__class__ = _CappedServer  # the Application's own server, with the cap's connection_made
        server.limit = self.max_connections
        return server


async def _start(app: web.Application, host: str, port: int) -> tuple[web.AppRunner, int]:
    runner = _CappedRunner(app, max_connections=MAX_CONNECTIONS, keepalive_timeout=IDLE_TIMEOUT_S, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port, backlog=1024)
    await site.start()
    return runner, site._server.sockets[0].getsockname()[1]


def run(app: web.Application, host: str, port: int) -> None:
    async def main() -> None:
        runner, bound = await _start(app, host, port)
        paths = sorted({r.resource.canonical for r in app.router.routes() if r.resource is not None})
        log.info("Footnote listening on http://%s:%d (%s)", host, bound, ", ".join(paths))
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
