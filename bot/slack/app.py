"""The Bolt app: settings + a Footnote in, a ready App out. Transports live in server.py."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from slack_bolt import App
from slack_bolt.error import BoltError

from store import ledger
from bot.slack import listeners
from bot.slack.deliver import make_client
from bot.slack.reply import PLACEHOLDER_AFTER_S, Answering
from store import turns
from store.errors import FootnoteError


LISTENER_THREADS = 32  # short jobs: claim the event, react, post the placeholder, reply to a command


def build_app(settings, footnote, db, *, workers: int = 4, placeholder_after_s: float = PLACEHOLDER_AFTER_S,
              verify_requests: bool = True, outage=None) -> App:
    """One App per process. Listeners ack at once; lazy listeners (Bolt's threads) then show that
    Footnote is working and hand the question to `workers` answer threads.

    Nothing on the ack path touches the database: the ack is Bolt's signature check and a queued
    job. Deduplication of Slack's retries happens first thing after the ack (reply.first_delivery).

    `verify_requests=False` only for an answer worker (bot/worker.py), whose requests the web
    front has already checked. `outage`: a bot.outage.Outage shared with the front."""
    if not settings.slack_bot_token or not settings.slack_signing_secret:
        raise FootnoteError("Slack needs SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (see README, \"Slack\").")
    client = make_client(settings.slack_bot_token.get_secret_value(), settings.slack_api_url)
    try:
        # Bolt checks the token with auth.test here, so a wrong token fails now, not at the first question.
        app = App(
            client=client,
            # Run each listener's ack function on the request thread and return at once. (Otherwise
            # Bolt queues the ack on the listener pool, behind lazy work, and polls for it every 10 ms.)
            process_before_response=True,
            signing_secret=settings.slack_signing_secret.get_secret_value(),
            request_verification_enabled=verify_requests,
            listener_executor=ThreadPoolExecutor(max_workers=LISTENER_THREADS, thread_name_prefix="footnote-slack"),
        )
    except BoltError as exc:
        raise FootnoteError(f"Slack did not accept SLACK_BOT_TOKEN ({_reason(exc)}). Copy the Bot User OAuth Token again.") from exc
    except OSError as exc:
        raise FootnoteError(f"Cannot reach Slack at {settings.slack_api_url} ({exc.__class__.__name__}).") from exc
    listeners.register(app, Answering(footnote, db, workers=workers, settings=settings, placeholder_after_s=placeholder_after_s,
                                      outage=outage))
    ledger.prune_events(db, "slack")
    turns.prune(db)
    return app


def _reason(exc: BoltError) -> str:
    """Slack's error code (e.g. invalid_auth) from Bolt's message, never the token itself."""
    text = str(exc)
    for code in ("invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired"):
        if code in text:
            return code
    return "auth.test failed"
