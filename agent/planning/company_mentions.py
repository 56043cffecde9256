"""The companies a message mentions, beyond the directory's own match: a name the directory does not
know (for the refusal that names it), a covered company's name taken out of the search words, the
characters each mention takes, and which mentions are a subject rather than a word of the question.

Why a module of its own: the planner's flow (agent.planning.rules) asks these at several points
while it decides whose figures a message asks for; they read only the message and the directory.
"""

from __future__ import annotations

import re

from agent.planning.brands import (best_known, everyday, find_brands, name_goes_on, named_by, proper_name,
                                   uncovered_registrant)
from agent.planning.companies import CompanyDirectory, CompanyMatch, named_beside, norm_name
from agent.planning.company_words import ACRONYMS, NAME_QUALIFIERS, NON_REGISTRANTS, english_words
from agent.planning.lowercase_names import company_word, lowercase_listed, registrant_ciks
from agent.planning.followups import lead_subject, unknown_subject
from agent.planning.plan import Plan
from agent.planning.reading import NAMED_THROUGH, Reading
from agent.planning.scope import filing_framed
from agent.planning.thread import discussed
from agent.planning.topics import QUAL_ASK, STOPWORDS, expand_query, route_items
from agent.retrieval.concepts import normalize
from agent.retrieval.finance import MEASURE_PHRASES


_CAPITALISED = re.compile(r"(?<![\w$-])([A-Z][\w&.'\u2019-]*(?:\s+(?:[A-Z][\w&.'\u2019-]*|&|of))*)")


_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# The date a period is named by ("for the fiscal year ended January 28, 2024", "as of December 31, 2023",
# "the year ending June 2024"): the year is read from it (agent.planning.years), and the rest says
# nothing a passage shares; left in the search words, "January 28" outweighs the topic asked.
_PERIOD_DATE = re.compile(
    rf"(?i)\b(?:(?:for|in|during|over|of|at)\s+)?(?:the\s+)?(?:(?:fiscal\s+)?(?:years?|periods?|(?:twelve|12)\s+months|"
    rf"quarters?)\s+(?:that\s+)?end(?:ed|ing|s)?|as\s+of|at)\s+(?:on\s+)?{_MONTH}"
    r"(?:\s+\d{1,2}(?:st|nd|rd|th)?,?(?:\s*(?:19|20)\d\d)?|,?\s+(?:19|20)\d\d)\b(?:\s*,)?")


def strip_for_query(text: str, matches: list[CompanyMatch]) -> str:
    t = text
    for m in sorted(matches, key=lambda m: m.start, reverse=True):
        if m.kind != "company" or m.via in NAMED_THROUGH:
            continue  # an uncovered company, or a product, named in a prose question is the topic
        said = text[m.start:m.end]
        if said != m.text and re.sub(r"\W+", "", said).lower() == re.sub(r"\W+", "", m.text).lower():
            # matched as written with its "&" or dots ("Procter & Gamble"): cut the words the user wrote
            t = t[:m.start] + " " + re.sub(r"^['\u2019]s\b", "", t[m.end:])
            continue
        # the name as a word of its own: "gm" is no part of "segments", "Intel" none of "Intelligence"
        t = re.sub(rf"(?<!\w){re.escape(m.text)}(?:['\u2019]s)?(?!\w)", " ", t)
    t = _PERIOD_DATE.sub(" ", t)
    t = re.sub(r"(?i)\b(?:in|for|during|of)?\s*(?:the\s+)?(?:fy\s?'?\d{2,4}|fiscal\s+(?:year\s+)?\d{2,4}|(?:19|20)\d{2})\b", " ", t)
    t = re.sub(r"(?i)^\s*(?:(?:and|so|ok|okay|please|hey|hi|thanks|thank you|thx|great|cool|perfect|got it)[\s,!.]+)*",
               "", t)
    t = re.sub(r"(?i)\b(?:according to|per|in|from)\s+(?:the|its|their)?\s*(?:10-?k|annual report)\b", " ", t)
    return re.sub(r"\s+", " ", t).strip(" ?.!,;:")


