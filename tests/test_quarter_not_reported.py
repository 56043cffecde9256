"""A quarter the company reports, asked for a figure it does not report for it, is refused as no such
figure (no_grounding), never as a quarter not held: Travelers' third quarter is held, its operating income
is not a line it tags, and "I don't have the third quarter (quarters held: ... the third quarter)" contradicts
itself."""

from __future__ import annotations

from tests.test_quarter_answers import ask, footnote, nvidia  # noqa: F401  (fixtures)


def test_a_figure_missing_from_a_held_quarter_is_no_figure_not_a_missing_quarter(footnote):  # noqa: F811
    answer = ask(footnote, "NVIDIA research and development expense in Q2 fiscal 2024")
    assert answer.kind == "refusal" and answer.refusal_reason == "no_grounding", answer.text
    assert "second quarter of fiscal 2024" in answer.text and "quarters held" not in answer.text
    balance = ask(footnote, "NVIDIA inventories at the end of Q2 fiscal 2024")
    assert balance.kind == "refusal" and balance.refusal_reason == "no_grounding", balance.text
    assert not answer.numbers and not balance.numbers


def test_a_quarter_not_held_is_still_refused_as_not_held(footnote):  # noqa: F811
    answer = ask(footnote, "NVIDIA research and development expense in Q1 fiscal 2023")
    assert answer.kind == "refusal" and answer.refusal_reason == "year_not_available", answer.text
