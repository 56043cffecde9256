"""One question in a Slack thread, after the ack: show Footnote is working, ask the agent,
stream a model's draft if there is one, and finish with the verified answer.

Slack rate-limits every Web API method (chat.update ~50 a minute a workspace), so an ordinary
answer costs three calls: 👀 on the question, the answer posted, 👀 removed. A placeholder with
progress notes appears only when an answer is slow. The answer always lands (bot/slack/deliver.py);
👀 is removed only once it has.

This is the adapter edge: the only place that catches every exception. It logs the traceback
and replies politely; the raw exception text never reaches the channel.
"""

from __future__ import annotations

import html
import logging
import re
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from slack_sdk.errors import SlackApiError

from agent.answer import Turn
from bot import limits, render_chat
from bot.outage import UNAVAILABLE_TEXT, Outage, Unavailable
from store import ledger
from bot.slack import blocks
from bot.slack.deliver import deliver, quietly, without_retries
from store import turns
from store.db import is_outage
from store.errors import FootnoteError

log = logging.getLogger(__name__)

WORKING_REACTION = "eyes"
PLACEHOLDER = "Looking that up in the filings…"
ASSISTANT_STATUS = "is looking that up…"  # Slack shows "Footnote is looking that up…" in an assistant thread
# {example} names a company the store covers (agent.refusals.example_question), never one it lacks.
EMPTY_HINT = (
    "Hi! Ask me about a US public company's 10-K, for example: "
    "{example}. Type `/footnote help` for what I can and can't answer."
)
FILES_HINT = (
    "I can't read attachments: Footnote answers from the SEC filings it has ingested. "
    "Type your question as a message, for example: {example}."
)
STREAM_BUFFER = 80  # characters per streaming call: lively, yet far below the rate limits
PLACEHOLDER_AFTER_S = 4.0  # an answer slower than this gets a placeholder with progress notes
STATUS_EVERY_S = 5.0  # and at most one edit of it per 5 s: chat.update is ~50 a minute a workspace

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
    except Exception as exc:
        if is_outage(exc):
            raise  # the caller tells the user and keeps the event (bot.outage)
        log.exception("could not record event %s; not answering it", event_id)
        return False
    log.debug("dropping a repeat delivery of event %s", event_id)
    return False


def thread_key(team: str, channel: str, thread_ts: str) -> str:
    return f"slack:{team}:{channel}:{thread_ts}"


def dm_key(team: str, channel: str) -> str:
    """A direct message is one conversation, whether the user replies in a thread or the main box."""
    return f"slack:{team}:{channel}"


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
    direct: bool = False  # a direct message outside the AI-app surface: the whole DM is one memory

    @property
    def key(self) -> str:
        return dm_key(self.team, self.channel) if self.direct else thread_key(self.team, self.channel, self.thread_ts)


class _Progress:
    """What the user sees while the agent works: after PLACEHOLDER_AFTER_S a placeholder with
    throttled progress notes, and a model's draft streamed if one composes."""

    def __init__(self, client, asked: Asked, *, assistant_status: bool = False, placeholder_after_s: float = PLACEHOLDER_AFTER_S):
        self.client = client
        self.cosmetic = without_retries(client)
        self.asked = asked
        self.placeholder_ts: str | None = None
        self.assistant_status = assistant_status  # progress goes to the assistant status, not a placeholder
        self.placeholder_after_s = placeholder_after_s
        self.stream = None
        self.streaming_failed = False
        self.started = time.monotonic()
        self._last_status = 0.0

    def status(self, note: str) -> None:
        now = time.monotonic()
        if self.stream is not None or now - self._last_status < STATUS_EVERY_S:
            return
        if self.assistant_status:
            self._last_status = now
            quietly(self.cosmetic.assistant_threads_setStatus, channel_id=self.asked.channel, thread_ts=self.asked.thread_ts,
                    status=ASSISTANT_STATUS, loading_messages=[note])
        elif self.placeholder_ts:
            self._last_status = now
            quietly(self.cosmetic.chat_update, channel=self.asked.channel, ts=self.placeholder_ts, **blocks.text_message(f"_{note}_"))
        elif now - self.started >= self.placeholder_after_s:
            self._last_status = now
            try:
                self.placeholder_ts = self.cosmetic.chat_postMessage(
                    channel=self.asked.channel, thread_ts=self.asked.thread_ts, **blocks.text_message(f"_{PLACEHOLDER} {note}_")
                )["ts"]
            except Exception as exc:
                log.warning("chat.postMessage (placeholder) failed in %s: %s", self.asked.key, _error(exc))

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
            # Streaming is a nicety: without it the user still gets the answer.
            log.info("chat streaming unavailable in %s: %s", self.asked.key, exc.response.get("error"))
            self.streaming_failed = True
            if self.stream is not None and self.stream.ts is None:
                self.stream = None


