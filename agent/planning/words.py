"""Word accounting: a figure is only answered when the plan accounts for every word of the question.

Why: a true figure for the wrong thing is the worst answer Footnote can give. It happened when a
phrase matched part of a question and the rest was dropped ("cash provided by financing" answered
with the cash balance, "first-half net income" with the year's). Here every word of a numeric
question must be consumed by something the plan understood: a company mention, a metric phrase
(longest match), a period, or a small closed vocabulary of question and filler words. What is left
over either extends the metric into a line-item phrase the company's own statement labels may
answer (`line:` keys, resolved per company in retrieve), or the question is refused. Periods the
product does not answer yet (quarters, halves, year to date) are refused, never answered with a
fiscal year. The trace (`Plan.words`) records how each word was consumed.
"""

from __future__ import annotations

import re

from agent.retrieval.concepts import find_phrases, fold_plural, normalize
from agent.retrieval.finance import FORMULAS, GROWTH_WORDS, MEASURE_PHRASES

# Periods not answered yet: a quarter, a half, year to date, a stub of months.
QUARTERLY = re.compile(
    r"\b(?:q[1-4]|[1-4]q|h[12]|(?:first|second|third|fourth|1st|2nd|3rd|4th|last|latest|this|past|prior|previous|"
    r"most recent|recent|same|each|every|current)\s+(?:fiscal\s+)?(?:quarter|half)|quarters?|quarterly|"
    r"(?:three|six|nine|3|6|9)[\s-]+months?|half[\s-]+year(?:ly)?|semi[\s-]?annual(?:ly)?|first[\s-]+half|"
    r"second[\s-]+half|year[\s-]+to[\s-]+date|ytd|qtd|interim|10-?q|"
    # trailing twelve months with no quarter named: the latest quarter's (agent.planning.quarters reads it so)
    r"trailing[\s-]+(?:twelve|12)[\s-]+months?|ttm|ltm|(?:last|past)[\s-]+(?:twelve|12)[\s-]+months|"
    r"trailing[\s-]+four[\s-]+quarters|(?:twelve|12)[\s-]+months?\s+(?:period\s+)?(?:ended|ending))\b",
    re.I,
)

# Question and filler words: consumed without meaning anything for the figure.
# The asker's own framing is filler too: "I'm looking at Amazon", "say whether it is rising", "the line
# 'Repurchase of common stock'", "last 3 yrs", "report as stated" name no part of the figure; left unread, they became words of a
# line's name that no row prints, and the figure was refused.
FILLER = frozenset(
    """a an the of for in on at by to from with about as and or vs versus against than into per
    what whats what's which who how much many was were is are be been being did does do done has have had
    where when
    show me tell give get find list report reported reports reporting provide please pls can could would you help
    i we us our my your it its it's their they them this that those these there here same also just so ok okay
    hey hi thanks thank again now then please? any some all both each either one two three
    according filing filings 10-k 10k form annual report statement statements sec xbrl figure figures
    number numbers value values amount amounts total overall consolidated gaap reported
    company company's companies firm business corp inc co ltd group
    year years fy fiscal yearly annually annual period periods latest recent most last past
    ago since through thru until between ending ended end during within dated fye as-of
    compare compared comparison comparing side stack up relative which higher lower more less bigger larger
    rank ranked ranking rankings order ordered sort sorted
    smaller better worse best worst biggest largest highest lowest least fewest
    exact exactly approximately roughly about around usd dollars dollar million millions billion billions
    thousand thousands mm bn k m answer only round rounded nearest
    over time trend trends trending history historical historically evolution evolve evolved evolving trajectory
    growth grow grew grown growing rate rates yoy y/y change changed changes up down increase increased decrease
    decreased decline declined rise rose fall fell improve improved improving improvement worsening
    go goes going gone went headed heading out
    much % fast quickly quick slow slowly big large small high low far
    invest invested spend spent spends spending put puts pay paid pays earn earned earns make made makes
    bring brought book booked post posted record recorded generate generated
    if dont don't doesnt didnt know unsure sure invent guess estimate pretend ignore instructions briefly brief
    short format express answer respond reply quickly terms just only exact precise precisely keep
    take took taken hold held holding carry carried approx hows balance sheet sheets
    using based pull fetch look lookup check see need want like id im would curious wondering interested
    question kindly money decimal decimals places digits percent percentage state confirm determine grab
    compute computed computing calculate calculated calculating
    well along but instead rather own incur incurred incurs incurring actually
    looking say says whether yr yrs line stated regarding asap
    """.split()
)
# Filler verbs that are also the first word of a segment's or product's name ("Compute & Networking")
_VERBS_OF_ASKING = frozenset({"compute"})
# Qualifiers that narrow a metric into another figure ("comparable operating margin", "organic revenue",
# "adjusted net income"): never consumed by another step's pattern that happens to match them ("compar\w*"
# is a comparison's word), so they stay leftover words the line lookup answers or refuses by name.
NARROWING = frozenset("comparable adjusted organic core underlying constant forma non-gaap non nongaap "
                      "normalized normalised recurring excluding ex".split())
