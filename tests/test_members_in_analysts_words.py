"""Segments, products and regions asked the way analysts ask: a member growing with no figure named, a
member that "brought in" money, a member whose printed name holds the line item, one member under two
QNames, a member printed as the axis word, a label printed on a two-axis row, and a row split that would
drop a word. Planner checks run on the rules planner; lookups run over the test suite's own store."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from agent.planning.companies import CompanyDirectory
from agent.planning.rules import plan_rules
from agent.retrieval.retrieve import _member_cells
from agent.retrieval.row_members import row_on_member
from agent.retrieval.segments import display_name
from store import segments as segments_store
from store.labels import replace_labels
from tests.test_companies import COVERED, SEC
from tests.test_facts import company, fact, filing

SEG, PRD = "us-gaap:StatementBusinessSegmentsAxis", "srt:ProductOrServiceAxis"
REV = "RevenueFromContractWithCustomerExcludingAssessedTax"


class _Row:
    def __init__(self, label, concept, row, dims=None):
        self.taxonomy, self.concept, self.label, self.statement = "us-gaap", concept, label, "other"
        self.table_no, self.row_no, self.negated, self.dims = 1, row, False, dims or {}


def _directory() -> CompanyDirectory:
    adobe = (796343, "ADOBE INC.", ["ADBE"])
    return CompanyDirectory.from_rows([*COVERED, adobe], [*SEC, ("ADBE", 796343, "ADOBE INC.")],
                                      {320193: [2023, 2024], 796343: [2022, 2023]})


def test_a_segment_growing_with_no_figure_named_is_ranked_by_its_revenue():
    directory = _directory()
    for question in ("which Apple segment grew fastest in fiscal 2024?", "which region grew the most for Apple in 2024?"):
        p = plan_rules(question, directory=directory)
        assert p.route == "domain" and p.intent != "qualitative", question
        assert any("revenue" in k and ("segment" in k or "region" in k) for k in p.metrics), p.metrics
    # a figure named keeps its own metric; no axis word keeps the question as it was
    assert all("revenue" not in k for k in plan_rules("which Apple segment's operating income grew fastest in 2024?",
                                                       directory=directory).metrics)


def test_what_a_thing_brought_in_is_probed_as_its_revenue_before_any_passage_search():
    p = plan_rules("how much did Subscription bring in for Adobe in fiscal 2023?", directory=_directory())
    assert p.intent == "qualitative" and p.probe == ["dim:revenue|subscription"]
    p = plan_rules("how much did the acquisition contribute to Adobe's growth in 2023?", directory=_directory())
    assert not any(k.startswith("dim:") for k in p.probe)  # no verb of selling: the search alone


def test_a_brought_in_probe_answers_only_when_it_names_a_member(db):
    from agent.retrieval.fetch import _names_member

    cik, acc = 796343, "adbe-23"
    with db.connection() as conn:
        company(conn, cik, "Adobe Inc.", ["ADBE"], "1201")
        filing(conn, cik, acc, 2023, date(2023, 12, 1))
        for member, value in (("adbe:SubscriptionRevenueMember", "18284000000"), ("us-gaap:ProductMember", "460000000")):
            fact(conn, cik, acc, "Revenues", value, date(2023, 12, 1), date(2022, 12, 3), fiscal_year=2023, dims={PRD: member})

        class Deps:
            memo: dict = {}
        adobe = {"cik": cik, "ticker": "ADBE", "name": "Adobe Inc."}
        assert _names_member(conn, Deps(), adobe, "dim:revenue|subscription", [2023])
        assert not _names_member(conn, Deps(), adobe, "dim:revenue|the acquisition", [2023])
        assert not _names_member(conn, Deps(), adobe, "dim:revenue|*product", [2023])  # a breakdown is no probe


def _tesla(conn):
    cik, acc = 1318605, "tsla-24"
    company(conn, cik, "Tesla, Inc.", ["TSLA"], "1231")
    filing(conn, cik, acc, 2024, date(2024, 12, 31))
    end, start = date(2024, 12, 31), date(2024, 1, 1)
    fact(conn, cik, acc, "Revenues", "87604000000", end, start, fiscal_year=2024, dims={SEG: "tsla:AutomotiveSegmentMember"})
    fact(conn, cik, acc, REV, "72480000000", end, start, fiscal_year=2024, dims={PRD: "tsla:AutomotiveSalesMember"})
    fact(conn, cik, acc, REV, "77070000000", end, start, fiscal_year=2024, dims={PRD: "tsla:AutomotiveRevenuesMember"})
    replace_labels(conn, acc, cik, [_Row("Automotive sales", REV, 1, {PRD: "tsla:AutomotiveSalesMember"}),
                                    _Row("Total automotive revenues", REV, 2, {PRD: "tsla:AutomotiveRevenuesMember"})])
    return {"cik": cik, "ticker": "TSLA", "name": "Tesla, Inc."}


def _value(conn, who, key, asked, fy=2024):
    cells = _member_cells(conn, None, who, key, fy, {}, asked=asked)
    assert len(cells) == 1 and cells[0][1] is not None, cells
    return Decimal(cells[0][1].value)


def test_the_member_whose_printed_name_the_question_holds_whole_wins(db):
    with db.connection() as conn:
        tesla = _tesla(conn)
        # "automotive sales": the line printed so, not the segment the metric's word "sales" also reaches
        assert _value(conn, tesla, "dim:revenue|automotive", "revenue from its automotive sales business") == Decimal("72480000000")
        # "automotive revenue" holds no printed name whole but the segment's: the segment, as before
        assert _value(conn, tesla, "dim:revenue|automotive", "tesla automotive revenue 2024") == Decimal("87604000000")


def test_one_member_under_two_qnames_with_one_figure_is_answered_two_figures_are_asked(db):
    cik, acc, acc2 = 1045810, "nvda-24", "nvda-25"
    end, start = date(2024, 1, 28), date(2023, 1, 30)
    with db.connection() as conn:
        company(conn, cik, "NVIDIA Corp", ["NVDA"], "0126")
        filing(conn, cik, acc, 2024, end, filed=date(2024, 2, 21))
        filing(conn, cik, acc2, 2025, date(2025, 1, 26), filed=date(2025, 2, 26))
        fact(conn, cik, acc, "Revenues", "47405000000", end, start, fiscal_year=2024, dims={SEG: "nvda:ComputeAndNetworkingMember"})
        fact(conn, cik, acc2, "Revenues", "47405000000", end, start, fiscal_year=2024, filed=date(2025, 2, 26),
             dims={SEG: "nvda:ComputeAndNetworkingSegmentMember"})
        nvidia = {"cik": cik, "ticker": "NVDA", "name": "NVIDIA Corp"}
        assert _value(conn, nvidia, "dim:revenue|compute and networking", "nvidia compute and networking sales") \
            == Decimal("47405000000")
        # two members printed alike with different figures: which one, never either
        fact(conn, cik, acc, "Revenues", "100", end, start, fiscal_year=2024, dims={SEG: "nvda:NetworkingMember"})
        fact(conn, cik, acc, "Revenues", "200", end, start, fiscal_year=2024, dims={SEG: "nvda:NetworkingSegmentMember"})
        cells = _member_cells(conn, None, nvidia, "dim:revenue|networking", 2024, {}, asked="nvidia networking revenue")
        assert cells[0][1] is None and cells[0][0]["members"] == ["Networking"]


def test_product_revenue_is_the_member_printed_product_unless_a_breakdown_is_asked(db):
    cik, acc = 796343, "adbe-22"
    end, start = date(2022, 12, 2), date(2021, 12, 4)
    with db.connection() as conn:
        company(conn, cik, "Adobe Inc.", ["ADBE"], "1201")
        filing(conn, cik, acc, 2022, end)
        for member, value in (("us-gaap:ProductMember", "532000000"), ("adbe:SubscriptionRevenueMember", "16388000000"),
                              ("us-gaap:ServiceOtherMember", "686000000")):
            fact(conn, cik, acc, "Revenues", value, end, start, fiscal_year=2022, dims={PRD: member})
        replace_labels(conn, acc, cik, [_Row("Product", "Revenues", 1, {PRD: "us-gaap:ProductMember"})])
        adobe = {"cik": cik, "ticker": "ADBE", "name": "Adobe Inc."}
        assert _value(conn, adobe, "dim:revenue|*product", "adobe product revenue fiscal 2022", 2022) == Decimal("532000000")
        every = _member_cells(conn, None, adobe, "dim:revenue|*product", 2022, {}, asked="adobe revenue by product 2022")
        assert len(every) == 3


def test_a_label_on_a_two_axis_row_names_the_member_its_qname_spells(db):
    cik, acc = 1652044, "goog-24"
    end, start = date(2024, 12, 31), date(2024, 1, 1)
    services, network = "goog:GoogleServicesMember", "goog:GoogleNetworkMember"
    with db.connection() as conn:
        company(conn, cik, "Alphabet Inc.", ["GOOGL"], "1231")
        filing(conn, cik, acc, 2024, end)
        fact(conn, cik, acc, REV, "304930000000", end, start, fiscal_year=2024, dims={SEG: services})
        fact(conn, cik, acc, REV, "30359000000", end, start, fiscal_year=2024, dims={SEG: services, PRD: network})
        replace_labels(conn, acc, cik, [_Row("Google Services total", REV, 1, {SEG: services}),
                                        _Row("Google Network", REV, 2, {SEG: services, PRD: network})])
        labels = segments_store.member_labels(conn, cik)
        assert "Google Network" in labels[network] and "Google Network" not in labels[services]
        alphabet = {"cik": cik, "ticker": "GOOGL", "name": "Alphabet Inc."}
        cells = _member_cells(conn, None, alphabet, "dim:revenue|network", 2024, {}, asked="google network revenue")
        assert all(ev is None or Decimal(ev.value) != Decimal("304930000000") for _, ev in cells)  # never the segment's


def test_a_row_split_never_drops_a_word_the_member_does_not_print(db):
    cik, acc = 80424, "pg-25"
    end, start = date(2025, 6, 30), date(2024, 7, 1)
    beauty = "pg:BeautySegmentMember"
    with db.connection() as conn:
        company(conn, cik, "Procter & Gamble Co", ["PG"], "0630")
        filing(conn, cik, acc, 2025, end)
        fact(conn, cik, acc, "ProfitLoss", "15000000000", end, start, fiscal_year=2025)
        fact(conn, cik, acc, "ProfitLoss", "2715000000", end, start, fiscal_year=2025, dims={SEG: beauty})
        replace_labels(conn, acc, cik, [_Row("Net earnings", "ProfitLoss", 1), _Row("Beauty", "ProfitLoss", 2, {SEG: beauty})])
        pg = {"cik": cik, "ticker": "PG", "name": "Procter & Gamble Co"}
        found = row_on_member(conn, {}, pg, "beauty net earnings", 2025)
        assert found is not None and found[1].value == Decimal("2715000000")
        # "operating" is a word member matching ignores: on the member's side it would be dropped
        assert row_on_member(conn, {}, pg, "beauty operating net earnings", 2025) is None


def test_a_member_name_is_shown_without_a_note_digit_and_as_its_qname_prints_it():
    assert display_name("srt:NorthAmericaMember", {"North American Markets 1"}, frozenset({"revenue"})) == "North American Markets"
    assert display_name("goog:GoogleServicesMember", {"Google other", "Google Services"},
                        frozenset({"revenue"})) == "Google Services"


def test_break_down_is_layout_never_a_rows_words():
    p = plan_rules("break down Apple's revenue by segment for 2024", directory=_directory())
    assert p.metrics == ["dim:revenue|*segment"]


def test_a_member_asked_for_a_figure_it_does_not_report_is_refused_saying_what_it_reports(db):
    from agent.retrieval.retrieve import _collect, _unresolved_lines

    cik, acc = 320193, "aapl-24"
    end, start = date(2024, 9, 28), date(2023, 10, 1)
    with db.connection() as conn:
        company(conn, cik, "Apple Inc.", ["AAPL"], "0928")
        filing(conn, cik, acc, 2024, end)
        fact(conn, cik, acc, REV, "201183000000", end, start, fiscal_year=2024, dims={PRD: "aapl:IPhoneMember"})
        fact(conn, cik, acc, "OperatingIncomeLoss", "67656000000", end, start, fiscal_year=2024,
             dims={SEG: "aapl:AmericasSegmentMember"})
        apple = {"cik": cik, "ticker": "AAPL", "name": "Apple Inc.", "fiscal_years": [2024]}
        _, _, cells = _collect(conn, [apple], ["dim:operating_income|iphone"])
        refusal = _unresolved_lines(cells)
        assert refusal["reason"] == "unknown_metric"
        assert "Phone reports revenue only" in refusal["detail"]  # the member exists: what it does report
        assert "Americas" in refusal["detail"]  # the members that do report it
        _, _, cells = _collect(conn, [apple], ["dim:operating_income|vision pro"])
        assert "reports" not in _unresolved_lines(cells)["detail"].split("(")[1].split(":")[0]  # no such member at all


def test_a_columns_line_names_are_never_its_members_name(db):
    # an equity-method investee's summarised balance sheet prints line names beside the investee's member:
    # "non-current assets to equity" is two lines, never the investees' equity read under "current assets"
    cik, acc = 21344, "ko-24"
    end = date(2024, 12, 31)
    investees = "us-gaap:EquityMethodInvestmentNonconsolidatedInvesteeOtherMember"
    axis = "us-gaap:EquityMethodInvestmentNonconsolidatedInvesteeAxis"
    equity = "StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest"
    with db.connection() as conn:
        company(conn, cik, "Coca Cola Co", ["KO"], "1231")
        filing(conn, cik, acc, 2024, end)
        fact(conn, cik, acc, equity, "26000000000", end, None, fiscal_year=2024)
        fact(conn, cik, acc, equity, "45800000000", end, None, fiscal_year=2024, dims={axis: investees})
        fact(conn, cik, acc, "AssetsCurrent", "30000000000", end, None, fiscal_year=2024, dims={axis: investees})
        fact(conn, cik, acc, "NoncurrentAssets", "70000000000", end, None, fiscal_year=2024, dims={axis: investees})
        replace_labels(conn, acc, cik, [_Row("Total equity", equity, 1),
                                        _Row("Current assets", "AssetsCurrent", 2, {axis: investees}),
                                        _Row("Noncurrent assets", "NoncurrentAssets", 3, {axis: investees}),
                                        _Row("Total equity", equity, 4, {axis: investees})])
        ko = {"cik": cik, "ticker": "KO", "name": "Coca Cola Co"}
        assert row_on_member(conn, {}, ko, "noncurrent assets equity", 2024) is None
        assert row_on_member(conn, {}, ko, "non current assets equity", 2024) is None
