"""More of the ratios analysts ask by name, as data: name, the names people say, inputs, unit, and the
expression the answer restates (with the convention it applies).

Why: a ratio the registry does not know is refused as an unknown metric even when every operand is
reported, so each name an analyst uses for a ratio over reported line items belongs here, once, with
the convention that changes its figure (year-end or average balances, what "debt" counts) written
into its expression. agent.retrieval.finance turns each row into a Formula. A company's own non-GAAP
measures (adjusted anything: their adjustments are not in XBRL) stay out: those are refused, naming
what is missing; EBITDA, EBIT and ROIC are agent.retrieval.finance's, each under a stated convention.
"""

from __future__ import annotations

from decimal import Decimal

HUNDRED = Decimal(100)


def div(a: Decimal, b: Decimal) -> Decimal:
    """a ÷ b; a zero divisor raises ZeroDivisionError, which Formula.compute reports as FormulaError."""
    return a / b


def pct(a: Decimal, b: Decimal) -> Decimal:
    return a / b * HUNDRED


# (key, label, synonyms, inputs as (metric, year offset), unit, expression, fn, operator)
CATALOGUE: tuple[tuple, ...] = (
    ("book_value_per_share", "Book value per share",
     ("book value per share", "bvps", "book value per common share", "equity per share",
      "shareholders equity per share", "stockholders equity per share", "book value a share"),
     (("equity", 0), ("shares_outstanding", 0)), "USD/shares",
     "Stockholders' equity ÷ Shares outstanding (year-end balances)", div, "expr"),
    ("liabilities_to_assets", "Total liabilities to total assets",
     ("liabilities to assets", "liabilities to assets ratio", "total liabilities to total assets",
      "total liabilities to assets", "liabilities to total assets", "total liabilities to total assets ratio",
      "debt ratio"),
     (("total_liabilities", 0), ("total_assets", 0)), "ratio",
     "Total liabilities ÷ Total assets (year-end; the debt ratio taken as total liabilities over total assets)",
     div, "expr"),
    ("liabilities_to_equity", "Total liabilities to equity",
     ("liabilities to equity", "liabilities to equity ratio", "total liabilities to equity",
      "total liabilities to equity ratio", "total liabilities to shareholders equity",
      "total liabilities to stockholders equity"),
     (("total_liabilities", 0), ("equity", 0)), "ratio",
     "Total liabilities ÷ Stockholders' equity (year-end)", div, "expr"),
    ("equity_ratio", "Equity ratio",
     ("equity ratio", "equity to assets", "equity to assets ratio", "equity to total assets",
      "shareholders equity ratio", "stockholders equity to total assets", "shareholders equity to total assets"),
     (("equity", 0), ("total_assets", 0)), "percent",
     "Stockholders' equity ÷ Total assets (year-end)", pct, "expr"),
    ("pretax_margin", "Pretax margin",
     ("pretax margin", "pre tax margin", "pretax profit margin", "pre tax profit margin", "ebt margin",
      "pretax income margin", "pre tax income margin", "income before taxes margin"),
     (("pretax_income", 0), ("revenue", 0)), "percent",
     "Income before income taxes ÷ Revenue", pct, "÷"),
    ("retention_ratio", "Retention ratio",
     ("retention ratio", "earnings retention ratio", "plowback ratio", "plowback rate", "retention rate of earnings"),
     (("net_income", 0), ("dividends_paid", 0)), "percent",
     "(Net income − Dividends paid) ÷ Net income (one minus the payout ratio)",
     lambda ni, div_paid: (ni - div_paid) / ni * HUNDRED, "expr"),
    ("dividend_coverage", "Dividend coverage",
     ("dividend coverage", "dividend coverage ratio", "dividend cover", "dividend cover ratio"),
     (("net_income", 0), ("dividends_paid", 0)), "ratio",
     "Net income ÷ Dividends paid", div, "expr"),
    ("ocf_ratio", "Operating cash flow ratio",
     ("operating cash flow to current liabilities", "cash flow to current liabilities",
      "ocf to current liabilities", "cash from operations to current liabilities", "operating cash flow ratio",
      "ocf ratio", "cash flow from operations ratio", "cash from operations ratio", "operating cash flow ratios"),
     (("operating_cash_flow", 0), ("current_liabilities", 0)), "ratio",
     "Operating cash flow ÷ Current liabilities (year-end)", div, "expr"),
    ("payables_turnover", "Payables turnover",
     ("payables turnover", "payable turnover", "accounts payable turnover", "ap turnover",
      "payables turnover ratio", "accounts payable turnover ratio", "creditor turnover"),
     (("cost_of_revenue", 0), ("accounts_payable", 0)), "ratio",
     "Cost of revenue ÷ Accounts payable (year-end payables)", div, "expr"),
    ("capex_coverage", "Capex coverage",
     ("capex coverage", "capex coverage ratio", "capital expenditure coverage", "capital expenditure coverage ratio",
      "operating cash flow to capex", "ocf to capex", "cash flow to capex", "cash from operations to capex"),
     (("operating_cash_flow", 0), ("capex", 0)), "ratio",
     "Operating cash flow ÷ Capital expenditures", div, "expr"),
    ("capex_to_ocf", "Capex to operating cash flow",
     ("capex to operating cash flow", "capex to ocf", "capex to cash from operations",
      "capital expenditures to operating cash flow", "capex as a % of operating cash flow",
      "capex as a percentage of operating cash flow"),
     (("capex", 0), ("operating_cash_flow", 0)), "percent",
     "Capital expenditures ÷ Operating cash flow", pct, "÷"),
    ("sbc_pct_revenue", "Stock-based compensation as % of revenue",
     ("sbc as a % of revenue", "sbc as % of revenue", "sbc to revenue", "sbc % of revenue", "sbc intensity",
      "stock based compensation as a % of revenue", "stock based compensation as a percentage of revenue",
      "stock based compensation to revenue", "share based compensation as a % of revenue",
      "stock comp as a % of revenue", "sbc as a percentage of revenue", "sbc as a share of revenue"),
     (("stock_compensation", 0), ("revenue", 0)), "percent",
     "Stock-based compensation ÷ Revenue", pct, "÷"),
    ("return_on_sales", "Return on sales",
     ("return on sales", "return on revenue"),
     (("operating_income", 0), ("revenue", 0)), "percent",
     "Operating income ÷ Revenue (return on sales as operating margin)", pct, "÷"),
    ("total_payout", "Total payout ratio",
     ("total payout ratio", "total shareholder payout ratio", "shareholder payout ratio", "total payout",
      "payout ratio including buybacks", "payout ratio including share repurchases", "cash return ratio",
      "total shareholder payout"),
     (("dividends_paid", 0), ("buybacks", 0), ("net_income", 0)), "percent",
     "(Dividends paid + Share repurchases) ÷ Net income",
     lambda d, b, ni: (d + b) / ni * HUNDRED, "expr"),
    ("fcf_per_share", "Free cash flow per share",
     ("free cash flow per share", "fcf per share", "fcf/share", "free cash flow a share", "fcf a share"),
     (("operating_cash_flow", 0), ("capex", 0), ("diluted_shares", 0)), "USD/shares",
     "(Operating cash flow − Capital expenditures) ÷ Weighted-average diluted shares (the diluted count)",
     lambda ocf, capex, sh: (ocf - capex) / sh, "expr"),
    ("revenue_per_share", "Revenue per share",
     ("revenue per share", "revenues per share", "sales per share", "net sales per share", "revenue per diluted share",
      "sales per diluted share", "revenue a share"),
     (("revenue", 0), ("diluted_shares", 0)), "USD/shares",
     "Revenue ÷ Weighted-average diluted shares (the diluted count)", div, "expr"),
    ("ocf_per_share", "Operating cash flow per share",
     ("operating cash flow per share", "cash flow per share", "ocf per share", "cash from operations per share",
      "ocf/share"),
     (("operating_cash_flow", 0), ("diluted_shares", 0)), "USD/shares",
     "Operating cash flow ÷ Weighted-average diluted shares (the diluted count)", div, "expr"),
    ("tax_burden", "Tax burden",
     ("tax burden", "tax burden ratio", "tax retention ratio"),
     (("net_income", 0), ("pretax_income", 0)), "ratio",
     "Net income ÷ Income before income taxes (the DuPont tax burden)", div, "expr"),
    ("interest_burden", "Interest burden",
     ("interest burden", "interest burden ratio", "dupont interest burden"),
     (("pretax_income", 0), ("operating_income", 0)), "ratio",
     "Income before income taxes ÷ Operating income (the DuPont interest burden, EBIT taken as operating income)",
     div, "expr"),
    ("working_capital_turnover", "Working capital turnover",
     ("working capital turnover", "working capital turnover ratio", "net working capital turnover",
      "sales to working capital", "revenue to working capital", "sales to net working capital",
      "revenue to net working capital", "working capital turns"),
     (("revenue", 0), ("current_assets", 0), ("current_liabilities", 0)), "ratio",
     "Revenue ÷ (Current assets − Current liabilities) (year-end working capital)",
     lambda rev, ca, cl: rev / (ca - cl), "expr"),
    ("equity_turnover", "Equity turnover",
     ("equity turnover", "equity turnover ratio", "sales to equity", "revenue to equity", "sales to equity ratio",
      "revenue to shareholders equity", "sales to shareholders equity", "shareholders equity turnover"),
     (("revenue", 0), ("equity", 0), ("equity", -1)), "ratio",
     "Revenue ÷ average stockholders' equity (average of the year's opening and closing balances)",
     lambda rev, eq, prior: rev / ((eq + prior) / 2), "expr"),
    ("fcf_payout", "Free-cash-flow payout ratio",
     ("fcf payout ratio", "free cash flow payout ratio", "fcf payout", "free cash flow payout",
      "dividends to free cash flow", "dividends to fcf", "dividend payout ratio on free cash flow",
      "dividends as a % of free cash flow", "dividends as a percentage of free cash flow",
      "fcf dividend payout ratio", "free cash flow dividend payout ratio", "cash dividend payout ratio"),
     (("dividends_paid", 0), ("operating_cash_flow", 0), ("capex", 0)), "percent",
     "Dividends paid ÷ (Operating cash flow − Capital expenditures)",
     lambda d, ocf, capex: d / (ocf - capex) * HUNDRED, "expr"),
    ("operating_cycle", "Operating cycle",
     ("operating cycle", "operating cycle days", "days in operating cycle"),
     (("inventory", 0), ("cost_of_revenue", 0), ("accounts_receivable", 0), ("revenue", 0)), "days",
     "(Inventories ÷ Cost of revenue + Accounts receivable ÷ Revenue) × 365 (days inventory plus days sales "
     "outstanding; year-end balances, 365-day year)",
     lambda inv, cogs, ar, rev: (inv / cogs + ar / rev) * 365, "expr"),
    ("pretax_roe", "Pretax return on equity",
     ("pretax return on equity", "pre tax return on equity", "pretax roe", "pre tax roe",
      "return on equity before tax", "return on equity before taxes"),
     (("pretax_income", 0), ("equity", 0), ("equity", -1)), "percent",
     "Income before income taxes ÷ average stockholders' equity (average of the year's opening and closing "
     "balances)", lambda pre, eq, prior: pre / ((eq + prior) / 2) * HUNDRED, "expr"),
    ("cash_roa", "Cash return on assets",
     ("cash return on assets", "cash flow return on assets", "cfroa", "cash roa", "operating cash flow to assets",
      "operating cash flow to total assets", "ocf to assets", "ocf to total assets", "cash flow to assets",
      "cash from operations to total assets", "operating cash flow return on assets"),
     (("operating_cash_flow", 0), ("total_assets", 0), ("total_assets", -1)), "percent",
     "Operating cash flow ÷ average total assets (average of the year's opening and closing balances)",
     lambda ocf, ta, prior: ocf / ((ta + prior) / 2) * HUNDRED, "expr"),
    ("capitalization_ratio", "Capitalization ratio",
     ("capitalization ratio", "capitalisation ratio", "long term debt to capitalization",
      "long term debt to total capitalization", "long term debt to capital", "long term debt to total capital",
      "lt debt to capital", "long term debt to capital ratio", "long term debt to capitalization ratio",
      "long term debt to capitalisation"),
     (("long_term_debt", 0), ("equity", 0)), "ratio",
     "Long-term debt ÷ (Long-term debt + Stockholders' equity) (year-end; capitalization as long-term debt plus "
     "equity)", lambda ltd, eq: ltd / (ltd + eq), "expr"),
    # every operating cost, cost of sales included, over revenue (a railroad's headline ratio): revenue less
    # operating income is that total wherever the company prints its costs, so no "operating expenses" line
    # that leaves cost of sales out is read as it
    ("operating_ratio", "Operating ratio",
     ("operating ratio", "operating cost ratio", "operating costs to revenue", "total operating costs to revenue"),
     (("revenue", 0), ("operating_income", 0)), "percent",
     "(Revenue − Operating income) ÷ Revenue (all operating costs and expenses, cost of sales included, over revenue)",
     lambda rev, oi: (rev - oi) / rev * HUNDRED, "expr"),
    ("lt_debt_to_assets", "Long-term debt to total assets",
     ("long term debt ratio", "long term debt to assets", "long term debt to total assets", "ltd to assets",
      "lt debt to assets", "long term debt to assets ratio", "long term debt to total assets ratio"),
     (("long_term_debt", 0), ("total_assets", 0)), "ratio", "Long-term debt ÷ Total assets (year-end)", div, "expr"),
    ("capex_to_da", "Capex to D&A",
     ("capex to d&a", "capex to d&a ratio", "capex/d&a", "capex to depreciation and amortization",
      "capital expenditures to depreciation and amortization", "capex as a multiple of d&a",
      "capital expenditures to d&a", "capex to depreciation & amortization"),
     (("capex", 0), ("depreciation_amortization", 0)), "ratio",
     "Capital expenditures ÷ Depreciation and amortization", div, "÷"),
    ("rd_to_sga", "R&D to SG&A",
     ("r&d to sg&a", "r&d to sga", "rd to sga", "research and development to sg&a",
      "r&d as a % of sg&a", "r&d as a percentage of sg&a"),
     (("rd", 0), ("sga", 0)), "ratio", "R&D ÷ SG&A", div, "÷"),
    # equity less the goodwill and intangible assets it holds: what a lender counts as the owners' cushion
    ("tangible_book_value", "Tangible book value",
     ("tangible book value", "tangible equity", "tangible net worth", "tangible common equity", "tangible book"),
     (("equity", 0), ("goodwill", 0), ("intangible_assets", 0)), "USD",
     "Stockholders' equity − Goodwill − Intangible assets, net (year-end balances)",
     lambda eq, gw, ia: eq - gw - ia, "expr"),
    ("tangible_book_value_per_share", "Tangible book value per share",
     ("tangible book value per share", "tbvps", "tangible book value per common share", "tangible equity per share"),
     (("equity", 0), ("goodwill", 0), ("intangible_assets", 0), ("shares_outstanding", 0)), "USD/shares",
     "(Stockholders' equity − Goodwill − Intangible assets, net) ÷ Shares outstanding (year-end balances)",
     lambda eq, gw, ia, sh: (eq - gw - ia) / sh, "expr"),
    ("return_on_tangible_equity", "Return on tangible equity",
     ("return on tangible equity", "rote", "return on tangible common equity", "rotce",
      "return on tangible book value"),
     (("net_income", 0), ("equity", 0), ("goodwill", 0), ("intangible_assets", 0)), "percent",
     "Net income ÷ (Stockholders' equity − Goodwill − Intangible assets, net) (year-end balances)",
     lambda ni, eq, gw, ia: ni / (eq - gw - ia) * HUNDRED, "expr"),
    # how much operating income moved for each unit revenue moved, year over year
    ("operating_leverage", "Degree of operating leverage",
     ("degree of operating leverage", "dol", "operating leverage ratio"),
     (("operating_income", 0), ("operating_income", -1), ("revenue", 0), ("revenue", -1)), "ratio",
     "(Operating income ÷ Operating income (prior year) − 1) ÷ (Revenue ÷ Revenue (prior year) − 1) (the year's "
     "operating income growth over its revenue growth)",
     lambda oi, oi0, rev, rev0: (oi / oi0 - 1) / (rev / rev0 - 1), "expr"),
)

