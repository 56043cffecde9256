"""Derived metrics: a deterministic Decimal formula registry, and the one way numbers are displayed.

Why: the model never does arithmetic. Every derived figure is computed here from cited facts,
with `Decimal` only (no float anywhere), and comes with a trace the user can check. The same
`display_value` renders facts and results for the composers and for cite_check, so "equal as
displayed" is a plain string comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
import re
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from agent.answer import Calculation
from agent.retrieval.concepts import METRICS, PHRASES, find_phrases, normalize
from agent.retrieval.ratio_catalogue import ALIASES, CATALOGUE, HUNDRED, computed_variants, suffixed

BILLION = Decimal(10) ** 9
MILLION = Decimal(10) ** 6
_EXACT = Decimal("1E-10")  # results are kept to 10 decimal places; display rounds further


class FormulaError(ValueError):
    """An input is missing or makes the formula meaningless (e.g. a zero denominator)."""


@dataclass(frozen=True)
class Input:
    metric: str  # key of agent.retrieval.concepts.METRICS
    offset: int = 0  # fiscal-year offset from the asked year: -1 is the prior year
    exclude: tuple[str, ...] = ()  # concepts of the metric this input never takes (read as no fact)


# The long-term debt concept that includes its current maturities (the taxonomy's LongTermDebt): added to a
# current-debt line, it would count the current maturities twice (GameStop FY2023: 28.5 + 10.8 for 28.5)
DEBT_WITH_CURRENT = ("us-gaap:LongTermDebt",)


def _ltd() -> Input:
    """Long-term debt as one part of a sum with the current debt: never the concept that already holds it."""
    return Input("long_term_debt", exclude=DEBT_WITH_CURRENT)


@dataclass(frozen=True)
class Formula:
    key: str
    label: str
    synonyms: tuple[str, ...]
    inputs: tuple[Input, ...]
    unit: str  # display unit of the result: percent, ratio, USD
    expression: str  # "Gross profit ÷ Revenue"
    fn: Callable[..., Decimal]
    operator: str = "÷"  # how the trace joins two inputs
    fallback: str | None = None  # another formula to try when an input has no fact
    query: str = ""  # retrieval words for "why did it change?"

    def compute(self, values: Sequence[Decimal]) -> Decimal:
        if len(values) != len(self.inputs):
            raise FormulaError(f"{self.key} needs {len(self.inputs)} inputs, got {len(values)}")
        for v in values:
            if not isinstance(v, Decimal):
                raise FormulaError(f"{self.key}: inputs must be Decimal, got {type(v).__name__}")
        try:
            result = self.fn(*values)
        except (ZeroDivisionError, InvalidOperation) as exc:
            raise FormulaError(f"{self.key}: {exc.__class__.__name__}") from exc
        return result.quantize(_EXACT, rounding=ROUND_HALF_UP)


def _ratio_pct(a: Decimal, b: Decimal) -> Decimal:
    if b == 0:
        raise FormulaError("zero denominator")
    return a / b * HUNDRED


def _ratio(a: Decimal, b: Decimal) -> Decimal:
    if b == 0:
        raise FormulaError("zero denominator")
    return a / b


def _growth(current: Decimal, prior: Decimal) -> Decimal:
    if prior == 0:
        raise FormulaError("prior-year value is zero")
    return (current - prior) / abs(prior) * HUNDRED


def _margin_from_cost(revenue: Decimal, cost: Decimal) -> Decimal:
    if revenue == 0:
        raise FormulaError("zero revenue")
    return (revenue - cost) / revenue * HUNDRED


_REVENUE_WORDS = ("revenue", "revenues", "sales", "net sales", "total revenue")


def _share_of_revenue(bases: Sequence[str], named_ratio: bool = True) -> list[str]:
    out = []
    for b in bases:
        for r in _REVENUE_WORDS:
            out += [f"{b} as a % of {r}", f"{b} as % of {r}", f"{b} % of {r}", f"{b} as a percentage of {r}",
                    f"{b} as percentage of {r}", f"{b} as a percent of {r}", f"{b} percent of {r}",
                    f"{b} percentage of {r}", f"{b} to {r}", f"{b} to {r} ratio", f"{b} as a share of {r}",
                    f"{b} relative to {r}", f"{b} share of {r}", f"{b} as pct of {r}", f"{b} as a pct of {r}",
                    f"{b} pct of {r}"]
        out += [f"{b} intensity"] + ([f"{b} ratio"] if named_ratio else [])
    return out


def _f(key, label, synonyms, inputs, unit, expression, fn, operator="÷", fallback=None, query=""):
    return Formula(key, label, tuple(synonyms), tuple(inputs), unit, expression, fn, operator, fallback,
                   query or label.lower())


_BASE: list[Formula] = [
    _f("gross_margin", "Gross margin",
       ["gross margin", "gross margins", "gross profit margin", "gross margin percentage", "gross margin %",
        "gm%", "gm %", "gross margin rate"],
       [Input("gross_profit"), Input("revenue")], "percent", "Gross profit ÷ Revenue", _ratio_pct,
       fallback="gross_margin_from_cost", query="gross margin percentage"),
    _f("gross_margin_from_cost", "Gross margin", [],
       [Input("revenue"), Input("cost_of_revenue")], "percent", "(Revenue − Cost of revenue) ÷ Revenue",
       _margin_from_cost, operator="−", query="gross margin percentage"),
    _f("operating_margin", "Operating margin",
       ["operating margin", "operating margins", "operating profit margin", "operating income margin",
        "op margin", "unadjusted operating margin", "unadjusted operating income margin"],
       [Input("operating_income"), Input("revenue")], "percent", "Operating income ÷ Revenue", _ratio_pct),
    _f("net_margin", "Net margin",
       ["net margin", "net margins", "net profit margin", "profit margin", "net income margin", "profit margins"],
       [Input("net_income"), Input("revenue")], "percent", "Net income ÷ Revenue", _ratio_pct),
    _f("rd_pct_revenue", "R&D as % of revenue",
       _share_of_revenue(["r&d", "research and development", "r&d spending", "r&d expense", "r&d spend"]),
       [Input("rd"), Input("revenue")], "percent", "R&D ÷ Revenue", _ratio_pct,
       query="research and development expense as a percentage of net sales"),
    _f("sga_pct_revenue", "SG&A as % of revenue",
       _share_of_revenue(["sg&a", "sga", "selling general and administrative"]),
       [Input("sga"), Input("revenue")], "percent", "SG&A ÷ Revenue", _ratio_pct, fallback="sga_pct_revenue_parts"),
    _f("sga_pct_revenue_parts", "SG&A as % of revenue", [],
       [Input("selling_marketing"), Input("general_administrative"), Input("revenue")], "percent",
       "(Sales and marketing + General and administrative) ÷ Revenue (SG&A as the two rows the company prints; "
       "no SG&A total reported)",
       lambda sm, ga, rev: _ratio_pct(sm + ga, rev), operator="expr"),
    _f("capex_pct_revenue", "Capex as % of revenue",
       _share_of_revenue(["capex", "capital expenditures", "capital spending"]) + ["capital intensity"],
       [Input("capex"), Input("revenue")], "percent", "Capital expenditures ÷ Revenue", _ratio_pct,
       query="capital expenditures purchases of property and equipment"),
    _f("free_cash_flow", "Free cash flow",
       ["free cash flow", "fcf", "free cashflow", "free cash flows", "fcf generation"],
       [Input("operating_cash_flow"), Input("capex")], "USD", "Operating cash flow − Capital expenditures",
       lambda ocf, capex: ocf - capex, operator="−",
       query="cash generated by operating activities capital expenditures free cash flow"),
    _f("current_ratio", "Current ratio",
       ["current ratio", "working capital ratio", "liquidity ratio"],
       [Input("current_assets"), Input("current_liabilities")], "ratio",
       "Current assets ÷ Current liabilities", _ratio, query="liquidity working capital"),
    _f("lt_debt_to_equity", "Long-term debt to equity",
       ["long term debt to equity", "long term debt to equity ratio", "lt debt to equity", "ltd to equity",
        "long term debt/equity", "long term debt to shareholders equity", "long term debt to stockholders equity"],
       [Input("long_term_debt"), Input("equity")], "ratio", "Long-term debt ÷ Stockholders' equity", _ratio,
       query="long-term debt capital structure"),
    _f("effective_tax_rate_computed", "Effective tax rate (computed)",
       computed_variants(METRICS["effective_tax_rate"].synonyms),
       [Input("income_tax"), Input("pretax_income")], "percent", "Income tax expense ÷ Income before income taxes",
       _ratio_pct, query="effective tax rate"),
]

# Analysts' ratios. A convention that changes the figure (averages or ending balances, what counts
# as debt) is part of the formula's expression, so the trace the answer shows states it.
_RATIOS: list[Formula] = [
    _f("quick_ratio", "Quick ratio",
       ["quick ratio", "acid test", "acid test ratio", "acid-test ratio", "quick liquidity ratio"],
       [Input("current_assets"), Input("inventory"), Input("current_liabilities")], "ratio",
       "(Current assets − Inventories) ÷ Current liabilities (quick assets taken as current assets less inventories)",
       lambda ca, inv, cl: _ratio(ca - inv, cl), operator="expr", query="liquidity current assets inventories"),
    _f("dividend_payout", "Dividend payout ratio",
       ["dividend payout ratio", "payout ratio", "dividend payout", "dividend payout rate"],
       [Input("dividends_paid"), Input("net_income")], "percent", "Dividends paid ÷ Net income", _ratio_pct,
       query="dividends paid net income"),
    # EBITDA as the filings' figures make it: operating income plus D&A, unadjusted. Asked by name (or
    # spelled out) it is this convention, which the answer's calculation states; a company's own
    # "adjusted EBITDA" (its add-backs are not in XBRL) stays refused (concepts.UNKNOWN_METRICS).
    _f("ebitda", "EBITDA",
       ["ebitda", "computed ebitda", "ebitda computed", "unadjusted ebitda", "ebitda unadjusted", "reported ebitda",
        "ebitda as reported", "operating income plus depreciation and amortization",
        "operating income plus d&a", "operating income + d&a", "oibda", "operating income before depreciation and amortization",
        "operating income before d&a", "operating profit before depreciation and amortization",
        "earnings before interest taxes depreciation and amortization",
        "earnings before interest tax depreciation and amortization",
        "earnings before interest taxes depreciation amortization",
        "earnings before interest and taxes depreciation and amortization"],
       [Input("operating_income"), Input("depreciation_amortization")], "USD",
       "Operating income + Depreciation and amortization (EBITDA as operating income plus D&A; unadjusted)",
       lambda oi, da: oi + da, operator="+", fallback="ebitda_dep_amort",
       query="operating income depreciation and amortization"),
    # No D&A total tagged: depreciation and the amortization of intangibles, each printed as its own row; then
    # depreciation alone. Each says which, so the answer never hides a narrower add-back.
    _f("ebitda_dep_amort", "EBITDA", [],
       [Input("operating_income"), Input("depreciation"), Input("amortization_intangibles")], "USD",
       "Operating income + Depreciation + Amortization of intangible assets (EBITDA with D&A as the two rows the "
       "company prints; unadjusted)",
       lambda oi, dep, am: oi + dep + am, operator="expr", fallback="ebitda_depreciation",
       query="operating income depreciation amortization of intangible assets"),
    _f("ebitda_depreciation", "EBITDA", [],
       [Input("operating_income"), Input("depreciation")], "USD",
       "Operating income + Depreciation (EBITDA as operating income plus depreciation, the company reporting no "
       "depreciation-and-amortization line; unadjusted)",
       lambda oi, dep: oi + dep, operator="+", fallback="ebitda_pretax", query="operating income depreciation"),
    # No operating income reported (Johnson & Johnson prints none): EBITDA from the line before taxes, its interest
    # expense added back, as the interest coverage does (interest_coverage_pretax); the expression says so
    _f("ebitda_pretax", "EBITDA", [],
       [Input("pretax_income"), Input("interest_expense"), Input("depreciation_amortization")], "USD",
       "Income before income taxes + Interest expense + Depreciation and amortization (EBITDA from income before "
       "income taxes, no operating income reported; unadjusted)",
       lambda pre, ie, da: pre + ie + da, operator="expr", query="income before income taxes interest expense depreciation"),
    _f("ebitda_margin", "EBITDA margin",
       ["ebitda margin", "ebitda margins", "ebitda as a % of revenue", "ebitda to revenue", "unadjusted ebitda margin",
        "oibda margin", "operating margin before d&a", "operating margin before depreciation and amortization",
        "ebitda margin unadjusted", "unadjusted ebitda margins"],
       [Input("operating_income"), Input("depreciation_amortization"), Input("revenue")], "percent",
       "(Operating income + Depreciation and amortization) ÷ Revenue (EBITDA unadjusted)",
       lambda oi, da, rev: _ratio_pct(oi + da, rev), operator="expr", fallback="ebitda_margin_dep_amort"),
    _f("ebitda_margin_dep_amort", "EBITDA margin", [],
       [Input("operating_income"), Input("depreciation"), Input("amortization_intangibles"), Input("revenue")],
       "percent",
       "(Operating income + Depreciation + Amortization of intangible assets) ÷ Revenue (EBITDA with D&A as the two "
       "rows the company prints; unadjusted)",
       lambda oi, dep, am, rev: _ratio_pct(oi + dep + am, rev), operator="expr", fallback="ebitda_margin_depreciation"),
    _f("ebitda_margin_depreciation", "EBITDA margin", [],
       [Input("operating_income"), Input("depreciation"), Input("revenue")], "percent",
       "(Operating income + Depreciation) ÷ Revenue (EBITDA as operating income plus depreciation, the company "
       "reporting no depreciation-and-amortization line; unadjusted)",
       lambda oi, dep, rev: _ratio_pct(oi + dep, rev), operator="expr", fallback="ebitda_margin_pretax"),
    _f("ebitda_margin_pretax", "EBITDA margin", [],
       [Input("pretax_income"), Input("interest_expense"), Input("depreciation_amortization"), Input("revenue")],
       "percent",
       "(Income before income taxes + Interest expense + Depreciation and amortization) ÷ Revenue (EBITDA from income "
       "before income taxes, no operating income reported; unadjusted)",
       lambda pre, ie, da, rev: _ratio_pct(pre + ie + da, rev), operator="expr"),
    # EBIT as operating income: the income statement's figure before interest and taxes that the filings
    # report. Never income before income taxes (that is after interest): the expression says which it is.
    _f("ebit", "EBIT",
       ["ebit", "earnings before interest and taxes", "earnings before interest and tax",
        "earnings before interest taxes", "computed ebit", "unadjusted ebit"],
       [Input("operating_income")], "USD",
       "Operating income (EBIT taken as operating income, as reported; unadjusted)", lambda oi: oi,
       operator="expr", query="operating income"),
    _f("ebit_margin", "EBIT margin",
       ["ebit margin", "ebit margins", "unadjusted ebit margin", "ebit as a % of revenue", "ebit to revenue", "ebit as a percentage of revenue",
        "ebit as a % of sales", "ebit to sales"],
       [Input("operating_income"), Input("revenue")], "percent",
       "Operating income ÷ Revenue (EBIT taken as operating income; unadjusted)", _ratio_pct, operator="expr"),
    _f("ebitda_interest_coverage", "EBITDA interest coverage",
       ["ebitda interest coverage", "ebitda to interest", "ebitda to interest expense", "ebitda/interest",
        "ebitda / interest expense", "ebitda coverage", "ebitda interest cover", "ebitda to interest ratio"],
       [Input("operating_income"), Input("depreciation_amortization"), Input("interest_expense")], "ratio",
       "(Operating income + Depreciation and amortization) ÷ Interest expense (EBITDA as operating income plus "
       "D&A; unadjusted)", lambda oi, da, ie: _ratio(oi + da, ie), operator="expr",
       fallback="ebitda_interest_coverage_dep_amort"),
    _f("ebitda_interest_coverage_dep_amort", "EBITDA interest coverage", [],
       [Input("operating_income"), Input("depreciation"), Input("amortization_intangibles"), Input("interest_expense")],
       "ratio", "(Operating income + Depreciation + Amortization of intangible assets) ÷ Interest expense (EBITDA with "
       "D&A as the two rows the company prints; unadjusted)", lambda oi, dep, am, ie: _ratio(oi + dep + am, ie),
       operator="expr", fallback="ebitda_interest_coverage_depreciation"),
    _f("ebitda_interest_coverage_depreciation", "EBITDA interest coverage", [],
       [Input("operating_income"), Input("depreciation"), Input("interest_expense")], "ratio",
       "(Operating income + Depreciation) ÷ Interest expense (EBITDA as operating income plus depreciation, the "
       "company reporting no depreciation-and-amortization line; unadjusted)",
       lambda oi, dep, ie: _ratio(oi + dep, ie), operator="expr", fallback="ebitda_interest_coverage_pretax"),
    _f("ebitda_interest_coverage_pretax", "EBITDA interest coverage", [],
       [Input("pretax_income"), Input("interest_expense"), Input("depreciation_amortization")], "ratio",
       "(Income before income taxes + Interest expense + Depreciation and amortization) ÷ Interest expense (EBITDA "
       "from income before income taxes, no operating income reported; unadjusted)",
       lambda pre, ie, da: _ratio(pre + ie + da, ie), operator="expr"),
    # ROCE is not ROIC: capital employed is total assets less current liabilities, the return before tax
    _f("roce", "Return on capital employed",
       ["roce", "return on capital employed"],
       [Input("operating_income"), Input("total_assets"), Input("current_liabilities")], "percent",
       "Operating income ÷ (Total assets − Current liabilities) (ROCE: EBIT taken as operating income over year-end "
       "capital employed)", lambda oi, ta, cl: _ratio_pct(oi, ta - cl), operator="expr"),
    _f("asset_turnover", "Asset turnover",
       ["asset turnover", "asset turnover ratio", "total asset turnover", "assets turnover"],
       [Input("revenue"), Input("total_assets"), Input("total_assets", -1)], "ratio",
       "Revenue ÷ average total assets (average of the year's opening and closing balances)",
       lambda rev, ta, prior: _ratio(rev, (ta + prior) / 2), operator="expr"),
    _f("opex_ratio", "Operating expenses as % of revenue",
       _share_of_revenue(["opex", "operating expenses", "operating expense", "op ex"]),
       [Input("operating_expenses"), Input("revenue")], "percent",
       "Operating expenses ÷ Revenue (operating expenses as the company's operating-expense total)", _ratio_pct,
       fallback="opex_ratio_computed"),
    # No operating-expense total printed: the total costs and expenses less the cost of revenue, the expression saying
    # so (never revenue less cost and operating income: where a company prints two revenue rows, as Walmart its net
    # sales and its total revenues, that residual takes whichever revenue row and is another figure)
    _f("opex_ratio_computed", "Operating expenses as % of revenue", [],
       [Input("costs_expenses_total"), Input("cost_of_revenue"), Input("revenue")], "percent",
       "(Total costs and expenses − Cost of revenue) ÷ Revenue (operating expenses as total costs and expenses less "
       "cost of revenue; no operating-expense total reported)",
       lambda ce, cor, rev: _ratio_pct(ce - cor, rev), operator="expr"),
    _f("operating_expenses_computed", "Operating expenses", [],
       [Input("costs_expenses_total"), Input("cost_of_revenue")], "USD",
       "Total costs and expenses − Cost of revenue (operating expenses as total costs and expenses less cost of "
       "revenue; no operating-expense total reported)", lambda ce, cor: ce - cor, operator="−"),
    _f("cost_of_revenue_pct", "Cost of revenue as % of revenue",
       _share_of_revenue(["cost of revenue", "cost of sales", "cogs", "cost of goods sold", "cost of revenues"]),
       [Input("cost_of_revenue"), Input("revenue")], "percent", "Cost of revenue ÷ Revenue", _ratio_pct),
    _f("inventory_turnover", "Inventory turnover",
       ["inventory turnover", "inventory turns", "inventory turnover ratio", "stock turnover"],
       [Input("cost_of_revenue"), Input("inventory"), Input("inventory", -1)], "ratio",
       "Cost of revenue ÷ average inventories (average of the year's opening and closing balances)",
       lambda cogs, inv, prior: _ratio(cogs, (inv + prior) / 2), operator="expr"),
    _f("dso", "Days sales outstanding",
       ["days sales outstanding", "dso", "days sales in receivables", "receivable days", "days receivable",
        "receivables days"],
       [Input("accounts_receivable"), Input("revenue")], "days",
       "Accounts receivable ÷ Revenue × 365 (year-end receivables, 365-day year)",
       lambda ar, rev: _ratio(ar, rev) * 365, operator="expr"),
    _f("fcf_conversion", "Free-cash-flow conversion",
       ["fcf conversion", "free cash flow conversion", "fcf conversion rate", "free cash flow conversion rate"],
       [Input("operating_cash_flow"), Input("capex"), Input("net_income")], "percent",
       "(Operating cash flow − Capital expenditures) ÷ Net income",
       lambda ocf, capex, ni: _ratio_pct(ocf - capex, ni), operator="expr"),
    _f("interest_coverage", "Interest coverage",
       ["interest coverage", "interest coverage ratio", "times interest earned", "interest cover",
        "ebit to interest", "ebit to interest expense", "ebit/interest", "ebit / interest expense",
        "ebit interest coverage"],
       [Input("operating_income"), Input("interest_expense")], "ratio",
       "Operating income ÷ Interest expense (operating income as EBIT)", _ratio, operator="expr",
       fallback="interest_coverage_pretax"),
    # A company that prints no operating income (Johnson & Johnson, most banks and insurers): EBIT as income before
    # income taxes with the interest expense added back, the other common reading, named in the answer
    _f("interest_coverage_pretax", "Interest coverage", [],
       [Input("pretax_income"), Input("interest_expense")], "ratio",
       "(Income before income taxes + Interest expense) ÷ Interest expense (EBIT as pretax income plus interest "
       "expense; no operating income reported)", lambda pti, ie: _ratio(pti + ie, ie), operator="expr"),
    _f("roe", "Return on equity",
       ["roe", "return on equity", "return on average equity", "return on shareholders equity",
        "return on stockholders equity", "return on common equity"],
       [Input("net_income"), Input("equity"), Input("equity", -1)], "percent",
       "Net income ÷ average stockholders' equity (average of the year's opening and closing balances)",
       lambda ni, eq, prior: _ratio_pct(ni, (eq + prior) / 2), operator="expr"),
    _f("roa", "Return on assets",
       ["roa", "return on assets", "return on average assets", "return on total assets"],
       [Input("net_income"), Input("total_assets"), Input("total_assets", -1)], "percent",
       "Net income ÷ average total assets (average of the year's opening and closing balances)",
       lambda ni, ta, prior: _ratio_pct(ni, (ta + prior) / 2), operator="expr"),
]


# Total debt is one convention wherever it appears (total debt, net debt, debt to equity, debt to capital, ROIC's
# invested capital ...): long-term debt, current and noncurrent, the common analyst reading. Commercial paper and
# other short-term borrowings are debt only where the question says so ("including short-term borrowings", "all
# borrowings": BORROWING_STEPS, the formulas' "_all" forms). Each step computes the same figure from how the company
# tags it: the two parts; long-term debt tagged with its current maturities in it; the noncurrent part and the
# balance sheet's current debt line (which may hold short-term borrowings: said so); long-term debt alone. Each step is
# its own formula whose expression says what "debt" counted, so the answer never hides a narrower or wider figure.
DEBT_STEPS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("", ("long_term_debt", "ltd_maturities_current"), "total debt: long-term debt, current and noncurrent"),
    ("_ltd_total", ("ltd_with_current",), "total debt: long-term debt including its current maturities, as tagged"),
    ("_current_line", ("long_term_debt", "debt_current"),
     "total debt: long-term debt plus the balance sheet's current debt line, which may include short-term borrowings"),
    ("_long_term_only", ("long_term_debt",),
     "long-term debt alone: no current debt tagged beside it, or the long-term debt tagged includes its current "
     "maturities"),
)
# "Debt including short-term borrowings", "all borrowings": the long-term debt above and the short-term borrowings
# (commercial paper, notes payable) the question adds, as the balance sheet's whole current debt line or its parts
BORROWING_STEPS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("_all", ("long_term_debt", "debt_current"),
     "total debt including short-term borrowings: long-term debt plus the balance sheet's current debt line"),
    ("_all_borrowings", ("long_term_debt", "ltd_maturities_current", "short_term_borrowings"),
     "total debt including short-term borrowings: long-term debt, current and noncurrent, and short-term borrowings"),
    ("_all_stb", ("long_term_debt", "short_term_borrowings"),
     "total debt including short-term borrowings: long-term debt and short-term borrowings, no current maturities "
     "tagged apart"),
    ("_all_term", ("long_term_debt", "ltd_maturities_current"),
     "total debt: long-term debt, current and noncurrent; no short-term borrowings tagged"),
    ("_all_ltd_total", ("ltd_with_current",),
     "total debt: long-term debt including its current maturities; no short-term borrowings tagged"),
    ("_all_long_term_only", ("long_term_debt",), "long-term debt alone: no current debt tagged beside it"),
)
# formula key -> the form of it that counts short-term borrowings as debt (asked "including short-term borrowings")
BORROWING_FORMS: dict[str, str] = {}
# formula key -> what its debt counted, said in the answer's sentence (every step of every debt chain)
_DEBT_NOTES: dict[str, str] = {}
# formula key -> how many of its first inputs the debt sums (a company's own "Total debt" row is compared to that sum)
DEBT_PARTS: dict[str, int] = {}


def _debt_chain(key: str, label: str, synonyms: list[str], tail: list[Input], unit: str, shape: str,
                fn: Callable[..., Decimal], query: str = "long-term debt short-term borrowings",
                steps: tuple[tuple[str, tuple[str, ...], str], ...] = DEBT_STEPS,
                wide: tuple[str, ...] = ()) -> list[Formula]:
    """One formula per DEBT_STEPS step, each falling back to the next, and its form with short-term borrowings
    (BORROWING_STEPS, named by `wide`). `shape` is the expression with "{debt}" where the debt sum goes;
    `fn(debt, *tail)` computes it."""
    out = []
    for i, (suffix, parts, note) in enumerate(steps):
        debt = " + ".join(METRICS[m].label.split(" (")[0] for m in parts)
        debt = f"({debt})" if len(parts) > 1 and shape != "{debt}" else debt
        nxt = key + steps[i + 1][0] if i + 1 < len(steps) else None
        n = len(parts)
        summed = [_ltd() if m == "long_term_debt" and len(parts) > 1 else Input(m) for m in parts]
        out.append(_f(key + suffix, label, synonyms if not suffix else [],
                      [*summed, *tail], unit, f"{shape.format(debt=debt)} ({note})",
                      lambda *v, n=n: fn(sum(v[:n], Decimal(0)), *v[n:]), operator="expr", fallback=nxt,
                      query=query))
        _DEBT_NOTES[key + suffix] = _said_of(note)
        DEBT_PARTS[key + suffix] = n
    if steps is DEBT_STEPS:
        out += _debt_chain(key, label, list(wide), tail, unit, shape, fn, query, steps=BORROWING_STEPS)
        BORROWING_FORMS[key] = key + "_all"
    return out


def _said_of(note: str) -> str:
    """A debt step's note as the answer's sentence says it ("debt as long-term debt, current and noncurrent")."""
    if note.startswith("long-term debt alone"):
        return "debt as long-term debt alone"
    wide = note.startswith("total debt including short-term borrowings:")
    said = "debt as " + re.sub(r"^total debt(?: including short-term borrowings)?:\s*", "", note)
    return said + (", short-term borrowings included" if wide and "short-term borrowings" not in said else "")


# EBITDA's add-back as each company reports it, in order (as the EBITDA formulas fall back): the D&A total;
# depreciation and the amortization of intangibles as two rows; depreciation alone. (suffix, inputs, sum, note)
EBITDA_STEPS: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    ("", ("operating_income", "depreciation_amortization"), "Operating income + Depreciation and amortization",
     "EBITDA as operating income plus D&A; unadjusted"),
    ("_dep_amort", ("operating_income", "depreciation", "amortization_intangibles"),
     "Operating income + Depreciation + Amortization of intangible assets",
     "EBITDA with D&A as the two rows the company prints; unadjusted"),
    ("_depreciation", ("operating_income", "depreciation"), "Operating income + Depreciation",
     "EBITDA as operating income plus depreciation, the company reporting no depreciation-and-amortization line; "
     "unadjusted"),
    ("_pretax", ("pretax_income", "interest_expense", "depreciation_amortization"),
     "Income before income taxes + Interest expense + Depreciation and amortization",
     "EBITDA from income before income taxes, no operating income reported; unadjusted"),
)


def _leverage_chains(key: str, label: str, synonyms: list[str], extra: list[Input], shape: str,
                     fn: Callable[..., Decimal]) -> list[Formula]:
    """A ratio of total debt to EBITDA: one debt chain (DEBT_STEPS) per EBITDA_STEPS add-back, each
    chain's last step falling back to the next add-back's first. `shape` has {debt}, {ebitda} and {note};
    `fn(debt, ebitda, *extra)`."""
    out: list[Formula] = []
    for i, (suffix, parts, summed, note) in enumerate(EBITDA_STEPS):
        n = len(parts)
        chain = _debt_chain(key + suffix, label, synonyms if not suffix else [],
                            [*extra, *(Input(m) for m in parts)], "ratio",
                            shape.replace("{ebitda}", summed).replace("{note}", note),
                            lambda debt, *v, n=n: fn(debt, sum(v[len(v) - n:], Decimal(0)), *v[: len(v) - n]),
                            query="long-term debt short-term borrowings operating income depreciation")
        out += _then(chain, key + EBITDA_STEPS[i + 1][0]) if i + 1 < len(EBITDA_STEPS) else chain
    return out


# What a named measure's sentence says it took, by the formula actually computed (its key's prefix and the
# EBITDA add-back its suffix names): the full trace is in the calculation, this is the short form.
_EBITDA_SAID = {"": "EBITDA as operating income plus D&A, unadjusted",
                "_dep_amort": "EBITDA as operating income plus depreciation and amortization of intangibles, unadjusted",
                "_depreciation": "EBITDA as operating income plus depreciation, unadjusted",
                "_pretax": "EBITDA as income before income taxes plus interest expense and D&A, as no operating income "
                           "is reported; unadjusted"}
_SAID = (("ebitda", None), ("debt_to_ebitda", None), ("net_debt_to_ebitda", None),
         ("ebit_margin", "EBIT taken as operating income"), ("ebit", "EBIT taken as operating income"),
         ("interest_coverage_pretax", "EBIT taken as income before income taxes plus interest expense, as no "
                                      "operating income is reported"),
         ("interest_coverage", "EBIT taken as operating income"),
         ("roic_rate", "after-tax operating income at the reported effective tax rate over debt plus equity"),
         ("roic", "after-tax operating income over debt plus equity"),
         ("roce", "operating income over total assets less current liabilities"),
         ("nopat_rate", "operating income after tax at the reported effective tax rate"),
         ("nopat", "operating income after tax at the effective rate"),
         ("opex_ratio_computed", "operating expenses as total costs and expenses less cost of revenue, no "
                                 "operating-expense total reported"),
         ("operating_expenses_computed", "as total costs and expenses less cost of revenue, no operating-expense "
                                         "total reported"),
         )


# What "debt" counted, said in the sentence of every measure over total debt (_DEBT_NOTES, by the step of the debt
# chain computed): analysts differ on whether commercial paper and other short-term borrowings are debt, so a net
# debt, a debt-to-equity or a ROIC figure never leaves it unsaid
def _debt_said(key: str) -> str | None:
    """What the debt sum of a measure over total debt `key` counted, None for any other formula."""
    return _DEBT_NOTES.get(key)


def stated_convention(key: str) -> str | None:
    """The convention the answer's sentence states for formula `key` (None: the name says it all)."""
    debt = _debt_said(key)
    said = None
    if key.startswith(("ebitda", "debt_to_ebitda", "net_debt_to_ebitda")):
        said = _EBITDA_SAID[next((s for s in ("_dep_amort", "_depreciation", "_pretax") if s in key), "")]
    for prefix, text in _SAID if said is None else ():
        if text and (key == prefix or key.startswith(prefix + "_")):
            said = text
            break
    if said is None and FORMULAS.get(key) and FORMULAS[key].unit == "USD/shares":
        shares = {i.metric for i in FORMULAS[key].inputs}
        said = ("on weighted-average diluted shares" if "diluted_shares" in shares else
                "on weighted-average basic shares" if "basic_shares" in shares else None)
    if said is None and debt is None and _on_balances(key):
        # the balance convention the ratio was computed on, chosen by the question or its own: said, never silent
        averaged = any(i.offset == -1 for i in FORMULAS[key].inputs)
        said = "on the average of opening and closing balances" if averaged else "on year-end balances"
    name = FORMULAS[key].label if key in FORMULAS else ""
    if said and name in ("EBITDA", "EBIT") and said.startswith(name + " "):
        said = said[len(name) + 1:]  # "EBITDA (as operating income plus D&A, unadjusted)", never "EBITDA (EBITDA as ...)"
    if debt is not None:  # a measure over debt and EBITDA or after-tax income says both (ROIC, net debt to EBITDA)
        return debt if not said or debt in said else f"{said}; {debt}"
    return said


