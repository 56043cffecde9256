"""Slack end to end: signed HTTP requests through the real Bolt app (served on 127.0.0.1) and the
real Footnote over the fixture corpus, with a fake Slack Web API recording what users would see."""

from __future__ import annotations

import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest
from slack_sdk.models.blocks import Block

from bot.settings import Settings
from bot.slack.app import build_app
from bot.slack.server import serving_http
from bot.fakes.slack_api import BOT_ID, BOT_USER_ID, FakeSlack, SlackSender, attachment_problems, block_problems

SECRET = "test-signing-secret"


def slack_settings(api_url: str) -> Settings:
    return Settings(_env_file=None, SLACK_BOT_TOKEN="xoxb-test-token", SLACK_SIGNING_SECRET=SECRET,
                    SLACK_API_URL=api_url, FOOTNOTE_LLM="off")


@pytest.fixture(scope="module")
def footnote(corpus_db, embedder):
    from bot.wiring import build_footnote

    return build_footnote(corpus_db, embedder, Settings(_env_file=None, FOOTNOTE_LLM="off"))


@dataclass
class SlackEnv:
    fake: FakeSlack
    send: SlackSender
    url: str
    db: object


@pytest.fixture
def slack(footnote, corpus_db):
    with FakeSlack() as fake:
        app = build_app(slack_settings(fake.base_url), footnote, corpus_db, workers=4)
        with serving_http(app) as url:
            yield SlackEnv(fake, SlackSender(url, SECRET), url, corpus_db)


def final_reply(env: SlackEnv, channel: str, thread_ts: str, *, count: int = 1):
    """The thread once `count` questions in `channel` are done: removing the working reaction is
    the bot's last step (each test uses its own channel)."""

    def done():
        return len([c for c in env.fake.calls_to("reactions.remove") if c.args.get("channel") == channel]) >= count

    env.fake.wait_for(done, timeout=60)
    return env.fake.thread(channel, thread_ts)


def repeats_dropped(caplog, event_id: str) -> int:
    """Deliveries of `event_id` the bot found already claimed and dropped (reply.first_delivery
    logs each): what a test waits for instead of sleeping before it counts the replies."""
    wanted = f"dropping a repeat delivery of event {event_id}"
    return sum(1 for r in list(caplog.records) if r.getMessage() == wanted)


def all_text(message) -> str:
    parts = [message.text]
    for b in message.all_blocks:
        if b.get("type") == "section":
            parts.append(b["text"]["text"])
        elif b.get("type") == "context":
            parts.extend(e.get("text", "") for e in b["elements"])
        elif b.get("type") == "table":
            parts.extend(c.get("text", "") for row in b["rows"] for c in row)
    return "\n".join(parts)


def assert_valid_blocks(blocks: list[dict], attachments: list[dict] = ()) -> None:
    assert block_problems(blocks) == [] and attachment_problems(list(attachments)) == []
    for b in blocks + [b for a in attachments for b in a.get("blocks", []) if b["type"] != "table"]:
        Block.parse(b).validate_json()  # slack_sdk's own model checks (lengths, required fields)


def test_mention_is_answered_in_its_thread_with_footnote_links(slack, caplog):
    caplog.set_level(logging.DEBUG)
    ts, event = slack.send.mention("What was Apple's revenue in fiscal 2024?", channel="C0MENTION")
    status, _, seconds = slack.send.event(event)
    assert status == 200 and seconds < 3.0  # inside Slack's 3 s, before any answering

    thread = final_reply(slack, "C0MENTION", ts)
    assert len(thread) == 1, "the placeholder is updated in place: one message in the thread"
    reply = thread[0]
    assert reply.thread_ts == ts
    assert_valid_blocks(reply.blocks)
    text = all_text(reply)
    assert "Looking that up" not in reply.text
    assert "$391.04 billion" in text
    footnotes = [e["text"] for b in reply.all_blocks if b["type"] == "context" for e in b["elements"] if "sec.gov" in e["text"]]
    assert footnotes and footnotes[0].startswith("[1] <https://www.sec.gov/")
    assert any(b["type"] == "actions" for b in reply.all_blocks), "feedback buttons on an answer"
    assert "planner:" not in text and "composer:" not in text, "how it was made is for logs, not chat users"
    assert reply.text, "a plain-text fallback always"

    # Working was shown at once, then cleared.
    added = slack.fake.calls_to("reactions.add")
    assert [(c.args["timestamp"], c.args["name"]) for c in added] == [(ts, "eyes")]
    slack.fake.wait_for(lambda: [c for c in slack.fake.calls_to("reactions.remove") if c.args.get("channel") == "C0MENTION"])
    assert slack.fake.reactions[("C0MENTION", ts)] == set()
    assert "xoxb-test-token" not in caplog.text and SECRET not in caplog.text, "never log tokens"


