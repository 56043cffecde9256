"""A local fake of Slack's Web API (and of slash-command response_urls) for tests and the bench.

In the spirit of slackapi/bolt-python's tests/mock_web_api_server: the real slack_sdk WebClient
is pointed at `base_url`, and the server records every call and keeps each message's current
state, so a test asserts what a user would see in the thread, not which function was called.

    with FakeSlack() as slack:
        app = build_app(settings(slack_api_url=slack.base_url), ...)
        ...
        slack.wait_for(lambda: slack.thread("C1", "1700.0001"))

Like Slack, it refuses messages that break Block Kit's limits (`invalid_blocks`), so a renderer
bug fails a test instead of passing silently. A test can also make it rate-limit a method (HTTP 429
with Retry-After, per method per minute, as Slack's tiers do), fail a method outright, or refuse
every payload with blocks, including those sent to a response_url.
"""

from __future__ import annotations

import itertools
import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl

from bot.fakes.loopback import send_json, serve, stop

BOT_USER_ID = "UFOOTNOTE"
BOT_ID = "BFOOTNOTE"
TEAM_ID = "T0FOOT"

_JSON_FIELDS = {"blocks", "chunks", "attachments", "metadata"}


@dataclass
class Call:
    method: str
    args: dict
    headers: dict
    at: float = field(default_factory=time.monotonic)


@dataclass
class Message:
    channel: str
    ts: str
    text: str
    blocks: list
    thread_ts: str | None
    streamed: str = ""  # text appended through the streaming methods
    deleted: bool = False
    attachments: list = field(default_factory=list)
    edits: int = 0

    @property
    def all_blocks(self) -> list:
        """What the user sees, in order: the message's blocks, then each attachment's."""
        return self.blocks + [b for a in self.attachments for b in (a.get("blocks") or [])]


def attachment_problems(attachments: list) -> list[str]:
    """A message's attachments: where Slack documents the `table` block, at most one a message."""
    problems = []
    tables = 0
    for a in attachments:
        inner = a.get("blocks") or []
        tables += sum(1 for b in inner if b.get("type") == "table")
        problems += block_problems(inner, allow=("table",))
    if tables > 1:
        problems.append("only_one_table_allowed")
    return problems


def block_problems(blocks: list, *, allow: tuple[str, ...] = ()) -> list[str]:
    """Slack's own limits on a message's blocks; empty when Slack would accept it. A `table`
    block is only taken inside an attachment (`allow=("table",)`), as Slack documents it."""
    problems = []
    if len(blocks) > 50:
        problems.append(f"{len(blocks)} blocks (max 50)")
    for b in blocks:
        if b.get("type") == "table" and "table" not in allow:
            problems.append("table block outside attachments")
        kind = b.get("type")
        if kind == "section":
            text = (b.get("text") or {}).get("text", "")
            if not text or len(text) > 3000:
                problems.append(f"section text length {len(text)}")
        elif kind == "context":
            els = b.get("elements", [])
            if not els or len(els) > 10:
                problems.append(f"context with {len(els)} elements")
        elif kind == "table":
            rows = b.get("rows", [])
            if not rows or len(rows) > 100 or any(len(r) > 20 or not r for r in rows):
                problems.append("table size")
            for row in rows:
                for cell in row:
                    if cell.get("type") == "raw_text" and not cell.get("text"):
                        problems.append("empty raw_text cell")
                    elif cell.get("type") not in ("raw_text", "rich_text", "raw_number"):
                        problems.append(f"bad cell type {cell.get('type')}")
        elif kind == "actions":
            for el in b.get("elements", []):
                if len(el.get("value", "")) > 2000:
                    problems.append("button value too long")
        elif kind == "input" and "input" in allow:
            if not b.get("label") or not b.get("element"):
                problems.append("input without label or element")
        elif kind not in ("divider", "header", "rich_text", "markdown"):
            problems.append(f"unknown block type {kind}")
    return problems


