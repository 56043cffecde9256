"""A quoted sentence may carry an amount only when it equals, value and scale, an XBRL fact of the
same filing, and the footnote cites that fact; any other amount keeps the clause rule."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from agent.answer import Turn
from agent.composing.compose import _candidates
from agent.composing.draft import Claim, Evidence
from agent.checking.guards import check_claims
from agent.checking.quoted_figures import amounts, verified
from bot.wiring import build_footnote
from bot.settings import Settings

BASE = dict(ticker="NVDA", cik=1045810, fiscal_year=2025, accession="0001045810-25-000023",
            url="https://www.sec.gov/Archives/edgar/data/1045810/x.htm")
CASH = "Cash provided by operating activities was $64.1 billion, and purchases of property and equipment were $3.2 billion."
GROWTH = "Revenue for fiscal 2025 was $130.5 billion, compared with $60.9 billion in fiscal 2024, an increase of 114%."


OCF, CAPEX = "us-gaap:NetCashProvidedByUsedInOperatingActivities", "us-gaap:PaymentsToAcquireProductiveAssets"


def _fact(fid: str, value: str, unit: str = "USD", concept: str = OCF, labels: str = "", **over) -> Evidence:
    return Evidence(id=fid, kind="fact", value=value, unit=unit, concept=concept,
                    text=f"NVDA {concept}{f' ({labels})' if labels else ''}, period ended 2025-01-26: {value}",
                    **{**BASE, **over})


def test_an_amount_equals_a_fact_at_its_shown_scale_only():
    cash, capex, rate = amounts(CASH + " The effective tax rate was 13.3 % for fiscal 2025.")
    assert cash.equals(Decimal("64089000000"), "USD") and capex.equals(Decimal("3236000000"), "USD") is False
    assert not cash.equals(Decimal("64189000000"), "USD")  # off by more than the last digit's rounding
    assert not cash.equals(Decimal("64089000"), "USD")  # $64.1 million is another scale
    assert not cash.equals(Decimal("64089000000"), "pure")  # a money amount is never a rate
    assert rate.equals(Decimal("0.133"), "pure") and not rate.equals(Decimal("13.3"), "USD")
    assert capex.exact and capex.equals(Decimal("3200000000"), "USD")  # two significant digits: exactly
    assert amounts("about $60 billion")[0].exact  # one significant digit, whatever its zeros
    charge = "a charge of $3 billion for restructuring"
    assert verified(charge, [("f:1", Decimal("3236000000"), "USD", "RestructuringCharges")]) is None
    assert verified(charge, [("f:1", Decimal("-3000000000"), "USD", "RestructuringCharges")]) == ["f:1"]


def test_an_amount_verifies_only_against_a_fact_it_names():
    facts = [("f:1", Decimal("64089000000"), "USD", "us-gaap:AssetsFairValueDisclosure"),
             ("f:2", Decimal("64089000000"), "USD", OCF)]
    assert verified("Cash provided by operating activities was $64.1 billion.", facts) == ["f:2"]
    labelled = [("f:3", Decimal("3236000000"), "USD", f"{CAPEX} (Purchases related to property and equipment)")]
    assert verified("Purchases of property and equipment were $3.236 billion.", labelled) == ["f:3"]  # its label
    assert verified("Marketing spend was $3.236 billion.", labelled) is None  # the value alone is not enough


def test_a_sentence_is_quoted_whole_only_when_every_amount_is_a_fact_of_its_filing():
    chunk = Evidence(id="c:1", kind="chunk", text=f"{CASH} {GROWTH}", item="7", chunk_id=1, **BASE)
    facts = [("f:1", Decimal("64089000000"), "USD", OCF),
             ("f:2", Decimal("3200000000"), "USD", f"{CAPEX} (Purchases of property and equipment)"),
             ("f:3", Decimal("130497000000"), "USD", "us-gaap:Revenues (Revenue)", "2025-01-26"),
             ("f:4", Decimal("60922000000"), "USD", "us-gaap:Revenues (Revenue)", "2024-01-28")]
    shown = [c[2] for c in _candidates([chunk], {BASE["accession"]: facts})]
    assert CASH in shown  # both amounts are the filing's facts
    assert GROWTH in shown  # so are these, and 114% is the change between them
    # with the prior year's revenue untagged, the sentence is no statement of its facts: its money is cut out
    # (and with it all the sentence said, beyond how much revenue moved), never shown unverified
    unbacked = [c[2] for c in _candidates([chunk], {BASE["accession"]: facts[:3]})]
    assert not any("$60.9" in s or "$130.5" in s for s in unbacked)
    other_filing = [c[2] for c in _candidates([chunk], {"0001045810-24-000029": facts})]
    assert CASH not in other_filing  # another filing's facts verify nothing here


def test_the_checker_holds_the_claim_to_the_facts_it_cites():
    chunk = Evidence(id="c:1", kind="chunk", text=CASH, item="7", chunk_id=1, **BASE)
    capex = dict(concept=CAPEX, labels="Purchases of property and equipment")
    ev = {"c:1": chunk, "f:1": _fact("f:1", "64089000000"), "f:2": _fact("f:2", "3200000000", **capex),
          "f:9": _fact("f:9", "3200000000", accession="0001045810-24-000029", **capex),
          "f:8": _fact("f:8", "3200000", **capex)}
    cited = Claim(text=CASH, evidence_id="c:1", figures=["f:1", "f:2"])
    assert check_claims([cited], ev).claims[0].status == "verbatim"
    for figures in (["f:1"], ["f:1", "f:9"], ["f:1", "f:8"], []):  # one unmatched, another filing's, wrong scale, none
        result = check_claims([Claim(text=CASH, evidence_id="c:1", figures=figures)], ev)
        assert result.claims[0].status == "fail" and "XBRL" in result.claims[0].detail, figures


@pytest.fixture(scope="module")
def footnote(corpus_db, embedder):
    return build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)


def test_a_quoted_amount_cites_the_fact_it_equals(footnote):
    answer = footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u",
                                  text="What does NVIDIA's fiscal 2025 10-K say about its effective tax rate?"))
    assert answer.kind == "answer", answer.text
    sentence = "The effective tax rate was 13.3% for fiscal 2025, compared with 12.0% for fiscal 2024."
    line = next(line for line in answer.text.splitlines() if sentence in line)
    quote = next(c for c in answer.citations if c.quote and "effective tax rate" in c.quote)
    assert quote.quote == sentence  # the whole sentence, in the footnote too
    facts = {c.value: c for c in answer.citations if c.concept}
    assert {"0.133", "0.12"} <= set(facts)  # both amounts cite their facts...
    assert all(f"[{facts[v].n}]" in line for v in ("0.133", "0.12"))  # ...beside the quote
    assert all(facts[v].accession == quote.accession for v in ("0.133", "0.12"))  # of the same filing
    years = {n.value: n.fiscal_year for n in answer.numbers}
    assert (years["0.133"], years["0.12"]) == (2025, 2024)  # each fact's own year, not the filing's


RATES = "As a share of net sales, interest and other, net was 1.3% in fiscal 2025 compared to 1.2% in fiscal 2024."


def test_a_percentage_is_quoted_as_written_and_cites_no_look_alike_change():
    chunk = Evidence(id="c:1", kind="chunk", text=RATES, item="7", chunk_id=1, **BASE)
    # two facts of a line whose change happens to round to 1.2%: no money amount of the sentence states them
    facts = [("f:1", Decimal("10951000000"), "USD", "us-gaap:Revenues (Net sales)", "2025-01-26"),
             ("f:2", Decimal("11081000000"), "USD", "us-gaap:Revenues (Net sales)", "2024-01-28")]
    assert verified(RATES, facts) == []  # no amount to verify, and no fact cited
    assert [c[2] for c in _candidates([chunk], {BASE["accession"]: facts})] == [RATES]  # quoted whole, as written
    checked = check_claims([Claim(text=RATES, evidence_id="c:1")], {"c:1": chunk})
    assert checked.verdict() == "ok", checked.claims
    # never in other words: a percentage no fact shows is the filing's only verbatim
    reworded = check_claims([Claim(text="Interest and other was 1.3% of sales.", evidence_id="c:1")], {"c:1": chunk})
    assert reworded.verdict() == "refuse"


def test_a_money_amount_no_fact_backs_is_still_never_quoted():
    chunk = Evidence(id="c:1", kind="chunk", text="Capital expenditures rose 12% to $4.7 billion.", item="7",
                     chunk_id=1, **BASE)
    checked = check_claims([Claim(text="Capital expenditures rose 12% to $4.7 billion.", evidence_id="c:1")],
                           {"c:1": chunk})
    assert checked.verdict() == "refuse", checked.claims