def test_a_comparison_renders_a_valid_table_block(slack):
    ts, event = slack.send.mention("Compare revenue for Apple and Tesla in fiscal 2024", channel="C0TABLE")
    slack.send.event(event)
    reply = final_reply(slack, "C0TABLE", ts)[0]
    assert_valid_blocks(reply.blocks, reply.attachments)
    assert not [b for b in reply.blocks if b["type"] == "table"], "Slack documents the table block inside attachments"
    tables = [b for a in reply.attachments for b in a["blocks"] if b["type"] == "table"]
    assert len(tables) == 1
    header = [c["text"] for c in tables[0]["rows"][0]]
    assert len(header) >= 2 and len(tables[0]["rows"]) >= 3
    cells = " ".join(c["text"] for row in tables[0]["rows"] for c in row)
    assert "AAPL" in cells and "TSLA" in cells
    assert "$391.04 billion [1]" in cells and "$97.69 billion [2]" in cells


def test_follow_up_in_the_thread_needs_no_mention_and_uses_the_thread_memory(slack):
    ts, event = slack.send.mention("What was Apple's revenue in fiscal 2024?", channel="C0FOLLOW")
    slack.send.event(event)
    final_reply(slack, "C0FOLLOW", ts)

    _, follow = slack.send.message("and in fiscal 2023?", channel="C0FOLLOW", thread_ts=ts)
    slack.send.event(follow)
    thread = final_reply(slack, "C0FOLLOW", ts, count=2)
    assert len(thread) == 2
    second = all_text(thread[1])
    assert "$383.29 billion" in second, "FY2023 revenue of the company the thread is about (Apple)"

    # A message in a thread Footnote is not part of, and a top-level message, are not answered.
    other_ts, mention_free = slack.send.message("what was Apple's revenue?", channel="C0FOLLOW")
    slack.send.event(mention_free)
    _, stranger = slack.send.message("and 2022?", channel="C0FOLLOW", thread_ts=other_ts)
    slack.send.event(stranger)
    time.sleep(1.0)
    assert slack.fake.thread("C0FOLLOW", other_ts) == []


def test_direct_message_is_answered_without_a_mention(slack):
    ts, event = slack.send.message("What was NVIDIA's net income in fiscal 2024?", channel="D0DIRECT", channel_type="im")
    slack.send.event(event)
    reply = final_reply(slack, "D0DIRECT", ts)[0]
    assert reply.thread_ts == ts
    assert "$29.76 billion" in all_text(reply)


def test_a_company_not_covered_gets_a_refusal_that_looks_like_one(slack):
    ts, event = slack.send.mention("What was Microsoft's revenue in fiscal 2024?", channel="C0REFUSE")
    slack.send.event(event)
    reply = final_reply(slack, "C0REFUSE", ts)[0]
    assert_valid_blocks(reply.blocks)
    assert reply.blocks[0]["text"]["text"].startswith(":no_entry_sign: *")
    assert "/tickers" in all_text(reply)
    assert any(b["type"] == "actions" for b in reply.blocks), "a refusal can be voted on too"


def test_a_retried_event_is_answered_once(slack, caplog):
    caplog.set_level(logging.DEBUG, logger="bot.slack.reply")
    ts, event = slack.send.mention("What was Apple's net income in fiscal 2024?", channel="C0RETRY")
    event_id = "EvRETRY" + ts.replace(".", "")
    assert slack.send.event(event, event_id=event_id)[0] == 200
    for n in (1, 2, 3):
        assert slack.send.event(event, event_id=event_id, retry_num=n)[0] == 200
    final_reply(slack, "C0RETRY", ts)
    slack.fake.wait_for(lambda: repeats_dropped(caplog, event_id) == 3)
    assert len(slack.fake.thread("C0RETRY", ts)) == 1
    assert len([c for c in slack.fake.calls_to("chat.postMessage") if c.args.get("thread_ts") == ts]) == 1


