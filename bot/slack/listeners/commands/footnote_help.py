"""`/footnote help` (what Footnote answers and refuses, in the agent's own words) and
`/footnote ask <question>`, answered privately to the one who asked."""

from __future__ import annotations

import logging

from bot.slack import blocks
from bot.slack.listeners.commands.respond import ack_now, reply, send
from bot.slack.reply import thread_key

log = logging.getLogger(__name__)

ASKING = ("\n\nTo ask, mention @Footnote in a channel (follow-ups in its thread need no mention), send it a direct message, "
          "or type `/footnote ask <question>` for an answer only you can see.")
ASK_USAGE = "Usage: `/footnote ask <question>`, for example `/footnote ask What was Apple's revenue in fiscal 2024?`"


def help_message(footnote, text: str) -> dict:
    lead = "" if text.strip().lower() in ("", "help") else "`/footnote` knows `help` and `ask <question>`. "
    return blocks.text_message(lead + footnote.help_text() + ASKING)


def ask_privately(answering, command: dict, respond, question: str) -> None:
    """An ephemeral answer: its memory is the user's own private thread in that channel."""
    from agent.answer import Turn

    team, user, channel = command.get("team_id", ""), command.get("user_id", ""), command.get("channel_id", "")
    if not question:
        send(respond, blocks.text_message(ASK_USAGE))
        return
    refusal = answering.refusal_before_work(team, user, question)
    if refusal:
        send(respond, blocks.text_message(refusal))
        return
    key = thread_key(team, channel, f"private:{user}")

    def build() -> dict:
        answer = answering.footnote.answer(Turn(thread_key=key, user=user, text=question))
        log.info("answered privately in %s: kind=%s planner=%s composer=%s timings=%s", key, answer.kind,
                 answer.planner, answer.composer, answer.timings)
        # No feedback buttons: an ephemeral message cannot be voted on after it fades.
        return blocks.answer_message(answer, show_path=answering.shows_path_to(user))

    reply(respond, build)


def register(app, answering) -> None:
    def footnote_command(command, respond) -> None:
        text = (command.get("text") or "").strip()
        word, _, rest = text.partition(" ")
        if word.lower() == "ask":
            ask_privately(answering, command, respond, rest.strip())
        else:
            reply(respond, lambda: help_message(answering.footnote, text))

    app.command("/footnote")(ack=ack_now, lazy=[footnote_command])
