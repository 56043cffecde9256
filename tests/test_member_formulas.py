"""Formulas written into a question over product, segment and region members: "<member> revenue" as
an operand, a bare member's name as a share of a total or beside members of one metric, and a member
the filing does not tag refused naming it and the members it does — never the company's total."""

from __future__ import annotations

from decimal import Decimal

import pytest

from agent.checking.guards import number_tokens
from agent.planning.formula_parse import parse_expression
from agent.planning.formula_syntax import DefinitionError
from agent.planning.formula_trees import metrics_of
from agent.planning.inline_definitions import find_inline
from agent.planning.operand_rows import INLINE
from tests.test_figures import ask, directory, footnote, plan  # noqa: F401 (fixtures)


def keys(text: str) -> list[str]:
    return metrics_of(parse_expression(text, members=INLINE))


def test_a_member_before_a_metric_is_that_members_figure_in_a_written_formula():
    assert keys("iphone net sales divided by total net sales") == ["revenue@iphone", "revenue"]
    assert keys("americas operating income minus europe operating income") == [
        "operating_income@americas", "operating_income@europe"]
    # "its revenue" after a member's figure is the member's own revenue, never the company's
    assert keys("iphone operating income as a percentage of its revenue") == ["operating_income@iphone", "revenue@iphone"]
    # a name's inner "of" / "and" belong to it; the question's verbs, years and possessives never do
    assert keys("family of apps operating income plus reality labs operating income")[0] == "operating_income@family of apps"
    assert keys("energy generation and storage revenue as a percentage of revenue")[0] == \
        "revenue@energy generation and storage"
    for words in ("calculate iphone net sales over revenue", "2023 greater china net sales over revenue",
                  "apple's iphone net sales over revenue"):
        with pytest.raises(DefinitionError):
            parse_expression(words, members=INLINE)


def test_a_bare_name_is_a_member_of_the_total_it_is_a_share_of_or_of_the_members_beside_it():
    # (the member first; a row of the company's under the name and the metric second: "franchised restaurants" as a
    # share of revenue is the row "Revenues from franchised restaurants" where no such member is reported)
    assert keys("services as a share of total net sales") == ["revenue@services", "#services revenue", "#services", "revenue"]
    assert keys("greater china as a portion of total net sales") == ["revenue@greater china", "#greater china revenue", "#greater china",
                                                                      "revenue"]
    assert keys("iphone minus mac net sales") == ["revenue@iphone", "#iphone revenue", "#iphone", "revenue@mac"]
    # a ratio that is no share ("per", "over") never makes a name a member: "revenue per employee" is refused
    for words in ("revenue per employee", "widgets over revenue", "iphone minus mac"):
        with pytest.raises(DefinitionError):
            parse_expression(words, members=INLINE)
    # outside a question's formula (a definition), a bare name stays refused as written
    with pytest.raises(DefinitionError):
        parse_expression("services as a share of total net sales", members=True)


def test_a_total_over_itself_is_never_the_formula_a_question_wrote():
    # "WhatsApp Business revenue as a fraction of total revenue" with the name left out: revenue ÷ revenue
    assert find_inline("business revenue as a fraction of total revenue") is None


def test_written_member_formulas_plan_with_the_members_named(directory):  # noqa: F811
    for text, want in (("What was Apple's iPhone as a share of total net sales in fiscal 2024?",
                        ["revenue@iphone", "#iphone revenue", "#iphone", "revenue"]),
                       ("Compute Apple's Mac as a portion of total net sales for fiscal 2024.",
                        ["revenue@mac", "#mac revenue", "#mac", "revenue"]),
                       ("Apple fiscal 2024 iPhone minus Mac net sales", ["revenue@iphone", "#iphone revenue", "#iphone", "revenue@mac"])):
        p = plan(directory, text)
        assert p.route == "domain" and p.tickers == ["AAPL"] and p.fiscal_years == [2024], (text, p)
        udf = [d for d in p.definitions if f"udf:{d['name']}" in p.metrics]
        assert len(udf) == 1 and metrics_of(udf[0]["tree"]) == want, (text, udf)


def test_that_as_a_percentage_of_total_revenue_after_a_member_is_the_members_share(directory):  # noqa: F811
    member = plan(directory, "Nvidia data center revenue fiscal 2025")
    for follow in ("what was that as a percentage of total revenue?", "and what's that as a share of total sales?"):
        share = plan(directory, follow, previous=member)
        assert share.metrics == ["udf:data center share of revenue"], (follow, share.metrics)


