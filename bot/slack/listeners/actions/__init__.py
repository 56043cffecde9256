from __future__ import annotations

from bot.slack.listeners.actions import feedback


def register(app, footnote, db) -> None:
    feedback.register(app, footnote, db)
