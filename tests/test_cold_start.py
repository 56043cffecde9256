"""A cold process loads only what its command and question need: the CLI registers the command's
own module, and the directory's corpus-wide label indexes are read the first time a question
looks at them, with the same contents as an eager load."""

from __future__ import annotations

import argparse
import contextlib
import importlib

import pytest

from agent.planning.companies import CompanyDirectory, LazyWordSets
from agent.planning.rules import plan_rules
from agent.planning.words import join_printed_names
from bot.cli import COMMANDS, MODULES, build_parser
from ingest.line_items import LineItem
from store.labels import replace_labels


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def test_every_command_is_mapped_to_the_module_that_registers_it():
    for module_name in MODULES:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(module_name).register(sub)
        assert set(sub.choices) == {c for c, owner in COMMANDS.items() if owner == module_name}, module_name
    assert _commands(build_parser()) == {"bench", *COMMANDS}


def test_a_command_registers_only_its_own_module():
    assert _commands(build_parser(["ask", "What was Apple's revenue?"])) == {"bench", "ask", "chat", "statement"}
    assert _commands(build_parser(["teams", "--port", "1"])) == {"bench", "slack", "serve", "worker", "teams", "feedback"}
    # help, benches and a misspelt command see every command
    for argv in ([], ["--help"], ["bench", "startup"], ["aks"]):
        assert _commands(build_parser(argv)) == {"bench", *COMMANDS}, argv
    assert build_parser(["ask", "q", "--no-cache"]).parse_args(["ask", "q", "--no-cache"]).no_cache


def _row(concept: str, label: str, row: int) -> LineItem:
    return LineItem("us-gaap", concept, label, "income", 1, row, False)


@pytest.fixture()
def labelled(db):
    """Two covered companies; both print "Sales and marketing", one also "Occupancy and equipment"."""
    with db.connection() as conn:
        conn.execute("INSERT INTO companies (cik, name, tickers) VALUES (1, 'Alpha Corp', '{ALP}'), "
                     "(2, 'Beta Corp', '{BET}')")
        for cik in (1, 2):
            conn.execute("INSERT INTO filings (accession, cik, form, fiscal_year, period_end, url, content_hash) "
                         "VALUES (%s, %s, '10-K', 2024, '2024-12-31', 'u', 'h')", (f"acc-{cik}", cik))
        replace_labels(conn, "acc-1", 1, [_row("SellingAndMarketingExpense", "Sales and marketing", 1),
                                          _row("OccupancyNet", "Occupancy and equipment", 2),
                                          _row("Revenues", "Net revenues", 3)])
        replace_labels(conn, "acc-2", 2, [_row("SellingAndMarketingExpense", "Sales & marketing", 1)])
    return db


def _counting(db):
    opened = []

    @contextlib.contextmanager
    def connect():
        opened.append(1)
        with db.connection() as conn:
            yield conn

    return connect, opened


def test_label_indexes_are_read_on_first_use_and_equal_an_eager_load(labelled):
    connect, opened = _counting(labelled)
    with labelled.connection() as conn:
        eager = CompanyDirectory.load(conn)
        lazy = CompanyDirectory.load(conn, connect=connect)
    assert opened == []
    names = lazy.joined_names(["ALP"])
    assert isinstance(names, LazyWordSets) and opened == []
    assert frozenset(names) == eager.joined_names(["ALP"]) and len(opened) == 1
    assert frozenset(lazy.joined_names(["BET"])) == eager.joined_names(["BET"])  # one read serves every company
    assert len(opened) == 1
    occupancy = next(w for w in eager.joined[1] if "occupancy" in w)
    assert occupancy in lazy.joined_names(["ALP"]) and occupancy not in lazy.joined_names(["BET"])
    assert lazy.line_names.ready is False
    assert frozenset(lazy.line_names) == eager.line_names and len(opened) == 2


