"""The ingest pipeline against a real Postgres and the real embedding model.

Read-only checks use the session's `corpus_db` (the whole fixture corpus); tests that write use
the per-test empty `db` over small copies of the fixtures, to keep embedding time down.
"""

from __future__ import annotations

import shutil
from datetime import date
from decimal import Decimal

import numpy as np
import psycopg
import pytest

from ingest.pipeline import ingest_document, ingest_folder
from tests.conftest import FIXTURES, SEC_FIXTURES

# Whole ingests, subprocesses or servers: `make test-fast` leaves these out.
pytestmark = pytest.mark.slow

APPLE_FY2024 = "filings/10-K/AAPL/0000320193-0000320193-24-000123-2024-09-28.htm"
COUNTS = {t: f"SELECT count(*) FROM {t}" for t in ("companies", "filings", "sections", "chunks", "facts", "sec_tickers")}


def _counts(db) -> dict[str, int]:
    with db.connection() as conn:
        return {t: conn.execute(sql).fetchone()[0] for t, sql in COUNTS.items()}


def _one_filing_folder(tmp_path, rel=APPLE_FY2024):
    """A corpus holding the ticker map and a single 10-K."""
    (tmp_path / rel).parent.mkdir(parents=True)
    shutil.copy(SEC_FIXTURES / rel, tmp_path / rel)
    shutil.copy(SEC_FIXTURES / "company_tickers.json", tmp_path / "company_tickers.json")
    return tmp_path


class _PoisonEmbedder:
    """The real embedder, except that a chunk containing `marker` gets a NaN vector, which
    Postgres rejects mid-transaction: a crash in the middle of writing one filing."""

    def __init__(self, inner, marker: str):
        self._inner, self._marker = inner, marker
        self.model_name, self.dim, self.max_tokens = inner.model_name, inner.dim, inner.max_tokens

    def count_tokens(self, text):
        return self._inner.count_tokens(text)

    def embed(self, texts, **kw):
        out = self._inner.embed(texts, **kw)
        for i, t in enumerate(texts):
            if self._marker in t:
                out[i, 0] = np.nan
        return out


# -- the fixture corpus, ingested once ------------------------------------------------------

def test_fixture_corpus_is_complete(corpus_db):
    counts = _counts(corpus_db)
    assert counts["companies"] == 4 and counts["filings"] == 8 + 4 and counts["sec_tickers"] == 13
    # Items 1, 1A, 1C, 7, 7A, 8 in every 10-K; Part I Items 1-4, Part II Items 1, 1A, 5 in every 10-Q
    assert counts["sections"] == 8 * 6 + 4 * 7
    with corpus_db.connection() as conn:
        per_filing = conn.execute("SELECT f.form, count(*) FROM chunks c JOIN filings f USING (accession) "
                                  "GROUP BY f.accession, f.form").fetchall()
        assert len(per_filing) == 12 and all(n >= (10 if form == "10-K" else 7) for form, n in per_filing)
        assert conn.execute("SELECT count(*) FROM filings WHERE missing_items <> '{}'").fetchone()[0] == 0
        walmart = conn.execute("SELECT accession, filed, url FROM filings WHERE cik = 104169 ORDER BY period_end").fetchall()
    assert walmart[0] == ("0000104169-24-000056", None,
                          "https://www.sec.gov/Archives/edgar/data/104169/000010416924000056/0000104169-24-000056-index.htm")
    assert walmart[1][0] == "noacc-104169-2025-01-31" and walmart[1][1] == date(2025, 3, 14)


def test_no_chunk_exceeds_the_model_window(corpus_db, embedder):
    with corpus_db.connection() as conn:
        rows = conn.execute("SELECT context, text, n_tokens FROM chunks").fetchall()
    assert max(n for _, _, n in rows) <= embedder.max_tokens
    for context, text, n in rows[:20]:
        assert embedder.count_tokens(f"{context}\n{text}") == n


def _fiscal_year(conn, cik, concept, start, end, accession=None):
    sql = ("SELECT DISTINCT fiscal_year FROM facts WHERE cik = %s AND concept = %s AND period_start = %s "
           "AND period_end = %s AND NOT dimensional" + (" AND accession = %s" if accession else ""))
    args = (cik, concept, start, end) + ((accession,) if accession else ())
    return [r[0] for r in conn.execute(sql, args).fetchall()]


