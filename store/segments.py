"""Dimensional facts (a segment's, a product's, a region's figure) and the members a company reports.

Why only one axis: a fact on one axis ("Data Center" on the segment axis) is a figure the filing
states; a fact on two axes (a product within a region) is a cell of a matrix the question did not
ask for. The consolidation axis's "operating segments" member only says a segment figure is one. Per member, the rules of store.facts apply: the first acceptable concept that has a
value, the most recent filing. A filing that tags the member both plainly and beside "operating segments"
(GE: 14,974 plainly, 15,050 before intersegment eliminations) is answered with the plain fact, the one
its revenue table states; before this tie was broken by the query plan, so the same question could get
either figure. The plain fact wins over any concept's marked one: RTX tags Collins Aerospace's sales to
customers (24,294, RevenueFromContractWithCustomer...) plainly and its sales before eliminations (26,253) as
Revenues beside "operating segments"; the segment's sales are the former, what the company sold. Served by
facts_dims_lookup.

One exception (member_pair_values): a member the filing tags only beside one other member, always the
same one ("Humira" with its "Immunology" portfolio; "EMEA" with "Streaming", Netflix's one business), or
only beside one fixed pair of others ("Stelara" with Immunology and Innovative Medicine).
That pairing adds nothing to the member, so its single fact is the member's own figure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import psycopg

from store.facts import edgar_index_url, reading_unit

# The axes that only say a figure is a segment's ("operating segments" on the consolidation axis; Intel tags
# it on the consolidated-entities axis instead): dropped from a fact's dimensions when their member is that one,
# and a fact with any other member on them (eliminations, the parent company alone) is no member's figure.
_SEGMENT_MARKS = ("srt:ConsolidationItemsAxis", "srt:ConsolidatedEntitiesAxis")
_OPERATING_SEGMENTS = "us-gaap:OperatingSegmentsMember"
_PLAIN = "(f.dims - 'srt:ConsolidationItemsAxis' - 'srt:ConsolidatedEntitiesAxis')"

MEMBER_VALUES = f"""
SELECT DISTINCT ON {_PLAIN} f.id, f.taxonomy, f.concept, f.unit, f.value, f.period_start, f.period_end, f.accession,
       coalesce(f.filed, fl.filed), coalesce(fl.form, f.form), coalesce(fl.fiscal_year, f.fy), fl.url, f.dims
  FROM facts f LEFT JOIN filings fl ON fl.accession = f.accession
 WHERE f.cik = %(cik)s AND f.dimensional
   AND f.concept = ANY(%(names)s) AND (f.taxonomy || ':' || f.concept) = ANY(%(concepts)s)
   AND f.fiscal_year = %(fy)s
   AND coalesce(f.form, fl.form, '10-K') IN ('10-K', '10-K/A', '10-KT', '10-KT/A')
   AND ((%(instant)s AND f.period_start IS NULL)
        OR (NOT %(instant)s AND f.period_start IS NOT NULL AND f.period_end - f.period_start BETWEEN 350 AND 380))
   AND (SELECT count(*) FROM jsonb_object_keys{_PLAIN}) = 1
   AND coalesce(f.dims ->> 'srt:ConsolidationItemsAxis', '{_OPERATING_SEGMENTS}') = '{_OPERATING_SEGMENTS}'
   AND coalesce(f.dims ->> 'srt:ConsolidatedEntitiesAxis', '{_OPERATING_SEGMENTS}') = '{_OPERATING_SEGMENTS}'
 ORDER BY {_PLAIN}, f.dims ? 'srt:ConsolidationItemsAxis' OR f.dims ? 'srt:ConsolidatedEntitiesAxis',
          array_position(%(concepts)s, f.taxonomy || ':' || f.concept),
          coalesce(f.filed, fl.filed) DESC NULLS LAST, f.period_end DESC, f.accession DESC
