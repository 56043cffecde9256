"""Trailing twelve months asked with no quarter named ("NVDA trailing twelve months revenue", "AbbVie TTM net
income") is the latest quarter's: a period, never words of a line item refused as unknown; and a company
named with digits ("3M") keeps its name in a refusal that scrubs amounts."""

from __future__ import annotations

from decimal import Decimal

from agent.refusals import as_named, refusal_text, scrub_figures
from tests.test_quarter_answers import M, ask, footnote, nvidia  # noqa: F401  (fixtures)


def test_trailing_twelve_months_with_no_quarter_is_the_latest_quarters(footnote):  # noqa: F811
    for text in ("nvidia trailing twelve months revenue", "NVIDIA TTM revenue", "nvidia revenue over the last twelve months"):
        answer = ask(footnote, text)
        assert answer.kind == "answer", (text, answer.text)
        assert {Decimal(n.value) for n in answer.numbers} >= {(60922 + 26044 - 7192) * M}, text
        assert "trailing twelve months ended April 28, 2024" in answer.text


def test_a_name_the_store_holds_survives_the_scrub_of_amounts():
    assert scrub_figures(f"{as_named('3M')}'s figures for the fourth quarter") == "3M's figures for the fourth quarter"
    assert "3M" not in scrub_figures("revenue above 3M")  # an amount the user typed is still scrubbed
    text = refusal_text("year_not_available", f"any fiscal year for {as_named('3M')}")
    assert "for 3M." in text and "\u2063" not in text