def test_fiscal_year_is_the_period_s_not_the_filing_s(corpus_db):
    with corpus_db.connection() as conn:
        # Apple's FY2024 10-K reports FY2022 R&D (fy=2024 as SEC gives it): it belongs to FY2022.
        row = conn.execute(
            "SELECT fiscal_year, fy, value FROM facts WHERE cik = 320193 AND concept = 'ResearchAndDevelopmentExpense' "
            "AND accession = '0000320193-24-000123' AND period_end = '2022-09-24'"
        ).fetchall()
        assert row == [(2022, 2024, Decimal("26251000000"))]
        # NVIDIA: fiscal 2024 ends in January 2024, fiscal 2025 in January 2025.
        assert _fiscal_year(conn, 1045810, "Revenues", date(2023, 1, 30), date(2024, 1, 28)) == [2024]
        assert _fiscal_year(conn, 1045810, "Revenues", date(2024, 1, 29), date(2025, 1, 26)) == [2025]
        assert _fiscal_year(conn, 1045810, "Revenues", date(2021, 2, 1), date(2022, 1, 30)) == [2022]
        # Walmart: the year ending 2024-01-31 is fiscal 2024, from both of its 10-Ks.
        assert _fiscal_year(conn, 104169, "Revenues", date(2023, 2, 1), date(2024, 1, 31)) == [2024]
        assert _fiscal_year(conn, 104169, "Revenues", date(2021, 2, 1), date(2022, 1, 31)) == [2022]
        # Apple's 53-week fiscal 2023 and Tesla's calendar years.
        assert _fiscal_year(conn, 320193, "NetIncomeLoss", date(2022, 9, 25), date(2023, 9, 30)) == [2023]
        assert _fiscal_year(conn, 1318605, "Revenues", date(2022, 1, 1), date(2022, 12, 31)) == [2022]
        # Balance-sheet instants belong to the year they close.
        assert conn.execute(
            "SELECT DISTINCT fiscal_year FROM facts WHERE cik = 104169 AND concept = 'Assets' AND period_end = '2024-01-31'"
        ).fetchall() == [(2024,)]


def test_restatement_is_two_facts_from_two_accessions(corpus_db):
    with corpus_db.connection() as conn:
        rows = conn.execute(
            "SELECT accession, value FROM facts WHERE cik = 1045810 AND concept = 'EarningsPerShareDiluted' "
            "AND fiscal_year = 2024 AND NOT dimensional AND period_end - period_start > 350 ORDER BY accession"
        ).fetchall()
    assert rows == [("0001045810-24-000029", Decimal("11.93")), ("0001045810-25-000023", Decimal("1.19"))]


def test_a_fact_in_both_the_document_and_companyfacts_is_stored_once(corpus_db):
    with corpus_db.connection() as conn:
        rows = conn.execute(
            "SELECT period_end, source, frame FROM facts WHERE cik = 320193 AND accession = '0000320193-24-000123' "
            "AND concept = 'RevenueFromContractWithCustomerExcludingAssessedTax' AND NOT dimensional ORDER BY period_end"
        ).fetchall()
        assert [r[0] for r in rows] == [date(2022, 9, 24), date(2023, 9, 30), date(2024, 9, 28)]
        assert rows[0][2] == "CY2022"  # SEC's frame, from companyfacts
        # Companyfacts-only years are there too, under accessions with no document ingested.
        old = conn.execute(
            "SELECT value FROM facts WHERE cik = 320193 AND accession = '0000320193-21-000105' AND fiscal_year = 2021 "
            "AND concept = 'RevenueFromContractWithCustomerExcludingAssessedTax' AND NOT dimensional"
        ).fetchall()
        assert old == [(Decimal("365817000000"),)]


def test_dimensional_and_extension_facts(corpus_db):
    with corpus_db.connection() as conn:
        seg = conn.execute(
            "SELECT value, dims, fiscal_year FROM facts WHERE cik = 104169 AND dimensional "
            "AND accession = 'noacc-104169-2025-01-31' AND period_end = '2025-01-31'"
        ).fetchall()
        assert seg == [(Decimal("462415000000"), {"us-gaap:StatementBusinessSegmentsAxis": "wmt:WalmartUSMember"}, 2025)]
        tesla = conn.execute(
            "SELECT value FROM facts WHERE cik = 1318605 AND taxonomy = 'tsla' "
            "AND concept = 'DepreciationAmortizationAndImpairment' AND fiscal_year = 2024"
        ).fetchall()
        assert tesla == [(Decimal("5368000000"),)]
        negative = conn.execute(
            "SELECT DISTINCT value FROM facts WHERE cik = 320193 AND concept = 'NonoperatingIncomeExpense' AND fiscal_year = 2023"
        ).fetchall()
        assert negative == [(Decimal("-565000000"),)]  # sign="-" applied once