def _on_balances(key: str) -> bool:
    """A ratio that has forms over average and over year-end balances (ROE, DSO, turnover ...), in any of them."""
    base = key[:-4] if key.endswith("_360") else key
    return base in BALANCE_FORMS or any(base in forms for forms in BALANCE_FORMS.values()) or (
        base in FORMULAS and FORMULAS[base].unit == "days")  # the cash cycle, the operating cycle


def _then(chain: list[Formula], fallback: str) -> list[Formula]:
    """The chain with its last step falling back to another formula (another chain's first step); a debt chain's
    form with short-term borrowings (its "_all" steps) falls back to that formula's own such form."""
    main = [f for f in chain if "_all" not in f.key]
    wide = [f for f in chain if "_all" in f.key]
    ends = {main[-1].key: fallback, **({wide[-1].key: BORROWING_FORMS.get(fallback, fallback + "_all")} if wide else {})}
    return [replace(f, fallback=ends[f.key]) if f.key in ends else f for f in chain]


_DEBT: list[Formula] = [
    # Debt to equity is total debt (the one convention above) over year-end equity
    *_debt_chain("debt_to_equity", "Debt-to-equity",
                 ["debt to equity", "debt/equity", "debt to equity ratio", "d/e", "d/e ratio", "debt equity ratio",
                  "debt-to-equity", "total debt to equity", "total debt to equity ratio"],
                 [Input("equity")], "ratio", "{debt} ÷ Stockholders' equity", lambda debt, eq: _ratio(debt, eq),
                 query="long-term debt capital structure"),
    *_debt_chain("total_debt", "Total debt",
                 ["total debt", "gross debt", "debt outstanding", "total debt outstanding"],
                 [], "USD", "{debt}", lambda debt: debt, wide=("total borrowings", "all borrowings")),
    *_debt_chain("net_debt", "Net debt", ["net debt", "net debt position", "net borrowings"],
                 [Input("cash")], "USD", "{debt} − Cash and cash equivalents",
                 lambda debt, cash: debt - cash),
    # Net debt's other sign, as a company holding more cash than debt is said to have: never the cash balance alone
    *_debt_chain("net_cash", "Net cash", ["net cash", "net cash position", "net cash balance", "cash net of debt"],
                 [Input("cash")], "USD", "Cash and cash equivalents − {debt}",
                 lambda debt, cash: cash - debt),
    *_debt_chain("debt_to_assets", "Debt-to-assets ratio",
                 ["debt to assets", "debt to assets ratio", "debt/assets", "debt to total assets",
                  "total debt to total assets", "total debt to assets", "debt-to-assets"],
                 [Input("total_assets")], "ratio", "{debt} ÷ Total assets", lambda debt, ta: _ratio(debt, ta)),
    *_debt_chain("debt_to_capital", "Debt-to-capital ratio",
                 ["debt to capital", "debt to capital ratio", "debt/capital", "debt to total capital",
                  "total debt to capital", "total debt to total capital", "debt-to-capital", "debt to capitalization",
                  "debt to capitalization ratio", "debt to total capitalization"],
                 [Input("equity")], "ratio", "{debt} ÷ ({debt} + Stockholders' equity)",
                 lambda debt, eq: _ratio(debt, debt + eq)),
    # Net debt over equity (what UK analysts call gearing), and over the capital it and the equity make up
    *_debt_chain("net_debt_to_equity", "Net debt to equity",
                 ["net debt to equity", "net debt to equity ratio", "net debt/equity", "gearing", "gearing ratio",
                  "net gearing", "net gearing ratio", "net debt to shareholders equity"],
                 [Input("cash"), Input("equity")], "ratio",
                 "({debt} − Cash and cash equivalents) ÷ Stockholders' equity (net debt over year-end equity)",
                 lambda debt, cash, eq: _ratio(debt - cash, eq), query="long-term debt cash and cash equivalents equity"),
    *_debt_chain("net_debt_to_capital", "Net debt to capital",
                 ["net debt to capital", "net debt to capital ratio", "net debt to total capital", "net debt/capital",
                  "net debt to capitalization"],
                 [Input("cash"), Input("equity")], "ratio",
                 "({debt} − Cash and cash equivalents) ÷ ({debt} − Cash and cash equivalents + Stockholders' equity) "
                 "(year-end)", lambda debt, cash, eq: _ratio(debt - cash, debt - cash + eq),
                 query="long-term debt cash and cash equivalents equity"),
    # How many years of operating cash flow the debt is: total debt by the one convention above
    *_debt_chain("cash_flow_to_debt", "Cash flow to debt",
                 ["cash flow to debt", "cash flow to debt ratio", "cash flow to total debt", "operating cash flow to debt",
                  "operating cash flow to total debt", "ocf to debt", "ocf to total debt", "cash from operations to debt",
                  "cash from operations to total debt", "cash flow from operations to debt",
                  "cash flow from operations to total debt"],
                 [Input("operating_cash_flow")], "ratio", "Operating cash flow ÷ {debt}",
                 lambda debt, ocf: _ratio(ocf, debt), query="long-term debt operating activities"),
    # Leverage over EBITDA, EBITDA as operating income plus D&A (unadjusted, as in the EBITDA margin)
    *_leverage_chains("debt_to_ebitda", "Debt to EBITDA",
                      ["debt to ebitda", "debt/ebitda", "total debt to ebitda", "total debt/ebitda", "debt to ebitda ratio",
                       "leverage multiple", "gross leverage"],
                      [], "{debt} ÷ ({ebitda}) ({note})", lambda debt, ebitda: _ratio(debt, ebitda)),
    # ROIC over invested capital as total debt (the convention above) plus equity, year-end; after-tax
    # operating income at the effective rate computed from the income statement. Where tax expense or
    # pretax income is not tagged, the company's tagged effective rate (roic_rate, its own chain).
    *_then(_debt_chain("roic", "Return on invested capital",
                 ["roic", "return on invested capital", "return on capital", "roic computed", "computed roic",
                  "return on invested capital roic"],
                 [Input("operating_income"), Input("income_tax"), Input("pretax_income"), Input("equity")],
                 "percent",
                 "Operating income × (1 − Income tax expense ÷ Income before income taxes) ÷ ({debt} + "
                 "Stockholders' equity) (ROIC: after-tax operating income at the effective rate over year-end "
                 "invested capital)",
                 lambda debt, oi, tax, pre, eq: _ratio_pct(oi * (1 - _ratio(tax, pre)), debt + eq),
                 query="operating income invested capital long-term debt stockholders equity"), "roic_rate"),
    *_debt_chain("roic_rate", "Return on invested capital", [],
                 [Input("operating_income"), Input("effective_tax_rate"), Input("equity")], "percent",
                 "Operating income × (1 − Effective tax rate) ÷ ({debt} + Stockholders' equity) (ROIC: after-tax "
                 "operating income at the company's reported effective rate over year-end invested capital)",
                 lambda debt, oi, rate, eq: _ratio_pct(oi * (1 - rate), debt + eq),
                 query="operating income invested capital effective tax rate"),
    *_leverage_chains("net_debt_to_ebitda", "Net debt to EBITDA",
                      ["net debt to ebitda", "net debt/ebitda", "net debt to ebitda ratio", "net leverage",
                       "net leverage ratio"],
                      [Input("cash")], "({debt} − Cash and cash equivalents) ÷ ({ebitda}) ({note})",
                      lambda debt, ebitda, cash: _ratio(debt - cash, ebitda)),
]

