"""fetch and locate: which companies, which filings, which fiscal years, which Items.

fetch turns the plan's tickers into covered companies and its year phrases into concrete fiscal
years per company (each company's own labels: NVIDIA's FY2025 ends in January 2025). It refuses
with not_covered or year_not_available here, before anything is searched. locate then decides
where to look: the Items for prose, the search queries, and the filings that bound the search.
"""

from __future__ import annotations

import re
from datetime import date

from agent.progress import status
from agent.refusals import QUARTERS_ONLY, as_named
from agent.retrieval.common_year import aligned_latest
from agent.retrieval.earlier_filing import EARLIER_SLOT, better_earlier
from agent.retrieval.filing_choice import asks_prior_filing, filed_in, fiscal_year_filed_in
from agent.retrieval.told_items import told_items
from agent.retrieval.line_items import company_line, line_optional, line_parts, printed_rows, same_printed_row
from agent.retrieval.row_members import member_row
from agent.planning.prose_route import DEPENDENCE, EVENT, NAMED_SECTION, SAID_OF, asks_rationale, expects_ahead
from agent.planning.changes import line_changes
from agent.planning.plan import Plan
from agent.planning.plan_years import unheld_filing_years
from agent.planning.topics import STOPWORDS
from agent.planning.years import CALENDAR_YEAR, MAX_YEAR, MIN_YEAR
from store import companies as company_store
from store import facts as facts_store
from store.display_names import display_name

NUMERIC_INTENTS = ("numeric", "derived", "compare", "trend")

# "Why did it change?", "what drove results?": MD&A's explanations share their wording.
_EXPLAIN = re.compile(r"\b(?:why|drove|drive[nrs]?|driving|reasons?|caused?|explain\w*|results?|change[ds]?)\b", re.I)
EXPLAIN_QUERY = "increased decreased primarily due to higher lower compared to the prior year"


# A change between two years asked for: "from 2023 to 2024", "between 2023 and 2024", "changed",
# "grew"... (a question naming two years for what each filing says, "in 2023 and in 2024", is not one).
_CHANGE_OVER = re.compile(r"\b(?:from\s+(?:fiscal\s+|fy\s?)?(?:20)?\d\d\s+(?:to|through)|between|chang\w*|increas\w*|"
                          r"decreas\w*|grow\w*|grew|declin\w*|rose|ris(?:e|es|ing)|fell|fall\w*|improv\w*|"
                          r"worsen\w*|deteriorat\w*|evolv\w*|shift\w*|drove|driv\w+|why)\b", re.I)


def over_two_years(question: str, years: list[int]) -> bool:
    """Two consecutive fiscal years, and the question asks how something changed between them."""
    return len(years) == 2 and years[1] - years[0] == 1 and bool(_CHANGE_OVER.search(question))


# "last year", "the past year", "the prior fiscal year" said alone: the year just ended, which the latest
# 10-K reports (and "compared with the prior year" is the comparison that 10-K draws). The planner keeps
# such a phrase as one year before the latest, which a figure's comparison needs; a prose question read
# there quotes the filing before the latest one, whose discussion is of the year before that. "A year
# ago", "the year before" count back from the latest and keep doing so.
_JUST_ENDED = re.compile(r"\b(?:last|past|prior|previous)\s+(?:fiscal\s+)?year\b(?!\s+(?:before|ago))", re.I)
_COUNTED_BACK = re.compile(r"\ba\s+year\s+ago\b|\byears?\s+(?:before|prior|earlier)\b|\bbefore\s+that\b|\bone\s+before\b",
                           re.I)


def year_just_ended(question: str, plan: dict) -> bool:
    """A prose question's "last year" (see _JUST_ENDED): the latest filing's year, not the one before."""
    return (plan.get("latest") and plan.get("year_offsets") == [-1] and not plan.get("fiscal_years")
            and bool(_JUST_ENDED.search(question)) and not _COUNTED_BACK.search(question))


def explain_query(topic: str | None) -> str:
    """The register MD&A explains a change in, about the question's subject ("gross margin increased
    decreased primarily due to ..."): the register alone finds every variance sentence of the
    section, whatever line it explains, and crowds out the one asked about."""
    return f"{topic.strip()} {EXPLAIN_QUERY}" if topic and topic.strip() else EXPLAIN_QUERY


_RELIANCE_ASK = re.compile(r"how|much|heavily|depend\w*|relian\w*|rel(?:y|ies)|exposed|exposure|concentrat\w*|"
                           r"vulnerab\w*|sensitive|is|are|its|their|on|to|the")


def reliance_query(query: str) -> str:
    """"how dependent is X on its bottlers" in the words a risk factor states a reliance with: "we
    rely on our bottlers for a significant portion of our business"."""
    words = [w for w in re.findall(r"[\w&'-]+", query.lower())
             if w not in STOPWORDS and not _RELIANCE_ASK.fullmatch(w)]
    return f"we rely on and depend on {' '.join(words)} for a significant portion of our business"


