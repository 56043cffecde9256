"""The conventions an operand of a user's formula carries: its initials, balances at year end or start, prior years,
debt and its parts, and figures computed when a company does not tag them.

Why: an operand that is not exactly a known figure must be refused with its words, never approximated; the
conventions an operand may carry ("year-end inventories", "prior-year revenue", "term debt (current + non-current)",
"net income attributable to the company") are named here, apart from the parser that reads and combines operands.
"""

from __future__ import annotations

import re

from agent.retrieval.finance import DEBT_STEPS, FORMULA_PHRASES

# A balance's own words for when it is read ("inventory at year end", "year-end receivables", "accounts receivable,
# net at the end of the year", "ending inventory"; "beginning inventory", "opening equity"): the year's closing
# balance, or its opening one (the prior year-end's). Said of a flow, the words name no figure (refused as written).
_YEAR_END_WORDS = (r"(?:(?:fiscal\s+)?year\s+end(?:ing)?|end\s+of\s+(?:the\s+)?(?:fiscal\s+)?(?:year|period)|period\s+end|"
                   r"close\s+of\s+(?:the\s+)?(?:fiscal\s+)?year|balance\s+sheet\s+date)")
GROSS_INTEREST = re.compile(r"gross\s+(?P<x>interest\s+(?:expense|costs?))")  # before interest income is netted
AT_YEAR_END = re.compile(r"(?:(?:fiscal\s+)?year\s+end(?:ing)?|ending|closing|period\s+end|end\s+of\s+(?:the\s+)?(?:fiscal\s+)?"
                          r"(?:year|period))\s+(?:of\s+)?(?P<x>.+?)(?:\s+net)?|(?P<y>.+?)(?:\s+net)?\s+(?:at|as\s+of|on|for)\s+"
                          r"(?:the\s+)?(?:" + _YEAR_END_WORDS + r"|end|close)")  # "AR at end", beside "AR at start of year"
AT_YEAR_START = re.compile(r"(?:beginning|opening|start\s+of\s+(?:the\s+)?(?:fiscal\s+)?year)\s+(?:of\s+)?(?P<x>.+?)(?:\s+net)?|"
                            r"(?P<y>.+?)(?:\s+net)?\s+(?:at|as\s+of)\s+(?:the\s+)?(?:beginning|start)\s+of\s+(?:the\s+)?"
                            r"(?:fiscal\s+)?year")
# Fixed assets in an analyst's words: property, plant and equipment, net of depreciation (the fixed-asset
# turnover's balance, agent.retrieval.concepts "ppe_net")
FIXED_ASSETS = re.compile(r"(?:net\s+)?(?:fixed\s+assets?|pp&e|ppe|ppne|property\s+plant\s+(?:and|&)\s+equipment|"
                           r"property\s+(?:and|&)\s+equipment|plant\s+(?:and|&)\s+equipment)(?:\s+net)?")
# Initials analysts write for a figure inside a formula, which outside one name other things ("the CFO")
OPERAND_INITIALS = {"cfo": "operating_cash_flow", "cffo": "operating_cash_flow", "ni": "net_income",
                     "ebt": "pretax_income", "oi": "operating_income", "ta": "total_assets", "tl": "total_liabilities",
                     "cl": "current_liabilities", "ca": "current_assets", "rev": "revenue", "inv": "inventory",
                     "ar": "accounts_receivable", "ap": "accounts_payable"}
# Words that name a cash-flow row only inside a formula ("capex + acquisitions"): the row, never a look-alike of another
# statement (the goodwill roll-forward prints "Acquisitions" too, goodwill acquired rather than cash paid)
OPERAND_WORDS = {w: "acquisitions_paid" for w in (
    "acquisitions", "acquisition", "acquisition spending", "acquisition spend", "business acquisitions",
    "acquisitions net of cash acquired", "acquisitions net", "cash paid for acquisitions", "payments for acquisitions",
    "cash acquisitions", "m&a", "m&a spending", "m&a spend", "acquisition payments")}
PRIOR_YEAR = re.compile(r"(?:prior|previous|last|preceding)[\s-]+(?:fiscal\s+)?year(?:'s|s')?\s+(?P<what>.+)|"
                         r"(?P<what2>.+?)\s+(?:of|for|in)\s+the\s+(?:prior|previous|preceding)\s+(?:fiscal\s+)?year")


# A metric some companies do not tag, computed from the lines that define it (as the registry's
# gross margin falls back to revenue less cost of revenue): tried after the tagged figure.
# Several, in order: D&A where no total is tagged is the two rows a company prints for it (depreciation and
# the amortization of intangibles), else depreciation alone; the restated formula names the one computed.
_COMPUTED_WHEN_UNTAGGED = {
    "gross_profit": [{"op": "-", "args": [{"metric": "revenue"}, {"metric": "cost_of_revenue"}]}],
    "depreciation_amortization": [{"op": "+", "args": [{"metric": "depreciation"}, {"metric": "amortization_intangibles"}]},
                                  {"metric": "depreciation"}],
    "sga": [{"op": "+", "args": [{"metric": "selling_marketing"}, {"metric": "general_administrative"}]}],
    # no operating-expense total printed (agent.retrieval.concepts, its fallback): total costs and expenses less cost
    # of revenue
    "operating_expenses": [{"op": "-", "args": [{"metric": "costs_expenses_total"}, {"metric": "cost_of_revenue"}]}],
}


