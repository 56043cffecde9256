"""What every local fake HTTP server shares: a JSON reply, and a threaded server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def send_json(handler: BaseHTTPRequestHandler, status: int, body, content_type: str = "application/json",
              headers: dict[str, str] | None = None) -> None:
    data = json.dumps(body).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # a burst of 50 clients must not find the listen backlog (5) full


def serve(handler_class, *, wrap=None) -> ThreadingHTTPServer:
    """Serve on a free loopback port in a daemon thread; `wrap` may replace the socket (TLS)."""
    server = _Server(("127.0.0.1", 0), handler_class)
    server.daemon_threads = True
    if wrap is not None:
        server.socket = wrap(server.socket)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def stop(server: ThreadingHTTPServer | None) -> None:
    if server:
        server.shutdown()
        server.server_close()
