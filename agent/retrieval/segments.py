"""Segment, product and region figures: a metric narrowed by a member the filing tags.

Why from the document: "Data Center revenue" is a figure only when the filing tags a Data Center
member on one axis; its name comes from the row the company printed beside it, or else from the
member's QName in words (aapl:IPhoneMember → "iphone", aapl:AmericasSegmentMember → "americas").
The question's qualifier must name exactly one member (all its words in the member's name, an exact
name winning); none → refused with the members that exist, so the user can pick one; a breakdown
("by segment", "by product", "by region") lists every member of the matching axis as a table.
"""

from __future__ import annotations

import re
from agent.retrieval.line_items import concept_words, tokens, unaccented, without_note_refs
from agent.retrieval.spelling import as_printed

# member-name words that say nothing about which member it is
_GENERIC = frozenset({"member", "segment", "segments", "operating", "reportable", "geographical", "geographic", "region",
                      "regions", "division", "divisions", "group", "portfolio", "portfolios"})
GENERIC = _GENERIC
AXIS_WORDS = {
    "segment": ("Segment",), "segments": ("Segment",), "business": ("Segment",), "division": ("Segment",),
    "divisions": ("Segment",), "portfolio": ("Segment",), "portfolios": ("Segment",), "product": ("ProductOrService",), "products": ("ProductOrService",),
    "category": ("ProductOrService",), "categories": ("ProductOrService",), "line": ("ProductOrService",),
    "region": ("Geographical", "Segment"), "regions": ("Geographical", "Segment"),
    "geography": ("Geographical", "Segment"), "geographies": ("Geographical", "Segment"),
    "country": ("Geographical",), "countries": ("Geographical",),
    "class": ("ClassOfStock",), "classes": ("ClassOfStock",),
}


# Geographic members tagged by ISO code (country:JP) go by the country's name in questions and answers.
COUNTRIES: dict[str, tuple[str, ...]] = {
    "US": ("united states", "us", "u.s.", "usa", "u.s.a."), "CA": ("canada",), "MX": ("mexico",),
    "BR": ("brazil",), "AR": ("argentina",), "CL": ("chile",), "CO": ("colombia",), "GB": ("united kingdom", "uk", "u.k.", "britain", "great britain"),
    "IE": ("ireland",), "DE": ("germany",), "FR": ("france",), "IT": ("italy",), "ES": ("spain",),
    "NL": ("netherlands", "holland"), "BE": ("belgium",), "CH": ("switzerland",), "SE": ("sweden",),
    "NO": ("norway",), "DK": ("denmark",), "FI": ("finland",), "PL": ("poland",), "AT": ("austria",),
    "RU": ("russia",), "TR": ("turkey",), "IL": ("israel",), "SA": ("saudi arabia",), "AE": ("united arab emirates", "uae"),
    "ZA": ("south africa",), "NG": ("nigeria",), "EG": ("egypt",), "IN": ("india",), "CN": ("china",),
    "HK": ("hong kong",), "TW": ("taiwan",), "JP": ("japan",), "KR": ("south korea", "korea"),
    "SG": ("singapore",), "MY": ("malaysia",), "TH": ("thailand",), "VN": ("vietnam",), "ID": ("indonesia",),
    "PH": ("philippines",), "AU": ("australia",), "NZ": ("new zealand",), "PR": ("puerto rico",),
}
COUNTRY_WORDS = frozenset(w for names in COUNTRIES.values() for n in names for w in n.replace(".", "").split()
                          if len(w) > 2 and w not in ("united", "new", "south", "great", "arab"))


_COUNTRY_NAMES = frozenset(n for names in COUNTRIES.values() for n in names)


def _country(member: str) -> tuple[str, ...]:
    code = member.split(":", 1)[1] if member.startswith("country:") else ""
    return COUNTRIES.get(code.upper(), ())


