"""`footnote ingest` and `footnote tickers` end to end: argparse, settings, the database, and for
the SEC path a fake SEC on 127.0.0.1 serving the fixture corpus over real HTTP."""

from __future__ import annotations

import argparse

import pytest

from bot.settings import Settings
from ingest import cli
from tests.conftest import SEC_FIXTURES
from tests.fakes.fake_sec import FakeSec

# Whole ingests, subprocesses or servers: `make test-fast` leaves these out.
pytestmark = pytest.mark.slow


def _run(argv: list[str], settings: Settings) -> int:
    parser = argparse.ArgumentParser(prog="footnote")
    sub = parser.add_subparsers(dest="command", required=True)
    cli.register(sub)
    args = parser.parse_args(argv)
    return args.func(args, settings)


def test_ingest_from_sec_then_tickers(db, tmp_path, capsys):
    with FakeSec.from_folder(SEC_FIXTURES) as sec:
        settings = Settings(database_url=db.url, data_dir=tmp_path / "data", sec_identity="Footnote Tests tests@example.com",
                            sec_www_url=sec.www_url, sec_data_url=sec.data_url, sec_max_rps=1000.0)  # fmt: skip
        assert _run(["ingest", "NVDA", "--years", "2025", "--quiet"], settings) == 0
        out = capsys.readouterr().out
        assert "4 ingested (1 10-K, 3 10-Q)" in out and "0 failed" in out  # fiscal 2025: the 10-K and Q1-Q3
        assert any(r.path.endswith("/nvda-20250126.htm") for r in sec.requests)
        assert any(r.path.endswith("/nvda-20240728.htm") for r in sec.requests)
    with db.connection() as conn:
        rows = conn.execute("SELECT accession, fiscal_year, filed, url, form, fiscal_period FROM filings "
                            "ORDER BY period_end").fetchall()  # fmt: skip
    assert [(r[0], r[1], r[5]) for r in rows] == [
        ("0001045810-24-000124", 2025, "Q1"), ("0001045810-24-000264", 2025, "Q2"),
        ("0001045810-24-000316", 2025, "Q3"), ("0001045810-25-000023", 2025, "FY"),
    ]  # fmt: skip
    assert rows[-1][3].endswith("/000104581025000023/nvda-20250126.htm")
    assert (tmp_path / "data" / "sec-cache").is_dir()  # raw responses cached under the data dir

    assert _run(["tickers"], settings) == 0
    table = capsys.readouterr().out
    assert table.splitlines()[1].split()[:3] == ["NVDA", "Nvidia", "FY2025"]  # the display name, its 10-K year
    assert "FY2025 Q1–Q3" in table.splitlines()[1]

    assert _run(["ingest", "NVDA", "--years", "2025", "--quiet", "--no-quarters"], settings) == 0
    assert "1 seen, 0 ingested, 1 unchanged" in capsys.readouterr().out  # the 10-K alone, already in


def test_ingest_from_folder_reports_failures_with_exit_status(db, tmp_path, capsys):
    settings = Settings(database_url=db.url, data_dir=tmp_path / "data")
    status = _run(["ingest", "--from", str(SEC_FIXTURES), "--tickers", "TSLA,FOOBAR", "--quiet"], settings)
    out = capsys.readouterr().out
    assert status == cli.PARTIAL
    assert "2 ingested" in out and "ERROR: FOOBAR: unknown ticker" in out


def test_bench_is_skipped_without_the_corpus(tmp_path, capsys):
    from ingest.bench import run_bench

    assert run_bench(Settings(data_dir=tmp_path), tmp_path / "absent", limit=None, out=tmp_path / "b.json") == 0
    assert "skipped" in capsys.readouterr().out and not (tmp_path / "b.json").exists()


def test_bench_writes_its_figures(pg_server_url, tmp_path, capsys):
    import json

    from ingest.bench import run_bench

    out = tmp_path / "bench" / "ingest.json"
    settings = Settings(database_url=pg_server_url, data_dir=tmp_path / "data")
    assert run_bench(settings, SEC_FIXTURES, limit=2, out=out, workers=0, repeat=2) == 0
    figures = json.loads(out.read_text())
    assert figures["repeat"] == 2 and len(figures["ratio_pipeline_to_raw_runs"]) == 2
    assert figures["raw_embedding_seconds"] == pytest.approx(sum(figures["raw_embedding_seconds_runs"]) / 2, abs=0.02)
    assert figures["filings_ingested"] == 2 and figures["filings_failed"] == 0 and figures["chunks"] > 0
    for key in ("filings_per_minute", "chunks_per_second", "raw_embedding_chunks_per_second",
                "ratio_pipeline_to_raw", "peak_memory_mb", "db_mb_per_filing"):
        assert figures[key] > 0, key
    assert "ratio_pipeline_to_raw" in capsys.readouterr().out


def test_bench_reports_where_the_pipeline_spends_cpu(tmp_path, capsys):
    """On the embedded server the bench sees (no DATABASE_URL), with a parse worker: every part of
    the CPU beside the embedder is counted, and the bound is raw embedding's CPU over all of it."""
    import json

    from ingest.bench import run_bench

    out = tmp_path / "ingest.json"
    assert run_bench(Settings(data_dir=tmp_path / "data"), SEC_FIXTURES, limit=3, out=out, workers=1, repeat=1) == 0
    f = json.loads(out.read_text())
    for key in ("raw_embedding_cpu_seconds", "pipeline_main_process_cpu_seconds", "writer_thread_cpu_seconds",
                "parse_worker_cpu_seconds_in_clock", "parse_worker_warm_up_cpu_seconds", "postgres_cpu_seconds"):
        assert f[key] > 0, key
    assert f["writer_thread_cpu_seconds"] < f["pipeline_main_process_cpu_seconds"]
    total = f["pipeline_main_process_cpu_seconds"] + f["parse_worker_cpu_seconds_in_clock"] + f["postgres_cpu_seconds"]
    assert f["cpu_beside_embedder_seconds"] == pytest.approx(total - f["raw_embedding_cpu_seconds"], abs=0.02)
    assert f["cpu_bound_ratio"] == pytest.approx(f["raw_embedding_cpu_seconds"] / total, abs=0.02)
    assert f["cpu_bound_ratio_runs"] == [f["cpu_bound_ratio"]]
    assert "cpu_bound_ratio" in capsys.readouterr().out