# More of the ratios analysts ask daily; year-end balances unless the expression says average.
_MORE: list[Formula] = [
    _f("working_capital", "Working capital", ["working capital", "net working capital"],
       [Input("current_assets"), Input("current_liabilities")], "USD",
       "Current assets − Current liabilities", lambda ca, cl: ca - cl, operator="−"),
    _f("fcf_margin", "Free-cash-flow margin",
       ["free cash flow margin", "fcf margin", "free cash flow margins", "fcf margins",
        *_share_of_revenue(["free cash flow", "fcf"], named_ratio=False)],
       [Input("operating_cash_flow"), Input("capex"), Input("revenue")], "percent",
       "(Operating cash flow − Capital expenditures) ÷ Revenue",
       lambda ocf, capex, rev: _ratio_pct(ocf - capex, rev), operator="expr"),
    _f("ocf_margin", "Operating-cash-flow margin",
       ["operating cash flow margin", "ocf margin", "cash flow margin", "cash flow from operations margin",
        *_share_of_revenue(["operating cash flow", "cash from operations", "ocf"], named_ratio=False)],
       [Input("operating_cash_flow"), Input("revenue")], "percent", "Operating cash flow ÷ Revenue", _ratio_pct),
    _f("cash_conversion", "Cash conversion",
       ["cash conversion", "cash conversion ratio", "cash conversion rate", "cash flow conversion",
        "operating cash flow to net income", "ocf to net income", "cash from operations to net income",
        "operating cash flow conversion"],
       # a multiple of net income (1.05, "x"), as analysts quote it: a percent (105.4%) read as another figure
       [Input("operating_cash_flow"), Input("net_income")], "ratio", "Operating cash flow ÷ Net income",
       _ratio),
    _f("equity_multiplier", "Equity multiplier",
       ["equity multiplier", "financial leverage ratio", "assets to equity", "assets to equity ratio",
        "total assets to equity"],
       [Input("total_assets"), Input("equity")], "ratio", "Total assets ÷ Stockholders' equity (year-end)", _ratio),
    _f("cash_ratio", "Cash ratio", ["cash ratio"],
       [Input("cash"), Input("current_liabilities")], "ratio",
       "Cash and cash equivalents ÷ Current liabilities (marketable securities not included)", _ratio,
       operator="expr"),
    _f("dio", "Days inventory outstanding",
       ["days inventory outstanding", "dio", "days of inventory", "days in inventory", "inventory days",
        "days inventory on hand", "days of inventory on hand", "days sales of inventory", "days sales in inventory"],
       [Input("inventory"), Input("cost_of_revenue")], "days",
       "Inventories ÷ Cost of revenue × 365 (year-end inventories, 365-day year)",
       lambda inv, cogs: _ratio(inv, cogs) * 365, operator="expr"),
    _f("dpo", "Days payables outstanding",
       ["days payables outstanding", "days payable outstanding", "dpo", "payable days", "payables days",
        "days payable", "days payables"],
       [Input("accounts_payable"), Input("cost_of_revenue")], "days",
       "Accounts payable ÷ Cost of revenue × 365 (year-end payables, 365-day year)",
       lambda ap, cogs: _ratio(ap, cogs) * 365, operator="expr"),
    _f("cash_conversion_cycle", "Cash conversion cycle",
       ["cash conversion cycle", "ccc", "cash cycle", "cash to cash cycle"],
       [Input("inventory"), Input("accounts_receivable"), Input("accounts_payable"), Input("cost_of_revenue"),
        Input("revenue")], "days",
       "(Inventories ÷ Cost of revenue + Accounts receivable ÷ Revenue − Accounts payable ÷ Cost of revenue) × 365 "
       "(year-end balances, 365-day year)",
       lambda inv, ar, ap, cogs, rev: (_ratio(inv, cogs) + _ratio(ar, rev) - _ratio(ap, cogs)) * 365,
       operator="expr"),
    _f("receivables_turnover", "Receivables turnover",
       ["receivables turnover", "receivable turnover", "accounts receivable turnover", "ar turnover",
        "receivables turnover ratio", "accounts receivable turnover ratio", "debtor turnover"],
       [Input("revenue"), Input("accounts_receivable")], "ratio",
       "Revenue ÷ Accounts receivable (year-end receivables)", _ratio, operator="expr"),
]