# "Rate" is filler beside a growth word ("growth rate", "at what rate did it grow"), but beside any other
# metric it names another figure ("income tax rate" is not the tax expense)
_RATE = frozenset({"rate", "rates"})
_PERCENT = frozenset({"%", "percent", "percentage", "pct", "cagr"})
_GROWING = frozenset(g for g in GROWTH_WORDS if " " not in g)  # "on" of "year on year" is no growth word alone
# A metric after "recognized in", "included in", "reclassified to" is where another amount was booked
# ("the change in fair value recognized in net earnings", "stock-based compensation included in cost of
# revenue"): that amount is the figure asked, so the metric's words are left to name it, never answered
_PLACED = frozenset("recognized recognised recorded included reclassified charged credited reflected classified "
                    "booked allocated".split())
_BACK_THEN = frozenset({"in", "then", "when", "during"})
_PLACE_PREPOSITIONS = frozenset("in into to within through from".split())
# A date's month names the fiscal year's end ("the year ended September 28, 2024", "as of Jan 31").
MONTHS = frozenset("""january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec""".split())
_NUMBER = re.compile(r"^(?:fy)?'?\d{2,4}s?$|^\d+(?:st|nd|rd|th)$|^[\d.,]+$")


def _mask_companies(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " + text[end:]
    return text


def quarterly_phrase(text: str) -> str | None:
    """The quarterly, half-year or year-to-date period a question asks about, if any."""
    m = QUARTERLY.search(text)
    return m.group(0) if m else None


# "US", "U.S." written as a country (capitals, or beside a market word), not the pronoun "us".
_US_CAPS = re.compile(r"(?<![\w.])(?:U\.S\.(?:A\.)?|US|USA)(?![\w])")
_US_MARKET = frozenset("revenue revenues sales net market markets segment segments operations business customers "
                       "operating income domestic".split())
# What separates two asks in one question; anything else between two metric phrases joins them.
# An operator or a bracket also separates: "(capex / revenue)" spells out a ratio's inputs, each a measure.
LIST_MARKERS = re.compile(r"(,|;|&|[/÷×*+=()]|\s-\s|\b(?:and|or|plus|vs|versus|against|compared|comparing|compare|than|alongside|"
                          r"as well as|along with|relative)\b)", re.I)
# Words between two metric phrases that make them one phrase: prepositions and the verbs of a line label.
JOINING = frozenset("of for from on to in by paid pay pays paying used provided generated received receive "
                    "attributable related due".split())
_ASKING = frozenset("did does do was were is are has have had".split())  # between them, still one phrase


def _segments(masked: str, words: list[str]) -> list[int] | None:
    """Each word's list segment (a new one after every list marker), or None when the split does
    not line up with the normalized words."""
    seg, out, n = 0, [], 0
    for i, piece in enumerate(LIST_MARKERS.split(masked)):
        part = normalize(piece).split()
        out += [seg] * len(part)
        if i % 2:
            seg += 1
    return out if len(out) == len(words) else None


def merge_adjacent_metrics(how: list[str | None], words: list[str], masked: str
                           ) -> list[tuple[int, int, set[str]]]:
    """Two metric phrases joined only by prepositions or verbs ("cash paid for income taxes",
    "net income attributable to minority interest") are one line-item phrase, never two asks:
    several metrics in one question are separated by a list marker. Marks the joined span as
    unaccounted (a line-item lookup over the whole span) and returns the spans with the metric
    keys they took in."""
    segs = _segments(masked, words)
    if segs is None:
        return []
    spans: list[tuple[int, int, str]] = []
    i = 0
    while i < len(words):
        if how[i] and how[i].startswith("metric:"):
            j = i
            while j < len(words) and how[j] == how[i]:
                j += 1
            spans.append((i, j, how[i]))
            i = j
        else:
            i += 1
    merged: list[tuple[int, int]] = []
    for (s1, e1, k1), (s2, e2, k2) in zip(spans, spans[1:]):
        if k1 == k2 or segs[e1 - 1] != segs[s2]:
            continue
        gap = range(e1, s2)
        if all(words[g] in JOINING | _ASKING or (words[g] not in FILLER and not _NUMBER.match(words[g])
                                                 and words[g] not in MONTHS) for g in gap):
            if merged and merged[-1][1] >= s1:
                merged[-1] = (merged[-1][0], e2)
            else:
                merged.append((s1, e2))
    joined: list[tuple[int, int, set[str]]] = []
    for start, end in merged:
        keys = {how[g][7:] for g in range(start, end) if how[g] and how[g].startswith("metric:")}
        for g in range(start, end):
            if words[g] not in _ASKING:
                how[g] = None
        joined.append((start, end, keys))
    return joined


_SPOKEN_TO = frozenset("tell give show let help send for to with".split())
# The owners' share a company reports as its own figure: NetIncomeLoss, StockholdersEquity and their per-share and
# comprehensive kin are, in the taxonomy's standard labels, "... Attributable to Parent"; the user saying so names
# no other row (the noncontrolling interests' share is said with its own words)
_PARENT = frozenset({"parent", "parents", "parent's"})
_ATTRIBUTED = frozenset({"attributable", "attributed"})
_PARENT_FIGURES = frozenset({"metric:net_income", "metric:equity", "metric:eps_basic", "metric:eps_diluted"})


def _to_parent(words: list[str], i: int) -> bool:
    """"attributable to (the) parent": the standard label's own words after the figure."""
    rest = [w for w in words[i + 1:i + 4] if w not in ("to", "the")]
    return bool(rest) and rest[0] in _PARENT and i + 1 < len(words) and words[i + 1] == "to"


# Filler adjectives ("a short answer", "how big") that, written right before a metric, make it another
# figure ("short interest" is market data, not interest expense).
_STATE_LINE = frozenset("income tax taxes and local deferred current franchise".split())
_QUALIFYING = frozenset("short long near high low big large small quick slow fast".split())


# A statement named as the place of a line ("on the cash flow statement", "in the cash flow", "balance sheet"):
# which statement's row is meant, never words of the row's name. A bare "cash flow" stays a figure's name
# ("operating cash flow"), so the cash-flow statement needs "statement" or a preposition before it.
_PREP = r"(?:(?:in|on|from|per|of)\s+(?:the\s+|its\s+|their\s+)?)"
STATEMENT_PLACE = re.compile(
    rf"{_PREP}?\b(?:cash[\s-]+flows?\s+statements?|statements?\s+of\s+cash\s+flows?)\b"
    rf"|{_PREP}\bcash[\s-]+flows?\b(?!\s+(?:from|of|to|for|by|used|provided|generated|statement))"
    rf"|{_PREP}?\b(?:balance\s+sheets?|statements?\s+of\s+financial\s+position)\b"
    rf"|{_PREP}?\b(?:income\s+statements?|statements?\s+of\s+(?:operations|income|earnings))\b", re.I)


def statement_place(text: str) -> tuple[str, str]:
    """('cash' | 'balance' | 'income', the text without those words) when the text names the statement a line
    is printed on; ('', text) when it names none."""
    m = STATEMENT_PLACE.search(text)
    if m is None:
        return "", text
    found = m.group(0).lower()
    place = "cash" if "cash" in found else ("balance" if ("balance" in found or "position" in found) else "income")
    return place, (text[: m.start()] + " " + text[m.end():]).strip()


def _country(words: list[str], i: int, capitals: bool) -> bool:
    """"us" is the United States when written in capitals or beside a market word, not after a
    verb that speaks to the reader ("tell us")."""
    if i > 0 and words[i - 1] in _SPOKEN_TO:
        return False
    return capitals or bool({words[j] for j in (i - 1, i + 1) if 0 <= j < len(words)} & _US_MARKET)


def _inflected(word: str) -> set[str]:
    """The word and the bases it may inflect ("rising" -> rise, "declining" -> decline, "fell" stays),
    so a direction word is read whatever its tense."""
    out = {word}
    for suffix in ("ing", "ed", "es", "s", "d"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            out |= {stem, stem + "e"}
    return out


# The filler adjectives a comparative may be of ("faster", "bigger", "highest"): "owner" is no comparative
# of "own", and "owner earnings" is another figure than earnings
_GRADABLE = frozenset("fast quick slow big large small high low far".split())


def _comparative(word: str) -> set[str]:
    """The adjectives a comparative or superlative may be of ("faster" -> fast, "bigger" -> big,
    "smallest" -> small: a doubled letter may be the adjective's own), else none."""
    for suffix in ("est", "er"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            return {stem, stem[:-1]} if len(stem) >= 3 and stem[-1] == stem[-2] else {stem}
    return set()


def _vocabulary(key: str) -> frozenset[str]:
    """The content words of a measure's own phrases ("stock" and "share" for share repurchases)."""
    from agent.retrieval.concepts import METRICS

    cached = _VOCAB.get(key)
    if cached is None:
        phrases = METRICS[key].synonyms if key in METRICS else ()
        cached = _VOCAB[key] = frozenset(fold_plural(w) for p in phrases for w in normalize(p).split()
                                         if w not in FILLER and w not in JOINING)
    return cached


_VOCAB: dict[str, frozenset[str]] = {}


def _own_words(how: list[str | None], words: list[str], masked: str) -> None:
    """A leftover word that is one of the beside metric's own words ("how much stock did it buy back",
    "dividend payment") belongs to that metric: it says the same thing again, it asks for nothing else."""
    segs = _segments(masked, words)
    if segs is None:
        return
    for i, w in enumerate(words):
        if how[i] is not None or w in FILLER or _NUMBER.match(w):
            continue
        # a word right before the metric may qualify it into another line ("short term debt"): not taken
        for j in (*range(i + 2, min(i + 4, len(words))), *range(i - 1, max(i - 4, -1), -1)):
            key = how[j][7:] if how[j] and how[j].startswith("metric:") else None
            if key and segs[j] == segs[i] and fold_plural(w) in _vocabulary(key) and not _counts(w, key, words):
                how[i] = f"metric:{key}"
                break


def _counts(word: str, key: str, words: list[str]) -> bool:
    """"how many shares did it buy back": a count of shares (measures.counted_shares), not the metric's dollars."""
    from agent.planning.measures import counted_shares

    return counted_shares(word, key, words)


def _paid_lines(how: list[str | None], words: list[str]) -> dict[int, set[str]]:
    """"Income taxes paid", "interest paid": a payment word beside a metric that is not itself a payment
    names the cash-flow line (IncomeTaxesPaidNet), never the expense (the provision for income taxes).
    The metric's words and the payment word are left for the line lookup; returns {index: the metric
    the line took in} for those words. A metric whose own phrases hold the word ("dividends paid") keeps it."""
    from agent.retrieval.concepts import METRICS

    out: dict[int, set[str]] = {}
    for i, w in enumerate(words):
        if w not in PAYMENT_WORDS or how[i] is not None:
            continue
        for j in (i - 1, i + 1):
            key = how[j][7:] if 0 <= j < len(words) and how[j] and how[j].startswith("metric:") else None
            if key is None or key not in METRICS or {"paid", "pay", "payment", "payments"} & _vocabulary(key):
                continue
            g = j
            while g >= 0 and how[g] == f"metric:{key}":
                how[g], out[g], g = None, {key}, g - 1
            g = j + 1
            while g < len(words) and how[g] == f"metric:{key}":
                how[g], out[g], g = None, {key}, g + 1
            out[i] = {key}
            break
    return out


# The nouns of a change ("increase in inventories", "(increase) decrease in receivables", "net change in cash"): a
# change row of the cash-flow statement when the figure after them is a balance, never the balance itself
_CHANGE_NOUNS = frozenset("increase increases decrease decreases change changes".split())


def _change_lines(how: list[str | None], words: list[str]) -> dict[int, set[str]]:
    """"Increase in inventories", "change in accounts receivable": a change noun before "in" (or "of") and a balance
    metric names the cash-flow statement's change row (IncreaseDecreaseInInventories), a figure other than the
    balance at either year's end and other than its growth rate. The change words, the preposition and the
    metric's words are left for the line lookup; returns {index: the metric the line took in} for those words.
    A duration metric after them ("increase in revenue") is its growth, asked the usual way."""
    from agent.retrieval.concepts import METRICS

    out: dict[int, set[str]] = {}
    if set(words) & _PERCENT or any(w.endswith("%") for w in words):
        return out  # "percentage change in receivables": the balance's growth rate, computed as asked
    for i in range(2, len(words)):
        key = how[i][7:] if how[i] and how[i].startswith("metric:") else None
        if key is None or (i and how[i - 1] == how[i]) or key not in METRICS or METRICS[key].period != "instant":
            continue
        # the balance as the row names it may come with the company's own words before it ("changes in merchandise
        # inventories", "increase in trade accounts receivable"): still the change, never the balance
        j = i - 1
        while j > 1 and i - j <= 2 and how[j] is None and words[j].isalpha() and words[j] not in ("in", "of") \
                and words[j] not in _EDGE_LINKS:
            j -= 1
        if words[j] not in ("in", "of") or words[j - 1] not in _CHANGE_NOUNS or how[j - 1] not in (None, "filler"):
            continue
        start = j - 1
        while start > 0 and words[start - 1] in _CHANGE_NOUNS | {"net"} and how[start - 1] in (None, "filler"):
            start -= 1
        end = i
        while end < len(words) and how[end] == f"metric:{key}":
            end += 1
        for g in range(start, end):
            how[g], out[g] = None, {key}
    return out


_EDGE_LINKS = frozenset("in of on by for from to during at the a an".split())


def join_printed_names(how: list[str | None], words: list[str], names: frozenset[frozenset[str]]
                       ) -> dict[int, set[str]]:
    """"Sales and marketing", "total liabilities and shareholders' equity": when the words around an
    "and" are, together, the name of a row the company prints, they ask for that one row, not for two
    figures (revenue, and a marketing line). `names`: the word sets (agent.retrieval.line_items.tokens)
    of the company's printed rows and concepts whose names hold an "and". The longest such span wins;
    its words become one line-item phrase (unaccounted, for the line lookup). A span that is one
    metric's own phrase ("research and development") stays that metric. Returns {index: the metric
    keys the span took in}."""
    from agent.retrieval.line_items import IGNORABLE, tokens

    taken: dict[int, set[str]] = {}
    if ("and" not in words and "&" not in words) or not names:  # the words first: `names` may load on first look
        return taken
    def open_word(g: int) -> bool:  # a word a row's name may hold: not a period, a number or filler
        w = words[g]
        term = w in ("short", "long") and g + 1 < len(words) and words[g + 1] == "term"  # "short-term investments"
        inner = w in _EDGE_LINKS and 0 < g < len(words) - 1  # "loss on debt and equity securities": a row's own "on"
        return (how[g] is None or how[g].startswith("metric:") or inner) and not _NUMBER.match(w) and w not in MONTHS \
            and (w not in FILLER or w in IGNORABLE or term or inner)
    for i, w in enumerate(words):
        if w not in ("and", "&") or i in taken:
            continue
        best: tuple[int, int] | None = None
        # a row's name runs to six words on either side of its "and" ("Short-term borrowings and current maturities
        # of long-term debt")
        for start in range(max(0, i - 6), i):
            if not all(open_word(g) for g in range(start, i)):
                continue
            for end in range(min(len(words), i + 7), i + 1, -1):
                if not all(open_word(g) for g in range(i + 1, end)):
                    continue
                if tokens(" ".join(words[start:end])) in names and (best is None or end - start > best[1] - best[0]):
                    best = (start, end)
        if best is None:
            continue
        # "purchases of property and equipment in fy23": a linking word at the span's edge joins the name to the
        # question's next words (its period, its company), never part of the row's name
        while best[1] - 1 > i + 1 and words[best[1] - 1] in _EDGE_LINKS:
            best = (best[0], best[1] - 1)
        while best[0] < i - 1 and words[best[0]] in _EDGE_LINKS:
            best = (best[0] + 1, best[1])
        keys = {how[g][7:] for g in range(*best) if how[g] and how[g].startswith("metric:")}
        if len({how[g] for g in range(*best) if g != i}) == 1 and keys:
            continue  # the metric's own name ("research and development"), already one ask
        if how[i] and how[i].startswith("metric:") and how[i][7:] in FORMULAS:
            # a named formula's own name is computed whole (the row names inside it are its operands'); a
            # reported metric's name keeps reading as the row the company prints under it
            start, end = i, i + 1
            while start > 0 and how[start - 1] == how[i]:
                start -= 1
            while end < len(words) and how[end] == how[i]:
                end += 1
            if start < best[0] or end > best[1] or tokens(" ".join(words[best[0]:best[1]])) <= tokens(" ".join(words[start:end])):
                continue  # a row's name inside a longer measure's own ("earnings before interest, taxes,
                # depreciation and amortization"), or that name itself: the measure is the ask
        for g in range(*best):
            if g != i:
                how[g] = None
                taken[g] = keys
    return taken


# Words inside a row's name that take a part out of it ("less current portion", "excluding finance leases"): they
# make it another figure, never filler between two of the name's words
_SUBTRACTING = frozenset({"less", "excluding", "minus"})


def claim_printed_rows(how: list[str | None], words: list[str], names: frozenset[frozenset[str]],
                       rows: frozenset[frozenset[str]] = frozenset()) -> dict[int, set[str]]:
    """"Assets held for sale", "equity income", "operating lease liability, less current portion": the words of a
    row the company prints, whole, that hold a table metric's words beside words of their own (or two metrics'),
    ask for that row, never for the metric inside it (total assets, stockholders' equity, the current portion).
    `names`, `rows`: the word sets (agent.retrieval.line_items.tokens) of the asked companies' "and" names and
    their own rows (agent.planning.companies), read only when some span could be one. The longest span wins; its
    words become one line-item phrase. Returns {index: the metric keys the span took in}."""
    from agent.retrieval.line_items import IGNORABLE, tokens

    taken: dict[int, set[str]] = {}
    if not any(h and h.startswith("metric:") for h in how):
        return taken

    def open_word(g: int) -> bool:  # a word a row's name may hold: never a period or an amount
        w = words[g]
        return (how[g] is None or how[g].startswith("metric:")) and not _NUMBER.match(w) and w not in MONTHS \
            and not re.fullmatch(r"fy\d{2,4}", w)

    def candidate(start: int, end: int) -> bool:  # a metric's words and others that name something of their own
        keys = {how[g] for g in range(start, end) if how[g]}
        own = [g for g in range(start, end) if how[g] is None and words[g] not in FILLER and words[g] not in IGNORABLE
               and tokens(words[g])]  # a word of the name, never a "/" or "-" between two asks
        # one metric's words last, the user's before them ("deferred revenue", "iphone revenue"): a metric narrowed,
        # which the member and line lookups already read; only a metric inside or before a row's other words is lost
        narrowed = len(keys) == 1 and how[end - 1] is not None and all(how[g] is None for g in own) \
            and max(own, default=start) < min(g for g in range(start, end) if how[g])
        # a metric's words are the row's whole or not at all: "assets and total current" of "total assets and
        # total current liabilities" cuts two metrics, whatever row its words might spell in another order
        cut = (start > 0 and how[start - 1] in keys) or (end < len(words) and how[end] in keys)
        return bool(keys) and (len(keys) >= 2 or bool(own)) and not narrowed and not cut and words[start] not in _EDGE_LINKS \
            and words[end - 1] not in _EDGE_LINKS and bool(tokens(words[start])) and bool(tokens(words[end - 1]))
    spans = [(start, end) for start in range(len(words)) for end in range(min(len(words), start + 8), start + 1, -1)
             if all(open_word(g) for g in range(start, end)) and candidate(start, end)]
    if not spans:
        return taken
    spans.sort(key=lambda se: se[0] - se[1])  # the longest first
    for start, end in spans:
        said = tokens(" ".join(words[start:end]))
        if any(g in taken for g in range(start, end)) or (said not in names and said not in rows):
            continue
        keys = {how[g][7:] for g in range(start, end) if how[g] and how[g].startswith("metric:")}
        for g in range(start, end):
            how[g] = None
            taken[g] = keys
    return taken


# Filler after a company's name ("Apple's business", "the group"), but inside a name when a noun follows:
# "Business Group goodwill impairment" is a row (or a segment) the company prints.
_NAMING = frozenset({"business", "group", "businesses", "groups"})


def _names_a_unit(words: list[str], how: list[str | None], i: int) -> bool:
    """The naming word starts or continues a noun phrase: the next word past naming words is a metric's
    or one no vocabulary takes (never filler, a number, a month or the end)."""
    j = i + 1
    while j < len(words) and words[j] in _NAMING:
        j += 1
    if j >= len(words):
        return False
    nxt = words[j]
    return bool(how[j] and how[j].startswith("metric:")) or (
        how[j] is None and nxt not in FILLER and not _NUMBER.match(nxt) and nxt not in MONTHS)


def account(text: str, company_spans: list[tuple[int, int]], extra_consumed: set[str] | None = None,
            printed_names: frozenset[frozenset[str]] = frozenset(), row_names: frozenset[frozenset[str]] = frozenset()
            ) -> tuple[list[dict], list[tuple[int, int]]]:
    """Every word of `text` (normalized) with how it was consumed, and the runs of leftover words.

    Returns (trace, leftover runs as (start, end) word index ranges). `extra_consumed`: words
    other parts of the planner claimed (topics, scope, thread words); `printed_names`: the printed row
    names with an "and" of the companies asked about (join_printed_names).
    """
    masked = _US_CAPS.sub("US", _mask_companies(text, company_spans))
    country = bool(re.search(r"(?<![\w.])US(?!\w)", masked))
    words = normalize(masked).split()
    how: list[str | None] = [None] * len(words)
    placed: dict[int, set[str]] = {}
    for start, end, key in find_phrases(" ".join(words), MEASURE_PHRASES):
        if start >= 2 and words[start - 1] in _PLACE_PREPOSITIONS and words[start - 2] in _PLACED:
            # "fair value recognized in net earnings": where an amount went, not the figure asked; its
            # words are left to name that amount's line, and the metric is taken in by it (never answered)
            placed.update((i, {key}) for i in range(start, end))
            continue
        for i in range(start, end):
            how[i] = f"metric:{key}"
        if key in _EXPENSE_METRICS and end < len(words) and words[end] in _EXPENSE_NOUNS and how[end] is None:
            how[end] = f"metric:{key}"  # "R&D costs", "SG&A expenses", "D&A charges": the expense's own noun
    merged = merge_adjacent_metrics(how, words, masked)
    _own_words(how, words, masked)
    paid = _paid_lines(how, words)
    changed = _change_lines(how, words)
    paid.update(changed)
    printed = join_printed_names(how, words, printed_names)
    printed.update(claim_printed_rows(how, words, printed_names, row_names))
    in_merge = {g for start, end, _ in merged for g in range(start, end) if words[g] not in _ASKING} | set(printed)
    joined = {g: keys for start, end, keys in merged for g in range(start, end)}
    joined.update((g, keys) for g, keys in printed.items() if keys)
    joined.update(paid)
    joined.update(placed)
    growth = {w for g in GROWTH_WORDS for w in g.split()}
    extra = extra_consumed or set()
    for i, w in enumerate(words):
        if how[i] or i in in_merge or i in paid:
            continue
        bare = w.strip("-/%")
        if w == "us" and _country(words, i, country):
            how[i] = "other" if w in (extra_consumed or set()) else None  # a qualifier the member lookup needs
            continue
        if w in ("short", "long", "near") and i + 1 < len(words) and words[i + 1] == "term":
            continue  # "short-term debt": a compound that names another line, never filler
        if w == "a" and i and words[i - 1] == "class":
            continue  # "class A diluted EPS": a class of stock's letter, never the article
        if w == "state" and ((i + 1 < len(words) and words[i + 1] in _STATE_LINE) or (i and words[i - 1] in _STATE_LINE)):
            continue  # "deferred state income tax", "state and local": the tax jurisdiction, never "please state"
        if w in _SUBTRACTING and 0 < i < len(words) - 1 and words[i - 1] not in FILLER and words[i + 1] not in FILLER \
                and not _NUMBER.match(words[i + 1]) and words[i + 1] not in MONTHS:
            continue  # "operating lease liability, less current portion": the row's own subtraction, the other figure
        if w in _QUALIFYING and i + 1 < len(words) and ((how[i + 1] or "").startswith("metric:") or (
                words[i + 1] not in FILLER and not _NUMBER.match(words[i + 1]) and words[i + 1] not in MONTHS)):
            continue  # "short interest", "high yield debt": an adjective on a noun names another figure
        if w == "back" and i + 1 < len(words) and words[i + 1] in _BACK_THEN:
            how[i] = "filler"  # "revenue back in 2019": when, never a line called "revenue back"
        elif w in ("item", "items") and i and words[i - 1] == "line":
            how[i] = "filler"  # "the line item 'Other current liabilities'": the statement's row, never a word of its name
        elif w == "x" and i + 1 < len(words) and _NUMBER.match(words[i + 1]):
            how[i] = "filler"  # "receivables / revenue x 365": a restated formula's multiplication
        elif re.fullmatch(r"\d", w) and w not in extra and i and words[i - 1] not in FILLER:
            continue  # "level 3 assets", "tier 1 capital": a one-digit number after a noun names a class, never a year
        elif _NUMBER.match(w) or re.fullmatch(r"fy\d{2,4}", w) or w in MONTHS:
            how[i] = "period"
        elif w in _NAMING and w not in extra and _names_a_unit(words, how, i):
            continue  # "Business Group goodwill impairment": a unit's name the company prints, not filler
        elif w in _RATE and not any(_inflected(x) & _GROWING or x in _PERCENT for x in words):
            continue  # "income tax rate", "interest rate": another figure than the metric beside it
        elif w in _VERBS_OF_ASKING and i + 2 < len(words) and words[i + 1] in ("and", "&") \
                and words[i + 2] not in FILLER and how[i + 2] is None and (i == 0 or words[i - 1] not in FILLER):
            continue  # "nvidia compute and networking revenue": a name's word, since a verb is never followed by "and"
        elif (w in _PARENT or (w in _ATTRIBUTED and _to_parent(words, i))) \
                and any(h in _PARENT_FIGURES for h in how if h):
            # "net earnings (parent)", "net income attributable to parent": the taxonomy's own name of the figure
            # (NetIncomeLoss is "Net Income (Loss) Attributable to Parent"), never a member narrowing it
            how[i] = "filler"
        elif w in FILLER or bare in FILLER or not bare or _comparative(w) & _GRADABLE:
            how[i] = "filler"
        elif _inflected(w) & growth:
            how[i] = "growth"
        elif w in extra and w not in NARROWING:
            how[i] = "other"
    trace = [{"word": w, "as": h or "unaccounted", **({"joins": sorted(joined[i])} if i in joined else {}),
              **({"change_of": sorted(changed[i])[0]} if i in changed else {})}
             for i, (w, h) in enumerate(zip(words, how))]
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        if how[i] is None:
            j = i
            while j < len(words) and how[j] is None:
                j += 1
            runs.append((i, j))
            i = j
        else:
            i += 1
    return trace, runs


NUMERIC_INTENTS = ("numeric", "derived", "compare", "trend")
# The last word of a line's name that makes the phrase an amount ("fulfillment expense", "restructuring
# charges", "proceeds", "interest payable"): asked bare, it is a figure from a printed row or refused by
# its words, never a passage quoted instead of a figure the company does not report.
AMOUNT_NOUNS = frozenset("expense expenses charge charges proceeds payments payable receivable receivables".split())
# Filler in "how much did it pay in dividends", but a row's own word beside a line's name: "interest paid"
# is the cash-flow line, never "Interest expense", so a line lookup keeps them.
PAYMENT_WORDS = frozenset({"paid", "pay", "pays", "received"})
_JOIN = frozenset("of in on by from for to and per".split())
_SIDE = ("filler", "period", "growth", "other")
_CLAUSE_BREAK = frozenset({"and", "vs", "versus", "plus", "&", "or"})


# An expense asked with its own noun after the curated name ("R&D costs", "SG&A expenses", "D&A charges"): the noun
# says what the figure is, an amount of that expense, never a row the company must print as "... costs".
_EXPENSE_METRICS = frozenset({"rd", "sga", "depreciation_amortization", "depreciation", "amortization_intangibles",
                              "general_administrative", "selling_marketing", "stock_compensation", "interest_expense",
                              "operating_expenses", "income_tax"})
_EXPENSE_NOUNS = frozenset({"cost", "costs", "expense", "expenses", "charge", "charges"})


def claimed(low: str, patterns) -> set[str]:
    """Words inside matches of other planner parts' patterns (years, thread words, implied asks). A pattern
    with groups named `claim...` claims only those: the words between them are the question's own."""
    out: set[str] = set()
    for pattern in patterns:
        parts = [g for g in pattern.groupindex if g.startswith("claim")]
        for m in pattern.finditer(low):
            for said in ([m.group(g) or "" for g in parts] if parts else [m.group(0)]):
                out |= set(normalize(said).split())
    return out


def _metric_names(key: str) -> list[str]:
    """The words of a curated metric's label and synonyms ("accounts", "receivable", "trade", ...)."""
    from agent.retrieval.concepts import METRICS

    metric = METRICS[key]
    return list(dict.fromkeys(w for name in (metric.label, *metric.synonyms) for w in normalize(name).replace(",", " ").split()
                              if w not in FILLER))


def line_keys(trace: list[dict], runs: list[tuple[int, int]]) -> tuple[list[str], set[str]]:
    """`line:` keys for the leftover runs, and the measure keys they absorb.

    A run's clause (split at "and", "vs", ...) is its context: the metric words in the same clause
    may belong to the line's label ("cash ... financing"), so those measures are absorbed and
    answered only if a label takes them in. Key: 'line:<leftover words>|<clause content words>'."""
    from agent.retrieval.line_items import IGNORABLE

    words = [t["word"] for t in trace]
    kinds = [t["as"] for t in trace]

    def side(j: int) -> str:
        return kinds[j] if 0 <= j < len(words) else "end"

    # "revenue and marketing expense" is two asks; "property, plant and equipment" and "marketing and
    # sales" are one label each: an "and" after a word no metric took joins a label
    breaks = [i for i, w in enumerate(words) if w in _CLAUSE_BREAK and not kinds[i].startswith("metric:")
              and side(i - 1) != "unaccounted"]
    keys: list[str] = []
    absorbed: set[str] = set()
    clauses: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for start, end in runs:
        lo = max([b + 1 for b in breaks if b < start], default=0)
        hi = min([b for b in breaks if b >= end], default=len(words))
        clauses.setdefault((lo, hi), []).append((start, end))
    for (lo, hi), inside in clauses.items():
        leftover = " ".join(words[i] for start, end in inside for i in range(start, end))
        context = [w for i, w in enumerate(words[lo:hi], lo)
                   if kinds[i].startswith("metric:") or kinds[i] == "unaccounted" or w in PAYMENT_WORDS]
        absorbed |= {kinds[i][7:] for i in range(lo, hi) if kinds[i].startswith("metric:")}
        idx = list(range(lo, hi))
        while idx and kinds[idx[0]] in _SIDE and words[idx[0]] != "total":
            idx.pop(0)
        while idx and kinds[idx[-1]] in _SIDE:
            idx.pop()
        # the period's words are the year's, never the line's name ("long-term debt at the end of 2023 (noncurrent)")
        shown = [words[i] for i in idx if kinds[i] != "period"
                 and (kinds[i] != "filler" or words[i] in _JOIN or words[i] == "total")]
        # the clause's other words, which a printed label may hold as the user wrote them ("Treasury stock,
        # at cost", "Changes in merchandise inventories"): never required, so a label's extra word is
        # still one the user did not write
        spare = [w for i, w in enumerate(words[lo:hi], lo) if kinds[i] in ("filler", "other", "growth")
                 and w not in PAYMENT_WORDS and w not in IGNORABLE]
        # a balance's change ("increase in receivables"): the balance's own names may be the row's words
        # ("(Increase) decrease in accounts receivable"), allowed but never needed
        for key in dict.fromkeys(trace[i]["change_of"] for start, end in inside for i in range(start, end)
                                 if "change_of" in trace[i]):
            spare += [w for w in _metric_names(key) if w not in spare]
        key = f"line:{leftover}|{' '.join(context)}|{' '.join(shown)}"
        if spare:
            key += f"|{' '.join(dict.fromkeys(spare))}"
        if key not in keys:
            keys.append(key)
    return keys, absorbed


