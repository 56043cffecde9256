"""The chat adapters' ledger on a real Postgres: events claimed once, threads joined, and the
thread memberships of a database from before bot_threads carried over by migration 2."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from store import ledger
from store import migrations


def test_an_event_is_claimed_once_across_concurrent_deliveries(db):
    with ThreadPoolExecutor(max_workers=4) as pool:
        wins = list(pool.map(lambda _: ledger.claim_event(db, "slack", "Ev0001"), range(8)))
    assert wins.count(True) == 1
    assert ledger.claim_event(db, "slack", "Ev0002") is True


def test_a_joined_thread_is_remembered_with_its_platform(db):
    key = "slack:T1:C1:1700000000.000100"
    assert not ledger.in_thread(db, key)
    ledger.join_thread(db, key)
    ledger.join_thread(db, key)  # a second answer in the same thread
    assert ledger.in_thread(db, key)
    assert not ledger.in_thread(db, "slack:T1:C1:1700000000.000200")
    with db.connection() as conn:
        rows = conn.execute("SELECT thread_key, platform FROM bot_threads").fetchall()
        events = conn.execute("SELECT count(*) FROM processed_events").fetchone()[0]
    assert rows == [(key, "slack")] and events == 0


def test_migration_2_carries_thread_rows_out_of_processed_events(make_database):
    db = make_database()
    key = "slack:T9:C9:1700000000.000900"
    with db.connection() as conn:
        # The database as migration 1 left it, with a thread recorded the old way.
        conn.execute("DROP TABLE bot_threads")
        conn.execute("DELETE FROM schema_migrations WHERE version >= 2")
        conn.execute("INSERT INTO processed_events (event_id, platform) VALUES (%s, 'thread'), ('slack:Ev9', 'slack')",
                     (f"thread:{key}",))
        assert migrations.apply(conn, dim=384, model="all-MiniLM-L6-v2") == len(migrations.MIGRATIONS)
        events = conn.execute("SELECT event_id FROM processed_events").fetchall()
    assert ledger.in_thread(db, key)
    assert events == [("slack:Ev9",)]


def test_footnote_feedback_lists_the_latest_thumbs_down_with_question_reason_and_answer(db, capsys):
    from bot import feedback_cli
    from store import ledger

    ref = "slack:C1:1700.1"
    first = ledger.record_feedback(db, platform="slack", thread_key="slack:T:C1:1700.0", user_id="U1", rating=-1,
                                   question="What was Apple's revenue in fiscal 2024?", answer={"text": "Apple's revenue was $391.04 billion [1]."},
                                   answer_ref=ref)
    again = ledger.record_feedback(db, platform="slack", thread_key="slack:T:C1:1700.0", user_id="U1", rating=-1,
                                   question="What was Apple's revenue in fiscal 2024?", answer={"text": "Apple's revenue was $391.04 billion [1]."},
                                   answer_ref=ref)
    assert again == first, "one vote per user per answer"
    ledger.record_reason(db, first, "U1", "wrong_company_year", "I meant 2023")
    ledger.record_feedback(db, platform="teams", thread_key="teams:t:c", user_id="29:x", rating=1, question="fine",
                           answer={}, answer_ref="teams:c:1")
    text = feedback_cli.render(ledger.latest_down(db))
    assert "Q: What was Apple's revenue in fiscal 2024?" in text
    assert "Why: Wrong company or year: I meant 2023" in text
    assert "$391.04 billion" in text and "fine" not in text
