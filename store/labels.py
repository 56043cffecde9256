"""Statement row labels (ingest.line_items) in and out: the company's own names for its line items.

Rows are replaced per filing, inside the caller's transaction, so a filing's labels change with
its facts (ingest) or alone (`footnote ingest --from DIR --refresh-labels`, which touches nothing
else and re-embeds nothing).
"""

from __future__ import annotations

from collections.abc import Sequence

import psycopg
from psycopg.types.json import Jsonb

DELETE = "DELETE FROM line_labels WHERE accession = %s"
COPY = ("COPY line_labels (accession, cik, taxonomy, concept, label, statement, table_no, row_no, negated, dims) "
        "FROM STDIN")
# One row per (label, concept, dims) a company has printed, newest filing first: what a question
# is resolved against. Served by line_labels_cik.
FOR_COMPANY = """
SELECT DISTINCT ON (l.label, l.taxonomy, l.concept, l.dims) l.label, l.taxonomy, l.concept, l.statement, l.dims,
       l.negated, l.row_no
  FROM line_labels l LEFT JOIN filings f ON f.accession = l.accession
 WHERE l.cik = %s
 ORDER BY l.label, l.taxonomy, l.concept, l.dims, f.fiscal_year DESC NULLS LAST
"""
# The concepts a company has annual non-dimensional facts for: their standard labels (the concept
# name in words) answer when no printed row does. Served by facts_lookup.
CONCEPTS = """
SELECT DISTINCT taxonomy, concept FROM facts
 WHERE cik = %s AND NOT dimensional AND taxonomy <> 'dei' AND period_start IS NOT NULL
"""
INSTANT_CONCEPTS = """
SELECT DISTINCT taxonomy, concept FROM facts
 WHERE cik = %s AND NOT dimensional AND taxonomy <> 'dei' AND period_start IS NULL
"""
STORED_FILINGS = "SELECT accession FROM filings WHERE accession = ANY(%s)"
# Printed rows whose label or concept joins two words with "and" ("Sales and marketing",
# LiabilitiesAndStockholdersEquity): what tells one line's name from two asks in a question.
JOINED = r"""
SELECT DISTINCT cik, label, concept FROM line_labels
 WHERE label ~* '\m(and)\M|&' OR concept ~ '[a-z]And[A-Z]'
"""

# The company-wide rows of each company's primary statements: a question naming one of them whole ("assets held for
# sale") asks for that row, not for the table metrics its words hold (agent.planning.words.claim_printed_rows)
PRIMARY_ROWS = """
SELECT DISTINCT cik, label, concept FROM line_labels
 WHERE statement IN ('income', 'balance', 'cash') AND dims = '{}'::jsonb
"""

# Every name a primary-statement row is printed under, company-wide rows and rows printed only on a
# product or service member ("Cost of wireless equipment", "Cost of products": CostOfGoodsAndServicesSold on
# ProductMember, the statement's own row with no company-wide twin): what a question or a formula's operand
# may name when it is no table metric ("marketing expense over revenue").
PRINTED_NAMES = """
SELECT DISTINCT label, concept FROM line_labels
 WHERE statement IN ('income', 'balance', 'cash')
   AND (dims = '{}'::jsonb
        OR (dims ? 'srt:ProductOrServiceAxis'
            AND dims - 'srt:ProductOrServiceAxis' - 'srt:ConsolidationItemsAxis' = '{}'::jsonb))
"""


def replace_labels(conn: psycopg.Connection, accession: str, cik: int, items: Sequence) -> int:
    """Replace one filing's rows with `items` (ingest.line_items.LineItem). Call inside a transaction."""
    conn.execute(DELETE, (accession,))
    if not items:
        return 0
    with conn.cursor() as cur, cur.copy(COPY) as copy:
        for i in items:
            copy.write_row((accession, cik, i.taxonomy, i.concept, i.label, i.statement, i.table_no, i.row_no,
                            i.negated, Jsonb(i.dims)))
    return len(items)


def filing_cik(conn: psycopg.Connection, accession: str) -> int:
    return int(conn.execute("SELECT cik FROM filings WHERE accession = %s", (accession,)).fetchone()[0])


def stored_filings(conn: psycopg.Connection, accessions: Sequence[str]) -> set[str]:
    return {r[0] for r in conn.execute(STORED_FILINGS, (list(accessions),)).fetchall()}


def company_labels(conn: psycopg.Connection, cik: int) -> list[dict]:
    """Every printed row label of the company: {label, concept (qualified), statement, dims, negated}."""
    return [
        {"label": label, "concept": f"{tax}:{concept}", "statement": statement, "dims": dims or {},
         "negated": negated, "row": row}
        for label, tax, concept, statement, dims, negated, row in conn.execute(FOR_COMPANY, (cik,)).fetchall()
    ]


# A note's schedule whose rows add up to a total printed below them ("Personnel costs", "Other" above "Total accrued
# expenses"): each row's name and concept with the name of the first total below it, the heading the rows are printed
# under in other words. Served by line_labels_cik.
SCHEDULE_TOTALS = r"""
SELECT DISTINCT ON (r.accession, r.table_no, r.row_no, r.label, r.concept) r.label, r.taxonomy, r.concept, t.label
  FROM line_labels r JOIN line_labels t
    ON t.accession = r.accession AND t.table_no = r.table_no AND t.row_no > r.row_no AND t.dims = '{}'::jsonb
 WHERE r.cik = %s AND t.cik = %s AND r.dims = '{}'::jsonb AND r.statement = 'other' AND t.statement = 'other'
   AND t.label ~* '^\s*total\s+\w' AND r.label !~* '^\s*total\M'
 ORDER BY r.accession, r.table_no, r.row_no, r.label, r.concept, t.row_no
"""