def _company(conn, ticker: str) -> dict | None:
    row = company_store.company_by_ticker(conn, ticker)
    if row is None:
        return None
    return {"ticker": ticker.upper(), "cik": int(row[0]), "name": display_name(row[1])}


def _not_covered_name(conn, ticker: str) -> str:
    row = company_store.sec_title(conn, ticker)
    return f"{display_name(row[1])} ({ticker.upper()})" if row else ticker.upper()


def _figure_years(conn, deps, cik: int) -> list[int]:
    """The fiscal years the company's facts report, latest first (memoised per question)."""
    return _memo(deps, ("years", cik), lambda: sorted(facts_store.available_fiscal_years(conn, cik), reverse=True))


def _filings(conn, cik: int) -> dict[int, dict]:
    return {
        int(fy): {"accession": acc, "url": url, "form": form, "period_end": str(pe), "filed": str(filed) if filed else None}
        for fy, acc, url, form, pe, filed in company_store.filings_by_year(conn, cik)
    }


class _LazyConnection:
    """A pooled connection taken only if a query actually runs (most fetches hit the memo)."""

    def __init__(self, db):
        self._db, self._cm, self._conn = db, None, None

    def execute(self, *args, **kwargs):
        if self._conn is None:
            self._cm = self._db.connection()
            self._conn = self._cm.__enter__()
        return self._conn.execute(*args, **kwargs)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._cm is not None:
            return self._cm.__exit__(*exc)
        return False


def _memo(deps, key, compute):
    """What the store says about a company changes only with an ingest; the service clears the
    memo when the corpus version moves."""
    if key not in deps.memo:
        deps.memo[key] = compute()
    return deps.memo[key]


_MONTH_NUMBERS = {m: i for i, names in enumerate(
    [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
     ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
     ("december", "dec")], start=1) for m in names}


def _off_year_end(plan: dict, filings: dict[int, dict]) -> str | None:
    """A month the question dates its figure by that is not within a month of the company's fiscal
    year-end (52/53-week years end near a month's turn): a quarter-end date, never a fiscal year."""
    if plan.get("intent") not in NUMERIC_INTENTS or not filings:
        return None
    months = [w["word"] for w in plan.get("words") or [] if w.get("as") == "period" and w["word"] in _MONTH_NUMBERS]
    ends = {int(f["period_end"][5:7]) for f in filings.values() if f.get("period_end")}
    for word in months:
        m = _MONTH_NUMBERS[word]
        if not any(min((m - e) % 12, (e - m) % 12) <= 1 for e in ends):
            return word
    return None


def _probe_lines(conn, deps, plan: dict, said: bool = False) -> dict | None:
    """A prose-routed question whose words are all one line item's label in every named company's
    statements ("Apple other income, net in 2024") is that figure: the plan becomes numeric. Asked what
    the filing says of it (`said`: "what did HD's 10-K say about interest and other, net?"), the figure
    leads the filing's words about it, as a metric the planner knows does: never the amount alone."""
    keys = plan.get("probe") or []
    if not keys or not plan.get("tickers"):
        return None
    for ticker in plan["tickers"]:
        company = _memo(deps, ("company", ticker), lambda: _company(conn, ticker))
        if company is None:
            return None
        for key in keys:
            if key.startswith("dim:"):
                # a reply after a figure ("and cloud?") names a sibling of the thread's member by a part of its name
                reply = str((plan.get("slots") or {}).get("tickers", "")).startswith("thread")
                if not _names_member(conn, deps, company, key, plan.get("fiscal_years") or [], reply=reply):
                    return None
                continue
            match, candidates = company_line(conn, deps.memo, company["cik"], key)
            if match is None and same_printed_row(candidates):
                continue  # one printed row under several concepts: the year's amount decides (retrieve)
            if match is None and not candidates and member_row(conn, deps.memo, company["cik"], line_parts(key)[2],
                                                                         line_optional(key)):
                continue  # a row printed only on a product member ("Cost of wireless equipment"): its fact (retrieve)
            if match is None or (match.source != "company" and not plan.get("probe_standard")
                                 and not _prints_concept(conn, deps, company["cik"], match.concept)):
                return None
    if said and all(k.startswith("line:") for k in keys) and all(
            _memo(deps, ("filings", c["cik"]), lambda: _filings(conn, c["cik"]))
            for c in (_memo(deps, ("company", t), lambda: _company(conn, t)) for t in plan["tickers"])):
        # (a company with no 10-K held: the figure alone, as before, or the refusal that says so)
        return {**plan, "metrics": list(keys), "probe": [], "probe_standard": False}
    years = plan.get("fiscal_years") or []
    intent = "compare" if len(plan["tickers"]) > 1 else ("trend" if len(years) > 1 or len(plan.get("year_offsets") or []) > 1
                                                        else "numeric")
    return {**plan, "intent": intent, "metrics": list(keys), "items": [], "probe": [], "probe_standard": False,
            "period": plan.get("period") or plan.get("probe_period"), "probe_period": None}