"""

MEMBER_PAIR_VALUES = MEMBER_VALUES.replace(f"jsonb_object_keys{_PLAIN}) = 1", f"jsonb_object_keys{_PLAIN}) = 2")
# Facts on two or three axes: a product may sit under its portfolio and its segment both ("Stelara" beside
# Immunology and Innovative Medicine), each fact one cell of that single chain.
MEMBER_GROUP_VALUES = MEMBER_VALUES.replace(f"jsonb_object_keys{_PLAIN}) = 1",
                                            f"jsonb_object_keys{_PLAIN}) BETWEEN 2 AND 3")

MEMBER_LABELS = """
SELECT DISTINCT accession, table_no, label, dims FROM line_labels WHERE cik = %s AND dims <> '{}'::jsonb
"""
# A member beside more distinct row names than this in one table is a column of line items ("Cost of services",
# "Operating income", "Balance at December 31, 2023" beside a segment's or an equity component's column), and those
# names are its rows', not its own. A member's own row in a table by member prints one name, two at most ("Google
# Services" and "Google Services total").
ROW_NAMES_OF_A_MEMBER = 2


@dataclass(frozen=True)
class MemberFact:
    id: int
    concept: str  # qualified
    unit: str
    value: Decimal
    period_start: date | None
    period_end: date
    accession: str
    filed: date | None
    form: str | None
    filing_fiscal_year: int | None
    url: str
    axis: str
    member: str


def _plain(dims: dict) -> dict:
    """A fact's dimensions without the axes that only mark it a segment's (_SEGMENT_MARKS)."""
    return {a: m for a, m in dims.items() if a not in _SEGMENT_MARKS}


def _other_mark(dims: dict) -> bool:
    """Whether a fact's consolidation axis names a member other than "operating segments" (eliminations,
    corporate, the parent alone): its row is that member's, no plain member's."""
    return any(dims.get(axis, _OPERATING_SEGMENTS) != _OPERATING_SEGMENTS for axis in _SEGMENT_MARKS)


def qualified(concepts) -> list[str]:
    """Concept names with their taxonomy: a bare name ("Revenues") is the US GAAP taxonomy's."""
    return [c if ":" in c else f"us-gaap:{c}" for c in concepts]


def member_values(conn: psycopg.Connection, cik: int, concepts: list[str], fiscal_year: int, *,
                  instant: bool, wrong: set[tuple[str, str, str]] | None = None) -> list[MemberFact]:
    """One fact per (axis, member) for the fiscal year, among `concepts` ("taxonomy:Name", or a bare name of
    the US GAAP taxonomy, as the metric table writes most of them). `wrong`: the company's `mistagged`, when the
    caller keeps it (it reads every dimensional row label the company printed)."""
    out = []
    rows = _rows(conn, MEMBER_VALUES, cik, concepts, fiscal_year, instant)
    if rows and wrong is None:
        wrong = mistagged(conn, cik)
    for row in rows:
        (axis, member), = _plain(row[-1]).items()  # "operating segments": the segment's own figure
        if (row[7], axis, member) not in wrong:
            out.append(_fact(cik, row, axis, member))
    return out


def member_pair_values(conn: psycopg.Connection, cik: int, concepts: list[str], fiscal_year: int, *,
                       instant: bool) -> list[MemberFact]:
    """Members found only on two-axis facts, each with its one pairing's fact (see the module's note):
    a member paired with several others (a product in each region) is a matrix, never returned. `concepts`: as
    `member_values` takes them."""
    seen: dict[tuple[str, str], list] = {}
    for row in _rows(conn, MEMBER_GROUP_VALUES, cik, concepts, fiscal_year, instant):
        dims = _plain(row[-1])
        for axis, member in dims.items():
            seen.setdefault((axis, member), []).append(row)
    out = []
    for (axis, member), found in seen.items():
        # the member's fewest-axis facts are its own figure when there is one: a member on a pair (Humira with
        # Immunology) keeps that pair whatever three-axis cells it also sits in (Humira in the U.S.)
        fewest = min(len(_plain(r[-1])) for r in found)
        found = [r for r in found if len(_plain(r[-1])) == fewest]
        if len(found) != 1:
            continue
        others = [(a, m) for a, m in _plain(found[0][-1]).items() if (a, m) != (axis, member)]
        if fewest == 3 and any(_GEOGRAPHIC.search(a) or _GEOGRAPHIC.search(m) for a, m in others):
            continue  # a product tagged only within one country is that country's part, never its whole
        if fewest == 3 and any(len(seen[o]) < 2 for o in others):
            # the chain's innermost member only: its portfolio and segment hold other products too. A segment
            # member tagged once beside one product (a retired "Pharmaceutical" beside TECVAYLI) is that product's
            continue
        out.append(_fact(cik, found[0], axis, member))
    return out


