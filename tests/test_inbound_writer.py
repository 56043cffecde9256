"""The front's queue writer (store/inbound.py `Writer`): what waits is written in one statement, in
arrival order, each request once, on a connection of its own that comes back after it is lost.
Real Postgres; a lock held by another session stands in for a slow write."""

from __future__ import annotations

import uuid

import psycopg
import pytest

from store import inbound
from store.db import is_outage


@pytest.fixture
def writer(db):
    w = inbound.Writer(db.url)
    yield w
    w.close()
    with db.connection() as conn:
        conn.execute("DELETE FROM inbound_events")


def test_a_burst_is_written_in_one_or_two_statements_in_arrival_order_each_request_once(db, writer):
    run = uuid.uuid4().hex[:8]
    ids = [f"Ev{run}{i:03d}" for i in range(50)]
    with psycopg.connect(db.url, autocommit=True) as blocker:
        # A write that cannot finish yet (another session holds the table): the burst waits behind it.
        blocker.execute("BEGIN")
        blocker.execute("LOCK TABLE inbound_events IN ACCESS EXCLUSIVE MODE")
        futures = [writer.submit("slack", e, f'{{"n": {i}}}', {"x-slack-retry-num": None}) for i, e in enumerate(ids)]
        again = [writer.submit("slack", e, "{}", {}) for e in ids[:5]]  # Slack's retries, in the same burst
        assert not any(f.done() for f in futures), "nothing is acknowledged as queued before it is written"
        blocker.execute("COMMIT")
    assert [f.result(10) for f in futures] == [True] * 50
    assert [f.result(10) for f in again] == [False] * 5, "a redelivery in the same batch is not queued twice"
    assert writer.writes <= 2, f"{writer.writes} statements for a burst of 55"
    taken = inbound.take(db, "slack", 100)
    assert [body for _, body, _ in taken] == [f'{{"n": {i}}}' for i in range(50)], "arrival order kept"
    assert writer.submit("slack", ids[7], "{}", {}).result(10) is False, "a later redelivery is not queued either"


def test_a_connection_lost_while_idle_is_replaced_without_failing_the_next_write(db, writer):
    assert writer.submit("teams", f"a-{uuid.uuid4().hex}", "{}", {}).result(10) is True
    with db.connection() as conn:
        killed = conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                              "WHERE datname = current_database() AND application_name = %s", (inbound.WRITER_NAME,)).fetchone()[0]
    assert killed == 1
    assert writer.submit("teams", f"b-{uuid.uuid4().hex}", "{}", {}).result(10) is True
    assert writer.writes == 2


def test_an_unreachable_database_is_an_outage_error_within_the_connect_timeout():
    with socket_nobody_listens_on() as port:
        writer = inbound.Writer(f"postgresql://footnote@127.0.0.1:{port}/none", connect_timeout_s=2)
        try:
            with pytest.raises(Exception) as failed:
                writer.submit("slack", "Ev1", "{}", {}).result(10)
            assert is_outage(failed.value)
        finally:
            writer.close()


def socket_nobody_listens_on():
    import contextlib
    import socket

    @contextlib.contextmanager
    def free_port():
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()  # closed: a connection there is refused at once
        yield port

    return free_port()