def test_the_same_event_at_two_processes_is_answered_once(slack, footnote, corpus_db, caplog):
    """Two Bolt apps (as two processes would be) share the database; Slack's retry of the same
    event lands on the other one."""
    caplog.set_level(logging.DEBUG, logger="bot.slack.reply")
    with serving_http(build_app(slack_settings(slack.fake.base_url), footnote, corpus_db)) as other_url:
        ts, event = slack.send.mention("What was NVIDIA's revenue in fiscal 2025?", channel="C0TWO")
        other = SlackSender(other_url, SECRET)
        event_id = "EvTWO" + ts.replace(".", "")
        with ThreadPoolExecutor(4) as pool:
            statuses = list(pool.map(lambda s: s.event(event, event_id=event_id)[0], [slack.send, other, slack.send, other]))
        assert statuses == [200] * 4
        final_reply(slack, "C0TWO", ts)
        slack.fake.wait_for(lambda: repeats_dropped(caplog, event_id) == 3)
        assert len(slack.fake.thread("C0TWO", ts)) == 1


def test_bad_or_stale_signatures_are_refused(slack):
    _, event = slack.send.mention("What was Apple's revenue?", channel="C0SIG")
    body = json.dumps({"type": "event_callback", "event_id": "EvSIG1", "team_id": "T0FOOT", "event": event})
    assert slack.send.post(body, "application/json", signature="v0=" + "0" * 64)[0] == 401
    assert slack.send.post(body, "application/json", timestamp=int(time.time()) - 10 * 60)[0] == 401
    assert SlackSender(slack.url, "some-other-secret").post(body, "application/json")[0] == 401
    # A signed question after them is answered; had a refused one been taken, its 👀 (the first
    # thing the bot does, on the ack path) would have come first.
    signed_ts, signed = slack.send.mention("What was Apple's revenue in fiscal 2024?", channel="C0SIG")
    assert slack.send.event(signed)[0] == 200
    final_reply(slack, "C0SIG", signed_ts)
    assert [c.args["timestamp"] for c in slack.fake.calls_to("reactions.add")] == [signed_ts]
    assert [c.args.get("thread_ts") for c in slack.fake.calls_to("chat.postMessage")] == [signed_ts]


def test_own_messages_other_bots_edits_and_joins_are_ignored(slack):
    ts, event = slack.send.mention("What was Apple's revenue in fiscal 2024?", channel="C0IGNORE")
    slack.send.event(event)
    final_reply(slack, "C0IGNORE", ts)
    before = len(slack.fake.calls)
    ignored = [
        slack.send.message("Apple's revenue was ...", channel="C0IGNORE", thread_ts=ts, user=BOT_USER_ID, bot_id=BOT_ID)[1],
        slack.send.message("beep", channel="C0IGNORE", thread_ts=ts, user="U0OTHERBOT", bot_id="B0OTHER")[1],
        slack.send.message("", channel="C0IGNORE", thread_ts=ts, subtype="channel_join")[1],
        {"type": "message", "subtype": "message_changed", "channel": "C0IGNORE", "channel_type": "channel", "ts": slack.send.next_ts(),
         "message": {"type": "message", "user": "U0ANALYST", "text": "edited", "ts": ts, "thread_ts": ts}, "hidden": True},
    ]
    for e in ignored:
        assert slack.send.event(e)[0] == 200
    # A thread's turns are answered in order: once the analyst's follow-up is answered, anything
    # taken from the ignored events would have been answered before it.
    follow_ts, follow_up = slack.send.message("and its net income?", channel="C0IGNORE", thread_ts=ts)
    slack.send.event(follow_up)
    thread = final_reply(slack, "C0IGNORE", ts, count=2)
    assert len(thread) == 2
    assert [c.args["timestamp"] for c in slack.fake.calls[before:] if c.method == "reactions.add"] == [follow_ts]


def response_table(args: dict) -> dict:
    """The table block of a slash-command reply, where Slack documents it: in an attachment."""
    assert not [b for b in args.get("blocks", []) if b["type"] == "table"]
    return next(b for a in args.get("attachments", []) for b in a["blocks"] if b["type"] == "table")


