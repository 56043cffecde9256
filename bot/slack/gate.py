"""What a Slack HTTP request must pass before Bolt sees it: a size cap and Slack's signature.

Bolt parses a body before it checks the signature, so an unsigned body that was not JSON or not
UTF-8 got a 500 and a traceback, and an unsigned body of any size was read whole (and logged).
Here a body is read only when its declared length is within the cap (413 otherwise, the body left
unread), and only a body whose signature verifies reaches Bolt, with slack_sdk's SignatureVerifier,
the check Bolt itself makes (Bolt checks again: one more HMAC). Nothing about a refused request is
logged beyond its size.
"""

from __future__ import annotations

import io
import json
import logging

from slack_sdk.signature import SignatureVerifier

log = logging.getLogger(__name__)

# Slack's own payloads are a few KB (a modal's state, the largest, tens of KB).
MAX_BODY_BYTES = 1 << 20


class SlackGate:
    """WSGI middleware in front of Bolt's SlackRequestHandler."""

    def __init__(self, app, signing_secret: str, *, max_body_bytes: int = MAX_BODY_BYTES):
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.verifier = SignatureVerifier(signing_secret)

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") != "POST":
            return self.app(environ, start_response)
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if length < 0:
            return _refuse(start_response, "400 Bad Request", "bad Content-Length")
        if length > self.max_body_bytes:
            log.info("refused a %d-byte request body (the limit is %d bytes)", length, self.max_body_bytes)
            return _refuse(start_response, "413 Content Too Large", f"request body over {self.max_body_bytes} bytes")
        body = environ["wsgi.input"].read(length) if length else b""
        if len(body) != length:
            return _refuse(start_response, "400 Bad Request", "request body shorter than its Content-Length")
        if not self._signed(environ, body):
            log.info("refused a %d-byte Slack request whose signature did not verify", length)
            return _refuse(start_response, "401 Unauthorized", "invalid request")
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return _refuse(start_response, "400 Bad Request", "request body is not UTF-8")
        return self.app({**environ, "wsgi.input": io.BytesIO(body)}, start_response)

    def _signed(self, environ, body: bytes) -> bool:
        return signed(self.verifier, body, environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP"),
                      environ.get("HTTP_X_SLACK_SIGNATURE"))


def signed(verifier: SignatureVerifier, body: bytes, timestamp: str | None, signature: str | None) -> bool:
    try:
        return verifier.is_valid(body, timestamp, signature)
    except (TypeError, ValueError):  # a timestamp that is not a number
        return False


def _refuse(start_response, status: str, error: str):
    body = json.dumps({"error": error}).encode()
    start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]
