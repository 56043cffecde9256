"""A printed line narrowed by a segment, product or region ("long-lived assets in Israel", "Aerospace
intangible assets"): the line's concept, on the member's dimensional fact.

Why: the member lookup of agent.retrieval.segments narrows one of the table's metrics; a line the
table does not hold ("Long-lived assets", "Intangible assets – net") was refused, or worse, answered
with the company's total with the member's words dropped. Here the question's words are split into a
row's name and a member's name, each matched exactly (agent.retrieval.line_items.resolve,
segments.find_member): the first split where both hold, the member's fact of that concept is the
figure. Nothing else answers: an unmatched word is never dropped.
"""

from __future__ import annotations

from agent.retrieval.concepts import PHRASES, find_phrases, normalize
from agent.retrieval.line_items import (LineMatch, company_line, labels_of, line_key, printed_label, same_printed_row,
                                         tokens)
from agent.retrieval.segments import AXIS_WORDS, GENERIC, find_member, known_mistags, member_names

import re

_REVENUE_WORDS = frozenset({"revenue", "sale"})  # as `tokens` reads them
_REVENUE_CONCEPT = re.compile(r":(?:Revenues?|RevenueFromContractWithCustomer\w*|SalesRevenue\w*)$")
_COST_WORDS = frozenset({"cost"})
_COST_CONCEPT = re.compile(r":(?:CostOfRevenue|CostOfGoodsAndServicesSold|CostOfServices|CostOfGoodsSold\w*)$")

# Words between a row's name and its member's ("assets in Israel", "revenue from the Americas").
_LINKING = frozenset("in of for from the at by its their to on".split())
_MOST_WORDS = 6  # a longer phrase is a sentence, not a row and a member


def row_on_member(conn, memo: dict, company: dict, said: str, fy: int, optional: str = ""):
    """(the row's LineMatch, the member's store.segments.MemberFact) for the phrase `said`, or None."""
    from store import segments as segments_store

    cik = company["cik"]
    words = [w for w in normalize(said).split() if w not in _LINKING]
    if not 2 <= len(words) <= _MOST_WORDS:
        return None
    if ("member_labels", cik) not in memo:
        memo[("member_labels", cik)] = segments_store.member_labels(conn, cik)
    labels = memo[("member_labels", cik)]
    owner = frozenset(w for w in tokens(company.get("name") or ""))
    whole = _printed_on_member(conn, memo, cik, said, fy, optional)
    if whole is not None:
        return whole
    metric_spans = [(a, b) for a, b, _ in find_phrases(" ".join(words), PHRASES)]
    spans = sorted(((i, j) for i in range(len(words)) for j in range(i + 1, len(words) + 1) if j - i < len(words)
                    if not _cuts(metric_spans, i, j) and not _holds_metric(metric_spans, i, j)),
                   key=lambda s: (s[1] - s[0], s[0]))
    for i, j in spans:
        row_words = words[:i] + words[j:]
        match, candidates = company_line(conn, memo, cik, line_key(" ".join(row_words)))
        if match is None and same_printed_row(candidates):
            # one printed row filed under two concepts across the years ("EARNINGS BEFORE INCOME TAXES" at P&G): the
            # concept with the member's facts that year
            match = next((LineMatch(m.concept, printed_label(m), m.source, m.statement) for m in candidates
                          if _member_facts(conn, memo, cik, m, fy)), None)
        if match is None:
            match = _member_table_row(labels_of(conn, memo, cik), " ".join(row_words))
        if match is None:
            continue
        facts = _member_facts(conn, memo, cik, match, fy)
        if not facts:
            continue
        found, exact = find_member(" ".join(words[i:j]), [(f.axis, f.member) for f in facts], labels, owner)
        if exact and len({m for a, m in found if a == found[0][0]}) == 1 \
                and not _dropped(words[i:j], found[0][1], labels, owner):
            return match, next(f for f in facts if (f.axis, f.member) == found[0])
    return None


def _member_table_row(labels: list[dict], said: str) -> LineMatch | None:
    """The row printed only in a table of members under the phrase's words as its whole name (Nike's "EARNINGS (LOSS)
    BEFORE INTEREST AND TAXES" beside each geographic segment), one concept only: the row a member's figure is
    asked of, which the company prints on no line of its own."""
    want = tokens(said)
    rows = {r["concept"]: r for r in labels if r["dims"] and want and tokens(r["label"]) == want}
    if len(rows) != 1 or any(not r["dims"] and tokens(r["label"]) == want for r in labels):
        return None
    row = next(iter(rows.values()))
    return LineMatch(row["concept"], row["label"], "company", row["statement"])


