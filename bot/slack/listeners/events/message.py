"""Messages without a mention: direct messages, and follow-ups in a thread Footnote answered in.

A direct message is one conversation for Footnote's memory, whether the user replies in a thread
or types in the main box.

Everything else that arrives as a `message` event is ignored: Footnote's own and other bots'
messages, edits, deletions, joins, and top-level channel chatter. A message that mentions
Footnote is left to the app_mention listener so it is answered once.
"""

from __future__ import annotations

from store import ledger
from bot.slack.reply import Asked, first_delivery, question_text, thread_key

ANSWERED_SUBTYPES = {None, "file_share", "thread_broadcast"}


def ack_now(ack) -> None:
    ack()


def is_for_footnote(event: dict, bot_user_id: str | None) -> bool:
    """The cheap checks that need no database: who wrote it and what kind of message it is."""
    if event.get("subtype") not in ANSWERED_SUBTYPES or event.get("bot_id") or not event.get("user"):
        return False
    if bot_user_id and event.get("user") == bot_user_id:
        return False
    if event.get("channel_type") == "im":
        return True
    mentioned = bool(bot_user_id) and f"<@{bot_user_id}>" in (event.get("text") or "")
    in_a_thread = bool(event.get("thread_ts")) and event.get("thread_ts") != event.get("ts")
    return in_a_thread and not mentioned


def register(app, answering) -> None:
    def answer_message(body, event, context, client) -> None:
        if not is_for_footnote(event, context.bot_user_id) or not first_delivery(answering.db, body):
            return
        team = context.team_id or body.get("team_id", "")
        thread_ts = event.get("thread_ts") or event["ts"]
        if event.get("channel_type") != "im" and not ledger.in_thread(answering.db, thread_key(team, event["channel"], thread_ts)):
            return  # a thread among people: not Footnote's conversation
        asked = Asked(
            team=team,
            channel=event["channel"],
            thread_ts=thread_ts,
            message_ts=event["ts"],
            user=event["user"],
            text=question_text(event.get("text") or "", context.bot_user_id),
            has_files=bool(event.get("files")),
            direct=event.get("channel_type") == "im",
        )
        answering.ask(client, asked)

    app.event("message")(ack=ack_now, lazy=[answer_message])