# The same ratios over the average of the year's opening and closing balances, or over the closing balance
# alone: which one an answer used is its expression, and a question that says which ("using average
# accounts receivable", "year-end inventory") is answered under that convention (balance_convention).
def _avg(a: Decimal, b: Decimal) -> Decimal:
    return (a + b) / 2


_BALANCES: list[Formula] = [
    _f("fixed_asset_turnover", "Fixed asset turnover",
       ["fixed asset turnover", "fixed asset turnover ratio", "fixed assets turnover", "fixed assets turnover ratio",
        "pp&e turnover", "ppe turnover", "net fixed asset turnover", "fixed asset turns", "fixed-asset turnover"],
       [Input("revenue"), Input("ppe_net"), Input("ppe_net", -1)], "ratio",
       "Revenue ÷ average property, plant and equipment, net (average of the year's opening and closing balances)",
       lambda rev, ppe, prior: _ratio(rev, _avg(ppe, prior)), operator="expr",
       query="property, plant and equipment, net revenue"),
    _f("fixed_asset_turnover_end", "Fixed asset turnover", [],
       [Input("revenue"), Input("ppe_net")], "ratio",
       "Revenue ÷ Property, plant and equipment, net (year-end balance)", _ratio, operator="expr"),
    _f("dso_avg", "Days sales outstanding", [],
       [Input("accounts_receivable"), Input("accounts_receivable", -1), Input("revenue")], "days",
       "Average accounts receivable ÷ Revenue × 365 (average of the year's opening and closing receivables, "
       "365-day year)", lambda ar, prior, rev: _ratio(_avg(ar, prior), rev) * 365, operator="expr"),
    _f("dio_avg", "Days inventory outstanding", [],
       [Input("inventory"), Input("inventory", -1), Input("cost_of_revenue")], "days",
       "Average inventories ÷ Cost of revenue × 365 (average of the year's opening and closing inventories, "
       "365-day year)", lambda inv, prior, cogs: _ratio(_avg(inv, prior), cogs) * 365, operator="expr"),
    _f("dpo_avg", "Days payables outstanding", [],
       [Input("accounts_payable"), Input("accounts_payable", -1), Input("cost_of_revenue")], "days",
       "Average accounts payable ÷ Cost of revenue × 365 (average of the year's opening and closing payables, "
       "365-day year)", lambda ap, prior, cogs: _ratio(_avg(ap, prior), cogs) * 365, operator="expr"),
    _f("receivables_turnover_avg", "Receivables turnover", [],
       [Input("revenue"), Input("accounts_receivable"), Input("accounts_receivable", -1)], "ratio",
       "Revenue ÷ average accounts receivable (average of the year's opening and closing balances)",
       lambda rev, ar, prior: _ratio(rev, _avg(ar, prior)), operator="expr"),
    _f("payables_turnover_avg", "Payables turnover", [],
       [Input("cost_of_revenue"), Input("accounts_payable"), Input("accounts_payable", -1)], "ratio",
       "Cost of revenue ÷ average accounts payable (average of the year's opening and closing balances)",
       lambda cogs, ap, prior: _ratio(cogs, _avg(ap, prior)), operator="expr"),
    _f("equity_multiplier_avg", "Equity multiplier", [],
       [Input("total_assets"), Input("total_assets", -1), Input("equity"), Input("equity", -1)], "ratio",
       "Average total assets ÷ average stockholders' equity (averages of the year's opening and closing balances)",
       lambda ta, tap, eq, eqp: _ratio(_avg(ta, tap), _avg(eq, eqp)), operator="expr"),
    _f("inventory_turnover_end", "Inventory turnover", [],
       [Input("cost_of_revenue"), Input("inventory")], "ratio",
       "Cost of revenue ÷ Inventories (year-end inventories)", _ratio, operator="expr"),
    _f("asset_turnover_end", "Asset turnover", [],
       [Input("revenue"), Input("total_assets")], "ratio", "Revenue ÷ Total assets (year-end)", _ratio,
       operator="expr"),
    _f("roe_end", "Return on equity", [],
       [Input("net_income"), Input("equity")], "percent",
       "Net income ÷ Stockholders' equity (year-end equity)", _ratio_pct, operator="expr"),
    _f("roa_end", "Return on assets", [],
       [Input("net_income"), Input("total_assets")], "percent",
       "Net income ÷ Total assets (year-end assets)", _ratio_pct, operator="expr"),
    # a difference of two year-end positions, in dollars: never a growth rate, never the cash-flow statement's
    # "changes in operating assets and liabilities"
    _f("working_capital_change", "Change in working capital",
       ["change in working capital", "working capital change", "change in net working capital",
        "net working capital change", "yoy change in working capital", "working capital change yoy"],
       [Input("current_assets"), Input("current_liabilities"), Input("current_assets", -1),
        Input("current_liabilities", -1)], "USD",
       "(Current assets − Current liabilities) − prior year-end (Current assets − Current liabilities)",
       lambda ca, cl, cap, clp: (ca - cl) - (cap - clp), operator="expr"),
]

