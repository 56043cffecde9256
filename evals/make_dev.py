"""Build evals/data/dev_figures.jsonl: the development set on figures, over the real corpus.

    python -m evals.make_dev [--from ../shared/sec] [--out evals/data/dev_figures.jsonl]

Written to measure generalisation, not to be passed: the questions are in the voices people use
(Slack shorthand, typos, long analyst requests with instructions), they ask for line items beyond
the curated metrics, segment and geography members, formulas (standard and user-defined), years
only later 10-Ks report, trends, and they set traps (a short metric inside a longer phrase, a
qualifier that narrows, quarters, unknown companies, years never filed). The expected values are
read here from the filings' inline XBRL and companyfacts (evals.xbrl_facts, evals.dev_spec),
never from the agent. The generated file is committed once and frozen: a question is never
edited after its result has been seen; new questions go into a new file.

Every line carries `class` (what it measures, see evals.by_class.CLASSES), and every expected refusal `names`:
words of which at least one must appear in the refusal, so the user learns what is missing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from evals.by_class import CLASSES
from evals.dev_spec import compute, expected_number
from evals.sets import DATA
from evals.xbrl_facts import FactError, collect


# Refusal reasons accepted for a period the product does not handle yet (quarters, halves).
QUARTER_REASONS = ["out_of_scope", "year_not_available"]
QUARTER_NAMES = ["quarter", "three months", "six months", "nine months", "half", "10-Q", "interim", "Q1", "Q2", "Q3", "Q4", "period"]

REV = ["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax"]
REV_ASC606 = ["RevenueFromContractWithCustomerExcludingAssessedTax", "Revenues"]
DIVIDENDS = ["PaymentsOfDividends", "PaymentsOfDividendsCommonStock", "PaymentsOfOrdinaryDividends"]
NI = ["NetIncomeLoss", "ProfitLoss"]
INTEREST = ["InterestExpense", "InterestExpenseNonoperating"]
PRETAX = ["IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
          "IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments"]
OCF = "NetCashProvidedByUsedInOperatingActivities"
CAPEX = ["PaymentsToAcquirePropertyPlantAndEquipment", "PaymentsToAcquireProductiveAssets"]
SEG = "us-gaap:StatementBusinessSegmentsAxis"
PROD = "srt:ProductOrServiceAxis"
GEO = "srt:StatementGeographicalAxis"


def N(q, tk, fy, concepts, metric, cls="line_item", dims=None, instant=None, note=""):
    return {"t": "num", "q": q, "tk": tk, "fy": fy, "concepts": concepts, "metric": metric, "cls": cls, "dims": dims,
            "instant": instant, "note": note}


def TR(q, tk, years, concepts, metric, dims=None, note=""):
    return {"t": "trend", "q": q, "tk": tk, "years": years, "concepts": concepts, "metric": metric, "cls": "trend",
            "dims": dims, "note": note}


def D(q, tk, fy, metric, formula, inputs, unit, cls="formula", alternatives=None, note=""):
    return {"t": "calc", "q": q, "tk": tk, "fy": fy, "metric": metric, "formula": formula, "inputs": inputs, "unit": unit,
            "cls": cls, "alternatives": alternatives or {}, "note": note}


def R(q, reason, names, cls, reasons=(), needs=(), note=""):
    return {"t": "refusal", "q": q, "reason": reason, "reasons": list(reasons), "names": names, "cls": cls,
            "needs": list(needs), "note": note}


def Q(q, tk, names=QUARTER_NAMES, note=""):
    return R(q, QUARTER_REASONS[0], names, "quarterly", reasons=QUARTER_REASONS[1:], needs=[tk], note=note)


SPEC = [
    # --- line items beyond the curated metrics -------------------------------------------------
    N("what was coca-cola's SG&A in 2024?", "KO", 2024, "SellingGeneralAndAdministrativeExpense", "sg&a"),
    N("ko sg&a fy23", "KO", 2023, "SellingGeneralAndAdministrativeExpense", "sg&a"),
    N("Home Depot selling, general and administrative expenses for fiscal 2024", "HD", 2024, "SellingGeneralAndAdministrativeExpense", "sg&a"),
    N("tesla SG and A 2024", "TSLA", 2024, "SellingGeneralAndAdministrativeExpense", "sg&a"),
    N("How much did Procter & Gamble spend on advertising in fiscal 2025?", "PG", 2025, "AdvertisingExpense", "advertising expense"),
    N("amazon advertising expense 2024 (what amzn spent on ads, not ad revenue)", "AMZN", 2024, "AdvertisingExpense", "advertising expense"),
    N("netflix advertisng expense 2024", "NFLX", 2024, "AdvertisingExpense", "advertising expense"),
    N("alphabet advertising and promotional expenses 2024", "GOOGL", 2024, "MarketingAndAdvertisingExpense", "advertising expense"),
    N("verizon advertising costs 2023", "VZ", 2023, "AdvertisingExpense", "advertising expense"),
    N("D&A for amazon in 2024?", "AMZN", 2024, "DepreciationDepletionAndAmortization", "depreciation and amortization"),
    N("meta depreciation and amortization fy2024", "META", 2024, "DepreciationDepletionAndAmortization", "depreciation and amortization"),
    N("What was Visa's depreciation and amortization in fiscal 2024? Answer in USD millions.", "V", 2024, "DepreciationAndAmortization", "depreciation and amortization"),
    N("comcast D&A 2023", "CMCSA", 2023, "DepreciationDepletionAndAmortization", "depreciation and amortization"),
    N("verizon provision for credit losses 2023", "VZ", 2023, "ProvisionForDoubtfulAccounts", "provision for credit losses"),
    N("medtronic provision for credit losses FY2024", "MDT", 2024, "ProvisionForDoubtfulAccounts", "provision for credit losses"),
    N("dividends paid by abbvie in 2024", "ABBV", 2024, DIVIDENDS, "dividends paid"),
    N("how much did texas instruments pay out in dividends in 2023?", "TXN", 2023, DIVIDENDS, "dividends paid"),
    N("UNP dividends paid 2024", "UNP", 2024, DIVIDENDS, "dividends paid"),
    N("mastercard cash dividends paid fy24", "MA", 2024, DIVIDENDS, "dividends paid"),
    N("nvidia share repurchases fiscal 2025", "NVDA", 2025, "PaymentsForRepurchaseOfCommonStock", "share repurchases"),
    N("how much stock did meta buy back in 2024", "META", 2024, "PaymentsForRepurchaseOfCommonStock", "share repurchases"),
    N("Visa buybacks FY2024, in billions please", "V", 2024, "PaymentsForRepurchaseOfCommonStock", "share repurchases"),
    N("GM share repurchases 2023", "GM", 2023, "PaymentsForRepurchaseOfCommonStock", "share repurchases"),
    N("rtx stock repurchase 2023", "RTX", 2023, "PaymentsForRepurchaseOfCommonStock", "share repurchases"),
    N("tesla cash from investing activities 2024", "TSLA", 2024, "NetCashProvidedByUsedInInvestingActivities", "investing cash flow"),
    N("net cash used in investing activities, walmart fiscal 2025", "WMT", 2025, "NetCashProvidedByUsedInInvestingActivities", "investing cash flow"),
    N("What was Netflix's cash flow from financing activities in 2024?", "NFLX", 2024, "NetCashProvidedByUsedInFinancingActivities", "financing cash flow"),
    N("boeing financing cash flow 2024", "BA", 2024, "NetCashProvidedByUsedInFinancingActivities", "financing cash flow"),
    N("inventories at nike end of fiscal 2025", "NKE", 2025, ["InventoryNet", "InventoryFinishedGoodsNetOfReserves"], "inventories", instant=True),
    N("apple inventory fy2024", "AAPL", 2024, "InventoryNet", "inventories", instant=True),
    N("What were RTX's inventories at December 31, 2023?", "RTX", 2023, "InventoryNet", "inventories", instant=True),
    N("intel interest expense 2023", "INTC", 2023, INTEREST, "interest expense"),
    N("KO interest expense 2024 pls", "KO", 2024, INTEREST, "interest expense"),
    N("colgate income tax provision 2023", "CL", 2023, "IncomeTaxExpenseBenefit", "income tax expense"),
    N("stock-based compensation at salesforce, fiscal 2025", "CRM", 2025, ["ShareBasedCompensation", "AllocatedShareBasedCompensationExpense"], "stock-based compensation"),
    N("apple accounts receivable end of fy2024", "AAPL", 2024, "AccountsReceivableNetCurrent", "accounts receivable", instant=True),
    N("texas instruments total stockholders equity at year end 2023", "TXN", 2023, "StockholdersEquity", "shareholders' equity", instant=True),
    N("apple total term debt at the end of fiscal 2024", "AAPL", 2024, "LongTermDebt", "total term debt", instant=True),
    N("goodwill on mcdonald's balance sheet 2023", "MCD", 2023, "Goodwill", "goodwill", instant=True),
    N("Thermo Fisher accounts payable, Dec 31 2023", "TMO", 2023, "AccountsPayableCurrent", "accounts payable", instant=True),

    # --- the company's own label -----------------------------------------------------------------
    N("nike demand creation expense fiscal 2025", "NKE", 2025, "MarketingAndAdvertisingExpense", "demand creation expense", cls="own_label"),
    N("UnitedHealth 'operating costs' in 2024", "UNH", 2024, "SellingGeneralAndAdministrativeExpense", "operating costs", cls="own_label"),
    N("comcast marketing and promotion expense 2023", "CMCSA", 2023, "MarketingAndAdvertisingExpense", "marketing and promotion", cls="own_label"),
    N("j&j selling, marketing and administrative expenses 2024", "JNJ", 2024, "SellingGeneralAndAdministrativeExpense", "selling, marketing and administrative", cls="own_label"),
    N("smucker selling distribution and administrative expenses fy24", "SJM", 2024, "SellingGeneralAndAdministrativeExpense", "selling, distribution, and administrative", cls="own_label"),
    N("AMD marketing, general and administrative 2023", "AMD", 2023, "SellingGeneralAndAdministrativeExpense", "marketing, general and administrative", cls="own_label"),
    N("bristol myers marketing, selling and administrative 2023", "BMY", 2023, "SellingGeneralAndAdministrativeExpense", "marketing, selling and administrative", cls="own_label"),
    N("P&G 'dividends to shareholders' fy2025", "PG", 2025, DIVIDENDS, "dividends to shareholders", cls="own_label"),
    N("coca cola purchases of stock for treasury 2024", "KO", 2024, "PaymentsForRepurchaseOfCommonStock", "purchases of stock for treasury", cls="own_label"),
    N("mcdonald's treasury stock purchases 2023", "MCD", 2023, "PaymentsForRepurchaseOfCommonStock", "treasury stock purchases", cls="own_label"),
    N("mastercard advertising and marketing 2024", "MA", 2024, "MarketingAndAdvertisingExpense", "advertising and marketing", cls="own_label"),
    N("Rocket Companies marketing and advertising expenses 2023", "RKT", 2023, "MarketingAndAdvertisingExpense", "marketing and advertising", cls="own_label"),

    # --- a short metric inside a longer phrase ---------------------------------------------------
    N("how much cash was provided by financing activities at apple in fy2024?", "AAPL", 2024, "NetCashProvidedByUsedInFinancingActivities", "financing cash flow", cls="longer_phrase"),
    N("cash used in investing, coca-cola, 2024", "KO", 2024, "NetCashProvidedByUsedInInvestingActivities", "investing cash flow", cls="longer_phrase"),
    N("apple deferred revenue (current) fy24", "AAPL", 2024, "ContractWithCustomerLiabilityCurrent", "deferred revenue", cls="longer_phrase", instant=True),
    N("Apple cash paid for income taxes in fiscal 2024", "AAPL", 2024, "IncomeTaxesPaidNet", "cash paid for income taxes", cls="longer_phrase"),
    N("coke net income attributable to noncontrolling interests 2024", "KO", 2024, "NetIncomeLossAttributableToNoncontrollingInterest", "net income attributable to noncontrolling interests", cls="longer_phrase"),
    N("apple accumulated depreciation fy2024", "AAPL", 2024, "AccumulatedDepreciationDepletionAndAmortizationPropertyPlantAndEquipment", "accumulated depreciation", cls="longer_phrase", instant=True),
    N("weighted average diluted shares for mastercard in 2024", "MA", 2024, "WeightedAverageNumberOfDilutedSharesOutstanding", "diluted weighted-average shares", cls="longer_phrase"),
    N("colgate income before income taxes 2023", "CL", 2023, PRETAX, "income before income taxes", cls="longer_phrase"),
    N("apple dividends declared per share fiscal 2024", "AAPL", 2024, "CommonStockDividendsPerShareDeclared", "dividends declared per share", cls="longer_phrase"),
    N("Johnson & Johnson cash dividends paid in 2024, not net income", "JNJ", 2024, DIVIDENDS, "dividends paid", cls="longer_phrase"),
    N("total current liabilities for walmart fiscal 2025", "WMT", 2025, "LiabilitiesCurrent", "current liabilities", cls="longer_phrase", instant=True),
    N("Apple's non-current portion of term debt at fiscal 2024 year end", "AAPL", 2024, "LongTermDebtNoncurrent", "non-current term debt", cls="longer_phrase", instant=True),
    R("walmart net sales per square foot fiscal 2025", "unknown_metric", ["square foot", "square feet", "per square"], "longer_phrase", reasons=["no_grounding"], needs=["WMT"]),
    R("what was nike's revenue per employee in fiscal 2025?", "unknown_metric", ["per employee", "employee"], "longer_phrase", reasons=["no_grounding"], needs=["NKE"]),

    # --- segments, products, geographies ---------------------------------------------------------
    N("nvidia data center revenue fy2025", "NVDA", 2025, "Revenues", "data center revenue", cls="segment", dims={PROD: "nvda:DataCenterMember"}),
    N("NVDA gaming rev FY24?", "NVDA", 2024, "Revenues", "gaming revenue", cls="segment", dims={PROD: "nvda:GamingMember"}),
    N("nvidia automotive revenue fiscal 2025", "NVDA", 2025, "Revenues", "automotive revenue", cls="segment", dims={PROD: "nvda:AutomotiveMember"}),
    N("iPhone revenue fy2024", "AAPL", 2024, REV_ASC606, "iPhone revenue", cls="segment", dims={PROD: "aapl:IPhoneMember"}),
    N("how much did apple make from services in fiscal 2024", "AAPL", 2024, REV_ASC606, "services revenue", cls="segment", dims={PROD: "us-gaap:ServiceMember"}),
    N("Apple Americas net sales FY2024", "AAPL", 2024, REV_ASC606, "Americas net sales", cls="segment", dims={SEG: "aapl:AmericasSegmentMember"}),
    N("greater china sales apple fy24", "AAPL", 2024, REV_ASC606, "Greater China net sales", cls="segment", dims={SEG: "aapl:GreaterChinaSegmentMember"}),
    N("Apple wearables, home and accessories revenue in fiscal 2023", "AAPL", 2023, REV_ASC606, "wearables revenue", cls="segment", dims={PROD: "aapl:WearablesHomeandAccessoriesMember"}),
    N("AWS revenue 2024", "AMZN", 2024, REV_ASC606, "AWS segment net sales", cls="segment", dims={SEG: "amzn:AmazonWebServicesSegmentMember"}),
    N("aws operating income 2023", "AMZN", 2023, "OperatingIncomeLoss", "AWS operating income", cls="segment", dims={SEG: "amzn:AmazonWebServicesSegmentMember"}),
    N("amazon advertising services revenue 2024", "AMZN", 2024, REV_ASC606, "advertising services revenue", cls="segment", dims={PROD: "us-gaap:AdvertisingMember"}),
    N("amazon international segment operating income 2024", "AMZN", 2024, "OperatingIncomeLoss", "International operating income", cls="segment", dims={SEG: "amzn:InternationalSegmentMember"}),
    N("google cloud revenue 2024", "GOOGL", 2024, REV_ASC606, "Google Cloud revenue", cls="segment", dims={SEG: "goog:GoogleCloudMember"}),
    N("reality labs operating loss 2024", "META", 2024, "OperatingIncomeLoss", "Reality Labs operating income", cls="segment", dims={SEG: "meta:RealityLabsMember"}),
    N("meta family of apps revenue in 2023", "META", 2023, REV_ASC606, "Family of Apps revenue", cls="segment", dims={SEG: "meta:FamilyOfAppsMember"}),
    N("tesla automotive segment revenue 2024", "TSLA", 2024, "Revenues", "automotive segment revenue", cls="segment", dims={SEG: "tsla:AutomotiveSegmentMember"}),
    N("Tesla energy generation and storage segment revenues, 2023", "TSLA", 2023, "Revenues", "energy segment revenue", cls="segment", dims={SEG: "tsla:EnergyGenerationAndStorageSegmentMember"}),
    N("how much did tesla get from regulatory credits in 2024", "TSLA", 2024, REV_ASC606, "regulatory credits revenue", cls="segment", dims={PROD: "tsla:AutomotiveRegulatoryCreditsMember"}),
    N("nike footwear revenue fy2025", "NKE", 2025, REV_ASC606, "footwear revenue", cls="segment", dims={PROD: "nke:FootwearMember"}),
    N("walmart international net sales fiscal 2025", "WMT", 2025, REV_ASC606, "Walmart International net sales", cls="segment", dims={SEG: "wmt:WalmartInternationalMember"}),
    N("sam's club operating income FY2024", "WMT", 2024, "OperatingIncomeLoss", "Sam's Club operating income", cls="segment", dims={SEG: "wmt:SamsClubMember"}),
    N("mcdonald's US market revenues 2023", "MCD", 2023, "Revenues", "U.S. revenues", cls="segment", dims={SEG: "mcd:USMarketMember"}),
    N("P&G beauty segment net sales fiscal 2024", "PG", 2024, "Revenues", "Beauty net sales", cls="segment", dims={SEG: "pg:BeautySegmentMember"}),
    N("J&J MedTech sales 2024", "JNJ", 2024, REV_ASC606, "MedTech sales", cls="segment", dims={SEG: "jnj:MedTechMember"}),
    N("coca-cola north america operating income 2024", "KO", 2024, "OperatingIncomeLoss", "North America operating income", cls="segment", dims={SEG: "ko:NorthAmericaSegmentMember"}),
    N("boeing revenue from europe 2024", "BA", 2024, "Revenues", "Europe revenue", cls="segment", dims={GEO: "srt:EuropeMember"}),
    R("apple vision pro revenue fy2024", "unknown_metric", ["Vision Pro"], "segment_missing", reasons=["no_grounding"], needs=["AAPL"]),
    R("how many iPhones did Apple sell (units shipped) in fiscal 2024?", "unknown_metric", ["unit", "units", "shipped"], "segment_missing", reasons=["no_grounding"], needs=["AAPL"]),
    R("tesla cybertruck revenue 2024", "unknown_metric", ["Cybertruck"], "segment_missing", reasons=["no_grounding"], needs=["TSLA"]),
    R("nvidia crypto mining processor revenue fy2025", "unknown_metric", ["crypto", "mining"], "segment_missing", reasons=["no_grounding"], needs=["NVDA"]),
    R("whatsapp revenue 2024 for meta", "unknown_metric", ["WhatsApp"], "segment_missing", reasons=["no_grounding"], needs=["META"]),
    R("YouTube Shorts revenue 2024", "unknown_metric", ["Shorts", "YouTube Shorts"], "segment_missing", reasons=["no_grounding", "no_company"], needs=["GOOGL"]),
    R("amazon whole foods revenue 2024", "unknown_metric", ["Whole Foods"], "segment_missing", reasons=["no_grounding"], needs=["AMZN"]),
    R("Coca-Cola revenue in India, 2024", "unknown_metric", ["India"], "segment_missing", reasons=["no_grounding"], needs=["KO"]),
    R("Nike Jordan brand revenue fiscal 2025", "unknown_metric", ["Jordan"], "segment_missing", reasons=["no_grounding"], needs=["NKE"]),

    # --- formulas ------------------------------------------------------------------------------
    D("apple quick ratio fy2024", "AAPL", 2024, "quick ratio", "(ca - inv) / cl",
      {"ca": "AssetsCurrent", "inv": "InventoryNet", "cl": "LiabilitiesCurrent"}, "ratio",
      alternatives={"cash, marketable securities and receivables": ("(cash + ms + ar) / cl", {"cash": "CashAndCashEquivalentsAtCarryingValue", "ms": "MarketableSecuritiesCurrent", "ar": "AccountsReceivableNetCurrent", "cl": "LiabilitiesCurrent"})}),
    D("Coca-Cola quick ratio at the end of 2024 ((current assets - inventories) / current liabilities), two decimals", "KO", 2024, "quick ratio", "(ca - inv) / cl",
      {"ca": "AssetsCurrent", "inv": "InventoryNet", "cl": "LiabilitiesCurrent"}, "ratio"),
    D("KO dividend payout ratio 2024 (cash dividends paid / net income)", "KO", 2024, "dividend payout ratio", "div / ni",
      {"div": DIVIDENDS, "ni": NI}, "percent"),
    D("what's P&G's dividend payout ratio for fiscal 2025?", "PG", 2025, "dividend payout ratio", "div / ni",
      {"div": DIVIDENDS, "ni": NI}, "percent",
      alternatives={"dividends per share over diluted EPS": ("dps / eps", {"dps": "CommonStockDividendsPerShareDeclared", "eps": "EarningsPerShareDiluted"})}),
    D("amazon EBITDA 2024 (operating income + D&A), USD millions", "AMZN", 2024, "EBITDA", "oi + da",
      {"oi": "OperatingIncomeLoss", "da": "DepreciationDepletionAndAmortization"}, "USD"),
    D("meta ebitda margin 2024", "META", 2024, "EBITDA margin", "(oi + da) / rev",
      {"oi": "OperatingIncomeLoss", "da": "DepreciationDepletionAndAmortization", "rev": REV}, "percent"),
    D("Procter & Gamble EBITDA fiscal 2025, defined as operating income plus depreciation and amortization", "PG", 2025, "EBITDA", "oi + da",
      {"oi": "OperatingIncomeLoss", "da": "DepreciationDepletionAndAmortization"}, "USD"),
    D("nvidia cost of revenue as a % of revenue, fiscal 2025", "NVDA", 2025, "cost of revenue % of revenue", "cor / rev",
      {"cor": "CostOfRevenue", "rev": REV}, "percent"),
    D("AMZN cost of sales as percentage of net sales 2024", "AMZN", 2024, "cost of revenue % of revenue", "cor / rev",
      {"cor": ["CostOfGoodsAndServicesSold", "CostOfRevenue"], "rev": REV}, "percent"),
    D("walmart inventory turnover fiscal 2025", "WMT", 2025, "inventory turnover", "cogs / avg(inv, inv0)",
      {"cogs": "CostOfRevenue", "inv": ("InventoryNet", 0), "inv0": ("InventoryNet", -1)}, "ratio",
      alternatives={"ending inventory": ("cogs / inv", {"cogs": "CostOfRevenue", "inv": "InventoryNet"})}),
    D("Home Depot inventory turns FY2024, using average inventory", "HD", 2024, "inventory turnover", "cogs / avg(inv, inv0)",
      {"cogs": "CostOfRevenue", "inv": ("InventoryNet", 0), "inv0": ("InventoryNet", -1)}, "ratio"),
    D("cisco days sales outstanding fy2024 (receivables / revenue x 365)", "CSCO", 2024, "days sales outstanding", "ar / rev * 365",
      {"ar": "AccountsReceivableNetCurrent", "rev": REV}, "ratio"),
    D("Nike DSO for fiscal 2025? round to one decimal", "NKE", 2025, "days sales outstanding", "ar / rev * 365",
      {"ar": "AccountsReceivableNetCurrent", "rev": REV}, "ratio",
      alternatives={"average receivables": ("avg(ar, ar0) / rev * 365", {"ar": "AccountsReceivableNetCurrent", "ar0": ("AccountsReceivableNetCurrent", -1), "rev": REV})}),
    D("tesla capital intensity 2024 (capex / revenue)", "TSLA", 2024, "capital intensity", "capex / rev",
      {"capex": CAPEX, "rev": REV}, "percent"),
    D("mcdonald's capex as a share of revenue 2023", "MCD", 2023, "capital intensity", "capex / rev",
      {"capex": CAPEX, "rev": REV}, "percent"),
    D("alphabet free cash flow conversion 2024 — FCF over net income", "GOOGL", 2024, "free cash flow conversion", "(ocf - capex) / ni",
      {"ocf": OCF, "capex": CAPEX, "ni": NI}, "percent"),
    D("meta fcf conversion 2024", "META", 2024, "free cash flow conversion", "(ocf - capex) / ni",
      {"ocf": OCF, "capex": CAPEX, "ni": NI}, "percent"),
    D("home depot interest coverage fiscal 2024 (operating income / interest expense)", "HD", 2024, "interest coverage", "oi / ie",
      {"oi": "OperatingIncomeLoss", "ie": INTEREST}, "ratio"),
    D("tesla interest coverage ratio 2024", "TSLA", 2024, "interest coverage", "oi / ie",
      {"oi": "OperatingIncomeLoss", "ie": INTEREST}, "ratio"),
    D("Apple net debt at FY2024 year end: total term debt plus commercial paper minus cash and cash equivalents", "AAPL", 2024, "net debt", "debt + cp - cash",
      {"debt": "LongTermDebt", "cp": "CommercialPaper", "cash": "CashAndCashEquivalentsAtCarryingValue"}, "USD"),
    D("apple debt to equity fy24, term debt (current + non-current) over shareholders' equity", "AAPL", 2024, "debt to equity", "(cur + noncur) / eq",
      {"cur": "LongTermDebtCurrent", "noncur": "LongTermDebtNoncurrent", "eq": "StockholdersEquity"}, "ratio"),
    D("nike ROE fiscal 2025", "NKE", 2025, "return on equity", "ni / avg(eq, eq0)",
      {"ni": NI, "eq": ("StockholdersEquity", 0), "eq0": ("StockholdersEquity", -1)}, "percent",
      alternatives={"ending equity": ("ni / eq", {"ni": NI, "eq": "StockholdersEquity"})}),
    D("Coca-Cola return on equity 2023 using average shareholders' equity", "KO", 2023, "return on equity", "ni / avg(eq, eq0)",
      {"ni": NI, "eq": ("StockholdersEquity", 0), "eq0": ("StockholdersEquity", -1)}, "percent"),
    D("mastercard return on assets 2024", "MA", 2024, "return on assets", "ni / avg(a, a0)",
      {"ni": NI, "a": ("Assets", 0), "a0": ("Assets", -1)}, "percent",
      alternatives={"ending assets": ("ni / a", {"ni": NI, "a": "Assets"})}),
    D("colgate effective tax rate 2023 (tax provision / pre-tax income)", "CL", 2023, "effective tax rate", "tax / pretax",
      {"tax": "IncomeTaxExpenseBenefit", "pretax": PRETAX}, "percent"),
    D("effective tax rate for nvidia, fiscal 2025", "NVDA", 2025, "effective tax rate", "tax / pretax",
      {"tax": "IncomeTaxExpenseBenefit", "pretax": PRETAX}, "percent"),
    D("what share of nvidia's fiscal 2025 revenue came from data center?", "NVDA", 2025, "segment mix", "dc / rev",
      {"dc": ("Revenues", 0, {PROD: "nvda:DataCenterMember"}), "rev": "Revenues"}, "percent"),
    D("AWS operating margin 2024", "AMZN", 2024, "AWS operating margin", "oi / rev",
      {"oi": ("OperatingIncomeLoss", 0, {SEG: "amzn:AmazonWebServicesSegmentMember"}),
       "rev": (REV_ASC606, 0, {SEG: "amzn:AmazonWebServicesSegmentMember"})}, "percent"),
    D("iphone as a percent of apple's total net sales fy2024", "AAPL", 2024, "segment mix", "iphone / rev",
      {"iphone": (REV_ASC606, 0, {PROD: "aapl:IPhoneMember"}), "rev": REV_ASC606}, "percent"),
    # user-defined
    D("define adjusted margin as operating income plus stock-based compensation over revenue. what is it for apple in fy2024?", "AAPL", 2024, "adjusted margin",
      "(oi + sbc) / rev", {"oi": "OperatingIncomeLoss", "sbc": ["ShareBasedCompensation", "AllocatedShareBasedCompensationExpense"], "rev": REV_ASC606}, "percent", cls="user_formula"),
    D("Let cash returned = dividends paid + share repurchases. For Visa FY2024, what is cash returned as a % of operating cash flow?", "V", 2024, "cash returned / operating cash flow",
      "(div + rep) / ocf", {"div": DIVIDENDS, "rep": "PaymentsForRepurchaseOfCommonStock", "ocf": OCF}, "percent", cls="user_formula"),
    D("my 'opex intensity' metric = (SG&A + R&D) / revenue. intel 2023?", "INTC", 2023, "opex intensity",
      "(sga + rnd) / rev", {"sga": "SellingGeneralAndAdministrativeExpense", "rnd": "ResearchAndDevelopmentExpense", "rev": REV}, "percent", cls="user_formula"),
    D("define 'reinvestment rate' as capex divided by depreciation and amortization; compute it for Meta in 2024", "META", 2024, "reinvestment rate",
      "capex / da", {"capex": CAPEX, "da": "DepreciationDepletionAndAmortization"}, "ratio", cls="user_formula"),
    D("For Home Depot fiscal 2024, compute gross profit minus SG&A, in USD millions", "HD", 2024, "gross profit minus SG&A",
      "gp - sga", {"gp": "GrossProfit", "sga": "SellingGeneralAndAdministrativeExpense"}, "USD", cls="user_formula"),
    D("use diluted shares: mastercard net income divided by weighted average diluted shares, 2024", "MA", 2024, "net income per diluted share",
      "ni / sh", {"ni": NI, "sh": "WeightedAverageNumberOfDilutedSharesOutstanding"}, "USD", cls="user_formula"),
    D("define shareholder yield on FCF = (dividends + buybacks) / (operating cash flow - capex). Apple fiscal 2024, as a percent", "AAPL", 2024, "shareholder payout of FCF",
      "(div + rep) / (ocf - capex)", {"div": DIVIDENDS, "rep": "PaymentsForRepurchaseOfCommonStock", "ocf": OCF, "capex": CAPEX}, "percent", cls="user_formula"),

    # --- years only later 10-Ks report ---------------------------------------------------------
    N("coca-cola SG&A for FY2022", "KO", 2022, "SellingGeneralAndAdministrativeExpense", "sg&a", cls="comparative_year"),
    N("abbvie dividends paid 2022", "ABBV", 2022, DIVIDENDS, "dividends paid", cls="comparative_year"),
    N("texas instruments stock repurchases in 2021", "TXN", 2021, "PaymentsForRepurchaseOfCommonStock", "share repurchases", cls="comparative_year"),
    N("home depot SG&A fiscal 2022", "HD", 2022, "SellingGeneralAndAdministrativeExpense", "sg&a", cls="comparative_year"),
    N("What was Intel's dividend payment in 2022?", "INTC", 2022, DIVIDENDS, "dividends paid", cls="comparative_year"),
    N("nike demand creation expense FY23", "NKE", 2023, "MarketingAndAdvertisingExpense", "demand creation expense", cls="comparative_year"),
    N("comcast marketing and promotion 2021", "CMCSA", 2021, "MarketingAndAdvertisingExpense", "marketing and promotion", cls="comparative_year"),
    N("general dynamics dividends paid in 2021", "GD", 2021, DIVIDENDS, "dividends paid", cls="comparative_year"),
    N("mastercard net income 2022", "MA", 2022, NI, "net income", cls="comparative_year"),
    N("Netflix revenue for 2022", "NFLX", 2022, REV, "revenue", cls="comparative_year"),
    N("union pacific operating income 2022", "UNP", 2022, "OperatingIncomeLoss", "operating income", cls="comparative_year"),
    N("salesforce net income fiscal 2023", "CRM", 2023, NI, "net income", cls="comparative_year"),
    N("visa capex in fiscal 2022", "V", 2022, CAPEX, "capex", cls="comparative_year"),
    N("pepsico net revenue 2021", "PEP", 2021, REV, "revenue", cls="comparative_year"),
    N("Boeing operating cash flow in 2022", "BA", 2022, OCF, "operating cash flow", cls="comparative_year"),

    # --- trends (three years or more) ----------------------------------------------------------
    TR("is coca-cola's operating income improving? 2022-2024", "KO", [2022, 2023, 2024], "OperatingIncomeLoss", "operating income"),
    TR("intel net income trend through 2023 — is it getting worse?", "INTC", [2021, 2022, 2023], NI, "net income"),
    TR("has home depot's SG&A been rising? fiscal 2022 to 2024", "HD", [2022, 2023, 2024], "SellingGeneralAndAdministrativeExpense", "sg&a"),
    TR("nike demand creation expense over the last three fiscal years (FY23-FY25)", "NKE", [2023, 2024, 2025], "MarketingAndAdvertisingExpense", "demand creation expense"),
    TR("is tesla's gross profit improving or declining, 2022 through 2024?", "TSLA", [2022, 2023, 2024], "GrossProfit", "gross profit"),
    TR("amazon AWS revenue 2022, 2023, 2024", "AMZN", [2022, 2023, 2024], REV_ASC606, "AWS segment net sales", dims={SEG: "amzn:AmazonWebServicesSegmentMember"}),
    TR("mcdonald's revenue trend 2021-2023", "MCD", [2021, 2022, 2023], REV, "revenue"),
    TR("verizon advertising expense: up or down from 2021 to 2023?", "VZ", [2021, 2022, 2023], "AdvertisingExpense", "advertising expense"),
    TR("Is Mastercard's net income improving as of FY2024? Show the last three years.", "MA", [2022, 2023, 2024], NI, "net income"),
    TR("walmart operating income fiscal 2023-2025, improving?", "WMT", [2023, 2024, 2025], "OperatingIncomeLoss", "operating income"),

    # --- quarters and halves: refused for now --------------------------------------------------
    Q("amazon revenue for the three months ended june 30, 2023", "AMZN"),
    Q("Boeing first-half 2023 net loss?", "BA"),
    Q("nvidia Q2 FY24 data center revenue", "NVDA"),
    Q("walmart 2Q fiscal 2024 operating income", "WMT"),
    Q("what did alphabet earn in the september 2023 quarter", "GOOGL"),
    Q("apple revenue for the nine months ended july 1 2023", "AAPL"),
    Q("coca-cola H1 2023 revenue", "KO"),
    Q("procter & gamble first quarter fiscal 2024 net sales", "PG"),
    Q("visa net revenue in the quarter ended june 30 2023", "V"),
    Q("home depot net sales for the six months ended july 30, 2023", "HD"),
    Q("tesla q4 2024 revenue?", "TSLA"),
    Q("mcdonalds second quarter 2023 operating income", "MCD"),

    # --- years no held filing reports ----------------------------------------------------------
    R("pepsico revenue in 2016", "year_not_available", ["2016"], "impossible_year", needs=["PEP"]),
    R("Home Depot net earnings fiscal 2015", "year_not_available", ["2015"], "impossible_year", needs=["HD"]),
    R("coca-cola net income for 1875", "year_not_available", ["1875"], "impossible_year", reasons=["no_grounding"], needs=["KO"]),
    R("intel revenue 2027", "year_not_available", ["2027", "forecast"], "impossible_year", reasons=["out_of_scope"], needs=["INTC"]),
    R("mastercard net income fy2019", "year_not_available", ["2019"], "impossible_year", needs=["MA"]),
    R("what was visa's revenue in fiscal 2031?", "year_not_available", ["2031", "forecast"], "impossible_year", reasons=["out_of_scope"], needs=["V"]),

    # --- companies outside the corpus ----------------------------------------------------------
    R("shopify revenue 2023", "not_covered", ["Shopify"], "unknown_company", reasons=["no_company"]),
    R("Microsoft operating income FY2024", "not_covered", ["Microsoft"], "unknown_company", reasons=["no_company"]),
    R("costco net sales fiscal 2024", "not_covered", ["Costco"], "unknown_company", reasons=["no_company"]),
    R("starbucks SG&A 2023", "not_covered", ["Starbucks"], "unknown_company", reasons=["no_company"]),
    R("samsung R&D spend 2023", "not_covered", ["Samsung"], "unknown_company", reasons=["no_company"]),
    R("berkshire hathaway operating earnings 2023", "not_covered", ["Berkshire"], "unknown_company", reasons=["no_company"]),
    R("what was Spotify's gross margin in 2024?", "not_covered", ["Spotify"], "unknown_company", reasons=["no_company"]),

    # --- must refuse: prices, forecasts, advice, figures no filing reports ---------------------
    R("whats nvidia stock price rn", "out_of_scope", ["price"], "must_refuse"),
    R("apple market cap?", "out_of_scope", ["market", "valuation"], "must_refuse"),
    R("should i buy more META before earnings??", "out_of_scope", ["advice"], "must_refuse"),
    R("Can you forecast Walmart's fiscal 2027 revenue for me?", "out_of_scope", ["forecast", "predict"], "must_refuse"),
    R("what will tesla's net income be in 2026", "out_of_scope", ["forecast", "predict"], "must_refuse"),
    R("is coca-cola undervalued relative to pepsi", "out_of_scope", ["advice", "valuation"], "must_refuse"),
    R("price target for amazon?", "out_of_scope", ["price"], "must_refuse"),
    R("which of KO, PEP and PG is the best dividend stock to buy now", "out_of_scope", ["advice"], "must_refuse"),
    R("what's your prediction for nvidia's data center growth next year", "out_of_scope", ["forecast", "predict"], "must_refuse"),
    R("netflix churn rate 2024", "unknown_metric", ["churn"], "must_refuse", reasons=["no_grounding"], needs=["NFLX"]),
    R("amazon prime subscriber count 2024", "unknown_metric", ["Prime", "subscriber"], "must_refuse", reasons=["no_grounding"], needs=["AMZN"]),
    R("mcdonald's big mac units sold 2023", "unknown_metric", ["Big Mac"], "must_refuse", reasons=["no_grounding"], needs=["MCD"]),
    R("meta net promoter score 2024", "unknown_metric", ["net promoter", "NPS"], "must_refuse", reasons=["no_grounding"], needs=["META"]),
    R("tesla p/e ratio", "out_of_scope", ["price", "valuation", "P/E"], "must_refuse"),
    R("boeing 52-week high", "out_of_scope", ["price", "stock"], "must_refuse"),
    R("is now a good time to sell my intel shares?", "out_of_scope", ["advice"], "must_refuse"),
    R("project home depot's earnings for fiscal 2026", "out_of_scope", ["forecast", "predict"], "must_refuse"),
    R("what's the consensus EPS estimate for visa next year", "out_of_scope", ["forecast", "estimate"], "must_refuse"),
]

THREADS = [
    {"id": "df-thr-01", "turns": [
        N("home depot net sales fiscal 2024", "HD", 2024, REV, "net sales", cls="followup"),
        R("what about shopify?", "not_covered", ["Shopify"], "followup", reasons=["no_company"]),
    ]},
    {"id": "df-thr-02", "turns": [
        N("nvidia data center revenue fy2025", "NVDA", 2025, "Revenues", "data center revenue", cls="followup", dims={PROD: "nvda:DataCenterMember"}),
        N("and gaming?", "NVDA", 2025, "Revenues", "gaming revenue", cls="followup", dims={PROD: "nvda:GamingMember"}),
    ]},
    {"id": "df-thr-03", "turns": [
        N("apple dividends paid fy2024", "AAPL", 2024, DIVIDENDS, "dividends paid", cls="followup"),
        N("and share repurchases?", "AAPL", 2024, "PaymentsForRepurchaseOfCommonStock", "share repurchases", cls="followup"),
    ]},
    {"id": "df-thr-04", "turns": [
        N("tesla capex 2024", "TSLA", 2024, CAPEX, "capex", cls="followup"),
        Q("what about in the first half of 2024?", "TSLA"),
    ]},
    {"id": "df-thr-05", "turns": [
        N("meta R&D 2024", "META", 2024, "ResearchAndDevelopmentExpense", "r&d", cls="followup"),
        R("how about Snap?", "not_covered", ["Snap"], "followup", reasons=["no_company"]),
    ]},
    {"id": "df-thr-06", "turns": [
        N("coca-cola SG&A 2024", "KO", 2024, "SellingGeneralAndAdministrativeExpense", "sg&a", cls="followup"),
        N("and the year before that?", "KO", 2023, "SellingGeneralAndAdministrativeExpense", "sg&a", cls="followup"),
    ]},
]

PREFIX = {"num": "num", "trend": "trd", "calc": "calc", "refusal": "ref"}


def _expand(spec: dict, data: dict) -> dict:
    """One spec entry as a question line (without id)."""
    t = spec["t"]
    line: dict = {"class": spec["cls"], "question": spec["q"]}
    if spec.get("note"):
        line["note"] = spec["note"]
    if t == "refusal":
        kind = "refusal"
        expect = {"answer": "refusal", "reason": spec["reason"], "names": spec["names"]}
        if spec["reasons"]:
            expect["reasons"] = spec["reasons"]
        if spec["needs"]:
            expect["needs"] = spec["needs"]
    elif t == "num":
        comp = data[spec["tk"]]
        kind = "numeric"
        expect = {"answer": "answer", "numbers": [expected_number(comp, spec["metric"], spec["concepts"], spec["fy"], spec["dims"], spec["instant"])]}
    elif t == "trend":
        comp = data[spec["tk"]]
        kind = "trend"
        expect = {"answer": "answer", "numbers": [expected_number(comp, spec["metric"], spec["concepts"], y, spec["dims"]) for y in spec["years"]]}
    else:
        comp = data[spec["tk"]]
        kind = "derived"
        calc = compute(comp, spec["fy"], spec["formula"], spec["inputs"], spec["unit"])
        calc = {"ticker": comp.ticker, "fiscal_year": spec["fy"], "metric": spec["metric"], **calc,
                "concepts": sorted({i["concept"] for i in calc["inputs"]})}
        alts = []
        for convention, (formula, inputs) in spec["alternatives"].items():
            alt = compute(comp, spec["fy"], formula, inputs, spec["unit"])
            alts.append({"convention": convention, "value": alt["value"], "formula": formula})
            calc["concepts"] = sorted(set(calc["concepts"]) | {i["concept"] for i in alt["inputs"]})
        if alts:
            calc["alternatives"] = alts
        expect = {"answer": "answer", "calc": calc}
    line["kind"] = kind
    line["expect"] = expect
    return line


def expand_set(spec: list[dict], threads: list[dict], data, id_prefix: str, extra: dict | None = None) -> tuple[list[dict], list[str]]:
    """Each question of a spec with its expected value read from the XBRL `data`, numbered per class
    under `id_prefix`, then the threads; what cannot be read is logged, never guessed.

    `extra` {entry type: (id prefix, expand(entry) -> line)} adds entry types a set reads from
    elsewhere (dev4's 10-Q quarters), kept in the spec's order; they raise FactError or KeyError too."""
    out, log = [], []
    counters: dict[str, int] = {}
    extra = extra or {}
    for entry in spec:
        try:
            line = extra[entry["t"]][1](entry) if entry["t"] in extra else _expand(entry, data)
        except (FactError, KeyError) as exc:
            log.append(f"{entry['q']!r}: {exc}, question not written")
            continue
        prefix = extra[entry["t"]][0] if entry["t"] in extra else PREFIX[entry["t"]]
        counters[prefix] = counters.get(prefix, 0) + 1
        out.append({"id": f"{id_prefix}-{prefix}-{counters[prefix]:03d}", **line})
    for thread in threads:
        try:
            turns = [_expand(entry, data) for entry in thread["turns"]]
        except (FactError, KeyError) as exc:
            log.append(f"{thread['id']}: {exc}, thread not written")
            continue
        out.append({"id": thread["id"], "turns": turns})
    return out, log


def build(corpus: Path) -> tuple[list[dict], list[str]]:
    return expand_set(SPEC, THREADS, collect(corpus), "df")


def main(argv: list[str] | None = None) -> int:
    from evals.make_shared import write_set

    return write_set(build, DATA / "dev_figures.jsonl", __doc__.split("\n\n")[0], argv)


if __name__ == "__main__":
    sys.exit(main())
