"""Is the database answering right now? One fresh connection and one trivial query, bounded.

The pool cannot say: a stopped server (SIGSTOP) keeps its sockets open, so a pooled connection's
query waits for as long as the stop lasts. A new connection's handshake is bounded by its connect
timeout, and the caller bounds the query by waiting for this in a thread of its own.
"""

from __future__ import annotations

import psycopg

from store.db import connect_kwargs

PING = "SELECT 1"
PING_CONNECT_TIMEOUT_S = 2  # libpq's smallest useful connect timeout


def ping(url: str) -> None:
    """Returns when the server at `url` answered a query; raises (psycopg.OperationalError) otherwise."""
    with psycopg.connect(url, autocommit=True, **connect_kwargs(url, connect_timeout_s=PING_CONNECT_TIMEOUT_S)) as conn:
        conn.execute(PING).fetchone()