def schedule_totals(conn: psycopg.Connection, cik: int) -> dict[tuple[str, str], set[str]]:
    """(label, qualified concept) of a note's row -> the names of the totals printed below it in its table."""
    out: dict[tuple[str, str], set[str]] = {}
    for label, taxonomy, concept, total in conn.execute(SCHEDULE_TOTALS, (cik, cik)).fetchall():
        out.setdefault((label, f"{taxonomy}:{concept}"), set()).add(total)
    return out


# The names a company prints a concept's undimensioned rows under. Served by line_labels_cik.
PRINTED_AS = """
SELECT DISTINCT label FROM line_labels
 WHERE cik = %s AND taxonomy = %s AND concept = %s AND dims = '{}'::jsonb
"""


def printed_as(conn: psycopg.Connection, cik: int, concept: str) -> list[str]:
    """The labels a company prints a concept ("taxonomy:Name") under, without dimensions."""
    return _labels_of(conn, PRINTED_AS, cik, concept)


def _labels_of(conn: psycopg.Connection, sql: str, where: int | str, concept: str) -> list[str]:
    """The labels `sql` finds for a concept ("taxonomy:Name") in a company's filings or one filing (`where`)."""
    taxonomy, name = concept.split(":", 1)
    return [label for (label,) in conn.execute(sql, (where, taxonomy, name)).fetchall()]


# Whether one filing prints a concept's undimensioned row under a label. Served by line_labels_accession.
PRINTED_IN = """
SELECT EXISTS (SELECT 1 FROM line_labels
                WHERE accession = %s AND taxonomy = %s AND concept = %s AND label = %s AND dims = '{}'::jsonb)
"""


def printed_in(conn: psycopg.Connection, accession: str, concept: str, label: str) -> bool:
    """Whether the filing `accession` prints `concept` ("taxonomy:Name") on a row named `label`."""
    taxonomy, name = concept.split(":", 1)
    return bool(conn.execute(PRINTED_IN, (accession, taxonomy, name, label)).fetchone()[0])


# The names one filing prints a concept's undimensioned rows under. Served by line_labels_accession.
PRINTED_IN_FILING = """
SELECT DISTINCT label FROM line_labels
 WHERE accession = %s AND taxonomy = %s AND concept = %s AND dims = '{}'::jsonb
"""


def printed_in_filing(conn: psycopg.Connection, accession: str, concept: str) -> list[str]:
    """The labels the filing `accession` prints `concept` ("taxonomy:Name") under, without dimensions."""
    return _labels_of(conn, PRINTED_IN_FILING, accession, concept)


# Printed row names holding a spaced hyphen ("Total revenues - unaffiliated customers", "Accounts receivable - net"):
# the planner keeps such a name's hyphen from being read as a minus. Served by a scan (a few hundred rows).
DASHED_NAMES = "SELECT DISTINCT label FROM line_labels WHERE position(' - ' IN label) > 0"


def dashed_names(conn: psycopg.Connection) -> list[str]:
    """Every printed row name of the corpus with a spaced hyphen in it."""
    return [label for (label,) in conn.execute(DASHED_NAMES).fetchall()]


def printed_names(conn: psycopg.Connection) -> list[tuple[str, str]]:
    """(printed label, concept) of every company-wide primary-statement row of the corpus."""
    return [(label, concept) for label, concept in conn.execute(PRINTED_NAMES).fetchall()]


def primary_labels(conn: psycopg.Connection) -> list[tuple[int, str, str]]:
    """(cik, printed label, concept) of every company-wide row of the primary statements."""
    return [(int(cik), label, concept) for cik, label, concept in conn.execute(PRIMARY_ROWS).fetchall()]


def joined_labels(conn: psycopg.Connection) -> list[tuple[int, str, str]]:
    """(cik, printed label, concept) of every row whose name joins words with "and"."""
    return [(int(cik), label, concept) for cik, label, concept in conn.execute(JOINED).fetchall()]


def company_concepts(conn: psycopg.Connection, cik: int) -> list[tuple[str, str]]:
    """(qualified concept, 'duration' | 'instant') for every concept with a non-dimensional fact."""
    out = [(f"{t}:{c}", "duration") for t, c in conn.execute(CONCEPTS, (cik,)).fetchall()]
    out += [(f"{t}:{c}", "instant") for t, c in conn.execute(INSTANT_CONCEPTS, (cik,)).fetchall()]
    return out


# A statement as the filing printed it: its rows in order. The fiscal year's own 10-K (not its 10-Qs).
STATEMENT = """
SELECT l.label, l.taxonomy || ':' || l.concept, l.table_no, l.row_no,
       f.accession, f.url
  FROM line_labels l JOIN filings f ON f.accession = l.accession
 WHERE l.cik = %s AND f.fiscal_year = %s AND f.form LIKE '10-K%%' AND l.statement = %s AND l.dims = '{}'::jsonb
 ORDER BY l.table_no, l.row_no
"""


def statement_rows(conn: psycopg.Connection, cik: int, fiscal_year: int, statement: str) -> list[dict]:
    rows = conn.execute(STATEMENT, (cik, fiscal_year, statement)).fetchall()
    out = [{"label": label, "concept": concept, "table": t, "row": r, "accession": acc, "url": url}
           for label, concept, t, r, acc, url in rows]
    return sorted(out, key=lambda x: (x["table"], x["row"]))


def company_by_ticker(conn: psycopg.Connection, ticker: str) -> tuple[int, str] | None:
    row = conn.execute("SELECT cik, name FROM companies WHERE %s = ANY(tickers)", (ticker.upper(),)).fetchone()
    return (int(row[0]), row[1]) if row else None
