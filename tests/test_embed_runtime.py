"""The local model on ONNX Runtime: the same vectors and token counts as PyTorch, loaded only when
a question needs it, and a corpus from another runtime searched only once proven equivalent."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import numpy as np
import pytest

from agent.answer import Turn
from bot.wiring import build_footnote
from bot.settings import Settings
from ingest.chunking import embedding_input
from store.embedding import LocalEmbedder, token_batches
from ingest import runtime_check
from ingest.runtime_check import check_runtime
from store import embedding_runtime, onnx_export
from store.errors import EmbeddingMismatch
from tests import agent_corpus
from tests.conftest import MODEL_DIR

# Whole ingests, subprocesses or servers: `make test-fast` leaves these out.
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]

# Our own sentences, of very different lengths (the last is past the 256-token window).
TEXTS = [
    "What was the company's revenue in fiscal 2024?",
    "Supplier concentration",
    "Apple Inc. 10-K 2024 | Item 1A Risk Factors\nThe company depends on a small number of outside "
    "manufacturers in a few regions, and a disruption at any of them could delay shipments.",
    "Table: Net sales by category | iPhone 201,183 | Services 96,169 | Mac 29,984 | iPad 26,694",
    " ".join(f"Clause {i} of a long paragraph about interest rate and currency exposure." for i in range(60)),
]


@pytest.fixture(scope="module")
def torch_embedder():
    return LocalEmbedder("torch", model_dir=MODEL_DIR)


def test_onnx_vectors_equal_pytorch_vectors(embedder, torch_embedder):
    assert embedder.runtime == "onnx"
    onnx, torch = embedder.embed(TEXTS), torch_embedder.embed(TEXTS)
    assert onnx.shape == torch.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(onnx, axis=1), 1.0, atol=1e-5)
    assert (onnx * torch).sum(axis=1).min() > 0.999
    # Batching by length must not change a vector: alone or in a batch, the same answer.
    assert np.allclose(embedder.embed([TEXTS[2]])[0], onnx[2], atol=1e-5)


def test_token_counts_match_the_tokenizer_sentence_transformers_uses(embedder, torch_embedder):
    torch_embedder.embed(["load"])
    hf = torch_embedder._model.tokenizer
    for text in TEXTS:
        expected = len(hf(text, add_special_tokens=True, truncation=False, verbose=False)["input_ids"])
        assert embedder.count_tokens(text) == expected
        assert embedder.token_counter()(text) == expected
    assert embedder.count_tokens(TEXTS[-1]) > embedder.max_tokens  # counting never truncates


def test_token_batches_bound_rows_and_padded_tokens_and_cover_everything():
    lengths = np.array([256, 3, 40, 256, 12, 128, 7, 256, 64, 5] * 7)
    batches = list(token_batches(lengths, rows=16, tokens=1024))
    seen = np.concatenate(batches)
    assert sorted(seen.tolist()) == list(range(len(lengths)))
    for rows in batches:
        assert len(rows) <= 16
        assert len(rows) == 1 or len(rows) * lengths[rows].max() <= 1024
    widths = [lengths[rows].max() for rows in batches]
    assert widths == sorted(widths)  # shortest first: each batch pads to its own length only


def test_token_batches_split_where_padding_is_least():
    # Filled greedily, the first batch would be [10, 10, 100] (300 padded tokens) and the second
    # [100]: 400 in all. Splitting between the lengths pads nothing: [10, 10] and [100, 100].
    lengths = np.array([100, 10, 100, 10])
    batches = [sorted(b.tolist()) for b in token_batches(lengths, rows=3, tokens=1024, overhead=0)]
    assert batches == [[1, 3], [0, 2]]
    # One call for everything when a call costs more than the padding it would save.
    assert [len(b) for b in token_batches(lengths, rows=4, tokens=1024, overhead=1000)] == [4]


def test_a_numeric_answer_never_loads_the_model_and_a_prose_answer_does(db, embedder):
    agent_corpus.load(db, embedder)
    fresh = LocalEmbedder(model_dir=MODEL_DIR)
    footnote = build_footnote(db, fresh, Settings(llm="off"), use_cache=False)
    numeric = footnote.answer(Turn(thread_key=f"t:{uuid.uuid4().hex}", user="u", text="What was Apple's revenue in fiscal 2024?"))
    assert numeric.kind == "answer" and "391" in numeric.text
    assert not fresh.loaded
    prose = footnote.answer(Turn(thread_key=f"t:{uuid.uuid4().hex}", user="u", text="What are Apple's main risk factors?"))
    assert prose.kind == "answer"
    assert fresh.loaded


def test_footnote_ask_for_a_number_imports_no_model_runtime(corpus_db, tmp_path):
    env = {**os.environ, "DATABASE_URL": corpus_db.url, "FOOTNOTE_LLM": "off", "FOOTNOTE_DATA_DIR": str(tmp_path),
           "PYTHONPATH": str(REPO)}
    script = (
        "import json, sys\n"
        "from bot.cli import main\n"
        "code = main(['ask', \"What was Apple's revenue in fiscal 2024?\", '--no-cache'])\n"
        "heavy = [m for m in ('torch', 'transformers', 'sentence_transformers', 'onnxruntime', 'numpy', 'evals.cli')\n"
        "         if m in sys.modules]\n"
        "print(json.dumps({'code': code, 'heavy': heavy}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"code": 0, "heavy": []}, done.stderr[-2000:]
    assert "391" in done.stdout


def _pipeline_vectors(db, embedder) -> None:
    """Give the hand-written corpus the vectors the ingest pipeline would have stored."""
    with db.connection() as conn:
        rows = conn.execute("SELECT id, context, text FROM chunks ORDER BY id").fetchall()
        vectors = embedder.embed([embedding_input(c, t) for _, c, t in rows])
        for (chunk_id, _, _), vec in zip(rows, vectors, strict=True):
            conn.execute("UPDATE chunks SET embedding = %s WHERE id = %s", (vec, chunk_id))


def test_a_corpus_from_another_runtime_is_used_once_proven_equivalent(db, embedder):
    agent_corpus.load(db, embedder)
    _pipeline_vectors(db, embedder)
    with db.connection() as conn:
        embedding_runtime.record_runtime(conn, "torch")
        assert not embedding_runtime.proven_equivalent(conn, "onnx")
    check_runtime(db, embedder)
    with db.connection() as conn:
        assert embedding_runtime.proven_equivalent(conn, "onnx")
        assert embedding_runtime.recorded_runtime(conn) == "torch"  # the corpus's own runtime stays


def test_a_corpus_whose_vectors_another_runtime_cannot_reproduce_is_refused(db, embedder):
    agent_corpus.load(db, embedder)
    with db.connection() as conn:
        rows = conn.execute("SELECT id, text FROM chunks ORDER BY id").fetchall()
        other = embedder.embed([f"An unrelated sentence about weather number {i}." for i in range(len(rows))])
        for (chunk_id, _), vec in zip(rows, other, strict=True):
            conn.execute("UPDATE chunks SET embedding = %s WHERE id = %s", (vec, chunk_id))
        embedding_runtime.record_runtime(conn, "torch")
    with pytest.raises(EmbeddingMismatch, match="FOOTNOTE_EMBEDDING_RUNTIME=torch"):
        check_runtime(db, embedder)
    with db.connection() as conn:
        assert not embedding_runtime.proven_equivalent(conn, "onnx")


def test_an_empty_corpus_takes_the_runtime_of_its_first_ingest(db, embedder):
    with db.connection() as conn:
        assert embedding_runtime.recorded_runtime(conn) is None
    check_runtime(db, embedder, writing=True)
    agent_corpus.load(db, embedder)
    with db.connection() as conn:
        assert embedding_runtime.recorded_runtime(conn) == "onnx"


def test_int8_vectors_stay_within_the_equivalence_bar(embedder):
    int8 = LocalEmbedder("onnx-int8", model_dir=MODEL_DIR)
    cosines = (int8.embed(TEXTS) * embedder.embed(TEXTS)).sum(axis=1)
    assert cosines.min() >= 0.99
    assert int8.count_tokens(TEXTS[0]) == embedder.count_tokens(TEXTS[0])


@pytest.fixture(scope="module")
def int8_embedder():
    return LocalEmbedder("onnx-int8", model_dir=MODEL_DIR)


def test_the_int8_export_is_made_once_and_reused(embedder, int8_embedder, monkeypatch):
    int8_embedder.embed(["load"])
    path = onnx_export.cached_model(embedder._model_path, MODEL_DIR, embedder.model_name, int8=True)
    made = path.stat().st_mtime_ns

    def never(*_):
        raise AssertionError("the cached export was made again")

    monkeypatch.setattr(onnx_export, "quantize", never)
    monkeypatch.setattr(onnx_export, "export", never)
    again = onnx_export.cached_model(embedder._model_path, MODEL_DIR, embedder.model_name, int8=True)
    assert again == path and again.stat().st_mtime_ns == made
    assert again != onnx_export.cached_model(embedder._model_path, MODEL_DIR, embedder.model_name)  # beside the float one
    import onnx

    ops = {n.op_type for n in onnx.load(str(path), load_external_data=False).graph.node}
    assert {"DynamicQuantizeLinear", "MatMulInteger"} <= ops and "MatMul" in ops  # int8, some MatMuls kept float


def test_int8_queries_over_a_float_corpus_are_used_once_proven(db, embedder, int8_embedder):
    agent_corpus.load(db, embedder)
    _pipeline_vectors(db, embedder)
    with db.connection() as conn:
        embedding_runtime.record_runtime(conn, "onnx")
        # a proof made by an older, weaker check (stored chunks only) no longer counts, nor one made
        # for int8 before the recipe was part of the runtime (which recipe it proved is unknown)
        conn.execute("INSERT INTO corpus_meta (key, value) VALUES ('embedding_runtime_equivalent:onnx-int8', '0.99'), "
                     "('embedding_runtime_equivalent:onnx-int8:v2', '0.99')")
        assert not embedding_runtime.proven_equivalent(conn, int8_embedder.runtime_id)
    check_runtime(db, int8_embedder)
    with db.connection() as conn:
        assert embedding_runtime.proven_equivalent(conn, int8_embedder.runtime_id)
        assert embedding_runtime.recorded_runtime(conn) == "onnx"


def test_int8_is_refused_where_short_questions_miss_the_bar(db, embedder, int8_embedder, monkeypatch):
    # The real int8 model at a stricter bar than it meets: refused, naming both samples, nothing recorded.
    agent_corpus.load(db, embedder)
    _pipeline_vectors(db, embedder)
    with db.connection() as conn:
        embedding_runtime.record_runtime(conn, "onnx")
    monkeypatch.setattr(runtime_check, "MIN_COSINE", 0.99999)
    with pytest.raises(EmbeddingMismatch, match="short questions") as refused:
        check_runtime(db, int8_embedder)
    assert "stored chunks" in str(refused.value) and "FOOTNOTE_EMBEDDING_RUNTIME=onnx" in str(refused.value)
    with db.connection() as conn:
        assert not embedding_runtime.proven_equivalent(conn, int8_embedder.runtime_id)


# --- the int8 recipe is part of the file name and of the runtime a corpus records ---------------

OTHER_RECIPE = onnx_export.INT8_RECIPE | {"float_ffn_out_layers": [0, 1, 2]}


def test_the_int8_file_and_runtime_name_the_quantisation_recipe():
    fp32 = Path("/models/m-v2-1-2.onnx")
    default = onnx_export.int8_path(fp32)
    assert default.name == f"m-v2-1-2-int8-{onnx_export.INT8_TAG}.onnx"
    assert onnx_export.int8_path(fp32, OTHER_RECIPE) != default
    # every field counts, the version too
    for field, value in [("version", 99), ("per_channel", False), ("reduce_range", True), ("ops", ["MatMul", "Gemm"])]:
        assert onnx_export.recipe_tag(onnx_export.INT8_RECIPE | {field: value}) != onnx_export.INT8_TAG, field
    assert len(set(map(onnx_export.recipe_tag, onnx_export.RECIPES.values()))) == len(onnx_export.RECIPES)
    int8 = LocalEmbedder("onnx-int8", model_dir=MODEL_DIR)
    assert int8.runtime_id == f"onnx-int8@{onnx_export.INT8_TAG}"
    assert LocalEmbedder("onnx-int8", model_dir=MODEL_DIR, recipe=OTHER_RECIPE).runtime_id != int8.runtime_id
    assert LocalEmbedder("onnx", model_dir=MODEL_DIR).runtime_id == "onnx"


def test_a_changed_recipe_quantises_afresh_instead_of_reusing_the_old_file(embedder, monkeypatch, tmp_path):
    import onnx
    from onnx import helper, numpy_helper

    fp32 = onnx_export.cached_model(embedder._model_path, MODEL_DIR, embedder.model_name)
    cache = tmp_path / "models"
    cache.mkdir()
    for f in (fp32, fp32.with_name(fp32.name + ".data")):  # the float export as the cache holds it
        shutil.copyfile(f, cache / f.name)
    made = []

    def fake_quantize(source, out, recipe):  # a small valid graph (one stored weight) stands in for the int8 one
        made.append(onnx_export.recipe_tag(recipe))
        io = [helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, [1024]) for n in "xy"]
        weight = numpy_helper.from_array(np.ones(1024, dtype=np.float32), "w")
        graph = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"])], "g", io[:1], io[1:], [weight])
        onnx.save(helper.make_model(graph), str(out))

    monkeypatch.setattr(onnx_export, "quantize", fake_quantize)
    first = onnx_export.cached_model(embedder._model_path, cache, embedder.model_name, int8=True)
    again = onnx_export.cached_model(embedder._model_path, cache, embedder.model_name, int8=True)
    other = onnx_export.cached_model(embedder._model_path, cache, embedder.model_name, int8=True, recipe=OTHER_RECIPE)
    assert first == again and other != first and other.exists()
    assert made == [onnx_export.INT8_TAG, onnx_export.recipe_tag(OTHER_RECIPE)]  # once each, never the old file


def test_an_int8_ingest_records_its_recipe(db, int8_embedder):
    check_runtime(db, int8_embedder, writing=True)
    agent_corpus.load(db, int8_embedder)
    with db.connection() as conn:
        assert embedding_runtime.recorded_runtime(conn) == f"onnx-int8@{onnx_export.INT8_TAG}"
    check_runtime(db, int8_embedder)  # its own runtime: nothing to prove


def test_a_corpus_from_an_older_int8_recipe_is_proven_again_against_its_stored_vectors(db, embedder, int8_embedder):
    agent_corpus.load(db, embedder)
    _pipeline_vectors(db, int8_embedder)
    old = "onnx-int8@q2-00000000"
    with db.connection() as conn:
        embedding_runtime.record_runtime(conn, old)
        embedding_runtime.record_equivalent(conn, "onnx", 0.999)  # proofs for other runtimes prove nothing here
    with pytest.raises(ValueError, match="q2-00000000"):
        int8_embedder.on_runtime(old)  # that recipe cannot be rebuilt, so only the stored chunks can be compared
    check_runtime(db, int8_embedder)
    with db.connection() as conn:
        assert embedding_runtime.proven_equivalent(conn, int8_embedder.runtime_id)
        assert embedding_runtime.recorded_runtime(conn) == old


def test_a_corpus_from_an_int8_recipe_whose_vectors_differ_is_refused(db, embedder, int8_embedder):
    agent_corpus.load(db, embedder)
    with db.connection() as conn:
        rows = conn.execute("SELECT id FROM chunks ORDER BY id").fetchall()
        other = embedder.embed([f"An unrelated sentence about weather number {i}." for i in range(len(rows))])
        for (chunk_id,), vec in zip(rows, other, strict=True):
            conn.execute("UPDATE chunks SET embedding = %s WHERE id = %s", (vec, chunk_id))
        embedding_runtime.record_runtime(conn, "onnx-int8@q2-00000000")
    with pytest.raises(EmbeddingMismatch, match="FOOTNOTE_EMBEDDING_RUNTIME=onnx-int8,") as refused:
        check_runtime(db, int8_embedder)
    assert "on onnx-int8@q2-00000000" in str(refused.value)
    with db.connection() as conn:
        assert not embedding_runtime.proven_equivalent(conn, int8_embedder.runtime_id)


def test_bench_embedding_compares_int8_with_the_corpus_runtime_and_writes_its_figures(corpus_db, tmp_path):
    from ingest.embedding_bench import run_embedding_bench

    asked = tmp_path / "q.jsonl"
    asked.write_text(json.dumps({"id": "a", "question": "How does Apple describe its suppliers?"}) + "\n"
                     + json.dumps({"id": "b", "turns": ["hi", "What are Apple's risk factors?"]}) + "\n")
    out = tmp_path / "bench" / "embedding.json"
    settings = Settings(database_url=corpus_db.url, data_dir=tmp_path / "data")
    assert run_embedding_bench(settings, runtime="onnx-int8", reference=None, sample=30, questions=[asked], out=out,
                               recipes=["ffn-out-float-0-2"], repeat=2) == 0  # fmt: skip
    figures = json.loads(out.read_text())
    other = "int8:ffn-out-float-0-2"  # a candidate recipe, measured beside the default one
    assert figures[f"{other}_recipe"]["tag"] == onnx_export.recipe_tag(onnx_export.RECIPES["ffn-out-float-0-2"])
    assert len(figures[f"{other}_chunks_per_second_runs"]) == len(figures["onnx_chunks_per_second_runs"]) == 2
    assert 0.95 < figures[f"{other}_cosine_chunks"]["min"] <= 1.0 and figures[f"{other}_speedup_cpu"] > 0
    assert figures["reference"] == "onnx"  # the runtime that ingested the corpus
    assert figures["questions"] == len(runtime_check.PROBES) + 3
    assert 0 < figures["chunks"] <= 30
    # the stored vectors are the float runtime's own, so both comparisons see the same int8 drift
    assert figures["cosine_chunks"]["min"] == pytest.approx(figures["cosine_chunks_to_stored"]["min"], abs=1e-3)
    assert 0.95 < figures["cosine_chunks"]["min"] <= figures["cosine_chunks"]["median"] <= 1.0
    assert figures["onnx-int8_chunks_per_cpu_second"] > 0 and figures["speedup_cpu"] > 0


def test_the_float_graph_is_served_fused_and_gives_the_plain_exports_vectors(embedder):
    """ORT's BERT fusions (one Attention node per layer, fused layer norms and GELU) run the same
    arithmetic in fewer kernels; the fused file is what "onnx" serves, its vectors the plain export's."""
    import onnx

    embedder.embed(["load"])
    served = onnx_export.cached_model(embedder._model_path, MODEL_DIR, embedder.model_name)
    plain = served.with_name(served.name.replace(f"-fused{onnx_export.FUSION_VERSION}", ""))
    assert served == onnx_export.fused_path(plain) and plain.exists()
    ops = {n.op_type for n in onnx.load(str(served), load_external_data=False).graph.node}
    assert {"Attention", "SkipLayerNormalization", "EmbedLayerNormalization"} <= ops
    assert onnx_export.min_cosine(plain, served) >= onnx_export.FUSED_MIN_COSINE
    assert embedder.runtime_id == "onnx"  # the same vectors: a corpus recorded "onnx" needs no new proof