def _line_change(conn, deps, plan: dict, question: str) -> dict | None:
    """A plan asking one printed line's growth or change ("how much did Meta's total costs and expenses
    increase?", "net PP&E growth"), as the formula over the line and its prior year
    (agent.planning.changes.line_changes); only when every company asked prints the line. Else None: a line no
    company prints is refused as the unknown figure it is, never as a formula lacking its inputs."""
    keys = [k for k in plan.get("metrics") or [] if k.startswith("line:")]
    if len(keys) != 1 or len(plan["metrics"]) != 1 or plan.get("intent") not in NUMERIC_INTENTS:
        return None
    changed = line_changes(Plan.model_validate(plan), question).model_dump(mode="json")
    if changed["metrics"] == plan["metrics"]:
        return None
    for ticker in plan.get("tickers") or []:
        company = _memo(deps, ("company", ticker), lambda: _company(conn, ticker))
        if company is None:
            return None
        match, candidates = company_line(conn, deps.memo, company["cik"], keys[0])
        if match is None and not same_printed_row(candidates):
            return None
    return changed


def _year_end_balance(conn, deps, plan: dict, cik: int, wanted: list[int]) -> dict | None:
    """For a company held only through its 10-Qs, a plan asking balances at one fiscal year's end, as a plan for
    that date (the comparative column every later 10-Q's balance sheet prints), else None. Only balances: a
    year's flow (revenue, cash from operations) is in no 10-Q, and its nine months or fourth quarter are other
    figures."""
    from agent.retrieval.concepts import METRICS
    from agent.retrieval.quarter_figures import calendar_periods

    from store import quarters as quarters_store

    keys = plan.get("metrics") or []
    if plan.get("intent") != "numeric" or len(wanted) != 1 or not keys or plan.get("period"):
        return None
    concepts: list[list[str]] = []
    for key in keys:
        if key in METRICS:
            if METRICS[key].period != "instant":
                return None
            concepts.append(list(METRICS[key].concepts))
            continue
        if not key.startswith("line:"):
            return None
        match, _ = company_line(conn, deps.memo, cik, key)
        if match is None or match.statement != "balance":
            return None
        concepts.append([match.concept])
    end = calendar_periods(conn, deps.memo, cik).cal.end(wanted[0])
    if end is None:
        return None
    held = _memo(deps, ("all_filings", cik), lambda: quarters_store.filings(conn, cik))
    if not any(f.form.startswith("10-Q") and 0 < (f.period_end - end).days <= 366 for f in held):
        return None  # no 10-Q of the next year prints that year-end's balance: the year stays not covered
    for names in concepts:  # each balance asked is reported at that date, else the year stays not covered
        if not any(f.start is None and abs((f.end - end).days) <= 3 for f in quarters_store.period_facts(conn, cik, names)):
            return None
    return {**plan, "period": {"kind": "date", "end": end.isoformat(), "phrase": f"the end of fiscal {wanted[0]}"},
            "fiscal_years": [wanted[0]], "latest": False, "year_offsets": []}


def _prints_concept(conn, deps, cik: int, concept: str) -> bool:
    """Whether a primary statement of the company prints a row of the concept: the taxonomy's name for it
    ("additional paid-in capital") is then the name of the company's own row ("Capital in excess of par value"),
    a figure as surely as the printed label would be. A concept only the notes carry is not: their schedules
    reuse a standard name for many things."""
    return bool(printed_rows(conn, deps.memo, cik, concept))


def _names_member(conn, deps, company: dict, key: str, years: list[int], *, reply: bool = False) -> bool:
    """Whether a `dim:` probe's words name a member exactly (agent.retrieval.segments.find_member) among
    those the company reports the metric for, in the asked year or else its latest: "Subscription" at
    Adobe is one; "the acquisition" names none and the question stays a passage search. A `reply` to the
    thread's figure ("and cloud?" after Alphabet's revenue, "and regulatory credits?" after Tesla's automotive
    sales) also names the one member whose name holds all its words ("Google Cloud", "Automotive regulatory
    credits"): the user shortens a sibling's name as the thread's context makes it plain."""
    from agent.retrieval.concepts import METRICS
    from agent.retrieval.line_items import tokens
    from agent.retrieval.segments import find_member, key_parts, known_mistags
    from store import segments as segments_store

    metric, qualifier, breakdown = key_parts(key)
    if breakdown or metric not in METRICS or not qualifier:
        return False
    cik, m = company["cik"], METRICS[metric]
    year = years[0] if years else next(iter(_figure_years(conn, deps, cik)), None)
    if year is None:
        return False
    labels = _memo(deps, ("member_labels", cik), lambda: segments_store.member_labels(conn, cik))
    rows = segments_store.member_values(conn, cik, m.concepts, year, instant=m.period == "instant",
                                        wrong=known_mistags(conn, deps.memo, cik))
    found, exact = find_member(qualifier, [(r.axis, r.member) for r in rows], labels,
                               frozenset(tokens(company.get("name") or "")),
                               metric_words=frozenset(w for w in tokens(" ".join(m.synonyms)) if len(w) > 2))
    return bool(found) and (exact or (reply and len(found) == 1))