def test_a_members_share_of_the_total_is_computed_from_its_dimensional_fact(footnote):  # noqa: F811
    # a share asked as one is a percentage; "divided by" asks the quotient itself, a ratio
    for text, shown in (("What was Apple's iPhone as a share of total net sales in fiscal 2024?", "51.4%"),
                        ("Apple FY2024: calculate iPhone net sales divided by total net sales", "0.51")):
        answer = ask(footnote, text)
        assert answer.kind == "answer", (text, answer.text)
        assert answer.calculation and answer.calculation[0].result == shown, answer.calculation  # 201,183 ÷ 391,035
        assert "201183000000" in {n.value for n in answer.numbers}


def test_an_absent_member_in_a_formula_is_refused_naming_it_and_the_members_that_exist(footnote):  # noqa: F811
    for text in ("Apple FY2024 Vision Pro as a share of total net sales",
                 "Apple fiscal 2024 Vision Pro net sales minus iPhone net sales"):
        refused = ask(footnote, text)
        assert refused.kind == "refusal" and refused.refusal_reason == "unknown_metric", (text, refused.text)
        assert "vision pro" in refused.text.lower() and "iPhone" in refused.text, refused.text
        assert not refused.numbers and number_tokens(refused.text) == []


def test_a_slash_or_net_of_inside_a_printed_rows_name_is_no_operator():
    from agent.planning.inline_definitions import _printed_slash
    from agent.retrieval.line_items import tokens
    lines = frozenset(tokens(n) for n in ("Income/(loss) from operating investments, net", "Cost of revenue",
                                           "Interest expense, net of portion capitalized", "Total debt"))
    assert _printed_slash("boeing income/(loss) from operating investments, net 2024", lines)
    assert _printed_slash("interest expense, net of portion capitalized 2024", lines)
    assert not _printed_slash("revenue net of cost of sales 2024", lines)  # "revenue net of cost" is no row's name
    assert not _printed_slash("total debt/ebitda", lines)  # a ratio: "total debt" alone is no row with a slash
    assert not _printed_slash("debt over equity", lines)


def test_a_mix_counts_each_part_once_and_no_subtotal_no_empty_member_no_second_concept():
    from types import SimpleNamespace

    from agent.retrieval.retrieve import _mix_parts

    def cell(label, value, concept="us-gaap:Revenues"):
        return ({"label": f"Revenue ({label})", "member": f"x:{label.replace(' ', '')}Member", "concept": concept},
                SimpleNamespace(value=str(value)))

    listed = [cell("North", 60), cell("South", 30), cell("Total Reportable Segments", 90), cell("Corporate", 0),
              cell("South", 30), cell("West", 10), cell("Club", 9, "us-gaap:RevenueFromContractWithCustomer")]
    kept = [c["label"] for c, _ in _mix_parts(listed)]
    assert kept == ["Revenue (North)", "Revenue (South)", "Revenue (West)"], kept
    # a member that is the sum of others beside it (products = phones + tablets) is a subtotal, whatever its name
    summed = [cell("Phones", 50), cell("Tablets", 20), cell("Products", 70), cell("Services", 30)]
    kept = [c["label"] for c, _ in _mix_parts(summed)]
    assert kept == ["Revenue (Phones)", "Revenue (Tablets)", "Revenue (Services)"], kept
    # a "Total" member whose parts are not held beside it is a part of the mix itself
    brand = [cell("Total Brand", 96), cell("Other Brand", 4)]
    assert [c["label"] for c, _ in _mix_parts(brand)] == ["Revenue (Total Brand)", "Revenue (Other Brand)"]


def test_a_mix_whose_members_fall_far_short_of_the_total_is_refused(footnote):  # noqa: F811
    from agent.retrieval.retrieve import MIX_COVERS

    assert MIX_COVERS[0] > 50 and MIX_COVERS[1] < 200  # a subtotal beside its parts (about 200%) is never a mix
    # the fixture's Walmart tags one segment's revenue (Walmart U.S., 68% of the total): one part is no mix
    short = ask(footnote, "revenue by segment for Walmart in fiscal 2024 as a share of total")
    assert short.kind == "refusal" and "making up the total" in short.text, short.text
    # the fixture's Apple tags iPhone alone among its products (51%)
    one = ask(footnote, "what's the product mix of apple's revenue in 2024")
    assert one.kind == "refusal" and "making up the total" in one.text, one.text
