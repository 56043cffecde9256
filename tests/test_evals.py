"""The eval scorers are plain functions: each test shows one catching what it must catch."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from evals import by_class, display, gate, metrics, report, scorers
from evals.run import score_case
from evals.sets import DATA, Case, SetError, accepted_routes, load_set, parse_line

REVENUE = ["us-gaap:Revenues", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"]


def case(expect: dict, kind: str = "numeric") -> Case:
    return Case(id="t", set="unit", kind=kind, question="q", expect=expect)


def answer(**fields) -> dict:
    base = {"kind": "answer", "text": "", "citations": [], "numbers": [], "tables": [], "calculation": []}
    return {**base, **fields}


def number(value: str, concept: str = "us-gaap:Revenues", ticker: str = "AAPL", fy: int = 2024) -> dict:
    return {"value": value, "unit": "USD", "concept": concept, "ticker": ticker, "fiscal_year": fy, "citation": 1}


def cite(n: int = 1, **fields) -> dict:
    base = {"n": n, "ticker": "AAPL", "cik": 320193, "form": "10-K", "fiscal_year": 2024, "accession": "0000320193-24-000123", "url": "https://www.sec.gov/x"}
    return {**base, **fields}


EXPECT_REVENUE = {
    "answer": "answer",
    "numbers": [{"ticker": "AAPL", "fiscal_year": 2024, "value": "391035000000", "concepts": REVENUE, "metric": "revenue"}],
}


# --- numbers as displayed -----------------------------------------------------------------


@pytest.mark.parametrize(
    "shown,expected,ok",
    [
        ("$391.0 billion", "391035000000", True),
        ("$391.04 billion", "391035000000", True),
        ("$391.1 billion", "391035000000", False),
        ("46.2%", "46.2063", True),
        ("46.3%", "46.2063", False),
        ("(1,234)", "-1234", True),
        ("$1,234 million", "1234000000", True),
        ("1.07x", "1.0712", True),
    ],
)
def test_equals_as_displayed_has_no_tolerance_beyond_the_digits_shown(shown, expected, ok):
    assert display.equals_as_displayed(Decimal(expected), display.parse_display(shown)) is ok


# --- the numeric tripwire ------------------------------------------------------------------


def test_a_wrong_number_trips_the_tripwire():
    got = answer(numbers=[number("391035000001")], text="Revenue was $391,035,000,001 [1].")
    trips = scorers.numeric_tripwire(EXPECT_REVENUE, got)
    assert trips and "expected 391035000000" in trips[0]


def test_the_right_number_does_not_trip():
    got = answer(numbers=[number("391035000000")], text="Apple's revenue in fiscal 2024 was $391.0 billion [1].")
    assert scorers.numeric_tripwire(EXPECT_REVENUE, got) == []
    assert scorers.check_numbers(EXPECT_REVENUE, got).ok


def test_revenue_answered_with_cost_of_revenue_is_a_wrong_number_not_a_missing_one():
    got = answer(numbers=[number("210352000000", concept="us-gaap:CostOfGoodsAndServicesSold")])
    findings = scorers.check_numbers(EXPECT_REVENUE, got)
    assert findings.wrong and not findings.missing


def test_a_number_for_another_year_is_missing_not_wrong():
    got = answer(numbers=[number("383285000000", fy=2023)])
    findings = scorers.check_numbers(EXPECT_REVENUE, got)
    assert findings.missing and not findings.wrong


def test_an_unbacked_amount_in_the_text_trips_even_when_the_numbers_list_is_right():
    got = answer(numbers=[number("391035000000")], text="Revenue was $391.0 billion [1], about $400 billion next year.")
    trips = scorers.numeric_tripwire(EXPECT_REVENUE, got)
    assert any("$400 billion" in t for t in trips)


def test_years_markers_and_item_numbers_are_not_amounts():
    got = answer(numbers=[number("391035000000")], text="In FY2024 (fiscal 2024, Item 7 of the 10-K) revenue was $391.0 billion [1] [2].")
    assert scorers.stray_numbers(got) == []


def test_a_derived_figure_is_compared_as_displayed():
    expect = {"answer": "answer", "calc": {"ticker": "AAPL", "metric": "gross_margin", "value": "46.20628", "unit": "percent"}}
    right = answer(calculation=[{"metric": "gross_margin", "formula": "gp / rev", "steps": [], "result": "46.2%"}])
    wrong = answer(calculation=[{"metric": "gross_margin", "formula": "gp / rev", "steps": [], "result": "47.2%"}])
    as_ratio = answer(calculation=[{"metric": "gross_margin", "formula": "gp / rev", "steps": [], "result": "0.4621"}])
    assert scorers.check_calc(expect, right).ok
    assert scorers.check_calc(expect, as_ratio).ok
    assert scorers.numeric_tripwire(expect, wrong)


def test_numbers_claiming_to_be_facts_are_checked_against_the_store():
    got = answer(numbers=[number("1"), {"value": "46.2", "unit": "percent", "concept": "calc:gross_margin", "ticker": "AAPL", "fiscal_year": 2024}])
    stored = {("us-gaap:Revenues", "391035000000")}
    unknown = scorers.unknown_facts(got, lambda n: (n["concept"], n["value"]) in stored)
    assert len(unknown) == 1 and "us-gaap:Revenues=1" in unknown[0]


# --- prose claims --------------------------------------------------------------------------

CHUNK = "We depend on a small number of outside suppliers. Some components are available from a single source."


def test_a_verbatim_claim_is_supported_and_an_invented_one_is_not():
    good = answer(text="Some components are available from a single source.[1]", citations=[cite(item="1A", chunk_id=7, quote="Some components are available from a single source.")])
    bad = answer(text="Suppliers are never a risk for the company.[1]", citations=[cite(item="1A", chunk_id=7, quote="Suppliers are never a risk for the company.")])
    lookup = {7: CHUNK}.get
    assert scorers.unsupported_claims(good, lambda c: lookup(c["chunk_id"])) == (1, [])
    n, unsupported = scorers.unsupported_claims(bad, lambda c: lookup(c["chunk_id"]))
    assert n == 1 and len(unsupported) == 1


def test_a_true_sentence_cited_to_the_wrong_chunk_is_unsupported():
    got = answer(text="Some components are available from a single source. [1]", citations=[cite(item="1A", chunk_id=8)])
    assert scorers.unsupported_claims(got, lambda c: {8: "Unrelated text about leases."}.get(c["chunk_id"]))[1]


def test_quotes_dashes_case_and_markdown_do_not_break_a_verbatim_match():
    chunk = "The Company’s business — including its suppliers — is global."
    assert scorers.claim_supported("*the company's business - including its suppliers - is global*", None, chunk) == "verbatim"
    assert scorers.claim_supported("The Company's business … is global.", None, chunk) == "verbatim"


def test_a_paraphrase_passes_only_with_high_similarity():
    assert scorers.claim_supported("x", None, CHUNK, similar=lambda a, b: 0.9) == "paraphrase"
    assert scorers.claim_supported("x", None, CHUNK, similar=lambda a, b: 0.5) == "unsupported"


def test_claims_are_cut_at_markers_and_lines():
    text = "Risks:\n- First claim here.[1] Second claim.[2][3]\nNumbers line [4]"
    cits = [cite(1, item="1A"), cite(2, item="1A"), cite(3, item="7"), cite(4, concept="us-gaap:Revenues", value="1")]
    claims = scorers.prose_claims(answer(text=text, citations=cits))
    assert [(c.text, c.n) for c in claims] == [("- First claim here.", 1), ("Second claim.", 2), ("Second claim.", 3)]


# --- citations -----------------------------------------------------------------------------


def test_citation_to_the_wrong_company_or_concept_is_wrong():
    right = answer(numbers=[number("391035000000")], citations=[cite(concept="us-gaap:Revenues", value="391035000000")])
    other_company = answer(citations=[cite(ticker="MSFT", concept="us-gaap:Revenues", value="391035000000")])
    other_concept = answer(citations=[cite(concept="us-gaap:CostOfGoodsAndServicesSold", value="210352000000")])
    assert scorers.citation_errors(EXPECT_REVENUE, right) == (1, [])
    assert scorers.citation_errors(EXPECT_REVENUE, other_company)[1]
    assert scorers.citation_errors(EXPECT_REVENUE, other_concept)[1]


def test_a_cited_value_the_filing_does_not_report_is_a_wrong_citation():
    got = answer(citations=[cite(concept="us-gaap:Revenues", value="5")])
    assert scorers.citation_errors(EXPECT_REVENUE, got, fact_ok=lambda c: c["value"] == "391035000000")[1]


def test_prose_citation_must_be_the_expected_item_and_filing():
    expect = {"answer": "answer", "evidence": [{"ticker": "AAPL", "fiscal_year": 2024, "item": "1A", "phrase": "single source"}]}
    assert scorers.citation_errors(expect, answer(citations=[cite(item="1A")])) == (1, [])
    assert scorers.citation_errors(expect, answer(citations=[cite(item="7")]))[1]
    assert scorers.citation_errors(expect, answer(citations=[cite(item="1A", fiscal_year=2023)]))[1]


# --- refusals and routes -------------------------------------------------------------------


def test_a_refusal_on_an_answerable_question_is_a_false_refusal():
    refused = {"kind": "refusal", "refusal_reason": "no_grounding", "text": "I can't"}
    assert scorers.false_refusal(case(EXPECT_REVENUE), refused)
    assert not scorers.false_refusal(case(EXPECT_REVENUE), answer(numbers=[number("391035000000")]))


def test_an_answer_to_a_must_refuse_question_is_a_missed_refusal():
    expect = {"answer": "refusal", "reason": "unknown_metric"}
    assert scorers.refusal_missed(case(expect, "refusal"), answer(text="EBITDA was $1"))
    assert not scorers.refusal_missed(case(expect, "refusal"), {"kind": "refusal", "refusal_reason": "unknown_metric", "numbers": []})


def test_a_refusal_that_leaks_a_figure_is_not_a_refusal():
    expect = {"answer": "refusal", "reason": "unknown_metric"}
    leaky = {"kind": "refusal", "refusal_reason": "unknown_metric", "numbers": [number("1")]}
    assert scorers.refusal_missed(case(expect, "refusal"), leaky)


def test_wrong_reason_and_route_are_caught():
    expect = {"answer": "refusal", "reason": "out_of_scope"}
    got = {"kind": "refusal", "refusal_reason": "no_company", "route": "domain"}
    assert not scorers.reason_ok(expect, got)
    assert not scorers.route_ok(expect, got)
    assert accepted_routes({"answer": "refusal", "reason": "not_covered"}) == ["domain", "refusal"]
    assert scorers.route_ok({"answer": "meta"}, {"kind": "meta"})


def test_forbidden_text_is_caught():
    assert scorers.forbidden_hits({"forbid": ["$1 trillion"]}, {"text": "Revenue was $1 Trillion."}) == ["$1 trillion"]


# --- retrieval -----------------------------------------------------------------------------


def test_recall_at_k_looks_only_at_the_top_k():
    retrieved = [5, 6, 7, 8, 9, 10, 11]
    assert scorers.recall_at_k(retrieved, {9}, 5)
    assert not scorers.recall_at_k(retrieved, {10}, 5)
    assert scorers.recall_at_k(retrieved, {10}, 8)
    assert not scorers.recall_at_k(retrieved, set(), 8)


def test_retrieved_falls_back_to_cited_chunks():
    assert scorers.retrieved_ids({"retrieved": [], "citations": [cite(chunk_id=4), cite(2, chunk_id=4), cite(3, chunk_id=2)]}) == [4, 2]


def test_evidence_matches_a_phrase_or_all_keywords():
    assert scorers.evidence_matches({"phrase": "single  SOURCE"}, CHUNK)
    assert scorers.evidence_matches({"keywords": ["suppliers", "single source"]}, CHUNK)
    assert not scorers.evidence_matches({"keywords": ["suppliers", "tariffs"]}, CHUNK)


# --- a whole case, metrics and the gate ------------------------------------------------------


def test_score_case_lists_every_failure():
    c = case(EXPECT_REVENUE)
    bad = answer(numbers=[number("1")], citations=[cite(ticker="MSFT", concept="us-gaap:Revenues", value="1")], text="Revenue was $1 [1].")
    findings = score_case(c, bad, None)
    assert {"tripwire", "citation_errors"} <= set(findings["failures"])
    good = answer(numbers=[number("391035000000")], citations=[cite(concept="us-gaap:Revenues", value="391035000000")], text="Revenue was $391.0 billion [1].", route="domain")
    assert score_case(c, good, None)["failures"] == []


def _record(kind, expect, got, answerable=True, should_refuse=False):
    c = Case(id=kind, set="unit", kind=kind, question="q", expect=expect)
    return {"id": c.id, "set": "unit", "kind": kind, "answerable": c.answerable, "should_refuse": c.should_refuse, "answer": got, "latency_ms": 10.0, "findings": score_case(c, got, None), "expect": expect, "question": "q"}


def test_the_gate_fails_on_one_wrong_number_and_passes_clean_runs():
    good = answer(numbers=[number("391035000000")], citations=[cite(concept="us-gaap:Revenues", value="391035000000")], text="Revenue was $391.0 billion [1].", route="domain")
    refusal = {"kind": "refusal", "refusal_reason": "unknown_metric", "route": "refusal", "text": "no", "numbers": []}
    clean = [_record("numeric", EXPECT_REVENUE, good), _record("refusal", {"answer": "refusal", "reason": "unknown_metric"}, refusal)]
    assert gate.evaluate(metrics.summarize(clean))["passed"]
    dirty = clean + [_record("numeric", EXPECT_REVENUE, answer(numbers=[number("391035000001")], route="domain"))]
    result = gate.evaluate(metrics.summarize(dirty))
    assert not result["passed"]
    assert [r["rule"] for r in result["gate"] if not r["ok"]] == ["numeric_tripwire_max"]


def test_the_gate_fails_when_a_must_refuse_question_is_answered():
    answered = answer(text="EBITDA was great", route="domain")
    run = [_record("refusal", {"answer": "refusal", "reason": "unknown_metric"}, answered)]
    result = gate.evaluate(metrics.summarize(run))
    assert "refusal_precision_min" in [r["rule"] for r in result["gate"] if not r["ok"]]


def test_thresholds_file_holds_the_issue_thresholds():
    rules = gate.load_thresholds()["gate"]
    assert rules["numeric_tripwire_max"] == 0
    assert rules["refusal_precision_min"] == 1.0
    assert rules["unsupported_rate_below"] == 0.01
    assert rules["false_refusal_rate_below"] == 0.05
    assert rules["citation_accuracy_min"] == 0.95


# --- the sets themselves -------------------------------------------------------------------


def test_a_malformed_line_is_rejected():
    with pytest.raises(SetError):
        parse_line({"id": "x", "kind": "numeric", "question": "q", "expect": {"answer": "answer"}}, "unit", "line 1")
    with pytest.raises(SetError):
        parse_line({"id": "x", "kind": "refusal", "question": "q", "expect": {"answer": "refusal", "reason": "nope"}}, "unit", "line 1")


@pytest.mark.parametrize("name", ["golden", "adversarial", "threads", "shared"])
def test_every_set_loads(name):
    assert load_set(name)


def test_the_golden_set_covers_every_kind_and_refusal_reason():
    cases = load_set("golden")
    assert len(cases) >= 80
    assert {c.kind for c in cases} >= {"numeric", "derived", "compare", "trend", "qualitative", "meta", "refusal"}
    reasons = {c.expect.get("reason") for c in cases if c.should_refuse}
    assert reasons >= {"no_company", "not_covered", "year_not_available", "unknown_metric", "out_of_scope", "no_grounding"}
    # No two companies in the fixture ticker map share a name: ambiguity is tested on the real map.
    shared = load_set("shared")
    assert "ambiguous_company" in {c.expect.get("reason") for c in shared if c.should_refuse}
    assert len(shared) >= 60


def test_reports_render_the_gate_the_tables_and_the_worst_failures(tmp_path):
    good = answer(numbers=[number("391035000000")], citations=[cite(concept="us-gaap:Revenues", value="391035000000")], text="Revenue was $391.0 billion [1].", route="domain")
    bad = answer(numbers=[number("5")], text="Revenue was $5 [1].", route="domain", citations=[cite(concept="us-gaap:Revenues", value="5")])
    records = [_record("numeric", EXPECT_REVENUE, good), {**_record("numeric", EXPECT_REVENUE, bad), "id": "bad-one"}]
    for r in records:
        r.update(thread=None, turn=0, tags=[], note="", traceback=None)
    summary = metrics.summarize_all(records)
    results = {"title": "unit", "started": "now", "duration_s": 1.0, "corpus": {}, "metrics": summary,
               "gate": gate.evaluate(summary["overall"]), "records": records}
    paths = report.write(results, tmp_path, "unit")
    md = paths["markdown"].read_text()
    assert "Gate: FAILED" in md and "numeric_tripwire_max" in md and "`bad-one`" in md
    page = paths["html"].read_text()
    assert page.count("<svg") >= 4 and "bad-one" in page and "expected 391035000000" in page


def test_a_held_out_sets_report_names_failures_without_their_questions(tmp_path):
    bad = answer(numbers=[number("5")], text="Revenue was $5 [1].", route="domain", citations=[cite(concept="us-gaap:Revenues", value="5")])
    record = {**_record("numeric", EXPECT_REVENUE, bad), "id": "held-one", "question": "a question nobody tuning may read",
              "class": "line_item", "thread": None, "turn": 0, "tags": [], "note": "", "traceback": None}
    summary = metrics.summarize_all([record])
    results = {"title": "unit", "started": "now", "duration_s": 1.0, "corpus": {}, "metrics": summary,
               "gate": gate.evaluate(summary["overall"]), "records": [record], "held_out": True,
               "by_class": by_class.summarize([record])}
    paths = report.write(results, tmp_path, "unit")
    for page in (paths["markdown"].read_text(), paths["html"].read_text()):
        assert "held-one" in page or "line_item" in page
        assert "nobody tuning may read" not in page and "Revenue was $5" not in page
    assert "`held-one`" in paths["markdown"].read_text()


def test_a_question_naming_a_filing_needs_a_citation_to_that_filing():
    expect = {"answer": "answer", "numbers": [{"ticker": "NVDA", "fiscal_year": 2024, "value": "11.93", "concepts": ["us-gaap:EarningsPerShareDiluted"], "filing_fy": 2024}]}
    named = cite(ticker="NVDA", concept="us-gaap:EarningsPerShareDiluted", value="11.93", fiscal_year=2024)
    latest = cite(ticker="NVDA", concept="us-gaap:EarningsPerShareDiluted", value="11.93", fiscal_year=2025)
    assert scorers.citation_errors(expect, answer(citations=[named])) == (1, [])
    assert "names the FY2024 10-K" in scorers.citation_errors(expect, answer(citations=[latest]))[1][0]


# --- the shared set's ground truth ------------------------------------------------------------


def _obs(filing_fy, concept, value, decimals=None, accession="a"):
    return {"filing_fy": filing_fy, "accession": f"{accession}{filing_fy}", "concept": concept, "value": Decimal(value), "decimals": decimals, "source": "ixbrl"}


def test_ground_truth_takes_the_most_recent_filing_after_a_split():
    from evals.xbrl_truth import resolve

    record, note = resolve("eps_diluted", [_obs(2024, "EarningsPerShareDiluted", "11.93", 2), _obs(2025, "EarningsPerShareDiluted", "1.19", 2)])
    assert record["value"] == "1.19" and "restated" in record["tags"] and "11.93" in note


def test_ground_truth_prefers_the_precise_value_over_a_rounded_repeat():
    from evals.xbrl_truth import resolve

    record, _ = resolve("cash", [_obs(2025, "CashAndCashEquivalentsAtCarryingValue", "9037000000", -6), _obs(2025, "CashAndCashEquivalentsAtCarryingValue", "9000000000", -8)])
    assert record["value"] == "9037000000"
    conflict, note = resolve("cash", [_obs(2025, "CashAndCashEquivalentsAtCarryingValue", "9037000000", -6), _obs(2025, "CashAndCashEquivalentsAtCarryingValue", "8000000000", -8)])
    assert conflict is None and "disagree" in note


def test_ground_truth_takes_total_revenues_and_skips_disagreeing_rnd_concepts():
    from evals.xbrl_truth import resolve

    record, _ = resolve("revenue", [_obs(2025, "RevenueFromContractWithCustomerExcludingAssessedTax", "674538000000", -6), _obs(2025, "Revenues", "680985000000", -6)])
    assert record["value"] == "680985000000" and "concept-choice" in record["tags"]
    skipped, _ = resolve("rnd", [_obs(2024, "ResearchAndDevelopmentExpense", "1841000000", -6), _obs(2024, "ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost", "17232000000", -6)])
    assert skipped is None


def test_ground_truth_reads_inline_xbrl_scale_sign_and_dimensions():
    from evals.xbrl_truth import parse_ixbrl

    doc = b"""<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi"><body>
    <ix:header><ix:resources>
      <xbrli:context id="d"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:startDate>2023-10-01</xbrli:startDate><xbrli:endDate>2024-09-28</xbrli:endDate></xbrli:period></xbrli:context>
      <xbrli:context id="s"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier><xbrli:segment><xbrldi:explicitMember dimension="a:B">a:C</xbrldi:explicitMember></xbrli:segment></xbrli:entity><xbrli:period><xbrli:startDate>2023-10-01</xbrli:startDate><xbrli:endDate>2024-09-28</xbrli:endDate></xbrli:period></xbrli:context>
    </ix:resources></ix:header>
    <ix:nonFraction name="us-gaap:NonoperatingIncomeExpense" contextRef="d" unitRef="usd" scale="6" decimals="-6" sign="-">269</ix:nonFraction>
    <ix:nonFraction name="us-gaap:Revenues" contextRef="d" unitRef="usd" scale="6" decimals="-6">391,035</ix:nonFraction>
    <ix:nonFraction name="us-gaap:Revenues" contextRef="s" unitRef="usd" scale="6" decimals="-6">201,183</ix:nonFraction>
    </body></html>"""
    facts = {f[0]: f[3] for f in parse_ixbrl(doc)["facts"]}
    assert facts == {"us-gaap:NonoperatingIncomeExpense": Decimal("-269000000"), "us-gaap:Revenues": Decimal("391035000000")}


def _table_answer(cell: str) -> dict:
    return answer(
        text="Research and development expense, fiscal 2024, from XBRL facts:",
        numbers=[number("31370000000", "us-gaap:ResearchAndDevelopmentExpense"), number("8675000000", "us-gaap:ResearchAndDevelopmentExpense", "NVDA")],
        citations=[cite(1, concept="us-gaap:ResearchAndDevelopmentExpense", value="31370000000"),
                   cite(2, ticker="NVDA", concept="us-gaap:ResearchAndDevelopmentExpense", value="8675000000")],
        tables=[{"title": "R&D", "columns": ["Company", "Fiscal year", "R&D"],
                 "rows": [["Apple Inc. (AAPL)", "FY2024", "$31.37 billion"], ["NVIDIA CORP (NVDA)", "FY2024", cell]],
                 "cell_citations": [[[], [], [1]], [[], [], [2]]]}],
    )


def test_a_table_cell_must_show_the_value_it_cites():
    assert scorers.table_mismatches(_table_answer("$8.68 billion")) == []
    wrong = scorers.table_mismatches(_table_answer("$31.37 billion"))  # right number, wrong row's citation
    assert wrong and "row 2" in wrong[0]
    assert scorers.numeric_tripwire({"answer": "answer"}, _table_answer("$9.68 billion"))


def test_amounts_in_the_answers_own_words_are_checked_even_beside_quotes():
    mixed = answer(
        text="Tesla's revenue for fiscal 2024 was $98.69 billion. [1]\n\n- Revenue depends heavily on deliveries, up 12% in one quarter. [2]",
        numbers=[number("97690000000", ticker="TSLA")],
        citations=[cite(1, ticker="TSLA", concept="us-gaap:Revenues", value="97690000000"), cite(2, ticker="TSLA", item="1A", quote="Revenue depends heavily on deliveries, up 12% in one quarter.", chunk_id=3)],
    )
    assert scorers.stray_numbers(mixed) == ["$98.69 billion"]  # the quote's 12% is the claim check's business


def test_a_thread_with_a_turn_about_a_missing_company_is_skipped_whole():
    """On a partly ingested corpus, a thread is asked whole or not at all: its first turns alone
    would be scored as a whole thread, and a turn after a skipped one lacks what it refers to."""
    from evals.cli import split_by_coverage

    def turn(n, ticker):
        return Case(id=f"t#{n}", set="dev", kind="numeric", question=f"q{n}", thread="t", turn=n,
                    expect={"answer": "answer", "numbers": [{"ticker": ticker, "fiscal_year": 2024, "value": "1"}]})

    alone = Case(id="one", set="dev", kind="numeric", question="q",
                 expect={"answer": "answer", "numbers": [{"ticker": "AAPL", "fiscal_year": 2024, "value": "1"}]})
    keep, skip = split_by_coverage([turn(1, "AAPL"), turn(2, "AAPL"), turn(3, "NFLX"), alone], {"AAPL"})
    assert [c.id for c in keep] == ["one"]
    assert [s["id"] for s in skip] == ["t#1", "t#2", "t#3"] and skip[2]["missing"] == ["NFLX"]


def test_a_retired_question_is_dropped_by_id_and_a_retirement_of_nothing_is_an_error(tmp_path):
    from evals.sets import retired

    (tmp_path / "golden.jsonl").write_text(
        json.dumps({"id": "keep", "kind": "refusal", "question": "q", "expect": {"answer": "refusal", "reason": "unknown_metric"}}) + "\n"
        + json.dumps({"id": "t", "turns": [{"question": "a", "kind": "meta", "expect": {"answer": "meta"}},
                                           {"question": "b", "kind": "meta", "expect": {"answer": "meta"}}]}) + "\n")
    retire = {"file": "golden", "id": "t", "because": "the requirement changed", "replaced_by": "n-1"}
    (tmp_path / "retired.jsonl").write_text(json.dumps(retire) + "\n")
    assert [c.id for c in load_set("golden", tmp_path)] == ["keep"]  # every turn of the thread goes
    assert retired("golden", tmp_path) == {"t": "the requirement changed"}
    assert retired("adversarial", tmp_path) == {}
    (tmp_path / "retired.jsonl").write_text(json.dumps({**retire, "id": "typo"}) + "\n")
    with pytest.raises(SetError, match="typo"):
        load_set("golden", tmp_path)
    (tmp_path / "retired.jsonl").write_text(json.dumps({k: v for k, v in retire.items() if k != "because"}) + "\n")
    with pytest.raises(SetError, match="because"):
        load_set("golden", tmp_path)