def guess_company_text(text: str) -> str | None:
    """The capitalised words most likely naming an unknown company ("Foo Corp"), for the refusal."""
    for m in _CAPITALISED.finditer(text):
        words = [w for w in re.split(r"\s+", m.group(1)) if w]
        if m.start() == len(text) - len(text.lstrip()) and len(words) == 1 and not words[0].isupper() \
                and re.sub(r"['\u2019]s$", "", words[0]).lower() in english_words():
            words.pop(0)  # a sentence's first word is capitalised for the sentence ("See you", "What's")
        while words and (words[0].lower().strip(".,'") in STOPWORDS or normalize(words[0]) in MEASURE_PHRASES):
            words.pop(0)
        while words and (words[-1].lower() in ("&", "of") or normalize(words[-1]) in MEASURE_PHRASES):
            words.pop()
        name = re.sub(r"['\u2019]s$", "", " ".join(words)).strip(" .,")
        if name and not re.fullmatch(r"(?:FY)?\d+\w*|Q\d", name):
            return name
    return None


_TICKERISH = re.compile(r"(?<![\w$])([A-Z]{2,6}(?:[.-][A-Z]{1,2})?)(?![\w'’-])")
POSSESSIVE_NAME = re.compile(r"(?<![\w$])([A-Z][\w&.-]+)['\u2019]s\b")
# "Databricks' ARR": a name ending in s takes the apostrophe alone
PLURAL_POSSESSIVE = re.compile(r"(?<![\w$])([A-Z][\w&.-]*s)['\u2019](?![\w'\u2019])")


def whole_name(text: str, m: re.Match) -> str:
    """A possessive's owner with the capitalised words written before it: "Brantley Dynamics's" names
    Brantley Dynamics, never "Dynamics" alone (the refusal names the company as the user wrote it). A
    sentence's capitalised first word ("What", "How") or a stopword is no part of the name."""
    words = text[: m.start(1)].split()
    name = [m.group(1)]
    while words and re.fullmatch(r"[A-Z][\w&.-]*", words[-1]) and words[-1].lower() not in STOPWORDS \
            and normalize(words[-1]) not in MEASURE_PHRASES:
        first = len(words) == 1
        if first and words[-1].lower() in english_words():
            break  # capitalised for the sentence
        name.insert(0, words.pop())
    return " ".join(name)


def unknown_owner(r: Reading, outside: str, in_thread: bool) -> str | None:
    """The name of a company we do not know that the message asks about, when nothing in it names a
    company we know except by a word its filings use as a brand: "Zorblax churn rate 2023" (not
    Verizon's churn), "what about Databricks' ARR?" or "Stripe's payment volume?" after an Apple
    figure (not a line of Apple's).

    Why before any metric is looked up: the company is what is missing first. Refusing the metric
    ("no figure reported as churn rate") would name the wrong problem, and reading the name as part
    of a line item's words would look that line up in the thread's company's statements. Outside a
    thread a capitalised name will do; in a thread only a possessive or ticker-shaped one, since
    "and Services?" may be a line of the thread's company."""
    if any(m.via != "brand" for m in r.matches):
        return None
    # a possessive is an owner wherever it stands ("Stripe's payment volume"); any other capitals are
    # a name only outside the metric's own words ("EBITDA?" is no company)
    owners = [whole_name(outside, m) for m in (*POSSESSIVE_NAME.finditer(outside), *PLURAL_POSSESSIVE.finditer(outside))]
    owner = next((o for o in owners if o.lower() not in STOPWORDS and normalize(o) not in MEASURE_PHRASES
                  and expand_query(o.lower()) == o.lower() and not route_items(o.lower())[1]), None)
    rest = outside
    if r.unmappable:
        words = re.escape(r.unmappable).replace(r"\ ", r"[\s-]+")
        rest = re.sub(rf"(?i)\b{words}\b", " ", outside)
    guess = owner or (named_unknown_company(rest) if in_thread else guess_company_text(rest))
    if not guess:
        return None
    at = outside.find(guess)
    if at < 0 or any(m.start < at + len(guess) and at < m.end for m in r.matches):
        return None  # the name is the brand itself ("Peacock subscribers")
    return guess


