"""The development set: it loads, every question has an expectation, and its by-class report
catches a figure about something else, a refusal that names nothing, a formula's convention."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal

import pytest

from evals import by_class, scorers
from evals.corpus import SHARED_CORPUS, document_count
from evals.dev_spec import compute, evaluate
from evals.run import score_case
from evals.sets import DATA, SET_FILES, Case, SetError, load_group, load_set, parse_line, retired
from evals.xbrl_facts import Company, FactError, fact, parse_document

# Whole ingests, subprocesses or servers: `make test-fast` leaves these out.
pytestmark = pytest.mark.slow


def test_the_dev_set_loads_with_an_expectation_per_question_and_unique_ids():
    cases = load_group("dev")
    figures = [c for c in cases if c.set == "dev_figures"]
    assert len(figures) >= 150
    assert len({c.id for c in cases}) == len(cases)
    assert {c.cls for c in figures} <= set(by_class.CLASSES)
    assert {c.cls for c in figures} >= set(by_class.CLASSES)  # every class is asked
    for c in figures:
        exp = c.expect
        if exp["answer"] == "refusal":
            assert exp.get("reason") and exp.get("names"), c.id
        elif c.kind == "derived":
            assert exp["calc"]["value"] and exp["calc"]["inputs"], c.id
        else:
            assert exp["numbers"] and all(n["value"] for n in exp["numbers"]), c.id
    refusals = [c for c in figures if c.cls in ("must_refuse", "unknown_company")]
    assert len(refusals) >= 20
    # Quarters written as must-refuse before 10-Qs were held are retired; each comes back answered,
    # the same words, expecting the figure of the exact period it names.
    quarters = [c for c in cases if c.set == "dev_quarters"]
    replaced = {c.note.removeprefix("replaces ").split(":")[0] for c in quarters}
    assert sum(1 for c in figures if c.cls == "quarterly") + len(quarters) >= 10
    assert replaced == set(retired("dev_figures")) | set(retired("dev_prose")) - {""}
    for c in quarters:
        assert c.expect["answer"] == "answer", c.id
        for n in c.expect.get("numbers", []):
            assert n["period_end"] and n["value"], c.id


def test_the_dev_set_names_both_files_and_tolerates_the_prose_file_missing(tmp_path):
    assert SET_FILES["dev"] == ("dev_figures", "dev_prose", "dev_quarters")
    shutil.copy(DATA / "dev_figures.jsonl", tmp_path / "dev_figures.jsonl")
    shutil.copy(DATA / "retired.jsonl", tmp_path / "retired.jsonl")
    assert len(load_group("dev", tmp_path)) == len(load_set("dev_figures"))
    with pytest.raises(FileNotFoundError):
        load_set("shared", tmp_path)  # only the separately written file may be missing


def test_an_id_used_by_both_files_of_a_set_is_an_error(tmp_path):
    shutil.copy(DATA / "dev_figures.jsonl", tmp_path / "dev_figures.jsonl")
    first = (DATA / "dev_figures.jsonl").read_text(encoding="utf-8").splitlines()[0]
    (tmp_path / "dev_prose.jsonl").write_text(first + "\n", encoding="utf-8")
    with pytest.raises(SetError, match="used by another file"):
        load_group("dev", tmp_path)


def test_names_must_be_words_and_alternatives_name_their_convention():
    base = {"id": "x", "kind": "refusal", "question": "q"}
    with pytest.raises(SetError):
        parse_line({**base, "expect": {"answer": "refusal", "reason": "not_covered", "names": []}}, "u", "l1")
    calc = {"value": "1", "unit": "ratio", "alternatives": [{"value": "2"}]}
    with pytest.raises(SetError):
        parse_line({"id": "y", "kind": "derived", "question": "q", "expect": {"answer": "answer", "calc": calc}}, "u", "l1")
    [c] = parse_line({**base, "class": "quarterly", "expect": {"answer": "refusal", "reason": "out_of_scope", "names": ["quarter"]}}, "u", "l1")
    assert c.cls == "quarterly"


# --- the by-class judgement ----------------------------------------------------------------

SEGMENT = {"answer": "answer", "numbers": [{"ticker": "NVDA", "fiscal_year": 2025, "value": "115186000000", "metric": "data center revenue",
                                             "concepts": ["us-gaap:Revenues"], "dims": {"srt:ProductOrServiceAxis": "nvda:DataCenterMember"}}]}


def _answer(**fields) -> dict:
    return {"kind": "answer", "text": "", "citations": [], "numbers": [], "tables": [], "calculation": [], **fields}


def _num(value: str, concept: str = "us-gaap:Revenues", ticker: str = "NVDA", fy: int = 2025) -> dict:
    return {"value": value, "unit": "USD", "concept": concept, "ticker": ticker, "fiscal_year": fy, "citation": 1}


def _record(kind: str, expect: dict, answer: dict, cls: str) -> dict:
    c = Case(id=f"t-{cls}", set="dev_figures", kind=kind, question="q", expect=expect, cls=cls)
    return {"id": c.id, "set": c.set, "kind": kind, "class": cls, "question": "q", "expect": expect, "answer": answer,
            "answerable": c.answerable, "should_refuse": c.should_refuse, "findings": score_case(c, answer, None), "latency_ms": 1.0}


def test_the_company_total_for_a_segment_is_a_wrong_figure():
    total = _record("numeric", SEGMENT, _answer(numbers=[_num("130497000000")]), "segment")
    right = _record("numeric", SEGMENT, _answer(numbers=[_num("115186000000")]), "segment")
    assert by_class.judge(total)["wrong_figure"] and not by_class.judge(total)["right"]
    assert by_class.judge(right)["right"] and not by_class.judge(right)["wrong_figure"]


def test_a_figure_where_a_refusal_was_due_is_wrong_and_a_refusal_must_name_what_is_missing():
    expect = {"answer": "refusal", "reason": "out_of_scope", "reasons": ["year_not_available"], "names": ["quarter", "three months"]}
    annual = _record("refusal", expect, _answer(numbers=[_num("60000000000")]), "quarterly")
    vague = _record("refusal", expect, {"kind": "refusal", "refusal_reason": "out_of_scope", "text": "I can't help with that."}, "quarterly")
    named = _record("refusal", expect, {"kind": "refusal", "refusal_reason": "year_not_available",
                                        "text": "I don't have figures for the three months ended June 30, 2023."}, "quarterly")
    assert by_class.judge(annual)["wrong_figure"] and not by_class.judge(annual)["refused"]
    assert by_class.judge(vague)["names_ok"] is False
    assert by_class.judge(named)["names_ok"] is True and by_class.judge(named)["reason_ok"]
    summary = by_class.summarize([annual, vague, named])
    q = summary["classes"]["quarterly"]
    assert (q["wrong_figures"], q["refused"], q["names_checked"]) == (1, 2, 2)
    assert summary["headline"]["names_ok"] == 0.5
    assert "quarterly" in by_class.markdown(summary) and "t-quarterly" in by_class.markdown(summary)


def test_a_formula_is_right_under_a_named_alternative_and_wrong_when_it_answers_another_metric():
    expect = {"answer": "answer", "calc": {"ticker": "WMT", "fiscal_year": 2025, "metric": "inventory turnover", "value": "9.193690659", "unit": "ratio",
                                           "inputs": [{"name": "cogs", "value": "511753000000"}],
                                           "alternatives": [{"convention": "ending inventory", "value": "9.06800744"}]}}
    calc = lambda result: [{"metric": "inventory turnover", "formula": "cogs / inv", "steps": [], "result": result}]  # noqa: E731
    ending = _record("derived", expect, _answer(calculation=calc("9.07")), "formula")
    revenue = _record("derived", expect, _answer(numbers=[_num("680985000000", ticker="WMT")]), "formula")
    inputs_only = _record("derived", expect, _answer(numbers=[_num("511753000000", "us-gaap:CostOfRevenue", "WMT")]), "formula")
    assert scorers.check_calc(expect, ending["answer"]).ok
    assert by_class.judge(ending)["right"]
    assert by_class.judge(revenue)["wrong_figure"]
    assert not by_class.judge(inputs_only)["wrong_figure"] and not by_class.judge(inputs_only)["right"]


# --- the expected values' tooling ----------------------------------------------------------

IXBRL = b"""<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
 xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi"><body>
