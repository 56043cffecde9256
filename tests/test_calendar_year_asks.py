"""A figure asked for a calendar year of a company whose fiscal year is not the calendar year is refused with
why, never answered with the fiscal year of that number: NVIDIA's fiscal 2023 ran from February 2022 to January
2023. Real figures typed in (tests.test_quarter_answers)."""

from __future__ import annotations

from tests.test_quarter_answers import ask, footnote, nvidia  # noqa: F401  (fixtures)


def test_a_calendar_year_of_a_january_fiscal_year_is_refused_saying_why(footnote):  # noqa: F811
    for text in ("nvidia revenue for calendar 2023",
                 "define twice revenue as revenue plus revenue. what was nvidia's twice revenue for calendar 2023?"):
        answer = ask(footnote, text)
        assert answer.kind == "refusal" and answer.refusal_reason == "out_of_scope", (text, answer.text)
        assert "calendar 2023" in answer.text and "fiscal year ends in January" in answer.text
    # the fiscal year, asked as one, is answered
    assert ask(footnote, "nvidia revenue fiscal 2024").kind == "answer"
