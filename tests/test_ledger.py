"""The chat adapters' ledger on a real Postgres: events claimed once, threads joined, and the
thread memberships of a database from before bot_threads carried over by migration 2."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bot import ledger
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
