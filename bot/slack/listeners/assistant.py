"""Footnote in Slack's AI-app surface (the assistant side panel and its threads), via Bolt's Assistant.

A new assistant thread gets a greeting and suggested questions; each question in it is answered
like a direct message, with Slack's own status line ("Footnote is looking that up…") as the
working signal. Bolt's Assistant middleware sees these events before the ordinary `message`
listener, so each is answered once.
"""

from __future__ import annotations

import logging

from slack_bolt import Assistant

from bot.slack.reply import Asked, first_delivery, question_text

log = logging.getLogger(__name__)

GREETING = (
    "Hi! I answer questions about US public companies from their SEC 10-K and 10-Q filings, and only from them. "
    "Every figure comes from the filing's XBRL data, with a footnote to the SEC document."
)
PROMPTS_TITLE = "Try asking"
PROMPT_TITLES = ("A figure", "A ratio", "A comparison", "From the text")


def suggested_prompts(footnote) -> list[dict]:
    """Example questions about companies the store holds (one it would refuse teaches the wrong thing)."""
    from agent.meta import examples

    try:
        rows = footnote.coverage()
    except Exception:
        log.warning("could not read coverage for the suggested prompts", exc_info=True)
        rows = []
    prompts = [{"title": title, "message": questions[0]}
               for title, (_, questions) in zip(PROMPT_TITLES, examples(rows)) if title != "A ratio"]  # fmt: skip
    return prompts + [{"title": "What's covered", "message": "which companies do you cover?"}]


def ack_now(ack) -> None:
    ack()


def register(app, answering) -> None:
    assistant = Assistant()

    def greet(body, event, client) -> None:
        try:
            if not first_delivery(answering.db, body):
                return
        except Exception:
            log.warning("could not record the new assistant thread (the database?); greeting it anyway")
        thread = event.get("assistant_thread") or {}
        channel, thread_ts = thread.get("channel_id"), thread.get("thread_ts")
        if not channel or not thread_ts:
            return
        try:
            client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=GREETING)
            client.assistant_threads_setSuggestedPrompts(
                channel_id=channel, thread_ts=thread_ts, title=PROMPTS_TITLE, prompts=suggested_prompts(answering.footnote)
            )
        except Exception:
            log.warning("could not greet assistant thread %s/%s", channel, thread_ts, exc_info=True)

    def answer(body, event, context, client) -> None:
        if not event.get("user") or event.get("user") == context.bot_user_id:
            return
        answering.take(client, body, Asked(
            team=context.team_id or body.get("team_id", ""),
            channel=event["channel"],
            thread_ts=event["thread_ts"],
            message_ts=event["ts"],
            user=event["user"],
            text=question_text(event.get("text") or "", context.bot_user_id),
            has_files=bool(event.get("files")),
            assistant=True,
        ))

    assistant.thread_started(lazy=[greet])(ack_now)
    assistant.user_message(lazy=[answer])(ack_now)
    # Footnote answers from filings, not from the channel the user is looking at: Bolt's default
    # handler would store that context through extra Web API calls for nothing.
    assistant.thread_context_changed(ack_now)
    app.assistant(assistant)