def _own_labels(member: str, printed: set[str], owner: frozenset[str] = frozenset()) -> list[str]:
    """Printed labels that name the member itself, not the row's metric ("Net sales", "Operating
    income" beside a segment): they share its QName's words ("iPhone" for aapl:IPhoneMember). The
    company's own name (`owner`) is no such word: vz:VerizonConsumerGroupSegmentMember's column of the
    goodwill table prints "Verizon Business Group goodwill impairment", which names another segment."""
    qname = _key(concept_words(member)) - owner
    flat = "".join(w for w in concept_words(member).split() if w not in _GENERIC and not tokens(w) <= owner)
    out = []
    for label in printed:
        words = _key(label)
        first = re.match(r"[a-z]*", unaccented(label).lower()).group(0)
        if words and (words & qname or ("".join(label.lower().split()).startswith(flat[:5])
                                        and (flat.lower().startswith(first) or first.startswith(flat.lower())))
                      or _spelled_inside(label, flat)):
            # run together, the QName's first letters must begin with the label's first word ("Interest income"
            # is no name of axp:InternationalCardServicesSegmentMember)
            out.append(label)
    # shortest first; of two printed alike but for case ("BEAUTY" as a heading, "Beauty" in a table),
    # the one in running case; then by text, so the name shown never depends on the set's order
    return sorted(out, key=lambda label: (len(label), label.isupper(), label))


def _spelled_inside(label: str, flat: str) -> bool:
    """Every word of a label spelled inside a QName whose words run together ("Hardware and accessories" in
    gme:VideogamehardwareaccessoriesMember): the label is the member's name, as "Google Network" is
    goog:GoogleNetworkMember's. Words of four letters or more only, so a short word's letters met by chance name
    nothing."""
    flat = flat.lower()
    words = [w for w in re.findall(r"[a-z]+", without_note_refs(unaccented(label)).lower()) if w not in _SMALL]
    return len(words) >= 2 and all(len(w) >= 4 and w in flat for w in words)


def member_names(member: str, printed: set[str], owner: frozenset[str] = frozenset()) -> list[str]:
    """Names a member goes by: the labels printed beside it that name it, then its QName in words."""
    return [*_own_labels(member, printed, owner), *_country(member), _qname_name(member)]


def _qname_name(member: str) -> str:
    """The member's QName in words, without the words every member carries ("segment", "member")."""
    return " ".join(w for w in concept_words(member).split() if w not in _GENERIC)


# A class of stock by its letter ("Class A", "Class B-1"): one word, as the letter alone is an article or nothing
_CLASS_LETTER = re.compile(r"\bclass\s+([a-z])(?:[\s-]*(\d))?\b", re.I)


def _key(name: str) -> frozenset[str]:
    name = _CLASS_LETTER.sub(lambda m: f"class{m.group(1)}{m.group(2) or ''}".lower(), name)
    return frozenset(w for w in tokens(name) if w not in _GENERIC)


# Words of a cost or expense line: a member's printed label holding one names that line, never the member of
# another measure (a revenue member shown as "Cost of products" would put a cost's name on a sales figure)
_COST_LINE = re.compile(r"\b(?:costs?|expenses?)\b", re.I)
_SALES_WORDS = frozenset({"revenue", "sale"})


def display_name(member: str, printed: set[str], metric_words: frozenset[str]) -> str:
    """The company's printed name for the member when it has one, else its QName in words. A label that
    prints exactly the QName's words comes first ("Google Services" over the shorter "Google other" that
    shares one word with it, "Bottling Investments" over "Investments")."""
    qname = _key(_qname_name(member))
    flat = _flat(_qname_name(member))
    own = _own_labels(member, printed)

    def unlike_qname(lab: str) -> bool:  # "Energy & Transportation" is cat:EnergyandTransportationMember's words, run together
        bare = re.sub(r"\s*\(\s*\d+\s*\)|(?<=[A-Za-z)])\s*\d$", "", lab)
        return _key(bare) != qname and _flat(bare) != flat

    for label in sorted(own, key=unlike_qname):
        # a note reference, bracketed or set as a trailing digit ("Singapore (1)", "North American Markets 1"):
        # no part of the name, and a figure the answer's text would carry without a source
        clean = re.sub(r"(?<=[A-Za-z)])\s*\d$", "", re.sub(r"\s*\(\s*\d+\s*\)", "", label)).strip()
        if metric_words & _SALES_WORDS and "cost" not in metric_words and _COST_LINE.search(clean):
            continue  # "Cost of services" printed beside us-gaap:ServiceMember names the cost row, not a revenue member
        if _key(clean) and not _key(clean) <= metric_words | {"total"}:
            return clean
    standard = [lab for lab in printed if _key(lab) in {_key(n) for n in _STANDARD_NAMES.get(member, ())}]
    if standard or member in _STANDARD_NAMES:  # "International" printed beside us-gaap:NonUsMember, or its name
        return sorted(standard, key=len)[0] if standard else _STANDARD_NAMES[member][0].title()
    words = [w for w in concept_words(member).split() if w not in _GENERIC]
    country = _country(member)
    if country:  # country:JP -> "Japan", country:US -> "United States"
        return country[0].title().replace("U.S.", "US")
    if len(words) == 1 and len(words[0]) <= 3:
        return words[0].upper()  # country:US, nvda:OEM...
    return " ".join(words).title() or member