# a filing's sections by the names analysts give them: no company's
_SECTION_NAME = re.compile(r"\b(?:MD\s*&\s*A|MDA|Item\s+\d{1,2}[ABC]?|10-?[KQ]s?)\b", re.I)


def named_unknown_company(outside: str) -> str | None:
    """A company-like token the directory did not resolve ("FOOBAR revenue", "Foobar's margins"):
    a follow-up naming one must not silently inherit the thread's company. Ticker-shaped words
    (all capitals) and possessive names count; measures, abbreviations, topics and a filing's sections
    ("what does the MD&A say about it?") do not."""
    outside = _SECTION_NAME.sub(" ", outside)
    guess = guess_company_text(outside)
    if not guess:
        return None
    for m in (*_TICKERISH.finditer(outside), *POSSESSIVE_NAME.finditer(outside)):
        token = m.group(1)
        low = token.lower()
        if token not in guess or low in STOPWORDS or normalize(token) in MEASURE_PHRASES:
            continue
        if expand_query(low) != low or route_items(low)[1] or token.upper().replace(".", "") in ACRONYMS:
            continue  # an abbreviation analysts use (AI, FX, R&D), a country ("the US"), or a topic
        return guess
    return None


def weak_mention(m: CompanyMatch) -> bool:
    """A company matched only by a word chat also uses: a ticker typed in lowercase ("gm", "ma"), or
    an everyday word read as a brand ("Sam", "Peacock"; agent.planning.brands)."""
    if m.kind != "company":
        return False
    return (m.via == "ticker" and m.text.islower()) or (m.via == "brand" and everyday(m.text))


def another_company(r: Reading, outside: str, prev: Plan | None, directory: CompanyDirectory) -> tuple[str, str] | None:
    """How to refuse a "what about X?" reply whose X matched only as a word the thread's own
    company's filings name (a rival they discuss, "Airbus" in Boeing's 10-K) while SEC's map knows a
    company by that name: a question about that company, never about the thread's, as before brands
    were read. A product the thread's company sells ("and Eliquis?") is no registrant's name, and
    stays the thread's; a question with more in it than the name ("Eliquis sales") is left to brands."""
    if prev is None or not r.matches or any(m.via != "brand" for m in r.matches):
        return None
    if not {m.company.ticker for m in r.matches if m.company} <= set(discussed(prev)):
        return None
    named = lead_subject(outside)
    about = unknown_subject(named, directory) if named else None
    return about if about and about[0] == "not_covered" else None


# a covered company's possessive right before a name: "Palantir's AIP", "Apple's Vision Pro"
_OWNED = re.compile(r"['’]s?\s+$")
# A model number right before the name ("Boeing's 737 MAX", "the 737 MAX issues"): a product's name, which no
# registrant's ticker written after a number is
_MODEL_NUMBER = re.compile(r"(?<![\w$])[A-Za-z]{0,3}-?\d[\w-]*\s+$")


def owned_units(r: Reading, outside: str) -> list[CompanyMatch]:
    """Uncovered names right after a covered company's possessive ("Meta's RL", "Palantir's AIP"), or a
    capitalised one after a model number beside a covered company ("Boeing's 737 MAX"): the company's own
    unit or product, whatever registrant's ticker they also spell. `outside`: the text the matches index."""
    owners = [m for m in r.matches if m.kind == "company"]
    return [m for m in r.matches if m.kind == "not_covered" and owners
            and (any(o.end <= m.start and _OWNED.fullmatch(outside[o.end:m.start]) for o in owners)
                 or (m.text.isupper() and _MODEL_NUMBER.search(outside[:m.start]) is not None))]


