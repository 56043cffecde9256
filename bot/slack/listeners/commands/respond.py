"""What every slash command shares: ack at once, reply privately, and a polite edge."""

from __future__ import annotations

import logging

from bot import render_chat
from bot.slack import blocks
from store.errors import FootnoteError

log = logging.getLogger(__name__)


def ack_now(ack) -> None:
    ack()


def reply(respond, build) -> None:
    """`build()` makes the message; any failure becomes a polite, private reply and a log line."""
    try:
        message = build()
    except FootnoteError as exc:
        message = blocks.text_message(str(exc))
    except Exception:
        log.exception("a slash command failed")
        message = blocks.text_message(render_chat.POLITE_ERROR)
    respond(response_type="ephemeral", **message)
