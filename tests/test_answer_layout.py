"""How number answers are laid out: a trend's change column, a calculation that names each input
once, and companies by the names people use."""

from __future__ import annotations

import uuid

import pytest

from agent.answer import Turn
from bot.render_text import render
from bot.wiring import build_footnote
from bot.settings import Settings


@pytest.fixture(scope="module")
def footnote(corpus_db, embedder):
    return build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)


def ask(footnote, text):
    return footnote.answer(Turn(thread_key=f"t:{uuid.uuid4().hex}", user="u", text=text))


def test_a_trend_table_has_a_change_column_citing_both_years(footnote):
    answer = ask(footnote, "Walmart revenue from fiscal 2022 to 2025")
    assert answer.kind == "answer", answer.text
    [table] = answer.tables
    assert table.columns == ["Fiscal year", "Revenue", "Change"]
    assert [row[2] for row in table.rows] == ["—", "+6.7%", "+6.0%", "+5.1%"]  # 611.29 / 572.75 - 1, ...
    # each change cites this year's figure and the year before's, and no calculation block repeats them
    for r in range(1, 4):
        assert sorted(table.cell_citations[r][2]) == sorted(table.cell_citations[r][1] + table.cell_citations[r - 1][1])
    assert answer.calculation == []
    assert "Walmart" in answer.text and "WALMART" not in answer.text


def test_a_calculation_lists_each_input_once(footnote):
    answer = ask(footnote, "Apple's operating margin in FY2024")
    text = render(answer)
    assert text.count("$123.22 billion") == 1 and text.count("$391.04 billion") == 1
    assert "  = 31.5%" in text
    assert answer.text.startswith("Apple's operating margin")


def test_a_heading_is_never_glued_onto_a_quoted_sentence():
    from agent.composing.compose import _candidates
    from agent.composing.draft import Evidence
    from agent.checking.guards import split_sentences

    text = ("Risk Factors — Competition\nCompetition\n\nCompetitors in our markets are aggressive and "
            "well funded across every product line. Prices fall quickly.\nSupply Chain\nSuppliers are few.")
    assert split_sentences(text) == ["Risk Factors — Competition", "Competition",
                                     "Competitors in our markets are aggressive and well funded across every product line.",
                                     "Prices fall quickly.", "Supply Chain", "Suppliers are few."]
    chunk = Evidence(id="c:1", kind="chunk", text=text, ticker="X", cik=1, fiscal_year=2024, accession="a",
                     url="https://www.sec.gov/x", form="10-K")
    quotes = [c[2] for c in _candidates([chunk])]
    assert quotes and all(not q.startswith(("Competition Competitors", "Risk Factors")) for q in quotes)
    assert "Competitors in our markets are aggressive and well funded across every product line." in quotes


def test_the_eval_tripwire_accepts_a_computed_change_and_still_catches_a_wrong_one():
    from evals.scorers import table_mismatches

    def answer(shown: str) -> dict:
        return {"kind": "answer", "text": "", "calculation": [],
                "citations": [{"n": 1, "value": "572754000000"}, {"n": 2, "value": "611289000000"}],
                "numbers": [{"value": "572754000000", "citation": 1}, {"value": "611289000000", "citation": 2},
                            {"value": "6.7283336018", "unit": "percent", "citation": None}],
                "tables": [{"title": "Revenue", "columns": ["Fiscal year", "Revenue", "Change"],
                            "rows": [["FY2022", "$572.75 billion", "—"], ["FY2023", "$611.29 billion", shown]],
                            "cell_citations": [[[], [1], []], [[], [2], [2, 1]]]}]}

    assert table_mismatches(answer("+6.7%")) == []
    assert table_mismatches(answer("+7.7%")) == ["table 'Revenue' row 2: 7.7% is not what [2, 1] cites"]


def test_cached_answers_are_keyed_by_the_code_that_made_them(footnote):
    """An upgrade that changes how answers read must not serve the old code's cached wording."""
    from agent.service import code_version

    assert footnote.path.endswith("@" + code_version()) and len(code_version()) == 12


def test_a_10q_item_is_cited_as_the_filing_names_it():
    """A 10-Q's Items are stored as 'I-2' and 'II-1A' (they repeat between Parts and with a 10-K's);
    the reader sees 'Part II, Item 1A', and a 10-K's Item stays 'Item 1A'."""
    from agent.answer import Citation
    from agent.composing.compose import items_text
    from bot.render_chat import citation_label

    def cite(form: str, item: str) -> Citation:
        return Citation(n=1, ticker="NVDA", cik=1045810, form=form, fiscal_year=2025, accession="a", url="u", item=item)

    assert citation_label(cite("10-Q", "II-1A")) == "NVDA 10-Q FY2025, Part II, Item 1A"
    assert citation_label(cite("10-K", "1A")) == "NVDA 10-K FY2025, Item 1A"
    assert items_text(["I-2", "II-1A"]) == "Part I, Item 2 and Part II, Item 1A"
    assert items_text(["7", "8"]) == "Items 7 and 8"
