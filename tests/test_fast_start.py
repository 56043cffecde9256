"""What a cold `footnote ask` no longer pays for, each with the same result as before: the phrase
tables normalize and fold their names on a fast path that equals the rules, the tokenizer is read
when first used, the collector pauses while the command loads, the graph's modules import while
the database opens, and compose embeds no sentence whose meaning cannot change the answer."""

from __future__ import annotations

import argparse
import gc
import random
import sys

import pytest

from agent.composing import compose
from agent.composing.compose import compose_extractive
from agent.composing.draft import Evidence
from agent.planning.plan import Plan
from agent.retrieval import concepts, finance
from bot import cli, collector, startup_bench, wiring


def test_normalize_returns_text_in_normal_form_as_the_rules_would():
    rng = random.Random(5)
    alphabet = "aZz09 s'\u2019-\u2013&%/+.,\t\u212a\u00e9$"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(20_000)]
    texts += [s for f in finance.FORMULAS.values() for s in f.synonyms]
    texts += ["r & d", "long-term debt", "apple's revenue", "gross margin %", "EV/EBITDA", " revenue", "net  income"]
    for text in texts:
        assert concepts.normalize(text) == concepts._normalized(text.lower()), text


def test_the_folded_tables_fold_each_phrase_word_by_word():
    table = {"stock repurchases": "a", "gross loss": "b", "revenues": "c", "revenue": "c", "sale tax": "d",
             "sales tax": "e"}
    concepts._FOLDED.pop(id(table), None)
    folded = concepts._folded(table)
    assert folded["stock repurchase"] == "a" and folded["gross loss"] == "b" and folded["revenue"] == "c"
    assert "sale tax" not in folded  # two values share the folded form: only the exact phrase decides
    plain = {}
    for phrase, value in finance.MEASURE_PHRASES.items():
        key = " ".join(concepts.fold_plural(w) for w in phrase.split())
        plain[key] = value if plain.get(key, value) == value else None
    assert concepts._folded(finance.MEASURE_PHRASES) == {k: v for k, v in plain.items() if v is not None}


def test_the_tokenizer_is_read_on_first_use(tmp_path):
    from store.embedding import LocalEmbedder

    local = LocalEmbedder("onnx", model_dir=tmp_path)
    assert "_tokenizer" not in vars(local) and "_truncating" not in vars(local)
    assert local.count_tokens("Revenue grew.") > 2
    assert "_tokenizer" in vars(local) and "_truncating" not in vars(local)


class _Recording:
    def __init__(self, inner):
        self.inner, self.texts = inner, []

    def embed(self, texts, **kw):
        self.texts += list(texts)
        return self.inner.embed(texts, **kw)


def _chunk(text: str) -> Evidence:
    return Evidence(id="c:1", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u",
                    item="7", text=text)


def test_a_clause_that_lost_the_questions_subject_is_never_embedded(embedder):
    chunk = _chunk("We expanded warehouse automation across our distribution centers this year. "
                   "We spent $2.1 million on office furniture and supplies for our new hires in the year. "
                   "Warehouse automation lowered our fulfillment costs per unit.")
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=["7"],
                query="warehouse automation")
    recording = _Recording(embedder)
    draft = compose_extractive("what does zzz say about its warehouse automation?", plan, [chunk], embedder=recording)
    quoted = [c.text for c in draft.claims if c.kind == "prose"]
    assert any("warehouse automation across" in q for q in quoted)
    assert not any("furniture" in q for q in quoted)
    assert recording.texts and not any("furniture" in t for t in recording.texts)


def test_skipped_sentences_get_no_cosine_and_the_others_their_own(embedder):
    import numpy as np

    texts = ["Fuel prices rose.", "Wages rose.", "Stores opened."]
    queries = embedder.embed(["costs"])
    recording = _Recording(embedder)
    cosines = compose._cosines(recording, texts, queries, [False, True, False])
    assert recording.texts == ["Fuel prices rose.", "Stores opened."]
    assert np.isneginf(cosines[1]).all()
    whole = embedder.embed(texts) @ queries.T
    assert np.allclose(cosines[[0, 2]], whole[[0, 2]], atol=1e-6)


