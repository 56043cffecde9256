"""`/footnote help`: what Footnote answers and what it refuses (the agent's own words)."""

from __future__ import annotations

from bot.slack import blocks
from bot.slack.listeners.commands.respond import ack_now, reply

ASKING = "\n\nTo ask, mention @Footnote in a channel (follow-ups in its thread need no mention) or send it a direct message."


def help_message(footnote, text: str) -> dict:
    lead = "" if text.strip().lower() in ("", "help") else "`/footnote` only knows `help`. "
    return blocks.text_message(lead + footnote.help_text() + ASKING)


def register(app, answering) -> None:
    def show_help(command, respond) -> None:
        reply(respond, lambda: help_message(answering.footnote, command.get("text") or ""))

    app.command("/footnote")(ack=ack_now, lazy=[show_help])
