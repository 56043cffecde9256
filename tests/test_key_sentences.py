"""Key sentences by reference: hashing, resolving and matching on prose we wrote
(tests/fixtures/prose), the dev_prose set's shape, and resolution through the real pipeline."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from evals import key_sentences as ks
from evals import prose_metrics
from evals.corpus import SHARED_CORPUS
from evals.sets import load_set

FIXTURE = Path(__file__).parent / "fixtures" / "prose" / "key_sentences.txt"
SEC_FIXTURES = Path(__file__).parent / "fixtures" / "sec"
TEXT = FIXTURE.read_text(encoding="utf-8")
DRIVER = "Net sales rose 6% in fiscal 2025, driven by higher unit volumes at Acme Widgets Inc. and by price increases in the U.S. Widget segment."
MARGIN = "Gross margin fell 40 basis points because freight costs rose faster than prices."


def test_the_hash_ignores_case_spacing_and_typographic_quotes():
    assert ks.digest("The  Company’s largest\ncustomer") == ks.digest("the company's largest customer")
    assert ks.digest("Net sales rose 6%") != ks.digest("Net sales rose 7%")
    ref = ks.reference("acme", 2025, "7", DRIVER)
    assert ref == {"ticker": "ACME", "fiscal_year": 2025, "item": "7", "sha1": ks.digest(DRIVER), "chars": len(ks.norm(DRIVER))}
    assert DRIVER not in str(ref)


def test_sentences_do_not_break_after_abbreviations():
    found = ks.sentences(TEXT)
    assert DRIVER in found
    assert "Our operations are conducted in two segments: Widgets and Gadgets." in found


def test_a_reference_resolves_in_text_whatever_its_line_breaks():
    ref = ks.reference("ACME", 2025, "7", MARGIN)  # the fixture breaks this sentence across two lines
    assert ks.find_hashed(TEXT, ref["sha1"], ref["chars"]) == ks.norm(MARGIN)
    assert ks.find_hashed(TEXT.replace("40 basis", "50 basis"), ref["sha1"], ref["chars"]) is None
    assert ks.find_hashed("too short", ref["sha1"], ref["chars"]) is None


def test_pick_finds_the_sentence_holding_a_substring():
    items = {"7": TEXT}
    assert ks.pick(items, "7", "unit volumes at ACME") == [DRIVER]
    assert ks.pick(items, "1A", "unit volumes") == []


@pytest.mark.parametrize(
    "quote, ok",
    [
        (DRIVER, True),
        (DRIVER.upper().rstrip("."), True),  # case and the closing period do not matter
        ("Net sales rose 6% in fiscal 2025, driven by higher unit volumes at Acme Widgets Inc. and by price increases", True),  # most of it
        ("Net sales rose 6% in fiscal 2025", False),  # a fragment is not a quote of the sentence
        ("Net sales rose 6% in fiscal 2025, driven by higher unit volumes ... and by price increases in the U.S. Widget segment", True),
        ("Net sales rose 6% ... in the Gadget segment", False),
        ("Overview. " + DRIVER + " " + MARGIN, True),  # a longer quote holding the sentence
    ],
)
def test_a_quote_matches_a_key_sentence_when_it_covers_most_of_it(quote, ok):
    assert ks.quote_matches(quote, DRIVER) is ok


def _answer(*quotes, text=None):
    cits = [{"n": i, "ticker": "ACME", "item": "7", "quote": q} for i, q in enumerate(quotes, start=1)]
    return {"kind": "answer", "text": text or " ".join(f"{q} [{i}]" for i, q in enumerate(quotes, start=1)), "citations": cits}


def test_an_answer_recalls_a_key_sentence_and_flags_an_unrelated_quote():
    question = "why did Acme's net sales grow in fiscal 2025?"
    keys = [ks.norm(DRIVER), ks.norm(MARGIN)]
    right = ks.score_answer(question, _answer(DRIVER), keys, names=["Acme Widgets Inc."])
    assert right["recalled"] and right["matched"] == [0] and not right["unrelated"]
    filler = "Our operations are conducted in two segments: Widgets and Gadgets."
    wrong = ks.score_answer(question, _answer(filler), keys, names=["Acme Widgets Inc."])
    assert not wrong["recalled"] and wrong["unrelated"] == [filler]
    # A quote sharing a content word ("sales") is not unrelated, only not the key sentence.
    near = ks.score_answer(question, _answer("The largest customer accounted for 14% of net sales."), keys, names=["Acme"])
    assert not near["recalled"] and not near["unrelated"]
    # A cut-down key sentence is not recalled, but it is not unrelated either.
    cut = ks.score_answer(question, _answer("… at Acme Widgets Inc. and by price increases"), keys, names=["Acme"])
    assert not cut["recalled"] and not cut["unrelated"]


def test_content_words_leave_out_stop_words_company_names_and_short_words():
    words = ks.content_words("What does Acme expect for capital expenditures in fiscal 2026?", names=["Acme Widgets Inc."])
    assert words == {"expect", "capital", "expenditur"}
    assert ks.shares_content("Revenues increased.", ks.content_words("why did revenue increase?"))
    assert ks.shares_content("It kept increasing.", ks.content_words("why the increase"))


def test_a_refusal_quotes_nothing_and_an_unresolved_key_is_reported():
    found = ks.score_answer("why?", {"kind": "refusal", "text": "I could not find that."}, [ks.norm(DRIVER), None])
    assert found == {"recalled": False, "matched": [], "quotes": 0, "unrelated": [], "unresolved": [1]}


def _record(id_, expect, answer, failures=(), thread=None, found=None):
    f = {"failures": list(failures)}
    if found is not None:
        f.update({"key_sentences": found, "unrelated_quote": bool(found["unrelated"])})
    return {"id": id_, "thread": thread, "expect": expect, "answer": answer, "findings": f}


def test_prose_metrics_count_recall_unrelated_meta_and_whole_threads():
    hit = {"recalled": True, "matched": [0], "quotes": 1, "unrelated": [], "unresolved": []}
    junk = {"recalled": False, "matched": [], "quotes": 1, "unrelated": ["x"], "unresolved": []}
    none = {"recalled": False, "matched": [], "quotes": 0, "unrelated": [], "unresolved": []}
    records = [
        _record("q1", {"answer": "answer"}, {"kind": "answer"}, found=hit),
        _record("q2", {"answer": "answer"}, {"kind": "answer"}, ["key_sentence_miss", "unrelated_quote"], found=junk),
        _record("q3", {"answer": "answer"}, {"kind": "refusal"}, ["false_refusal"], found=none),
        _record("m1", {"answer": "meta"}, {"kind": "meta", "route": "meta"}),
        _record("m2", {"answer": "meta"}, {"kind": "refusal", "route": "refusal"}, ["false_refusal"]),
        _record("t1#1", {"answer": "answer"}, {"kind": "answer"}, thread="t1"),
        _record("t1#2", {"answer": "answer"}, {"kind": "answer"}, ["numbers_missing"], thread="t1"),
        _record("t2#1", {"answer": "answer"}, {"kind": "answer"}, thread="t2"),
    ]
    got = prose_metrics.summarize(records)
    assert got["key_sentence_questions"] == 3 and got["key_sentence_recall"] == pytest.approx(1 / 3)
    assert got["quoted_answers"] == 2 and got["unrelated_quote_rate"] == pytest.approx(1 / 2)
    assert got["meta_questions"] == 2 and got["meta_routing"] == pytest.approx(1 / 2)
    assert got["threads"] == 2 and got["thread_accuracy"] == pytest.approx(1 / 2)


# ---------------------------------------------------------------------------------------------
# The frozen set


def test_the_dev_prose_set_has_the_shape_the_issue_asks_for():
    cases = load_set("dev_prose")  # validates every line, rejects duplicate ids
    single = [c for c in cases if not c.thread]
    kinds = Counter(c.kind for c in single)
    assert kinds["qualitative"] >= 40
    assert sum(1 for c in single if c.expect["answer"] == "meta") >= 20
    refusals = [c for c in single if c.expect["answer"] == "refusal"]
    assert sum(1 for c in refusals if "off-topic" not in c.tags) >= 20
    assert any("off-topic" in c.tags for c in refusals)
    threads = Counter(c.thread for c in cases if c.thread)
    assert len(threads) >= 15 and all(3 <= n <= 4 for n in threads.values())
    assert_key_sentences_by_hash(cases)


def assert_key_sentences_by_hash(cases) -> None:
    """2–4 key sentences per qualitative case, each a sha1 and a length: a prose set holds no filing text."""
    for c in cases:
        if c.kind == "qualitative":
            refs = ks.key_refs(c.expect)
            assert 2 <= len(refs) <= 4, c.id
            assert all(len(r["sha1"]) == 40 and r["chars"] > 20 for r in refs), c.id
        for ev in c.expect.get("evidence") or []:
            assert not ev.get("phrase") and not ev.get("keywords"), f"{c.id}: filing text must be stored by hash only"


# ---------------------------------------------------------------------------------------------
# Through the real parser, chunker and database


def test_a_picked_sentence_resolves_from_the_ingested_chunks(corpus_db):
    items = ks.filing_items(SEC_FIXTURES, "NVDA", 2025)
    [sentence] = ks.pick(items, "7", "from compensation for additional engineering headcount")
    ref = ks.reference("NVDA", 2025, "7", sentence)
    resolver = ks.Resolver(corpus_db)
    assert resolver.text(ref) == ks.norm(sentence)
    assert resolver.text({**ref, "ticker": "AAPL", "fiscal_year": 2024}) is None  # another filing does not hold it
    assert resolver.text({**ref, "ticker": "ZZZZ"}) is None  # nor an unknown company
    assert resolver.text({**ref, "item": "1A"}) is None
    answer = _answer(sentence)
    found = ks.score_case("why did operating expenses rise?", {"answer": "answer", "evidence": [ref]}, answer, resolver)
    assert found["recalled"] and not found["unrelated"]


@pytest.mark.skipif(not SHARED_CORPUS.exists(), reason="the shared corpus is not here")
@pytest.mark.slow
def test_the_key_sentences_of_one_shared_filing_are_in_its_parsed_text():
    """A sample (parsing every referenced filing takes minutes): NVIDIA's FY2025 10-K."""
    refs = [r for c in load_set("dev_prose") for r in ks.key_refs(c.expect) if (r["ticker"], r["fiscal_year"]) == ("NVDA", 2025)]
    assert refs
    items = ks.filing_items(SHARED_CORPUS, "NVDA", 2025)
    for r in refs:
        assert ks.find_hashed(items[r["item"]], r["sha1"], r["chars"]), r


