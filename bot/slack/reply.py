"""One question in a Slack thread, after the ack: show Footnote is working, ask the agent,
stream a model's draft if there is one, and finish with the verified answer in place.

This is the adapter edge: the only place that catches every exception. It logs the traceback
and replies politely; the raw exception text never reaches the channel.
"""

from __future__ import annotations

import html
import logging
import re
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from slack_sdk.errors import SlackApiError

from agent.answer import Turn
from bot import ledger, render_chat
from bot.slack import blocks
from store.errors import FootnoteError

log = logging.getLogger(__name__)

WORKING_REACTION = "eyes"
PLACEHOLDER = "Looking that up in the filings…"
ASSISTANT_STATUS = "is looking that up…"  # Slack shows "Footnote is looking that up…" in an assistant thread
EMPTY_HINT = (
    "Hi! Ask me about a US public company's 10-K, for example: "
    "_What was Apple's revenue in fiscal 2024?_ Type `/footnote help` for what I can and can't answer."
)
FILES_HINT = (
    "I can't read attachments: Footnote answers from the SEC filings it has ingested. "
    "Type your question as a message, for example: _What were Apple's main risk factors in fiscal 2024?_"
)
STREAM_BUFFER = 80  # characters per streaming call: lively, yet far below the rate limits
STATUS_EVERY_S = 1.0  # at most one placeholder edit a second: chat.update is rate limited

_SLACK_LINK = re.compile(r"<(https?://[^|>]+)(?:\|([^>]+))?>")
_CHANNEL = re.compile(r"<#[A-Z0-9]+\|([^>]*)>")
_SPECIAL = re.compile(r"<!([a-z]+)(?:\|[^>]*)?>")
_USER = re.compile(r"<@([A-Z0-9]+)(?:\|([^>]*))?>")


def first_delivery(db, body: dict) -> bool:
    """Slack retries an event it got no fast answer for, possibly to another process. The first
    delivery claims the event id in Postgres; every later copy finds it taken and does nothing."""
    event_id = body.get("event_id")
    if not event_id:
        return True
    try:
        if ledger.claim_event(db, "slack", event_id):
            return True
    except Exception:
        # Without the database Footnote can neither deduplicate nor answer: log, stay silent.
        log.exception("could not record event %s; not answering it", event_id)
        return False
    log.debug("dropping a repeat delivery of event %s", event_id)
    return False


def thread_key(team: str, channel: str, thread_ts: str) -> str:
    return f"slack:{team}:{channel}:{thread_ts}"


def question_text(text: str, bot_user_id: str | None) -> str:
    """Slack's message markup back to what the user typed, without the mention of Footnote."""
    if bot_user_id:
        text = text.replace(f"<@{bot_user_id}>", " ")
    text = _SLACK_LINK.sub(lambda m: m.group(2) or m.group(1), text)
    text = _CHANNEL.sub(r"#\1", text)
    text = _SPECIAL.sub(r"@\1", text)
    text = _USER.sub(lambda m: "@" + (m.group(2) or m.group(1)), text)
    return html.unescape(text).strip()


@dataclass
class Asked:
    """Where a question was asked and by whom: everything the reply needs from the event."""

    team: str
    channel: str
    thread_ts: str  # the thread to answer in (the message's own ts for a new thread)
    message_ts: str  # the user's message, for the working reaction
    user: str
    text: str
    has_files: bool = False
    assistant: bool = False  # a thread of Slack's AI-app surface: the native status shows the work

    @property
    def key(self) -> str:
        return thread_key(self.team, self.channel, self.thread_ts)


class _Progress:
    """The placeholder's live state: throttled status edits, then a stream if a model composes."""

    def __init__(self, client, asked: Asked, placeholder_ts: str | None, *, assistant_status: bool = False):
        self.client = client
        self.asked = asked
        self.placeholder_ts = placeholder_ts
        self.assistant_status = assistant_status  # progress goes to the assistant status, not a placeholder
        self.stream = None
        self.streaming_failed = False
        self._last_status = 0.0

    def status(self, note: str) -> None:
        now = time.monotonic()
        shown = self.placeholder_ts or self.assistant_status
        if self.stream is not None or not shown or now - self._last_status < STATUS_EVERY_S:
            return
        self._last_status = now
        if self.assistant_status:
            _quietly(self.client.assistant_threads_setStatus, channel_id=self.asked.channel, thread_ts=self.asked.thread_ts,
                     status=ASSISTANT_STATUS, loading_messages=[note])
        else:
            _quietly(self.client.chat_update, channel=self.asked.channel, ts=self.placeholder_ts, **blocks.text_message(f"_{note}_"))

    def text(self, delta: str) -> None:
        """A model's draft, streamed as it is written; the verified answer replaces it at the end."""
        if not delta or self.streaming_failed:
            return
        try:
            if self.stream is None:
                self.stream = self.client.chat_stream(
                    channel=self.asked.channel,
                    thread_ts=self.asked.thread_ts,
                    recipient_team_id=self.asked.team,
                    recipient_user_id=self.asked.user,
                    buffer_size=STREAM_BUFFER,
                )
            self.stream.append(markdown_text=delta)
        except SlackApiError as exc:
            # Streaming is a nicety: without it the user still gets the answer in the placeholder.
            log.info("streaming unavailable in %s: %s", self.asked.key, exc.response.get("error"))
            self.streaming_failed = True
            if self.stream is not None and self.stream.ts is None:
                self.stream = None