_GEOGRAPHIC = re.compile(r"Geographic|^country:|(?:^|:)(?:US|NonUs|NonUS|Domestic|Foreign|International)\w*Member$")


def member_cells(conn: psycopg.Connection, cik: int, concepts: list[str], fiscal_year: int, *,
                 instant: bool) -> list[tuple[MemberFact, str, str]]:
    """Every two-axis fact of the year (a product within a segment, a product within a region), as
    (the fact on its first axis, the second axis, the second member): the cell a question names by both
    members ("Walmart U.S. grocery", "streaming revenues in EMEA") is a figure the filing states."""
    out = []
    for row in _rows(conn, MEMBER_PAIR_VALUES, cik, concepts, fiscal_year, instant):
        (axis, member), (axis2, member2) = sorted(_plain(row[-1]).items())
        out.append((_fact(cik, row, axis, member), axis2, member2))
    return out


def _rows(conn: psycopg.Connection, query: str, cik: int, concepts: list[str], fiscal_year: int,
          instant: bool) -> list[tuple]:
    concepts = qualified(concepts)
    return conn.execute(query, {
        "cik": cik, "names": [c.split(":", 1)[1] for c in concepts], "concepts": concepts, "fy": fiscal_year,
        "instant": instant,
    }).fetchall()


def _fact(cik: int, row: tuple, axis: str, member: str) -> MemberFact:
    fid, tax, concept, unit, value, pstart, pend, acc, filed, form, ffy, url, _dims = row
    return MemberFact(fid, f"{tax}:{concept}", reading_unit(concept, unit), Decimal(value), pstart, pend, acc, filed, form, ffy,
                      url or edgar_index_url(cik, acc), axis, member)


def member_labels(conn: psycopg.Connection, cik: int) -> dict[str, set[str]]:
    """Member QName -> the names the company prints for the member: the rows that are the member (_naming_rows), and
    two-axis rows sharing its words (below)."""
    out: dict[str, set[str]] = {}
    # a row beside another member of the consolidation axis (eliminations, corporate and other) is that member's
    # row: Comcast prints "Headquarters and Other" beside its Content & Experiences business unit with
    # CorporateNonSegmentMember, and read as the unit's name it answered "headquarters and other revenue" with
    # the whole unit's
    found = [(acc, table, label, dims) for acc, table, label, dims in conn.execute(MEMBER_LABELS, (cik,)).fetchall()
             if not _other_mark(dims)]
    rows = list(dict.fromkeys((label, _frozen(dims)) for _, _, label, dims in found))
    rows = [(label, dict(dims)) for label, dims in rows]
    for label, member in _naming_rows(found):
        out.setdefault(member, set()).add(label)
    # a row on two axes ("Hill's Pet Nutrition" in a restructuring table by segment) may be the only
    # place a member's printed name appears: kept as a candidate for each of its members, which the
    # reader (agent.retrieval.segments) keeps only when the label shares the member's own words. A member
    # printed only on such rows ("YouTube ads", a product tagged with its segment) gets its names there too.
    # Of the row's two members, only the one whose QName holds most of the label's words takes it: "Google
    # Network" on a row of goog:GoogleNetworkMember within goog:GoogleServicesMember names the product, and
    # read as the segment's name it answered "Google Network revenue" with the whole segment's.
    for label, dims in rows:
        dims = _plain(dims)
        if len(dims) == 2:
            scores = {member: _label_in_qname(label, member) for member in dims.values()}
            best = max(scores.values())
            if not best:
                # a label sharing no word with either member ("International" on a segment's non-U.S. cell) names
                # neither: taken by both, it hid the one-axis row that names us-gaap:NonUsMember "International"
                continue
            for member, score in scores.items():
                if score == best:
                    out.setdefault(member, set()).add(label)
    return out


def _frozen(dims: dict) -> tuple:
    return tuple(sorted(dims.items()))