# Other names analysts use for the registry's own ratios (abbreviations, shop talk), by formula key.
ALIASES: dict[str, tuple[str, ...]] = {
    "dso": ("days of receivables", "days of receivables outstanding", "days of sales outstanding",
            "receivables days outstanding", "ar days", "a/r days", "average collection period", "collection period", "days receivables",
            "days sales outstanding ratio", "receivables collection period"),
    "receivables_turnover": ("a/r turnover", "ar turnover ratio", "a/r turnover ratio", "receivables turns"),
    "inventory_turnover": ("inv turnover", "inventory turn", "inv turns", "turnover of inventory",
                           "inventory turnover rate"),
    "dpo": ("days of payables", "days of payables outstanding", "days of payable outstanding", "payables days outstanding"),
    "dio": ("days inventory", "inventory days on hand", "inv days", "inventory days outstanding", "days of inventory outstanding", "inventory holding period"),
    "asset_turnover": ("asset turns", "total asset turns", "asset turnover rate"),
    "ebitda_interest_coverage": ("cash coverage ratio", "cash coverage", "ebitda coverage ratio", "interest coverage ebitda",
                                 "interest coverage using ebitda", "interest coverage based on ebitda",
                                 "interest coverage ratio using ebitda", "interest coverage ratio based on ebitda",
                                 "ebitda based interest coverage", "interest coverage on ebitda", "interest coverage ratio ebitda"),
    "debt_to_assets": ("total debt ratio", "total debt to assets ratio"),
    "working_capital": ("nwc", "net working capital position"),
    "interest_coverage": ("int coverage", "interest coverage multiple", "interest cover ratio",
                          "times interest earned ratio"),
    "gross_margin": ("gpm",),
    "operating_margin": ("opm", "operating profit margin ratio"),
    "net_margin": ("npm", "ni margin", "net income %", "ni %", "net margin %"),
    "fcf_per_share": ("fcf per share diluted", "free cash flow per share diluted"),
    "revenue_per_share": ("net revenue per share", "net revenues per share", "revenue per share diluted",
                          "sales per share diluted"),
    # operating cash flow over net income: how much of the earnings arrived as cash
    "cash_conversion": ("quality of earnings", "quality of earnings ratio", "earnings quality ratio",
                        "cash flow to net income", "cash flow to earnings", "operating cash flow to earnings",
                        "ocf to earnings", "cash earnings ratio"),
    "roe": ("dupont roe", "dupont return on equity", "return on average shareholders equity",
            "return on average stockholders equity", "return on average common equity"),
    "roa": ("return on average total assets",),
    "capex_pct_revenue": ("capex to sales", "capex to revenue", "capital expenditures to sales",
                          "capital expenditure to revenue", "capex as a percent of sales", "capex/sales",
                          "capex/revenue"),
}

