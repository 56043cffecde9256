"""Slack as a real workspace treats it: rate limits, Web API errors, turns in quick succession,
DMs, private answers and per-user limits. Signed HTTP through the real Bolt app, the real
slack_sdk client against the fake Web API (which can answer 429, refuse a payload or be slow)."""

from __future__ import annotations

import contextlib
import logging
import time

import pytest

from agent.answer import Answer, Citation, Table
from bot.settings import Settings
from bot.slack import blocks
from bot.slack.app import build_app
from bot.slack.server import serving_http
from bot.fakes.slack_api import FakeSlack, SlackSender, attachment_problems, block_problems
from tests.test_slack import SECRET, SlackEnv, all_text, final_reply, slack_settings


@pytest.fixture(scope="module")
def uncached(corpus_db, embedder):
    """Every answer computed (a cached one skips the progress notes these tests need)."""
    from bot.wiring import build_footnote

    return build_footnote(corpus_db, embedder, Settings(_env_file=None, FOOTNOTE_LLM="off"), use_cache=False)


@contextlib.contextmanager
def workspace(footnote, db, *, settings=None, **app_kw):
    fake_kw = {k: app_kw.pop(k) for k in ("rate_limits", "slow", "retry_after") if k in app_kw}
    with FakeSlack(**fake_kw) as fake:
        app = build_app((settings or slack_settings)(fake.base_url), footnote, db, **app_kw)
        with serving_http(app) as url:
            yield SlackEnv(fake, SlackSender(url, SECRET), url, db)


def calls_in(env: SlackEnv, channel: str) -> list[str]:
    return [c.method for c in env.fake.calls if c.args.get("channel") == channel or c.args.get("channel_id") == channel]


def test_an_ordinary_answer_costs_three_web_api_calls(uncached, corpus_db):
    with workspace(uncached, corpus_db) as env:
        ts, event = env.send.mention("What was Apple's revenue in fiscal 2024?", channel="C0THREE")
        env.send.event(event)
        (reply,) = final_reply(env, "C0THREE", ts)
        assert "$391.04 billion" in all_text(reply)
        assert calls_in(env, "C0THREE") == ["reactions.add", "chat.postMessage", "reactions.remove"]


def test_with_chat_update_rate_limited_the_answer_still_lands_and_then_the_reaction_goes(uncached, corpus_db, caplog):
    caplog.set_level(logging.INFO)
    # chat.update answers 429 every time (Retry-After: 1): the slow answer's placeholder cannot be edited.
    with workspace(uncached, corpus_db, rate_limits={"chat.update": 0}, retry_after=1, placeholder_after_s=0) as env:
        ts, event = env.send.mention("What was Tesla's net income in fiscal 2024?", channel="C0LIMITED")
        env.send.event(event)
        (reply,) = final_reply(env, "C0LIMITED", ts)
        assert "Looking that up" not in all_text(reply) and "Tesla" in all_text(reply), "nobody is left on the placeholder"
        assert reply.blocks, "the full answer, not just its text"
        updates = [c for c in env.fake.rate_limited if c.args.get("channel") == "C0LIMITED"]
        assert len(updates) >= 3, "the client honoured Retry-After and tried chat.update again before giving up on it"
        assert updates[1].at - updates[0].at >= 1.0, "it waited Retry-After between tries"
        placeholder = next(c for c in env.fake.calls_to("chat.postMessage") if c.args.get("channel") == "C0LIMITED")
        assert env.fake.messages[("C0LIMITED", placeholder_ts(env, "C0LIMITED"))].deleted, "the placeholder was removed"
        landed = [c for c in env.fake.calls_to("chat.postMessage") if c.args.get("channel") == "C0LIMITED"][-1]
        removed = next(c for c in env.fake.calls_to("reactions.remove") if c.args.get("channel") == "C0LIMITED")
        assert removed.at > landed.at, "👀 removed only once the answer had landed"
        assert placeholder is not landed
    assert "chat.update failed in slack:T0FOOT:C0LIMITED" in caplog.text and "ratelimited" in caplog.text


def placeholder_ts(env: SlackEnv, channel: str) -> str:
    return next(m.ts for m in sorted(env.fake.messages.values(), key=lambda m: float(m.ts))
                if m.channel == channel and "Looking that up" in m.text)


