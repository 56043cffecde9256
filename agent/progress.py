"""Progress from inside a node, through LangGraph's own channel: `get_stream_writer()`, read by the
service from `graph.stream(..., stream_mode="custom")`. Nodes never hold the caller's callbacks.

A note is `{"status": "Searching the filing..."}`; streamed draft text is `{"text": "..."}`.
Outside a graph run (a node called alone in a test) both are silently dropped.
"""

from __future__ import annotations

from collections.abc import Callable

from langgraph.config import get_stream_writer


def _writer() -> Callable[[dict], None]:
    try:
        return get_stream_writer()
    except RuntimeError:  # not inside a run
        return lambda chunk: None


def status(text: str) -> None:
    """A short progress note for the user ("Reading Apple's FY2024 10-K...")."""
    _writer()({"status": text})


def draft_text() -> Callable[[str], None]:
    """A sink for streamed draft text, for a composer that writes as it goes."""
    write = _writer()
    return lambda text: write({"text": text})