class Answering:
    """The agent behind a bounded pool of answer threads.

    Bolt's listener threads only claim the event, show that Footnote is working (👀 and a
    placeholder, or the assistant status in an assistant thread) and hand the question over, so a queue of slow answers never delays the next
    user's "working" signal. `workers` bounds how many answers run at once."""

    def __init__(self, footnote, db, *, workers: int = 4):
        self.footnote = footnote
        self.db = db
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="footnote-answer")

    def ask(self, client, asked: Asked) -> Future | None:
        """Show Footnote is working, then answer on the pool. Never raises."""
        if not asked.text:
            ledger.join_thread(self.db, asked.key)
            _post_or_log(client, asked, blocks.text_message(FILES_HINT if asked.has_files else EMPTY_HINT))
            return None
        if asked.assistant and _set_assistant_status(client, asked):
            # Slack clears the status itself when the answer is posted in the thread.
            return self.pool.submit(self._answer, client, asked, _Progress(client, asked, None, assistant_status=True))
        _quietly(client.reactions_add, channel=asked.channel, timestamp=asked.message_ts, name=WORKING_REACTION)
        ledger.join_thread(self.db, asked.key)
        placeholder_ts = None
        try:
            placeholder_ts = client.chat_postMessage(
                channel=asked.channel, thread_ts=asked.thread_ts, **blocks.text_message(f"_{PLACEHOLDER}_")
            )["ts"]
        except SlackApiError as exc:
            log.warning("could not post the placeholder in %s: %s", asked.channel, exc.response.get("error"))
        return self.pool.submit(self._answer, client, asked, _Progress(client, asked, placeholder_ts))

    def _answer(self, client, asked: Asked, progress: _Progress) -> None:
        try:
            answer = self.footnote.answer(
                Turn(thread_key=asked.key, user=asked.user, text=asked.text), on_status=progress.status, on_text=progress.text
            )
            message = blocks.answer_message(answer, thread_key=asked.key, question=asked.text)
        except FootnoteError as exc:
            log.warning("answer failed with a user-facing error in %s: %s", asked.key, exc)
            message = blocks.text_message(str(exc))
        except Exception:
            log.exception("answering failed in %s", asked.key)
            message = blocks.text_message(render_chat.POLITE_ERROR)
        try:
            _finish(client, asked, progress, message)
        except Exception:
            log.exception("could not deliver the answer in %s", asked.key)
        if not progress.assistant_status:
            _quietly(client.reactions_remove, channel=asked.channel, timestamp=asked.message_ts, name=WORKING_REACTION)


def _finish(client, asked: Asked, progress: _Progress, message: dict) -> None:
    """Put the final message where the user is looking: over the stream, else the placeholder."""
    target = progress.placeholder_ts
    if progress.stream is not None:
        try:
            progress.stream.stop()
            target = progress.stream.ts
            if progress.placeholder_ts:
                _quietly(client.chat_delete, channel=asked.channel, ts=progress.placeholder_ts)
        except SlackApiError as exc:
            log.warning("could not stop the stream in %s: %s", asked.key, exc.response.get("error"))
    try:
        if target:
            client.chat_update(channel=asked.channel, ts=target, **message)
        else:
            client.chat_postMessage(channel=asked.channel, thread_ts=asked.thread_ts, **message)
    except SlackApiError as exc:
        # Blocks Slack refused still leave the plain-text fallback, which always fits.
        log.error("Slack refused the answer blocks in %s: %s %s", asked.key, exc.response.get("error"), exc.response.get("errors"))
        plain = {"text": message["text"]}
        if target:
            _quietly(client.chat_update, channel=asked.channel, ts=target, blocks=[], **plain)
        else:
            _post_or_log(client, asked, plain)


def _set_assistant_status(client, asked: Asked) -> bool:
    """The AI-app surface's own "working" signal. False where Slack refuses it (a DM thread
    outside that surface, or no assistant:write scope): the reaction and placeholder then."""
    try:
        client.assistant_threads_setStatus(channel_id=asked.channel, thread_ts=asked.thread_ts, status=ASSISTANT_STATUS)
        return True
    except SlackApiError as exc:
        log.info("no assistant status in %s: %s", asked.key, exc.response.get("error"))
        return False
    except Exception:
        log.warning("no assistant status in %s", asked.key, exc_info=True)
        return False


def _post_or_log(client, asked: Asked, message: dict) -> None:
    _quietly(client.chat_postMessage, channel=asked.channel, thread_ts=asked.thread_ts, **message)


def _quietly(call, **kwargs) -> None:
    """Cosmetic calls (reactions, status edits) must not stop the answer."""
    try:
        call(**kwargs)
    except SlackApiError as exc:
        log.info("%s failed: %s", getattr(call, "__name__", "slack call"), exc.response.get("error"))
    except Exception:
        log.warning("%s failed", getattr(call, "__name__", "slack call"), exc_info=True)