def _unprinted_line(conn, deps, plan: dict, cik: int) -> str | None:
    """The words of a `line:` metric the company prints under no label in any filing held ("foundry
    yield"), when every metric asked is such a line: refused as that metric before any year is, since
    no year would answer it and a year refusal would send the user to ask another year for it."""
    from agent.retrieval.concepts import find_phrases, normalize
    from agent.retrieval.finance import MEASURE_PHRASES

    keys = plan.get("metrics") or []
    if not keys or not all(k.startswith("line:") for k in keys):
        return None
    if any(find_phrases(normalize(line_parts(k)[2]), MEASURE_PHRASES) for k in keys):
        return None  # a figure we know, narrowed ("revenue ... FY1900"): the year is missing for it too
    for key in keys:
        match, candidates = company_line(conn, deps.memo, cik, key)
        if match is not None or same_printed_row(candidates) or candidates:
            return None  # printed, or near enough to ask which one: the year decides
    return line_parts(keys[0])[2]


def _quarter_plan(conn, deps, plan: dict, cik: int) -> dict:
    """A date that closes the company's fiscal year ("as of September 28, 2024") asks for that
    year: the plan goes back to whole years. Any other date stays a quarter-end period."""
    from datetime import date

    from agent.retrieval.quarter_figures import year_end_label

    period = plan["period"]
    if period.get("or_year"):  # "latest" alone: a quarter only when one is held after the last fiscal year
        from agent.retrieval.quarter_figures import latest_is_quarter

        return plan if latest_is_quarter(conn, deps.memo, cik) else {**plan, "period": None}
    if period.get("kind") != "date":
        return plan
    fy = year_end_label(conn, deps.memo, cik, date.fromisoformat(period["end"]))
    if fy is None:
        return plan
    return {**plan, "period": None, "fiscal_years": [fy], "latest": False, "year_offsets": []}


def _quarter_filing(conn, deps, period: dict, company: dict) -> dict:
    """The resolved company scoped to the 10-Q a prose question about a quarter names, or a refusal
    naming the quarter and the 10-Qs held."""
    from agent.retrieval.quarter_prose import choose_10q, label, prior_10k, spoken
    from store import quarters as quarters_store

    cik = company["cik"]
    filings = _memo(deps, ("all_filings", cik), lambda: quarters_store.filings(conn, cik))
    tenq = choose_10q(filings, period)
    if tenq is None:
        held = [f for f in filings if f.form.startswith("10-Q")]
        what = ("quarterly reports held: " + "; ".join(spoken(f) for f in held[-4:])) if held else \
            "no quarterly report is held for it"
        asked = (f"the {['first', 'second', 'third', 'fourth'][period['quarter'] - 1]} quarter"
                 + (f" of fiscal {period['fiscal_year']}" if period.get("fiscal_year") else "")
                 if period.get("quarter") else "that quarter")
        return {"refusal": {"reason": "year_not_available",
                            "detail": f"{as_named(company['name'])}'s quarterly report for {asked} ({what})"}}
    entry = {"accession": tenq.accession, "url": tenq.url, "form": tenq.form, "period_end": str(tenq.period_end),
             "label": label(tenq), "spoken": spoken(tenq)}
    annual = prior_10k(filings, tenq)
    if annual is not None:
        entry["prior_10k"] = {"accession": annual.accession, "fiscal_year": annual.fiscal_year}
    return {**company, "fiscal_years": [tenq.fiscal_year], "filings": {str(tenq.fiscal_year): entry},
            "as_of_accession": None}


def _quarter_instead(conn, deps, plan: dict, company: dict, year: int | None) -> tuple[dict | None, dict]:
    """A prose question about a company or year no held 10-K covers, when a 10-Q does (a company
    held through its quarterly reports only, or a year whose annual report is not filed yet): the
    latest such 10-Q, searched in its own Items, and the plan that says so. (None, plan) when no
    10-Q is held either."""
    from agent.retrieval.quarter_prose import quarter_items

    period = {"kind": "quarter", "latest": year is None, "fiscal_year": year, "phrase": ""}
    found = _quarter_filing(conn, deps, period, company)
    if "refusal" in found:
        return None, plan
    items = quarter_items(plan.get("items") or [])
    return found, {**plan, "period": period, "items": items, "fiscal_years": found["fiscal_years"], "latest": False}