# -- writes: idempotent, replacing, all-or-nothing ------------------------------------------

def test_second_ingest_is_a_no_op(db, embedder):
    first = ingest_folder(db, embedder, SEC_FIXTURES, tickers=["AAPL"], progress=False)
    assert len(first.ingested) == 3 and first.companyfacts_loaded == 1 and not first.failed  # two 10-Ks, a 10-Q
    before, version = _counts(db), db.corpus_version()
    again = ingest_folder(db, embedder, SEC_FIXTURES, tickers=["AAPL"], progress=False)
    assert again.ingested == [] and again.unchanged == 3 and again.companyfacts_unchanged == 1
    assert again.embedded_chunks == 0  # not even parsed or embedded
    assert _counts(db) == before and db.corpus_version() == version


def test_a_changed_document_replaces_its_rows(db, embedder, tmp_path):
    folder = _one_filing_folder(tmp_path)
    ingest_folder(db, embedder, folder, progress=False)
    before, version = _counts(db), db.corpus_version()
    doc = folder / APPLE_FY2024
    text = doc.read_text()
    old = "The Company faces intense competition in every market it serves."
    new = "The Company now also faces new competition from satellite handset makers."
    assert old in text
    doc.write_text(text.replace(old, new).replace(">391,035<", ">391,036<"))
    summary = ingest_folder(db, embedder, folder, progress=False)
    assert len(summary.ingested) == 1
    with db.connection() as conn:
        texts = " ".join(r[0] for r in conn.execute("SELECT text FROM chunks"))
        revenue = conn.execute(
            "SELECT value FROM facts WHERE concept = 'RevenueFromContractWithCustomerExcludingAssessedTax' "
            "AND period_end = '2024-09-28' AND NOT dimensional"
        ).fetchall()
    assert new in texts and old not in texts
    assert revenue == [(Decimal("391036000000"),)]
    after = _counts(db)
    assert after["filings"] == before["filings"] == 1 and after["facts"] == before["facts"]
    assert int(db.corpus_version()) > int(version)


def test_a_crash_mid_filing_leaves_the_previous_version(db, embedder, tmp_path):
    folder = _one_filing_folder(tmp_path)
    ingest_folder(db, embedder, folder, progress=False)
    before, version = _counts(db), db.corpus_version()
    with db.connection() as conn:
        old_hash = conn.execute("SELECT content_hash FROM filings").fetchone()[0]
    doc = folder / APPLE_FY2024
    doc.write_text(doc.read_text().replace("intense competition", "POISON competition"))
    with pytest.raises(psycopg.Error):
        ingest_folder(db, _PoisonEmbedder(embedder, "POISON"), folder, progress=False)
    assert _counts(db) == before and db.corpus_version() == version
    with db.connection() as conn:
        assert conn.execute("SELECT content_hash FROM filings").fetchone()[0] == old_hash
        assert conn.execute("SELECT count(*) FROM chunks WHERE text LIKE '%%POISON%%'").fetchone()[0] == 0


def test_a_crash_on_a_new_filing_leaves_nothing_of_it(db, embedder, tmp_path):
    folder = _one_filing_folder(tmp_path)
    with pytest.raises(psycopg.Error):
        ingest_folder(db, _PoisonEmbedder(embedder, "intense competition"), folder, progress=False)
    counts = _counts(db)
    assert counts["filings"] == counts["sections"] == counts["chunks"] == counts["facts"] == 0


