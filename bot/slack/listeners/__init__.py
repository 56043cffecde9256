"""Every Slack listener, one handler per file, each with `register(app, footnote, db)`."""

from __future__ import annotations

from bot.slack.listeners import actions, commands, events


def register(app, footnote, db) -> None:
    events.register(app, footnote, db)
    commands.register(app, footnote, db)
    actions.register(app, footnote, db)