class Answering:
    """The agent behind a bounded pool of answer threads.

    Bolt's listener threads only claim the event, show that Footnote is working (👀, or the
    assistant status in an assistant thread) and hand the question over, so a queue of slow
    answers never delays the next user's "working" signal. `workers` bounds how many answers run
    at once; turns of one thread run one after another, in the order they were asked.

    While the database is down (bot.outage) the user is told so at once, in the thread, and the
    question is kept and answered once the database is back; an answer the outage interrupted is
    told the same way and answered again."""

    def __init__(self, footnote, db, *, workers: int = 4, settings=None, placeholder_after_s: float = PLACEHOLDER_AFTER_S,
                 rate_limits: limits.RateLimits | None = None, outage: Outage | None = None):
        self.footnote = footnote
        self.db = db
        self.settings = settings
        self.placeholder_after_s = placeholder_after_s
        self.limits = rate_limits or (limits.from_settings(settings) if settings is not None else limits.RateLimits())
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="footnote-answer")
        self.outage = outage or Outage(db)
        self.outage.on_down(self._tell_in_flight)
        self._in_flight: dict[str, list] = {}  # turn -> [client, asked, told]
        self._joined: OrderedDict[str, None] = OrderedDict()  # threads this process answered in
        self._lock = threading.Lock()

    def shows_path_to(self, user: str) -> bool:
        return bool(self.settings is not None and self.settings.shows_path_to(user))

    def refusal_before_work(self, team: str, user: str, text: str) -> str | None:
        """An over-long question or one over the rate limits: the polite reply to send instead."""
        return limits.too_long(text) or self.limits.check(team, user)

    def take(self, client, body: dict, asked: Asked, *, follow_up: bool = False, pending=None, told: bool = False) -> None:
        """An event for Footnote: claim it (Slack redelivers), check that a follow-up is in one of
        Footnote's threads, then ask. While the database is down the user is told at once and the
        event kept; it is taken again, from where it stopped, once the database is back."""
        try:
            if pending is not None:
                admitted = self.outage.settle(pending, self._admit, body, asked, follow_up)
            else:
                admitted = self.outage.call(self._admit, body, asked, follow_up)
        except Unavailable as down:
            key = f"slack:{body.get('event_id') or asked.key + ':' + asked.message_ts}"
            stuck = down.pending
            kept = self.outage.keep(key, lambda: self.take(client, body, asked, follow_up=follow_up,
                                                           pending=stuck, told=True))
            if kept and not told and (not follow_up or asked.key in self._joined):
                self._tell_unavailable(client, asked)
            return
        if admitted:
            self.ask(client, asked, told=told)

    def _admit(self, body: dict, asked: Asked, follow_up: bool) -> bool:
        if not first_delivery(self.db, body):
            return False
        return not follow_up or ledger.in_thread(self.db, asked.key)

    def ask(self, client, asked: Asked, *, told: bool = False) -> Future | None:
        """Show Footnote is working, then answer on the pool. Never raises."""
        if not asked.text:
            try:
                self.outage.call(self._enter, asked, False)
            except Unavailable:
                pass  # a hint needs no memory
            hint = FILES_HINT if asked.has_files else EMPTY_HINT
            _post_or_log(client, asked, blocks.text_message(hint.format(example=render_chat.covered_example(self.footnote))))
            return None
        refusal = None if told else self.refusal_before_work(asked.team, asked.user, asked.text)
        if refusal:
            _post_or_log(client, asked, blocks.text_message(refusal))
            return None
        try:
            # Take the turn's place in its thread before any answer starts (store/turns.py).
            self.outage.call(self._enter, asked, True)
        except Unavailable:
            self._keep(client, asked, lambda: self.ask(client, asked, told=True), told=told)
            return None
        if asked.assistant and _set_assistant_status(client, asked):
            # Slack clears the status itself when the answer is posted in the thread.
            return self._submit(client, asked, _Progress(client, asked, assistant_status=True), told)
        quietly(without_retries(client).reactions_add, channel=asked.channel, timestamp=asked.message_ts, name=WORKING_REACTION)
        return self._submit(client, asked, _Progress(client, asked, placeholder_after_s=self.placeholder_after_s), told)

    def _enter(self, asked: Asked, queue_turn: bool) -> None:
        if not asked.direct:
            ledger.join_thread(self.db, asked.key)
            with self._lock:
                self._joined[asked.key] = None
                while len(self._joined) > 10_000:
                    self._joined.popitem(last=False)
        if queue_turn:
            turns.register(self.db, asked.key, asked.message_ts, asked.message_ts)

    def _submit(self, client, asked: Asked, progress: _Progress, told: bool) -> Future:
        turn = f"{asked.key}:{asked.message_ts}"
        with self._lock:
            self._in_flight[turn] = [client, asked, told]
        return self.pool.submit(self._answer, client, asked, progress)

    def _keep(self, client, asked: Asked, job, *, told: bool) -> None:
        if self.outage.keep(f"{asked.key}:{asked.message_ts}", job) and not told:
            self._tell_unavailable(client, asked)

    def _tell_unavailable(self, client, asked: Asked) -> None:
        log.info("told %s that the database is unavailable; the question is kept", asked.key)
        _post_or_log(client, asked, blocks.text_message(UNAVAILABLE_TEXT))

    def _tell_in_flight(self) -> None:
        """An outage began: everyone whose answer is under way hears it now, not at its deadline."""
        with self._lock:
            waiting = [entry for entry in self._in_flight.values() if not entry[2]]
            for entry in waiting:
                entry[2] = True
        for client, asked, _ in waiting:
            self._tell_unavailable(client, asked)

    def _answer(self, client, asked: Asked, progress: _Progress) -> None:
        turn = f"{asked.key}:{asked.message_ts}"
        epoch = self.outage.epoch
        interrupted = False
        try:
            with self.outage.answering():
                try:
                    with turns.in_order(self.db, asked.key, asked.message_ts):
                        progress.started = time.monotonic()
                        answer = self.footnote.answer(
                            Turn(thread_key=asked.key, user=asked.user, text=asked.text), on_status=progress.status,
                            on_text=progress.text
                        )
                    log.info("answered in %s: kind=%s planner=%s composer=%s cached=%s timings=%s", asked.key, answer.kind,
                             answer.planner, answer.composer, answer.cached, answer.timings)
                    interrupted = answer.refusal_reason == "internal_error" and (self.outage.down or self.outage.epoch != epoch)
                    message = blocks.answer_message(answer, thread_key=asked.key, question=asked.text,
                                                    show_path=self.shows_path_to(asked.user))
                except FootnoteError as exc:
                    log.warning("answer failed with a user-facing error in %s: %s", asked.key, exc)
                    message = blocks.text_message(str(exc))
                except Exception as exc:
                    interrupted = is_outage(exc) or self.outage.down or self.outage.epoch != epoch
                    if interrupted:
                        log.warning("the database went away under the answer in %s (%s)", asked.key, exc.__class__.__name__)
                    else:
                        log.exception("answering failed in %s", asked.key)
                    message = blocks.text_message(render_chat.POLITE_ERROR)
        finally:
            with self._lock:
                entry = self._in_flight.pop(turn, None)
        told = bool(entry and entry[2])
        if interrupted:
            # Not the user's answer: the outage's. They are told (once) and it is answered again once the database is back.
            self._keep(client, asked, lambda: self._again(client, asked), told=told)
            return
        landed = None
        try:
            landed = _finish(client, asked, progress, message)
        except Exception:
            log.exception("could not deliver the answer in %s", asked.key)
        if landed and not progress.assistant_status:
            quietly(client.reactions_remove, channel=asked.channel, timestamp=asked.message_ts, name=WORKING_REACTION)
        elif not landed:
            log.error("the answer in %s never reached Slack; the 👀 stays on the question", asked.key)

    def _again(self, client, asked: Asked) -> None:
        self._submit(client, asked, _Progress(client, asked, assistant_status=asked.assistant,
                                              placeholder_after_s=self.placeholder_after_s), True)


