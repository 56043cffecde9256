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
"filings" and "help" are commands; 👍/👎 on a card come back as Action.Submit values. This is the
adapter edge: it catches every exception, logs it, and replies politely.
"""

from __future__ import annotations

import asyncio
import copy
import html
import logging
import re
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

from botbuilder.core import ActivityHandler, BotAdapter, CardFactory, MessageFactory, TurnContext
from botbuilder.schema import Activity, ActivityTypes

from agent.answer import Turn
from bot import limits, render_chat
from store import ledger
from bot.teams import cards
from store import turns
from store.errors import FootnoteError

log = logging.getLogger(__name__)

TYPING_EVERY_S = 3.0  # Teams shows a typing indicator for a few seconds after each one
SENT_CARDS = 500  # recent answer cards kept, so a vote can be shown on the card it was cast on
EMPTY_HINT = "Hi! Ask me about a US public company's 10-K, for example: {example}. Type **help** for more."
FILES_HINT = "I can't read attachments: I answer from the SEC filings I have. Type your question as a message."
FILINGS_USAGE = "Usage: **filings TICKER**, for example *filings AAPL*. **tickers** lists the covered companies."
THANKS_UP = "Thanks for the 👍."
THANKS_REASON = "Thanks: noted with your 👎."

_TAG = re.compile(r"<[^>]+>")


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
    def __init__(self, footnote, *, adapter=None, settings=None, db=None, workers: int = 4):
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
        if activity.id and self.db is not None:
            loop = asyncio.get_running_loop()
            if not await loop.run_in_executor(self._ack_pool, self._claim, activity):
                return
        reference = TurnContext.get_conversation_reference(activity)
        identity = turn_context.turn_state.get(BotAdapter.BOT_IDENTITY_KEY)
        audience = turn_context.turn_state.get(BotAdapter.BOT_OAUTH_SCOPE_KEY)

        async def deliver(context: TurnContext) -> None:
            context.activity.id = activity.id  # replies go to the question (its reply chain), not the continuation
            await self._respond(context, activity)

        key = thread_key(activity)
        entry = self._conversations.setdefault(key, [asyncio.Lock(), 0])
        entry[1] += 1
        lock = entry[0]

        async def later() -> None:
            try:
                async with lock:  # FIFO: a quick "help" does not overtake the question asked before it
                    if identity is not None:
                        await self.adapter.continue_conversation_with_claims(identity, reference, audience, deliver)
                    else:
                        await self.adapter.continue_conversation(reference, deliver, getattr(self.settings, "microsoft_app_id", None) or "")
            except Exception:
                log.exception("could not deliver the answer in %s", key)
            finally:
                entry[1] -= 1
                if entry[1] == 0:
                    self._conversations.pop(key, None)

        task = asyncio.get_running_loop().create_task(later())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _claim(self, activity: Activity) -> bool:
        """The Bot Framework redelivers an activity it thinks was lost: the first copy claims its id,
        and its turn is queued in its conversation now, in arrival order, before any answer starts."""
        try:
            if not ledger.claim_event(self.db, "teams", activity.id):
                log.debug("dropping a repeat delivery of activity %s", activity.id)
                return False
        except Exception:
            log.exception("could not record activity %s; not answering it", activity.id)
            return False
        try:
            turns.register(self.db, thread_key(activity), activity.id, f"{time.time():.6f}")
        except Exception:
            log.warning("could not queue turn %s", activity.id, exc_info=True)
        return True

    async def _respond(self, turn_context: TurnContext, activity: Activity) -> None:
        try:
            replies = await self._reply_for(turn_context, activity)
        except Exception:
            log.exception("answering failed in %s", thread_key(activity))
            replies = [MessageFactory.text(render_chat.POLITE_ERROR)]
        for reply in replies:
            sent = await turn_context.send_activity(reply)
            card = _card_of(reply)
            if sent is not None and getattr(sent, "id", None) and card and card.get("actions"):
                self._sent[sent.id] = card
                while len(self._sent) > SENT_CARDS:
                    self._sent.popitem(last=False)
        await self._show_votes(turn_context, activity)

    async def _show_votes(self, turn_context: TurnContext, activity: Activity) -> None:
        """After a vote, the card it was cast on shows the counts on its buttons (when this process
        sent that card; otherwise the thanks alone says it was counted)."""
        value = activity.value if isinstance(activity.value, dict) else {}
        card = self._sent.get(activity.reply_to_id or "")
        if cards.FEEDBACK_KEY not in value or card is None or self.db is None:
            return
        ref = f"teams:{activity.conversation.id}:{activity.reply_to_id}"
        try:
            up, down = await asyncio.get_running_loop().run_in_executor(self._answer_pool, ledger.votes, self.db, "teams", ref)
            updated = cards.with_votes(copy.deepcopy(card), up, down)
            update = _attach(updated)
            update.id = activity.reply_to_id
            update.type = ActivityTypes.message
            await turn_context.update_activity(update)
            self._sent[activity.reply_to_id] = updated
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
                with turns.in_order(self.db, key, activity.id):
                    result = self.footnote.answer(turn)
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
        listing = [[r["form"], str(r["fiscal_year"]), str(r.get("period_end") or ""), f"[{r['accession']}]({r['url']})"] for r in rows]
        return [_attach(c) for c in cards.listing_card(f"{ticker}: filings Footnote has read",
                                                       ["Form", "Fiscal year", "Period end", "SEC document"], listing)]


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
