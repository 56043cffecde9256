from __future__ import annotations

from bot.slack.listeners.actions import feedback


def register(app, answering) -> None:
    feedback.register(app, answering)