def test_tickers_filings_and_help_commands(slack, footnote):
    status, _, seconds = slack.send.command("/tickers", "", slack.fake.response_url("tickers"))
    assert status == 200 and seconds < 3.0
    slack.fake.wait_for(lambda: slack.fake.responses)
    tickers = slack.fake.responses[-1].args
    assert tickers["response_type"] == "ephemeral"
    assert_valid_blocks(tickers["blocks"], tickers["attachments"])
    table = response_table(tickers)
    tickers_listed = [row[0]["text"] for row in table["rows"][1:]]
    assert sorted(tickers_listed) == ["AAPL", "NVDA", "TSLA", "WMT"]
    # years with a 10-K and years with figures only, told apart
    assert [c["text"] for c in table["rows"][0]] == ["Ticker", "Company", "10-K filings", "Figures only", "10-Q quarters"]
    apple = next(row for row in table["rows"] if row[0]["text"] == "AAPL")
    assert [c["text"] for c in apple[1:]] == ["Apple", "2023, 2024", "2019–2022", "Q3 FY2024"]
    assert "Figures only: reported figures" in json.dumps([tickers["blocks"], tickers["attachments"]], ensure_ascii=False)

    slack.send.command("/tickers", "walm", slack.fake.response_url("filtered"))
    slack.fake.wait_for(lambda: any(r.method.endswith("filtered") for r in slack.fake.responses))
    filtered = next(r for r in slack.fake.responses if r.method.endswith("filtered")).args
    rows = response_table(filtered)["rows"][1:]
    assert [r[0]["text"] for r in rows] == ["WMT"]

    slack.send.command("/filings", "aapl", slack.fake.response_url("filings"))
    slack.fake.wait_for(lambda: any(r.method.endswith("filings") for r in slack.fake.responses))
    filings = next(r for r in slack.fake.responses if r.method.endswith("filings")).args
    assert_valid_blocks(filings["blocks"], filings["attachments"])
    table = response_table(filings)
    link = table["rows"][1][-1]["elements"][0]["elements"][0]
    assert link["type"] == "link" and link["url"].startswith("https://www.sec.gov/")
    assert [row[1]["text"] for row in table["rows"][1:]] == ["2024", "Q3 2024", "2023"]  # the 10-Q's own quarter
    assert "FY2023: 10-K; FY2024: 10-K, Q3 10-Q" in json.dumps([filings["blocks"], filings["attachments"]], ensure_ascii=False)

    slack.send.command("/filings", "", slack.fake.response_url("usage"))
    slack.send.command("/filings", "ZZZZ", slack.fake.response_url("unknown"))
    slack.send.command("/footnote", "help", slack.fake.response_url("help"))
    slack.fake.wait_for(lambda: {"usage", "unknown", "help"} <= {r.method.rsplit("/", 1)[-1] for r in slack.fake.responses})
    by_name = {r.method.rsplit("/", 1)[-1]: r.args for r in slack.fake.responses}
    assert "Usage: `/filings TICKER`" in by_name["usage"]["text"]
    assert "no filings for ZZZZ" in by_name["unknown"]["text"]
    assert footnote.help_text().splitlines()[0] in by_name["help"]["text"]
    assert "mention @Footnote in a channel" in by_name["help"]["text"]
    assert_valid_blocks(by_name["help"]["blocks"])