def _common_latest(conn, deps, plan: dict) -> dict[str, int]:
    """For figures of several companies asked at no year (each at its "latest"), the one fiscal year
    they all have (agent.retrieval.common_year); {} when the plan names years or a quarter, or the
    thread already placed each company at its own year."""
    if (len(plan.get("tickers") or []) < 2 or not plan.get("latest") or plan.get("period")
            or plan.get("company_years") or plan.get("as_of_filing_year")):
        return {}
    companies = {}
    for ticker in plan["tickers"]:
        company = _memo(deps, ("company", ticker), lambda: _company(conn, ticker))
        if company is None:
            return {}
        companies[ticker] = (company["cik"], _figure_years(conn, deps, company["cik"]))
    return aligned_latest(conn, deps.memo, companies)


def _thread_turn(plan: dict) -> bool:
    """The plan took anything from the thread: its words are read against the thread's, not alone."""
    return bool(plan.get("inherited")) or any("thread" in str(v) for v in (plan.get("slots") or {}).values())


# The user asked for the latest filing in words: it is read even where an earlier one says more.
_SAYS_LATEST = re.compile(r"\b(?:latest|most\s+recent|newest|current(?:ly)?|this\s+year|now|today)\b", re.I)


def latest_by_default(question: str, plan: dict) -> bool:
    """One company's latest 10-K chosen only because the message named no year (nor "last year", a
    filing, a quarter, a figure or anything from the thread): the choice an earlier filing may overrule."""
    return (bool(plan.get("latest")) and not plan.get("fiscal_years") and not any(plan.get("year_offsets") or [])
            and not plan.get("as_of_filing_year") and not plan.get("period") and not plan.get("metrics")
            and len(plan.get("tickers") or []) == 1 and not _years_of_thread(plan)
            and not _SAYS_LATEST.search(question) and not _JUST_ENDED.search(question))


def _years_of_thread(plan: dict) -> bool:
    """The plan's years came from the thread: a filing the message names ("and in the older 10-K?",
    "what about the one filed in 2024?") is read from its own words only when its years are its own."""
    return "fiscal_years" in (plan.get("inherited") or []) or "thread" in str((plan.get("slots") or {}).get("fiscal_years", ""))


def _filing_meant(question: str, plan: dict, filings: dict[int, dict], wanted: list[int],
                  numeric: bool = False) -> dict | None:
    """The plan's years when the question names its 10-K by when it came out ("the 10-K filed in
    2024": for a calendar-year company, fiscal 2023's) or as the one before the latest ("the previous
    annual report"), so that the answer names the filing it reads; None when it names none so
    (agent.retrieval.filing_choice). A figure asked of a named filing that is held is read from that
    filing (`as_of_filing_year`), as "per the FY2023 10-K" is; one not held, from a later filing's
    comparatives, said in the answer."""
    year = filed_in(question)
    if year is not None and (year in wanted or plan.get("as_of_filing_year") == year):
        fy = fiscal_year_filed_in(filings, year)
        if fy is not None and (fy != year or numeric):
            years = sorted({fy if y == year else y for y in wanted})
            named = plan.get("as_of_filing_year") == year or (numeric and years == [fy])
            return {"fiscal_years": years, "latest": False, "year_offsets": [],
                    **({"as_of_filing_year": fy} if named and fy in filings else {})}
    if asks_prior_filing(question) and plan.get("latest") and not plan.get("year_offsets") and filings:
        # by the filings held, not by the latest year any figure reports (a 10-Q's year beyond the last 10-K)
        # the 10-K filed the year before the latest reports the year before it, held or not: when not,
        # the latest one's discussion of that year stands in, said in the answer
        prior = max(filings) - 1
        return {"fiscal_years": [prior], "latest": False, "year_offsets": [],
                **({"as_of_filing_year": prior} if numeric and prior in filings else {})}
    return None


def _calendar_year_asked(question: str, plan: dict, filings: dict) -> tuple[str | None, dict | None]:
    """A figure asked for a calendar year ("for calendar 2023") of a company whose fiscal year is not the calendar
    year: (what to refuse, None), or (None, the plan's years moved) when a fiscal year ends in the first days of
    the next calendar year and so covers eleven months or more of it (NVIDIA's fiscal 2024, February 2023 to
    January 2024, for calendar 2023), said beside the figure (`calendar_note`). Another fiscal year (Apple's,
    ending in September) covers a part only: its filings report fiscal years, and another period than calendar
    2023 would answer another question, so it is refused. (None, None) when no calendar year is asked or the
    fiscal years are calendar years. A formula the user defined took the fiscal year silently, the word
    "calendar" left unaccounted for."""
    m = CALENDAR_YEAR.search(question or "")
    if m is None or plan.get("period"):
        return None, None
    ends = {fy: date.fromisoformat(f["period_end"]) for fy, f in filings.items() if f.get("period_end")}
    if not ends or all(e.month == 12 or (e.month == 1 and e.day <= 7) for e in ends.values()):
        return None, None  # its fiscal years are calendar years (or end in the calendar year's last days)
    end = max(ends.values())
    asked = sorted(plan.get("fiscal_years") or [])
    if asked and all(e.month == 1 or (e.month == 2 and e.day <= 7) for e in ends.values()):
        # each fiscal year ends a month or so into the next calendar year: fiscal Y+1 is calendar Y but one month
        first = date(2000, end.month % 12 + 1, 1).strftime("%B")  # the month after the fiscal year-end
        note = "; ".join(f"for calendar {y}: fiscal {y + 1} ran {first} {y} to {end.strftime('%B')} {y + 1}" for y in asked)
        return None, {"fiscal_years": [y + 1 for y in asked], "latest": False, "year_offsets": [],
                      "calendar_note": note}
    return (f"figures for calendar {asked[-1] if asked else (m.group(1) or m.group(2))}: its fiscal year ends in "
            f"{end.strftime('%B')}, and its filings report fiscal years and their quarters; ask for a fiscal year or "
            "a quarter instead"), None


