"""A sum across two named companies, or two members said with one metric, is a formula with both operands cited;
a sum the planner could not read is never one member's figure, and two terms read as one figure are never added."""

from __future__ import annotations

from agent.planning.spoken_formulas import shared_metric
from tests.test_figures import directory, plan  # noqa: F401  (the module's directory fixture)


def test_combined_figure_of_two_companies_is_their_sum(directory):  # noqa: F811
    for text in ("combined revenue of apple and nvidia in fiscal 2024",
                 "what is the sum of Apple's and Nvidia's revenue in fiscal 2024",
                 "apple revenue plus nvidia revenue fiscal 2024",
                 "sum of apple + nvidia revenue fiscal 2024",
                 "apple plus nvidia revenue for fiscal 2024 combined"):
        p = plan(directory, text)
        assert p.intent == "derived" and len(p.definitions) == 1, (text, p)
        tree = p.definitions[0]["tree"]
        assert tree["op"] == "+" and [a["ticker"] for a in tree["args"]] == ["AAPL", "NVDA"], (text, tree)
        assert p.fiscal_years == [2024], p


def test_a_metric_said_once_for_two_names_is_given_to_each():
    assert shared_metric("combined revenue of google cloud and google services 2023") == \
        "google cloud revenue plus google services revenue 2023"
    assert shared_metric("alphabet google services + google cloud revenue 2023") == \
        "alphabet google services revenue plus google cloud revenue 2023"
    # each term names its own figure already: as written
    assert shared_metric("revenue + net income 2023") == "revenue + net income 2023"


def test_a_plus_inside_a_line_phrase_never_reads_as_one_member():
    from agent.retrieval.retrieve import _line_as_member

    key = ("line:professional visualization +|professional visualization + revenue|"
           "professional visualization + revenue|compute")
    assert _line_as_member(key) is None
    assert _line_as_member("line:data center|data center revenue|data center revenue") == "dim:revenue|data center"


def test_two_terms_read_as_one_figure_are_never_added():
    from agent.retrieval.retrieve import _added_to_itself

    member = {"metric": "dim:revenue|energy generation and storage"}
    assert _added_to_itself({"op": "+", "args": [member, dict(member)]}) is not None
    margin = {"op": "/", "args": [{"op": "-", "args": [{"metric": "revenue"}, {"metric": "cost_of_revenue"}]},
                                  {"metric": "revenue"}]}
    assert _added_to_itself(margin) is None  # revenue over a difference holding revenue: a margin, as defined


def test_names_said_together_with_combined_are_summed_but_never_a_companys_name():
    assert shared_metric("alphabet google services and google cloud revenue 2023 combined") == \
        "alphabet google services revenue plus google cloud revenue 2023"
    # an uncovered company is no member of the other: the sum is left to the companies' reading (a refusal)
    assert shared_metric("combined revenue of apple and shopify in 2023", lambda w: w.strip() in ("apple", "shopify")) \
        == "combined revenue of apple and shopify in 2023"


def test_names_holding_an_operator_or_an_and_are_left_to_the_formula_reader():
    for text in ("jnj europe + western hemisphere excluding u.s. revenue fy24",
                 "tsla automotive leasing + energy generation and storage sales revenue fy24"):
        assert shared_metric(text) == text


def test_two_terms_read_from_one_fact_are_never_added():
    from agent.retrieval.retrieve import _added_to_itself

    tree = {"op": "+", "args": [{"line": "operating loss"}, {"metric": "operating_income"}]}
    assert _added_to_itself(tree) is None  # two names...
    assert _added_to_itself(tree, lambda key: "f:42") is not None  # ...read as one fact