# Region abbreviations and adjectives as questions write them, in the words member names use.
_REGION_WORDS = {
    "apac": "asia pacific", "apj": "asia pacific japan", "latam": "latin america", "emea": "europe middle east africa",
    "na": "north america", "intl": "international", "int'l": "international", "row": "rest of world",
    "american": "america", "americas": "americas", "european": "europe", "asian": "asia", "african": "africa",
    "chinese": "china", "japanese": "japan", "canadian": "canada", "mexican": "mexico", "indian": "india",
    "german": "germany", "british": "united kingdom", "french": "france", "brazilian": "brazil",
    "domestic": "united states",
    # not a region: the abbreviation analysts write for the advertising members filings print ("ad revenue")
    "ad": "advertising",
}
REGION_WORDS = frozenset(_REGION_WORDS)
_SMALL = frozenset({"and", "of", "the", "&"})


def _spelled(qualifier: str) -> str:
    """The qualifier with region abbreviations and adjectives spelled as member names spell them."""
    return " ".join(_REGION_WORDS.get(w, w) for w in re.findall(r"[a-z0-9&'.]+", qualifier.lower()))


def _names_a_row(want: frozenset[str], have: frozenset[str], member: str, name: str, metric_words: frozenset[str]) -> bool:
    """Whether a printed label the qualifier falls inside is a row's name rather than the member's: it
    holds the asked metric's words and the qualifier reaches past the member's own QName words into it
    ("business group impairment" inside "Verizon Business Group goodwill impairment", printed beside the
    consumer column). "direct consumer" inside "Sales through Direct to Consumer" stays the member's."""
    qname = _qname_name(member)
    if not (metric_words and have & metric_words and name != qname):
        return False
    own = _key(qname)  # "direct" is the QName's "directly" (SalesChannelDirectlyToConsumerMember)
    return any(not any(w.startswith(o) or o.startswith(w) for o in own if min(len(w), len(o)) >= 4) and w not in own
               for w in want)


def find_member(qualifier: str, members: list[tuple[str, str]], labels: dict[str, set[str]],
                owner: frozenset[str] = frozenset(), metric_words: frozenset[str] = frozenset()
                ) -> tuple[list[tuple[str, str]], bool]:
    """The (axis, member) pairs the qualifier names, and whether the match is exact. `owner`: the
    company's name words, which a member may carry beside the qualifier ("Walmart U.S." is "US" at
    Walmart, as exact as the country). `metric_words`: the asked metric's own words; a printed label
    holding one ("Verizon Business Group goodwill impairment" beside a goodwill column) is a row's name,
    another figure, so it names no member by a part of its words."""
    found = _find_member(_spelled(qualifier), members, labels, owner, metric_words)
    plain = " ".join(re.findall(r"[a-z0-9&'.]+", qualifier.lower()))
    if not found[0] and plain != _spelled(qualifier):
        # the member prints the abbreviation itself ("Building Solutions EMEA/LA"): the words as typed
        found = _find_member(plain, members, labels, owner, metric_words)
    whole = [w for w in _spelled(qualifier).split() if w not in _ALL_REGIONS]
    if not found[0] and whole and len(whole) < len(_spelled(qualifier).split()):
        # "Stelara worldwide", "global Eliquis": the member's own figure is its every region's; a member whose name
        # holds the word ("Global Services") was found above, by its whole name
        again = _find_member(" ".join(whole), members, labels, owner, metric_words)
        if not any("geographic" in axis.lower() or member.startswith("country:") for axis, member in again[0]) \
                and not _key(" ".join(whole)) <= _PLACE_WORDS:
            found = again  # "global Europe revenue" says two things of one figure: no member, never Europe's
    if not found[1]:
        # a standard member the filing prints under a name it shares no word with ("International" beside
        # us-gaap:NonUsMember in a table of that member alone): the taxonomy's meaning names it, read after every
        # exact name, so a member the company names so itself (an "International" segment) is found first, and
        # before a partial one ("International transaction revenue" is no region)
        key = _key(_spelled(qualifier))
        meant = [(axis, member) for axis, member in members
                 if any(_key(name) == key for name in _STANDARD_NAMES.get(member, ()))]
        if len({member for _, member in meant}) == 1:
            found = (meant, True)
    return found


