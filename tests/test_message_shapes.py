"""Every message shape that can reach the bot gets a sensible reply or none, never a crash; and
whatever the Answer holds, the rendered message stays inside Slack's and Teams' limits."""

from __future__ import annotations

import asyncio
import json
from datetime import date

import pytest
from botbuilder.core.adapters import TestAdapter
from botbuilder.schema import Activity, ChannelAccount, ConversationAccount, Entity
from slack_sdk.models.blocks import Block

from agent.answer import Answer, Calculation, Citation, Table
from bot import render_chat
from bot.slack import blocks
from bot.teams import cards
from bot.teams.bot import FootnoteBot
from bot.fakes.slack_api import attachment_problems, block_problems
from tests.test_slack import all_text, final_reply, footnote, slack  # noqa: F401  (fixtures)

PASTE_20KB = ("Revenue grew in every segment while costs held steady. " * 400)[:20_000]

SHAPES = {
    "empty mention": "",
    "only emoji": ":chart_with_upwards_trend: 🚀🚀",
    "20 KB paste": PASTE_20KB,
    "code block": "```SELECT * FROM facts WHERE concept = 'Revenues'; DROP TABLE facts;```",
    "unicode": "Quel était le chiffre d’affaires d’Apple en 2024 ? 苹果 2024 年收入是多少？ – ‘quotes’ & <tags>",
    "slack markup": "what did <https://www.apple.com|Apple> report? cc <@U0SOMEONE> <#C0OTHER|finance> <!here>",
}


def citation(n: int, **kw) -> Citation:
    base = dict(n=n, ticker="AAPL", cik=320193, form="10-K", fiscal_year=2024, accession="0000320193-24-000123",
                url=f"https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm#{n}",
                concept="us-gaap:Revenues", period_end=date(2024, 9, 28))
    return Citation(**{**base, **kw})


def check_slack(message: dict) -> None:
    assert message["text"] and len(message["text"]) <= render_chat.PLAIN_LIMIT
    assert block_problems(message["blocks"]) == [] and attachment_problems(message.get("attachments", [])) == []
    for b in message["blocks"] + [b for a in message.get("attachments", []) for b in a["blocks"] if b["type"] != "table"]:
        Block.parse(b).validate_json()


def all_blocks(message: dict) -> list[dict]:
    return message["blocks"] + [b for a in message.get("attachments", []) for b in a["blocks"]]


# --- rendering inside the limits -------------------------------------------------------------

def test_a_long_answer_is_split_into_sections_under_3000_and_50_blocks():
    paragraph = "Apple designs, manufactures and markets phones, computers and wearables [1]. " * 30
    answer = Answer(kind="answer", text="\n\n".join([paragraph] * 60), citations=[citation(1)])
    message = blocks.answer_message(answer, thread_key="slack:T:C:1.0", question="q")
    check_slack(message)
    sections = [b for b in message["blocks"] if b["type"] == "section"]
    assert len(message["blocks"]) == 50 and len(sections) > 10
    assert all(len(s["text"]["text"]) <= 3000 for s in sections)
    assert "too long for one Slack message" in json.dumps(message["blocks"])
    assert message["blocks"][-1]["type"] == "actions", "feedback and footnotes survive the cut"


def test_markers_become_links_and_markdown_becomes_mrkdwn():
    answer = Answer(kind="answer", text="**Revenue** was $391,035 million [1], up from [2]. Cost < revenue & more.",
                    citations=[citation(1), citation(2, fiscal_year=2023)])
    message = blocks.answer_message(answer)
    first = message["blocks"][0]["text"]["text"]
    assert first.startswith("*Revenue* was")
    assert f"<{citation(1).url}|[1]>" in first and "&lt; revenue &amp; more" in first
    notes = [e["text"] for b in message["blocks"] if b["type"] == "context" for e in b["elements"]]
    assert any(n.startswith("[1] <https://www.sec.gov/") and "[2] <https://www.sec.gov/" in n for n in notes)
    assert "AAPL 10-K FY2024" in message["text"] and citation(2).url in message["text"]


