"""Teams end to end: activities POSTed to the real aiohttp endpoint (CloudAdapter + FootnoteBot
+ the real Footnote over the fixture corpus), replies captured at a fake connector serviceUrl;
and the handler alone through botbuilder's TestAdapter."""

from __future__ import annotations

import asyncio
import json
import logging

import aiohttp
import pytest
from aiohttp import web
from botbuilder.core.adapters import TestAdapter

from bot import render_chat
from bot.settings import Settings
from bot.teams.app import BOT_KEY, make_app
from bot.teams.bot import FootnoteBot
from bot.fakes.connector import FakeConnector, activity
from tests.test_slack import footnote  # noqa: F401  (fixture: the real Footnote over the corpus)


def teams_settings(**kw) -> Settings:
    return Settings(_env_file=None, FOOTNOTE_LLM="off", **kw)


async def post_all(app: web.Application, activities: list[dict], headers: dict | None = None) -> list[int]:
    """Serve `app` on 127.0.0.1 and POST each activity in turn, as the Bot Framework would."""
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    statuses = []
    try:
        async with aiohttp.ClientSession() as session:
            for a in activities:
                async with session.post(f"http://127.0.0.1:{port}/api/messages", json=a, headers=headers or {}) as resp:
                    statuses.append(resp.status)
        await app[BOT_KEY].idle()  # the answers follow the acks
    finally:
        await runner.cleanup()
    return statuses


def card_text(reply) -> str:
    return json.dumps(reply.card, ensure_ascii=False) if reply.card else reply.activity.get("text", "")


def test_channel_mention_is_answered_in_the_reply_chain_with_a_card(footnote):  # noqa: F811
    with FakeConnector() as connector:
        conv = "19:finance@thread.tacv2;messageid=1700000000001"
        a = activity("What was Apple's revenue in fiscal 2024?", service_url=connector.url, mention=True,
                     conversation_type="channel", conversation_id=conv, activity_id="1700000000001")
        assert asyncio.run(post_all(make_app(teams_settings(), footnote), [a])) == [201]
        replies = connector.replies
        assert [r.type for r in replies][0] == "typing" and replies[-1].type == "message"
        answer = connector.messages(conv)
        assert len(answer) == 1 and answer[0].reply_to == "1700000000001"
        card = answer[0].card
        assert card["type"] == "AdaptiveCard"
        body = card_text(answer[0])
        assert "$391.04 billion" in body
        assert "https://www.sec.gov/" in body
        assert card["fallbackText"]


def test_personal_chat_follow_up_carries_the_thread_memory(footnote):  # noqa: F811
    with FakeConnector() as connector:
        conv = "a:personal-follow-up"
        first = activity("What was NVIDIA's revenue in fiscal 2025?", service_url=connector.url, conversation_id=conv)
        second = activity("and in fiscal 2024?", service_url=connector.url, conversation_id=conv)
        assert asyncio.run(post_all(make_app(teams_settings(), footnote), [first, second])) == [201, 201]
        answers = connector.messages(conv)
        assert len(answers) == 2
        follow = card_text(answers[1])
        assert "$130.50 billion" in card_text(answers[0])
        assert "NVDA 10-K" in follow and "$60.92 billion" in follow


def test_tickers_and_help_commands(footnote):  # noqa: F811
    with FakeConnector() as connector:
        tickers = activity("tickers", service_url=connector.url, conversation_id="a:cmd")
        help_ = activity("help", service_url=connector.url, conversation_id="a:cmd")
        filings = activity("filings nvda", service_url=connector.url, conversation_id="a:cmd")
        asyncio.run(post_all(make_app(teams_settings(), footnote), [tickers, help_, filings]))
        listing, helped, filed = connector.messages("a:cmd")
        grid = next(e for e in listing.card["body"] if e["type"] == "Table")
        first_cells = [row["cells"][0]["items"][0]["text"] for row in grid["rows"][1:]]
        assert sorted(first_cells) == ["AAPL", "NVDA", "TSLA", "WMT"]
        header = [cell["items"][0]["text"] for cell in grid["rows"][0]["cells"]]
        assert header == ["Ticker", "Company", "10-K filings", "Figures only", "10-Q quarters"]
        nvda = next(row for row in grid["rows"] if row["cells"][0]["items"][0]["text"] == "NVDA")
        assert nvda["cells"][-1]["items"][0]["text"] == "Q1–Q3 FY2025"
        assert "Figures only: reported figures" in card_text(listing)
        assert helped.activity["text"] == footnote.help_text()
        assert "https://www.sec.gov/" in card_text(filed)
        assert "FY2025: 10-K, Q1–Q3 10-Q" in card_text(filed) and "Q2 2025" in card_text(filed)


def test_authentication_is_on_when_an_app_id_is_set(footnote, caplog):  # noqa: F811
    with FakeConnector() as connector:
        settings = teams_settings(MicrosoftAppId="00000000-1111-2222-3333-444444444444", MicrosoftAppPassword="not-a-real-secret")
        a = activity("What was Apple's revenue?", service_url=connector.url)
        assert asyncio.run(post_all(make_app(settings, footnote), [a])) == [401]
        assert connector.replies == []
    with caplog.at_level(logging.WARNING, logger="bot.teams.auth"):
        make_app(teams_settings(), footnote)
    assert "authentication is OFF" in caplog.text
    assert "not-a-real-secret" not in caplog.text


def test_handler_with_test_adapter_sends_typing_then_the_answer(footnote):  # noqa: F811
    async def run():
        adapter = TestAdapter(FootnoteBot(footnote).on_turn)
        await adapter.send("What was Apple's net income in fiscal 2024?")
        replies = []
        while (a := adapter.get_next_activity()) is not None:
            replies.append(a)
        return replies

    replies = asyncio.run(run())
    assert replies[0].type == "typing"
    messages = [r for r in replies if r.type == "message"]
    assert len(messages) == 1
    card = messages[0].attachments[0].content
    assert card["type"] == "AdaptiveCard"
    assert "AAPL" in json.dumps(card) or "Apple" in json.dumps(card)


@pytest.mark.parametrize("text", ["help", "tickers"])
def test_commands_through_test_adapter(footnote, text):  # noqa: F811
    async def run():
        adapter = TestAdapter(FootnoteBot(footnote).on_turn)
        await adapter.send(text)
        out = []
        while (a := adapter.get_next_activity()) is not None:
            out.append(a)
        return [a for a in out if a.type == "message"]

    (reply,) = asyncio.run(run())
    assert reply.text or reply.attachments


def test_a_database_outage_gets_a_polite_reply_never_the_error(make_database, embedder, caplog):
    from bot.wiring import build_footnote

    broken = make_database()
    footnote = build_footnote(broken, embedder, teams_settings())
    broken.pool.close()  # the database goes away under a running bot

    async def run():
        adapter = TestAdapter(FootnoteBot(footnote).on_turn)
        await adapter.send("tickers")
        out = []
        while (a := adapter.get_next_activity()) is not None:
            out.append(a)
        return [a for a in out if a.type == "message"]

    (reply,) = asyncio.run(run())
    assert reply.text == render_chat.POLITE_ERROR
    assert "Traceback" in caplog.text or "answering failed" in caplog.text