# formula key -> (its average-balance form, its year-end form); a key absent from a side has no such form
BALANCE_FORMS: dict[str, tuple[str | None, str | None]] = {
    "dso": ("dso_avg", None), "dio": ("dio_avg", None), "dpo": ("dpo_avg", None),
    "receivables_turnover": ("receivables_turnover_avg", None), "payables_turnover": ("payables_turnover_avg", None),
    "equity_multiplier": ("equity_multiplier_avg", None),
    "inventory_turnover": (None, "inventory_turnover_end"), "asset_turnover": (None, "asset_turnover_end"),
    "roe": (None, "roe_end"), "roa": (None, "roa_end"), "fixed_asset_turnover": (None, "fixed_asset_turnover_end"),
}


GROWTH_BASES = ("revenue", "net_income", "rd", "sga", "operating_income", "gross_profit", "operating_expenses",
                "eps_diluted", "eps_basic", "operating_cash_flow", "capex", "cost_of_revenue", "total_assets",
                "cash", "long_term_debt", "equity", "dividends_paid", "buybacks", "inventory", "total_liabilities",
                "income_tax", "depreciation_amortization",
                # a balance or line of the curated table asked with a growth word ("goodwill growth"): its growth,
                # never the level with the word dropped (receivables and payables: their change is a cash-flow row)
                "goodwill", "interest_expense", "stock_compensation",
                "pretax_income", "current_assets", "current_liabilities", "retained_earnings", "general_administrative",
                "selling_marketing", "short_term_borrowings", "diluted_shares", "dividends_per_share",
                # year-end balances asked with a growth word ("accounts receivable growth", "AP up how much?"):
                # the balance's growth, never the balance with the word dropped
                "accounts_receivable", "accounts_payable", "ppe_net", "shares_outstanding", "current_debt")