def test_tables_native_when_they_fit_monospaced_when_not():
    small = Table(title="Revenue", columns=["Company", "FY2024"], rows=[["AAPL", "391,035"], ["MSFT", "245,122"]],
                  cell_citations=[[[], [1]], [[], [2]]])
    tall = Table(title="Tall", columns=["Row", "Value"], rows=[[str(i), f"{i * 7:,}"] for i in range(400)])
    wide = Table(title="Wide", columns=[f"c{i}" for i in range(25)], rows=[[str(i) for i in range(25)]])
    message = blocks.answer_message(Answer(kind="answer", text="Three tables.", tables=[tall, wide, small, small],
                                           citations=[citation(1), citation(2)]))
    check_slack(message)
    native = [b for b in all_blocks(message) if b["type"] == "table"]
    assert len(native) == 1, "Slack allows one table block per message"
    assert not [b for b in message["blocks"] if b["type"] == "table"], "and documents it inside the attachments"
    assert [c["text"] for c in native[0]["rows"][1]] == ["AAPL", "391,035 [1]"]
    assert native[0]["column_settings"][1]["align"] == "right"
    mono = "\n".join(b["text"]["text"] for b in all_blocks(message) if b["type"] == "section" and b["text"]["text"].startswith("```"))
    assert all(f"{i * 7:,}" in mono for i in range(400)), "every row of the tall table is shown"
    assert "24" in mono and "c24" in mono, "and every column of the wide one"


def test_refusals_look_like_refusals_and_can_be_voted_on():
    answer = Answer(kind="refusal", refusal_reason="not_covered",
                    text="Footnote has no filings for Tesla (TSLA). It covers AAPL and MSFT.")
    message = blocks.answer_message(answer, thread_key="slack:T:C:1.0", question="Tesla revenue?")
    check_slack(message)
    first = message["blocks"][0]["text"]["text"]
    assert first.startswith(":no_entry_sign: *") and "isn't in Footnote's filings" in first
    assert any(b["type"] == "actions" for b in message["blocks"]), "a refusal can be wrong too: 👍/👎 on it"
    assert "/tickers" in json.dumps(message["blocks"])
    assert message["text"].startswith(render_chat.refusal_headline(answer))


def test_calculations_and_many_footnotes_fit():
    cites = [citation(i, item="7", concept=None) for i in range(1, 120)]
    calc = Calculation(metric="Gross margin", formula="gross profit / revenue",
                       steps=["gross profit 180,683 [1]", "revenue 391,035 [2]"], result="46.2%")
    message = blocks.answer_message(Answer(kind="answer", text="Margin was 46.2% [1][2].", citations=cites, calculation=[calc]),
                                    thread_key="slack:T:C:1.0", question="x" * 5000)
    check_slack(message)
    assert "Gross margin = gross profit / revenue" in json.dumps(message["blocks"])
    button = next(b for b in message["blocks"] if b["type"] == "actions")["elements"][0]
    assert len(button["value"]) <= 2000 and json.loads(button["value"])["t"] == "slack:T:C:1.0"


def test_teams_card_has_text_table_links_and_fallback():
    table = Table(title="Revenue", columns=["Company", "FY2024"], rows=[["AAPL", "391,035"]], cell_citations=[[[], [1]]])
    card = cards.answer_card(Answer(kind="answer", text="Apple's revenue was $391,035 million [1].", tables=[table],
                                    citations=[citation(1)]))
    assert card["type"] == "AdaptiveCard" and card["version"] == "1.5"
    kinds = [e["type"] for e in card["body"]]
    assert "Table" in kinds and kinds[0] == "TextBlock"
    grid = next(e for e in card["body"] if e["type"] == "Table")
    assert grid["firstRowAsHeader"] and grid["rows"][1]["cells"][1]["items"][0]["text"] == "391,035 [1]"
    assert f"[1] [AAPL 10-K FY2024, us-gaap:Revenues]({citation(1).url})" in json.dumps(card["body"], ensure_ascii=False)
    assert "391,035" in card["fallbackText"] and citation(1).url in card["fallbackText"]


# --- every shape through the real app and the real agent -------------------------------------

