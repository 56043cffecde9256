"""Every Slack listener, one handler per file, each with `register(app, answering)`
(`answering`: the Footnote, its database and the answer threads; see bot.slack.reply)."""

from __future__ import annotations

from bot.slack.listeners import actions, assistant, commands, events


def register(app, answering) -> None:
    assistant.register(app, answering)  # middleware: assistant threads are taken before `message`
    events.register(app, answering)
    commands.register(app, answering)
    actions.register(app, answering)
