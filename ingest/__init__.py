"""SEC EDGAR (or a local folder in SEC's formats) -> the store."""
