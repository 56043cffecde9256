"""The deterministic planner: a chat message (and the thread's last plan) in, a Plan out.

No model and no fuzzy matching of metrics: companies come from the CompanyDirectory, metrics and
formulas from exact phrases (agent.concepts, agent.finance), years from agent.plan_years, scope
from agent.plan_scope. What the message leaves out (company, years, metric) is taken from the
previous plan and named in `Plan.inherited`, so "and R&D?" or "what about fiscal 2023?" work.
"""

from __future__ import annotations

import re

from agent.companies import CompanyDirectory, CompanyMatch, norm_name
from agent.concepts import METRICS, UNKNOWN_METRICS, find_phrases, normalize
from agent.finance import FORMULAS, GROWTH_BASES, GROWTH_WORDS, MEASURE_PHRASES, growth_key
from agent.plan import Plan
from agent.plan_scope import meta_intent, out_of_scope, strip_quotes
from agent.plan_years import Years, parse_years

MAX_CHARS = 2000  # agent.service refuses longer questions first; the same limit here
DEFAULT_COMPARE = ("revenue", "net_income")

# (pattern, Items). Order matters only for the order of Items in the plan.
TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"\bcyber\w*|\binformation security\b|\bdata breach\w*|\bsecurity incidents?\b|\bciso\b|\bransomware\b|"
     r"\bhack\w*|\bsecurity (?:officer|program|team|leadership|governance|risk management)\b|\bcso\b|"
     r"\bbug bount\w*", ("1C",)),
    (r"\binterest rate (?:risk|sensitivity|exposure)|\bforeign (?:currency|exchange)|\bfx\b|\bexchange rates?\b|"
     r"\bmarket risks?\b|\bcommodity (?:price )?risk|\bhedg\w+|\bderivative\w*|\bcurrency risk", ("7A",)),
    (r"\brisk factors?\b|\brisks?\b|\bthreats?\b|\bheadwinds?\b|\buncertaint\w+|\bchallenges\b|\bvulnerab\w+|"
     r"\bexport (?:controls?|restrictions?|licen[cs]es?)\b|\bsanctions\b|\bgeopolitic\w*|\btrade restrictions?\b",
     ("1A",)),
    (r"\blitigation\b|\blegal proceedings\b|\blawsuits?\b|\bsettlements?\b|\binvestigations?\b|\bopioid\w*",
     ("1A", "8")),
    (r"\bmd&a\b|\bmanagement'?s? discussion\b|\bresults of operations\b|\bliquidity\b|\bcapital resources\b|"
     r"\boutlook\b|\bperformance\b|\bcritical accounting estimates\b|\bwhy\b|\bdrivers?\b|\bdrove\b|\bdriven\b|"
     r"\bexplain\w*|\breasons?\b|\bcaused?\b|\bwhat led\b|\bcontribut\w+|\bsegment results\b|\bkey trends\b|"
     r"\bcash (?:needs|requirements)\b|\bcapital allocation\b|\bheadcount reduction|\brestructuring\b", ("7",)),
    (r"\bprice (?:cuts?|reductions?|increases?)\b|\bpricing\b|\bdeliver(?:y|ies|ed)\b|\bproduction volumes?\b|"
     r"\bunits? sold\b|\bdemand\b", ("7", "1A")),
    (r"\baccounting polic\w+|\brevenue recognition\b|\bnotes? to (?:the )?(?:consolidated )?financial statements\b|"
     r"\bfootnotes\b|\bfootnote\s+(?:on|about|for)\b|\bleases?\b|\bgoodwill\b|\bimpairment\w*|\b(?:stock|share)[- ]based compensation\b|"
     r"\bsegment information\b|\bcontingenc\w+|"
     r"\bdeferred tax\w*|\bfair value\b|\bpension\w*|\bdebt maturit\w+|\bcommitments\b|\bwarrant(?:y|ies)\b|"
     r"\bsubsequent events?\b", ("8",)),
    (r"\bbusiness\b|\bproducts?\b|\bservices\b|\bsegments?\b|\bstrateg\w+|\bcompetit\w+|\bcompete\w*|"
     r"\bemployees\b|\bhuman capital\b|\bworkforce\b|\bcustomers?\b|\bsuppliers?\b|\bsupply chain\b|"
     r"\bseasonal\w*|\bintellectual property\b|\bpatents?\b|\bregulat\w+|\bmanufactur\w+|"
     r"\bwhat does \S+ do\b|\bgeograph\w+|\bdistribution\b|\bpartner\w*|"
     r"\bacquisitions?\b|\bbrands?\b|\blicens\w+|\bsubsidiar\w+|\bwhat do they (?:do|sell)\b|\bsells?\b|"
     r"\brelationship\b|\bdepend\w+|\bconcentration\b|\bfactor(?:y|ies)\b|\bfacilit\w+|\bplants?\b|"
     r"\bheadquarter\w*|\bproperties\b|\bwhere\b.{0,30}\b(?:make|makes|made|build|builds|built|produce\w*)\b",
     ("1",)),
    (r"\bai\b|\bartificial intelligence\b|\bclimate\b|\bsustainab\w+|\besg\b|\btariffs?\b|\bchina\b|"
     r"\binflation\b|\bgenerative\b|\bdata cent(?:er|re)s?\b|\bgpus?\b|\bcloud\b|\bsays?\b|\bmention\w*|\bdiscuss\w*|"
     r"\bdisclos\w+|\bdescrib\w+|\boverview\b|\bpolic(?:y|ies)\b|\bapproach\b|\bplans?\b", ()),
)

