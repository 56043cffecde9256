from __future__ import annotations

from bot.slack.listeners.events import app_mention, message


def register(app, footnote, db) -> None:
    app_mention.register(app, footnote, db)
    message.register(app, footnote, db)
