"""Teams as a tenant would run it: the activity acknowledged at once and the answer delivered
afterwards, redeliveries answered once, cards within Teams' size as it counts it (UTF-16), and
👍/👎 stored. Real aiohttp endpoint, CloudAdapter and botbuilder connector against the fake one."""

from __future__ import annotations

import asyncio
import json
import time

import aiohttp
from aiohttp import web

from agent.answer import Answer, Citation, Table
from bot.settings import Settings
from bot.teams import cards
from bot.teams.app import BOT_KEY, make_app
from bot.fakes.connector import FakeConnector, activity
from tests.test_slack import footnote  # noqa: F401  (fixture: the real Footnote over the corpus)
from tests.test_teams import card_text, post_all, teams_settings


async def post_timed(app: web.Application, activities: list[dict]) -> list[tuple[int, float]]:
    """POST each activity; (status, seconds to the HTTP response). Then wait for the answers."""
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    out = []
    try:
        async with aiohttp.ClientSession() as session:
            for a in activities:
                started = time.perf_counter()
                async with session.post(f"http://127.0.0.1:{port}/api/messages", json=a) as resp:
                    out.append((resp.status, time.perf_counter() - started))
        await app[BOT_KEY].idle()
    finally:
        await runner.cleanup()
    return out


def test_the_activity_is_acknowledged_at_once_and_a_slow_answer_delivered_after(corpus_db, embedder):
    import openai

    from agent.planning.rules import plan_rules
    from bot.wiring import build_footnote
    from tests.fakes.fake_openai import FakeOpenAI, Reply
    from tests.test_slack import _claims_citing_the_first_fact

    with FakeOpenAI() as model, FakeConnector() as connector:
        model.respond(lambda recorded: Reply(json.dumps(_claims_citing_the_first_fact(recorded)), delay_s=2.5))
        client = openai.OpenAI(api_key="test-key", base_url=model.base_url, max_retries=0)
        slow = build_footnote(corpus_db, embedder, Settings(_env_file=None, FOOTNOTE_LLM="off"), llm=client, planner=plan_rules,
                        use_cache=False)
        conv = "19:general@thread.tacv2;messageid=1700000000777"
        a = activity("How much revenue did Apple make in fiscal 2024?", service_url=connector.url, mention=True,
                     conversation_type="channel", conversation_id=conv, activity_id="1700000000777")
        ((status, seconds),) = asyncio.run(post_timed(make_app(teams_settings(), slow), [a]))
        assert status in (200, 201) and seconds < 1.0, f"acknowledged in {seconds:.2f}s, not after the 2.5 s answer"
        (answer,) = connector.messages(conv)
        assert answer.reply_to == "1700000000777", "the answer goes to the question's reply chain"
        assert "$391.04 billion" in card_text(answer)
        assert answer.at - connector.typing(conv)[0].at >= 2.0, "typing showed while the model worked"


def test_a_redelivered_activity_is_answered_once(footnote):  # noqa: F811
    with FakeConnector() as connector:
        a = activity("What was Tesla's revenue in fiscal 2024?", service_url=connector.url, conversation_id="a:redelivered",
                     activity_id=f"act-redeliver-{time.monotonic_ns()}")
        statuses = asyncio.run(post_timed(make_app(teams_settings(), footnote), [a, a, a]))
        assert [s for s, _ in statuses] == [statuses[0][0]] * 3
        assert len(connector.messages("a:redelivered")) == 1