def on_member(node: dict, member: str) -> dict:
    """The tree with every metric operand narrowed to a member ('gross_profit' -> 'gross_profit@products')."""
    if "metric" in node:
        return {**node, "member": member}
    if "args" in node:
        return {**node, "args": [on_member(a, member) for a in node["args"]]}
    return node


def tagged_or_computed_on(metric: str, member: str) -> dict:
    """A member's figure, or, where the company tags it for the member only through the lines that define it
    (Apple tags its products' and services' net sales and cost of sales, never their gross margin), computed
    from those lines on the same member."""
    computed = _COMPUTED_WHEN_UNTAGGED.get(metric)
    node = {"metric": metric, "member": member}
    if computed is None:
        return node
    return {"op": "first", "args": [node, *(on_member(c, member) for c in computed)]}


def tagged_or_computed(metric: str) -> dict:
    computed = _COMPUTED_WHEN_UNTAGGED.get(metric)
    if computed is None:
        return {"metric": metric}
    return {"op": "first", "args": [{"metric": metric}, *computed]}


DEBT_WORDS = frozenset({"debt", "total debt", "debts", "gross debt", "total borrowings", "debt outstanding"})


# An aside that lists a balance's two parts ("(current + non-current)", "(current plus long-term portions)",
# "(short- and long-term)")
PARTS_ASIDE = re.compile(r"(?:incl(?:uding|\.)?\s+|both\s+)?(?P<a>current|short[\s-]*(?:term)?)(?:\s+portions?)?\s*"
                          r"(?:\+|plus|and|&)\s*(?P<b>non[\s-]?current|long[\s-]term)(?:\s+portions?)?", re.I)
# Debt said with its parts listed: the long-term debt whose current portion is one part
# ("debt (current + non-current)" alone may hold short-term borrowings: read as written, by the debt convention)
PARTS_DEBT = re.compile(r"(?:long\s*term|lt|term)\s+debt")


# The two balances an average is of, said beside the figure: "beginning and end(ing)", "opening and closing", "at the
# start and end of the year", "(beginning + ending)"
BOTH_ENDS = re.compile(r"^(?:the\s+)?(?:beginning|opening|start(?:ing)?)\s+(?:and|&|\+)\s+(?:end(?:ing)?|closing|year\s+end)"
                        r"(?:\s+of\s+(?:the\s+)?(?:fiscal\s+)?year)?\s+(?:(?:balances?|amounts?|values?)\s+(?:of|for)\s+)?|"
                        r"\s+(?:at|as\s+of)\s+(?:the\s+)?(?:beginning|start|opening)\s+(?:and|&)\s+(?:the\s+)?"
                        r"(?:end|close)\s+of\s+(?:the\s+)?(?:fiscal\s+)?(?:year|period)$|"
                        r"\s+(?:balances?\s+)?(?:beginning|opening)\s+(?:and|&|\+)\s+(?:end(?:ing)?|closing)(?:\s+balances?)?$")


def debt_tree(t: str) -> dict | None:
    """"debt", "total debt", "net debt" in a formula: total debt by the one convention the registry uses
    (agent.retrieval.finance.DEBT_STEPS), as alternatives tried in order; the answer restates the one
    computed. Long-term debt alone is "long-term debt", never "debt"."""
    key = "total_debt" if t in DEBT_WORDS else FORMULA_PHRASES.get(t)
    if key not in ("total_debt", "net_debt", "invested_capital"):
        return None
    alternatives = []
    for _, parts, _ in DEBT_STEPS:
        node = {"metric": parts[0]}
        for part in parts[1:]:
            node = {"op": "+", "args": [node, {"metric": part}]}
        if key == "net_debt":
            node = {"op": "-", "args": [node, {"metric": "cash"}]}
        if key == "invested_capital":  # "total capital", "invested capital": the debt plus the equity it funds
            node = {"op": "+", "args": [node, {"metric": "equity"}]}
        alternatives.append(node)
    return {"op": "first", "args": alternatives, "of": key}


# "unadjusted operating income", "reported EBITDA": the figure as the filing reports it, which is what every
# operand is (a company's adjusted measures are not in XBRL)
UNADJUSTED = re.compile(r"^(?:unadjusted|reported|gaap)\s+|\s+(?:unadjusted|as\s+reported)$")
# "net income attributable to <the company | its shareholders>": the figure attributable to the parent, which the
# net income metric is; never to noncontrolling interests, nor to common stock after preferred dividends
TO_PARENT = re.compile(r"^(net (?:income|earnings|profit)) attributable to (?!.*\b(?:non|noncontrolling|minority|"
                        r"common|preferred|participating|redeemable)\b)[\w&'. ]{1,40}$")
