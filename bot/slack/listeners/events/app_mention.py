"""`@Footnote question` in a channel: acknowledged at once, answered in that message's thread."""

from __future__ import annotations

from bot.slack.reply import Asked, question_text


def ack_now(ack) -> None:
    ack()


def register(app, answering) -> None:
    def answer_mention(body, event, context, client) -> None:
        if event.get("edited") or event.get("bot_id"):
            return  # an edited mention was already answered as first written; bots are not users
        asked = Asked(
            team=context.team_id or body.get("team_id", ""),
            channel=event["channel"],
            thread_ts=event.get("thread_ts") or event["ts"],
            message_ts=event["ts"],
            user=event.get("user", ""),
            text=question_text(event.get("text", ""), context.bot_user_id),
            has_files=bool(event.get("files")),
        )
        answering.take(client, body, asked)  # claims the event first: Slack redelivers

    app.event("app_mention")(ack=ack_now, lazy=[answer_mention])
