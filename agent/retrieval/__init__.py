"""Which companies, filings and years (fetch, locate), then the facts and chunks (retrieve)."""