<ix:header><ix:resources>
<xbrli:context id="fy"><xbrli:entity/><xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="fy-west"><xbrli:entity><xbrli:segment><xbrldi:explicitMember dimension="us-gaap:StatementBusinessSegmentsAxis">ex:WestMember</xbrldi:explicitMember></xbrli:segment></xbrli:entity>
<xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
</ix:resources></ix:header>
<table><tr><td>Widget sales</td><td>$</td><td><ix:nonFraction name="us-gaap:Revenues" contextRef="fy" unitRef="usd" decimals="-6" scale="6">1,250</ix:nonFraction></td></tr>
<tr><td>West region</td><td><ix:nonFraction name="us-gaap:Revenues" contextRef="fy-west" unitRef="usd" decimals="-6" scale="6">400</ix:nonFraction></td></tr>
<tr><td>Buybacks</td><td><ix:nonFraction name="us-gaap:PaymentsForRepurchaseOfCommonStock" contextRef="fy" unitRef="usd" decimals="-6" scale="6" sign="-">75</ix:nonFraction></td></tr></table>
</body></html>"""


def _company() -> Company:
    comp = Company("EX", "Example Corp", 1)
    from datetime import date

    from evals.xbrl_facts import Obs

    for concept, start, end, dims, value, decimals, label in parse_document(IXBRL):
        year = 2024 if date.fromisoformat(end).year == 2024 else 0
        comp.obs[(concept, dims, year, start is None)].append(Obs(concept, dims, year, start is None, value, decimals, 2024, "acc-1", label))
    return comp


def test_facts_are_read_with_their_member_and_row_label():
    comp = _company()
    total = fact(comp, "us-gaap:Revenues", 2024)
    west = fact(comp, "us-gaap:Revenues", 2024, {"us-gaap:StatementBusinessSegmentsAxis": "ex:WestMember"})
    assert (total["value"], total["label"]) == ("1250000000", "Widget sales")
    assert (west["value"], west["label"]) == ("400000000", "West region")
    assert fact(comp, "us-gaap:PaymentsForRepurchaseOfCommonStock", 2024)["value"] == "-75000000"
    with pytest.raises(FactError):
        fact(comp, "us-gaap:Revenues", 2024, {"us-gaap:StatementBusinessSegmentsAxis": "ex:EastMember"})


def test_formulas_compute_in_decimal_with_their_inputs():
    assert evaluate("(a + b) / avg(c, d)", {"a": Decimal(1), "b": Decimal(2), "c": Decimal(2), "d": Decimal(4)}) == Decimal(1)
    out = compute(_company(), 2024, "west / rev", {"west": ("Revenues", 0, {"us-gaap:StatementBusinessSegmentsAxis": "ex:WestMember"}), "rev": "Revenues"}, "percent")
    assert out["value"] == "32"
    assert [i["name"] for i in out["inputs"]] == ["west", "rev"] and out["inputs"][0]["dims"]
    with pytest.raises(ValueError):
        evaluate("__import__('os')", {})


@pytest.mark.skipif(not SHARED_CORPUS.exists(), reason="the shared corpus is not here")
def test_the_frozen_file_is_what_the_generator_writes():
    from evals.make_dev import build

    questions, _ = build(SHARED_CORPUS)
    frozen = [json.loads(line) for line in (DATA / "dev_figures.jsonl").read_text(encoding="utf-8").splitlines()]
    assert questions == frozen


def test_a_formula_the_company_reports_as_a_fact_is_right_when_equal_as_displayed():
    expect = {"answer": "answer", "calc": {"ticker": "NVDA", "fiscal_year": 2025, "metric": "effective tax rate", "value": "13.2649418037", "unit": "percent",
                                           "inputs": [{"name": "tax", "value": "11146000000"}, {"name": "pretax", "value": "84026000000"}]}}
    tagged = _record("derived", expect, _answer(numbers=[_num("0.133", "us-gaap:EffectiveIncomeTaxRateContinuingOperations")]), "formula")
    other = _record("derived", expect, _answer(numbers=[_num("0.21", "us-gaap:EffectiveIncomeTaxRateReconciliationAtFederalStatutoryIncomeTaxRate")]), "formula")
    assert by_class.judge(tagged)["right"] and not by_class.judge(tagged)["wrong_figure"]
    assert by_class.judge(other)["wrong_figure"] and not by_class.judge(other)["right"]


def test_the_corpus_count_an_eval_waits_for_holds_quarterly_filings_too(tmp_path):
    for form, ticker in (("10-K", "AAA"), ("10-K", "BBB"), ("10-Q", "AAA")):
        folder = tmp_path / "filings" / form / ticker
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{form}.htm").write_text("<html></html>")
    assert document_count(tmp_path) == 3
    (tmp_path / "filings" / "index.csv").write_text("ticker,form\nAAA,10-K\nAAA,10-Q\n")
    assert document_count(tmp_path) == 2