def fetch(state, deps, config) -> dict:
    plan = state["plan"]
    resolved: list[dict] = []
    first_refusal = None
    with _LazyConnection(deps.db) as conn:
        if not plan.get("tickers"):
            return {"refusal": {"reason": "no_company", "detail": None}}
        switched = _probe_lines(conn, deps, plan, said=bool(SAID_OF.search(state["question"])))
        changed = _line_change(conn, deps, switched or plan, state["question"])
        switched = changed or switched
        plan = switched or plan
        numeric = plan["intent"] in NUMERIC_INTENTS
        collapsed: set[str] = set()  # companies whose two years' change is read in the later filing alone
        common = _common_latest(conn, deps, plan) if numeric else {}
        for ticker in plan["tickers"]:
            company = _memo(deps, ("company", ticker), lambda: _company(conn, ticker))
            if company is None:
                return {"refusal": {"reason": "not_covered", "detail": _not_covered_name(conn, ticker)}}
            cik = company["cik"]
            filings = _memo(deps, ("filings", cik), lambda: _filings(conn, cik))
            calendar, moved = _calendar_year_asked(state["question"], plan, filings) if numeric else (None, None)
            if calendar is not None:
                return {"refusal": {"reason": "out_of_scope", "detail": f"{company['name']}'s {calendar}"}}
            if moved is not None and len(plan["tickers"]) == 1:  # "nvidia revenue in calendar 2023": fiscal 2024
                plan = switched = {**plan, **moved}
            available = _figure_years(conn, deps, cik) if numeric else sorted(filings, reverse=True)
            if not filings and not _figure_years(conn, deps, cik):
                from store import quarters as quarters_store

                if not _memo(deps, ("all_filings", cik), lambda: quarters_store.filings(conn, cik)):
                    # known by name but nothing of it held, no filing nor any fiscal year's figure (a foreign
                    # filer of 20-Fs): not covered, said as such, rather than "no fiscal year for it yet"
                    return {"refusal": {"reason": "not_covered", "detail": f"{company['name']} ({ticker})"}}
            if numeric and plan.get("period"):
                period_plan = _quarter_plan(conn, deps, plan, cik)
                if period_plan is not plan:
                    plan, switched = period_plan, period_plan
            if not numeric and plan.get("period"):  # what a 10-Q says: that quarter's 10-Q
                found = _quarter_filing(conn, deps, plan["period"], company)
                if "refusal" in found:
                    return found
                resolved.append({**found, "available": available})
                continue
            if numeric and plan.get("period"):  # exact periods are resolved in retrieve (agent.retrieval.quarter_figures)
                year = plan["period"].get("fiscal_year")
                resolved.append({**company, "fiscal_years": [year] if year else available[:1],
                                 "filings": {str(y): f for y, f in filings.items()}, "as_of_accession": None,
                                 "available": available})
                continue
            off = _off_year_end(plan, filings)
            if off:  # "total assets as of March 31" for a September year: a quarter's date
                return {"refusal": {"reason": "out_of_scope", "detail": (
                    f"figures as of {off.title()} (not {company['name']}'s fiscal year-end): quarters are not "
                    "answered yet, only fiscal years")}}
            if plan.get("as_of_filing_year") and len(plan["tickers"]) == 1:
                unheld = unheld_filing_years(plan, sorted(filings), _figure_years(conn, deps, cik), numeric,
                                             ahead=expects_ahead(state["question"].lower()))
                if unheld:  # "their 2023 annual report", not held: fiscal 2023 as a later filing reports it
                    plan = switched = {**plan, **unheld}
            # a comparison assembled over several turns reads each company at the years the thread showed it
            wanted = list((plan.get("company_years") or {}).get(ticker) or plan.get("fiscal_years") or [])
            if not numeric and len(plan["tickers"]) == 1 and not plan.get("as_of_filing_year"):
                asked = None if not wanted or plan.get("latest") else max(wanted)
                if not available or (asked is not None and not any(y >= asked for y in available)):
                    # no 10-K holds that year, nor a later one: what the company's latest 10-Q of it says
                    found, quarter_plan = _quarter_instead(conn, deps, plan, company, asked)
                    if found is not None:
                        plan, switched = quarter_plan, quarter_plan
                        resolved.append({**found, "available": available})
                        continue
            if not numeric and not _thread_turn(plan) and year_just_ended(state["question"], plan):
                plan = switched = {**plan, "year_offsets": []}
            if not wanted or plan.get("latest"):
                if not available:
                    return {"refusal": {"reason": "year_not_available", "detail": f"any fiscal year for {as_named(company['name'])}"}}
                offsets = plan.get("year_offsets") or [0]
                wanted = sorted({common.get(ticker, available[0]) + offset for offset in offsets})
            meant = _filing_meant(state["question"], plan, filings, wanted, numeric) \
                if len(plan["tickers"]) == 1 and not _years_of_thread(plan) else None
            if meant:
                plan = switched = {**plan, **meant}
                wanted = list(meant["fiscal_years"])
            elif not numeric and latest_by_default(state["question"], plan) and len(filings) > 1:
                # an event the latest 10-K no longer discusses is read where it is told (agent.retrieval.earlier_filing)
                earlier = better_earlier(conn, deps.embedder, plan.get("query") or state["question"], filings, wanted[0],
                                         names=(company["name"], *(company.get("tickers") or [])))
                if earlier is not None:
                    plan = switched = {**plan, "latest": False, "fiscal_years": [earlier], "slots": {
                        **(plan.get("slots") or {}), "fiscal_years": EARLIER_SLOT}}
                    wanted = [earlier]
            # the years asked, before a passage search moves them to the filing that discusses them: a prose
            # answer's figures are of these years, read from a later 10-K's comparatives when their own is not held
            asked_years = sorted(wanted)
            if (not numeric and not plan.get("as_of_filing_year") and not plan.get("latest")
                    and over_two_years(state["question"], sorted(wanted)) and max(wanted) in available):
                # "how did AWS change from 2023 to 2024?": the later 10-K's MD&A tells the change, with
                # the earlier year as its comparison; the earlier 10-K knows only its own year
                wanted = [max(wanted)]
                collapsed.add(ticker)
            if (not numeric and not plan.get("as_of_filing_year") and len(plan["tickers"]) == 1
                    and not _EXPLAIN.search(state["question"])):
                # a year whose own 10-K is not held is described in the next one or two ("compared with
                # 2022"): search the nearest later filing; the answer names the filing it quotes. Not
                # for "why did it change": a later MD&A explains the later year's change
                wanted = sorted({y if y in available else next((y + k for k in (1, 2) if y + k in available), y)
                                 for y in wanted})
            if (not numeric and not plan.get("as_of_filing_year") and not plan.get("latest") and len(wanted) == 1
                    and expects_ahead(state["question"].lower()) and wanted[0] - 1 in available):
                # what it expected for a year is stated in the filing written before that year
                wanted = [wanted[0] - 1]
            missing = [y for y in wanted if y not in available]
            if missing and not numeric and not plan.get("latest"):
                # a year whose 10-K is not held is discussed, as the prior year, in the next one's MD&A
                wanted = sorted({y + 1 if y in missing and y + 1 in available else y for y in wanted})
                missing = [y for y in wanted if y not in available]
            # a year no filing can hold ("2024 vs 1850") is refused even beside held years: answering the
            # held ones alone would answer another question (held years of a range do answer, the rest shown missing)
            if missing and (not numeric or len(missing) == len(wanted) or any(not MIN_YEAR <= y <= MAX_YEAR for y in missing)):
                # a bare figure phrase planned as a passage search ("IBM's zorbling index in 2099") is a line
                # too: no row of those words in any filing held names the metric as missing before the year
                unprinted = _unprinted_line(conn, deps, plan if numeric else {"metrics": plan.get("probe") or []}, cik) \
                    if numeric or plan.get("probe_standard") else None
                if unprinted:  # the metric is missing before the year is: no year would answer it
                    return {"refusal": {"reason": "unknown_metric", "detail": unprinted}}
                label = ", ".join(f"fiscal {y}" for y in missing)
                what = "10-K filing" if not numeric else "reported figures"
                figure_years = _figure_years(conn, deps, cik)
                if numeric and not filings and not figure_years and len(plan["tickers"]) == 1:
                    year_end = _year_end_balance(conn, deps, plan, cik, wanted)
                    if year_end is not None:
                        # a balance at a fiscal year's end, printed as the comparative column of the next 10-Q's
                        # balance sheet ("Exxon's total assets at the end of 2022"): that date's figure
                        plan = switched = year_end
                        resolved.append({**company, "fiscal_years": [], "available": available, "as_of_accession": None,
                                         "filings": {str(y): f for y, f in filings.items()}})
                        continue
                    # only 10-Q quarters are held ("exxon's net income 2023"): no fiscal year of this company is
                    # covered, which is what is missing, not one year among others it has
                    return {"refusal": {"reason": "not_covered",
                                        "detail": f"{QUARTERS_ONLY}{company['name'] or ticker} ({ticker})"}}
                refusal = {
                    "reason": "year_not_available",
                    "detail": f"{as_named(company['name'] or ticker)}'s {what} for {label}",
                    "years": sorted(available)[-8:],
                    # which years have a filing (text and figures) and which figures only
                    "filing_years": sorted(filings),
                    "figure_years": sorted(figure_years),
                }
                if len(plan["tickers"]) == 1:
                    return {"refusal": refusal}
                # several companies: the others still answer; this one shows as not reported
                first_refusal = first_refusal or refusal
            as_of = None
            if plan.get("as_of_filing_year"):
                filing = filings.get(int(plan["as_of_filing_year"]))
                if filing is None:
                    return {
                        "refusal": {
                            "reason": "year_not_available",
                            "detail": f"{as_named(company['name'])}'s fiscal {plan['as_of_filing_year']} 10-K",
                            "years": sorted(filings),
                        }
                    }
                as_of = filing["accession"]
            resolved.append(
                {
                    **company,
                    "fiscal_years": sorted(y for y in wanted if y in available) or (sorted(wanted) if numeric else []),
                    "filings": {str(y): f for y, f in filings.items()},
                    "as_of_accession": as_of,
                    "available": available,
                    **({"figure_years": [y for y in asked_years if y in _figure_years(conn, deps, cik)]}
                       if not numeric and not plan.get("as_of_filing_year") else {}),
                }
            )
    if collapsed and collapsed == set(plan["tickers"]):
        # the answer names the one filing read, not a year "not held" beside it
        plan = switched = {**plan, "fiscal_years": sorted(plan["fiscal_years"])[1:]}
    if first_refusal and not any(
        y in c["available"] for c in resolved for y in c["fiscal_years"]
    ):
        return {"refusal": first_refusal}
    asked = set(plan.get("fiscal_years") or []) if not plan.get("latest") else set()
    if not numeric and plan.get("metrics") and asked and not any(asked & set(c["fiscal_years"]) for c in resolved):
        # every filing read is a later year's: a figure opening the answer would be that year's, not
        # the one asked, so the answer is the filing's discussion of the asked year alone
        plan = switched = {**plan, "metrics": []}
    for c in resolved:
        c.pop("available")
    names = ", ".join(c["name"] for c in resolved)
    years = sorted({y for c in resolved for y in c["fiscal_years"]})
    status(f"Reading {names} ({', '.join(f'FY{y}' for y in years)})...")
    return {"resolved": resolved, **({"plan": plan} if switched else {})}