def test_feedback_is_one_vote_per_user_shown_on_the_message_and_a_thumbs_down_asks_why(slack):
    from bot.fakes.slack_api import view_submission

    question = "What was Apple's revenue in fiscal 2024?"
    ts, event = slack.send.mention(question, channel="C0FEEDBACK")
    slack.send.event(event)
    reply = final_reply(slack, "C0FEEDBACK", ts)[0]
    buttons = next(b for b in reply.all_blocks if b["type"] == "actions")["elements"]
    value = buttons[0]["value"]
    message = {"type": "message", "ts": reply.ts, "channel": "C0FEEDBACK", "thread_ts": ts, "text": reply.text, "blocks": reply.blocks,
               "attachments": reply.attachments}

    def click(action: str, user: str, name: str):
        status, _, _ = slack.send.click(action, value, message, slack.fake.response_url(name), user=user)
        assert status == 200
        slack.fake.wait_for(lambda: any(r.method.endswith("/" + name) for r in slack.fake.responses))
        return next(r.args for r in slack.fake.responses if r.method.endswith("/" + name))

    click("feedback_up", "U0CRITIC", "v1")
    click("feedback_down", "U0CRITIC", "v2")
    click("feedback_up", "U0FAN", "v3")
    shown = click("feedback_down", "U0CRITIC", "v4")  # the same vote again: still one row

    key = f"slack:T0FOOT:C0FEEDBACK:{ts}"
    with slack.db.connection() as conn:
        rows = conn.execute("SELECT user_id, rating, question, answer FROM feedback WHERE thread_key = %s ORDER BY user_id",
                            (key,)).fetchall()
    assert [(r[0], r[1]) for r in rows] == [("U0CRITIC", -1), ("U0FAN", 1)], "one vote per user, the latest wins"
    assert rows[0][2] == question and rows[0][3]["text"] == reply.text and rows[0][3]["ts"] == reply.ts

    assert shown["replace_original"] is True, "the vote is shown on the message itself"
    labels = [e["text"]["text"] for b in shown["blocks"] + [b for a in shown.get("attachments", []) for b in a["blocks"]]
              if b["type"] == "actions" for e in b["elements"]]
    assert labels == ["👍 1", "👎 1"]

    assert len(slack.fake.views) == 2, "each 👎 opens the form asking what was wrong"
    view = slack.fake.views[-1]
    options = {o["value"] for o in view["blocks"][0]["element"]["options"]}
    assert {"wrong_figure", "wrong_company_year", "not_what_i_asked", "other"} == options
    status, _, _ = view_submission(slack.send, view, {
        "reason": {"reason_choice": {"type": "radio_buttons", "selected_option": {"value": "wrong_company_year"}}},
        "comment": {"comment_text": {"type": "plain_text_input", "value": "I meant fiscal 2023"}},
    }, user="U0CRITIC")
    assert status == 200

    def reason():
        with slack.db.connection() as conn:
            return conn.execute("SELECT reason, comment FROM feedback WHERE thread_key = %s AND user_id = 'U0CRITIC' AND reason IS NOT NULL",
                                (key,)).fetchone()

    assert slack.fake.wait_for(reason) == ("wrong_company_year", "I meant fiscal 2023")

    from store import ledger

    latest = ledger.latest_down(slack.db, 50)
    mine = next(r for r in latest if r["thread_key"] == key)
    assert mine["question"] == question and mine["reason"] == "wrong_company_year"


def _claims_citing_the_first_fact(recorded) -> dict:
    """The fake model's reply: one claim on the first fact the prompt offered, figure as displayed."""
    schema = recorded.body["response_format"]["json_schema"]["schema"]
    ids = schema["$defs"]["ModelClaim"]["properties"]["evidence_id"]["enum"]
    fact = next(i for i in ids if i.startswith("f:"))
    return {"claims": [{"text": "Apple's revenue for fiscal 2024 was $391.04 billion, as the company reported it in its annual filing.",
                        "evidence_id": fact}]}


def test_a_model_composer_streams_its_draft_then_the_verified_answer_replaces_it(corpus_db, embedder):
    import openai

    from agent.planning.rules import plan_rules
    from bot.wiring import build_footnote
    from tests.fakes.fake_openai import FakeOpenAI

    with FakeOpenAI() as model, FakeSlack() as fake:
        model.respond(_claims_citing_the_first_fact)
        client = openai.OpenAI(api_key="test-key", base_url=model.base_url, max_retries=0)
        composing = build_footnote(corpus_db, embedder, Settings(_env_file=None, FOOTNOTE_LLM="off"), llm=client,
                             planner=plan_rules, use_cache=False)
        with serving_http(build_app(slack_settings(fake.base_url), composing, corpus_db)) as url:
            env = SlackEnv(fake, SlackSender(url, SECRET), url, corpus_db)
            ts, event = env.send.mention("How much revenue did Apple make in fiscal 2024?", channel="C0STREAM")
            env.send.event(event)
            thread = final_reply(env, "C0STREAM", ts)

        started = fake.calls_to("chat.startStream")
        assert len(started) == 1 and started[0].args["thread_ts"] == ts
        assert started[0].args["recipient_user_id"] == "U0ANALYST" and started[0].args["recipient_team_id"] == "T0FOOT"
        assert fake.calls_to("chat.stopStream"), "the stream is closed"
        assert len(thread) == 1, "the placeholder is removed once the stream carries the answer"
        final = thread[0]
        assert "$391.04 billion" in final.streamed, "the model's draft was streamed"
        assert "$391.04 billion" in all_text(final)
        assert any(b["type"] == "context" and "sec.gov" in b["elements"][0]["text"] for b in final.all_blocks), \
            "the verified answer, with its footnotes, replaced the draft"
        assert_valid_blocks(final.blocks, final.attachments)


