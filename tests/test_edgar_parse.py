"""edgartools' parse with the node tree built on first use and each section rendered once
(ingest/edgar_parse.py): the same Document text, sections and facts as edgartools' own parse."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest import edgar_parse, html10k
from ingest.html10k import parse_10k
from tests.conftest import SEC_FIXTURES

MINI = Path(__file__).parent / "fixtures" / "parse" / "mini-10k.htm"

_ITEMS = {
    "I": [("1", "Business"), ("1A", "Risk Factors"), ("1B", "Unresolved Staff Comments"), ("1C", "Cybersecurity"),
          ("2", "Properties"), ("3", "Legal Proceedings"), ("4", "Mine Safety Disclosures")],
    "II": [("5", "Market for the Common Equity"), ("6", "Reserved"), ("7", "Management's Discussion and Analysis"),
           ("7A", "Quantitative and Qualitative Disclosures About Market Risk"),
           ("8", "Financial Statements and Supplementary Data"), ("9", "Changes in Accountants"),
           ("9A", "Controls and Procedures"), ("9B", "Other Information"), ("9C", "Foreign Jurisdictions")],
    "III": [("10", "Directors"), ("11", "Executive Compensation"), ("12", "Security Ownership"),
            ("13", "Certain Relationships"), ("14", "Principal Accountant Fees")],
    "IV": [("15", "Exhibits"), ("16", "Form 10-K Summary")],
}  # fmt: skip


def _toc_10k() -> str:
    """A 10-K whose table of contents links every Item the form defines (our own words)."""
    rows, body = [], []
    for part, items in _ITEMS.items():
        body.append(f'<p style="font-weight:bold">PART {part}</p>')
        for n, title in items:
            rows.append(f'<tr><td><a href="#i{n}">Item {n}.</a></td><td><a href="#i{n}">{title}</a></td></tr>')
            body.append(f'<div id="i{n}"><p style="font-weight:bold">Item {n}. {title}</p></div>')
            body += [f"<p>Paragraph {j} of Item {n} says something about {title.lower()}.</p>" for j in range(6)]
            body.append(f"<table><tr><td>Line</td><td>2024</td><td>2023</td></tr>"
                        f"<tr><td>Amount for {n}</td><td>1,234</td><td>(56)</td></tr></table>")  # fmt: skip
    return f"<html><head><title>EXAMPLE CORP - 10-K - 2024</title></head><body><p>Table of Contents</p><table>{''.join(rows)}</table>{''.join(body)}</body></html>"


def _eager(text: str, form: str):
    from edgar.documents import ParserConfig, parse_html

    return parse_html(text, ParserConfig(form=form))


def _sections(doc) -> dict[str, str]:
    return {name: section.text() for name, section in doc.sections.items()}


def test_sections_from_the_table_of_contents_never_build_the_node_tree():
    doc = edgar_parse.parse_html(_toc_10k(), "10-K")
    sections = _sections(doc)
    assert "part_i_item_1a" in sections and "Paragraph 5 of Item 1A" in sections["part_i_item_1a"]
    assert "root" not in doc.__dict__  # the tree no reading needed was never built


def test_the_deferred_parse_reads_as_the_eager_one():
    text = _toc_10k()
    lazy, eager = edgar_parse.parse_html(text, "10-K"), _eager(text, "10-K")
    assert _sections(lazy) == _sections(eager)
    assert lazy.text(table_max_col_width=10**6) == eager.text(table_max_col_width=10**6)  # built on demand
    assert "root" in lazy.__dict__
    read = lambda m: {k: v for k, v in vars(m).items() if k not in ("parse_time", "_statistics_loader")}  # noqa: E731
    assert read(lazy.metadata) == read(eager.metadata) and lazy.metadata.company == "EXAMPLE CORP"
    assert lazy.metadata.statistics == eager.metadata.statistics


def test_a_table_is_rendered_again_only_when_its_markup_has_changed(monkeypatch):
    """edgartools' render edits some tables' cells, and a render of edited markup can differ:
    those are rendered anew, every other table once however often its sections are read."""
    from lxml import etree

    from edgar.documents.extractors.toc_section_extractor import SECSectionExtractor

    renders: list[tuple] = []
    original = SECSectionExtractor._render_table

    def counted(self, table, clean):
        renders.append((table, etree.tostring(table)))
        return original(self, table, clean)

    monkeypatch.setattr(SECSectionExtractor, "_render_table", counted)
    text = _toc_10k()
    eager = _eager(text, "10-K")
    expected = [_sections(eager) for _ in range(3)]
    plain = len(renders)
    doc = edgar_parse.parse_html(text, "10-K")  # (its extractor reads one section as it is made)
    renders.clear()
    assert [_sections(doc) for _ in range(3)] == expected
    assert len({(id(t), m) for t, m in renders}) == len(renders)  # never the same markup twice
    assert len(renders) < plain / 2


@pytest.mark.parametrize("path", [SEC_FIXTURES / "filings/10-K/AAPL/0000320193-0000320193-24-000123-2024-09-28.htm", MINI],
                         ids=["aapl", "mini"])  # fmt: skip
def test_a_10k_parses_as_with_edgartools_own_parse(path, monkeypatch):
    data = path.read_bytes()
    ours = parse_10k(data, source=str(path))
    monkeypatch.setattr(html10k, "parse_html", _eager)
    theirs = parse_10k(data, source=str(path))
    assert ours.sections == theirs.sections and ours.missing_items == theirs.missing_items
    assert ours.facts == theirs.facts and ours.meta == theirs.meta and ours.line_items == theirs.line_items