def test_feedback_buttons_store_one_vote_per_user_and_show_on_the_card(footnote, corpus_db):  # noqa: F811
    conv = "a:feedback-chat"
    with FakeConnector() as connector:
        async def session():
            app = make_app(teams_settings(), footnote)
            runner = web.AppRunner(app)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}/api/messages"

            async def post(*activities):
                async with aiohttp.ClientSession() as http:
                    for a in activities:
                        async with http.post(url, json=a) as resp:
                            assert resp.status in (200, 201)
                await app[BOT_KEY].idle()

            try:
                await post(activity("What was Walmart's revenue in fiscal 2024?", service_url=connector.url, conversation_id=conv))
                (answer,) = connector.messages(conv)
                actions = answer.card["actions"]
                assert [x["title"] for x in actions] == ["👍", "👎"] and all(x["type"] == "Action.Submit" for x in actions)
                await post(*[activity("", service_url=connector.url, conversation_id=conv, value=x["data"], replyToId=answer.id,
                                      user="29:critic") for x in (actions[1], actions[0], actions[1])])
                await post(activity("", service_url=connector.url, conversation_id=conv, value=actions[0]["data"],
                                    replyToId=answer.id, user="29:fan"))
                form = connector.messages(conv)[3].card
                assert form and {c["value"] for c in form["body"][1]["choices"]} >= {"wrong_figure", "wrong_company_year", "not_what_i_asked"}
                submit = dict(form["actions"][0]["data"], reason="wrong_figure", comment="revenue looks off")
                await post(activity("", service_url=connector.url, conversation_id=conv, value=submit, user="29:critic"))
                return answer
            finally:
                await runner.cleanup()

        answer = asyncio.run(session())
        edits = [u for u in connector.updates if u.reply_to == answer.id]
        assert edits, "the vote is shown on the card it was cast on"
        shown = next(a["content"] for a in edits[-1].activity["attachments"])
        assert [x["title"] for x in shown["actions"]] == ["👍 1", "👎 1"]
    with corpus_db.connection() as conn:
        rows = conn.execute("SELECT user_id, rating, question, reason, comment FROM feedback WHERE platform = 'teams' AND answer_ref = %s "
                            "ORDER BY user_id", (f"teams:{conv}:{answer.id}",)).fetchall()
        conn.execute("DELETE FROM feedback WHERE platform = 'teams'")  # the corpus database is shared: leave it as found
    assert rows == [("29:critic", -1, "What was Walmart's revenue in fiscal 2024?", "wrong_figure", "revenue looks off"),
                    ("29:fan", 1, "What was Walmart's revenue in fiscal 2024?", None, None)]


def test_a_large_answer_is_split_into_cards_within_the_budget_with_every_row():
    cite = Citation(n=1, ticker="ACME", cik=1, form="10-K", fiscal_year=2024, accession="0000000001-24-000001",
                    url="https://www.sec.gov/Archives/edgar/data/1/000000000124000001/acme-10k.htm", concept="us-gaap:Revenues")
    columns = ["Company"] + [f"FY{y}" for y in range(2015, 2025)]
    rows = [[f"Company {r} — ünïcødé 株式会社"] + [f"${r}.{c:02d} billion" for c in range(10)] for r in range(300)]
    answer = Answer(kind="answer", text="A wide comparison [1].", citations=[cite],
                    tables=[Table(title="Revenue", columns=columns, rows=rows, cell_citations=[[[1]] * 11 for _ in rows])])
    out = cards.answer_cards(answer, thread_key="teams:t:c", question="Compare")
    assert len(out) > 1
    assert all(cards.utf16_bytes(c) <= cards.CARD_BUDGET for c in out)
    text = "".join(json.dumps(c, ensure_ascii=False) for c in out)
    if len(out) < cards.MAX_MESSAGES:
        assert all(f"Company {r} —" in text for r in range(300)), "every row is in one of the messages"
    else:
        assert "more rows" in out[-1]["body"][0]["text"] or any("more rows" in json.dumps(c) for c in out)
    assert "Continued in the next message" in json.dumps(out[0], ensure_ascii=False)
    assert "actions" in out[-1] and all("actions" not in c for c in out[:-1])
    assert "sec.gov" in json.dumps(out[-1])


def test_an_ordinary_comparison_fits_one_card():
    cite = Citation(n=1, ticker="ACME", cik=1, form="10-K", fiscal_year=2024, accession="a", url="https://www.sec.gov/x", concept="c")
    rows = [[f"T{r}", "$1.00 billion", "$2.00 billion", "+100%"] for r in range(5)]
    answer = Answer(kind="answer", text="Compared [1].", citations=[cite],
                    tables=[Table(title="Revenue", columns=["Company", "FY2023", "FY2024", "Change"], rows=rows)])
    (one,) = cards.answer_cards(answer, thread_key="teams:t:c", question="q")
    assert cards.utf16_bytes(one) <= cards.CARD_BUDGET