# What analysts and filings call the taxonomy's own geographic members
_STANDARD_NAMES = {"us-gaap:NonUsMember": ("international", "non us", "outside united states", "outside us", "foreign")}


# Words that say a figure is every region's: no part of a member's name unless the name prints them
_ALL_REGIONS = frozenset({"worldwide", "global", "globally", "world-wide", "ww"})


def _find_member(qualifier: str, members: list[tuple[str, str]], labels: dict[str, set[str]],
                 owner: frozenset[str], metric_words: frozenset[str]) -> tuple[list[tuple[str, str]], bool]:
    spoken = "".join(w[0] for w in qualifier.split() if w not in _SMALL)  # "europe middle east africa" -> "emea"
    names = {(axis, member): member_names(member, labels.get(member, set()), owner) for axis, member in members}
    for pair, label in _alone_beside(members, labels, metric_words):
        names[pair].insert(len(names[pair]) - 1, label)
    # a word misspelled by one letter ("solutons") is the one member-name word it can be (agent.retrieval.spelling)
    want = as_printed(_key(qualifier), {w for found in names.values() for n in found for w in _key(n)})
    squashed = "".join(sorted(want))
    initialled = re.sub(r"[&./]", "", squashed)  # "P&W" is Pratt & Whitney's initials, its "&" no letter of them
    flat = _flat(" ".join(sorted(want, key=qualifier.find)))
    if not want:
        return [], False
    exact, partial = [], []
    for axis, member in members:
        for name in names[(axis, member)]:
            have = _key(name)
            if not have:
                continue
            initials = "".join(w[0] for w in re.findall(r"[a-z0-9]+", name.lower()))
            if have == want or (owner and have - owner == want and have & owner) or "".join(sorted(have)) == squashed or "".join(name.lower().split()) == "".join(
                    qualifier.lower().split()) or (len(want) == 1 and len(initials) > 1 and initialled == initials) \
                    or (len(want) == 1 and len(initials) > 1 and len(initialled) == len(initials) + 1
                        and initialled[1:] == initials and initialled[0] in {w[0] for w in owner if len(w) > 2}) \
                    or (len(have) == 1 and len(spoken) > 2 and next(iter(have)) == spoken) \
                    or (metric_words and have & metric_words and have - metric_words == want
                        and not (want - _key(_qname_name(member))) & _FIGURE_WORDS) \
                    or (len(flat) > 5 and _flat(name) == flat):
                # the last two: "Gross product sales" is the user's "gross product" + the metric's "sales";
                # crm:MarketingandCommerceCloudMember is "marketing & commerce cloud", its "and" run into a word
                exact.append((axis, member))
                break
            if want <= have and not want <= _VAGUE and not _names_a_row(want, have, member, name, metric_words):
                partial.append((axis, member))
                break
    if want <= _VAGUE and len({member for _, member in exact}) > 1:
        return [], False  # "Other" printed beside several members: which one is no guess to make
    return (exact, True) if exact else (list(dict.fromkeys(partial)), False)


# Words that name no member by themselves: "other revenue" is inside "Service revenues and other" and "All Other
# Countries", but names neither; such a qualifier names a member only by its whole name ("Other")
_VAGUE = frozenset({"other", "others", "all", "total", "remaining", "rest", "misc", "miscellaneous"})


# Words that make a label another figure of the member ("Cost of automotive revenues" beside the automotive
# revenues member): asked with one the member's name does not hold, the printed row is that figure, not the member
# ("cost of automotive revenues" is no automotive revenue), and row_members answers it.
_FIGURE_WORDS = frozenset({"cost", "expense", "income", "profit", "margin", "loss", "asset", "liability", "tax",
                           "earning", "deferred", "payable", "receivable"})