class FakeSlack:
    """The server and its recorded state. A context manager: started on enter, stopped on exit."""

    def __init__(self, *, latency_s: float = 0.0, rate_limits: dict[str, int] | None = None,
                 slow: dict[str, float] | None = None, retry_after: int | None = None):
        self.latency_s = latency_s  # added to every Web API call, to mimic a real round trip
        self.slow: dict[str, float] = dict(slow or {})  # {method: seconds} added to that method only
        self.retry_after = retry_after  # a fixed Retry-After for every 429 (else the time to a free call)
        self.refuse_blocks = False  # a test sets it to make Slack refuse every message with blocks
        # {method: calls per minute}: past it, 429 with Retry-After (seconds until a call is free).
        self.rate_limits: dict[str, int] = dict(rate_limits or {})
        self.failing: dict[str, str] = {}  # {method: error}: the method answers ok=false with it
        self.rate_limited: list[Call] = []  # calls answered 429
        self.views: list[dict] = []  # modals opened with views.open
        self._windows: dict[str, list[float]] = {}
        self.socket_url: str | None = None  # what apps.connections.open hands out (FakeSocketMode.url)
        self.calls: list[Call] = []
        self.messages: dict[tuple[str, str], Message] = {}
        self.responses: list[Call] = []  # POSTs to response_url (slash commands, actions)
        self.reactions: dict[tuple[str, str], set[str]] = {}
        # Assistant threads (Slack's AI-app surface): the status line under the thread, which Slack
        # clears when the app replies there, and the suggested prompts.
        self.assistant_status: dict[tuple[str, str], str] = {}
        self.suggested_prompts: dict[tuple[str, str], list[dict]] = {}
        self.refuse_assistant = False  # a test sets it: the app lacks assistant:write (or it is no assistant thread)
        self._lock = threading.Lock()
        self._ts = itertools.count(1)
        self._server: ThreadingHTTPServer | None = None

    # -- lifecycle -----------------------------------------------------------------------------
    def __enter__(self) -> "FakeSlack":
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode("utf-8")
                status, body = fake._handle(self.path, dict(self.headers), raw)
                retry_after = body.pop("_retry_after", None)
                headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
                send_json(self, status, body, "application/json; charset=utf-8", headers)

        self._server = serve(Handler)
        return self

    def __exit__(self, *exc) -> None:
        stop(self._server)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/api/"

    def response_url(self, name: str = "cmd") -> str:
        return f"http://127.0.0.1:{self._server.server_port}/response/{name}"

    # -- what a test reads ---------------------------------------------------------------------
    def calls_to(self, method: str) -> list[Call]:
        with self._lock:
            return [c for c in self.calls if c.method == method]

    def thread(self, channel: str, thread_ts: str) -> list[Message]:
        """Footnote's visible messages in a thread (or replies to a top-level message), in order."""
        with self._lock:
            msgs = [m for m in self.messages.values() if m.channel == channel and m.thread_ts == thread_ts and not m.deleted]
        return sorted(msgs, key=lambda m: float(m.ts))

    def all_messages(self) -> list[Message]:
        with self._lock:
            return [m for m in self.messages.values() if not m.deleted]

    def wait_for(self, predicate, timeout: float = 30.0, interval: float = 0.02):
        """Poll until `predicate()` is truthy (the bot works after the ack, on its own threads)."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout}s waiting for the bot; calls: {[c.method for c in self.calls]}")
            time.sleep(interval)

    # -- the API -------------------------------------------------------------------------------
    def _handle(self, path: str, headers: dict, raw: str) -> tuple[int, dict]:
        if self.latency_s:
            time.sleep(self.latency_s)
        if path.rsplit("/", 1)[-1] in self.slow:
            time.sleep(self.slow[path.rsplit("/", 1)[-1]])
        ctype = headers.get("Content-Type", "")
        if "json" in ctype:
            args = json.loads(raw or "{}")
        else:
            args = dict(parse_qsl(raw, keep_blank_values=True))
        for key in _JSON_FIELDS & args.keys():
            if isinstance(args[key], str) and args[key]:
                args[key] = json.loads(args[key])
        if path.startswith("/response/"):
            if self.refuse_blocks and (args.get("blocks") or args.get("attachments")):
                return 400, {"ok": False, "error": "invalid_blocks"}
            problems = block_problems(args.get("blocks") or []) + attachment_problems(args.get("attachments") or [])
            if problems:
                return 400, {"ok": False, "error": "invalid_blocks", "errors": problems}
            with self._lock:
                self.responses.append(Call(path, args, headers))
            return 200, {"ok": True}
        method = path.rsplit("/", 1)[-1]
        call = Call(method, args, headers)
        with self._lock:
            self.calls.append(call)
            wait = self._over_limit(method, call.at)
            if wait is not None:
                self.rate_limited.append(call)
                return 429, {"ok": False, "error": "ratelimited", "_retry_after": wait}
            if method in self.failing:
                return 200, {"ok": False, "error": self.failing[method]}
        wanted = "Bearer xapp-" if method == "apps.connections.open" else "Bearer xoxb-"
        if not headers.get("Authorization", "").startswith(wanted):
            return 200, {"ok": False, "error": "not_authed"}
        handler = getattr(self, "_api_" + method.replace(".", "_"), None)
        if handler is None:
            return 200, {"ok": False, "error": "unknown_method"}
        with self._lock:
            return 200, handler(args)

    def _over_limit(self, method: str, now: float) -> int | None:
        """Seconds until `method` may be called again, or None while it is within its tier."""
        per_minute = self.rate_limits.get(method)
        if per_minute is None:
            return None
        window = [t for t in self._windows.get(method, []) if now - t < 60.0]
        if len(window) >= per_minute:
            self._windows[method] = window
            if self.retry_after is not None:
                return self.retry_after
            return max(1, int(60.0 - (now - window[0])) + 1) if window else 60
        window.append(now)
        self._windows[method] = window
        return None

    def _next_ts(self) -> str:
        return f"1800000000.{next(self._ts):06d}"

    def _check(self, args: dict) -> dict | None:
        blocks = args.get("blocks") or []
        if not blocks and not args.get("text") and not args.get("chunks") and not args.get("markdown_text"):
            return {"ok": False, "error": "no_text"}
        attachments = args.get("attachments") or []
        problems = block_problems(blocks) + attachment_problems(attachments)
        if self.refuse_blocks and (blocks or attachments):
            problems.append("refused by the test")
        if problems:
            return {"ok": False, "error": "invalid_blocks", "errors": problems}
        return None

    def _api_auth_test(self, args: dict) -> dict:
        return {"ok": True, "url": "https://footnote-test.slack.com/", "team": "Footnote Test", "user": "footnote",
                "team_id": TEAM_ID, "user_id": BOT_USER_ID, "bot_id": BOT_ID, "is_enterprise_install": False}

    def _api_chat_postMessage(self, args: dict) -> dict:
        bad = self._check(args)
        if bad:
            return bad
        ts = self._next_ts()
        msg = Message(args["channel"], ts, args.get("text", ""), args.get("blocks") or [], args.get("thread_ts"))
        msg.attachments = args.get("attachments") or []
        self.messages[(msg.channel, ts)] = msg
        self.assistant_status.pop((msg.channel, msg.thread_ts), None)
        return {"ok": True, "channel": msg.channel, "ts": ts, "message": {"text": msg.text, "ts": ts}}

    def _api_chat_update(self, args: dict) -> dict:
        msg = self.messages.get((args.get("channel"), args.get("ts")))
        if msg is None or msg.deleted:
            return {"ok": False, "error": "message_not_found"}
        bad = self._check(args)
        if bad:
            return bad
        msg.text = args.get("text", "")
        msg.blocks = args.get("blocks") or []
        msg.attachments = args.get("attachments") or []
        msg.edits += 1
        return {"ok": True, "channel": msg.channel, "ts": msg.ts, "text": msg.text}

    def _api_chat_delete(self, args: dict) -> dict:
        msg = self.messages.get((args.get("channel"), args.get("ts")))
        if msg is None:
            return {"ok": False, "error": "message_not_found"}
        msg.deleted = True
        return {"ok": True, "channel": msg.channel, "ts": msg.ts}

    def _api_chat_startStream(self, args: dict) -> dict:
        if not args.get("thread_ts"):
            return {"ok": False, "error": "invalid_arguments"}
        ts = self._next_ts()
        msg = Message(args["channel"], ts, "", [], args["thread_ts"])
        msg.streamed = _chunk_text(args)
        self.messages[(msg.channel, ts)] = msg
        self.assistant_status.pop((msg.channel, msg.thread_ts), None)
        return {"ok": True, "channel": msg.channel, "ts": ts}

    def _api_chat_appendStream(self, args: dict) -> dict:
        msg = self.messages.get((args.get("channel"), args.get("ts")))
        if msg is None:
            return {"ok": False, "error": "message_not_found"}
        msg.streamed += _chunk_text(args)
        return {"ok": True, "channel": msg.channel, "ts": msg.ts}

    def _api_chat_stopStream(self, args: dict) -> dict:
        msg = self.messages.get((args.get("channel"), args.get("ts")))
        if msg is None:
            return {"ok": False, "error": "message_not_found"}
        problems = block_problems(args.get("blocks") or [])
        if problems:
            return {"ok": False, "error": "invalid_blocks", "errors": problems}
        msg.streamed += _chunk_text(args)
        msg.text = msg.streamed
        msg.blocks = args.get("blocks") or []
        return {"ok": True, "channel": msg.channel, "ts": msg.ts}

    def _api_reactions_add(self, args: dict) -> dict:
        key = (args.get("channel"), args.get("timestamp"))
        names = self.reactions.setdefault(key, set())
        if args.get("name") in names:
            return {"ok": False, "error": "already_reacted"}
        names.add(args.get("name"))
        return {"ok": True}

    def _api_reactions_remove(self, args: dict) -> dict:
        names = self.reactions.get((args.get("channel"), args.get("timestamp")), set())
        if args.get("name") not in names:
            return {"ok": False, "error": "no_reaction"}
        names.discard(args.get("name"))
        return {"ok": True}

    def _api_assistant_threads_setStatus(self, args: dict) -> dict:
        if self.refuse_assistant:
            return {"ok": False, "error": "missing_scope", "needed": "assistant:write"}
        if not args.get("channel_id") or not args.get("thread_ts") or "status" not in args:
            return {"ok": False, "error": "invalid_arguments"}
        messages = args.get("loading_messages")
        if messages is not None and (not isinstance(messages, list) or len(messages) > 10):
            return {"ok": False, "error": "invalid_arguments"}
        key = (args["channel_id"], args["thread_ts"])
        if args["status"]:
            self.assistant_status[key] = args["status"]
        else:
            self.assistant_status.pop(key, None)
        return {"ok": True}

    def _api_assistant_threads_setSuggestedPrompts(self, args: dict) -> dict:
        if self.refuse_assistant:
            return {"ok": False, "error": "missing_scope", "needed": "assistant:write"}
        prompts = args.get("prompts")
        if not args.get("channel_id") or not isinstance(prompts, list) or not 1 <= len(prompts) <= 4:
            return {"ok": False, "error": "invalid_arguments"}
        if any(not p.get("title") or not p.get("message") for p in prompts):
            return {"ok": False, "error": "invalid_arguments"}
        self.suggested_prompts[(args["channel_id"], args.get("thread_ts", ""))] = prompts
        return {"ok": True}

    def _api_views_open(self, args: dict) -> dict:
        view = args.get("view")
        if isinstance(view, str):
            view = json.loads(view)
        if not args.get("trigger_id") or not isinstance(view, dict) or view.get("type") != "modal":
            return {"ok": False, "error": "invalid_arguments"}
        problems = block_problems(view.get("blocks") or [], allow=("input",))
        if problems:
            return {"ok": False, "error": "invalid_blocks", "errors": problems}
        self.views.append(view)
        return {"ok": True, "view": {"id": f"V{len(self.views)}", **view}}

    def _api_apps_connections_open(self, args: dict) -> dict:
        if not self.socket_url:
            return {"ok": False, "error": "socket_mode_not_enabled"}
        return {"ok": True, "url": self.socket_url}


def _chunk_text(args: dict) -> str:
    text = args.get("markdown_text") or ""
    for chunk in args.get("chunks") or []:
        if chunk.get("type") == "markdown_text":
            text += chunk.get("text", "")
    return text


class FakeSocketMode:
    """Slack's Socket Mode end: a WebSocket server that says hello, pushes envelopes a test gives
    it, and records the acks ({"envelope_id": ...}) the app sends back."""

    def __init__(self):
        self.acks: list[dict] = []
        self.sockets: list = []
        self._loop = None
        self._runner = None
        self.port = None

    def __enter__(self) -> "FakeSocketMode":
        import asyncio

        from aiohttp import web

        ready = threading.Event()
        self._loop = asyncio.new_event_loop()

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            app = web.Application()
            app.router.add_get("/link", self._socket)
            self._runner = web.AppRunner(app)
            self._loop.run_until_complete(self._runner.setup())
            site = web.TCPSite(self._runner, "127.0.0.1", 0)
            self._loop.run_until_complete(site.start())
            self.port = site._server.sockets[0].getsockname()[1]
            ready.set()
            self._loop.run_forever()

        threading.Thread(target=run, daemon=True).start()
        ready.wait(10)
        return self

    def __exit__(self, *exc) -> None:
        import asyncio

        async def stop():
            for ws in self.sockets:
                await ws.close()
            await self._runner.cleanup()

        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/link"

    async def _socket(self, request):
        from aiohttp import WSMsgType, web

        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self.sockets.append(ws)
        await ws.send_json({"type": "hello", "num_connections": 1, "connection_info": {"app_id": "AFOOTNOTE"},
                            "debug_info": {"host": "fake", "approximate_connection_time": 3600}})
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                self.acks.append(json.loads(msg.data))
        return ws

    def send(self, envelope: dict) -> None:
        import asyncio

        asyncio.run_coroutine_threadsafe(self.sockets[-1].send_json(envelope), self._loop).result(10)


class SlackSender:
    """Plays Slack's side of the Events API: signed POSTs of events, slash commands and clicks."""

    def __init__(self, url: str, signing_secret: str, *, team: str = TEAM_ID):
        from slack_sdk.signature import SignatureVerifier

        self.url = url
        self.team = team
        self._verifier = SignatureVerifier(signing_secret)
        self._ids = itertools.count(1)
        self._ts = itertools.count(1)
        # Event ids and message timestamps unique to this sender, so tests sharing a database
        # never see each other's processed events or threads.
        self._run = uuid.uuid4().hex[:8]
        self._base = random.randint(1_600_000_000, 1_699_999_999)

    def next_ts(self) -> str:
        return f"{self._base}.{next(self._ts):06d}"

    def post(self, body: str, content_type: str, *, retry_num: int | None = None, timestamp: int | None = None,
             signature: str | None = None) -> tuple[int, str, float]:
        """POST `body` signed as Slack would; returns (status, response body, seconds to the ack)."""
        import urllib.error
        import urllib.request

        headers = self.headers(body, content_type, retry_num=retry_num, timestamp=timestamp, signature=signature)
        request = urllib.request.Request(self.url, data=body.encode("utf-8"), headers=headers, method="POST")
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=10) as resp:
                return resp.status, resp.read().decode(), time.perf_counter() - started
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode(), time.perf_counter() - started

    def headers(self, body: str, content_type: str, *, retry_num: int | None = None, timestamp: int | None = None,
                signature: str | None = None) -> dict[str, str]:
        """The headers Slack sends with `body`: its timestamp and signature, and a retry's number."""
        ts = str(int(time.time()) if timestamp is None else timestamp)
        headers = {
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": ts,
            "X-Slack-Signature": signature or self._verifier.generate_signature(timestamp=ts, body=body),
        }
        if retry_num is not None:
            headers["X-Slack-Retry-Num"] = str(retry_num)
            headers["X-Slack-Retry-Reason"] = "http_timeout"
        return headers

    def event_body(self, event: dict, *, event_id: str | None = None) -> str:
        """An Events API callback carrying `event`, as Slack posts it."""
        return json.dumps({
            "token": "legacy", "team_id": self.team, "api_app_id": "AFOOTNOTE", "type": "event_callback",
            "event_id": event_id or f"Ev{self._run}{next(self._ids):06d}", "event_time": int(time.time()),
            "authorizations": [{"team_id": self.team, "user_id": BOT_USER_ID, "is_bot": True}],
            "event": event,
        })

    def event(self, event: dict, *, event_id: str | None = None, **kw) -> tuple[int, str, float]:
        return self.post(self.event_body(event, event_id=event_id), "application/json", **kw)

    def mention(self, text: str, *, channel: str = "C0GENERAL", user: str = "U0ANALYST", ts: str | None = None,
                thread_ts: str | None = None, **extra) -> tuple[str, dict]:
        """Build an app_mention event as Slack sends it; returns (ts, event)."""
        ts = ts or self.next_ts()
        event = {"type": "app_mention", "user": user, "text": f"<@{BOT_USER_ID}> {text}", "ts": ts,
                 "channel": channel, "event_ts": ts, "team": self.team, **extra}
        if thread_ts:
            event["thread_ts"] = thread_ts
        return ts, event

    def message(self, text: str, *, channel: str = "C0GENERAL", user: str = "U0ANALYST", ts: str | None = None,
                thread_ts: str | None = None, channel_type: str = "channel", **extra) -> tuple[str, dict]:
        ts = ts or self.next_ts()
        event = {"type": "message", "user": user, "text": text, "ts": ts, "channel": channel, "event_ts": ts,
                 "channel_type": channel_type, "team": self.team, **extra}
        if thread_ts:
            event["thread_ts"] = thread_ts
        return ts, event

    def command(self, command: str, text: str, response_url: str, *, user: str = "U0ANALYST", **kw):
        from urllib.parse import urlencode

        body = urlencode({
            "token": "legacy", "team_id": self.team, "team_domain": "footnote-test", "channel_id": "C0GENERAL",
            "channel_name": "general", "user_id": user, "user_name": "analyst", "command": command, "text": text,
            "api_app_id": "AFOOTNOTE", "response_url": response_url, "trigger_id": "1.2.3",
        })
        return self.post(body, "application/x-www-form-urlencoded", **kw)

    def click(self, action_id: str, value: str, message: dict, response_url: str, *, user: str = "U0ANALYST", **kw):
        from urllib.parse import urlencode

        payload = {
            "type": "block_actions", "team": {"id": self.team, "domain": "footnote-test"},
            "user": {"id": user, "username": "analyst", "team_id": self.team}, "api_app_id": "AFOOTNOTE",
            "container": {"type": "message", "message_ts": message["ts"], "channel_id": message["channel"], "is_ephemeral": False},
            "channel": {"id": message["channel"], "name": "general"}, "message": message,
            "response_url": response_url, "trigger_id": "1.2.3",
            "actions": [{"type": "button", "action_id": action_id, "block_id": "footnote_feedback", "value": value,
                         "action_ts": str(time.time())}],
        }
        return self.post(urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded", **kw)


def view_submission(sender: SlackSender, view: dict, values: dict, *, user: str = "U0ANALYST"):
    """Slack's POST when a user submits a modal the app opened (`values`: block -> action -> state)."""
    from urllib.parse import urlencode

    payload = {
        "type": "view_submission", "team": {"id": sender.team, "domain": "footnote-test"},
        "user": {"id": user, "username": "analyst", "team_id": sender.team}, "api_app_id": "AFOOTNOTE",
        "trigger_id": "4.5.6",
        "view": {**view, "id": "V1", "team_id": sender.team, "state": {"values": values}},
    }
    return sender.post(urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded")