# Asks about how something is done or described, not for a figure, even when a metric is named.
SECTION_ITEMS = {"1A", "1C", "7A"}  # a metric named inside these topics is part of a prose question
QUAL_ASK = re.compile(
    r"\b(?:(?:report|say|said|says|write|wrote|mention|disclose)\w*\s+(?:about|on|regarding)|how does|how do|how did|describe|discuss\w*|says? about|said about|explain\w*|polic(?:y|ies)|approach|"
    r"account(?:s|ed|ing)? for|recogni[sz]\w*|strateg\w+|what factors|impact of|affect\w*)\b"
)
# Metric words inside a qualitative topic ("revenue recognition"): masked before metric matching.
TOPIC_MASK = re.compile(
    r"\b(?:revenue recognition|recogni[sz]\w* (?:of )?revenues?|deferred (?:income )?tax\w*|"
    r"tax (?:polic(?:y|ies)|strategy|disputes?|audits?|legislation|law)|cash (?:needs|requirements|management)|"
    r"sales (?:channels?|force|strategy|practices|team|organization)|debt (?:maturit\w+|covenants?))\b",
    re.I,
)

WHY = re.compile(
    r"\b(?:why|what drove|what caused|drivers?|driven by|reasons?|explain\w*|explanation|what led|"
    r"contribut\w+ to|factors behind|how come)\b"
)
FOLLOWUP = re.compile(
    r"^\s*(?:and|also|what about|how about|same|now|ok|okay|then|plus|vs\.?|versus|compare (?:that|it|this|them)|"
    r"what if|how does (?:that|it|this) compare|and for|and in|for)\b|"
    r"\b(?:that|it|its|this|those|them|they|their|the same)\b"
)
ADDING = re.compile(r"\b(?:compar\w*|vs\.?|versus|against|relative to|with|side by side|stack up|alongside)\b")
COMPOUND = re.compile(
    r"\s*,?\s*\b(?:and|as well as|plus|also)\s+(?=(?:on what|what|how|why|where|which|who|its|their|"
    r"the reasons?|whether)\b)"
)

