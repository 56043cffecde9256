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


def years(values) -> str:
    """[2022, 2023, 2024] -> `2022–2024`; gaps are listed."""
    ys = sorted({int(v) for v in values or []})
    if not ys:
        return "—"
    if ys == list(range(ys[0], ys[-1] + 1)) and len(ys) > 2:
        return f"{ys[0]}–{ys[-1]}"
    return ", ".join(str(y) for y in ys)