# Bases whose "change in X" is a printed cash-flow row ("Changes in accounts receivable"): a growth word
# turns them into their growth, but "change in accounts receivable" stays that row's name
_CHANGE_IS_A_ROW = frozenset({"accounts_receivable", "accounts_payable"})


def fallback_chain(key: str) -> list[str]:
    """The formula and the fallbacks it is computed by when its own inputs are missing, in that order
    (one convention: the fallbacks compute the same figure from other lines)."""
    chain: list[str] = []
    while key and key in FORMULAS and key not in chain:
        chain.append(key)
        key = FORMULAS[key].fallback
    return chain


# The metric users name a phrase-less input by ("current debt", "long-term debt"): a formula reading the current
# maturities reads what a user calls the current portion of long-term debt
_SAID_AS = {"ltd_maturities_current": "current_debt", "ltd_with_current": "long_term_debt"}


def formula_inputs(key: str) -> set[str]:
    """The metrics a formula and its fallbacks read (with the metric users name each phrase-less input by)."""
    read = {i.metric for k in fallback_chain(key) for i in FORMULAS[k].inputs}
    return read | {_SAID_AS[m] for m in read if m in _SAID_AS}


def growth_key(metric: str) -> str:
    return f"{metric}_growth"


def _growth_phrases(metric: str) -> list[str]:
    out = []
    for s in METRICS[metric].synonyms:
        out += [f"{s} growth", f"growth in {s}", f"{s} growth rate", f"yoy {s}", f"{s} yoy", f"{s} y/y",
                f"{s} year over year", f"year over year {s}", f"{s} yoy growth", f"{s} year over year growth",
                f"year over year {s} growth", f"yoy {s} growth", f"growth of {s}", f"{s} growth yoy"]
        if metric not in _CHANGE_IS_A_ROW:
            out += [f"change in {s}", f"{s} change"]
    return out


