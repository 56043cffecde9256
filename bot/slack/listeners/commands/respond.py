"""What every slash command shares: ack at once, reply privately, and a polite edge.

A response_url answers with an HTTP status, not an exception: a refused payload (400
invalid_blocks) would otherwise vanish without a word to the user or the log. Each failure is
logged with Slack's status and error, and the reply is sent again as plain text.
"""

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
    send(respond, message)


def send(respond, message: dict, **options) -> bool:
    """Send through the response_url (ephemeral unless `options` say otherwise); on refusal, the
    plain-text form. True once Slack has taken one of them."""
    options.setdefault("response_type", "ephemeral")
    forms = [message] + ([blocks.plain_message(message)] if message.get("blocks") or message.get("attachments") else [])
    for form in forms:
        try:
            sent = respond(**{k: v for k, v in form.items() if v or k == "text"}, **options)
        except Exception as exc:
            log.error("respond (response_url) failed: %s", type(exc).__name__, exc_info=True)
            continue
        if 200 <= sent.status_code < 300:
            return True
        log.error("respond (response_url) failed: HTTP %s %s", sent.status_code, (sent.body or "")[:300])
    return False