def test_when_slack_takes_nothing_the_reaction_stays_and_the_failure_is_logged(uncached, corpus_db, caplog):
    with workspace(uncached, corpus_db) as env:
        env.fake.failing["chat.postMessage"] = "channel_not_found"
        ts, event = env.send.mention("What was Apple's revenue in fiscal 2024?", channel="C0NOWHERE")
        env.send.event(event)
        env.fake.wait_for(lambda: "never reached Slack" in caplog.text, timeout=60)
        assert env.fake.reactions[("C0NOWHERE", ts)] == {"eyes"}, "no answer landed: 👀 does not pretend it did"
        assert not env.fake.calls_to("reactions.remove")
    assert f"chat.postMessage failed in slack:T0FOOT:C0NOWHERE:{ts}: channel_not_found" in caplog.text


def test_a_follow_up_sent_while_the_first_turn_is_answered_waits_for_its_memory(uncached, corpus_db):
    # Every placeholder post takes a second, inside the first turn (placeholder at its first note).
    with workspace(uncached, corpus_db, slow={"chat.postMessage": 1.0}, placeholder_after_s=0) as env:
        ts, event = env.send.mention("What was Apple's revenue in fiscal 2024?", channel="C0ORDER")
        env.send.event(event)
        time.sleep(0.15)
        _, follow = env.send.message("and in fiscal 2023?", channel="C0ORDER", thread_ts=ts)
        env.send.event(follow)
        thread = final_reply(env, "C0ORDER", ts, count=2)
        texts = [all_text(m) for m in thread]
        assert any("$391.04 billion" in t for t in texts)
        assert any("$383.29 billion" in t for t in texts), f"the follow-up was planned with the first turn's memory: {texts}"


def test_a_dm_is_one_conversation_whether_in_a_thread_or_the_main_box(uncached, corpus_db):
    with workspace(uncached, corpus_db) as env:
        ts, first = env.send.message("What was NVIDIA's net income in fiscal 2024?", channel="D0MAINBOX", channel_type="im")
        env.send.event(first)
        final_reply(env, "D0MAINBOX", ts)
        ts2, second = env.send.message("and its revenue?", channel="D0MAINBOX", channel_type="im")  # the main box again
        env.send.event(second)
        (reply,) = final_reply(env, "D0MAINBOX", ts2, count=2)
        assert "NVIDIA" in all_text(reply) or "NVDA" in all_text(reply), all_text(reply)
        assert "Which company" not in all_text(reply)


def test_a_refused_slash_command_reply_falls_back_to_plain_text_and_is_logged(uncached, corpus_db, caplog):
    with workspace(uncached, corpus_db) as env:
        env.fake.refuse_blocks = True
        env.send.command("/tickers", "", env.fake.response_url("refused"))
        env.fake.wait_for(lambda: env.fake.responses)
        (shown,) = env.fake.responses
        assert "blocks" not in shown.args and "AAPL" in shown.args["text"]
    assert "respond (response_url) failed: HTTP 400" in caplog.text


def test_footnote_ask_answers_privately(uncached, corpus_db):
    with workspace(uncached, corpus_db) as env:
        env.send.command("/footnote", "ask What was Walmart's revenue in fiscal 2024?", env.fake.response_url("ask"))
        env.fake.wait_for(lambda: env.fake.responses, timeout=60)
        args = env.fake.responses[-1].args
        assert args["response_type"] == "ephemeral"
        assert "Walmart" in args["text"] or "WMT" in args["text"]
        assert not [c for c in env.fake.calls if c.method.startswith("chat.")], "nothing posted in the channel"


def test_too_many_questions_or_too_long_a_question_get_a_polite_reply(uncached, corpus_db):
    def limited(url: str) -> Settings:
        return slack_settings(url).model_copy(update={"chat_per_user_per_minute": 2})

    with workspace(uncached, corpus_db, settings=limited) as env:
        for i in range(3):
            ts, event = env.send.mention("What was Apple's revenue in fiscal 2024?", channel="C0BUSY", user="U0EAGER")
            env.send.event(event)
        env.fake.wait_for(lambda: any("try again in about" in m.text for m in env.fake.all_messages()), timeout=60)
        ts, event = env.send.mention("What was Apple's revenue? " + "x" * 2500, channel="C0LONG", user="U0WORDY")
        env.send.event(event)
        (reply,) = env.fake.wait_for(lambda: env.fake.thread("C0LONG", ts), timeout=30)
        assert "up to 2,000" in reply.text
        assert not env.fake.calls_to("reactions.add") or all(c.args["channel"] != "C0LONG" for c in env.fake.calls_to("reactions.add"))