def _finish(client, asked: Asked, progress: _Progress, message: dict) -> str | None:
    """Put the checked answer where the user is looking: over a model's streamed draft, else over
    the placeholder, else as a new message. Returns the ts it landed in (None: it never did).

    A draft the checked answer could not replace is deleted: nobody is left reading an unchecked
    draft without its citations."""
    replaces = [ts for ts in (progress.placeholder_ts,) if ts]
    if progress.stream is not None:
        try:
            progress.stream.stop()
        except SlackApiError as exc:
            log.warning("chat.stopStream failed in %s: %s", asked.key, exc.response.get("error"))
        except Exception as exc:
            log.warning("chat.stopStream failed in %s: %s", asked.key, _error(exc))
        if progress.stream.ts:
            replaces = [progress.stream.ts] + replaces
    landed = deliver(client, channel=asked.channel, thread_ts=asked.thread_ts, message=message,
                     replace=replaces[0] if replaces else None, where=asked.key)
    for ts in replaces:
        if landed and ts != landed:
            quietly(client.chat_delete, channel=asked.channel, ts=ts)
    return landed


def _error(exc: Exception) -> str:
    if isinstance(exc, SlackApiError):
        return str(exc.response.get("error"))
    return type(exc).__name__


def _set_assistant_status(client, asked: Asked) -> bool:
    """The AI-app surface's own "working" signal. False where Slack refuses it (a DM thread
    outside that surface, or no assistant:write scope): the reaction then."""
    try:
        client.assistant_threads_setStatus(channel_id=asked.channel, thread_ts=asked.thread_ts, status=ASSISTANT_STATUS)
        return True
    except SlackApiError as exc:
        log.info("assistant.threads.setStatus failed in %s: %s", asked.key, exc.response.get("error"))
        return False
    except Exception:
        log.warning("assistant.threads.setStatus failed in %s", asked.key, exc_info=True)
        return False


def _post_or_log(client, asked: Asked, message: dict) -> None:
    deliver(client, channel=asked.channel, thread_ts=asked.thread_ts, message=message, where=asked.key)

