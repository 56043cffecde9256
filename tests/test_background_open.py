"""The bots listen before the agent is built: a Slack mention is acknowledged and shown as being
worked on while the graph is still loading, and answered once it is; a build that fails is a
polite refusal, never a hang."""

from __future__ import annotations

import threading
import uuid

import pytest

from agent.answer import Turn
from agent.service import Opening
from bot.wiring import build_footnote
from bot.settings import Settings
from bot.slack.app import build_app
from bot.slack.server import serving_http
from store.errors import FootnoteError
from bot.fakes.slack_api import FakeSlack, SlackSender
from tests.test_slack import SECRET, SlackEnv, all_text, final_reply, slack_settings


def _gated(db, embedder):
    """An Opening whose build waits for the test to open the gate."""
    gate = threading.Event()

    def build():
        assert gate.wait(60)
        return build_footnote(db, embedder, Settings(_env_file=None, FOOTNOTE_LLM="off"))

    return Opening(db, build).start(), gate


def test_help_and_coverage_need_no_wait_and_answers_wait_for_the_build(corpus_db, embedder):
    opening, gate = _gated(corpus_db, embedder)
    assert "10-K" in opening.help_text()
    assert any(row["ticker"] == "AAPL" for row in opening.coverage())
    result: dict = {}
    asking = threading.Thread(target=lambda: result.update(answer=opening.answer(
        Turn(thread_key=f"t:{uuid.uuid4().hex}", user="u", text="What was Apple's revenue in fiscal 2024?"))))
    asking.start()
    asking.join(0.5)
    assert asking.is_alive() and not result, "the answer waits for the agent"
    gate.set()
    asking.join(60)
    assert result["answer"].kind == "answer" and "391.04" in result["answer"].text


def test_a_failed_build_is_an_error_for_every_caller_not_a_hang(corpus_db):
    def build():
        raise RuntimeError("graph did not compile")

    opening = Opening(corpus_db, build).start()
    for _ in range(2):
        with pytest.raises(FootnoteError, match="could not start"):
            opening.answer(Turn(thread_key="t:x", user="u", text="What was Apple's revenue in fiscal 2024?"))


def test_slack_acknowledges_and_shows_work_before_the_agent_is_built(corpus_db, embedder):
    opening, gate = _gated(corpus_db, embedder)
    with FakeSlack() as fake:
        app = build_app(slack_settings(fake.base_url), opening, corpus_db, workers=2)
        with serving_http(app) as url:
            env = SlackEnv(fake, SlackSender(url, SECRET), url, corpus_db)
            ts, event = env.send.mention("What was Apple's revenue in fiscal 2024?", channel="C0COLD")
            status, _, _ = env.send.event(event)
            assert status == 200
            fake.wait_for(lambda: fake.calls_to("reactions.add"), timeout=30)  # 👀 while still loading
            assert not fake.calls_to("reactions.remove"), "not answered before the agent exists"
            gate.set()
            reply = final_reply(env, "C0COLD", ts)[0]
            assert "$391.04 billion" in all_text(reply)