def uncovered_mentions(r: Reading, directory: CompanyDirectory, outside: str = "") -> list[CompanyMatch]:
    """Uncovered companies that are a subject of the question (not merely mentioned in it). A name
    right after a covered company's possessive ("Palantir's AIP") is that company's own product or
    unit, whatever registrant's ticker it also spells. `outside`: the text the matches index."""
    found = [m for m in r.matches if m.kind == "not_covered"]
    if not r.tickers:
        return found
    # "Palantir's AIP revenue" is a figure of AIP: looked up as such, never total revenue; asked why it moved
    # ("why did Meta's RL revenue fall?") or what the filing says of it, it is a topic of the owner's discussion
    if outside and (not r.measures or r.why or r.statement):
        owned = owned_units(r, outside)
        found = [m for m in found if m not in owned]
    # beside a covered company, an uncovered one in a prose question is a topic ("Nvidia's relationship
    # with TSMC"), and a capitalised word that is some obscure registrant's name is a word
    # a cause too: "how much did the 737 MAX issues cost Boeing?" is about Boeing, MAX is a word
    if (r.has_topic or r.why) and not r.measures and not re.search(r"\b(?:compar\w*|vs\.?|versus)\b", r.low):
        return []
    return [m for m in found if m.via != "name" or len(norm_name(m.text)) > 1
            or norm_name(m.text)[0] in directory.alias_words]


_COMPARED_TO = re.compile(r"\b(?:how\s+(?:does|do|did)\s+\S+(?:\s+\S+)?\s+compare\s+(?:to|with|against)|\bvs\.?|versus)\s", re.I)


def listed_company(r: Reading, outside: str, directory: CompanyDirectory) -> str | None:
    """The name of a company the directory does not know, listed beside one it does ("Nike and
    Adidas", "Walmart vs. Aldi"), trimmed of the figure's words after it ("Samsung R&D" is Samsung).
    Not a measure, a filing topic or a word of the question's own figure, and not a name the listed
    company's filings use as often as a brand (agent.planning.brands.named_by: "Disney and Hulu")."""
    compared = bool(_COMPARED_TO.search(r.low))  # "how does boeing compare to airbus": a company on each side
    if not r.tickers or not (r.measures or r.unmappable or compared) or r.why \
            or (QUAL_ASK.search(r.low) and not compared) or filing_framed(r.low):
        return None  # "what does Apple say about Samsung and Google?": a company inside a question is a topic
    ciks = {m.company.cik for m in r.matches if m.company is not None}
    name = named_beside(outside, r.matches) or lowercase_listed(outside, r.matches, directory, ciks)
    if not name:
        return None
    words = name.split()
    for i, w in enumerate(words):
        if i and (normalize(w) in MEASURE_PHRASES or "&" in w or (w.isupper() and len(w) <= 4)):
            words = words[:i]
            break
    name = " ".join(words)
    low = name.lower()
    if (not name or low in STOPWORDS or normalize(low) in MEASURE_PHRASES or route_items(low)[1]
            or expand_query(low) != low or re.fullmatch(r"(?:FY|Q)?\d+\w*(?:\s*[-\u2013\u2014/]\s*(?:FY|Q)?\d+\w*)?", name, re.I)):  # "FY2022-FY2024": years
        return None
    if name.islower() and company_word(name, directory):
        return name  # a registrant or a well-known company, however often the listed company's filings name it
    return None if named_by(name, ciks) else name