# Words analysts shorten, and the words filings use for them (appended, so both are searched).
EXPANSIONS: tuple[tuple[str, str], ...] = (
    (r"\bcapex\b|\bcap ex\b", "capital expenditures purchases of property and equipment"),
    (r"\bopex\b", "operating expenses"),
    (r"\bfcf\b", "free cash flow operating activities capital expenditures"),
    (r"\bd&a\b", "depreciation and amortization"),
    (r"\bsg&a\b|\bsga\b", "selling, general and administrative"),
    (r"\br&d\b|\br & d\b|\brnd\b", "research and development"),
    (r"\byoy\b|\by/y\b", "year over year compared to prior year"),
    (r"\bmd&a\b", "management's discussion and analysis"),
    (r"\bai\b", "artificial intelligence"),
    (r"\bcogs\b", "cost of sales cost of revenue"),
    (r"\beps\b", "earnings per share"),
    (r"\bfx\b", "foreign currency exchange rates"),
    (r"\bm&a\b", "acquisitions"),
    (r"\bip\b", "intellectual property"),
    (r"\besg\b", "environmental social governance"),
    (r"\bciso\b", "chief information security officer"),
    (r"\bpp&e\b", "property, plant and equipment"),
    (r"\bbuybacks?\b", "share repurchases"),
    (r"\bgm\b(?= margin)", "gross margin"),
    (r"\bhq\b", "headquarters"),
    (r"\bcyber\b", "cybersecurity"),
)

# A word right before a metric that narrows it to something the table cannot map: refused.
QUALIFIERS = {
    "iphone", "ipad", "mac", "wearables", "services", "service", "product", "products", "segment", "segments",
    "cloud", "azure", "aws", "data", "center", "gaming", "automotive", "advertising", "ad", "ads", "subscription",
    "international", "domestic", "china", "europe", "americas", "asia", "regional", "deferred", "unearned",
    "interest", "rental", "license", "licensing", "hardware", "software", "device", "devices", "retail",
    "wholesale", "online", "digital", "ecommerce", "store", "stores", "organic", "adjusted", "recurring",
    "monthly", "foreign", "geographic", "core", "pharmaceutical", "pharma", "membership", "merchandise",
    "unbilled", "comprehensive", "other", "segmental", "divisional", "us", "u.s", "north", "south", "east",
    "west", "greater", "japan", "india", "vaccine", "oncology", "auto", "energy", "defense", "commercial",
    "consumer", "enterprise", "platform", "streaming", "mobile", "payments", "accumulated", "pro", "forma",
}
BY_BREAKDOWN = re.compile(
    r"\b(?:by|per|for each|across|from)\s+(?:segment|segments|product|products|region|regions|geography|"
    r"geographies|country|countries|category|categories|line|business|division|divisions|customer|"
    r"customers|employee|store|unit|user|subscriber)\b"
)

_NAME_STOP = {
    "what", "how", "why", "which", "who", "when", "where", "is", "are", "was", "were", "do", "does", "did", "can",
    "could", "should", "would", "tell", "show", "give", "list", "compare", "i", "the", "in", "for", "and", "please",
    "hi", "hey", "item", "form", "sec", "gaap", "fy", "me", "get", "find", "explain", "describe", "summarize",
    "according", "per", "between", "vs", "of", "about", "its", "their", "a", "an", "on", "to", "from", "with",
}
_CAPITALISED = re.compile(r"(?<![\w$])([A-Z][\w&.'\u2019-]*(?:\s+(?:[A-Z][\w&.'\u2019-]*|&|of))*)")


def _meta(intent: str, tickers: list[str] | None = None) -> Plan:
    return Plan(route="meta", intent=intent, tickers=tickers or [])


def _refuse(reason: str, detail: str | None = None, **extra) -> Plan:
    return Plan(route="refusal", intent="refuse", refusal_reason=reason, refusal_detail=detail, **extra)


# Sections named by their titles: the user has said where to look.
SECTION_NAMES: tuple[tuple[str, str], ...] = (
    (r"\brisk factors?\b", "1A"),
    (r"\bmd&a\b|\bmanagement'?s? discussion\b", "7"),
    (r"\bquantitative and qualitative disclosures?\b", "7A"),
    (r"\bnotes? to (?:the )?(?:consolidated )?financial statements\b|\bfinancial statement notes\b", "8"),
)


