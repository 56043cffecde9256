"""Keep edgartools' own files under Footnote's data folder instead of the user's home.

edgartools picks its folders when it is imported (and writes to them then: an HTTP cache and
migration markers), and again whenever it caches a parsed document's anchors. Left alone it
uses ~/.edgar and ~/.edgar_cache, so a 10-K parse would write outside the project. Its only
switches are the EDGAR_LOCAL_DATA_DIR and EDGAR_CACHE_DIR environment variables, read on each
use; setting them before edgar is first imported also reaches the parsing worker processes,
which inherit the environment.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "EDGAR_LOCAL_DATA_DIR"
CACHE_ENV = "EDGAR_CACHE_DIR"


def confine_edgartools(data_dir: Path) -> Path:
    """Point edgartools at `<data_dir>/edgartools` (data) and `.../cache`; returns that folder.

    Called by the entry point with the configured data dir, before anything imports edgar.
    """
    root = Path(data_dir).resolve() / "edgartools"
    os.environ[DATA_ENV] = str(root)
    os.environ[CACHE_ENV] = str(root / "cache")
    return root


def confine_library_caches(data_dir: Path) -> Path:
    """Point the XDG cache folder of this process and its children at `<data_dir>/cache`.

    Libraries that keep a cache of their own write it under `~/.cache` by default (ONNX Runtime
    writes a device id there the moment it is imported); everything Footnote writes belongs under
    its data dir, so the entry point moves that folder before any such library is imported."""
    root = Path(data_dir).resolve() / "cache"
    os.environ["XDG_CACHE_HOME"] = str(root)
    return root