@pytest.mark.parametrize("shape", list(SHAPES))
def test_slack_message_shapes_get_one_polite_reply(slack, shape):  # noqa: F811
    channel = "C0SHAPE" + str(list(SHAPES).index(shape))
    ts, event = slack.send.mention(SHAPES[shape], channel=channel)
    assert slack.send.event(event)[0] == 200
    thread = slack.fake.wait_for(lambda: [m for m in slack.fake.thread(channel, ts) if "Looking that up" not in m.text], timeout=60)
    slack.fake.wait_for(lambda: not slack.fake.reactions.get((channel, ts)))  # the working reaction is gone: done
    assert len(thread) == 1
    text = all_text(thread[0])
    assert text.strip() and "Traceback" not in text and "Error:" not in text
    if shape == "20 KB paste":
        assert "too long" in text
    if shape == "empty mention":
        assert "Ask me about" in text


def test_slack_message_with_a_file_and_no_text(slack):  # noqa: F811
    files = [{"id": "F0FILE", "name": "10k.pdf", "mimetype": "application/pdf"}]
    ts, event = slack.send.message("", channel="D0FILES", channel_type="im", subtype="file_share", files=files)
    slack.send.event(event)
    thread = slack.fake.wait_for(lambda: slack.fake.thread("D0FILES", ts))
    assert "can't read attachments" in thread[0].text
    ts2, event2 = slack.send.mention("What was Apple's revenue in fiscal 2024?", channel="C0FILES", files=files)
    slack.send.event(event2)
    reply = final_reply(slack, "C0FILES", ts2)[0]
    assert "$391.04 billion" in all_text(reply)


@pytest.mark.parametrize("shape", list(SHAPES))
def test_teams_message_shapes_get_one_polite_reply(footnote, shape):  # noqa: F811
    async def run() -> list[Activity]:
        adapter = TestAdapter(FootnoteBot(footnote).on_turn)
        text = f"<at>Footnote</at> {SHAPES[shape]}"
        mention = Entity(type="mention")
        mention.additional_properties = {"text": "<at>Footnote</at>", "mentioned": {"id": "bot", "name": "Footnote"}}
        await adapter.receive_activity(Activity(
            type="message", text=text, entities=[mention], from_property=ChannelAccount(id="29:analyst"),
            recipient=ChannelAccount(id="bot"), conversation=ConversationAccount(id=f"19:shape{hash(shape)}", conversation_type="channel"),
        ))
        replies = []
        while (a := adapter.get_next_activity()) is not None:
            replies.append(a)
        return replies

    replies = asyncio.run(run())
    messages = [a for a in replies if a.type == "message"]
    assert len(messages) == 1
    body = messages[0].text or json.dumps(messages[0].attachments[0].content, ensure_ascii=False)
    assert body.strip() and "Traceback" not in body


def test_long_listings_fall_back_to_monospace_within_limits():
    rows = [[f"T{i:03d}", f"Company number {i} Holdings, Inc.", "2021–2024"] for i in range(300)]
    message = blocks.listing_message("Companies Footnote covers (300)", ["Ticker", "Company", "Fiscal years"], rows)
    check_slack(message)
    assert not any(b["type"] == "table" for b in all_blocks(message))
    shown = "\n".join(b["text"]["text"] for b in message["blocks"] if b["type"] == "section")
    assert all(f"T{i:03d}" in shown for i in range(300)), "every company listed, over several sections"
    links = [[f"T{i}", ("0000000000-24-000001", f"https://www.sec.gov/{i}")] for i in range(5)]
    small = blocks.listing_message("Filings", ["Ticker", "SEC document"], links)
    check_slack(small)
    cell = next(b for b in all_blocks(small) if b["type"] == "table")["rows"][1][1]
    assert cell["elements"][0]["elements"][0] == {"type": "link", "url": "https://www.sec.gov/0", "text": "0000000000-24-000001"}
    assert "https://www.sec.gov/0" in small["text"]


def test_slack_markup_is_read_back_as_plain_text():
    from bot.slack.reply import question_text

    text = "<@UFOOTNOTE> what did <https://www.apple.com|Apple> say? cc <@U0X> <#C1|fin> <!here> &amp; &lt;b&gt;"
    assert question_text(text, "UFOOTNOTE") == "what did Apple say? cc @U0X #fin @here & <b>"