def test_a_follow_up_is_judged_against_the_questions_of_its_thread(corpus_db):
    from evals.lookup import CorpusLookup
    from evals.run import run_cases
    from evals.sets import Case

    items = ks.filing_items(SEC_FIXTURES, "NVDA", 2025)
    [key] = ks.pick(items, "7", "Revenue for fiscal 2025 was")
    [other] = ks.pick(items, "7", "from compensation for additional engineering headcount")
    ref = ks.reference("NVDA", 2025, "7", key)
    why = {"answer": "answer", "evidence": [ref]}
    cases = [
        Case(id="t#1", set="x", kind="numeric", question="nvidia operating expenses fy2025", expect={"answer": "answer"}, thread="t", turn=1),
        Case(id="t#2", set="x", kind="qualitative", question="why?", expect=why, thread="t", turn=2),
        Case(id="alone", set="x", kind="qualitative", question="why?", expect=why),
    ]
    replies = {"nvidia operating expenses fy2025": {"kind": "answer", "text": "See the filing."}}

    def answer_fn(thread_key, question):
        return replies.get(question) or _answer(other)

    records = run_cases(cases, answer_fn, lookup=CorpusLookup(corpus_db), baseline=False)
    follow_up, alone = records[1]["findings"], records[2]["findings"]
    assert follow_up["key_sentence_miss"] and alone["key_sentence_miss"]  # the key sentence is not quoted
    assert not follow_up["unrelated_quote"]  # "operating expenses" was asked just before
    assert alone["unrelated_quote"] and "unrelated_quote" in alone["failures"]