def _naming_rows(found: list[tuple]) -> list[tuple[str, str]]:
    """(label, member) of the one-axis rows that name their member: in each table, a label printed beside one
    member of its axis only, for a member beside few names there (ROW_NAMES_OF_A_MEMBER), and in a table of that
    member alone one sharing a word with its QName. A table whose columns are members prints each row's name beside
    every column, and many names beside each: those are the rows' names (Verizon's "Cost of services" beside its
    Consumer column), never the member's."""
    tables: dict[tuple, list[tuple[str, str]]] = {}
    for acc, table, label, dims in found:
        plain = _plain(dims)
        if len(plain) == 1:
            (axis, member), = plain.items()
            tables.setdefault((acc, table, axis), []).append((label, member))
    out = []
    for pairs in tables.values():
        members_of: dict[str, set[str]] = {}
        labels_of: dict[str, set[str]] = {}
        for label, member in pairs:
            members_of.setdefault(label, set()).add(member)
            labels_of.setdefault(member, set()).add(label)
        alone = len(labels_of) == 1  # the table's one member of the axis: its rows may be any lines of it
        out += [(label, member) for label, member in dict.fromkeys(pairs)
                if len(members_of[label]) == 1 and len(labels_of[member]) <= ROW_NAMES_OF_A_MEMBER
                and (not alone or _label_in_qname(label, member) > 0)]
    return out


def _label_in_qname(label: str, member: str) -> int:
    """How many of a label's words the member's QName spells (letters run together: "YouTube" in
    goog:YouTubeAdvertisingRevenueMember)."""
    flat = re.sub(r"[^a-z0-9]", "", member.split(":", 1)[-1].lower())
    return sum(1 for w in re.findall(r"[a-z0-9]+", label.lower()) if len(w) >= 3 and w in flat)


MEMBER_ROWS = """
SELECT DISTINCT accession, label, dims FROM line_labels WHERE cik = %s AND dims <> '{}'::jsonb
"""

_NAME_FILLER = frozenset({"member", "segment", "segments", "and", "the", "of", "total"})


def _name_words(text: str) -> frozenset[str]:
    """A printed label's or a member QName's words, case and the words every member carries aside
    (amd:DataCenterMember and "Data Center" are both {"data", "center"})."""
    text = re.sub(r"\(\s*\d+\s*\)", " ", text.split(":", 1)[-1] if ":" in text and " " not in text else text)
    text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)
    return frozenset(w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _NAME_FILLER)


def mistagged(conn: psycopg.Connection, cik: int) -> set[tuple[str, str, str]]:
    """(accession, axis, member) of the members a filing tags on rows it prints under another member's name.

    Why: AMD's 10-Q for the quarter ended July 1, 2023 tags its "Data Center" row with ClientMember, its
    "Client" row with GamingMember and its "Gaming" row with DataCenterMember. Read by the tag, "gaming revenue"
    was the Client row's $998 million, a figure the filing prints for another segment. Where the printed name
    is exactly another member's of the same axis in the same filing and shares no word with the tagged
    member's own, the tag and the table disagree, and that filing's figures of the member are not used."""
    by_filing: dict[str, list[tuple[str, dict]]] = {}
    for accession, label, dims in conn.execute(MEMBER_ROWS, (cik,)).fetchall():
        if not _other_mark(dims):
            by_filing.setdefault(accession, []).append((label, _plain(dims)))
    out = set()
    for accession, rows in by_filing.items():
        members: dict[str, set[str]] = {}
        named: set[str] = set()  # members printed somewhere in the filing under their own name
        for label, dims in rows:
            if len(dims) == 1:
                (axis, member), = dims.items()
                members.setdefault(axis, set()).add(member)
                if _name_words(label) and _name_words(label) == _name_words(member):
                    named.add(member)
        for label, dims in rows:
            if len(dims) != 1:
                continue
            (axis, member), = dims.items()
            said = _name_words(label)
            if not said or said & _name_words(member):
                continue
            # the other member must itself go unprinted by its name: a shuffle of rows and tags (AMD's), not a
            # second member of the same meaning ("International" beside us-gaap:NonUsMember where an
            # InternationalMember is printed as itself elsewhere)
            if any(other != member and _name_words(other) == said and other not in named for other in members.get(axis, ())):
                out.add((accession, axis, member))
    return out
