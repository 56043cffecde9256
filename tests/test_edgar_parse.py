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


def test_each_table_is_rendered_once_and_each_section_walked_once(monkeypatch):
    """However often a section's text is read (edgartools' validation, then us), its walk and its
    tables' renders are done once, and every read gives the same text."""
    from edgar.documents.extractors.toc_section_extractor import SECSectionExtractor

    renders: list = []
    walks: list = []
    render, walk = SECSectionExtractor._render_table, SECSectionExtractor._extract_section_content
    monkeypatch.setattr(SECSectionExtractor, "_render_table",
                        lambda self, t, c: renders.append(t) or render(self, t, c))  # fmt: skip
    monkeypatch.setattr(SECSectionExtractor, "_extract_section_content",
                        lambda self, h, b, *a, **k: walks.append(b.name) or walk(self, h, b, *a, **k))  # fmt: skip
    text = _toc_10k()
    eager = _eager(text, "10-K")
    expected = _sections(eager)
    plain_renders, plain_walks = len(renders), len(walks)
    doc = edgar_parse.parse_html(text, "10-K")  # (its extractor reads one section as it is made)
    renders.clear(), walks.clear()
    assert [_sections(doc) for _ in range(3)] == [expected] * 3
    assert len(set(map(id, renders))) == len(renders) and len(set(walks)) == len(walks)
    assert len(renders) < plain_renders / 2 and len(walks) < plain_walks / 2


def _broken_cells_10k() -> str:
    """A 10-K whose Item 7 table has a row of two multi-line cells, one broken by paragraphs, the
    other by a <br> (our own words)."""
    table = ("<table><tr><td>Line</td><td>2024</td></tr>"
             "<tr><td><p>Revenue from</p><p>widgets</p>and gadgets</td><td>1,234<br/>(56)</td></tr>"
             "<tr><td>Cost</td><td>700</td></tr></table>")  # fmt: skip
    return _toc_10k().replace("<p>Paragraph 0 of Item 7 says", table + "<p>Paragraph 0 of Item 7 says")


def test_a_read_leaves_the_line_breaks_of_table_cells_as_they_were():
    """edgartools' table processing prepends a newline to every <br> tail of the cells it reads, in
    the tree the section extractor walks: a second render of the table then differs (the lines of
    the <br> cell shift against those of its neighbour). Here a read edits nothing, so every read of Item 7
    renders the table as the first read did."""
    from lxml import etree

    doc = edgar_parse.parse_html(_broken_cells_10k(), "10-K")
    extractor = doc._get_section_extractor()
    table = next(t for t in extractor._tree.iter("table") if b"widgets" in etree.tostring(t))
    before = etree.tostring(table)
    first = doc.get_section("Item 7").text()
    assert "widgets" in first and etree.tostring(table) == before
    again = edgar_parse.parse_html(_broken_cells_10k(), "10-K")
    reads = [again.get_section("Item 7").text() for _ in range(3)]
    assert reads == [first] * 3


@pytest.mark.parametrize("path", [SEC_FIXTURES / "filings/10-K/AAPL/0000320193-0000320193-24-000123-2024-09-28.htm", MINI],
                         ids=["aapl", "mini"])  # fmt: skip
def test_a_10k_parses_as_with_edgartools_own_parse(path, monkeypatch):
    data = path.read_bytes()
    ours = parse_10k(data, source=str(path))
    monkeypatch.setattr(html10k, "parse_html", _eager)
    theirs = parse_10k(data, source=str(path))
    assert ours.sections == theirs.sections and ours.missing_items == theirs.missing_items
    assert ours.facts == theirs.facts and ours.meta == theirs.meta and ours.line_items == theirs.line_items


def test_the_section_extractor_reads_the_tree_of_the_xbrl_pass(monkeypatch):
    """The whole HTML is parsed by lxml once: the inline-XBRL pass's tree is the one the section
    extractor walks, and the sections read as with edgartools' own parse (which parses twice)."""
    import lxml.html

    text = _toc_10k()
    expected = _sections(_eager(text, "10-K"))
    parses: list[int] = []
    fromstring = lxml.html.fromstring
    monkeypatch.setattr(lxml.html, "fromstring",
                        lambda html, *a, **k: parses.append(len(html)) or fromstring(html, *a, **k))  # fmt: skip
    doc = edgar_parse.parse_html(text, "10-K")
    assert _sections(doc) == expected
    assert parses == [len(text)]
