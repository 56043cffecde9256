"""👍/👎 on an answer: stored in Postgres with the question, the answer as shown, and the thread."""

from __future__ import annotations

import json
import logging

from bot import ledger
from bot.slack.blocks import FEEDBACK_DOWN, FEEDBACK_UP

log = logging.getLogger(__name__)


def ack_now(ack) -> None:
    ack()


def register(app, answering) -> None:
    def record(body, action, respond) -> None:
        try:
            carried = json.loads(action.get("value") or "{}")
            message = body.get("message") or {}
            ledger.record_feedback(
                answering.db,
                platform="slack",
                thread_key=carried.get("t", ""),
                user_id=(body.get("user") or {}).get("id", ""),
                rating=1 if action["action_id"] == FEEDBACK_UP else -1,
                question=carried.get("q", ""),
                answer={"text": message.get("text", ""), "blocks": message.get("blocks", []), "ts": message.get("ts")},
            )
            thanks = "Thanks, noted 👍" if action["action_id"] == FEEDBACK_UP else "Thanks, noted 👎: it helps make Footnote better."
        except Exception:
            log.exception("could not store feedback")
            thanks = "Sorry, that feedback could not be saved. Please try again later."
        respond(response_type="ephemeral", replace_original=False, text=thanks)

    app.action(FEEDBACK_UP)(ack=ack_now, lazy=[record])
    app.action(FEEDBACK_DOWN)(ack=ack_now, lazy=[record])
