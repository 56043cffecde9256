"""A segment's, product's or region's figure for a quarter: which member, read as for a year.

Why apart: the member a question names ("Data Center", "Reality Labs") is found among the members the
company's 10-K tags for the metric (agent.retrieval.retrieve's member resolution, exact names first, refused
with the members that exist otherwise); its quarters are then that member's own three-month facts in the
10-Qs (store.quarters.member_period_facts), never the company's total nor a year's figure. The fiscal year
whose 10-K names the members is the quarter's own, else the nearest one held: members rarely change names.
"""

from __future__ import annotations

import re
from datetime import date

from agent.retrieval.concepts import METRICS
from agent.retrieval.line_items import tokens
from agent.retrieval.segments import _qname_name, display_name, find_member, key_parts, known_mistags
from store import quarters as quarters_store
from store import segments as segments_store


# agent.retrieval.retrieve's member resolution, lent by it when it loads: it reads quarters through
# agent.retrieval.quarter_figures, so this module may not import it (no import cycle).
_RESOLVE: dict = {}


def lend(member_cells, line_as_member_key) -> None:
    """Set the year's member resolution (retrieve._member_cells) and its line-phrase reading (_line_as_member)."""
    _RESOLVE.update(member_cells=member_cells, line_as_member=line_as_member_key)


def _years(period: dict, cal) -> list[int]:
    """Fiscal years to read the members from, the quarter's own first."""
    held = sorted({fy for fy, _, _ in cal.quarter_ends()}, reverse=True)
    first = period.get("fiscal_year")
    if first is None and period.get("end"):
        found = cal.locate(date.fromisoformat(period["end"]))
        first = found[0] if found else None
    if first is None:
        first = held[0] if held else None
    if first is None:
        return []
    return list(dict.fromkeys([first, first + 1, first - 1, *held]))


def member_measure(conn, memo: dict, company: dict, key: str, cal, period: dict):
    """(concepts, [(axis, member), ...], is a balance, label) of a `dim:` key's one member (its other names after
    it), or None when no year's members hold the one named."""
    _member_cells = _RESOLVE.get("member_cells")
    metric, qualifier, breakdown = key_parts(key)
    if _member_cells is None:
        return None
    if qualifier.startswith("=") or metric not in METRICS:
        return None
    m = METRICS[metric]
    instant = m.period == "instant"
    annual_members = False
    for fy in _years(period, cal):
        found = _member_cells(conn, None, company, key, fy, {})
        if len(found) != 1 or found[0][1] is None:  # a breakdown's every member ("by segment"): a year's table
            annual_members = annual_members or any(cell.get("members") for cell, _ in found)
            continue
        cell = found[0][0]
        axis = next((r.axis for r in segments_store.member_values(conn, company["cik"], [cell["concept"]], fy,
                                                                  instant=instant,
                                                                  wrong=known_mistags(conn, memo, company["cik"]))
                     if r.member == cell["member"]), None)
        if axis is None:  # a cell of two members ("Walmart U.S. grocery"): a year's matrix, not a member's quarters
            return None
        concepts = list(dict.fromkeys([cell["concept"], *segments_store.qualified(m.concepts)]))
        return concepts, renamed(conn, company["cik"], concepts, axis, cell["member"]), instant, cell["label"]
    if annual_members or breakdown:  # the 10-Ks list the metric's members and this one is not among them: that
        return None  # refusal stands; a breakdown ("by product") names no one member
    return _quarterly_member(conn, memo, company, metric, qualifier)


_AXIS_ORDER = ("segment", "productorservice", "geographical")


def _likeliest(found: list[tuple[str, str]], qualifier: str, labels: dict, metric_words: frozenset[str]
               ) -> list[tuple[str, str]]:
    """Of members on several axes that the qualifier names exactly, the one it names best. A member may carry a
    label printed on a row of two members ("Theme park admissions" beside the Parks segment), so its own QName's
    words come first, all of them before a part (AdmissionMember, not DisneyParksExperiencesAndProductsMember;
    EnergyandTransportationMember, not the Transportation customers within it); then a member whose printed
    row names the figure in the question's words ("Revenues of Financial Products", not the segment table's
    "Financial Products Segment"); then the segment axis, as a year's figure is read (agent.retrieval.retrieve)."""
    want = tokens(qualifier)
    own = [f for f in found if tokens(_qname_name(f[1])) == want] \
        or [f for f in found if (q := tokens(_qname_name(f[1]))) and (q <= want or want <= q)]
    found = own or found
    said = tokens(" ".join(metric_words))
    named = [f for f in found if any((t := tokens(lab)) & said and want <= t <= want | said
                                     for lab in labels.get(f[1], ()))]
    found = named or found
    return sorted(found, key=lambda f: next((i for i, a in enumerate(_AXIS_ORDER) if a in f[0].lower()), 9))


def _quarterly_member(conn, memo: dict, company: dict, metric: str, qualifier: str):
    """The member as only the 10-Qs tag it: a company whose 10-K is not held (or tags no member of the metric)
    still names its segments in each quarter's table ("Aerospace" at Honeywell, "Financial Products" at
    Caterpillar). The name is matched as for a year (segments.find_member over the members' printed labels),
    and only one member found by its whole name counts: never a guess among several."""
    cik = company["cik"]
    m = METRICS[metric]
    concepts = segments_store.qualified(m.concepts)
    pairs = quarters_store.axis_members(conn, cik, concepts)
    if not pairs or not qualifier or qualifier.startswith(("=", "*")):
        return None
    if ("member_labels", cik) not in memo:
        memo[("member_labels", cik)] = segments_store.member_labels(conn, cik)
    labels = memo[("member_labels", cik)]
    owner = frozenset(re.findall(r"[a-z0-9]+", (company.get("name") or "").lower()))
    metric_words = frozenset(w for s in m.synonyms for w in re.findall(r"[a-z0-9]+", s.lower()))
    found, exact = find_member(qualifier, pairs, labels, owner, metric_words=metric_words)
    found = list(dict.fromkeys(found))
    if not exact or len({axis for axis, _ in found}) != len(found):
        return None  # two members of one axis go by the name: which one is the user's to say
    if len(found) > 1:
        found = _likeliest(found, qualifier, labels, metric_words)
    axis, member = found[0]
    label = f"{m.label} ({display_name(member, labels.get(member, set()), metric_words)})"
    return concepts, renamed(conn, cik, concepts, axis, member), m.period == "instant", label


def _bare(member: str) -> str:
    """A member's QName without its prefix and the words that only say it is a member or a segment."""
    local = member.split(":", 1)[-1]
    return re.sub(r"(?:Segment)?Member$", "", local).lower()


def renamed(conn, cik: int, concepts: list[str], axis: str, member: str) -> list[tuple[str, str]]:
    """(axis, member) of the member found and of its other QNames: a filer may tag one unit under two names
    between filings (wmt:WalmartInternationalSegmentMember in a 10-Q, wmt:WalmartInternationalMember in the
    10-K), told apart only by the words that say it is a segment. Each is read on its own, never mixed."""
    return [(axis, member), *((a, m) for a, m in quarters_store.axis_members(conn, cik, concepts)
                              if (a, m) != (axis, member) and _bare(m) == _bare(member))]


def line_as_member(key: str) -> str | None:
    """A `line:` key no printed row names, made of one table metric and other words: the member's `dim:` key."""
    resolve = _RESOLVE.get("line_as_member")
    return resolve(key) if resolve is not None else None