# Words that restate a ratio's unit after its name ("ROE ratio", "DSO days", "gross margin %"): the
# same formula. Generated only where the name does not already end so, and never over another name.
UNIT_SUFFIXES: dict[str, tuple[str, ...]] = {
    "percent": ("ratio", "%", "percent", "percentage", "pct"),
    "ratio": ("ratio", "multiple"),
    "days": ("days", "in days"),
}


def suffixed(name: str, unit: str) -> list[str]:
    """`name` with each word that restates `unit` after it, unless it already ends with one."""
    words = UNIT_SUFFIXES.get(unit, ())
    glued = [f"{name}%"] if unit == "percent" and not name.endswith("%") else []  # "roic%", "roe%"
    return [f"{name} {w}" for w in words if not name.endswith((f" {w}", w))] + glued


# Words that, set before a named rate or ratio, say it is computed from the statements rather than
# tagged ("implied ETR", "computed quick ratio"): the same formula, never a different figure.
COMPUTED_PREFIXES = ("implied", "computed", "calculated", "derived")


def computed_variants(names: tuple[str, ...] | list[str]) -> list[str]:
    """Each name with each COMPUTED_PREFIXES word before it, unless it already starts with one."""
    return [f"{p} {n}" for n in names for p in COMPUTED_PREFIXES if n.split(" ", 1)[0] not in COMPUTED_PREFIXES]
