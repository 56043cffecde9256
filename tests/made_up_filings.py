"""Made-up 10-Ks of small carriers, in our own words, for the tests of which filing and Item a prose question is
read in: forty ordinary route passages per year, so that whatever a test adds is particular to a few passages."""

from __future__ import annotations

from datetime import date

from store.writes import upsert_company

TOWNS = ["Akron", "Dayton", "Toledo", "Canton", "Lorain", "Elyria", "Marion", "Newark", "Xenia", "Sidney",
         "Piqua", "Troy", "Kent", "Niles", "Solon", "Avon", "Berea", "Parma", "Medina", "Wooster"]


def routes(year: int) -> list[tuple[str, str]]:
    """(Item, text) of forty route passages alternating between Items 1 and 7."""
    return [("7" if i % 2 else "1", f"Route {i} links our depot in {TOWNS[i % 20]} with grocery customers nearby; in "
             f"{year} it ran {i % 9 + 3} trucks a day and its volume followed local demand.") for i in range(40)]


def hold(db, embedder, cik: int, name: str, ticker: str,
         filings: dict[tuple[str, int], list[tuple[str, str]]]) -> dict[tuple[str, int], list[int]]:
    """Store `filings` ((accession, fiscal year) -> [(Item, text)]) as 10-Ks of a company; chunk ids per filing,
    in order."""
    ids: dict[tuple[str, int], list[int]] = {}
    short = name.split()[0]
    with db.connection() as conn, conn.transaction():
        upsert_company(conn, cik, name, [ticker], None)
        for (acc, fy), chunks in filings.items():
            conn.execute("INSERT INTO filings (accession, cik, form, fiscal_year, period_end, filed, url, content_hash)"
                         " VALUES (%s, %s, '10-K', %s, %s, %s, 'https://www.sec.gov/q.htm', %s)",
                         (acc, cik, fy, date(fy, 12, 31), date(fy + 1, 2, 20), acc))
            vectors = embedder.embed([t for _, t in chunks])
            for ordinal, ((item, text), vec) in enumerate(zip(chunks, vectors, strict=True)):
                row = conn.execute("INSERT INTO chunks (accession, cik, item, ordinal, text, context, n_tokens, embedding)"
                                   " VALUES (%s, %s, %s, %s, %s, %s, 40, %s) RETURNING id",
                                   (acc, cik, item, ordinal, text, f"{short} 10-K {fy}", vec)).fetchone()
                ids.setdefault((acc, fy), []).append(row[0])
    return ids
