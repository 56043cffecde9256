"""A local OpenAI-compatible HTTP server for tests: the network edge is fake, the client is real.

Each test scripts exactly what the "model" says by queueing responses (in the spirit of
simonw/llm's queue-driven fake model), then points the real `openai` client at `base_url`.
The server records every request so a test can assert on the prompt it actually sent.

    with FakeOpenAI() as fake:
        fake.reply({"claims": [...]})          # JSON content (dict -> json.dumps)
        fake.reply("plain text")               # text content
        fake.respond(lambda req: {...})        # computed from the request it answers
        fake.fail(500)                         # an HTTP error
        fake.stall(5.0)                        # sleep past the client's timeout
        client = openai.OpenAI(api_key="k", base_url=fake.base_url, max_retries=0)

A request that finds the queue empty gets a 500 saying so, so a test never passes on a reply
it did not script. Streaming requests (`stream: true`) get the same scripted content as SSE
chunks of `chunk_chars` characters.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np


@dataclass
class Reply:
    content: str
    finish_reason: str = "stop"
    delay_s: float = 0.0  # sleep before answering (a slow model, or one past the timeout)
    chunk_chars: int = 7  # streaming: characters per SSE delta
    chunk_delay_s: float = 0.0  # streaming: pause between deltas


@dataclass
class Failure:
    status: int = 500
    message: str = "scripted failure"
    delay_s: float = 0.0


@dataclass
class Recorded:
    path: str
    headers: dict
    body: dict
    at: float = field(default_factory=time.monotonic)

    @property
    def messages(self) -> list[dict]:
        return self.body.get("messages", [])

    @property
    def prompt(self) -> str:
        """Every message's text joined: what the model was shown."""
        parts = []
        for m in self.messages:
            c = m.get("content")
            if isinstance(c, list):
                c = " ".join(p.get("text", "") for p in c if isinstance(p, dict))
            parts.append(f"{m.get('role')}: {c}")
        return "\n".join(parts)


def hash_embedding(text: str, dim: int) -> list[float]:
    """A deterministic unit vector per text: equal texts embed equally, others nearly orthogonal."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    v = np.random.default_rng(seed).standard_normal(dim)
    return (v / np.linalg.norm(v)).astype(float).tolist()


class FakeOpenAI:
    """The server and its script. A context manager: started on enter, stopped on exit."""

    def __init__(self, *, embed_dim: int = 1536, embed_fn=None):
        self._queue: deque = deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.requests: list[Recorded] = []
        self.embed_dim = embed_dim
        self.embed_fn = embed_fn or hash_embedding
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- script -----------------------------------------------------------------------------

    def reply(self, content, **kw) -> FakeOpenAI:
        text = content if isinstance(content, str) else json.dumps(content)
        with self._lock:
            self._queue.append(Reply(text, **kw))
        return self

    def respond(self, fn) -> FakeOpenAI:
        """A reply computed from the request: `fn(Recorded) -> str | dict | Reply | Failure`.
        For scripts that must quote what the prompt showed (evidence ids, figures)."""
        with self._lock:
            self._queue.append(fn)
        return self

    def fail(self, status: int = 500, message: str = "scripted failure", *, delay_s: float = 0.0) -> FakeOpenAI:
        with self._lock:
            self._queue.append(Failure(status, message, delay_s))
        return self

    def stall(self, seconds: float, content: str = "{}") -> FakeOpenAI:
        """Answer only after `seconds`: with a shorter client timeout, the client times out."""
        return self.reply(content, delay_s=seconds)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def _next(self):
        with self._lock:
            return self._queue.popleft() if self._queue else None

    # -- lifecycle --------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> FakeOpenAI:
        fake = self

        class Handler(_Handler):
            pass

        Handler.fake = fake
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()  # wakes handlers sleeping in a stall
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def sleep(self, seconds: float) -> None:
        self._stop.wait(seconds)


class _Handler(BaseHTTPRequestHandler):
    fake: FakeOpenAI
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # keep test output quiet
        pass

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            return self._json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model", "owned_by": "test"}]})
        self._json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return self._json(400, {"error": {"message": "invalid JSON body", "type": "invalid_request_error"}})
        recorded = Recorded(self.path, dict(self.headers), body)
        self.fake.requests.append(recorded)
        path = self.path.split("?")[0].rstrip("/")
        try:
            if path.endswith("/chat/completions"):
                self._chat(body, recorded)
            elif path.endswith("/embeddings"):
                self._embeddings(body)
            else:
                self._json(404, {"error": {"message": f"no route {path}", "type": "invalid_request_error"}})
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test): nothing left to answer

    # -- routes -----------------------------------------------------------------------------

    def _chat(self, body: dict, recorded: Recorded) -> None:
        item = self.fake._next()
        if item is None:
            return self._json(500, {"error": {"message": "fake server: no scripted response left", "type": "server_error"}})
        if callable(item):
            made = item(recorded)
            item = made if isinstance(made, Reply | Failure) else Reply(made if isinstance(made, str) else json.dumps(made))
        if item.delay_s:
            self.fake.sleep(item.delay_s)
        if isinstance(item, Failure):
            return self._json(item.status, {"error": {"message": item.message, "type": "server_error", "code": None}})
        model = body.get("model", "fake-model")
        if body.get("stream"):
            return self._stream(item, model, body)
        self._json(
            200,
            {
                "id": f"chatcmpl-fake{len(self.fake.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": item.content, "refusal": None},
                        "finish_reason": item.finish_reason,
                        "logprobs": None,
                    }
                ],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            },
        )

    def _stream(self, item: Reply, model: str, body: dict) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        base = {"id": "chatcmpl-fakestream", "object": "chat.completion.chunk", "created": int(time.time()), "model": model}

        def send(choice_delta: dict, finish=None) -> None:
            chunk = {**base, "choices": [{"index": 0, "delta": choice_delta, "finish_reason": finish, "logprobs": None}]}
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()

        send({"role": "assistant", "content": ""})
        text, n = item.content, max(1, item.chunk_chars)
        for i in range(0, len(text), n):
            if item.chunk_delay_s:
                self.fake.sleep(item.chunk_delay_s)
            send({"content": text[i : i + n]})
        send({}, finish=item.finish_reason)
        if (body.get("stream_options") or {}).get("include_usage"):
            usage = {**base, "choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
            self.wfile.write(f"data: {json.dumps(usage)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True

    def _embeddings(self, body: dict) -> None:
        inputs = body.get("input", [])
        if isinstance(inputs, str):
            inputs = [inputs]
        dim = int(body.get("dimensions") or self.fake.embed_dim)
        as_b64 = body.get("encoding_format") == "base64"  # the client asks for base64 by default
        data = []
        for i, t in enumerate(inputs):
            vec = self.fake.embed_fn(str(t), dim)
            if as_b64:
                vec = base64.b64encode(np.asarray(vec, dtype="<f4").tobytes()).decode()
            data.append({"object": "embedding", "index": i, "embedding": vec})
        self._json(
            200,
            {"object": "list", "data": data, "model": body.get("model", "fake-embedding"), "usage": {"prompt_tokens": 1, "total_tokens": 1}},
        )

    def _json(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()