def _cuts(metric_spans: list[tuple[int, int]], i: int, j: int) -> bool:
    """The member's words [i, j) take part of a metric's phrase and leave the rest to the row: "operating income
    for that segment" split into the row "operating" (Home Depot's "Total operating expenses") and a member
    "income segment" named a true figure of another line. A metric's phrase is the row's or the member's whole."""
    return any(a < j and i < b and not (i <= a and b <= j) for a, b in metric_spans)


def _holds_metric(metric_spans: list[tuple[int, int]], i: int, j: int) -> bool:
    """The member's words [i, j) hold a whole metric's phrase: a line, never a member's name. An equity-method
    investee's column prints "Current assets" and "Noncurrent assets" beside its member, and read as the member's
    names they turned "KO non-current assets to equity" into the investees' total equity."""
    return any(i <= a and b <= j for a, b in metric_spans)


def _printed_on_member(conn, memo: dict, cik: int, said: str, fy: int, optional: str = ""):
    """The one member's row printed with the phrase's words as its whole name ("Total automotive cost of revenues",
    CostOfRevenue on tsla:AutomotiveRevenuesMember): that row's fact, before any split of the words.

    Why: split into a row ("cost of revenues") and a member ("automotive"), the phrase found the Automotive
    segment's cost of revenues, another figure than the row the company prints under those very words."""
    found = member_row(conn, memo, cik, said, optional)
    if found is None:
        return None
    match, axis, member = found
    fact = next((f for f in _member_facts(conn, memo, cik, match, fy) if (f.axis, f.member) == (axis, member)), None)
    return (match, fact) if fact is not None else None


def member_row(conn, memo: dict, cik: int, said: str, optional: str = "") -> tuple[LineMatch, str, str] | None:
    """(the row, its axis, its member) when the company prints the phrase's words as the whole name of a row
    on one member only ("Cost of wireless equipment": CostOfGoodsAndServicesSold on ProductMember), else None.
    `optional`: words the user wrote that the row's name may hold ("sold" of "cost of equipment sold"). A
    primary statement's row wins over a note's printed alike ("Cost of services" over the pension note's
    "Service cost")."""
    from agent.retrieval.line_items import PRIMARY, labels_of

    want = tokens(said)
    if not want:
        return None
    spare = tokens(optional) - want
    rows = [r for r in labels_of(conn, memo, cik) if r["dims"] and want <= tokens(r["label"]) <= want | spare]
    for kind, concepts in ((_REVENUE_WORDS, _REVENUE_CONCEPT), (_COST_WORDS, _COST_CONCEPT)):
        named = want - kind
        if not rows and named and named != want:
            # "revenue from sales of equipment", "hardware and accessories sales", "cost of services and other": a
            # member's row named with its figure's own word beside its printed name ("Sales of equipment" on
            # ProductMember, "Services and other" among the costs); only that figure's concept, every other word the row's
            rows = [r for r in labels_of(conn, memo, cik) if r["dims"] and concepts.search(r["concept"])
                    and named <= tokens(r["label"]) <= want | spare]
    rows = [r for r in rows if r["statement"] in PRIMARY] or rows
    pairs = {(r["concept"], a, m) for r in rows for a, m in r["dims"].items() if a != "srt:ConsolidationItemsAxis"
             if len({k for k in r["dims"] if k != "srt:ConsolidationItemsAxis"}) == 1}
    if len(pairs) != 1:
        return None
    concept, axis, member = next(iter(pairs))
    row = next(r for r in rows if r["concept"] == concept)
    return LineMatch(concept, row["label"], "company", row["statement"]), axis, member


def _dropped(member_words: list[str], member: str, labels: dict, owner: frozenset[str]) -> bool:
    """Whether the member's side of a split holds a word member matching ignores ("operating", "reportable")
    that the member's names do not print: a row's word ("Beauty operating profit" is no "profit" row of
    Beauty), which the split would drop. Axis words ("segment", "region") only say which kind it is."""
    printed = {w for name in member_names(member, labels.get(member, set()), owner) for w in tokens(name)}
    return any(w in GENERIC and w not in AXIS_WORDS and w not in printed for w in member_words)


def _member_facts(conn, memo: dict, cik: int, match: LineMatch, fy: int) -> list:
    from store import segments as segments_store

    key = ("row_members", cik, match.concept, fy)
    if key not in memo:
        wrong = known_mistags(conn, memo, cik)
        facts = segments_store.member_values(conn, cik, [match.concept], fy, instant=True, wrong=wrong)
        memo[key] = facts or segments_store.member_values(conn, cik, [match.concept], fy, instant=False, wrong=wrong)
    return memo[key]
