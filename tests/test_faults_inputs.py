"""Inputs that must not hurt, through the real Footnote over the fixture corpus: years no filing
holds, control characters and unpaired surrogates, batch files with Unicode line separators and
non-finite ids, and a question over the length limit."""

from __future__ import annotations

import json
import logging

import pytest

from agent.answer import Turn
from bot.ask_cli import run_batch
from agent.refusals import spelled
from agent.service import MAX_QUESTION_CHARS
from bot.settings import Settings


@pytest.fixture(scope="module")
def footnote(corpus_db, embedder):
    from bot.wiring import build_footnote

    return build_footnote(corpus_db, embedder, Settings(_env_file=None, FOOTNOTE_LLM="off"), use_cache=False)


def ask(footnote, text: str, thread: str = "faults:1"):
    return footnote.answer(Turn(thread_key=thread, user="u", text=text))


IMPOSSIBLE = [
    "What was Apple's revenue in fiscal 2099?",
    "NVIDIA revenue FY99",
    "Apple net income FY1850",
    "Tesla revenue in fiscal 99999999",
    "Walmart's total assets for 3000",
    "What was Apple's revenue in fiscal year 2010?",
    "nvidia gross margin fy 2150",
    "Apple R&D expense in FY2039",
    "What was Tesla's revenue \\u0000FY1900?",  # an escape pasted as text, glued to the year
]


@pytest.mark.parametrize("question", IMPOSSIBLE)
def test_a_year_no_filing_holds_is_refused_never_answered_with_another_year(footnote, question):
    answer = ask(footnote, question, thread=f"faults:year:{hash(question)}")
    assert answer.kind == "refusal" and answer.refusal_reason == "year_not_available", (answer.kind, answer.text)
    assert not answer.numbers


def test_every_size_of_impossible_year_is_refused(footnote):
    """A sweep: years before EDGAR, after any filing, two-digit, and absurdly long."""
    marked = ["Apple's revenue in fiscal {y}", "NVIDIA net income FY{y}", "Tesla revenue for the fiscal year {y}"]
    years = ["1850", "1900", "1992", "2060", "2099", "2100", "3000", "9999", "12345", "99999999"]
    questions = [t.format(y=y) for t in marked for y in years + ["50", "80", "99"]]
    questions += [f"Walmart total assets in {y}" for y in years]  # a bare year needs four digits
    results = [ask(footnote, q, thread=f"faults:sweep:{i}") for i, q in enumerate(questions)]
    answered = [(q, a.kind, a.refusal_reason) for q, a in zip(questions, results) if a.refusal_reason != "year_not_available"]
    assert answered == []


CONTROL = [
    "What was Apple's revenue in fiscal 2024?\x00",
    "Apple\x00revenue\x00fiscal 2024",
    "What was Apple's revenue \ud800 in fiscal 2024?",
    "\udfff\x07\x1b[31mNVIDIA revenue FY2025\x1b[0m",
    "\x00",
]


@pytest.mark.parametrize("question", CONTROL)
def test_control_characters_and_lone_surrogates_are_cleaned_not_fatal(footnote, question, caplog):
    caplog.set_level(logging.INFO)
    answer = ask(footnote, question, thread="faults:ctl\x00" + str(len(question)))
    assert answer.refusal_reason != "internal_error", answer.text
    assert "Traceback" not in caplog.text and "answering failed" not in caplog.text
    json.dumps(answer.model_dump(mode="json"), ensure_ascii=False).encode("utf-8")  # storable and sendable


def test_revenue_question_with_a_nul_still_gets_the_figure(footnote):
    answer = ask(footnote, "Apple\x00revenue fiscal 2024", thread="faults:nul-figure")
    assert answer.kind != "refusal", answer.text
    assert answer.numbers


def test_the_length_refusal_states_the_limit(footnote):
    answer = ask(footnote, "revenue? " * 400)
    assert answer.refusal_reason == "input_too_long"
    assert f"up to {spelled(MAX_QUESTION_CHARS)} characters" in answer.text and "thousand" in answer.text


def test_batch_records_split_only_on_newline_and_output_is_strict_json(footnote, tmp_path):
    lines = [
        json.dumps({"id": "sep", "question": "Apple revenue\u2028fiscal 2024\u2029please"}, ensure_ascii=False),
        json.dumps({"id": "ctl", "question": "NVIDIA\x0brevenue\x0cFY2025\x1c\x1d\x1e\x85"}, ensure_ascii=False),
        '{"id": 1e400, "question": "Apple revenue fiscal 2024"}',
        '{"id": NaN, "question": "Apple revenue fiscal 2024"}',
        '{"id": 7, "question": "Tesla revenue fiscal 2024"}',
    ]
    source = tmp_path / "in.jsonl"
    source.write_bytes(("\n".join(lines) + "\n").encode("utf-8") + b"\xff\xfe not utf-8\n")
    out = tmp_path / "out.jsonl"
    run_batch(footnote, source, out)
    written = out.read_text(encoding="utf-8").split("\n")[:-1]

    def strict(text):
        return json.loads(text, parse_constant=lambda name: pytest.fail(f"non-standard JSON {name}: {text[:80]}"))

    records = [strict(line) for line in written]
    assert len(records) == 6, [r.get("id") for r in records]
    by_id = {r["id"]: r for r in records if r["id"] is not None}
    assert by_id["sep"]["answers"] and "error" not in by_id["sep"]
    assert by_id["ctl"]["answers"] and "error" not in by_id["ctl"]
    assert by_id[7]["answers"]
    errors = [r["error"] for r in records if "error" in r]
    assert len(errors) == 3 and any("not UTF-8" in e for e in errors)