def test_a_vote_that_reaches_another_process_is_shown_on_the_card(footnote, corpus_db):  # noqa: F811
    """Two endpoints on one database, as two replicas (or answer workers) are: the card is sent by
    one, the 👍 reaches the other, and the card still shows the count."""
    conv = "a:two-replicas"
    with FakeConnector() as connector:
        async def session():
            apps, urls, runners = [make_app(teams_settings(), footnote), make_app(teams_settings(), footnote)], [], []
            for app in apps:
                runner = web.AppRunner(app)
                await runner.setup()
                site = web.TCPSite(runner, "127.0.0.1", 0)
                await site.start()
                runners.append(runner)
                urls.append(f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}/api/messages")

            async def post(i, a):
                async with aiohttp.ClientSession() as http:
                    async with http.post(urls[i], json=a) as resp:
                        assert resp.status in (200, 201)
                await apps[i][BOT_KEY].idle()

            try:
                await post(0, activity("What was Walmart's revenue in fiscal 2024?", service_url=connector.url, conversation_id=conv))
                (answer,) = connector.messages(conv)
                up = answer.card["actions"][0]["data"]
                await post(1, activity("", service_url=connector.url, conversation_id=conv, value=up, replyToId=answer.id,
                                       user="29:elsewhere"))
                return answer
            finally:
                for runner in runners:
                    await runner.cleanup()

        answer = asyncio.run(session())
        edits = [u for u in connector.updates if u.reply_to == answer.id]
        assert edits, "the replica that took the vote showed it on the card the other one sent"
        shown = next(a["content"] for a in edits[-1].activity["attachments"])
        assert [x["title"] for x in shown["actions"]] == ["👍 1", "👎"]
        assert shown["body"] == answer.card["body"], "the same card, only the counts added"
    with corpus_db.connection() as conn:
        conn.execute("DELETE FROM feedback WHERE platform = 'teams'")  # the corpus database is shared: leave it as found


def test_limits_and_the_path_line_hold_in_teams_as_in_slack(footnote):  # noqa: F811
    """Per user: over the minute's limit a polite reply, an over-long question the message stating
    the cap (neither answered); the planner/composer line only under an admin's answers."""
    from agent.answer import MAX_QUESTION_CHARS

    run = time.monotonic_ns()
    settings = teams_settings(FOOTNOTE_CHAT_PER_USER_PER_MINUTE=2, FOOTNOTE_CHAT_ADMINS="29:admin")
    with FakeConnector() as connector:
        def ask(text: str, user: str, n: int) -> dict:
            return activity(text, service_url=connector.url, user=user, conversation_id=f"a:limits-{run}-{n}",
                            activity_id=f"act-limits-{run}-{n}")

        sent = [ask("What was Apple's revenue in fiscal 2024?", "29:busy", 1),
                ask("What was Tesla's revenue in fiscal 2024?", "29:busy", 2),
                ask("What was Walmart's revenue in fiscal 2024?", "29:busy", 3),  # the third in a minute
                ask("What was Apple's revenue in fiscal 2024? " + "Please. " * (MAX_QUESTION_CHARS // 8), "29:other", 4),
                ask("What was Apple's revenue in fiscal 2024?", "29:admin", 5)]
        statuses = asyncio.run(post_all(make_app(settings, footnote), sent))
        assert all(200 <= s < 300 for s in statuses)
        replies = {n: " ".join(card_text(r) for r in connector.messages(f"a:limits-{run}-{n}")) for n in range(1, 6)}
    assert "$391.04 billion" in replies[1] and "planner:" not in replies[1], "a user sees no planner/composer line"
    assert "as many as Footnote takes from one person" in replies[3] and "billion" not in replies[3]
    assert f"up to {MAX_QUESTION_CHARS:,}" in replies[4] and "billion" not in replies[4]
    assert "$391.04 billion" in replies[5] and "planner: rules" in replies[5] and "composer:" in replies[5], "an admin does"
