"""cite_check's rules: exact figures, verbatim or re-pointed or paraphrased prose, partial answers."""

from __future__ import annotations

from agent.composing.draft import Claim, Evidence
from agent.checking.guards import check_claims, check_table, number_tokens, numbers_supported

BASE = dict(ticker="AAPL", cik=320193, fiscal_year=2024, accession="0000320193-24-000123",
            url="https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm")

SUPPLY = ("The Company depends on component suppliers, many of them single sources located outside the United States. "
          "A disruption at a key supplier could delay shipments of its products.")
CYBER = ("The Company runs an information security program overseen by its Chief Information Security Officer, "
         "who reports to the Audit Committee at least once a year.")


def _evidence():
    return {
        "f:1": Evidence(id="f:1", kind="fact", value="391035000000", unit="USD", concept="us-gaap:Revenues",
                        text="Apple Inc. (AAPL) Revenue, fiscal 2024: $391.04 billion (us-gaap:Revenues, period ended 2024-09-28)", **BASE),
        "f:2": Evidence(id="f:2", kind="fact", value="180683000000", unit="USD", concept="us-gaap:GrossProfit",
                        text="Apple Inc. (AAPL) Gross profit, fiscal 2024: $180.68 billion", **BASE),
        "k:gm": Evidence(id="k:gm", kind="calc", value="46.2", unit="percent", text="Apple Inc. (AAPL) Gross margin, fiscal 2024: 46.2%", **BASE),
        "c:10": Evidence(id="c:10", kind="chunk", text=SUPPLY, item="1A", chunk_id=10, **BASE),
        "c:11": Evidence(id="c:11", kind="chunk", text=CYBER, item="1C", chunk_id=11, **BASE),
    }


def test_number_tokens_keep_scale_and_skip_labels():
    assert number_tokens("Revenue was $391.04 billion in fiscal 2024 (FY2024, Item 7 of the 10-K), up 2.0%.") == [
        "391.04billion", "2.0%"]
    assert number_tokens("1,234 shares and 5 percent") == ["1234", "5%"]


def test_a_wrong_number_is_blocked_exactly():
    ev = _evidence()
    ok = Claim(text="Apple's revenue for fiscal 2024 was $391.04 billion.", evidence_id="f:1", kind="number")
    rounded = Claim(text="Apple's revenue for fiscal 2024 was $391 billion.", evidence_id="f:1", kind="number")
    wrong = Claim(text="Apple's revenue for fiscal 2024 was $1 trillion.", evidence_id="f:1", kind="number")
    result = check_claims([ok, rounded, wrong], ev)
    assert [c.status for c in result.claims] == ["verbatim", "fail", "fail"]
    assert result.verdict() == "refuse"  # two of three failed: more than a third
    assert check_claims([ok], ev).verdict() == "ok"


def test_a_computation_may_show_its_inputs_figures():
    ev = _evidence()
    claim = Claim(text="Apple's gross margin for fiscal 2024 was 46.2% ($180.68 billion of $391.04 billion).",
                  evidence_id="k:gm", kind="number")
    result = check_claims([claim], ev, calc_inputs={"k:gm": ["f:2", "f:1"]})
    assert result.verdict() == "ok"
    assert check_claims([claim], ev).verdict() == "refuse"  # without its inputs, the other figures are unsupported


def test_tier1_verbatim_and_tier2_repointed():
    ev = _evidence()
    verbatim = Claim(text="A disruption at a key supplier could delay shipments of its products.", evidence_id="c:10")
    misattributed = Claim(text="The Company runs an information security program overseen by its Chief Information Security Officer, "
                               "who reports to the Audit Committee at least once a year.", evidence_id="c:10")
    result = check_claims([verbatim, misattributed], ev)
    assert [c.status for c in result.claims] == ["verbatim", "repointed"]
    assert result.claims[1].evidence_id == "c:11"