def _lower(label: str) -> str:
    """Lower-case a label's first letter unless its first word is an acronym (R&D, EPS, SG&A)."""
    first = label.split(" ", 1)[0]
    if len(first) > 1 and any(c.isupper() for c in first[1:]):
        return label
    return label[0].lower() + label[1:]


def _growth_formula(metric: str) -> Formula:
    label = METRICS[metric].label
    return _f(growth_key(metric), f"{label} growth", _growth_phrases(metric),
              [Input(metric, 0), Input(metric, -1)], "percent",
              f"({label} − prior-year {_lower(label)}) ÷ |prior-year {_lower(label)}|",
              _growth, operator="vs", query=f"{METRICS[metric].query} increased decreased compared to prior year")


def change_key(metric: str) -> str:
    return f"{metric}_change"


# What an answer says instead of a growth rate whose base is negative
NEGATIVE_BASE = "the prior year's figure was negative, so a growth rate would mislead; this is the change instead"


def negative_base_change(key: str, operands: Sequence) -> str | None:
    """The change formula to state instead of growth `key` when its prior-year operand is negative, else None.

    Why: a percentage over a negative base reads backwards (a loss narrowing from 4.9 to 2.2 billion is
    "+55%", one widening is "-55%"), and a turn from loss to profit has no meaningful rate at all. The
    answer gives the change in the metric's own unit and says why."""
    if not key.endswith("_growth") or key[: -len("_growth")] not in GROWTH_BASES or len(operands) < 2:
        return None
    prior = operands[1]
    value = prior.get("value") if isinstance(prior, dict) else prior
    return change_key(key[: -len("_growth")]) if value is not None and Decimal(str(value)) < 0 else None


# Balances that are positive in the ordinary course, so a ratio over one that is negative reads backwards:
# Boeing's debt over its negative equity is "-3.04", less leverage by the figure's sign for a company with more
# debt than assets. Analysts print such a ratio as not meaningful (NM) and show the balance instead.
POSITIVE_BASES = {"equity": "equity"}  # metric -> the word its expression names it by


def negative_denominator(key: str, operands: Sequence) -> tuple[str, str] | None:
    """Why formula `key` is not meaningful over these operands (a POSITIVE_BASES balance it divides by is
    negative) and every operand with its value, else None.

    The denominator is told by the formula's own expression: a base whose label follows its "÷" (equity over
    assets, book value per share, keep their sign: a negative numerator is a meaningful figure)."""
    formula = FORMULAS.get(key)
    if formula is None or formula.unit not in ("ratio", "percent") or "÷" not in formula.expression:
        return None
    below = formula.expression.split("÷", 1)[1].lower()
    values = [Decimal(str(o.get("value") if isinstance(o, dict) else o)) for o in operands]
    if len(values) != len(formula.inputs):
        return None
    negative = [(i, v) for i, v in zip(formula.inputs, values) if i.metric in POSITIVE_BASES and v < 0
                and POSITIVE_BASES[i.metric] in below]
    if not negative:
        return None
    base = METRICS[negative[0][0].metric].label.split(" (")[0]
    shown = "; ".join(f"{METRICS[i.metric].label.split(' (')[0].lower()}"
                      f"{' (prior year)' if i.offset < 0 else ''} {display_value(v, METRICS[i.metric].unit)}"
                      for i, v in dict.fromkeys(zip(formula.inputs, values)))
    return f"{base.lower()} was negative, and a ratio over a negative balance reads backwards", shown


def _change_formula(metric: str) -> Formula:
    """The absolute year-over-year change ("by how much, in dollars?"): a difference in the metric's
    own unit, never the growth rate. No phrases of its own: growth words with dollar words
    (agent.planning.measures.absolute_words) turn a growth ask into this one."""
    m = METRICS[metric]
    return _f(change_key(metric), f"{m.label} change from the prior year", [],
              [Input(metric, 0), Input(metric, -1)], m.unit,
              f"{m.label} − prior-year {_lower(m.label)}", lambda cur, prior: cur - prior, operator="−",
              query=f"{m.query} increased decreased compared to prior year")


def _catalogued() -> list[Formula]:
    """agent.retrieval.ratio_catalogue's rows as formulas."""
    return [_f(key, label, synonyms, [Input(m, o) for m, o in inputs], unit, expression, fn, operator)
            for key, label, synonyms, inputs, unit, expression, fn, operator in CATALOGUE]


# More named conventions: each says what it takes, as EBIT and ROIC do.
_NAMED: list[Formula] = [
    _f("nopat", "NOPAT",
       ["nopat", "net operating profit after tax", "net operating profit after taxes", "after tax operating income",
        "after-tax operating income"],
       [Input("operating_income"), Input("income_tax"), Input("pretax_income")], "USD",
       "Operating income × (1 − Income tax expense ÷ Income before income taxes) (NOPAT: operating income after tax "
       "at the effective rate)", lambda oi, tax, pre: oi * (1 - _ratio(tax, pre)), operator="expr", fallback="nopat_rate",
       query="operating income provision for income taxes effective tax rate"),
    _f("nopat_rate", "NOPAT", [],
       [Input("operating_income"), Input("effective_tax_rate")], "USD",
       "Operating income × (1 − Effective tax rate) (NOPAT: operating income after tax at the company's reported "
       "effective rate)", lambda oi, rate: oi * (1 - rate), operator="expr",
       query="operating income effective tax rate"),
    _f("capital_employed", "Capital employed", ["capital employed"],
       [Input("total_assets"), Input("current_liabilities")], "USD",
       "Total assets − Current liabilities (capital employed, year-end)", lambda ta, cl: ta - cl, operator="−"),
    *_debt_chain("invested_capital", "Invested capital", ["invested capital", "total invested capital", "total capital",
                                                          "total capitalization", "total capitalisation"],
                 [Input("equity")], "USD", "{debt} + Stockholders' equity (invested capital, year-end)",
                 lambda debt, eq: debt + eq, query="long-term debt stockholders equity"),
]


FORMULAS: dict[str, Formula] = {f.key: f for f in [*_BASE, *_RATIOS, *_DEBT, *_MORE, *_BALANCES, *_NAMED, *_catalogued(), *(_growth_formula(m) for m in GROWTH_BASES),
                                                   *(_change_formula(m) for m in GROWTH_BASES)]}