def test_a_rejected_token_fails_at_startup_with_advice_and_without_the_token(footnote, corpus_db):
    from store.errors import FootnoteError

    with FakeSlack() as fake:
        settings = Settings(_env_file=None, SLACK_BOT_TOKEN="xoxp-a-user-token-by-mistake", SLACK_SIGNING_SECRET=SECRET,
                            SLACK_API_URL=fake.base_url)
        with pytest.raises(FootnoteError) as err:
            build_app(settings, footnote, corpus_db)
    assert "not_authed" in str(err.value) and "xoxp-a-user-token-by-mistake" not in str(err.value)


def test_when_slack_refuses_the_blocks_the_plain_text_answer_still_arrives(slack, caplog):
    slack.fake.refuse_blocks = True
    ts, event = slack.send.mention("What was Apple's revenue in fiscal 2024?", channel="C0REFUSED")
    slack.send.event(event)
    slack.fake.wait_for(lambda: [m for m in slack.fake.thread("C0REFUSED", ts) if "$391.04 billion" in m.text])
    (reply,) = slack.fake.thread("C0REFUSED", ts)
    assert reply.blocks == [] and "sec.gov" in reply.text
    assert "chat.postMessage failed in slack:T0FOOT:C0REFUSED" in caplog.text and "invalid_blocks" in caplog.text
    # 👀 goes after the answer has landed: wait for that call, then check nothing else was left
    slack.fake.wait_for(lambda: [c for c in slack.fake.calls_to("reactions.remove") if c.args.get("channel") == "C0REFUSED"])
    assert slack.fake.reactions[("C0REFUSED", ts)] == set(), "👀 removed once the answer landed"


def test_a_database_outage_gets_a_polite_private_reply(make_database, embedder, caplog):
    from bot.wiring import build_footnote
    from bot import render_chat

    broken = make_database()
    footnote = build_footnote(broken, embedder, Settings(_env_file=None, FOOTNOTE_LLM="off"))
    with FakeSlack() as fake:
        app = build_app(slack_settings(fake.base_url), footnote, broken)
        broken.pool.close()  # the database goes away under a running bot
        with serving_http(app) as url:
            assert SlackSender(url, SECRET).command("/tickers", "", fake.response_url("down"))[0] == 200
            fake.wait_for(lambda: fake.responses)
    assert fake.responses[0].args["text"] == render_chat.POLITE_ERROR
    assert "a slash command failed" in caplog.text


def test_socket_mode_receives_an_event_acks_it_and_answers_in_the_thread(footnote, corpus_db):
    from bot.slack.server import socket_mode_handler
    from bot.fakes.slack_api import FakeSocketMode

    with FakeSlack() as fake, FakeSocketMode() as socket:
        fake.socket_url = socket.url
        handler = socket_mode_handler(build_app(slack_settings(fake.base_url), footnote, corpus_db), "xapp-test-app-token")
        handler.connect()
        try:
            fake.wait_for(lambda: socket.sockets)
            sender = SlackSender("unused", SECRET)
            ts, event = sender.mention("What was Tesla's revenue in fiscal 2024?", channel="C0SOCKET")
            body = {"team_id": "T0FOOT", "api_app_id": "AFOOTNOTE", "type": "event_callback", "event_id": "EvSOCKET" + ts.replace(".", ""),
                    "event_time": int(time.time()), "event": event,
                    "authorizations": [{"team_id": "T0FOOT", "user_id": BOT_USER_ID, "is_bot": True}]}
            for attempt in (0, 1):  # Slack redelivers when the ack is late: still one answer
                socket.send({"envelope_id": f"env-{attempt}", "type": "events_api", "accepts_response_payload": False,
                             "retry_attempt": attempt, "retry_reason": "timeout" if attempt else "", "payload": body})
            fake.wait_for(lambda: {a.get("envelope_id") for a in socket.acks} >= {"env-0", "env-1"})
            fake.wait_for(lambda: fake.calls_to("reactions.remove"), timeout=60)
            (reply,) = fake.thread("C0SOCKET", ts)
            assert "$97.69 billion" in all_text(reply)
        finally:
            handler.close()


