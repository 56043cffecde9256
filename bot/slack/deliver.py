"""Getting a message to Slack no matter what: the Web API client's retry handlers, then backoff,
then simpler forms of the message, each failure logged with the method and Slack's error.

The client (make_client) already waits out a 429 for as long as Retry-After says and retries a
dropped connection. What is left is decided here: an error that may pass (rate limit, a Slack
outage, the network) is retried with backoff; a refused payload (invalid_blocks, msg_too_long) is
sent again as plain text; an edit that cannot land (message gone, chat.update still rate-limited)
becomes a new message. The last resort is a short plain-text notice.
"""

from __future__ import annotations

import logging
import time

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import ConnectionErrorRetryHandler, RateLimitErrorRetryHandler

from bot.slack import blocks

log = logging.getLogger(__name__)

RATE_LIMIT_RETRIES = 2  # waits of Retry-After seconds each, inside the client
MAX_RETRY_AFTER_S = 10  # a longer wait would hold an answer thread: another method is tried instead
CONNECTION_RETRIES = 2
BACKOFF_S = (0.5, 1.5)  # then, ours: two more tries of a transient failure per form
RATE_LIMITED = {"ratelimited", "rate_limited"}
TRANSIENT = RATE_LIMITED | {"internal_error", "fatal_error", "service_unavailable", "request_timeout"}
GONE = {"message_not_found", "cant_update_message", "edit_window_closed"}
UNDELIVERED = ("I have an answer, but Slack would not take it just now. Please ask again in a minute.")


class ShortRateLimitRetry(RateLimitErrorRetryHandler):
    """slack_sdk's 429 handler (sleep Retry-After, then retry), for waits up to MAX_RETRY_AFTER_S.
    A longer Retry-After comes back as `ratelimited` at once, and the caller uses another way
    (a new message instead of an edit) rather than calling the limited method early."""

    def _can_retry(self, *, state, request, response=None, error=None) -> bool:
        if not super()._can_retry(state=state, request=request, response=response, error=error):
            return False
        for name, values in response.headers.items():
            if name.lower() == "retry-after":
                try:
                    return int(values[0] if isinstance(values, list) else values) <= MAX_RETRY_AFTER_S
                except (TypeError, ValueError):
                    return True
        return True


def make_client(token: str, base_url: str) -> WebClient:
    """slack_sdk's client with its own retry handlers: rate limits (honouring Retry-After) and
    connection errors."""
    return WebClient(token=token, base_url=base_url, retry_handlers=[
        ConnectionErrorRetryHandler(max_retry_count=CONNECTION_RETRIES),
        ShortRateLimitRetry(max_retry_count=RATE_LIMIT_RETRIES),
    ])


def deliver(client, *, channel: str, thread_ts: str | None, message: dict, replace: str | None = None,
            where: str = "") -> str | None:
    """Show `message` in the thread: as an edit of `replace` if given, else a new message.
    Returns the ts of the message that now shows it (None if nothing could be delivered)."""
    forms = [message]
    if message.get("blocks") or message.get("attachments"):
        forms.append(blocks.plain_message(message))
    forms.append({"text": UNDELIVERED, "blocks": [], "attachments": []})
    for form in forms:
        ways = (["update"] if replace else []) + ["post"]
        for way in ways:
            ok, refused = _try(client, way, channel, thread_ts, replace, form, where)
            if ok:
                return ok
            if refused:
                break  # Slack will not take this form either way: a simpler one
    return None


def _try(client, way: str, channel: str, thread_ts: str | None, ts: str | None, form: dict, where: str) -> tuple[str | None, bool]:
    """One form, one way, retried while the failure may pass. Returns (ts, refused)."""
    method = "chat.update" if way == "update" else "chat.postMessage"
    for attempt in range(len(BACKOFF_S) + 1):
        try:
            if way == "update":
                client.chat_update(channel=channel, ts=ts, **form)
                return ts, False
            return client.chat_postMessage(channel=channel, thread_ts=thread_ts, **form)["ts"], False
        except SlackApiError as exc:
            error = exc.response.get("error")
            log.error("%s failed in %s: %s %s", method, where or channel, error, exc.response.get("errors") or "")
            if error in GONE or (way == "update" and error in RATE_LIMITED):
                return None, False  # the client already waited out Retry-After: a new message instead
            if error not in TRANSIENT and exc.response.status_code < 500:
                return None, True
        except Exception as exc:  # the network, after the client's own retries
            log.error("%s failed in %s: %s", method, where or channel, type(exc).__name__)
        if attempt < len(BACKOFF_S):
            time.sleep(BACKOFF_S[attempt])
    return None, False


def without_retries(client: WebClient) -> WebClient:
    """The same client for cosmetic calls (👀, progress notes): a rate-limited one is skipped, not
    waited for, so it never holds up an answer."""
    return WebClient(token=client.token, base_url=client.base_url, timeout=client.timeout, headers=client.headers,
                     retry_handlers=[ConnectionErrorRetryHandler(max_retry_count=1)])


def quietly(call, **kwargs) -> bool:
    """Cosmetic calls (reactions, status edits, deleting a placeholder) must not stop the answer;
    their failures are logged with the method and Slack's error."""
    name = getattr(call, "__name__", "slack call").replace("_", ".", 1)
    try:
        call(**kwargs)
        return True
    except SlackApiError as exc:
        log.info("%s failed: %s", name, exc.response.get("error"))
    except Exception as exc:
        log.warning("%s failed: %s", name, type(exc).__name__, exc_info=True)
    return False
