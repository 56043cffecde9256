"""`footnote ask` and its batch format, through the real command line and database."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

# Whole ingests, subprocesses or servers: `make test-fast` leaves these out.
pytestmark = pytest.mark.slow


@pytest.fixture
def env(corpus_db, monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", corpus_db.url)
    monkeypatch.setenv("FOOTNOTE_LLM", "off")
    monkeypatch.setenv("FOOTNOTE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def test_batch_writes_one_line_per_id_in_order(env):
    questions = env / "questions.jsonl"
    questions.write_text(
        "\n".join([
            json.dumps({"id": "q1", "question": "What was Apple's revenue in fiscal 2024?"}),
            json.dumps({"id": 2, "turns": ["What was Apple's revenue in fiscal 2024?", "and R&D?"]}),
            "",
            json.dumps({"id": "q3", "question": "Should I buy Tesla stock?"}),
            "not json",
            json.dumps({"id": "q5", "turns": "oops"}),
        ]) + "\n",
        encoding="utf-8",
    )
    out = env / "answers.jsonl"
    assert main(["ask", "--batch", str(questions), "--out", str(out), "--no-cache"]) == 1  # two bad lines
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["id"] for line in lines] == ["q1", 2, "q3", None, "q5"]
    assert "$391.04 billion" in lines[0]["answers"][0]["text"]
    assert len(lines[1]["answers"]) == 2 and "$31.37 billion" in lines[1]["answers"][1]["text"]
    assert lines[2]["answers"][0]["refusal_reason"] == "out_of_scope"
    assert lines[3]["answers"] == [] and "not JSON" in lines[3]["error"]
    assert "error" in lines[4]
    answer = lines[0]["answers"][0]
    for key in ("kind", "text", "refusal_reason", "citations", "numbers", "tables", "calculation", "planner",
                "composer", "timings", "plan", "retrieved"):
        assert key in answer
    assert answer["citations"][0]["url"].startswith("https://www.sec.gov/")


def test_ask_prints_the_rendered_answer_or_json(env, capsys):
    assert main(["ask", "Compare revenue of Apple and Tesla in fiscal 2024", "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "$391.04 billion [1]" in out and "$97.69 billion [2]" in out
    assert "[2] TSLA 10-K FY2024" in out and "https://www.sec.gov/" in out
    assert main(["ask", "Apple free cash flow fiscal 2024", "--json", "--no-cache"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "answer" and data["calculation"][0]["result"] == "$108.81 billion"


def test_ask_without_a_question_is_a_usage_error(env, capsys):
    assert main(["ask"]) == 2


def test_bench_ask_reports_each_kind_beside_its_floor(env, capsys):
    out = env / "ask.json"
    assert main(["bench", "ask", "--questions", "15", "--out", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert set(report["kinds"]) == {"numeric", "derived", "compare", "trend", "qualitative", "quarterly"}
    assert report["kinds"]["quarterly"]["answered"] >= 1  # quarter questions beside the annual ones
    for kind in report["kinds"].values():
        assert kind["n"] >= 1 and kind["p95_ms"] >= kind["p50_ms"] > 0 and kind["floor_p50_ms"] > 0
    assert report["kinds"]["numeric"]["answered"] == report["kinds"]["numeric"]["n"]
    assert "x floor" in capsys.readouterr().out


def test_bench_ask_picks_each_kind_independently_of_the_others_pools(corpus_db, monkeypatch):
    """Two checkouts that answer different numeric questions still time the same prose questions."""
    import psycopg

    from bot import ask_bench

    with psycopg.connect(corpus_db.url) as conn:
        before = ask_bench.generate(conn, 60)
        monkeypatch.setattr(ask_bench, "METRIC_PHRASES", {"revenue": "revenue"})  # a smaller numeric pool
        after = ask_bench.generate(conn, 60)

    def of(questions, kind):
        return sorted(q["text"] for q in questions if q["kind"] == kind)

    assert of(before, "numeric") != of(after, "numeric")
    for kind in ("qualitative", "derived", "compare", "quarterly"):
        assert of(before, kind) == of(after, kind) and of(before, kind)