def assistant_thread(slack, channel: str) -> str:
    """Open an assistant thread as Slack does in its AI-app surface; returns the thread's ts."""
    root = slack.send.next_ts()
    status, _, _ = slack.send.event({
        "type": "assistant_thread_started", "event_ts": root,
        "assistant_thread": {"user_id": "U0ANALYST", "channel_id": channel, "thread_ts": root,
                             "context": {"channel_id": "C0GENERAL", "team_id": "T0FOOT", "enterprise_id": None}},
    })
    assert status == 200
    return root


def test_an_assistant_thread_greets_then_answers_under_slacks_own_status(slack, footnote, caplog):
    caplog.set_level(logging.DEBUG, logger="bot.slack.reply")
    root = assistant_thread(slack, "D0ASSIST")
    slack.fake.wait_for(lambda: slack.fake.suggested_prompts.get(("D0ASSIST", root)))
    (greeting,) = slack.fake.thread("D0ASSIST", root)
    assert "10-K" in greeting.text
    prompts = slack.fake.suggested_prompts[("D0ASSIST", root)]
    assert all(p["title"] and p["message"] for p in prompts)
    covered = {r["display_name"] for r in footnote.coverage()}  # examples name companies the store holds
    examples = [p["message"] for p in prompts[:-1]]
    assert len(examples) == 3 and all(any(name in m for name in covered) for m in examples)

    ts, event = slack.send.message("What was Apple's revenue in fiscal 2024?", channel="D0ASSIST", channel_type="im", thread_ts=root)
    event_id = f"EvASSIST{ts.replace('.', '')}"
    for retry in (None, 1):  # a redelivery of the same event is not answered again
        assert slack.send.event(event, event_id=event_id, retry_num=retry)[0] == 200
    slack.fake.wait_for(lambda: len(slack.fake.thread("D0ASSIST", root)) >= 2, timeout=60)
    slack.fake.wait_for(lambda: repeats_dropped(caplog, event_id) == 1)
    thread = slack.fake.thread("D0ASSIST", root)
    assert len(thread) == 2, "greeting + one answer: no placeholder, no second answer"
    answer = thread[1]
    assert "$391.04 billion" in all_text(answer)
    assert_valid_blocks(answer.blocks)

    statuses = [c for c in slack.fake.calls_to("assistant.threads.setStatus") if c.args["thread_ts"] == root]
    assert statuses and {k: statuses[0].args[k] for k in ("channel_id", "thread_ts", "status")} == \
        {"channel_id": "D0ASSIST", "thread_ts": root, "status": "is looking that up…"}
    posted = next(c for c in slack.fake.calls_to("chat.postMessage") if c.args.get("channel") == "D0ASSIST" and c.args.get("blocks"))
    assert statuses[0].at < posted.at, "the status showed before the answer"
    assert ("D0ASSIST", root) not in slack.fake.assistant_status, "posting the answer cleared the status"
    assert not [c for c in slack.fake.calls_to("reactions.add") if c.args["channel"] == "D0ASSIST"]


def test_without_the_assistant_status_the_reaction_and_placeholder_show_the_work(slack):
    slack.fake.refuse_assistant = True  # no assistant:write, or a DM thread outside the AI-app surface
    root = slack.send.next_ts()
    ts, event = slack.send.message("What was NVIDIA's net income in fiscal 2024?", channel="D0NOSTATUS", channel_type="im", thread_ts=root)
    slack.send.event(event)
    (reply,) = final_reply(slack, "D0NOSTATUS", root)
    assert "$29.76 billion" in all_text(reply)
    assert [c.args["name"] for c in slack.fake.calls_to("reactions.add") if c.args["channel"] == "D0NOSTATUS"] == ["eyes"]


def test_the_manifest_declares_what_the_app_uses():
    from pathlib import Path

    import yaml

    manifest = yaml.safe_load((Path(__file__).parents[1] / "manifest.yml").read_text())
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    assert {"app_mentions:read", "chat:write", "commands", "reactions:write", "assistant:write",
            "channels:history", "groups:history", "im:history"} <= scopes
    events = set(manifest["settings"]["event_subscriptions"]["bot_events"])
    assert {"app_mention", "message.channels", "message.groups", "message.im", "assistant_thread_started"} <= events
    assert "assistant_view" in manifest["features"]
    assert {c["command"] for c in manifest["features"]["slash_commands"]} == {"/tickers", "/filings", "/footnote"}
    assert manifest["settings"]["interactivity"]["is_enabled"] and manifest["settings"]["socket_mode_enabled"]
