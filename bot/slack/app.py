"""The Bolt app: settings + a Footnote in, a ready App out. Transports live in server.py."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from slack_bolt import App
from slack_sdk import WebClient

from bot import ledger
from bot.slack import listeners
from store.errors import FootnoteError


def build_app(settings, footnote, db, *, workers: int = 8) -> App:
    """One App per process. Listeners ack at once and answer on `workers` threads (lazy listeners)."""
    if not settings.slack_bot_token or not settings.slack_signing_secret:
        raise FootnoteError("Slack needs SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (see README, \"Slack\").")
    client = WebClient(token=settings.slack_bot_token.get_secret_value(), base_url=settings.slack_api_url)
    app = App(
        client=client,
        signing_secret=settings.slack_signing_secret.get_secret_value(),
        listener_executor=ThreadPoolExecutor(max_workers=workers, thread_name_prefix="footnote-slack"),
        # Ignore a request that matches no listener with a 200, so Slack does not retry it.
        raise_error_for_unhandled_request=False,
    )
    app.use(dedup_events(db))
    listeners.register(app, footnote, db)
    ledger.prune_events(db, "slack")
    return app


def dedup_events(db):
    """Global middleware: an Events API delivery whose event id was already taken (by this
    process or another) is acknowledged and dropped, so a retried question is answered once."""

    def dedup(body, ack, next, logger):
        event_id = body.get("event_id") if body.get("type") == "event_callback" else None
        if event_id and not ledger.claim_event(db, "slack", event_id):
            logger.info("dropping a repeat delivery of event %s", event_id)
            return ack()
        return next()

    return dedup