@pytest.fixture()
def collecting():
    """The collector as the test process had it, restored after."""
    was = gc.isenabled()
    yield
    collector._paused = False
    gc.unfreeze()
    (gc.enable if was else gc.disable)()


def test_the_collector_pauses_until_resumed_and_leaves_alone_what_it_did_not_pause(collecting):
    gc.enable()
    collector.pause()
    assert not gc.isenabled()
    frozen = gc.get_freeze_count()
    collector.resume()
    assert gc.isenabled() and gc.get_freeze_count() > frozen
    gc.disable()
    collector.resume()  # not paused by it: a collector someone else turned off stays off
    assert not gc.isenabled()


def test_the_program_pauses_the_collector_while_it_loads_and_a_caller_of_main_does_not(collecting, monkeypatch,
                                                                                          tmp_path):
    from ingest import edgar_dirs

    for name in ("XDG_CACHE_HOME", edgar_dirs.DATA_ENV, edgar_dirs.CACHE_ENV):
        monkeypatch.setenv(name, str(tmp_path))  # main points them into the data dir; restored after
    monkeypatch.setenv("FOOTNOTE_DATA_DIR", str(tmp_path))
    seen = []

    def command(args, settings):
        seen.append(gc.isenabled())
        return 0

    def register(sub):
        p = sub.add_parser("ask")
        p.set_defaults(func=command, resumes_collector=True)
        q = sub.add_parser("db")
        q.set_defaults(func=command)

    def build_parser(argv=None):
        parser = argparse.ArgumentParser()
        register(parser.add_subparsers(dest="command"))
        return parser

    monkeypatch.setattr(cli, "build_parser", build_parser)
    gc.enable()
    monkeypatch.setattr(sys, "argv", ["footnote", "ask"])
    assert cli.main() == 0
    monkeypatch.setattr(sys, "argv", ["footnote", "db"])
    assert cli.main() == 0
    assert seen == [False, True]  # `ask` resumes once its Footnote is built; any other command at once
    assert gc.isenabled()  # and after the command, collecting as before
    assert cli.main(["ask"]) == 0 and seen[-1] is True  # a test calling main: untouched


def test_modules_imported_meanwhile_are_loaded_and_a_failing_one_is_left_to_its_user():
    sys.modules.pop("json.tool", None)
    wiring._import_meanwhile(("json.tool", "footnote_no_such_module", "csv")).join()
    assert "json.tool" in sys.modules


def test_the_startup_bench_writes_bytecode_in_its_warm_up_only(monkeypatch, tmp_path):
    calls = []

    def ask(tree, env, question, *, no_cache):
        calls.append("PYTHONDONTWRITEBYTECODE" in env)
        return {"wall_s": 1.0, "cpu_s": 1.0, "peak_rss_mb": 1.0}

    monkeypatch.setattr(startup_bench, "_ask", ask)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    args = argparse.Namespace(runs=1, baseline=None, numeric="q1", qualitative="q2", skip_servers=True,
                              out=tmp_path / "startup.json")
    settings = argparse.Namespace(data_dir=tmp_path)
    assert startup_bench.cmd_bench_startup(args, settings) == 0
    assert calls[0] is False and all(calls[1:]) and len(calls) == 1 + len(startup_bench.ASKS)


def test_the_onnx_model_gives_the_same_vectors_on_any_number_of_threads():
    import numpy as np

    from store.embedding import LocalEmbedder
    from tests.conftest import MODEL_DIR

    texts = ["We depend on a small number of suppliers for the lithium cells in our garden tools.",
             "Fuel prices rose.", "Net sales increased in 2024, driven by higher sales of garden tools and new "
             "stores opened during the year, partially offset by lower prices."]
    one, every = LocalEmbedder(model_dir=MODEL_DIR, threads=1), LocalEmbedder(model_dir=MODEL_DIR, threads=2)
    every.serve_queries()
    assert every.threads == 2  # ONNX Runtime keeps its cores for answering; only PyTorch is held to one
    # A call's lone batch is split over the streams, and a smaller batch sums in another order:
    # the same vectors to the last digits a float32 cosine can see, not bit for bit.
    assert np.allclose(one.embed(texts), every.embed(texts), atol=1e-6)
    assert np.array_equal(one.embed(texts[1:2]), every.embed(texts[1:2]))