def test_a_fused_graph_that_misses_the_bar_is_not_served(embedder, monkeypatch, tmp_path, caplog):
    embedder.embed(["load"])
    served = onnx_export.cached_model(embedder._model_path, MODEL_DIR, embedder.model_name)
    plain = served.with_name(served.name.replace(f"-fused{onnx_export.FUSION_VERSION}", ""))
    for name in (plain.name, plain.name + ".data"):  # the plain export beside nothing else
        (tmp_path / name).symlink_to(plain.parent / name)
    monkeypatch.setattr(onnx_export, "FUSED_MIN_COSINE", 1.01)  # no graph can reach it
    assert onnx_export.fused(tmp_path / plain.name) == tmp_path / plain.name
    assert not onnx_export.fused_path(tmp_path / plain.name).exists()
    assert "serving the unfused graph" in caplog.text


def test_onnx_sessions_use_every_core_of_the_process_unless_told_otherwise(embedder):
    embedder.embed(["load"])
    options = embedder._model.get_session_options()
    assert options.intra_op_num_threads == options.inter_op_num_threads == 1  # one thread per call...
    assert embedder.streams == len(os.sched_getaffinity(0))  # ...and as many calls at once as cores
    assert LocalEmbedder(model_dir=MODEL_DIR, threads=1).streams == 1