def registrant_named(name: str, directory: CompanyDirectory, text: str = ""):
    """The uncovered SEC registrant a refused name is, if the directory knows it: the registrant's
    whole name ("tjx companies", "Palo Alto Networks"), or a word that begins only uncovered names and
    is no everyday word typed in lowercase ("csl"). Why: a company that exists but is not covered is
    refused as not covered, with its ticker; "no company by that name" is said only of a name nobody
    knows ("Zorblax Corp", "acme widgets corp": one registrant's first word, not its name). A name typed
    in capitals that is a ticker in the map ("TEAM") is that registrant. `text`:
    the message, where the name as the user wrote it may go on past the refusal's name."""
    words = norm_name(name or "")
    if not words or name_goes_on(name, text):
        return None
    company = directory.get(name) if name.isupper() else None
    if company is not None:  # "TEAM net income": the ticker, as typed
        return None if company.covered else company
    ciks = registrant_ciks(words, directory)
    found = [directory.companies[c] for c in ciks if c in directory.companies]
    if found:
        return min(found, key=best_known) if not any(c.covered for c in found) else None
    owned = re.search(rf"(?<![\w-]){re.escape(name)}['\u2019]s\b", text, re.I) is not None
    if len(words) == 1 and name.islower() and words[0] in english_words() and not owned:
        return None  # "widget": a word, whatever registrant's name begins with it ("toyota's" owns a figure)
    return uncovered_registrant(name, directory)


def company_spans(r: Reading, outside: str) -> list[tuple[int, int]]:
    """The characters each company mention takes. A last name word that is a region or segment word
    is left for the member lookup when the registrant's name has no such word, or when the user wrote
    it in lowercase beside a capitalised name ("Johnson Controls international revenue")."""
    spans = []
    for m in r.matches:
        if m.via in NAMED_THROUGH:
            continue  # "what share of revenue came from AWS?": the product names the company and the member
        end = m.end + (2 if outside[m.end : m.end + 2] in ("'s", "\u2019s") else 0)
        words = outside[m.start : m.end].split()
        if len(words) >= 2 and words[-1].lower() in NAME_QUALIFIERS and m.company is not None:
            registrant = m.company.name.lower().split()
            lower_tail = words[-1].islower() and words[0][:1].isupper()
            if words[-1].lower() not in registrant or lower_tail:
                end = m.start + outside[m.start : m.end].rstrip().rfind(words[-1])
        spans.append((m.start, end))
    return spans