def _alone_beside(members: list[tuple[str, str]], labels: dict[str, set[str]], metric_words: frozenset[str]
                  ) -> list[tuple[tuple[str, str], str]]:
    """Labels printed beside one member only, sharing no word with its QName: the member's own name in the
    filing's table ("International" beside us-gaap:NonUsMember at Visa, "UCAN" beside a region member).

    Why: a member's name was read only from labels sharing its QName's words, so a region the filing calls
    "International" was found nowhere and "international revenue" took a partial match ("International
    transaction revenue"). A label printed beside several members ("Net sales", "Total") is a row's name, not
    a member's; one holding the asked metric's words names a figure; one with digits is a date or a note."""
    seen: dict[str, set[str]] = {}
    for member in {m for _, m in members}:
        for label in labels.get(member, set()):
            seen.setdefault(label.strip(), set()).add(member)
    # several countries printed beside one member are the places it is broken into (Walmart International's
    # Canada, China, United Kingdom rows), never its own name: "UK revenue" is no figure of the whole member
    places: dict[str, int] = {}
    for label, owners in seen.items():
        if len(owners) == 1 and label.lower() in _COUNTRY_NAMES:
            member = next(iter(owners))
            places[member] = places.get(member, 0) + 1
    out = []
    for label, owners in seen.items():
        if len(owners) != 1 or re.search(r"\d", without_note_refs(label)) or len(label.split()) > 4:
            continue
        member = next(iter(owners))
        if label.lower() in _COUNTRY_NAMES and places.get(member, 0) > 1:
            continue
        words = _key(label)
        if not words or words & metric_words or words & _key(_qname_name(member)) or words <= {"total", "other"}:
            continue
        out.extend(((axis, member), label) for axis, m in members if m == member)
    return sorted(out)


def _flat(name: str) -> str:
    """A name's letters without spaces, joining words or the words every member carries."""
    plain = unaccented(name).lower().replace("&", " ")
    words = [w for w in re.findall(r"[a-z0-9]+", plain) if w not in _GENERIC and w not in _SMALL]
    return "".join(words).replace("and", "")




# Words that make a member's name a place: regions, their abbreviations, and countries.
_PLACE_WORDS = frozenset().union(
    *(tokens(n) for names in COUNTRIES.values() for n in names),
    tokens("america americas north south latin europe european eurasia asia pacific africa middle east emea apac "
           "apla apj latam ucan international domestic foreign nonus non-us worldwide overseas greater rest world "
           "region regions canada china japan"),
) - {"new", "great"}
_REGION_ASKS = frozenset({"region", "regions", "geography", "geographies"})


def places_as_asked(word: str, axis: str, names: list[str]) -> bool:
    """Whether a breakdown asked "by region" (or geography) may be answered with these members of `axis`.
    Why: such a word falls back to the segment axis for companies whose segments are regions (Coca-Cola's
    "Latin America", McDonald's "International Operated Markets"); segments that name no place (Texas
    Instruments' Analog and Embedded Processing, Palantir's Commercial and Government) are not regions,
    and listing them as the regional split would answer another question."""
    if word not in _REGION_ASKS or "geograph" in axis.lower():
        return True
    placed = [n for n in names if tokens(n) & _PLACE_WORDS]
    return bool(names) and 2 * len(placed) >= len(names)


def axes_for(word: str, axes: list[str]) -> list[str]:
    """The axes a breakdown word ("segment", "product", "region") points to, in preference order."""
    for hint in AXIS_WORDS.get(word, ()):
        found = [a for a in axes if hint.lower() in a.lower()]
        if found:
            return found
    return []


# words that make the figure something no member is: a complement, or a non-GAAP adjustment
_NEGATING = frozenset({"outside", "excluding", "except", "ex", "non", "without", "other", "adjusted", "organic",
                       "core", "underlying", "recurring", "comparable", "same"})
_JOINERS = frozenset({"in", "from", "for", "of", "the", "its", "their", "by", "per", "across", "each", "and", "to", "at"})
_BETWEEN = frozenset({"and", "vs", "versus", "or"})  # kept between members: "iphone and mac revenue" is two


