"""A why's answer quotes this year's change and its cause: an amount equal to an earlier year's fact only by
coincidence does not drop the sentence as last year's story, a cause told after cut amounts is quotable, and the
statement of the asked line's change said right before a quoted cause is quoted above it."""

from __future__ import annotations

from decimal import Decimal

from agent.composing.compose import _candidates, _elided, compose_extractive
from agent.composing.draft import Evidence
from agent.planning.plan import Plan

ACC = "0000000001-24-000077"


def _chunk(text: str, n: int = 1) -> Evidence:
    return Evidence(id=f"c:{n}", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession=ACC,
                    url="https://www.sec.gov/", item="7", form="10-K", text=text)


def _facts(*extra: tuple) -> dict[str, list[tuple]]:
    # most facts at the filing's own year end, fewer at the two years before
    rows = [(f"f:own{i}", Decimal(100 + i), "USD", "ZZZ Revenue", "2024-12-31") for i in range(8)]
    rows += [(f"f:prior{i}", Decimal(200 + i), "USD", "ZZZ Revenue", "2023-12-31") for i in range(5)]
    return {ACC: rows + list(extra)}


def _shown(text: str, facts: dict) -> list[str]:
    return [sentence for _, _, sentence, _ in _candidates([_chunk(text)], facts, 2024)]


def test_a_changes_size_equal_to_another_lines_earlier_fact_is_cut_not_dropped():
    said = "Net kettle interest expense decreased $120 million, primarily due to higher rates on garden cash balances."
    # a 2023 hedge loss of the same value: a coincidence, not this sentence's fact
    coincidence = ("f:hedge", Decimal("120000000"), "USD", "ZZZ us-gaap:CashFlowHedgeGainLoss (Foreign exchange)",
                   "2023-12-31")
    assert _shown(said, _facts(coincidence)) == [
        "Net kettle interest expense decreased …, primarily due to higher rates on garden cash balances."]
    # a fact that is itself last year's change of a line is last year's story told again
    change = ("f:chg", Decimal("120000000"), "USD", "ZZZ us-gaap:IncreaseDecreaseInKettleInterest", "2023-12-31")
    assert _shown(said, _facts(change)) == []


def test_a_sentence_naming_the_asked_year_is_this_years_story_whatever_its_amounts_equal():
    said = ("Revenue from Garden Media increased $1.65 billion during fiscal 2024 as compared to fiscal 2023, "
            "driven by kettle subscription demand.")
    coincidence = ("f:cost", Decimal("1646000000"), "USD", "ZZZ us-gaap:CostOfRevenue (Subscription revenue)",
                   "2022-12-31")
    assert _shown(said, _facts(coincidence)) == [
        "Revenue from Garden Media increased … during fiscal 2024 as compared to fiscal 2023, driven by kettle "
        "subscription demand."]
    # naming only earlier years, it is last year's story
    older = ("Revenue from Garden Media increased $1.65 billion during fiscal 2022, driven by kettle subscription "
             "demand.")
    assert _shown(older, _facts(coincidence)) == []


def test_a_cause_after_cut_amounts_says_enough_and_a_bare_cause_word_does_not():
    assert _elided("Other kettle income was $440 million of income compared with $106 million of income, due to "
                   "higher interest income.") == ("Other kettle income was … of income compared with … of income, "
                                                  "due to higher interest income.")
    assert _elided("Kettle sales were $5 million, primarily.") is None
    assert _elided("Kettle sales were $5 million in 2024 compared with $4 million in 2023.") is None
    # a change told as the difference of a profit and a loss says only its amounts
    assert _elided("Kettle operating income of $1.7 billion for 2024 compared to an operating loss of $1.9 billion "
                   "for 2023 represents an increase of $3.6 billion.") is None


def _why(question: str, query: str, text: str, embedder) -> list[str]:
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], query=query,
                items=["7", "8"])
    return [c.text for c in compose_extractive(question, plan, [_chunk(text)], embedder=embedder).claims]


def test_the_statement_right_before_a_cause_is_brought_when_it_tells_the_same_lines_change():
    from agent.composing.compose import _stated_before

    def before(text: str) -> tuple:
        return (0, 1, text, text)

    topic = {"kettl", "margin"}
    cause = "The kettle margin increase for the year was driven by productivity initiatives and lower freight costs."
    statement = "Kettle margin as a percentage of sales for fiscal 2024 leveraged 16 basis points compared to fiscal 2023."
    question = "what drove zed's kettle margin improvement in 2024?"
    assert _stated_before(before(statement), cause, topic, topic, 2024, question) == before(statement)
    # nothing before, or a sentence that states no change, or last year's
    assert _stated_before(None, cause, topic, topic, 2024, question) is None
    assert _stated_before(before("Kettle margin is gross profit as a share of net sales."), cause, topic, topic, 2024,
                          question) is None
    assert _stated_before(before("Kettle margin for fiscal 2022 leveraged 16 basis points."), cause, topic, topic,
                          2024, question) is None
    # a sentence that states no cause has no statement to bring
    assert _stated_before(before(statement), "Kettle margin is reported in the garden segment.", topic, topic, 2024,
                          question) is None
    # the segment's total before a sub-line's cause
    topic = {"revenu"}
    assert _stated_before(before("Revenues increased 22% organically in the garden segment."),
                          "Kettle services revenues increased, primarily due to higher spare part shipments.",
                          topic, topic, 2024, "why did zed's revenues increase in 2024?") is None
    assert _stated_before(before("Revenues increased 22% in 2024."),
                          "The increase in revenues was primarily due to higher spare part shipments.",
                          topic, topic, 2024, "why did zed's revenues increase in 2024?") == \
        before("Revenues increased 22% in 2024.")


def test_a_statement_of_another_line_or_the_other_way_is_not_brought(embedder):
    # the segment's total before a sub-line's cause: another line's statement
    text = ("Garden tools are sold in every store we operate and online. "
            "Revenues increased 22% organically in the garden segment. "
            "Kettle services revenues increased, primarily due to higher spare part shipments and shop visits.")
    quoted = _why("why did zed's kettle services revenues increase in 2024?", "kettle services revenues increase",
                  text, embedder)
    assert "Revenues increased 22% organically in the garden segment." not in quoted
    assert any(q.startswith("Kettle services revenues increased") for q in quoted)
    # a decline told right before the increase asked about
    text = ("Kettle volume for paper declined in 2024, driven by weaker demand for paper. "
            "Kettle volume increases were primarily driven by grain and intermodal shipments.")
    quoted = _why("what drove zed's kettle volume increase in 2024?", "what drove kettle volume increase", text,
                  embedder)
    assert quoted[:1] == ["Kettle volume increases were primarily driven by grain and intermodal shipments."]