def test_bad_inputs_are_named_and_the_rest_is_ingested(db, embedder, tmp_path):
    shutil.copytree(FIXTURES / "bad", tmp_path / "c")
    good = tmp_path / "c" / APPLE_FY2024
    shutil.copy(SEC_FIXTURES / APPLE_FY2024, good)
    summary = ingest_folder(db, embedder, tmp_path / "c", progress=False)
    assert [o.accession for o in summary.ingested] == ["0000320193-24-000123"]
    reasons = sorted(o.reason for o in summary.failed)
    assert len(reasons) == 4
    assert any("CIK0000320193.json: truncated JSON" in r for r in reasons)
    assert any("2022-09-24.htm: malformed HTML: truncated" in r for r in reasons)
    assert any("2024-06-29.htm: not a 10-K (dei:DocumentType is '10-Q')" in r for r in reasons)
    assert any("ZZZZ/0009999999-noacc-2024-09-28.htm: unknown ticker ZZZZ" in r for r in reasons)
    assert all("\n" not in r for r in reasons)
    text = "\n".join(summary.lines())
    assert "1 ingested" in text and text.count("FAILED:") == 4
    assert _counts(db)["filings"] == 1


def test_unknown_requested_ticker_is_reported(db, embedder):
    summary = ingest_folder(db, embedder, SEC_FIXTURES, tickers=["FOOBAR"], progress=False)
    assert summary.ingested == [] and summary.errors == [
        ("FOOBAR", "unknown ticker: not in SEC's ticker map and no 10-K or 10-Q for it in the folder")
    ]


