from __future__ import annotations

from bot.slack.listeners.events import app_mention, message


def register(app, answering) -> None:
    app_mention.register(app, answering)
    message.register(app, answering)
