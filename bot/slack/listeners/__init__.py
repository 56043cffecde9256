"""Every Slack listener, one handler per file, each with `register(app, answering)`
(`answering`: the Footnote, its database and the answer threads; see bot.slack.reply)."""

from __future__ import annotations

from bot.slack.listeners import actions, commands, events


def register(app, answering) -> None:
    events.register(app, answering)
    commands.register(app, answering)
    actions.register(app, answering)