def plan_key(unmappable: str, leftover: list[str]) -> str | None:
    """'dim:<metric>|<qualifier>' or 'dim:<metric>|*<axis word>' for a narrowed metric phrase
    ("iphone revenue", "revenue by segment"), or None when it is no member ask ("revenue outside
    the US", "revenue per employee")."""
    from agent.retrieval.concepts import METRICS, PHRASES, UNKNOWN_METRICS, find_phrases, normalize

    norm = normalize(unmappable)
    if norm in {normalize(p) for p in UNKNOWN_METRICS}:
        return None  # a metric no table maps ("same store sales"), never a member's figure
    words = norm.split()
    spans = [(s, e, k) for s, e, k in find_phrases(norm, PHRASES) if k in METRICS]
    said = set(words) | set(leftover)
    if len(spans) != 1 or _NEGATING & said or {"pro", "forma"} <= said:
        return None
    start, end, metric = spans[0]
    rest = [w for i, w in enumerate(words) if not start <= i < end]
    costed = rest[2:] if rest[:2] in (["cost", "of"], ["costs", "of"]) else rest if leftover[:1] in (["cost"], ["costs"]) \
        and not {"cost", "costs"} & set(rest) else None
    if metric == "revenue" and costed and start == len(rest) and not set(costed) & _JOINERS:
        # "cost of automotive sales": the cost of revenue of the member the words name, printed with the sales word
        # its revenue row has ("Automotive sales" among the cost of revenues), never that member's revenue
        # with the revenue's own words, which may be the member's name ("Automotive sales", "Total automotive
        # revenues"); agent.retrieval.retrieve tries the member without them when none is named so ("Services")
        return f"dim:cost_of_revenue|{' '.join([*costed, *words[start:end]])}"
    if rest and rest[0] in ("by", "per", "across", "for", "each"):
        axis_word = next((w for w in rest[1:] if w in AXIS_WORDS), None)
        if axis_word or rest[0] != "for" or len(rest) < 2:
            return f"dim:{metric}|*{axis_word}" if axis_word else None
        rest = rest[1:]  # "operating income for North America": the member named after "for"
    # in the question's order: the phrase's own words when they hold the leftover ("iphone and mac",
    # where iPhone also named the company), else the leftover run ("data center")
    ordered = [*rest, *leftover] if set(leftover) <= set(rest) else [*leftover, *rest]
    qualifier = [w for w in dict.fromkeys(ordered) if (w not in _JOINERS or w in _BETWEEN) and not w.isdigit()]
    while qualifier and qualifier[0] in _BETWEEN:
        qualifier.pop(0)
    while qualifier and qualifier[-1] in _BETWEEN:
        qualifier.pop()
    if qualifier and all(w in AXIS_WORDS or w in _GENERIC for w in qualifier) \
            and any(w in AXIS_WORDS for w in qualifier):
        # "which segment's revenue grew fastest", "segment revenue": no member named, every member of the axis
        return f"dim:{metric}|*{next(w for w in qualifier if w in AXIS_WORDS)}"
    return f"dim:{metric}|{' '.join(qualifier)}" if qualifier else None


def member_parts(qualifier: str) -> list[str]:
    """A qualifier naming several members ("iphone and mac", "americas vs europe"), split; a member
    whose own name has "and" in it ("wearables home and accessories") is tried whole first."""
    return [p.strip() for p in re.split(r"\b(?:and|vs|versus|or)\b|,", qualifier) if p.strip()]


def key_parts(key: str) -> tuple[str, str, bool]:
    """(metric, qualifier or axis word, is a breakdown) of a 'dim:' key."""
    metric, _, rest = key[4:].partition("|")
    return metric, rest.lstrip("*"), rest.startswith("*")


def two_member_cell(conn, cik: int, concepts, fy: int, instant: bool, qualifier: str, labels: dict,
                    owner: frozenset[str]):
    """(the fact, both members' names) of the one two-axis fact whose members the qualifier's words name
    between them ("streaming emea": Streaming and EMEA), or None. Never one member's part alone: every word
    of the qualifier is one member's name or the other's, and one of the two names is whole."""
    from store.segments import member_cells

    words = qualifier.split()
    if len(words) < 2:
        return None
    found = []
    for fact, axis2, member2 in member_cells(conn, cik, concepts, fy, instant=instant):
        for cut in range(1, len(words)):
            for a, b in ((words[:cut], words[cut:]), (words[cut:], words[:cut])):
                one = find_member(" ".join(a), [(fact.axis, fact.member)], labels, owner)
                two = find_member(" ".join(b), [(axis2, member2)], labels, owner)
                if one[0] and two[0] and (one[1] or two[1]):  # each side names its member, one of them whole
                    found.append((fact, member2))
    if len({f.id for f, _ in found}) != 1:
        return None  # none, or several cells the words could name: refused with the members that exist
    fact, member2 = found[0]
    shown = [display_name(x, labels.get(x, set()), frozenset()) for x in (fact.member, member2)]
    return fact, ", ".join(shown)


def known_mistags(conn, memo: dict, cik: int) -> set[tuple[str, str, str]]:
    """store.segments.mistagged, read once per company while the memo lives: it reads every dimensional row label
    the company printed, and one member question looks members up several times (Coca-Cola's take 27 ms a read)."""
    from store import segments as segments_store

    key = ("mistagged", cik)
    if key not in memo:
        memo[key] = segments_store.mistagged(conn, cik)
    return memo[key]
