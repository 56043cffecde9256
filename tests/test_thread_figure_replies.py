"""Replies to a figure that ask about something inside it ("were there any one-time charges in
there?", "what were the one-time charges?") or walk its year in shorthand ("and the yr before?")."""

from __future__ import annotations

from agent.planning.followups import back_to_figure, figure_reply
from agent.planning.in_words import prose_fallback
from agent.planning.plan import Plan
from tests.test_thread_frame import directory, planned  # noqa: F401 (its fixtures, shared)

FIGURE = Plan(route="domain", intent="numeric", tickers=["TSLA"], metrics=["revenue"], fiscal_years=[2024])


def test_a_year_in_shorthand_after_a_why_goes_back_to_the_figure():
    assert figure_reply("and the yr before?")
    why = Plan(route="domain", intent="qualitative", tickers=["TSLA"], metrics=["revenue"], fiscal_years=[2024],
               slots={"tickers": "thread", "metrics": "thread, its cause"})
    assert back_to_figure("and the yr before?", why, FIGURE) is not None


def test_a_reply_pointing_into_the_figure_with_a_subject_is_no_small_talk(directory):
    reply = planned(directory, "Tesla revenue 2024", "were there any one-time charges in there?")
    assert reply.route != "meta" and reply.tickers == ["TSLA"], reply
    for said in ("thanks!", "got it", "nice, love it"):  # acknowledgements ask nothing of the figure
        assert planned(directory, "Tesla revenue 2024", said).route == "meta", said


def _refused(slots: dict, name: str = "one-time charges") -> Plan:
    return Plan(route="refusal", intent="numeric", tickers=["TSLA"], fiscal_years=[2024], query="revenue",
                refusal_reason="unknown_metric", refusal_detail=f'"{name}"', slots=slots,
                metrics=[f"line:{name}|{name}|{name}"])


def test_a_line_a_figure_reply_names_that_no_table_maps_is_searched_in_the_threads_filing(directory):
    thread = {"tickers": "thread", "metrics": "thread", "fiscal_years": "thread"}
    prose = prose_fallback(_refused(thread), "what were the one-time charges?", directory)
    assert prose is not None and prose.intent == "qualitative" and prose.tickers == ["TSLA"]
    assert prose.fiscal_years == [2024]
    # a prose question: no figure's refusal kept on it (the composer's floor says when nothing answers)
    assert prose.unless_named is None
    # a figure's name asked fresh is refused as before; as a reply, only if no passage names it
    fresh = {"tickers": "message", "metrics": "message", "fiscal_years": "message"}
    assert prose_fallback(_refused(fresh, "adjusted ebitda"), "Tesla adjusted ebitda 2024", directory) is None
    assert prose_fallback(_refused(thread, "adjusted ebitda"), "and adjusted ebitda?", directory) is None


def test_a_reply_asking_for_a_figure_of_its_own_keeps_its_refusal(directory):
    thread = {"tickers": "thread", "metrics": "thread", "fiscal_years": "thread"}
    assert prose_fallback(_refused(thread, "churn rate"), "what was their churn rate?", directory) is None
    pointed = prose_fallback(_refused(thread, "price increases"), "how much of that came from price increases?",
                             directory)
    assert pointed is not None and pointed.intent == "qualitative"