def test_a_question_without_and_never_reads_the_joined_names():
    def unread():
        raise AssertionError("read although no word is an 'and'")

    words = "what was alpha's revenue in 2024".split()
    assert join_printed_names([None] * len(words), words, LazyWordSets(unread)) == {}
    words = "alpha sales and marketing 2024".split()
    with pytest.raises(AssertionError):
        join_printed_names([None] * len(words), words, LazyWordSets(unread))


def test_a_numeric_question_is_planned_without_the_label_indexes(labelled):
    connect, opened = _counting(labelled)
    with labelled.connection() as conn:
        directory = CompanyDirectory.load(conn, connect=connect)
    plan = plan_rules("What was Alpha's revenue in fiscal 2024?", directory=directory)
    assert (plan.tickers, plan.metrics) == (["ALP"], ["revenue"])
    assert opened == []
    plan = plan_rules("Alpha sales and marketing in fiscal 2024", directory=directory)
    assert plan.tickers == ["ALP"] and opened == [1]  # an "and" looks, once


class _Counting:
    """An embedder at the network edge's place: deterministic vectors, and a count of texts embedded."""

    dim = 4

    def __init__(self, folder, identity="model-a|onnx"):
        self.vector_cache_dir = folder
        self.vector_identity = identity
        self.embedded = 0

    def embed(self, texts):
        import numpy as np

        self.embedded += len(texts)
        return np.array([[len(t), t.count("a"), 1.0, 0.0] for t in texts], dtype=np.float64)


def test_fixed_texts_are_embedded_once_per_model_and_read_back_after(tmp_path):
    from store.vector_cache import cached_vectors

    texts = ["hello", "what can you do", "thanks a lot"]
    first = _Counting(tmp_path)
    made = cached_vectors(first, texts, "exemplars")
    assert first.embedded == 3 and made.dtype.name == "float32"
    later = _Counting(tmp_path)  # another process, the same weights and runtime
    assert (cached_vectors(later, texts, "exemplars") == made).all() and later.embedded == 0
    assert cached_vectors(later, [*texts, "bye"], "exemplars").shape == (4, 4) and later.embedded == 4
    other = _Counting(tmp_path, identity="model-a|onnx-int8@x")  # another runtime: its own vectors
    cached_vectors(other, texts, "exemplars")
    assert other.embedded == 3


def test_a_damaged_or_unnamed_cache_is_embedded_again(tmp_path):
    from store.vector_cache import cached_vectors

    texts = ["hello", "bye"]
    cached_vectors(_Counting(tmp_path), texts, "exemplars")
    for path in tmp_path.glob("exemplars-*.npy"):
        path.write_bytes(b"cut short")
    again = _Counting(tmp_path)
    cached_vectors(again, texts, "exemplars")
    assert again.embedded == 2
    assert cached_vectors(_Counting(tmp_path), texts, "exemplars").shape == (2, 4)  # rewritten whole
    unnamed = _Counting(tmp_path, identity=None)
    cached_vectors(unnamed, texts, "exemplars")
    cached_vectors(unnamed, texts, "exemplars")
    assert unnamed.embedded == 4


def test_the_local_model_names_what_its_vectors_depend_on(tmp_path):
    from store.embedding import LocalEmbedder

    onnx = LocalEmbedder("onnx", model_dir=tmp_path)  # the tokenizer only: no model is loaded
    int8 = LocalEmbedder("onnx-int8", model_dir=tmp_path)
    assert onnx.vector_cache_dir == tmp_path and not onnx.loaded
    assert onnx.vector_identity != int8.vector_identity
    assert onnx.vector_identity == LocalEmbedder("onnx", model_dir=tmp_path / "x").vector_identity


def test_routing_exemplars_are_embedded_once_across_processes(tmp_path):
    from agent.planning import exemplars

    first, second = _Counting(tmp_path), _Counting(tmp_path)
    vectors = exemplars._exemplar_vectors(first)
    assert first.embedded == len(exemplars.load()) == len(vectors)
    assert (exemplars._exemplar_vectors(second) == vectors).all() and second.embedded == 0
