"""The expected figures of the shared set, read from the filings' own XBRL without the agent.

A small inline-XBRL reader of our own (not the ingest pipeline), plus companyfacts' 10-K rows:
- only non-dimensional facts of a whole fiscal year (durations of 357-378 days) or of a fiscal
  year end (instants);
- a period's fiscal year is the filing's `DocumentFiscalYearFocus` minus whole years back from
  the filing's period end (NVIDIA's fiscal 2024 ends January 2024: the company's own label);
- when several 10-Ks report a period, the most recent one wins (restatements, splits), as the
  agent must; within one filing, rounded repeats of a value (MD&A's "$9.9 billion") give way to
  the most precise one;
- a metric whose acceptable concepts disagree is resolved by METRICS order (tagged
  "concept-choice"), except R&D, where it is skipped (J&J tags its R&D line with one concept and a
  note with the other).
"""

from __future__ import annotations

import csv
import gzip
import json
from collections import defaultdict
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path

from lxml import etree

from store.parsed import parse_date as _date

NS = {
    "ix": "http://www.xbrl.org/2013/inlineXBRL",
    "xbrli": "http://www.xbrl.org/2003/instance",
}

# metric -> acceptable us-gaap concepts, in order: when a filing reports several with different
# values, the first is expected (total Revenues before the ASC 606 subset, as analysts mean it).
METRICS = {
    "revenue": ["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "RevenueFromContractWithCustomerIncludingAssessedTax", "SalesRevenueNet"],
    "net_income": ["NetIncomeLoss"],
    "rnd": ["ResearchAndDevelopmentExpense", "ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost"],
    "total_assets": ["Assets"],
    "eps_diluted": ["EarningsPerShareDiluted"],
    "operating_income": ["OperatingIncomeLoss"],
    "cash": ["CashAndCashEquivalentsAtCarryingValue"],
    "gross_profit": ["GrossProfit"],
    "cost_of_revenue": ["CostOfRevenue", "CostOfGoodsAndServicesSold"],
    "capex": ["PaymentsToAcquirePropertyPlantAndEquipment"],
    "operating_cash_flow": ["NetCashProvidedByUsedInOperatingActivities"],
    "total_liabilities": ["Liabilities"],
    "current_assets": ["AssetsCurrent"],
    "current_liabilities": ["LiabilitiesCurrent"],
}
INSTANT = {"total_assets", "cash", "total_liabilities", "current_assets", "current_liabilities"}


def fact_value(el) -> tuple[Decimal, int | None] | None:
    """An ix:nonFraction's value as the filing means it (scale and sign applied) and its decimals."""
    value = _num("".join(el.itertext()), el.get("format"))
    if value is None:
        return None
    value = value * (Decimal(10) ** int(el.get("scale") or 0))
    if el.get("sign") == "-":
        value = -value
    decimals = el.get("decimals")
    return value.normalize(), None if decimals in (None, "INF") else int(decimals)


def _num(text: str, fmt: str | None) -> Decimal | None:
    """An ix:nonFraction's shown text as a number (before scale and sign)."""
    t = (text or "").strip()
    fmt = (fmt or "").lower()
    if "zero" in fmt or t in ("-", "—", "–"):
        return Decimal(0)
    if "comma-decimal" in fmt or "numcommadecimal" in fmt:
        t = t.replace(".", "").replace(" ", "").replace(",", ".")
    else:
        t = t.replace(",", "").replace(" ", "")
    try:
        return Decimal(t)
    except InvalidOperation:
        return None


def parse_ixbrl(raw: bytes) -> dict:
    """{'dei': {name: text}, 'facts': [(concept, start|None, end, value, unit)]}, non-dimensional only."""
    parser = etree.XMLParser(recover=True, huge_tree=True)
    root = etree.fromstring(raw, parser)
    contexts: dict[str, tuple] = {}
    for ctx in root.iter("{%s}context" % NS["xbrli"]):
        cid = ctx.get("id")
        seg = ctx.find(".//{%s}segment" % NS["xbrli"])
        scen = ctx.find(".//{%s}scenario" % NS["xbrli"])
        dims = (seg is not None and len(seg)) or (scen is not None and len(scen))
        start = ctx.findtext(".//{%s}startDate" % NS["xbrli"])
        end = ctx.findtext(".//{%s}endDate" % NS["xbrli"])
        inst = ctx.findtext(".//{%s}instant" % NS["xbrli"])
        contexts[cid] = (bool(dims), start.strip() if start else None, (end or inst or "").strip())
    dei = {}
    for el in root.iter("{%s}nonNumeric" % NS["ix"]):
        name = el.get("name", "")
        if name.startswith("dei:") and name not in dei:
            dei[name] = " ".join("".join(el.itertext()).split())
    facts = []
    for el in root.iter("{%s}nonFraction" % NS["ix"]):
        ctx = contexts.get(el.get("contextRef"))
        if ctx is None or ctx[0]:
            continue
        if el.get("{http://www.w3.org/2001/XMLSchema-instance}nil") == "true":
            continue
        read = fact_value(el)
        if read is None:
            continue
        value, precision = read
        facts.append((el.get("name"), ctx[1], ctx[2], value, precision))
    return {"dei": dei, "facts": facts}


def parse_member_facts(raw: bytes) -> list[tuple]:
    """[(concept, start|None, end, value, decimals, {axis: member})] of the facts on one explicit member: a segment's
    or a product's figure ("Data Center" revenue on srt:ProductOrServiceAxis), which parse_ixbrl leaves out."""
    parser = etree.XMLParser(recover=True, huge_tree=True)
    root = etree.fromstring(raw, parser)
    contexts: dict[str, tuple] = {}
    for ctx in root.iter("{%s}context" % NS["xbrli"]):
        members = {m.get("dimension"): (m.text or "").strip()
                   for m in ctx.iter("{http://xbrl.org/2006/xbrldi}explicitMember")}
        typed = any(True for _ in ctx.iter("{http://xbrl.org/2006/xbrldi}typedMember"))
        if len(members) != 1 or typed:
            continue
        start = ctx.findtext(".//{%s}startDate" % NS["xbrli"])
        end = ctx.findtext(".//{%s}endDate" % NS["xbrli"])
        inst = ctx.findtext(".//{%s}instant" % NS["xbrli"])
        contexts[ctx.get("id")] = (start.strip() if start else None, (end or inst or "").strip(), members)
    facts = []
    for el in root.iter("{%s}nonFraction" % NS["ix"]):
        ctx = contexts.get(el.get("contextRef"))
        if ctx is None or el.get("{http://www.w3.org/2001/XMLSchema-instance}nil") == "true":
            continue
        read = fact_value(el)
        if read is not None:
            facts.append((el.get("name"), ctx[0], ctx[1], read[0], read[1], ctx[2]))
    return facts


def _read(path: Path) -> bytes:
    """SEC's formats, gzipped or not."""
    return gzip.open(path, "rb").read() if path.suffix == ".gz" else path.read_bytes()


def fiscal_year_of(end: date, filing_end: date, filing_fy: int) -> int:
    return filing_fy - round((filing_end - end).days / 365.2425)


def _metric_of(concept: str) -> str | None:
    for metric, names in METRICS.items():
        if concept in names:
            return metric
    return None


def _period_ok(metric: str, start: date | None, end: date) -> bool:
    if metric in INSTANT:
        return start is None
    return start is not None and 357 <= (end - start).days <= 378


def _year_end(end: date, anchor_end: date) -> bool:
    back = (anchor_end - end).days % 365.2425
    return back <= 12 or back >= 353


def collect(corpus: Path) -> dict:
    """{ticker: {name, cik, filings, obs: {(metric, fy): [observation]}}}: every annual value of
    every metric concept, from each 10-K document and from companyfacts' 10-K rows.

    An observation is {filing_fy, accession, concept, value, decimals, source}."""
    rows = list(csv.DictReader(open(corpus / "filings" / "index.csv", encoding="utf-8")))
    out: dict[str, dict] = {}
    for row in sorted(rows, key=lambda r: r["period_end"]):
        ticker = row["ticker"]
        parsed = parse_ixbrl(_read(corpus / row["file"]))
        filing_end, fy = _date(row["period_end"]), int(row["fiscal_year"])
        comp = out.setdefault(ticker, {"name": row["company"], "cik": int(row["cik"]), "filings": [], "obs": defaultdict(list)})
        comp["filings"].append({"fiscal_year": fy, "period_end": row["period_end"], "accession": row["accession"]})
        for concept, start, end, value, decimals in parsed["facts"]:
            taxonomy, _, name = concept.partition(":")
            metric = _metric_of(name) if taxonomy == "us-gaap" else None
            if metric is None:
                continue
            e = _date(end)
            if not _period_ok(metric, _date(start) if start else None, e) or not _year_end(e, filing_end):
                continue
            comp["obs"][(metric, fiscal_year_of(e, filing_end, fy))].append(
                {"filing_fy": fy, "accession": row["accession"] or f"doc-{row['period_end']}", "concept": name,
                 "value": value, "decimals": decimals, "source": "ixbrl"})
    for ticker, comp in out.items():
        for sub in ("", "trimmed/"):
            for suffix in (".json.gz", ".json"):
                path = corpus / "companyfacts" / f"{sub}CIK{comp['cik']:010d}{suffix}"
                if path.exists():
                    _add_companyfacts(comp, json.loads(_read(path))["facts"].get("us-gaap", {}))
    return out


def _add_companyfacts(comp: dict, facts: dict) -> None:
    anchor = comp["filings"][-1]
    anchor_end, anchor_fy = _date(anchor["period_end"]), anchor["fiscal_year"]
    for metric, names in METRICS.items():
        for name in names:
            for unit_rows in facts.get(name, {}).get("units", {}).values():
                for r in unit_rows:
                    if r.get("form") not in ("10-K", "10-K/A") or r.get("fy") is None:
                        continue
                    end = _date(r["end"])
                    if not _period_ok(metric, _date(r["start"]) if "start" in r else None, end) or not _year_end(end, anchor_end):
                        continue
                    comp["obs"][(metric, fiscal_year_of(end, anchor_end, anchor_fy))].append(
                        {"filing_fy": int(r["fy"]), "accession": r.get("accn", ""), "concept": name,
                         "value": Decimal(str(r["val"])), "decimals": None, "source": "companyfacts"})


def _precise(obs: list[dict]) -> Decimal | None:
    """One concept's value in one filing: the most precise shown value, if the rounded ones agree."""
    best = max(obs, key=lambda o: 99 if o["decimals"] is None else o["decimals"])
    for o in obs:
        if o["decimals"] is None:
            if o["value"] != best["value"]:
                return None
        elif round(best["value"], o["decimals"]) != round(o["value"], o["decimals"]):
            return None
    return best["value"]


# Metrics where two acceptable concepts with different values mean different things (J&J tags
# its R&D line with the "excluding acquired in-process" concept and a note with the plain one):
# no question is asked where they disagree.
SKIP_WHEN_CONCEPTS_DISAGREE = {"rnd"}


def resolve(metric: str, obs: list[dict]) -> tuple[dict | None, str]:
    """The expected value: the most recent filing reporting the period; within it, the first
    acceptable concept in METRICS order. Returns (value record or None, note)."""
    latest_fy = max(o["filing_fy"] for o in obs)
    latest = [o for o in obs if o["filing_fy"] == latest_fy]
    by_concept: dict[str, list] = defaultdict(list)
    for o in latest:
        by_concept[o["concept"]].append(o)
    values = {}
    for concept, group in by_concept.items():
        v = _precise(group)
        if v is None:
            return None, f"FY{latest_fy} filing(s) disagree on {concept}: {sorted({str(o['value']) for o in group})}"
        values[concept] = v
    chosen = [c for c in METRICS[metric] if c in values][0]
    tags = []
    if len(set(values.values())) > 1:
        if metric in SKIP_WHEN_CONCEPTS_DISAGREE:
            return None, f"acceptable concepts disagree {({c: str(v) for c, v in values.items()})}"
        tags.append("concept-choice")
    earlier: dict[tuple, list] = defaultdict(list)
    for o in obs:
        if o["filing_fy"] < latest_fy and o["concept"] == chosen:
            earlier[(o["filing_fy"], o["accession"])].append(o)
    older = {v for v in (_precise(g) for g in earlier.values()) if v is not None and v != values[chosen]}
    note = ""
    if older:
        tags.append("restated")
        note = f"older filings report {sorted(str(x) for x in older)}"
    value = values[chosen]
    return {
        "value": format(value.normalize(), "f") if value != 0 else "0",
        "concept": chosen,
        "filing_fy": latest_fy,
        "accessions": sorted({o["accession"] for o in latest if o["concept"] == chosen}),
        "tags": tags,
        "all_concepts": {c: format(v.normalize(), "f") for c, v in values.items()},
    }, note


def values_of(data: dict) -> tuple[dict, list[str]]:
    """{(ticker, metric, fy): value record} and a log of what was left out or carries a note."""
    out, log = {}, []
    for ticker, comp in data.items():
        for (metric, fy), obs in sorted(comp["obs"].items()):
            record, note = resolve(metric, obs)
            if record is None:
                log.append(f"{ticker} {metric} FY{fy}: skipped, {note}")
                continue
            if note or record["tags"]:
                log.append(f"{ticker} {metric} FY{fy}: {record['value']} ({record['concept']}; {', '.join(record['tags'])}) {note}")
            out[(ticker, metric, fy)] = record
    return out, log