def locate(state, deps, config) -> dict:
    """Where to look. Numbers need no Items (facts are per filing); prose is searched in the
    planner's Items (or the whole filing when it named none), within the resolved filings."""
    plan = state["plan"]
    if plan["intent"] in NUMERIC_INTENTS:
        return {"located": {"items": [], "queries": [], "accessions": {}}}
    items = list(plan.get("items") or [])
    queries = list(plan.get("sub_queries") or []) or [plan.get("query") or state["question"]]
    low = state["question"].lower()
    # an event (an acquisition, a strike, an attack) is told as what happened and when, not in the
    # register of a change's causes: that search would only bring the year's variance explanations
    # nor is the reason for a standing choice ("why does it refranchise?"): that is its strategy
    if ("7" in items and _EXPLAIN.search(state["question"]) and len(queries) < 3 and not EVENT.search(low)
            and not asks_rationale(low)):
        queries.append(explain_query(plan.get("topic")))  # MD&A explains changes in a recognizable register
    elif DEPENDENCE.search(low) and len(queries) < 3:
        queries.append(reliance_query(queries[0]))  # and risk factors state a reliance in theirs
    accessions = {}
    for company in state["resolved"]:
        accs = [company["filings"][str(y)]["accession"] for y in company["fiscal_years"] if str(y) in company["filings"]]
        accessions[str(company["cik"])] = accs
    told: list[str] = []
    if _placeable(state) and len(accessions) == 1 and len(accs) == 1:
        # the Item where the filing writes the question's particular words, when the route holds them less well:
        # in the route (a bound or a preference), or, for a question no route chose, preferred in the search
        company = state["resolved"][0]
        with deps.db.connection() as conn:
            placed = told_items(conn, plan.get("query") or state["question"], items, accs[0],
                                names=(company.get("name") or "", *(company.get("tickers") or [])),
                                bound=bool(items) and not plan.get("items_guessed"))
        items, told = (placed, []) if items else (items, placed)
    return {"located": {"items": items, "queries": queries[:3], "accessions": accessions,
                        **({"told": told} if told else {})}}


def _placeable(state) -> bool:
    """Whether the Items searched may follow the question's words (agent.retrieval.told_items): not a section the
    user named, nor a 10-Q's Items."""
    return not state["plan"].get("period") and not NAMED_SECTION.search(state["question"].lower())
