"""👍/👎 on an answer: one vote per user per answer (a later click replaces theirs), stored in
Postgres with the question, the answer as shown and the thread. The buttons then show the counts,
and a 👎 opens a short form asking what was wrong, stored with the vote."""

from __future__ import annotations

import json
import logging

from slack_sdk.errors import SlackApiError
from slack_sdk.models.blocks import InputBlock, Option, PlainTextInputElement, PlainTextObject, RadioButtonsElement
from slack_sdk.models.views import View

from store import ledger
from bot.slack import blocks
from bot.slack.blocks import FEEDBACK_DOWN, FEEDBACK_UP
from bot.slack.listeners.commands.respond import send

log = logging.getLogger(__name__)

REASON_VIEW = "footnote_feedback_reason"
REASON_BLOCK, REASON_ACTION = "reason", "reason_choice"
COMMENT_BLOCK, COMMENT_ACTION = "comment", "comment_text"


def ack_now(ack) -> None:
    ack()


def answer_ref(body: dict) -> str | None:
    container = body.get("container") or {}
    channel = container.get("channel_id") or (body.get("channel") or {}).get("id")
    ts = container.get("message_ts") or (body.get("message") or {}).get("ts")
    return f"slack:{channel}:{ts}" if channel and ts else None


def reason_view(feedback_id: int) -> dict:
    """The 👎 form, built with slack_sdk's view and block models (they check Block Kit's limits)."""
    options = [Option(value=value, text=PlainTextObject(text=label)) for value, label in ledger.FEEDBACK_REASONS.items()]
    return View(
        type="modal",
        callback_id=REASON_VIEW,
        private_metadata=json.dumps({"id": feedback_id}),
        title=PlainTextObject(text="What was wrong?"),
        submit=PlainTextObject(text="Send"),
        close=PlainTextObject(text="Skip"),
        blocks=[
            InputBlock(block_id=REASON_BLOCK, label=PlainTextObject(text="The answer…"),
                       element=RadioButtonsElement(action_id=REASON_ACTION, options=options)),
            InputBlock(block_id=COMMENT_BLOCK, optional=True, label=PlainTextObject(text="Anything else? (optional)"),
                       element=PlainTextInputElement(action_id=COMMENT_ACTION, multiline=True, max_length=2000)),
        ],
    ).to_dict()


def register(app, answering) -> None:
    def record(body, action, respond, client) -> None:
        user = (body.get("user") or {}).get("id", "")
        down = action["action_id"] == FEEDBACK_DOWN
        message = body.get("message") or {}
        ref = answer_ref(body)
        try:
            carried = json.loads(action.get("value") or "{}")
            feedback_id = ledger.record_feedback(
                answering.db,
                platform="slack",
                thread_key=carried.get("t", ""),
                user_id=user,
                rating=-1 if down else 1,
                question=carried.get("q", ""),
                answer={"text": message.get("text", ""), "blocks": message.get("blocks", []),
                        "attachments": message.get("attachments", []), "ts": message.get("ts")},
                answer_ref=ref,
            )
        except Exception:
            log.exception("could not store feedback")
            send(respond, blocks.text_message("Sorry, that feedback could not be saved. Please try again later."),
                 replace_original=False)
            return
        if down and body.get("trigger_id"):
            try:  # first: the trigger is only good for 3 seconds after the click
                client.views_open(trigger_id=body["trigger_id"], view=reason_view(feedback_id))
            except SlackApiError as exc:
                log.warning("views.open failed: %s", exc.response.get("error"))
            except Exception as exc:
                log.warning("views.open failed: %s", type(exc).__name__)
        if message and ref:
            votes = ledger.votes(answering.db, "slack", ref)
            send(respond, blocks.with_votes(message, votes), response_type=None, replace_original=True)

    def record_reason(body, view) -> None:
        try:
            values = (view.get("state") or {}).get("values") or {}
            choice = ((values.get(REASON_BLOCK) or {}).get(REASON_ACTION) or {}).get("selected_option") or {}
            comment = ((values.get(COMMENT_BLOCK) or {}).get(COMMENT_ACTION) or {}).get("value")
            feedback_id = int(json.loads(view.get("private_metadata") or "{}")["id"])
            ledger.record_reason(answering.db, feedback_id, (body.get("user") or {}).get("id", ""), choice.get("value", "other"), comment)
        except Exception:
            log.exception("could not store the reason for a 👎")

    app.action(FEEDBACK_UP)(ack=ack_now, lazy=[record])
    app.action(FEEDBACK_DOWN)(ack=ack_now, lazy=[record])
    app.view(REASON_VIEW)(ack=ack_now, lazy=[record_reason])