def _averaged(f: Formula) -> Formula:
    """A ratio over year-end balances computed over each balance's average of the year's opening and closing
    instead ("the cash conversion cycle on average balances", "debt to equity on average equity")."""
    inputs, picks = [], []
    for i in f.inputs:
        if METRICS[i.metric].period == "instant":
            inputs += [i, replace(i, offset=-1)]
            picks.append((len(inputs) - 2, len(inputs) - 1))
        else:
            inputs.append(i)
            picks.append((len(inputs) - 1,))

    def fn(*values, _fn=f.fn):
        return _fn(*[(values[p[0]] + values[p[1]]) / 2 if len(p) == 2 else values[p[0]] for p in picks])
    said = re.sub(r"\s*\(year-end(?: balances?)?\)|year-end balances?,\s*|\byear-end(?: balances?)?;?\s*", " ", f.expression)
    said = re.sub(r"\(\s+", "(", " ".join(said.split()))
    return replace(f, key=f"{f.key}_avg", synonyms=(), inputs=tuple(inputs), fn=fn, fallback=None,
                   expression=f"{said} (each balance the average of the year's opening and closing)")


# Every ratio over year-end balances that has no average form yet gets one, asked as such ("using average balances"):
# a convention the question states is applied, never silently the other one (agent.planning.defined_formulas).
_FALLEN_BACK_ON = {f.fallback for f in FORMULAS.values() if f.fallback}  # a chain's later steps: its head's forms
for _k, _f in list(FORMULAS.items()):
    if (_k in BALANCE_FORMS or _k in _FALLEN_BACK_ON or any(_k in forms for forms in BALANCE_FORMS.values()) or _f.fallback
            or _f.unit not in ("ratio", "percent", "days", "USD/shares") or any(i.offset for i in _f.inputs)
            or _k.endswith(("_growth", "_change")) or any(_k.startswith(p) for p in ("total_debt", "net_debt"))
            or not any(METRICS[i.metric].period == "instant" for i in _f.inputs)
            or f"{_k}_avg" in FORMULAS):
        continue
    FORMULAS[f"{_k}_avg"] = _averaged(_f)
    BALANCE_FORMS[_k] = (f"{_k}_avg", None)


def _on_days(f: Formula, days: int) -> Formula:
    """A days ratio (DSO, DIO, DPO, the cash cycle) over a `days`-day year instead of 365: the banker's
    360-day year changes the figure, so it is a form of its own whose expression says so."""
    def fn(*values, _fn=f.fn):
        return _fn(*values) * days / 365
    return replace(f, key=f"{f.key}_{days}", synonyms=(), fn=fn, fallback=None,
                   expression=f.expression.replace("× 365", f"× {days}").replace("365-day year", f"{days}-day year"))


# Each days ratio under a 360-day year, asked as such ("DSO using a 360-day year"): key -> its 360-day form.
DAY_FORMS: dict[str, str] = {k: f"{k}_360" for k, f in FORMULAS.items() if f.unit == "days" and "× 365" in f.expression}
FORMULAS.update({DAY_FORMS[k]: _on_days(FORMULAS[k], 360) for k in DAY_FORMS})



def _formula_phrases() -> dict[str, str]:
    table: dict[str, str] = {}
    for f in FORMULAS.values():
        for s in [*f.synonyms, *ALIASES.get(f.key, ())]:
            p = normalize(s)
            if p in PHRASES:
                raise ValueError(f"formula phrase {p!r} is also a metric phrase")
            if table.get(p, f.key) != f.key:
                raise ValueError(f"formula phrase {p!r} maps to {table[p]} and {f.key}")
            table[p] = f.key
    # a name with a word restating its unit ("ROE ratio", "DSO days"): never over a name already taken
    for f in FORMULAS.values():
        for s in [*f.synonyms, *ALIASES.get(f.key, ())]:
            for v in map(normalize, suffixed(s, f.unit)):
                if v and v not in PHRASES and v not in table:
                    table[v] = f.key
    return table


FORMULA_PHRASES: dict[str, str] = _formula_phrases()
MEASURE_PHRASES: dict[str, str] = {**PHRASES, **FORMULA_PHRASES}

# Words that turn a named base metric into its year-over-year growth ("how fast did revenue grow").
GROWTH_WORDS = ("growth", "grow", "grew", "growing", "yoy", "y/y", "year over year", "year on year",
                "increase", "increased", "decrease", "decreased", "decline", "declined", "change", "changed",
                "rise", "rose", "fall", "fell", "up or down", "expansion", "expanded", "expand", "contraction",
                "contracted", "compression", "compressed", "cagr", "chg", "shrink", "shrank", "shrunk", "shrinking",
                # a loss or a gap "narrowed" or "widened": its change, as a profit's "rose" or "fell"
                "narrow", "narrowed", "narrowing", "widen", "widened", "widening")


def match_measures(text: str) -> list[str]:
    """Metric and formula keys named in the text, longest phrase first, in order, no duplicates."""
    out: list[str] = []
    for _, _, key in find_phrases(normalize(text), MEASURE_PHRASES):
        if key not in out:
            out.append(key)
    return out


def match_formulas(text: str) -> list[str]:
    return [k for k in match_measures(text) if k in FORMULAS]


def is_formula(key: str) -> bool:
    return key in FORMULAS


# --- display -------------------------------------------------------------------------------


def _q(value: Decimal, places: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def display_value(value: Decimal, unit: str) -> str:
    """The one rendering of a number, shared by composers and cite_check.

    USD: "$391.04 billion", "$12.35 million", "$12,345"; USD/shares: "$6.11"; shares:
    "15.12 billion shares"; percent: "46.2%" (value already in percent); pure (a fraction, as XBRL
    reports rates): 0.241 -> "24.1%"; ratio: "1.87".
    Rounding is half-up, never banker's, so it matches what people compute by hand.
    """
    if not isinstance(value, Decimal):
        raise TypeError(f"display_value needs a Decimal, got {type(value).__name__}")
    sign = "-" if value < 0 else ""
    v = abs(value)
    if unit == "USD":
        if v >= BILLION:
            return f"{sign}${_q(v / BILLION, 2):,} billion"
        if v >= MILLION:
            return f"{sign}${_q(v / MILLION, 2):,} million"
        return f"{sign}${_q(v, 0):,}"
    if unit == "USD/shares":
        return f"{sign}${_q(v, 2):,}"
    if unit == "shares":
        if v >= BILLION:
            return f"{sign}{_q(v / BILLION, 2):,} billion shares"
        if v >= MILLION:
            return f"{sign}{_q(v / MILLION, 2):,} million shares"
        return f"{sign}{_q(v, 0):,} shares"
    if unit == "percent":
        return f"{sign}{_q(v, 1):,}%"
    if unit == "pure":  # XBRL pure facts are rates as fractions (EffectiveIncomeTaxRate...: 0.241)
        return f"{sign}{_q(v * HUNDRED, 1):,}%"
    if unit == "ratio":  # a small quotient keeps two significant digits: 0.078, never "0.08" or "0.00"
        return f"{sign}{_q(v, 2 if v >= Decimal('0.1') or not v else 3 if v >= Decimal('0.01') else 4):,}"
    if unit == "days":
        return f"{sign}{_q(v, 1):,} days"
    if unit == "count":  # a number of things (restaurants, employees, segments), as the filing counts them
        return f"{sign}{_q(v, 0) if v == v.to_integral_value() else v:,}"
    if unit == "points":  # a change of a percentage, already in points
        return f"{sign}{_q(v, 1):,} percentage points"
    return f"{sign}{v:,} {unit}"


@dataclass(frozen=True)
class Operand:
    """One cited input of a calculation, as the graph fetched it."""

    value: Decimal
    unit: str
    fiscal_year: int
    marker: int | None = None  # the citation number [n]


@dataclass(frozen=True)
class Result:
    key: str
    value: Decimal  # exact to 10 decimal places
    unit: str
    display: str
    calculation: Calculation


def calculate(key: str, operands: Sequence[Operand]) -> Result:
    """Compute formula `key` from its operands (in `Formula.inputs` order) with a readable trace."""
    formula = FORMULAS[key]
    value = formula.compute([o.value for o in operands])
    shown = display_value(value, formula.unit)
    # Each input once, with its fiscal year and footnote; the formula and the result are shown
    # beside the steps (Calculation.formula, .result), so the trace does not repeat them.
    steps = []
    for inp, op in zip(formula.inputs, operands):
        label = METRICS[inp.metric].label
        marker = f" [{op.marker}]" if op.marker is not None else ""
        steps.append(f"{label} (FY{op.fiscal_year}): {display_value(op.value, op.unit)}{marker}")
    calc = Calculation(metric=formula.label, formula=formula.expression, steps=steps, result=shown)
    return Result(key=key, value=value, unit=formula.unit, display=shown, calculation=calc)