def _citation(n: int, item: str) -> Citation:
    return Citation(n=n, ticker="ACME", cik=1, form="10-K", fiscal_year=2024, accession="0000000001-24-000001",
                    url="https://www.sec.gov/Archives/edgar/data/1/000000000124000001/acme-10k.htm", item=item)


def test_a_table_wider_than_slack_allows_shows_every_row():
    columns = ["Metric"] + [f"FY{2000 + i}" for i in range(24)]
    rows = [[f"Line {r}"] + [f"{r * 1000 + c:,}" for c in range(24)] for r in range(18)]
    answer = Answer(kind="answer", text="Figures by year [1].", citations=[_citation(1, "8")],
                    tables=[Table(title="Wide", columns=columns, rows=rows)])
    message = blocks.answer_message(answer, thread_key="slack:T:C:1", question="q")
    assert block_problems(message["blocks"]) == [] and attachment_problems(message.get("attachments", [])) == []
    shown = "\n".join(b["text"]["text"] for b in message["blocks"] if b["type"] == "section")
    for r in range(18):
        assert f"Line {r} " in shown, f"row {r} is shown"
    assert f"{17 * 1000 + 23:,}" in shown, "the last column of the last row is shown"


def test_repeated_citations_of_one_document_collapse_to_one_marker():
    answer = Answer(kind="answer", text="Risk one [1][2]. Risk two [3].",
                    citations=[_citation(1, "1A"), _citation(2, "1A"), _citation(3, "7")])
    message = blocks.answer_message(answer, thread_key="slack:T:C:1", question="q")
    text = message["blocks"][0]["text"]["text"]
    assert text.count("[1]") == 1 and "[3]" not in text and "[2]" in text
    notes = [e["text"] for b in message["blocks"] if b["type"] == "context" for e in b["elements"] if "sec.gov" in e["text"]]
    assert "[1]" in notes[0] and "[2]" in notes[0] and "[3]" not in notes[0]


def test_when_the_checked_answer_cannot_replace_the_streamed_draft_no_draft_is_left(corpus_db, embedder):
    import openai

    from agent.planning.rules import plan_rules
    from bot.wiring import build_footnote
    from tests.fakes.fake_openai import FakeOpenAI
    from tests.test_slack import _claims_citing_the_first_fact

    with FakeOpenAI() as model:
        model.respond(_claims_citing_the_first_fact)
        client = openai.OpenAI(api_key="test-key", base_url=model.base_url, max_retries=0)
        composing = build_footnote(corpus_db, embedder, Settings(_env_file=None, FOOTNOTE_LLM="off"), llm=client,
                             planner=plan_rules, use_cache=False)
        with workspace(composing, corpus_db) as env:
            env.fake.failing["chat.update"] = "cant_update_message"
            ts, event = env.send.mention("How much revenue did Apple make in fiscal 2024?", channel="C0DRAFT")
            env.send.event(event)
            thread = final_reply(env, "C0DRAFT", ts)
            assert env.fake.calls_to("chat.startStream"), "a draft was streamed"
            (shown,) = thread
            assert shown.blocks and "sec.gov" in all_text(shown), "the checked answer, with its footnotes"
            assert not shown.streamed, "the unchecked draft is gone"
            drafts = [m for m in env.fake.messages.values() if m.channel == "C0DRAFT" and m.streamed]
            assert drafts and all(m.deleted for m in drafts)


def test_how_an_answer_was_made_is_shown_only_under_an_admins_answers(uncached, corpus_db):
    """The planner/composer line and timings go to the log and to FOOTNOTE_CHAT_ADMINS, never to
    the people asking."""
    def with_admin(api_url: str) -> Settings:
        return slack_settings(api_url).model_copy(update={"chat_admins": "U0ADMIN"})

    with workspace(uncached, corpus_db, settings=with_admin) as env:
        shown = {}
        for user in ("U0ANALYST", "U0ADMIN"):
            ts, event = env.send.mention("What was Apple's revenue in fiscal 2024?", channel=f"C0PATH{user}", user=user)
            assert env.send.event(event)[0] == 200
            (reply,) = final_reply(env, f"C0PATH{user}", ts)
            shown[user] = all_text(reply)
    assert "$391.04 billion" in shown["U0ANALYST"] and "planner:" not in shown["U0ANALYST"]
    assert "planner: rules" in shown["U0ADMIN"] and "composer: extractive" in shown["U0ADMIN"]
