"""The held-out development sets (dev2, dev3, dev4): each loads, every case carries an expectation the
scorer can check (read from the filings by its generator, never typed here), and each has the shape
its brief asks for. No answer is asserted here: the values are the generators', checked against them."""

from __future__ import annotations

import importlib
import json
from collections import Counter
from dataclasses import dataclass

import pytest

from evals import by_class
from evals.cli import MEASURED_ONLY
from evals.corpus import SHARED_CORPUS
from evals.sets import CORPUS_SETS, DATA, HELD_OUT, SET_FILES, load_group
from tests.test_key_sentences import assert_key_sentences_by_hash


@dataclass(frozen=True)
class HeldOut:
    name: str  # "dev2"
    prefix: str  # ids start "d2f-" / "d2p-"
    figures: int  # at least this many figure questions
    qualitative: int  # at least this many single qualitative questions

    @property
    def generator(self):
        return importlib.import_module(f"evals.make_{self.name}")


SETS = [HeldOut("dev2", "d2", 160, 40), HeldOut("dev3", "d3", 170, 45), HeldOut("dev4", "d4", 190, 45)]
FIGURE_CLASSES = ("line_item", "own_label", "longer_phrase", "segment", "segment_missing", "formula", "user_formula",
                  "comparative_year", "trend", "impossible_year", "unknown_company", "must_refuse", "followup")


@pytest.fixture(scope="module", params=SETS, ids=lambda s: s.name)
def held(request):
    s = request.param
    return s, load_group(s.name)  # validates every line, rejects ids repeated across the two files


def test_each_is_named_measured_held_out_and_run_only_when_asked_for():
    for s in SETS:
        assert SET_FILES[s.name] == (f"{s.name}_figures", f"{s.name}_prose")
        assert SET_FILES[f"{s.name}_prose"] == (f"{s.name}_prose",)
        assert {s.name, f"{s.name}_prose"} <= MEASURED_ONLY & HELD_OUT
        assert s.name not in CORPUS_SETS


def test_every_figure_question_has_a_class_and_an_expectation(held):
    s, cases = held
    figures = [c for c in cases if c.set == f"{s.name}_figures"]
    assert len(figures) >= s.figures
    assert all(c.id.startswith(f"{s.prefix}f-") for c in figures)
    classes = Counter(c.cls for c in figures)
    assert set(classes) <= set(by_class.CLASSES) | {"quarter_figure"}  # dev4's held 10-Q quarters, answered
    assert "quarterly" not in classes  # refusing quarters is another set's subject (dev4 asks held 10-Q quarters)
    for cls in FIGURE_CLASSES:
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


def test_the_prose_file_has_the_shape_issue_9_asks_for(held):
    s, cases = held
    prose = [c for c in cases if c.set == f"{s.name}_prose"]
    assert all(c.id.startswith(f"{s.prefix}p-") for c in prose)
    single = [c for c in prose if not c.thread]
    assert sum(1 for c in single if c.kind == "qualitative") >= s.qualitative
    assert sum(1 for c in single if c.expect["answer"] == "meta") >= 20
    assert sum(1 for c in single if c.expect["answer"] == "refusal") >= 20
    assert any("future" in c.tags for c in single if c.kind == "qualitative")  # sounds like a forecast, asks the filing
    threads = Counter(c.thread for c in prose if c.thread)
    assert len(threads) >= 15 and all(3 <= n <= 4 for n in threads.values())
    assert_key_sentences_by_hash(prose)
    for c in prose:
        if c.expect["answer"] == "refusal":
            assert c.expect.get("reason"), c.id


def _frozen(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / f"{name}_figures.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("s", SETS, ids=lambda s: s.name)
def test_the_frozen_figures_are_the_questions_of_the_spec_in_order(s):
    spec, threads = s.generator.load_spec()
    asked = [q["question"] for line in _frozen(s.name) for q in line.get("turns", [line])]
    specified = [x["q"] for x in spec] + [t["q"] for thread in threads for t in thread["turns"]]
    assert asked == [q for q in specified if q in set(asked)]  # only questions without one expected value are left out
    assert len(asked) >= 0.95 * len(specified)


@pytest.mark.skipif(not SHARED_CORPUS.exists(), reason="the shared corpus is not here")
@pytest.mark.parametrize("s", SETS, ids=lambda s: s.name)
def test_the_frozen_figures_file_is_what_the_generator_writes(s):
    questions, _ = s.generator.build(SHARED_CORPUS)
    assert questions == _frozen(s.name)


# --- dev3's own brief --------------------------------------------------------------------------


def test_dev3_covers_the_prose_kinds_and_sounds_like_forecasts_at_least_three_times():
    single = [c for c in load_group("dev3") if c.set == "dev3_prose" and not c.thread and c.kind == "qualitative"]
    assert sum(1 for c in single if "future" in c.tags) >= 3
    assert {"why", "dependence", "describe", "event"} <= {t for c in single for t in c.tags}


def test_dev3_asks_new_questions_not_those_of_the_earlier_sets():
    """Held out means new: no single question of dev3 repeats one of dev or dev2 (short thread turns
    such as "and in 2023?" may, their meaning comes from the turns before)."""
    earlier = {c.question.strip().lower() for name in ("dev", "dev2") for c in load_group(name) if not c.thread}
    repeated = [c.id for c in load_group("dev3") if not c.thread and c.kind != "meta" and c.question.strip().lower() in earlier]
    assert not repeated


def test_dev3_figure_threads_have_two_to_four_turns():
    threads = Counter(c.thread for c in load_group("dev3") if c.set == "dev3_figures" and c.thread)
    assert len(threads) >= 10 and all(2 <= n <= 4 for n in threads.values())


# --- dev4's own brief --------------------------------------------------------------------------


def test_dev4_asks_held_10q_quarters_with_their_period_and_new_questions():
    cases = load_group("dev4")
    quarters = [c for c in cases if c.cls == "quarter_figure"]
    assert len(quarters) >= 8
    assert all(n.get("period_end") for c in quarters for n in c.expect["numbers"])
    earlier = {c.question.strip().lower() for name in ("dev", "dev2", "dev3") for c in load_group(name) if not c.thread}
    repeated = [c.id for c in cases if not c.thread and c.kind != "meta" and c.question.strip().lower() in earlier]
    assert not repeated


def test_dev4_counts_what_its_brief_asks_for():
    cases = load_group("dev4")
    kinds = Counter(c.kind for c in cases)
    assert kinds["numeric"] + kinds["trend"] >= 100 and kinds["derived"] >= 30 and kinds["qualitative"] >= 45
    assert sum(1 for c in cases if c.expect["answer"] == "meta") >= 20
    assert sum(1 for c in cases if c.expect["answer"] == "refusal") >= 20
    threads = Counter(c.thread for c in cases if c.thread)
    assert len(threads) >= 15
    prose_threads = {c.thread for c in cases if c.thread and c.kind == "qualitative"}
    assert len(prose_threads) >= 8  # a prose turn after a figure, or a figure turn after a prose turn