def names_as_written(text: str, detail: str | None) -> list[tuple[str, str]]:
    """The message with a refused lowercase word written as a name: "oracle revenue" as "Oracle
    revenue", "whats apples basic eps" as "whats Apple's basic eps", "converse revenue" as "Converse
    revenue", "are pep margins improving?" as "are PEP margins improving?", "what does pratt & whitney say" as
    "what does Pratt & Whitney say". Why: a covered company whose name is an everyday word ("oracle", "target", "converse" as
    a brand) counts only when capitalised (companies.py), so that "an oracle of growth" names nobody;
    but a message refused for naming no company, whose refusal names that very word as the company
    meant, has told us the word is a name. Each (message, name) is a candidate for the planner to read
    again; it is kept only when that reading names a covered company by that word (`names_the_company`)."""
    word = (detail or "").strip()
    if re.fullmatch(r"[A-Za-z]{1,2}", word):
        # "v's net income", "ai's capex", "AI's cash": a short word owning a figure, read as the ticker it may
        # be, written as a cashtag (the one spelling that is a ticker whatever the word)
        found = re.search(rf"(?<![\w'\u2019$-]){re.escape(word)}(?=['\u2019]s\b)", text, re.I)
        if found is None and word.islower() and len(re.findall(r"[\w'\u2019$&.-]+", text)) <= 4:
            # a reply naming it alone in lowercase: "same for v" (capitals are the acronym, "AI revenue")
            found = re.search(rf"(?<![\w'\u2019$-]){re.escape(word)}(?![\w'\u2019-])", text)
        return [] if found is None else [(text[: found.start()] + "$" + word.upper() + text[found.end():], "$" + word.upper())]
    words = re.findall(r"[a-z]+", word)
    if 2 <= len(words) <= 4 and re.fullmatch(r"[a-z]+(?:\s*[&-]?\s*[a-z]+)+", word):
        # "pratt & whitney", "frito-lay", "oscar mayer": a brand of several words typed in lowercase, each word
        # capitalised where the message writes it, its own "&" or "-" kept ("Pratt & Whitney", "Frito-Lay"),
        # a possessive's "'s" too ("hill's pet nutrition"). The refusal's words may run on past the name into
        # what is asked of it ("frito lay performance", "peacock subscribers"): the name is the longest run of
        # them, from the first, that reads as the company (`names_the_company` judges each)
        out = []
        for n in range(len(words), 0, -1):
            if n == 1 and (len(words[0]) < 4 or words[0] in STOPWORDS):
                break
            found = re.search(r"(?<![\w'\u2019$-])" + r"(?:['\u2019]s)?[\s&-]+".join(map(re.escape, words[:n]))
                              + r"(?![\w-])", text)
            if found is not None:
                name = re.sub(r"(?<!['\u2019])\b[a-z]+", lambda m: m.group(0).capitalize(), found.group(0))
                out.append((text[: found.start()] + name + text[found.end():], name))
        return out
    if not re.fullmatch(r"[a-z][a-z&-]{2,}", word):
        return []
    found = re.search(rf"(?<![\w'\u2019$-]){re.escape(word)}(?![\w-])(?!['\u2019](?!s\b))", text)
    if found is None:
        return []
    names = [word.capitalize()]
    if len(word) <= 5 and word.isalpha():
        names.append(word.upper())  # "are pep margins improving?": a ticker that is an everyday word, as tickers are written
    if word.endswith("s") and len(word) >= 5:
        names.append(word[:-1].capitalize() + "'s")  # a possessive typed without its apostrophe
    return [(text[: found.start()] + name + text[found.end():], name) for name in names]


# a word typed in lowercase, or two joined by "&" or "-" ("pratt & whitney", "frito-lay")
_LOWER_NAME = re.compile(r"(?<![\w'\u2019$&.-])([a-z][a-z]{2,}(?:\s*[&-]\s*[a-z][a-z]{2,})?)(?![\w-])")
PROPER_LOOKUPS = 4  # lowercase words looked up as names, per message


def proper_as_written(text: str) -> list[tuple[str, str]]:
    """The message with a lowercase word written as the name the filings write it as ("how is chevrolet doing" as
    "how is Chevrolet doing"), one candidate per such word: a word the covered companies' filings capitalise inside
    their sentences nearly always (brands.proper_name) is a name, though a dictionary holds it. Why: typed in
    lowercase, a brand that is also a word ("chevrolet", "pratt & whitney") named no company, and the message, its
    subject unread, was judged by its likeness alone ("how is X doing" reads like a stock question) and refused.
    Kept only when that reading names a covered company by that word (`names_the_company`)."""
    out: list[tuple[str, str]] = []
    looked = 0
    for m in _LOWER_NAME.finditer(text):
        word = m.group(1)
        if re.sub(r"\s*[&-]\s*", " ", word) in STOPWORDS or word in STOPWORDS or normalize(word) in MEASURE_PHRASES \
                or word in _NOT_NAMES:
            continue
        if looked >= PROPER_LOOKUPS:
            break
        looked += 1
        name = re.sub(r"[a-z]+", lambda w: w.group(0).capitalize(), word)
        if proper_name(name):
            out.append((text[: m.start(1)] + name + text[m.end(1):], name))
    return out


# Words of a question, never a name, whatever the filings capitalise ("Item", "Note", a month)
_NOT_NAMES = frozenset("item items note notes part form annual report reports filing filings january february march "
                       "april june july august september october november december monday friday".split())


_LOWER_OWNER = re.compile(r"(?<![\w'\u2019$&.-])([a-z][a-z&-]{2,})(?=['\u2019]s\b)")


