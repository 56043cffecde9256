"""The statement rows of an inline-XBRL 10-K: each fact's row label in the company's own words.

Why: analysts ask for whatever the statements show ("net cash used in investing activities",
"marketing", "provision for credit losses"), named the way the company names the row. A table row
whose cells hold ix:nonFraction facts carries the label in its first text cell; that label, the
concept, the statement the table belongs to (told by the concepts it holds), the row's order, the
sign and the fact's dimensions (a segment or product row) are what the agent resolves phrases
against. Plain regular expressions over the HTML: this runs on every filing at ingest and again
on an ingested corpus to refresh labels without re-parsing or re-embedding anything else.
"""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass, field

_TABLE = re.compile(r"<table\b.*?</table>", re.I | re.S)
_ROW = re.compile(r"<tr\b.*?</tr>", re.I | re.S)
_CELL = re.compile(r"<t[dh]\b.*?</t[dh]>", re.I | re.S)
_FACT = re.compile(r"<ix:nonFraction\b([^>]*)>", re.I)
_ATTR = re.compile(r'([\w:-]+)\s*=\s*"([^"]*)"')
_TAG = re.compile(r"<[^>]+>")
_CONTEXT = re.compile(r"<xbrli:context\b[^>]*\bid=\"([^\"]+)\"[^>]*>(.*?)</xbrli:context>", re.I | re.S)
_MEMBER = re.compile(r"<xbrldi:explicitMember\b[^>]*\bdimension=\"([^\"]+)\"[^>]*>\s*([^<\s]+)\s*<", re.I)
_LABEL_OK = re.compile(r"[A-Za-z]{2,}")
MAX_LABEL = 200


@dataclass(frozen=True)
class LineItem:
    taxonomy: str
    concept: str
    label: str  # the row's first text cell, as printed
    statement: str  # income, balance, cash, other
    table_no: int  # the table's order in the document
    row_no: int  # the row's order in its table
    negated: bool  # shown with the opposite sign (ix sign="-")
    dims: dict[str, str] = field(default_factory=dict)  # axis -> member, for a segment or product row


_CASH = ("NetCashProvidedByUsedInOperatingActivities", "NetCashProvidedByUsedInInvestingActivities",
         "NetCashProvidedByUsedInFinancingActivities")
_BALANCE = ("Assets", "LiabilitiesAndStockholdersEquity", "AssetsCurrent", "LiabilitiesCurrent")
_INCOME = ("EarningsPerShareBasic", "EarningsPerShareDiluted", "OperatingIncomeLoss", "GrossProfit",
           "IncomeTaxExpenseBenefit", "CostOfGoodsAndServicesSold", "CostOfRevenue")


def _statement(concepts: set[str]) -> str:
    """Which primary statement a table is, told by the totals only that statement carries."""
    if any(c in concepts for c in _CASH):
        return "cash"
    if any(c in concepts for c in _BALANCE):
        return "balance"
    if sum(c in concepts for c in _INCOME) >= 2 or ("NetIncomeLoss" in concepts and any(c in concepts for c in _INCOME)):
        return "income"
    return "other"


def _text(fragment: str) -> str:
    return " ".join(html_lib.unescape(_TAG.sub(" ", fragment)).split())


def contexts(document: str) -> dict[str, dict[str, str]]:
    """Context id -> its explicit dimension members (axis -> member), for dimensional contexts."""
    out: dict[str, dict[str, str]] = {}
    for m in _CONTEXT.finditer(document):
        members = dict(_MEMBER.findall(m.group(2)))
        if members:
            out[m.group(1)] = members
    return out


def parse_line_items(document: str) -> list[LineItem]:
    """Every (label, concept, dims) a statement-like table row shows, first occurrence kept."""
    dims_of = contexts(document)
    items: list[LineItem] = []
    seen: set[tuple] = set()
    for table_no, table in enumerate(_TABLE.findall(document)):
        if "nonfraction" not in table.lower():
            continue
        rows = []
        concepts: set[str] = set()
        for row in _ROW.findall(table):
            cells = _CELL.findall(row)
            facts = [dict(_ATTR.findall(m.group(1))) for m in _FACT.finditer(row)]
            facts = [f for f in facts if f.get("name")]
            if not facts or not cells:
                continue
            label = ""
            for cell in cells:
                if _FACT.search(cell):
                    break
                text = _text(cell).strip(" :$")
                if _LABEL_OK.search(text):
                    label = text
                    break
            if not label:
                continue
            rows.append((label[:MAX_LABEL], facts))
            concepts |= {f["name"].split(":", 1)[-1] for f in facts}
        statement = _statement(concepts)
        for row_no, (label, facts) in enumerate(rows):
            for f in facts:
                taxonomy, _, concept = f["name"].rpartition(":")
                dims = dims_of.get(f.get("contextRef", ""), {})
                key = (label, f["name"], tuple(sorted(dims.items())))
                if key in seen:
                    continue
                seen.add(key)
                items.append(LineItem(taxonomy or "us-gaap", concept, label, statement, table_no, row_no,
                                      f.get("sign") == "-", dims))
    return items