def route_items(text: str) -> tuple[list[str], bool]:
    """10-K Items the wording points to, and whether any qualitative topic was named at all.

    The most specific Item wins over the generic ones its words also trigger: "interest rate
    risk" is Item 7A, not every risk factor; "supply chain risks" are risk factors (1A), not the
    business description (1); cybersecurity is Item 1C.
    """
    items: list[str] = []
    found = False
    for pattern, its in TOPICS:
        if re.search(pattern, text):
            found = True
            items += [i for i in its if i not in items]
    named = re.findall(r"\bitem\s+(1a|1b|1c|7a|1|7|8)\b", text)
    named += [item for pattern, item in SECTION_NAMES if re.search(pattern, text)]
    if named:  # "in item 1", "its risk factors", "the MD&A": the user named the section
        return list(dict.fromkeys(n.upper() for n in named)), True
    risk_factors = False
    if ("7A" in items or "1C" in items) and not risk_factors:
        items = [i for i in items if i != "1A"]
    if "1C" in items or ("1A" in items and "8" not in items):
        items = [i for i in items if i != "1"]
    return items, found


def expand_query(text: str) -> str:
    """The text with analyst abbreviations followed by the words filings use for them."""
    out = text
    for pattern, words in EXPANSIONS:
        out = re.sub(pattern, lambda m, w=words: f"{m.group(0)} ({w})", out, flags=re.I)
    return re.sub(r"\s+", " ", out).strip(" ?.!,;:")


def _strip_for_query(text: str, matches: list[CompanyMatch]) -> str:
    t = text
    for m in matches:
        if m.kind != "company":
            continue  # an uncovered company named in a prose question is part of the topic
        t = t.replace(m.text + "'s", " ").replace(m.text + "\u2019s", " ").replace(m.text, " ")
    t = re.sub(r"(?i)\b(?:in|for|during|of)?\s*(?:the\s+)?(?:fy\s?'?\d{2,4}|fiscal\s+(?:year\s+)?\d{2,4}|(?:19|20)\d{2})\b", " ", t)
    t = re.sub(r"(?i)^\s*(?:(?:and|so|ok|okay|please|hey|hi)[\s,]+)*", "", t)
    t = re.sub(r"(?i)\b(?:according to|per|in|from)\s+(?:the|its|their)?\s*(?:10-?k|annual report)\b", " ", t)
    return re.sub(r"\s+", " ", t).strip(" ?.!,;:")


_MEASURE_OR_UNKNOWN = {**MEASURE_PHRASES, **{normalize(p): "?" + normalize(p) for p in UNKNOWN_METRICS}}
# Capitalised words that may stand before a metric without narrowing it ("Total Revenue").
NEUTRAL_BEFORE = _NAME_STOP | {
    "total", "net", "annual", "consolidated", "gaap", "reported", "fiscal", "full", "overall", "company", "gross",
    "operating", "diluted", "basic", "latest", "recent", "current", "prior", "previous", "last", "yearly", "whole",
    "entire", "cumulative", "fy", "year", "q", "report", "reports", "reported", "compare", "show", "what's",
}


def _capitalised(text: str) -> set[str]:
    """Title-case words not at the start of a sentence, lowercased (e.g. product names)."""
    out: set[str] = set()
    for m in re.finditer(r"[A-Za-z][\w'\u2019-]*", text):
        word = m.group(0)
        before = text[: m.start()].rstrip()
        if not before or before[-1] in ".?!:;\"(":
            continue
        if word[0].isupper() and not word.isupper() and not re.search(r"['\u2019]s$", word):
            out.add(normalize(word))  # possessives name an owner (a company), not a product
    return out


def _measures(text: str, *, named_company: bool = False) -> tuple[list[str], str | None]:
    """Metric/formula keys in the text, and a narrowed or unmappable metric phrase to refuse, if any.

    With `named_company`, a capitalised word right before a metric ("Nvidia Blackwell revenue")
    narrows it; without one, that word is more likely an unknown company's name.
    """
    norm = normalize(text)
    words = norm.split()
    names = _capitalised(text) if named_company else set()
    spans = find_phrases(norm, _MEASURE_OR_UNKNOWN)
    keys: list[str] = []
    for start, end, key in spans:
        if key.startswith("?"):
            return keys, key[1:]
        phrase = " ".join(words[start:end])
        before = words[start - 1] if start > 0 else ""
        if before in QUALIFIERS or (before in names and before not in NEUTRAL_BEFORE and key in METRICS):
            return keys, f"{before} {phrase}"  # "iPhone revenue", "Blackwell revenue"
        after = " ".join(words[end : end + 3])
        if BY_BREAKDOWN.match(after) and key in METRICS:
            return keys, f"{phrase} {after}"
        where = [w for w in words[end + 1 : end + 4] if w not in ("the", "its", "their")]
        if end < len(words) and words[end] in ("in", "from", "outside", "for") and where and where[0] in QUALIFIERS:
            return keys, f"{phrase} {words[end]} {where[0]}"  # "net sales in greater china"
        if key not in keys:
            keys.append(key)
    return keys, None


