"""A comparison that names no year reads every company at the one fiscal year they have in common,
matched by when each year ends: not Coca-Cola's fiscal 2024 beside PepsiCo's 2023.

Run over the fixture corpus (real Postgres): the year ends come from the ingested 10-Ks."""

from __future__ import annotations

from agent.retrieval.common_year import aligned_latest

AAPL, NVDA, TSLA, WMT = 320193, 1045810, 1318605, 104169


def test_a_company_a_year_ahead_is_read_at_the_year_the_other_has(corpus_db):
    with corpus_db.connection() as conn:
        # Apple's fiscal 2023 ends September 2023: Tesla's calendar 2023, not its 2024, is that year
        chosen = aligned_latest(conn, {}, {"AAPL": (AAPL, [2023]), "TSLA": (TSLA, [2024, 2023])})
    assert chosen == {"AAPL": 2023, "TSLA": 2023}


def test_years_are_matched_by_when_they_end_not_by_their_label(corpus_db):
    with corpus_db.connection() as conn:
        # Nvidia's fiscal 2025 (ended January 2025) is the year nearest Apple's fiscal 2024 (ended
        # September 2024): each one's latest already is the common year
        assert aligned_latest(conn, {}, {"AAPL": (AAPL, [2024, 2023]), "NVDA": (NVDA, [2025, 2024])}) == {}
        # Walmart's fiscal 2025 and Nvidia's fiscal 2025 both end in January 2025
        assert aligned_latest(conn, {}, {"WMT": (WMT, [2025, 2024]), "NVDA": (NVDA, [2025, 2024])}) == {}
        # with Nvidia's latest a year behind, Walmart steps back to the year ending with it
        assert aligned_latest(conn, {}, {"WMT": (WMT, [2025, 2024]), "NVDA": (NVDA, [2024])}) == \
            {"WMT": 2024, "NVDA": 2024}


def test_no_common_year_leaves_each_at_its_own_latest(corpus_db):
    with corpus_db.connection() as conn:
        # nothing of Tesla's ends within half a year of Apple's fiscal 2021: no common year to read
        assert aligned_latest(conn, {}, {"AAPL": (AAPL, [2021]), "TSLA": (TSLA, [2024])}) == {}
