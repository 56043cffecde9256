"""Postgres + pgvector: companies, filings, sections, chunks, XBRL facts, the answer cache."""
