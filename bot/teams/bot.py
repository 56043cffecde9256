"""The Teams bot: an ActivityHandler that turns a message into a Turn and the Answer into cards.

Microsoft expects the HTTP response to an activity within 15 s, and a model can take longer. So
with an adapter (the live endpoint) the activity is only de-duplicated (its id claimed in
Postgres, as Slack's events are: the Bot Framework redelivers what it thinks was lost) and
acknowledged; the answer is delivered afterwards through `continue_conversation` with the
activity's conversation reference, typing indicators first. Without one (botbuilder's TestAdapter)
it answers in the turn.

A channel mention is answered in its reply chain; Teams gives each reply chain (and each personal
chat) its own conversation id, so the thread key `teams:{tenant}:{conversation id}` is the
conversation's memory, and its turns are answered in order (store/turns.py). "tickers",
"filings" and "help" are commands; 👍/👎 on a card come back as Action.Submit values, and the
card (kept in Postgres) shows the counts whichever process the vote reaches. This is the adapter
edge: it catches every exception, logs it, and replies politely.

Behind `footnote serve` with answer workers (`queue`), the endpoint only queues the authenticated
activity (store/inbound.py) and a worker answers it (`take_queued`). While the database is down
(bot/outage.py) the user is told at once and the activity kept, then answered once it is back.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import html
import json
import logging
import re
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

from botbuilder.core import ActivityHandler, BotAdapter, CardFactory, MessageFactory, TurnContext
from botbuilder.schema import Activity, ActivityTypes

from agent.answer import Turn
from bot import limits, render_chat
from bot.outage import UNAVAILABLE_TEXT, Outage, Unavailable
from store import ledger
from bot.teams import cards
from store import inbound, teams_cards, turns
from store.db import is_outage
from store.errors import FootnoteError

log = logging.getLogger(__name__)

TYPING_EVERY_S = 3.0  # Teams shows a typing indicator for a few seconds after each one
ACK_WAIT_S = 0.05  # how long the response waits for the queue write (bot/web.py's Handoff waits as long)
SENT_CARDS = 500  # recent answer cards kept, so a vote can be shown on the card it was cast on
EMPTY_HINT = "Hi! Ask me about a US public company's 10-K, for example: {example}. Type **help** for more."
FILES_HINT = "I can't read attachments: I answer from the SEC filings I have. Type your question as a message."
FILINGS_USAGE = "Usage: **filings TICKER**, for example *filings AAPL*. **tickers** lists the covered companies."
THANKS_UP = "Thanks for the 👍."
THANKS_REASON = "Thanks: noted with your 👎."

_TAG = re.compile(r"<[^>]+>")


# The request body as the channel sent it, set by the endpoint for the turn it runs: queued as
# received rather than serialized again through msrest (a millisecond of the event loop each).
RECEIVED_BODY: contextvars.ContextVar[bytes | None] = contextvars.ContextVar("footnote_teams_body", default=None)


def queued_body(activity: Activity) -> str:
    """What a worker gets for `activity`: the body it came in (with the caller id authentication
    gave it), or, when the endpoint did not keep one, the activity serialized."""
    raw = RECEIVED_BODY.get()
    if raw is not None:
        try:
            payload = json.loads(raw)
        except ValueError:
            payload = None
        if isinstance(payload, dict) and payload.get("id") == activity.id:
            if activity.caller_id:
                payload["callerId"] = activity.caller_id
            return json.dumps(payload)
    return json.dumps(activity.serialize())


class _Interrupted(Exception):
    """The database went away under an answer: the user is told, and it is answered again later."""


def thread_key(activity: Activity) -> str:
    conv = activity.conversation
    tenant = getattr(conv, "tenant_id", None) or ((activity.channel_data or {}).get("tenant") or {}).get("id") or "-"
    return f"teams:{tenant}:{conv.id}"


def question_text(activity: Activity) -> str:
    """The text without Footnote's @mention, Teams' markup, or HTML entities."""
    text = activity.text or ""
    for entity in activity.entities or []:
        props = getattr(entity, "additional_properties", None) or {}
        if (entity.type or "").lower() == "mention" and (props.get("mentioned") or {}).get("id") == activity.recipient.id:
            text = text.replace(props.get("text") or "", " ")
    return " ".join(html.unescape(_TAG.sub(" ", text)).split())


class FootnoteBot(ActivityHandler):
    def __init__(self, footnote, *, adapter=None, settings=None, db=None, workers: int = 4, outage: Outage | None = None,
                 queue: bool = False, writer: inbound.Writer | None = None):
        self.footnote = footnote
        # Two pools: the ack's short database writes never queue behind answers being worked out.
        self._ack_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="footnote-teams-ack")
        self._answer_pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="footnote-teams-answer")
        self.adapter = adapter  # set: answer proactively after the ack; None: in the turn
        self.settings = settings
        self.db = db if db is not None else getattr(footnote, "db", None)
        self.limits = limits.from_settings(settings) if settings is not None else limits.RateLimits()
        self._tasks: set[asyncio.Task] = set()
        self._sent: OrderedDict[str, dict] = OrderedDict()  # activity id -> the card with 👍/👎 it carries
        # Replies in one conversation go out in order: a lock per conversation, and how many use it.
        self._conversations: dict[str, list] = {}
        # While the database is down users are told at once and their activities kept (bot.outage).
        self.outage = outage or (Outage(self.db) if self.db is not None else None)
        if self.outage is not None:
            self.outage.on_down(self._tell_in_flight)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._in_flight: dict[str, list] = {}  # activity id -> [reference, identity, audience, told]
        # With `queue` (the web front with answer workers) an authenticated activity is only queued
        # (store/inbound.py); a worker's `take_queued` answers it.
        self.queue = queue and self.db is not None
        # Queue writes have a connection and a thread of their own (store.inbound.Writer), warm before
        # the first activity: writes stuck in an outage do not hold up the claims and the
        # "unavailable" replies that follow, and a burst is written in a statement or two.
        self._writer = (writer or inbound.Writer(self.db.url)) if self.queue else None

    async def idle(self) -> None:
        """Wait until every answer under way has been delivered (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def on_message_activity(self, turn_context: TurnContext) -> None:
        activity = turn_context.activity
        if (activity.from_property and activity.from_property.role == "bot") or activity.from_property is None:
            return
        if self.adapter is None:
            await self._respond(turn_context, activity)
            return
        self._loop = asyncio.get_running_loop()
        reference = TurnContext.get_conversation_reference(activity)
        where = (activity, reference, turn_context.turn_state.get(BotAdapter.BOT_IDENTITY_KEY),
                 turn_context.turn_state.get(BotAdapter.BOT_OAUTH_SCOPE_KEY))
        if self.queue and activity.id and not self.outage.down:
            await self._hand_over(where)
            return
        await self._admit(where)  # no queue while the database is down: this process tells the user and keeps it

    async def _hand_over(self, where: tuple) -> None:
        """Queue the activity for the answer workers. The response waits ACK_WAIT_S at most for the
        write (it lands in milliseconds unless the database is slow or down); if it fails, or has
        not landed within the outage bound, this process takes the activity itself."""
        activity = where[0]
        put = asyncio.wrap_future(self._writer.submit("teams", activity.id, queued_body(activity), {}), loop=self._loop)
        put.add_done_callback(lambda f: f.cancelled() or f.exception())  # one abandoned to an outage may fail later

        async def settle(timeout: float) -> bool:
            try:
                await asyncio.wait_for(asyncio.shield(put), timeout)
                return True
            except asyncio.TimeoutError:
                if timeout < self.outage.step_wait_s:
                    return False
                self.outage.went_down(f"queueing an activity took over {self.outage.step_wait_s:.0f} s")
            except Exception as exc:
                if not is_outage(exc):
                    log.error("could not queue activity %s (%s); answering it here", activity.id, exc.__class__.__name__)
                else:
                    self.outage.went_down(exc.__class__.__name__)
            await self._admit(where)
            return True

        if await settle(ACK_WAIT_S):
            return

        async def later() -> None:
            await settle(self.outage.step_wait_s)

        self._spawn(later())

    async def take_queued(self, payload: dict) -> None:
        """An activity the web front authenticated and queued (bot/worker.py runs this on its own loop)."""
        activity = Activity().deserialize(payload)
        self._loop = asyncio.get_running_loop()
        await self._admit((activity, TurnContext.get_conversation_reference(activity), None, None))

    async def _admit(self, where: tuple) -> None:
        activity = where[0]
        if activity.id and self.db is not None:
            try:
                claimed = await self._loop.run_in_executor(self._ack_pool, self.outage.call, self._claim, activity)
            except Unavailable as down:
                self._keep(where, down.pending, told=False)
                return
            if not claimed:
                return
        self._schedule(where, told=False)

    def _schedule(self, where: tuple, *, told: bool) -> None:
        """The answer, delivered after the ack through `continue_conversation`, in the conversation's order."""
        activity = where[0]

        async def deliver(context: TurnContext) -> None:
            context.activity.id = activity.id  # replies go to the question (its reply chain), not the continuation
            try:
                await self._respond(context, activity)
            except _Interrupted:
                entry = self._in_flight.get(activity.id or "")
                if not (told or (entry and entry[3])):
                    await context.send_activity(MessageFactory.text(UNAVAILABLE_TEXT))
                self.outage.keep(f"teams:{activity.id}:answer", lambda: self._loop.call_soon_threadsafe(
                    lambda: self._schedule(where, told=True)))

        key = thread_key(activity)
        entry = self._conversations.setdefault(key, [asyncio.Lock(), 0])
        entry[1] += 1
        lock = entry[0]

        async def later() -> None:
            if activity.id:
                self._in_flight[activity.id] = [*where[1:], told]
            try:
                async with lock:  # FIFO: a quick "help" does not overtake the question asked before it
                    await self._proactive(where, deliver)
            except Exception:
                log.exception("could not deliver the answer in %s", key)
            finally:
                self._in_flight.pop(activity.id or "", None)
                entry[1] -= 1
                if entry[1] == 0:
                    self._conversations.pop(key, None)

        self._spawn(later())

    def _spawn(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _proactive(self, where: tuple, callback) -> None:
        _, reference, identity, audience = where
        if identity is not None:
            await self.adapter.continue_conversation_with_claims(identity, reference, audience, callback)
        else:
            await self.adapter.continue_conversation(reference, callback, getattr(self.settings, "microsoft_app_id", None) or "")

    async def _say_unavailable(self, where: tuple) -> None:
        activity = where[0]

        async def tell(context: TurnContext) -> None:
            context.activity.id = activity.id
            await context.send_activity(MessageFactory.text(UNAVAILABLE_TEXT))

        try:
            await self._proactive(where, tell)
            log.info("told %s that the database is unavailable; the activity is kept", thread_key(activity))
        except Exception:
            log.warning("could not tell %s that the database is unavailable", thread_key(activity), exc_info=True)

    def _keep(self, where: tuple, pending, *, told: bool) -> None:
        """The database is down: say so now (on the loop), and claim and answer once it is back."""
        activity, loop = where[0], self._loop

        def resume() -> None:  # on the outage watcher's thread
            try:
                claimed = self.outage.settle(pending, self._claim, activity)
            except Unavailable as again:
                stuck = again.pending
                loop.call_soon_threadsafe(lambda: self._keep(where, stuck, told=True))
                return
            if claimed:
                loop.call_soon_threadsafe(lambda: self._schedule(where, told=True))

        if self.outage.keep(f"teams:{activity.id}", resume) and not told:
            self._spawn(self._say_unavailable(where))

    def _tell_in_flight(self) -> None:
        """An outage began (the watcher's thread): users whose answer is under way hear it now."""
        loop = self._loop
        if loop is None:
            return
        for activity_id, entry in list(self._in_flight.items()):
            if entry[3]:
                continue
            entry[3] = True
            activity = Activity(id=activity_id, conversation=entry[0].conversation)
            asyncio.run_coroutine_threadsafe(self._say_unavailable((activity, *entry[:3])), loop)

    def _claim(self, activity: Activity) -> bool:
        """The Bot Framework redelivers an activity it thinks was lost: the first copy claims its id,
        and its turn is queued in its conversation now, in arrival order, before any answer starts.
        An outage is raised for the caller (bot.outage); other failures are logged and dropped."""
        try:
            if not ledger.claim_event(self.db, "teams", activity.id):
                log.debug("dropping a repeat delivery of activity %s", activity.id)
                return False
        except Exception as exc:
            if is_outage(exc):
                raise
            log.exception("could not record activity %s; not answering it", activity.id)
            return False
        try:
            turns.register(self.db, thread_key(activity), activity.id, f"{time.time():.6f}")
        except Exception as exc:
            if is_outage(exc):
                raise
            log.warning("could not queue turn %s", activity.id, exc_info=True)
        return True

    async def _respond(self, turn_context: TurnContext, activity: Activity) -> None:
        try:
            replies = await self._reply_for(turn_context, activity)
        except _Interrupted:
            raise
        except Exception:
            log.exception("answering failed in %s", thread_key(activity))
            replies = [MessageFactory.text(render_chat.POLITE_ERROR)]
        for reply in replies:
            sent = await turn_context.send_activity(reply)
            card = _card_of(reply)
            if sent is not None and getattr(sent, "id", None) and card and card.get("actions"):
                await self._keep_card(turn_context, sent.id, card)
        await self._show_votes(turn_context, activity)

    async def _keep_card(self, turn_context: TurnContext, activity_id: str, card: dict) -> None:
        """A card with 👍/👎, kept here and in Postgres: the vote on it may reach another process."""
        self._sent[activity_id] = card
        while len(self._sent) > SENT_CARDS:
            self._sent.popitem(last=False)
        if self.db is None:
            return
        reference = TurnContext.get_conversation_reference(turn_context.activity).serialize()
        try:
            await asyncio.get_running_loop().run_in_executor(self._ack_pool, teams_cards.save, self.db,
                                                             turn_context.activity.conversation.id, activity_id, card, reference)
        except Exception:
            log.warning("could not store card %s; a vote reaching another process will not show on it", activity_id,
                        exc_info=True)

    async def _sent_card(self, conversation_id: str, activity_id: str) -> dict | None:
        card = self._sent.get(activity_id)
        if card is None and self.db is not None:
            card = await asyncio.get_running_loop().run_in_executor(self._ack_pool, teams_cards.card, self.db,
                                                                    conversation_id, activity_id)
        return card

    async def _show_votes(self, turn_context: TurnContext, activity: Activity) -> None:
        """After a vote, the card it was cast on shows the counts on its buttons, whichever process
        sent that card (store/teams_cards.py)."""
        value = activity.value if isinstance(activity.value, dict) else {}
        if cards.FEEDBACK_KEY not in value or not activity.reply_to_id or self.db is None:
            return
        ref = f"teams:{activity.conversation.id}:{activity.reply_to_id}"
        try:
            card = await self._sent_card(activity.conversation.id, activity.reply_to_id)
            if card is None:
                log.info("the card %s is not known (older than the retention?); the vote is stored", activity.reply_to_id)
                return
            up, down = await asyncio.get_running_loop().run_in_executor(self._answer_pool, ledger.votes, self.db, "teams", ref)
            updated = cards.with_votes(copy.deepcopy(card), up, down)
            update = _attach(updated)
            update.id = activity.reply_to_id
            update.type = ActivityTypes.message
            await turn_context.update_activity(update)
            await self._keep_card(turn_context, activity.reply_to_id, updated)
        except Exception:
            log.warning("could not show the votes on %s", activity.reply_to_id, exc_info=True)

    async def _reply_for(self, turn_context: TurnContext, activity: Activity) -> list[Activity]:
        if isinstance(activity.value, dict) and (cards.FEEDBACK_KEY in activity.value or cards.REASON_KEY in activity.value):
            return [await asyncio.get_running_loop().run_in_executor(self._answer_pool, self._feedback, activity)]
        text = question_text(activity)
        if not text:
            hint = FILES_HINT if activity.attachments and _has_files(activity) else EMPTY_HINT
            return [MessageFactory.text(hint.format(example=render_chat.covered_example(self.footnote)))]
        word, _, rest = text.lstrip("/").partition(" ")
        command = word.lower()
        if command == "help" and not rest.strip():
            return [MessageFactory.text(self.footnote.help_text())]
        if command == "tickers" and len(rest.split()) <= 3:
            return await self._run(turn_context, lambda: self._tickers(rest.strip()))
        if command == "filings" and len(rest.split()) <= 1:
            return await self._run(turn_context, lambda: self._filings(rest.strip()))
        user = activity.from_property.id or ""
        tenant = thread_key(activity).split(":")[1]
        refusal = limits.too_long(text) or self.limits.check(tenant, user)
        if refusal:
            return [MessageFactory.text(refusal)]
        key = thread_key(activity)
        turn = Turn(thread_key=key, user=user, text=text)
        show_path = bool(self.settings is not None and self.settings.shows_path_to(user))

        def answer() -> list[Activity]:
            if self.db is not None and activity.id and self.adapter is not None:
                epoch = self.outage.epoch
                with self.outage.answering():
                    try:
                        with turns.in_order(self.db, key, activity.id):
                            result = self.footnote.answer(turn)
                    except Exception as exc:
                        if is_outage(exc) or self.outage.epoch != epoch:
                            raise _Interrupted() from exc
                        raise
                if result.refusal_reason == "internal_error" and (self.outage.down or self.outage.epoch != epoch):
                    raise _Interrupted()
            else:
                result = self.footnote.answer(turn)
            log.info("answered in %s: kind=%s planner=%s composer=%s cached=%s timings=%s", key, result.kind,
                     result.planner, result.composer, result.cached, result.timings)
            return [_attach(c) for c in cards.answer_cards(result, thread_key=key, question=text, show_path=show_path)]

        return await self._run(turn_context, answer)

    async def _run(self, turn_context: TurnContext, work) -> list[Activity]:
        """Run the blocking agent off the event loop, with a typing indicator until it is done."""
        loop = asyncio.get_running_loop()
        job = loop.run_in_executor(self._answer_pool, work)
        while True:
            await turn_context.send_activity(Activity(type=ActivityTypes.typing))
            done, _ = await asyncio.wait({job}, timeout=TYPING_EVERY_S)
            if done:
                break
        try:
            result = job.result()
        except FootnoteError as exc:
            return [MessageFactory.text(str(exc))]
        return result if isinstance(result, list) else [result]

    def _feedback(self, activity: Activity) -> Activity:
        """👍/👎 from a card: one vote per user per answer (the card's message), latest wins; a 👎
        is answered with a short form asking what was wrong, stored with the vote."""
        value = activity.value
        user = activity.from_property.id or ""
        if cards.REASON_KEY in value:
            ledger.record_reason(self.db, int(value[cards.REASON_KEY]), user, str(value.get("reason") or "other"),
                                 value.get("comment"))
            return MessageFactory.text(THANKS_REASON)
        up = value.get(cards.FEEDBACK_KEY) == "up"
        conv = activity.conversation.id
        feedback_id = ledger.record_feedback(
            self.db, platform="teams", thread_key=str(value.get("t") or thread_key(activity)),
            user_id=activity.from_property.id or "", rating=1 if up else -1, question=str(value.get("q") or ""),
            answer={"reply_to_id": activity.reply_to_id}, answer_ref=f"teams:{conv}:{activity.reply_to_id or '-'}",
        )
        return MessageFactory.text(THANKS_UP) if up else _attach(cards.reason_card(feedback_id, ledger.FEEDBACK_REASONS))

    def _tickers(self, filter_text: str) -> list[Activity]:
        rows = self.footnote.coverage(filter_text or None)
        if not rows:
            return [MessageFactory.text("Footnote covers no companies" + (f" matching “{filter_text}”" if filter_text else "") + " yet.")]
        listing, note = render_chat.coverage_listing(rows)
        title = f"Companies Footnote covers ({len(rows)})"
        return [_attach(c) for c in cards.listing_card(title, render_chat.COVERAGE_COLUMNS, listing, note=note)]

    def _filings(self, ticker: str) -> list[Activity]:
        if not ticker:
            return [MessageFactory.text(FILINGS_USAGE)]
        ticker = ticker.upper().lstrip("$")
        rows = self.footnote.filings(ticker)
        if not rows:
            return [MessageFactory.text(f"Footnote has no filings for {ticker}. **tickers** lists the covered companies.")]
        held, rows = render_chat.filings_listing(rows)
        listing = [[r["form"], r["period_label"], str(r.get("period_end") or ""), f"[{r['accession']}]({r['url']})"] for r in rows]
        return [_attach(c) for c in cards.listing_card(f"{ticker}: filings Footnote has read: {held}",
                                                       ["Form", "Fiscal period", "Period end", "SEC document"], listing)]


def _attach(card: dict) -> Activity:
    reply = MessageFactory.attachment(CardFactory.adaptive_card(card))
    reply.summary = card["fallbackText"][:200]
    return reply


def _card_of(reply: Activity) -> dict | None:
    for a in reply.attachments or []:
        if a.content_type == CardFactory.content_types.adaptive_card:
            return a.content
    return None


def _has_files(activity: Activity) -> bool:
    return any((a.content_type or "") != "text/html" for a in activity.attachments or [])