def _growth_words(norm: str) -> bool:
    return any(re.search(rf"(?<![\w/]){re.escape(w)}(?![\w/])", norm) for w in GROWTH_WORDS)


def guess_company_text(text: str) -> str | None:
    """The capitalised words most likely naming an unknown company ("Foo Corp"), for the refusal."""
    for m in _CAPITALISED.finditer(text):
        words = [w for w in re.split(r"\s+", m.group(1)) if w]
        while words and (words[0].lower().strip(".,'") in _NAME_STOP or normalize(words[0]) in MEASURE_PHRASES):
            words.pop(0)
        while words and (words[-1].lower() in ("&", "of") or normalize(words[-1]) in MEASURE_PHRASES):
            words.pop()
        name = re.sub(r"['\u2019]s$", "", " ".join(words)).strip(" .,")
        if name and not re.fullmatch(r"(?:FY)?\d+\w*|Q\d", name):
            return name
    return None


def _usable_previous(previous: Plan | None) -> Plan | None:
    if previous is None or previous.route == "meta":
        return None
    if previous.route == "refusal" and previous.refusal_reason in (
        "out_of_scope", "input_too_long", "internal_error", "no_grounding",
    ):
        return None
    return previous


def _coverage_years(directory: CompanyDirectory, tickers: list[str]) -> int | None:
    years: list[int] = []
    for t in tickers:
        c = directory.get(t)
        if c is not None:
            years += directory.years.get(c.cik, [])
    return max(years) if years else None


def _year_fields(years: Years, previous: Plan | None, directory: CompanyDirectory, tickers: list[str]) -> dict:
    """The plan's year fields: the message's own, else (`previous` given) the thread's."""
    if previous is not None:
        return {"fiscal_years": list(previous.fiscal_years), "latest": previous.latest,
                "year_offsets": list(previous.year_offsets), "as_of_filing_year": previous.as_of_filing_year}
    out = {"fiscal_years": list(years.years), "latest": years.latest or not years.given,
           "year_offsets": list(years.offsets), "as_of_filing_year": years.as_of}
    if years.since is not None:
        top = _coverage_years(directory, tickers)
        if top is not None and top >= years.since:
            out.update(fiscal_years=list(range(years.since, top + 1)), latest=False)
        else:
            out["fiscal_years"] = [years.since]
    return out


