"""The two ways Slack reaches the app: Socket Mode (development, no public URL) and HTTP.

HTTP runs Bolt's WSGI adapter on a threaded stdlib server: every request gets its own thread, so
signature checks and acks never wait behind one another (Bolt's own `app.start()` server serves
one request at a time). In front of Bolt, SlackGate caps the body and refuses a bad or stale
signature (401) before Bolt parses anything. The server bounds what idle or slow clients can hold:
a socket that sends nothing for READ_TIMEOUT_S is closed, and at most MAX_CONNECTIONS are open at
once. A connection past the cap takes the place of the oldest one that has not finished sending
its request (idle, or slow-loris headers), so idle sockets cannot lock a real request out; only
when every connection is inside a request does the newcomer get a 503 at once instead of a thread.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from collections import OrderedDict
from collections.abc import Iterator
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler

from bot.slack.gate import SlackGate
from store.errors import FootnoteError

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"


READ_TIMEOUT_S = 10.0
MAX_CONNECTIONS = 256
_BUSY = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


class _ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    request_queue_size = 256  # a burst of events must not overflow the listen backlog

    def server_activate(self) -> None:
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._open: OrderedDict[socket.socket, bool] = OrderedDict()  # connection -> inside a request
        self._open_lock = threading.Lock()
        super().server_activate()

    def process_request(self, request, client_address) -> None:
        if not self._slots.acquire(blocking=False) and not (self._evict_one() and self._slots.acquire(timeout=1.0)):
            try:
                request.sendall(_BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        with self._open_lock:
            self._open[request] = False
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._open_lock:
                self._open.pop(request, None)
            self._slots.release()

    def inside_request(self, request) -> None:
        with self._open_lock:
            if request in self._open:
                self._open[request] = True

    def _evict_one(self) -> bool:
        """Close the oldest connection that has not sent a whole request; its thread then ends."""
        with self._open_lock:
            victim = next((conn for conn, busy in self._open.items() if not busy), None)
            if victim is None:
                return False
            self._open[victim] = True  # never chosen twice
        try:
            victim.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        return True


class _QuietHandler(WSGIRequestHandler):
    timeout = READ_TIMEOUT_S

    def parse_request(self) -> bool:
        parsed = super().parse_request()
        if parsed:
            self.server.inside_request(self.request)
        return parsed

    def log_message(self, format, *args) -> None:
        log.debug("%s %s", self.address_string(), format % args)


def slack_wsgi(app: App) -> SlackGate:
    """Bolt's WSGI handler behind the gate, which checks with the App's own signing secret."""
    return SlackGate(SlackRequestHandler(app, path=EVENTS_PATH), app._signing_secret)


def make_http_server(app: App, host: str, port: int) -> WSGIServer:
    return make_server(host, port, slack_wsgi(app), server_class=_ThreadingWSGIServer, handler_class=_QuietHandler)


@contextlib.contextmanager
def serving_http(app: App, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve in a background thread; yields the events URL (tests and the bench use this)."""
    with serving_wsgi(slack_wsgi(app), host, port) as base:
        yield base + EVENTS_PATH.lstrip("/")


@contextlib.contextmanager
def serving_wsgi(wsgi_app, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    server = make_server(host, port, wsgi_app, server_class=_ThreadingWSGIServer, handler_class=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="footnote-http", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def run_http(app: App, host: str, port: int) -> None:
    server = make_http_server(app, host, port)
    log.info("Footnote for Slack listening on http://%s:%d%s", host, port, EVENTS_PATH)
    try:
        server.serve_forever()
    finally:
        server.server_close()


def socket_mode_handler(app: App, app_token: str | None):
    """Bolt's Socket Mode handler over the app's own WebClient (so SLACK_API_URL applies to
    apps.connections.open too). `.connect()` returns at once; `.start()` blocks."""
    if not app_token:
        raise FootnoteError("Socket Mode needs SLACK_APP_TOKEN (an xapp- token with connections:write).")
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    return SocketModeHandler(app, app_token)


def run_socket_mode(app: App, app_token: str | None) -> None:
    handler = socket_mode_handler(app, app_token)
    log.info("Footnote for Slack connecting over Socket Mode")
    handler.start()