def test_one_document_from_bytes(db, embedder):
    data = (SEC_FIXTURES / "filings/10-K/TSLA/0001318605-0001628280-25-003063-2024-12-31.htm").read_bytes()
    outcome = ingest_document(db, embedder, data, source="tsla.htm", accession="0001628280-25-003063")
    assert outcome.status == "ingested" and outcome.fiscal_year == 2024 and outcome.chunks > 0
    bad = ingest_document(db, embedder, data[: len(data) // 2], source="half.htm")
    assert bad.status == "failed" and bad.reason.startswith("half.htm: malformed HTML: truncated")
    with db.connection() as conn:
        assert conn.execute("SELECT count(*) FROM filings").fetchone()[0] == 1
        assert conn.execute(
            "SELECT count(*) FROM chunks WHERE item = '1A' AND text LIKE '%%Ignore previous instructions%%'"
        ).fetchone()[0] == 1


def test_a_writer_error_reaches_the_embedding_thread_even_with_a_full_queue(db):
    """The writer stops on its first error; the embedder must get that error, not block forever."""
    from types import SimpleNamespace

    from ingest.writer import WRITE_QUEUE, _Ready, _Writer
    from ingest.summary import IngestSummary

    class _Bar:
        def update(self, n):
            pass

    writer = _Writer(db, {}, IngestSummary(), _Bar())  # no companies: the first write fails
    ready = _Ready(SimpleNamespace(cik=1), None, [], True)
    with pytest.raises(KeyError):
        for _ in range(WRITE_QUEUE + 3):
            writer.put([ready], np.zeros((0, 384), dtype=np.float32))
        writer.close()


# -- vectors computed once ------------------------------------------------------------------


class _CountingEmbedder:
    """The real embedder, counting the texts it is asked to embed."""

    def __init__(self, inner):
        self._inner, self.texts = inner, []
        self.model_name, self.dim, self.max_tokens = inner.model_name, inner.dim, inner.max_tokens
        self.runtime = inner.runtime

    def count_tokens(self, text):
        return self._inner.count_tokens(text)

    def token_counter(self):
        return self._inner.token_counter()

    def embed(self, texts, **kw):
        self.texts += texts
        return self._inner.embed(texts, **kw)


CHUNK_ROWS = "SELECT item, ordinal, is_table, context, text, n_tokens, embedding FROM chunks ORDER BY item, ordinal"


def _chunk_rows(db):
    with db.connection() as conn, conn.cursor(binary=True) as cur:
        return [(*r[:6], r[6].to_numpy()) for r in cur.execute(CHUNK_ROWS).fetchall()]


def _edit_one_sentence(folder):
    doc = folder / APPLE_FY2024
    old = "The Company faces intense competition in every market it serves."
    text = doc.read_text()
    assert old in text
    doc.write_text(text.replace(old, "The Company now also faces new competition from satellite handset makers."))


def test_a_changed_document_embeds_only_its_changed_chunks_and_stores_what_a_fresh_ingest_does(
        db, embedder, tmp_path, make_database):  # fmt: skip
    folder = _one_filing_folder(tmp_path)
    ingest_folder(db, embedder, folder, progress=False)
    before = {(r[3], r[4]): r[6] for r in _chunk_rows(db)}
    _edit_one_sentence(folder)
    counting = _CountingEmbedder(embedder)
    summary = ingest_folder(db, counting, folder, progress=False)
    reused = _chunk_rows(db)
    assert len(summary.ingested) == 1 and summary.embedded_chunks == len(reused)
    assert 0 < len(counting.texts) <= 3 and summary.reused_vectors == len(reused) - len(counting.texts)
    assert all("satellite handset" in t for t in counting.texts)
    kept = [r for r in reused if (r[3], r[4]) in before]
    assert len(kept) == len(reused) - len(counting.texts)
    assert all(np.array_equal(r[6], before[(r[3], r[4])]) for r in kept)  # the stored vector, bit for bit

    fresh_db = make_database()
    ingest_folder(fresh_db, embedder, folder, progress=False)  # the same document, every chunk embedded
    fresh = _chunk_rows(fresh_db)
    assert [r[:6] for r in reused] == [r[:6] for r in fresh]
    cosines = [float(a[6] @ b[6] / (np.linalg.norm(a[6]) * np.linalg.norm(b[6]))) for a, b in zip(reused, fresh)]
    assert min(cosines) > 0.99999


def test_stored_vectors_are_not_reused_once_another_runtime_may_have_written_some(db, embedder, tmp_path):
    from store import embedding_runtime

    folder = _one_filing_folder(tmp_path)
    ingest_folder(db, embedder, folder, progress=False)
    with db.connection() as conn:
        embedding_runtime.record_equivalent(conn, "onnx-int8", 0.995)
    _edit_one_sentence(folder)
    counting = _CountingEmbedder(embedder)
    summary = ingest_folder(db, counting, folder, progress=False)
    assert summary.reused_vectors == 0 and len(counting.texts) == summary.embedded_chunks == _counts(db)["chunks"]


def test_a_text_twice_in_one_batch_is_embedded_once(embedder):
    from ingest.pipeline import _vectors

    counting = _CountingEmbedder(embedder)
    texts = ["Apple 10-K FY2024 — Item 1A Risk Factors:\nNone.", "Apple 10-K FY2024 — Item 1:\nWe make phones.",
             "Apple 10-K FY2024 — Item 1A Risk Factors:\nNone."]  # fmt: skip
    vectors, embedded = _vectors(counting, texts, {})
    assert embedded == 2 and counting.texts == texts[:2]
    assert np.array_equal(vectors[0], vectors[2]) and not np.array_equal(vectors[0], vectors[1])
    alone = embedder.embed(texts)
    assert np.allclose(vectors, alone, atol=1e-6)


def test_companyfacts_load_beside_the_first_embedding_and_are_stored_before_any_filing(db, embedder, tmp_path,
                                                                                       monkeypatch):  # fmt: skip
    """The embedder starts on the first parsed filing without waiting for companyfacts (they load on
    the writer thread), and they are still stored before any filing: a filing's facts take their
    fiscal years from the companyfacts' year ends, as when they were loaded first."""
    import threading

    import ingest.pipeline as pipeline
    import ingest.writer as writer

    folder = _one_filing_folder(tmp_path)
    (folder / "companyfacts").mkdir()
    shutil.copy(SEC_FIXTURES / "companyfacts/CIK0000320193.json", folder / "companyfacts/CIK0000320193.json")
    embedding, order = threading.Event(), []

    class _Telling(_CountingEmbedder):
        def embed(self, texts, **kw):
            embedding.set()
            return super().embed(texts, **kw)

    load, write = pipeline._load_companyfacts, writer._write

    def slow_load(*args, **kw):
        order.append(("embedding had started", embedding.wait(timeout=60)))
        out = load(*args, **kw)
        order.append("companyfacts stored")
        return out

    def noted_write(*args, **kw):
        order.append("filing stored")
        return write(*args, **kw)

    monkeypatch.setattr(pipeline, "_load_companyfacts", slow_load)
    monkeypatch.setattr(writer, "_write", noted_write)
    summary = ingest_folder(db, _Telling(embedder), folder, progress=False)
    assert order == [("embedding had started", True), "companyfacts stored", "filing stored"]
    assert summary.companyfacts_loaded == 1 and len(summary.ingested) == 1 and not summary.failed
    with db.connection() as conn:
        years = conn.execute("SELECT DISTINCT fiscal_year FROM facts WHERE period_end = '2024-09-28'").fetchall()
        sources = conn.execute("SELECT count(DISTINCT accession) FROM facts WHERE period_end = '2024-09-28'").fetchone()
    assert years == [(2024,)] and sources[0] >= 1


def test_a_company_s_fiscal_years_are_refreshed_by_the_writer_once_its_last_filing_is_in(db, embedder, tmp_path,
                                                                                          monkeypatch):  # fmt: skip
    """Refreshing a company's fiscal years reads all its facts: it is done on the writer thread as
    soon as the company's last filing is stored, beside the embedding of the next company's, not
    for every company once all are in (and not twice)."""
    import threading

    import ingest.writer as writer
    from store import writes

    folder = _one_filing_folder(tmp_path)
    nvda = "filings/10-K/NVDA/0001045810-0001045810-25-000023-2025-01-26.htm"
    (folder / nvda).parent.mkdir(parents=True)
    shutil.copy(SEC_FIXTURES / nvda, folder / nvda)
    events = []
    refresh, write = writes.refresh_fiscal_years, writer._write

    def noted_refresh(conn, cik):
        events.append(("refresh", cik, threading.current_thread().name))
        return refresh(conn, cik)

    def noted_write(db, conn, ready, *args, **kw):
        events.append(("write", ready.file.cik, threading.current_thread().name))
        return write(db, conn, ready, *args, **kw)

    monkeypatch.setattr(writes, "refresh_fiscal_years", noted_refresh)
    monkeypatch.setattr(writer, "_write", noted_write)
    summary = ingest_folder(db, embedder, folder, progress=False, workers=0)
    assert len(summary.ingested) == 2 and not summary.failed
    w = "ingest-writer"
    assert events == [("write", 320193, w), ("refresh", 320193, w), ("write", 1045810, w), ("refresh", 1045810, w)]
    with db.connection() as conn:
        years = conn.execute("SELECT DISTINCT fiscal_year FROM facts WHERE cik = 1045810 AND period_end = '2025-01-26'")
        assert years.fetchall() == [(2025,)]


def test_the_last_batch_is_embedded_a_filing_per_call_so_the_writer_stores_one_while_the_next_embeds(
        db, embedder, tmp_path, monkeypatch):  # fmt: skip
    """Once the last document is handed over, whatever batch is left is the ingest's tail: with one
    call for all of it, every filing in it was written after the last embedding, a core idle. A
    filing per call lets the writer store each while the next is embedded."""
    import threading
    import time

    import ingest.parse_worker as parse_worker
    import ingest.writer as writer

    folder = _one_filing_folder(tmp_path)
    for rel in ("filings/10-K/AAPL/0000320193-0000320193-23-000106-2023-09-30.htm",
                "filings/10-K/NVDA/0001045810-0001045810-25-000023-2025-01-26.htm"):  # fmt: skip
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SEC_FIXTURES / rel, folder / rel)
    parsers, written, calls = [], [], []
    second_written = threading.Event()
    init, write = parse_worker._Parser.__init__, writer._write

    def noted_init(self, *args, **kw):
        init(self, *args, **kw)
        parsers.append(self)

    def noted_write(db, conn, ready, *args, **kw):
        out = write(db, conn, ready, *args, **kw)
        written.append(ready.file.key)
        if len(written) == 2:
            second_written.set()
        return out

    class _Pacing(_CountingEmbedder):
        def embed(self, texts, **kw):
            if not calls:  # the first filing's call: the other two are parsed meanwhile
                (parser,) = parsers
                deadline = time.monotonic() + 120
                while not all(p.done() for p in parser._pending) and time.monotonic() < deadline:
                    time.sleep(0.05)
            elif len(calls) == 2:  # the last filing's call: the second one is stored meanwhile
                calls.append(("second filing stored during the last call", second_written.wait(timeout=30)))
            calls.append(len(texts))
            return super().embed(texts, **kw)

    monkeypatch.setattr(parse_worker._Parser, "__init__", noted_init)
    monkeypatch.setattr(writer, "_write", noted_write)
    summary = ingest_folder(db, _Pacing(embedder), folder, progress=False, workers=1)
    assert len(summary.ingested) == 3 and not summary.failed
    with db.connection() as conn:
        per_filing = [n for (n,) in conn.execute(
            "SELECT count(*) FROM chunks GROUP BY accession ORDER BY min(id)")]
    assert calls == [per_filing[0], per_filing[1], ("second filing stored during the last call", True), per_filing[2]]
