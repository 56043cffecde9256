"""The Bolt app: settings + a Footnote in, a ready App out. Transports live in server.py."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from slack_bolt import App
from slack_sdk import WebClient

from bot import ledger
from bot.slack import listeners
from store.errors import FootnoteError


def build_app(settings, footnote, db, *, workers: int = 8) -> App:
    """One App per process. Listeners ack at once and answer on `workers` threads (lazy listeners).

    Nothing on the ack path touches the database: the ack is Bolt's signature check and a queued
    job. Deduplication of Slack's retries happens first thing after the ack (reply.first_delivery)."""
    if not settings.slack_bot_token or not settings.slack_signing_secret:
        raise FootnoteError("Slack needs SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (see README, \"Slack\").")
    client = WebClient(token=settings.slack_bot_token.get_secret_value(), base_url=settings.slack_api_url)
    app = App(
        client=client,
        signing_secret=settings.slack_signing_secret.get_secret_value(),
        listener_executor=ThreadPoolExecutor(max_workers=workers, thread_name_prefix="footnote-slack"),
    )
    listeners.register(app, footnote, db)
    ledger.prune_events(db, "slack")
    return app
