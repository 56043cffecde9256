"""A company the store knows by name but holds nothing of (no 10-K, no 10-Q, no fiscal year's figure:
a foreign filer whose 20-F facts carry no fiscal year) is refused as not covered, naming it, never as
"no fiscal year for it yet" as if a year were missing. Real Postgres, the whole graph."""

from __future__ import annotations

from agent.answer import Turn
from store.writes import upsert_company


def test_a_company_with_nothing_held_is_not_covered(db, embedder):
    from bot.settings import Settings
    from bot.wiring import build_footnote

    with db.connection() as conn:
        upsert_company(conn, 1046179, "Taiwan Semiconductor Manufacturing Co Ltd", ["TSM"], None)
    footnote = build_footnote(db, embedder, Settings(llm="off"), use_cache=False)
    answer = footnote.answer(Turn(thread_key="test:nothing-held", user="u", text="TSM revenue 2024"))
    assert answer.kind == "refusal" and answer.refusal_reason == "not_covered", answer.text
    assert "Taiwan Semiconductor" in answer.text and "fiscal year" not in answer.text, answer.text
