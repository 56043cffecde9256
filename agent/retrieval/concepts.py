"""The curated metric → XBRL concept table, and exact phrase matching of metrics in questions.

Why curated and exact: peers have answered "revenue" with CostOfRevenue because a fuzzy matcher
found the closest concept name. Here a metric is only ever one of the rows below, found by an
exact phrase (longest phrase wins, so "cost of revenue" can never be read as "revenue"); typos are
tolerated only through an explicit list. A metric-like ask that maps to nothing (EBITDA, ARR,
churn) is reported by `unknown_metric_phrase` so the planner refuses instead of guessing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

PeriodKind = Literal["duration", "instant"]


@dataclass(frozen=True)
class Metric:
    key: str
    label: str  # as shown to the user: "Revenue"
    synonyms: tuple[str, ...]  # normalized phrases analysts type
    concepts: tuple[str, ...]  # acceptable concepts, best first, as "taxonomy:Name"
    unit: str  # USD, USD/shares, shares
    period: PeriodKind
    misspellings: tuple[str, ...] = ()  # explicit typo list; never fuzzy
    query: str = ""  # words the filings use, for retrieval about this metric
    fallback: str | None = None  # a FORMULAS key to compute when no concept has a fact
    # the concepts are alternative taggings of one line ("Net sales" or "Total revenues"): where a company
    # prints two of them, the user's words pick the row (agent.retrieval.line_items.printed_order). False when the
    # order is a convention the answer keeps (net income: attributable to the parent, whatever is printed)
    by_label: bool = False
    # concepts a company may use for this line, and others for something else, taken (after `concepts`) only
    # where the company prints them under a name holding these words (agent.retrieval.metric_facts.concepts_of)
    printed_only: tuple[tuple[str, str], ...] = ()


def _m(key, label, synonyms, concepts, unit="USD", period="duration", misspellings=(), query="", fallback=None,
       by_label=False, printed_only=()):
    return Metric(key, label, tuple(synonyms), tuple(concepts), unit, period, tuple(misspellings),
                  query or label.lower(), fallback, by_label, tuple(printed_only))


METRICS: dict[str, Metric] = {
    m.key: m
    for m in [
        _m(
            "revenue",
            "Revenue",
            ["revenue", "revenues", "total revenue", "total revenues", "net revenue", "net revenues", "sales",
             "net sales", "total net sales", "total sales", "top line", "topline", "turnover", "net sales revenue",
             "total net revenue", "total net revenues"],
            # Revenues first: a filer that tags both uses Revenues for the total and the contract-revenue
            # concept for a component (Walmart: total revenues 680,985 vs net sales 674,538 in FY2025)
            ["us-gaap:Revenues", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
             "us-gaap:SalesRevenueNet", "us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax"],
            misspellings=["revnue", "reveune", "revenu", "reveneu", "revenues", "revneue", "reveunes", "revnues",
                          "revenus", "revanue", "revenew", "rev"],
            query="revenue net sales",
            by_label=True,
        ),
        _m(
            "net_income",
            "Net income",
            ["net income", "net earnings", "net profit", "profit", "earnings", "bottom line", "net income loss",
             "net loss", "net income attributable", "profits"],
            ["us-gaap:NetIncomeLoss", "us-gaap:ProfitLoss", "us-gaap:NetIncomeLossAvailableToCommonStockholdersBasic"],
            misspellings=["net incom", "net icome", "net imcome", "net incme", "netincome"],
            query="net income",
        ),
        _m(
            "rd",
            "Research and development expense",
            ["r&d", "r & d", "r and d", "rnd", "research and development", "research & development",
             "research and development expense", "research and development expenses", "r&d expense",
             "r&d expenses", "r&d spend", "r&d spending", "research spending", "research spend", "research and development costs"],
            ["us-gaap:ResearchAndDevelopmentExpense",
             "us-gaap:ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost"],
            misspellings=["reserch and development", "research and developement", "r+d"],
            query="research and development expense",
        ),
        _m(
            "sga",
            "Selling, general and administrative expense",
            ["sg&a", "sga", "sg and a", "selling general and administrative", "selling, general and administrative",
             "selling general & administrative", "selling general and administrative expense",
             "selling general and administrative expenses", "sg&a expense", "sg&a expenses"],
            ["us-gaap:SellingGeneralAndAdministrativeExpense"],
            query="selling, general and administrative expense",
        ),
        _m(
            "total_assets",
            "Total assets",
            ["total assets", "assets"],
            ["us-gaap:Assets"],
            period="instant",
            misspellings=["total asets", "totla assets"],
        ),
        _m(
            "total_liabilities",
            "Total liabilities",
            ["total liabilities", "liabilities"],
            ["us-gaap:Liabilities"],
            period="instant",
        ),
        _m(
            "equity",
            "Total stockholders' equity",
            ["stockholders equity", "shareholders equity", "total stockholders equity", "total shareholders equity",
             "total equity", "equity", "book value", "net worth", "shareholder equity", "stockholder equity"],
            ["us-gaap:StockholdersEquity",
             "us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest"],
            period="instant",
            query="shareholders equity",
        ),
        _m(
            "long_term_debt",
            "Long-term debt",
            ["long term debt", "longterm debt", "lt debt", "long term borrowings", "debt",
             "long term debt noncurrent", "borrowings"],
            # the noncurrent amounts before LongTermDebt, which the taxonomy defines as including current
            # maturities: a filer tagging both (Boeing) prints the noncurrent one as its "Long-term debt"
            # row, and total debt adds the current portion to it, which LongTermDebt would count twice
            ["us-gaap:LongTermDebtNoncurrent", "us-gaap:LongTermDebtAndCapitalLeaseObligations",
             "us-gaap:LongTermDebt"],
            period="instant",
            query="long-term debt term debt notes",
        ),
        _m(
            "current_debt",
            "Current portion of long-term debt",
            ["current portion of long term debt", "current maturities of long term debt", "current debt",
             "long term debt current portion", "current portion of debt", "current term debt"],
            ["us-gaap:LongTermDebtCurrent", "us-gaap:LongTermDebtAndCapitalLeaseObligationsCurrent", "us-gaap:DebtCurrent"],
            period="instant",
            query="current portion of term debt",
        ),
        # EBITDA's input where a company prints depreciation alone (railroads): no phrases, so "depreciation"
        # in a question stays the company's printed row
        _m(
            "depreciation",
            "Depreciation",
            [],
            ["us-gaap:Depreciation"],
            query="depreciation",
        ),
        # An input of EBITDA where a company prints depreciation and the amortization of intangibles as two
        # rows and no D&A total (AbbVie, Abbott, Intel, Thermo Fisher); no phrases of its own: asked alone,
        # it is the company's printed row
        # The two rows of SG&A where a company prints them apart and no SG&A total (Alphabet, Meta, Adobe,
        # Visa): inputs of SG&A's ratios, no phrases of their own (asked alone, each is the printed row)
        _m(
            "selling_marketing",
            "Sales and marketing",
            [],
            ["us-gaap:SellingAndMarketingExpense", "us-gaap:MarketingExpense", "us-gaap:MarketingAndAdvertisingExpense"],
            query="sales and marketing expense",
        ),
        _m(
            "general_administrative",
            "General and administrative",
            [],
            ["us-gaap:GeneralAndAdministrativeExpense"],
            query="general and administrative expense",
        ),
        _m(
            "amortization_intangibles",
            "Amortization of intangible assets",
            [],
            ["us-gaap:AmortizationOfIntangibleAssets"],
            query="amortization of intangible assets",
        ),
        # Two inputs of total debt (agent.retrieval.finance, "debt to equity") with no phrases of their own:
        # "short-term debt" in a question stays the company's printed row. DebtCurrent is the balance
        # sheet's whole current debt (current maturities and short-term borrowings, by the taxonomy's
        # definition); short-term borrowings are added to current maturities only where it is not tagged.
        _m(
            "debt_current",
            "Current debt (current maturities and short-term borrowings)",
            [],
            ["us-gaap:DebtCurrent"],
            period="instant",
            query="short-term debt current maturities",
        ),
        # Total debt's parts as analysts read "debt" (long-term debt, current and noncurrent; agent.retrieval.finance
        # DEBT_STEPS), no phrases of their own: the current maturities alone, never the balance sheet's whole current
        # debt line (DebtCurrent holds commercial paper); and long-term debt tagged with its current maturities in it
        _m(
            "ltd_maturities_current",
            "Current maturities of long-term debt",
            [],
            ["us-gaap:LongTermDebtCurrent", "us-gaap:LongTermDebtAndCapitalLeaseObligationsCurrent"],
            period="instant",
            query="current portion of long-term debt",
        ),
        _m(
            "ltd_with_current",
            "Long-term debt including current maturities",
            [],
            ["us-gaap:LongTermDebt", "us-gaap:LongTermDebtAndCapitalLeaseObligationsIncludingCurrentMaturities"],
            period="instant",
            query="long-term debt including current maturities",
        ),
        _m(
            "short_term_borrowings",
            "Short-term borrowings",
            [],
            ["us-gaap:ShortTermBorrowings", "us-gaap:CommercialPaper"],
            period="instant",
            query="short-term borrowings commercial paper",
        ),
        _m(
            "cash",
            "Cash and cash equivalents",
            ["cash and cash equivalents", "cash and equivalents", "cash & equivalents", "cash & cash equivalents",
             "cash", "cash balance", "cash on hand", "cash position"],
            # not the cash-flow statement's total, which adds restricted cash
            ["us-gaap:CashAndCashEquivalentsAtCarryingValue"],
            period="instant",
            query="cash and cash equivalents",
        ),
        _m(
            "eps_diluted",
            "Diluted EPS",
            ["diluted eps", "eps diluted", "diluted earnings per share", "earnings per share diluted", "eps",
             "earnings per share", "diluted net income per share", "net income per diluted share",
             "earnings per diluted share"],
            ["us-gaap:EarningsPerShareDiluted", "us-gaap:IncomeLossFromContinuingOperationsPerDilutedShare"],
            unit="USD/shares",
            query="diluted earnings per share",
        ),
        _m(
            "eps_basic",
            "Basic EPS",
            ["basic eps", "eps basic", "basic earnings per share", "earnings per share basic",
             "basic net income per share", "net income per basic share"],
            ["us-gaap:EarningsPerShareBasic", "us-gaap:IncomeLossFromContinuingOperationsPerBasicShare"],
            unit="USD/shares",
            query="basic earnings per share",
        ),
        _m(
            "shares_outstanding",
            "Shares outstanding",
            ["shares outstanding", "outstanding shares", "share count", "number of shares",
             "common shares outstanding", "shares of common stock outstanding", "common stock outstanding"],
            ["us-gaap:CommonStockSharesOutstanding", "dei:EntityCommonStockSharesOutstanding"],
            unit="shares",
            period="instant",
            query="shares of common stock outstanding",
        ),
        # the cover page's "aggregate market value of the voting stock held by non-affiliates", measured at the end of
        # the second fiscal quarter and filed with that year's 10-K: dei facts are read by the filing's fiscal year
        _m(
            "public_float",
            "Public float",
            ["public float", "aggregate market value held by non affiliates", "market value held by non affiliates",
             "aggregate market value of common stock held by non affiliates",
             "market value of common stock held by non affiliates", "entity public float"],
            ["dei:EntityPublicFloat"],
            period="instant",
            query="aggregate market value of common stock held by non-affiliates",
        ),
        # the cover page's count of shares outstanding, as of a date weeks after the year ends (the balance
        # sheet's count is at year end): no phrase of its own, asked by its key's words ("cover shares") only when
        # the question names the cover page (agent.planning.corrections.cover_page)
        _m(
            "cover_shares",
            "Shares outstanding (cover page)",
            [],
            ["dei:EntityCommonStockSharesOutstanding"],
            unit="shares",
            period="instant",
            query="shares of common stock outstanding",
        ),
        _m(
            "diluted_shares",
            "Weighted-average diluted shares",
            ["diluted shares", "weighted average diluted shares", "diluted share count",
             "weighted average shares diluted"],
            ["us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding"],
            unit="shares",
        ),
        # the divisor of "per basic share" and "use basic shares", as diluted_shares is of the diluted figure
        _m(
            "basic_shares",
            "Weighted-average basic shares",
            ["basic shares", "weighted average basic shares", "basic share count", "weighted average shares basic",
             "basic weighted average shares"],
            ["us-gaap:WeightedAverageNumberOfSharesOutstandingBasic"],
            unit="shares",
        ),
        _m(
            "operating_expenses",
            "Operating expenses",
            ["operating expenses", "total operating expenses", "opex", "operating expense", "operating costs",
             "op ex"],
            ["us-gaap:OperatingExpenses"],  # not CostsAndExpenses: that includes cost of revenue
            query="operating expenses",
            # no operating-expense total printed (Alphabet's "Total costs and expenses"): the total costs and
            # expenses less cost of revenue, the expression saying so (a total the company prints as
            # "Total operating expenses", cost of sales within it as Amazon's, is read by its printed label first)
            fallback="operating_expenses_computed",
        ),
        # The cash paid for businesses acquired, the cash-flow row: an operand of a user's formula ("capex plus
        # acquisitions", agent.planning.formula_operands.OPERAND_WORDS), never the goodwill roll-forward's
        # "Acquisitions" row (goodwill acquired); no phrases of its own ("acquisitions" alone may ask a count)
        _m(
            "acquisitions_paid",
            "Acquisitions, net of cash acquired",
            [],
            ["us-gaap:PaymentsToAcquireBusinessesNetOfCashAcquired", "us-gaap:PaymentsToAcquireBusinessesGross"],
            query="acquisitions net of cash acquired",
        ),
        _m(
            "costs_expenses_total",
            "Total costs and expenses",
            [],
            ["us-gaap:CostsAndExpenses"],
            query="total costs and expenses",
        ),
        _m(
            "gross_profit",
            "Gross profit",
            ["gross profit", "gross margin dollars", "gross income"],
            ["us-gaap:GrossProfit"],
            misspellings=["gross proft", "gross profti"],
        ),
        _m(
            "operating_income",
            "Operating income",
            ["operating income", "income from operations", "operating profit", "operating income loss",
             "operating loss", "op income", "op profit", "op inc", "operating earnings"],
            ["us-gaap:OperatingIncomeLoss"],
            misspellings=["operating incom", "opearting income"],
        ),
        _m(
            "cost_of_revenue",
            "Cost of revenue",
            ["cost of revenue", "cost of revenues", "cost of sales", "cost of goods sold", "cogs", "costs of revenue",
             "cost of net revenue", "total cost of revenue", "total cost of sales", "cost of products sold"],
            # not CostOfServices: that is one part of the cost of revenue
            ["us-gaap:CostOfGoodsAndServicesSold", "us-gaap:CostOfRevenue", "us-gaap:CostOfGoodsSold"],
            misspellings=["cost of revnue", "cost of reveune"],
            query="cost of sales cost of revenue",
            by_label=True,
        ),
        _m(
            "capex",
            "Capital expenditures",
            ["capex", "cap ex", "capital expenditures", "capital expenditure", "capital spending",
             "purchases of property and equipment", "payments for property plant and equipment",
             "purchases of property plant and equipment", "capital investments"],
            ["us-gaap:PaymentsToAcquirePropertyPlantAndEquipment",
             "us-gaap:PaymentsToAcquireProductiveAssets"],
            misspellings=["capx", "cpaex"],
            query="capital expenditures purchases of property and equipment",
            # Verizon tags "Capital expenditures (including capitalized software)" so; McDonald's tags its
            # "Purchases of restaurant businesses", Riot its "Security deposits" with the same concept
            printed_only=[("us-gaap:PaymentsToAcquireOtherProductiveAssets", "capital expenditure")],
        ),
        _m(
            "operating_cash_flow",
            "Operating cash flow",
            ["operating cash flow", "cash from operations", "cash flow from operations", "cash from operating activities",
             "net cash provided by operating activities", "cash flow from operating activities", "ocf",
             "operating cash flows", "cash generated from operations"],
            # the continuing operations' line where a company tags no total (RTX: "Net cash flows provided by
            # operating activities from continuing operations"); a total, where tagged, comes first
            ["us-gaap:NetCashProvidedByUsedInOperatingActivities",
             "us-gaap:NetCashProvidedByUsedInOperatingActivitiesContinuingOperations"],
            query="cash generated by operating activities",
        ),
        _m(
            "depreciation_amortization",
            "Depreciation and amortization",
            ["d&a", "d and a", "depreciation and amortization", "depreciation & amortization",
             "depreciation amortization"],
            # not Depreciation alone: it leaves amortization out
            ["us-gaap:DepreciationDepletionAndAmortization", "us-gaap:DepreciationAndAmortization",
             "us-gaap:DepreciationAmortizationAndAccretionNet"],
            query="depreciation and amortization",
        ),
        _m(
            "income_tax",
            "Income tax expense",
            ["income tax", "income taxes", "income tax expense", "provision for income taxes", "tax expense",
             "taxes", "tax provision", "income tax provision", "taxes on earnings", "income taxes on earnings",
             "taxes on income", "provision for taxes", "provision for income tax", "income tax expense benefit"],
            ["us-gaap:IncomeTaxExpenseBenefit"],
            query="provision for income taxes",
        ),
        _m(
            "effective_tax_rate",
            "Effective tax rate",
            ["effective tax rate", "effective tax rates", "etr", "tax rate", "effective rate",
             "effective income tax rate"],
            ["us-gaap:EffectiveIncomeTaxRateContinuingOperations"],
            unit="pure",
            query="effective tax rate",
            fallback="effective_tax_rate_computed",
        ),
        _m(
            "pretax_income",
            "Income before income taxes",
            ["pretax income", "pre tax income", "income before taxes", "income before income taxes",
             "earnings before taxes", "pretax earnings", "earnings before income taxes",
             "income before provision for income taxes", "earnings before provision for income taxes",
             "income before income tax", "profit before tax", "profit before taxes", "pretax profit"],
            ["us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
             "us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments"],
        ),
        _m(
            "current_assets",
            "Total current assets",
            ["current assets", "total current assets"],
            ["us-gaap:AssetsCurrent"],
            period="instant",
        ),
        _m(
            "current_liabilities",
            "Total current liabilities",
            ["current liabilities", "total current liabilities"],
            ["us-gaap:LiabilitiesCurrent"],
            period="instant",
        ),
        _m(
            "inventory",
            "Inventories",
            ["inventory", "inventories", "net inventories", "inventory net"],
            ["us-gaap:InventoryNet"],
            period="instant",
            misspellings=["inventroy", "inventorys"],
        ),
        # No phrase of its own (a question naming PP&E reads the company's own row, agent.retrieval.line_items):
        # the balance the fixed-asset turnover averages, net of depreciation, finance-lease assets included where
        # the company prints them in one line
        _m(
            "ppe_net",
            "Property, plant and equipment, net",
            [],
            ["us-gaap:PropertyPlantAndEquipmentNet",
             "us-gaap:PropertyPlantAndEquipmentAndFinanceLeaseRightOfUseAssetAfterAccumulatedDepreciationAndAmortization"],
            period="instant",
            query="property, plant and equipment, net",
        ),
        # The note's total of long-lived assets (by geography): tagged NoncurrentAssets, whose taxonomy
        # definition is long-lived assets; "assets" alone would be total assets, a different figure
        _m(
            "long_lived_assets",
            "Long-lived assets",
            ["long lived assets", "total long lived assets", "longlived assets"],
            ["us-gaap:NoncurrentAssets"],
            period="instant",
            query="long-lived assets by geographic area",
        ),
        _m(
            "goodwill",
            "Goodwill",
            ["goodwill"],
            ["us-gaap:Goodwill"],
            period="instant",
        ),
        # Balances analysts ask for by their common names, which companies print in their own words ("Purchased
        # intangible assets, net", "Repurchased common stock", "Accrued expenses and other current liabilities")
        _m(
            "intangible_assets",
            "Intangible assets, net",
            ["intangible assets", "intangibles", "net intangibles", "net intangible assets", "intangible assets net",
             "other intangible assets", "other intangible assets net", "purchased intangible assets",
             "acquired intangible assets", "identifiable intangible assets"],
            # never the finite-lived part alone: a company with indefinite-lived brands (PepsiCo) would be
            # answered with a fraction of its intangibles
            ["us-gaap:IntangibleAssetsNetExcludingGoodwill"],
            period="instant",
            query="intangible assets net",
        ),
        _m(
            "treasury_stock",
            "Treasury stock, at cost",
            ["treasury stock", "treasury shares at cost", "treasury stock at cost", "treasury stock value",
             "cost of treasury stock", "stock held in treasury"],
            ["us-gaap:TreasuryStockValue", "us-gaap:TreasuryStockCommonValue"],
            period="instant",
            query="treasury stock at cost",
        ),
        _m(
            "accrued_liabilities",
            "Accrued liabilities",
            ["accrued liabilities", "accrued expenses", "current accrued liabilities", "accrued current liabilities",
             "accrued liabilities current", "accrued expenses and other current liabilities"],
            ["us-gaap:AccruedLiabilitiesCurrent"],
            period="instant",
            query="accrued liabilities",
        ),
        _m(
            "interest_expense",
            "Interest expense",
            ["interest expense", "interest costs", "interest expenses"],
            # last, "Interest and debt expense" where a company prints no other interest line (Boeing, Texas
            # Instruments)
            ["us-gaap:InterestExpense", "us-gaap:InterestExpenseNonoperating", "us-gaap:InterestExpenseDebt",
             "us-gaap:InterestAndDebtExpense"],
        ),
        _m(
            "stock_compensation",
            "Share-based compensation expense",
            ["stock based compensation", "share based compensation", "stock compensation", "sbc",
             "stock based comp", "stock comp", "equity comp", "equity compensation", "stock based compensation expense",
             "share based compensation expense", "share based comp", "share based comp expense", "stock based comp expense"],
            ["us-gaap:ShareBasedCompensation", "us-gaap:AllocatedShareBasedCompensationExpense"],
            query="share-based compensation expense",
        ),
        _m(
            "accounts_receivable",
            "Accounts receivable, net",
            ["accounts receivable", "receivables", "trade receivables", "a/r", "ar"],
            # "Receivables, net" where a company prints its receivables as one line and tags no trade
            # receivables (Walmart, GE)
            ["us-gaap:AccountsReceivableNetCurrent", "us-gaap:ReceivablesNetCurrent"],
            period="instant",
        ),
        _m(
            "accounts_payable",
            "Accounts payable",
            ["accounts payable", "payables", "trade payables", "a/p", "ap"],
            # "Trade accounts payable", "Trade payables" (Abbott, Kraft Heinz): the same line, tagged as trade
            ["us-gaap:AccountsPayableCurrent", "us-gaap:AccountsPayableTradeCurrent"],
            period="instant",
        ),
        _m(
            "retained_earnings",
            "Retained earnings (accumulated deficit)",
            ["retained earnings", "accumulated deficit"],
            ["us-gaap:RetainedEarningsAccumulatedDeficit"],
            period="instant",
        ),
        _m(
            "dividends_per_share",
            "Dividends declared per share",
            ["dividend per share", "dividends per share", "dps", "dividends declared per share",
             "dividend per common share", "dividends per common share"],
            ["us-gaap:CommonStockDividendsPerShareDeclared", "us-gaap:CommonStockDividendsPerShareCashPaid"],
            unit="USD/shares",
            query="dividends declared per share",
        ),
        _m(
            "dividends_paid",
            "Dividends paid",
            ["dividends paid", "dividends", "dividend payments", "cash dividends", "payments of dividends",
             "dividend"],
            ["us-gaap:PaymentsOfDividends", "us-gaap:PaymentsOfDividendsCommonStock",
             "us-gaap:PaymentsOfOrdinaryDividends"],  # Johnson & Johnson's "Dividends to shareholders"
            query="dividends paid",
        ),
        _m(
            "buybacks",
            "Share repurchases",
            ["share repurchases", "buybacks", "buyback", "share buybacks", "stock buybacks", "repurchases of common stock",
             "stock repurchases", "repurchase of common stock", "share repurchase", "repurchases", "buy back",
             "buy backs", "bought back", "buying back", "treasury stock purchases", "purchases of treasury stock",
             "purchase of treasury stock", "treasury stock purchased", "treasury share purchases",
             "purchases of treasury shares", "treasury stock repurchases", "repurchases of treasury stock"],
            ["us-gaap:PaymentsForRepurchaseOfCommonStock"],
            query="repurchases of common stock share repurchase program",
        ),
    ]
}

# Ask-shaped words that name a metric this table cannot map. Refused, never approximated. EBITDA, EBIT
# and ROIC are not here: agent.retrieval.finance computes them under a named convention the answer states.
# A company's own non-GAAP measures are: their adjustments are the company's and not in XBRL.
UNKNOWN_METRICS: tuple[str, ...] = (
    "adjusted ebitda", "ebitdar", "adjusted ebit", "adjusted roic", "arr", "annual recurring revenue", "churn", "churn rate",
    "same store sales", "same-store sales", "comparable sales", "comp sales", "comps", "arpu",
    "average revenue per user", "backlog", "bookings", "gmv", "gross merchandise value", "dau", "mau",
    "daily active users", "monthly active users", "net revenue retention", "nrr", "ltv", "cac",
    "customer acquisition cost", "headcount", "employees count", "number of employees", "market share",
    "adjusted eps", "non gaap", "non-gaap", "adjusted net income", "adjusted operating income",
    "core earnings", "funds from operations", "ffo", "rpo", "remaining performance obligations",
    "tangible book value", "enterprise value", "ev/ebitda", "p/e", "pe ratio", "price to earnings",
    "unit sales", "units sold", "deliveries", "subscribers",
    "paid memberships", "store count", "net interest margin", "organic growth", "organic revenue",
    "revenue per employee", "sales per square foot", "cost of capital", "wacc", "beta",
)

_NON_WORD = re.compile(r"[^a-z0-9&+/%\- ]+")
_DASHES = re.compile(r"[\u2010-\u2015]")
_POSSESSIVE = re.compile(r"'s\b")
_WORD_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z])")
_SPACED_AMP = re.compile(r"\s*&\s*")
_SPACES = re.compile(r"\s+")
_NORMAL = re.compile(r"[a-z0-9%+/]+(?: [a-z0-9%+/]+)*")  # text no rule of `normalize` changes


def normalize(text: str) -> str:
    """Lowercase, unify apostrophes and dashes, drop punctuation except & + / -, squeeze spaces.

    Possessive 's is dropped and hyphens between letters become spaces, so "long-term debt" ==
    "long term debt"; "%" is kept for phrases like "r&d as a % of revenue".

    Building the phrase tables normalizes some 30,000 names at every start, nearly all of them
    already in normal form: those return at once (no rule changes ASCII letters, digits, %, + and /
    between single spaces), which took a third of a second off each cold `footnote ask`.
    """
    t = text.lower()
    return t if _NORMAL.fullmatch(t) else _normalized(t)


def _normalized(t: str) -> str:
    """`normalize`'s rules, applied to lowercase text."""
    t = t.replace("\u2019", "'").replace("\u2018", "'")
    t = _DASHES.sub("-", t)
    t = _POSSESSIVE.sub("", t)
    t = t.replace("'", "")
    t = _WORD_HYPHEN.sub(" ", t)
    t = _NON_WORD.sub(" ", t)
    t = _SPACED_AMP.sub("&", t)  # "r & d" -> "r&d", "sg & a" -> "sg&a"
    return _SPACES.sub(" ", t).strip()