def test_parallel_streams_give_the_vectors_of_one_stream_in_the_callers_order(embedder):
    texts = [*TEXTS, *(f"{t} ({i})" for i, t in enumerate(TEXTS * 30))]
    single = LocalEmbedder(model_dir=MODEL_DIR, threads=1)
    many = LocalEmbedder(model_dir=MODEL_DIR, threads=3)
    one, parallel = single.embed(texts, batch_size=8), many.embed(texts, batch_size=8)
    assert np.array_equal(one, parallel)
    assert np.allclose(many.embed(TEXTS[:2]), single.embed(TEXTS[:2]), atol=1e-6)  # a lone batch split over the streams


def test_small_calls_give_the_vectors_of_one_large_call(embedder, monkeypatch):
    import store.embedding

    texts = [*TEXTS, *(f"{t} ({i})" for i, t in enumerate(TEXTS * 12))]
    small = embedder.embed(texts)
    assert store.embedding.BATCH_TOKENS <= 1024  # the default makes many calls of these texts
    monkeypatch.setattr(store.embedding, "BATCH_TOKENS", 1 << 20)
    large = embedder.embed(texts, batch_size=len(texts))  # one call for all (split only over the streams)
    assert np.abs(small - large).max() < 1e-6


def test_a_lone_batch_is_split_over_the_streams():
    from store.embedding import _split_for

    lengths = np.array([10, 12, 11, 40, 9])
    batches = _split_for(2, [np.arange(5)], lengths)
    assert len(batches) == 2 and sorted(np.concatenate([rows for rows, _ in batches]).tolist()) == list(range(5))
    assert [width for _, width in batches] == [40, 40]  # each half padded as the whole batch was
    assert len(_split_for(4, [np.array([3])], lengths)) == 1  # one text cannot be split


