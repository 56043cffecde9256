"""Read SEC's companyfacts JSON (data.sec.gov/api/xbrl/companyfacts/CIK##########.json).

Every fact keeps fy/fp/form/frame/filed/accn exactly as SEC gives them; which fiscal year a
period belongs to is decided later from anchors (`store.fiscal`), because `fy` here is the
fiscal year of the filing that reported the value, not of the period.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation

from store.fiscal import is_annual
from store.parsed import Fact, parse_date


def parse_companyfacts(data: dict) -> tuple[int, str, list[Fact]]:
    """(cik, entityName, facts); companyfacts holds only non-dimensional facts."""
    if not isinstance(data, dict) or "facts" not in data or "cik" not in data:
        raise ValueError("not a companyfacts document (no 'cik' or 'facts')")
    cik = int(data["cik"])
    name = str(data.get("entityName") or "")
    facts: list[Fact] = []
    for taxonomy, concepts in (data.get("facts") or {}).items():
        for concept, body in (concepts or {}).items():
            for unit, rows in ((body or {}).get("units") or {}).items():
                for row in rows or ():
                    fact = _fact(taxonomy, concept, unit, row)
                    if fact is not None:
                        facts.append(fact)
    return cik, name, facts


def _fact(taxonomy: str, concept: str, unit: str, row: dict) -> Fact | None:
    end = parse_date(row.get("end"))
    if end is None or row.get("val") is None or not row.get("accn"):
        return None
    try:
        # str() first: JSON floats such as 0.1 must not pass through binary floating point.
        value = Decimal(str(row["val"]))
    except (InvalidOperation, ValueError):
        return None
    fy = row.get("fy")
    return Fact(
        taxonomy=taxonomy,
        concept=concept,
        unit=unit,
        value=value,
        period_end=end,
        period_start=parse_date(row.get("start")),
        accession=str(row["accn"]),
        decimals=None,
        fy=int(fy) if fy is not None else None,
        fp=row.get("fp"),
        form=row.get("form"),
        frame=row.get("frame"),
        filed=parse_date(row.get("filed")),
        source="companyfacts",
    )


def companyfacts_anchors(facts: list[Fact]) -> list[tuple[date, int]]:
    """For each 10-K accession, (latest period end among its facts, its fy): fiscal-year anchors.

    A 10-K's facts reach back two or three years but never past its own fiscal year end, so
    the latest period end in it is the end of the fiscal year named by its fy.
    """
    annual: dict[str, tuple[date, int]] = {}
    other: dict[str, tuple[date, int]] = {}
    for f in facts:
        if f.fy is None or not (f.form or "").upper().startswith("10-K") or f.fp not in (None, "FY"):
            continue
        if f.taxonomy == "dei":
            continue  # cover facts are dated at the filing, not the fiscal year end
        # Annual durations end exactly at a fiscal year end; an instant can be a subsequent
        # event dated after it, so instants count only for a 10-K without annual durations.
        into = annual if is_annual(f.period_start, f.period_end) else other
        prev = into.get(f.accession)
        if prev is None or f.period_end > prev[0]:
            into[f.accession] = (f.period_end, f.fy)
    merged = {**other, **annual}
    return sorted(set(merged.values()))