def owners_as_written(text: str) -> list[tuple[str, str]]:
    """The message with a lowercase word that owns something ("ford's EV losses") written as a name ("Ford's EV
    losses"), one candidate per such word: a possessive's owner is a name, whatever else the refusal named
    (an uppercase "EV" read as a company). Kept only when that reading names a covered company by that word
    (`names_the_company`)."""
    return [(text[: m.start(1)] + m.group(1).capitalize() + text[m.end(1):], m.group(1).capitalize() + "'s")
            for m in _LOWER_OWNER.finditer(text)]


def names_the_company(again: Plan, name: str, directory: CompanyDirectory) -> bool:
    """Whether a message read again with `name` capitalised plans a question about the covered company
    that name is (by the directory, or as that company's brand), and about no other but the companies
    the message names beside it ("tesla vs Ford revenue": Tesla and Ford, compared)."""
    if again.route == "refusal" and again.refusal_reason in _ABOUT_THE_COMPANY and len(again.tickers) == 1:
        # "peacock subscribers": read as Peacock, the brand's maker's figure is refused for itself (no such figure),
        # which tells the user more than that no company was read
        base = re.sub(r"['\u2019]s$", "", name)
        return any(m.kind == "company" and m.company is not None and m.company.ticker == again.tickers[0]
                   and m.text.lower() == base.lower() for m in [*directory.find(name), *find_brands(base, directory)])
    if again.route != "domain" or not again.tickers:
        return False
    if name.startswith("$") and not again.metrics:
        return False  # a short word read as a ticker only where it owns a figure ("v's net income"), never "AI's impact"
    base = re.sub(r"['\u2019]s$", "", name)
    if len(again.tickers) == 1 and again.brand and again.brand.get("word", "").lower() == base.lower():
        return again.brand.get("ticker") == again.tickers[0]
    return any(m.kind == "company" and m.company is not None and m.company.ticker in again.tickers
               and m.text.lower() == base.lower() for m in directory.find(name))



# Refusals of a question about a company read: what it asked is not held for it
_ABOUT_THE_COMPANY = frozenset({"unknown_metric", "ambiguous_metric", "year_not_available"})


_CLASS_TICKER = re.compile(r"([a-z]{1,5})[\s.\-/]([a-z])", re.I)


def class_ticker(detail: str, directory: CompanyDirectory):
    """The uncovered registrant a share-class ticker names, typed in any case ("brk.b", "brk b", "BF-B"),
    else None. Why: a lowercase ticker counts only for covered companies (companies.py), since most short
    words are words; a ticker with its class letter after a dot is no word of any sentence."""
    m = _CLASS_TICKER.fullmatch((detail or "").strip())
    if m is None:
        return None
    company = directory.get(f"{m.group(1)}-{m.group(2)}".upper())
    return company if company is not None and not company.covered else None


def non_registrant(detail: str, text: str) -> str | None:
    """The name, as the message writes it, of a well-known company that files nothing with the SEC
    (company_words.NON_REGISTRANTS: Samsung, OpenAI, SpaceX) which a refusal named as the company it
    could not tell: such a company is known and not covered, which is what the user is told."""
    words = re.findall(r"[\w&.-]+", (detail or "").lower())
    if not words or not (" ".join(words) in NON_REGISTRANTS or words[0] in NON_REGISTRANTS):
        # the refusal named another word ("employees" of "how many employees does openai have"): the one such
        # company the message names elsewhere, a word no dictionary holds, is the company meant
        named = {w for w in re.findall(r"[\w&-]+", (text or "").lower())
                 if w in NON_REGISTRANTS and len(w) >= 4 and w not in english_words()}
        if len(named) != 1:
            return None
        words = [named.pop()]
    name = words[0] if words[0] in NON_REGISTRANTS else " ".join(words)
    found = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text or "", re.I)
    return found.group(0) if found else detail