def plan_rules(text: str, *, previous: Plan | None = None, directory: CompanyDirectory) -> Plan:
    """Plan one message. Never raises on user input; anything it cannot map becomes a refusal."""
    raw = text or ""
    if len(raw) > MAX_CHARS:
        return _refuse("input_too_long")
    outside = strip_quotes(raw)
    low = re.sub(r"\s+", " ", outside.lower().replace("\u2019", "'")).strip()
    if not re.search(r"[a-z0-9]", low):
        return _meta("help")
    scope = out_of_scope(low)
    if scope:
        return _refuse("out_of_scope", scope)

    matches = directory.find(outside)
    unnamed = outside
    for m in sorted((m for m in matches if m.kind == "company"), key=lambda m: -m.start):
        # "Advanced Micro Devices revenue" is not "devices revenue"
        unnamed = unnamed[: m.start] + "_" * (m.end - m.start) + unnamed[m.end :]
    measures, unmappable = _measures(TOPIC_MASK.sub(" ", unnamed),
                                     named_company=any(m.kind == "company" for m in matches))
    if "shares_outstanding" not in measures and re.search(r"\bshares\b.{0,40}\boutstanding\b", low):
        measures.append("shares_outstanding")  # "how many shares did Apple have outstanding"
    items, has_topic = route_items(low)
    meta = meta_intent(low)
    if meta in ("greeting", "thanks", "help") and not matches and not measures and not has_topic and not unmappable:
        return _meta(meta)
    if meta == "coverage" and not measures and not unmappable:
        return _meta("coverage", [m.company.ticker for m in matches if m.company])

    prev = _usable_previous(previous)
    norm = normalize(outside)
    why = bool(WHY.search(low))
    growth = _growth_words(norm) and not why
    years = parse_years(outside, growth=growth)
    n_words = len(re.findall(r"[\w&$'-]+", low))
    followup = prev is not None and (bool(FOLLOWUP.search(low)) or n_words <= 3)

    not_covered = [m for m in matches if m.kind == "not_covered"]
    ambiguous = [m for m in matches if m.kind == "ambiguous"]
    tickers = [m.company.ticker for m in matches if m.kind == "company"]
    # an uncovered company named beside a covered one in a prose question is a topic ("Nvidia's
    # relationship with TSMC"), not a second subject; in a figure or comparison it is a subject
    if not_covered and tickers and has_topic and not measures and not re.search(r"\b(?:compar\w*|vs\.?|versus)\b", low):
        not_covered = []
    if tickers:  # beside a covered company, a capitalised word that is some obscure registrant's name
        not_covered = [m for m in not_covered if m.via != "name" or len(norm_name(m.text)) > 1
                       or norm_name(m.text)[0] in directory.alias_words]
    prose_ask = why or (has_topic and bool(QUAL_ASK.search(low))) or bool(set(items) & SECTION_ITEMS)
    if unmappable and prose_ask:
        measures, unmappable = [], None  # "why did iPhone revenue fall?": prose about a narrower figure

    # what the message leaves out, from the thread (refusals carry it too, so a reply to one works)
    inherited: list[str] = []
    year_ctx = prev if (not years.given and prev is not None and (followup or not matches)) else None
    year_fields = _year_fields(years, year_ctx, directory, tickers)
    if years.offsets and not years.years and not years.since and prev is not None and followup:
        # "and the year before?": relative to the year the thread is on, not to the latest filing
        if prev.fiscal_years:
            base = max(prev.fiscal_years)
            year_fields.update(fiscal_years=sorted({base + o for o in years.offsets}), latest=False, year_offsets=[])
        elif prev.latest:
            base_offset = max(prev.year_offsets or [0])
            year_fields.update(year_offsets=sorted({base_offset + o for o in years.offsets}))
    if year_ctx is not None and (prev.fiscal_years or prev.latest or prev.year_offsets):
        inherited.append("fiscal_years")
    if (not measures and not unmappable and prev is not None and prev.metrics and followup and not has_topic
            and not why):
        measures = list(prev.metrics)
        inherited.append("metrics")
    carry = {"metrics": measures, **year_fields}

    if not_covered:
        m = not_covered[0]
        detail = m.text if m.via == "ticker" else f"{m.text} ({m.company.ticker})"
        return _refuse("not_covered", detail, tickers=[m.company.ticker], **carry)
    if ambiguous and not tickers:
        m = ambiguous[0]
        return _refuse("ambiguous_company", m.text, candidates=[c.ticker for c in m.candidates], **carry)
    if unmappable:
        known = tickers or (list(prev.tickers) if prev is not None else [])
        return _refuse("unknown_metric", unmappable, tickers=known, **carry)

    plan = Plan(route="domain", intent="numeric", **year_fields)
    domain_signal = bool(measures or has_topic or why or years.given or matches)

    # companies
    if prev is not None and prev.tickers:
        if not tickers and (domain_signal or followup):
            tickers = list(prev.tickers)
            inherited.insert(0, "tickers")
        elif tickers and followup and (prev.intent == "compare" or ADDING.search(low)):
            new = [t for t in tickers if t not in prev.tickers]
            if new:
                tickers = list(prev.tickers) + new
                inherited.insert(0, "tickers")
    if not tickers:
        if domain_signal:
            return _refuse("no_company", guess_company_text(outside), **carry)
        guess = guess_company_text(outside)
        if guess:
            return _refuse("no_company", guess)
        return _refuse("out_of_scope", "topics outside companies' 10-K filings")

    # metrics: growth words turn a base metric into its year-over-year growth
    several_years = len(plan.fiscal_years) >= 3 or len(plan.year_offsets) >= 3 or years.trend
    if growth and measures and not any(k in FORMULAS for k in measures) and not several_years:
        # "how much did it grow?"; over three years or more, "how has it changed" is a trend
        measures = [growth_key(k) if k in GROWTH_BASES else k for k in measures]
    if (any(k.endswith("_growth") for k in measures) and len(plan.fiscal_years) == 2
            and plan.fiscal_years[1] - plan.fiscal_years[0] == 1 and not years.trend):
        plan.fiscal_years = plan.fiscal_years[1:]  # "2025 vs 2024": the 2025 growth
    query_source = _strip_for_query(raw if len(raw) <= MAX_CHARS else outside, matches)
    why_followup = why and not measures and prev is not None and bool(prev.metrics) and (followup or not has_topic)
    if why_followup:
        measures = list(prev.metrics)
        inherited.append("metrics")
        labels = " and ".join(_label(k) for k in measures)
        query_source = f"why did {labels} change, drivers of the increase or decrease in {labels}"
        items = ["7"]

    if not measures and len(tickers) >= 2 and not has_topic and not why:
        measures = list(DEFAULT_COMPARE)  # "compare Apple and Nvidia": the headline figures
    compound = COMPOUND.split(query_source)
    compound = [p.strip(" ,?.") for p in compound if p.strip(" ,?.")]
    qualitative = why or len(compound) > 1 or (has_topic and not measures) or not measures or prose_ask

    # qualitative follow-ups reuse the previous search when the message names no new topic
    if (qualitative and prev is not None and prev.intent == "qualitative" and not has_topic and not measures
            and not why and followup):
        plan.items = list(prev.items)
        plan.query = prev.query
        plan.sub_queries = list(prev.sub_queries)
        inherited += ["items", "query"]
    elif qualitative:
        if not has_topic and not measures and not why:
            items = ["1", "7"]
            content = [w for w in re.findall(r"[\w&]+", query_source.lower()) if w not in _NAME_STOP]
            if len(content) < 2:
                query_source = "business overview products and services"
        if why and "7" not in items:
            items = ["7", *items]
        plan.items = items
        plan.query = expand_query(query_source)
        if len(compound) > 1:
            plan.sub_queries = _sub_queries(compound[:3], measures)
    else:
        plan.query = expand_query(" ".join(_metric_query(k) for k in measures))

    plan.tickers = tickers
    plan.metrics = measures
    plan.inherited = inherited
    if qualitative:
        plan.intent = "qualitative"
    elif len(tickers) >= 2:
        plan.intent = "compare"
    elif years.trend or len(plan.fiscal_years) >= 2 or len(plan.year_offsets) >= 2:
        plan.intent = "trend"
    elif any(k in FORMULAS for k in measures):
        plan.intent = "derived"
    else:
        plan.intent = "numeric"
    return plan


def _label(key: str) -> str:
    if key in METRICS:
        return METRICS[key].label.lower()
    return FORMULAS[key].label.lower()


def _metric_query(key: str) -> str:
    return METRICS[key].query if key in METRICS else FORMULAS[key].query


def _sub_queries(parts: list[str], measures: list[str]) -> list[str]:
    """Each part of a compound question as its own search; a bare tail ("on what") borrows the
    first part's subject."""
    subject = " ".join(_metric_query(k) for k in measures) or parts[0]
    out = []
    for i, part in enumerate(parts):
        content = [w for w in re.findall(r"[\w&]+", part.lower()) if w not in _NAME_STOP and len(w) > 2]
        if i > 0 and len(content) < 2:
            tail = re.sub(r"(?i)^\s*on what\b", "spending focus areas priorities", part)
            part = f"{subject} {tail}"
        out.append(expand_query(part))
    return out