def test_reembed_replaces_every_vector_and_the_runtime_without_parsing(db, embedder, int8_embedder):
    from ingest.reembed import reembed

    agent_corpus.load(db, embedder)
    with db.connection() as conn:
        embedding_runtime.record_runtime(conn, "onnx")
        embedding_runtime.record_equivalent(conn, "torch", 0.999)  # a proof about the old vectors
        before = conn.execute("SELECT id, text, embedding FROM chunks ORDER BY id").fetchall()
    version = db.corpus_version()
    done = reembed(db, int8_embedder, progress=False)
    assert done.chunks == len(before) and done.previous == "onnx" and done.runtime == int8_embedder.runtime_id
    with db.connection() as conn:
        after = conn.execute("SELECT id, text, embedding FROM chunks ORDER BY id").fetchall()
        rows = conn.execute("SELECT context, text FROM chunks ORDER BY id").fetchall()
        assert embedding_runtime.recorded_runtime(conn) == int8_embedder.runtime_id
        assert not embedding_runtime.proven_equivalent(conn, "torch")
    assert [(i, t) for i, t, _ in after] == [(i, t) for i, t, _ in before]  # the same chunks, nothing re-parsed
    stored = np.array([np.asarray(e.to_numpy() if hasattr(e, "to_numpy") else e, dtype=np.float32) for _, _, e in after])
    expected = int8_embedder.embed([embedding_input(c, t) for c, t in rows])
    assert np.allclose(stored, expected, atol=1e-6)
    old = np.array([np.asarray(e.to_numpy() if hasattr(e, "to_numpy") else e, dtype=np.float32) for _, _, e in before])
    assert not np.allclose(stored, old, atol=1e-6)  # the float vectors really were replaced
    assert db.corpus_version() != version  # cached answers over the old vectors are not served
    check_runtime(db, int8_embedder)  # its own runtime now: nothing to prove