def _phrase_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for m in METRICS.values():
        for phrase in (*m.synonyms, *m.misspellings, m.key.replace("_", " ")):
            p = normalize(phrase)
            if p in table and table[p] != m.key:
                raise ValueError(f"metric phrase {p!r} maps to both {table[p]} and {m.key}")
            table[p] = m.key
    return table


PHRASES: dict[str, str] = _phrase_table()


_MAX_WORDS: dict[int, tuple[int, int]] = {}


def _max_words(table: dict[str, str]) -> int:
    """The longest phrase's word count, computed once per (module-constant) table."""
    cached = _MAX_WORDS.get(id(table))
    if cached is None or cached[0] != len(table):
        cached = (len(table), max(map(len, map(str.split, table)), default=0))
        _MAX_WORDS[id(table)] = cached
    return cached[1]


def fold_plural(word: str) -> str:
    """A word without its plural 's' ("repurchases" -> "repurchase"); "gross", "loss" keep theirs."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")) else word


_FOLDED: dict[int, tuple[int, dict[str, str]]] = {}


def _folded(table: dict[str, str]) -> dict[str, str]:
    """The table keyed by its phrases with every word's plural folded, computed once per table. A
    folded form two phrases of different values share is left out: only the exact phrase decides."""
    cached = _FOLDED.get(id(table))
    if cached is None or cached[0] != len(table):
        folded: dict[str, str | None] = {}
        words: dict[str, str] = {}  # each word folded once: the tables repeat a few thousand words
        for phrase, value in table.items():
            key = " ".join([words.get(w) or words.setdefault(w, fold_plural(w)) for w in phrase.split()])
            folded[key] = value if folded.get(key, value) == value else None
        cached = (len(table), {k: v for k, v in folded.items() if v is not None})
        _FOLDED[id(table)] = cached
    return cached[1]


# Phrases that are the start of another figure's name when these words follow them
_NOT_BEFORE = {"net cash": frozenset("flow flows provided used from generated inflow inflows outflow outflows received "
                                     "paid spent in out".split())}


def find_phrases(norm: str, table: dict[str, str]) -> list[tuple[int, int, str]]:
    """Non-overlapping (start, end, value) of table phrases in normalized text, longest match first,
    on word boundaries, in text order. Singular and plural are one phrase ("stock repurchase" is
    "stock repurchases"): the table lists one of them, analysts type either."""
    words = norm.split()
    folded_words = [fold_plural(w) for w in words]
    folded = _folded(table)
    spans: list[tuple[int, int, str]] = []
    max_len = _max_words(table)
    i = 0
    while i < len(words):
        for n in range(min(max_len, len(words) - i), 0, -1):
            phrase = " ".join(words[i : i + n])
            value = table.get(phrase) or folded.get(" ".join(folded_words[i : i + n]))
            if value is not None and i + n < len(words) and words[i + n] in _NOT_BEFORE.get(phrase, ()):
                continue  # "net cash flow", "net cash used in ...": a cash-flow line's words, not this phrase
            if value is not None and _longer_after_lead(words, folded_words, i, n, table, folded, max_len):
                value = None  # "change in net income margin": the margin's change, never net income's with "margin"
                break         # left over; the change words are read by the planner
            if value is not None:
                spans.append((i, i + n, value))
                i += n
                break
        else:
            i += 1
            continue
        if value is None:
            i += 1
    return spans


# The words a change phrase leads with ("change in", "growth of", "yoy"): set before a metric's name, they may
# stand before a longer name than the one the change phrase holds
_CHANGE_LEADS = frozenset("change changes in growth of yoy y/y year over on".split())


def _longer_after_lead(words, folded_words, i, n, table, folded, max_len) -> bool:
    """Whether the phrase words[i:i+n] opens with change words only and a longer phrase starts after them and ends
    past it ("change in net income margin": "net income margin" from the third word). The change words are then
    left for the planner to read as the change asked, of the longer name."""
    for j in range(i + 1, i + n):
        if words[j - 1] not in _CHANGE_LEADS:
            return False
        for m in range(min(max_len, len(words) - j), i + n - j, -1):
            if table.get(" ".join(words[j : j + m])) or folded.get(" ".join(folded_words[j : j + m])):
                return True
    return False


def match_metrics(text: str) -> list[str]:
    """Metric keys named in the text, in order of appearance, without duplicates."""
    out: list[str] = []
    for _, _, key in find_phrases(normalize(text), PHRASES):
        if key not in out:
            out.append(key)
    return out


_UNKNOWN = {normalize(p): normalize(p) for p in UNKNOWN_METRICS}
_KNOWN_OR_UNKNOWN = {**{p: "" for p in PHRASES}, **_UNKNOWN}


def unknown_metric_phrase(text: str) -> str | None:
    """The first metric-like phrase in the text that the table cannot map (e.g. "ebitda"), or None.

    Known metric phrases are matched together with the unknown ones, longest first, so
    "adjusted eps" is unknown while "eps" alone is known.
    """
    for _, _, value in find_phrases(normalize(text), _KNOWN_OR_UNKNOWN):
        if value:
            return value
    return None


def metric_label(key: str) -> str:
    return METRICS[key].label
