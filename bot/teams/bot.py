"""The Teams bot: an ActivityHandler that turns a message into a Turn and the Answer into a card.

A channel mention is answered in its reply chain; Teams gives each reply chain (and each personal
chat) its own conversation id, so the thread key `teams:{tenant}:{conversation id}` is the
conversation's memory. "tickers", "filings" and "help" are commands. This is the adapter edge:
it catches every exception, logs it, and replies politely.
"""

from __future__ import annotations

import asyncio
import html
import logging
import re

from botbuilder.core import ActivityHandler, CardFactory, MessageFactory, TurnContext
from botbuilder.schema import Activity, ActivityTypes

from agent.answer import Turn
from bot import render_chat
from bot.teams import cards
from store.errors import FootnoteError

log = logging.getLogger(__name__)

TYPING_EVERY_S = 3.0  # Teams shows a typing indicator for a few seconds after each one
EMPTY_HINT = "Hi! Ask me about a US public company's 10-K, for example: *What was Apple's revenue in fiscal 2024?* Type **help** for more."
FILES_HINT = "I can't read attachments: I answer from the SEC filings I have. Type your question as a message."
FILINGS_USAGE = "Usage: **filings TICKER**, for example *filings AAPL*. **tickers** lists the covered companies."

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
    def __init__(self, footnote):
        self.footnote = footnote

    async def on_message_activity(self, turn_context: TurnContext) -> None:
        activity = turn_context.activity
        if (activity.from_property and activity.from_property.role == "bot") or activity.from_property is None:
            return
        text = question_text(activity)
        try:
            reply = await self._reply_for(turn_context, text)
        except Exception:
            log.exception("answering failed in %s", thread_key(activity))
            reply = MessageFactory.text(render_chat.POLITE_ERROR)
        await turn_context.send_activity(reply)

    async def _reply_for(self, turn_context: TurnContext, text: str) -> Activity:
        activity = turn_context.activity
        if not text:
            return MessageFactory.text(FILES_HINT if activity.attachments and _has_files(activity) else EMPTY_HINT)
        word, _, rest = text.lstrip("/").partition(" ")
        command = word.lower()
        if command == "help" and not rest.strip():
            return MessageFactory.text(self.footnote.help_text())
        if command == "tickers" and len(rest.split()) <= 3:
            return await self._run(turn_context, lambda: self._tickers(rest.strip()))
        if command == "filings" and len(rest.split()) <= 1:
            return await self._run(turn_context, lambda: self._filings(rest.strip()))
        turn = Turn(thread_key=thread_key(activity), user=(activity.from_property.id or ""), text=text)
        return await self._run(turn_context, lambda: _card_reply(self.footnote.answer(turn)))

    async def _run(self, turn_context: TurnContext, work) -> Activity:
        """Run the blocking agent off the event loop, with a typing indicator until it is done."""
        loop = asyncio.get_running_loop()
        job = loop.run_in_executor(None, work)
        while True:
            await turn_context.send_activity(Activity(type=ActivityTypes.typing))
            done, _ = await asyncio.wait({job}, timeout=TYPING_EVERY_S)
            if done:
                break
        try:
            return job.result()
        except FootnoteError as exc:
            return MessageFactory.text(str(exc))

    def _tickers(self, filter_text: str) -> Activity:
        rows = self.footnote.coverage(filter_text or None)
        if not rows:
            return MessageFactory.text("Footnote covers no companies" + (f" matching “{filter_text}”" if filter_text else "") + " yet.")
        listing, note = render_chat.coverage_listing(rows)
        title = f"Companies Footnote covers ({len(rows)})"
        return _attach(cards.listing_card(title, render_chat.COVERAGE_COLUMNS, listing, note=note))

    def _filings(self, ticker: str) -> Activity:
        if not ticker:
            return MessageFactory.text(FILINGS_USAGE)
        ticker = ticker.upper().lstrip("$")
        rows = self.footnote.filings(ticker)
        if not rows:
            return MessageFactory.text(f"Footnote has no filings for {ticker}. **tickers** lists the covered companies.")
        listing = [[r["form"], str(r["fiscal_year"]), str(r.get("period_end") or ""), f"[{r['accession']}]({r['url']})"] for r in rows]
        return _attach(cards.listing_card(f"{ticker}: filings Footnote has read", ["Form", "Fiscal year", "Period end", "SEC document"], listing))


def _card_reply(answer) -> Activity:
    return _attach(cards.answer_card(answer))


def _attach(card: dict) -> Activity:
    reply = MessageFactory.attachment(CardFactory.adaptive_card(card))
    reply.summary = card["fallbackText"][:200]
    return reply


def _has_files(activity: Activity) -> bool:
    return any((a.content_type or "") != "text/html" for a in activity.attachments or [])
