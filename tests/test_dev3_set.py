"""The third held-out development set (dev3): it loads, every case carries an expectation the scorer
can check (read from the filings by the generator, never typed here), and it has the shape its brief
asks for. No answer is asserted here: the values are the generator's, checked against it."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from evals import by_class
from evals import key_sentences as ks
from evals.cli import MEASURED_ONLY
from evals.corpus import SHARED_CORPUS
from evals.sets import CORPUS_SETS, DATA, SET_FILES, load_group


@pytest.fixture(scope="module")
def cases():
    return load_group("dev3")  # validates every line, rejects ids repeated across the two files


def test_dev3_is_named_measured_and_run_only_when_asked_for():
    assert SET_FILES["dev3"] == ("dev3_figures", "dev3_prose")
    assert SET_FILES["dev3_prose"] == ("dev3_prose",)
    assert {"dev3", "dev3_prose"} <= MEASURED_ONLY
    assert "dev3" not in CORPUS_SETS


def test_every_figure_question_has_a_class_and_an_expectation(cases):
    figures = [c for c in cases if c.set == "dev3_figures"]
    assert len(figures) >= 170
    assert all(c.id.startswith("d3f-") for c in figures)
    classes = Counter(c.cls for c in figures)
    assert set(classes) <= set(by_class.CLASSES)
    assert "quarterly" not in classes  # quarters are another set's subject
    for cls in ("line_item", "own_label", "longer_phrase", "segment", "segment_missing", "formula", "user_formula",
                "comparative_year", "trend", "impossible_year", "unknown_company", "must_refuse", "followup"):
        assert classes[cls] >= 5, cls
    for c in figures:
        exp = c.expect
        if exp["answer"] == "refusal":
            assert exp.get("reason") and exp.get("names"), c.id
        elif c.kind == "derived":
            assert exp["calc"]["value"] and exp["calc"]["inputs"] and exp["calc"]["formula"], c.id
        else:
            assert exp["numbers"] and all(n["value"] and n.get("concepts") for n in exp["numbers"]), c.id
        if c.kind == "trend":
            assert len({n["fiscal_year"] for n in exp["numbers"]}) >= 3, c.id
        if c.cls == "segment":
            assert all(n.get("dims") for n in exp["numbers"]), c.id


def test_the_prose_file_has_the_shape_the_brief_asks_for(cases):
    prose = [c for c in cases if c.set == "dev3_prose"]
    assert all(c.id.startswith("d3p-") for c in prose)
    single = [c for c in prose if not c.thread]
    assert sum(1 for c in single if c.kind == "qualitative") >= 45
    assert sum(1 for c in single if c.expect["answer"] == "meta") >= 20
    assert sum(1 for c in single if c.expect["answer"] == "refusal") >= 20
    assert sum(1 for c in single if c.kind == "qualitative" and "future" in c.tags) >= 3  # sound like forecasts, ask what the filing says
    assert {"why", "dependence", "describe", "event"} <= {t for c in single if c.kind == "qualitative" for t in c.tags}
    threads = Counter(c.thread for c in prose if c.thread)
    assert len(threads) >= 15 and all(3 <= n <= 4 for n in threads.values())
    for c in prose:
        if c.kind == "qualitative":
            refs = ks.key_refs(c.expect)
            assert 2 <= len(refs) <= 4, c.id
            assert all(len(r["sha1"]) == 40 and r["chars"] > 20 for r in refs), c.id
        for ev in c.expect.get("evidence") or []:
            assert not ev.get("phrase") and not ev.get("keywords"), f"{c.id}: filing text must be stored by hash only"
        if c.expect["answer"] == "refusal":
            assert c.expect.get("reason"), c.id


def test_the_frozen_figures_are_the_questions_of_the_spec_in_order():
    from evals.make_dev3 import load_spec

    spec, threads = load_spec()
    frozen = [json.loads(line) for line in (DATA / "dev3_figures.jsonl").read_text(encoding="utf-8").splitlines()]
    asked = [q["question"] for line in frozen for q in line.get("turns", [line])]
    specified = [s["q"] for s in spec] + [t["q"] for thread in threads for t in thread["turns"]]
    assert asked == [q for q in specified if q in set(asked)]  # only questions without one expected value are left out
    assert len(asked) >= 0.95 * len(specified)


@pytest.mark.skipif(not SHARED_CORPUS.exists(), reason="the shared corpus is not here")
def test_the_frozen_figures_file_is_what_the_generator_writes():
    from evals.make_dev3 import build

    questions, _ = build(SHARED_CORPUS)
    frozen = [json.loads(line) for line in (DATA / "dev3_figures.jsonl").read_text(encoding="utf-8").splitlines()]
    assert questions == frozen


def test_dev3_asks_new_questions_not_those_of_the_earlier_sets(cases):
    """Held out means new: no single question of dev3 repeats one of dev or dev2 (short thread turns
    such as "and in 2023?" may, their meaning comes from the turns before)."""
    earlier = {c.question.strip().lower() for name in ("dev", "dev2") for c in load_group(name) if not c.thread}
    repeated = [c.id for c in cases if not c.thread and c.kind != "meta" and c.question.strip().lower() in earlier]
    assert not repeated


def test_figure_threads_have_two_to_four_turns(cases):
    threads = Counter(c.thread for c in cases if c.set == "dev3_figures" and c.thread)
    assert len(threads) >= 10 and all(2 <= n <= 4 for n in threads.values())