def test_tier3_paraphrase_passes_and_an_invention_does_not(embedder):
    ev = _evidence()
    paraphrase = Claim(text="A disruption at one of its key suppliers could delay the shipment of the Company's products.",
                       evidence_id="c:10")
    invented = Claim(text="Apple plans to build its own chip factories in Arizona next year.", evidence_id="c:10")
    result = check_claims([paraphrase, invented], ev, embedder=embedder)
    assert result.claims[0].status == "paraphrase" and result.claims[0].score >= 0.85
    assert result.claims[1].status == "fail"


def test_a_paraphrase_cannot_add_a_figure(embedder):
    ev = _evidence()
    claim = Claim(text="A disruption at a key supplier could delay shipments of its products by 30%.", evidence_id="c:10")
    result = check_claims([claim], ev, embedder=embedder)
    assert result.claims[0].status == "fail"


def test_partial_answer_drops_at_most_a_third():
    ev = _evidence()
    good = [Claim(text=SUPPLY.split(". ")[0] + ".", evidence_id="c:10"),
            Claim(text="A disruption at a key supplier could delay shipments of its products.", evidence_id="c:10"),
            Claim(text=CYBER, evidence_id="c:11")]
    bad = Claim(text="The Company expects its products to double in price.", evidence_id="c:10")
    result = check_claims([*good, bad], ev)
    assert result.verdict() == "partial"
    assert len(result.passed) == 3
    assert check_claims([good[0], bad], ev).verdict() == "refuse"


def test_table_cells_must_match_their_cited_evidence():
    ev = _evidence()
    table = {"title": "Revenue", "columns": ["Company", "Fiscal year", "Revenue"],
             "rows": [["Apple Inc. (AAPL)", "FY2024", "$391.04 billion"]], "cell_citations": [[[], [], ["f:1"]]]}
    assert check_table(table, ev, {}) == []
    table["rows"][0][2] = "$391.05 billion"
    assert check_table(table, ev, {})
    table["rows"][0][2] = "$391.04 billion"
    table["cell_citations"] = [[[], [], []]]
    assert check_table(table, ev, {})  # an uncited figure


def test_numbers_supported_lists_the_offenders():
    assert numbers_supported("It was $5.00 and 7%", ["$5.00"]) == ["7%"]


def test_money_in_prose_must_come_from_a_fact_even_in_a_whole_quoted_sentence():
    ev = _evidence()
    ev["c:12"] = Evidence(id="c:12", kind="chunk", item="7", chunk_id=12, **BASE,
                          text="Total net sales were $391.0 billion, up from the prior year. Services grew strongly.")
    whole = Claim(text="Total net sales were $391.0 billion, up from the prior year.", evidence_id="c:12")
    cut = Claim(text="Total net sales were $391.0 billion", evidence_id="c:12")  # a fragment around a figure
    own = Claim(text="Net sales reached $391.0 billion.", evidence_id="c:12")  # the figure in other words
    plain = Claim(text="Services grew strongly.", evidence_id="c:12")
    result = check_claims([whole, cut, own, plain], ev)
    assert result.claims[0].status == "fail" and "XBRL" in result.claims[0].detail  # the filing's figure is not a fact
    assert result.claims[1].status == "fail" and "XBRL" in result.claims[1].detail
    assert result.claims[2].status == "fail" and "XBRL" in result.claims[2].detail
    assert result.claims[3].status == "verbatim"


def test_an_elided_quote_is_verbatim_after_its_ellipsis():
    from agent.composing.draft import Claim, Evidence
    from agent.checking.guards import check_claims

    chunk = Evidence(id="c:1", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u", item="7",
                     text="Outlays for equipment were $4.2 billion, spent mostly on new warehouses and robotics.")
    result = check_claims([Claim(text="…spent mostly on new warehouses and robotics.", evidence_id="c:1")], {"c:1": chunk},
                          calc_inputs={}, embedder=None)
    assert [c.status for c in result.claims] == ["verbatim"]
    result = check_claims([Claim(text="…spent mostly on new offices.", evidence_id="c:1")], {"c:1": chunk},
                          calc_inputs={}, embedder=None)
    assert result.claims[0].status != "verbatim"
