"""Whole databases on a server: the throwaway and kept copies the evals and benches work in."""

from __future__ import annotations

import psycopg

EXISTS = "SELECT 1 FROM pg_database WHERE datname = %s"
CREATE = 'CREATE DATABASE "{name}"'
DROP = 'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
SIZE = "SELECT pg_database_size(current_database())"


def with_db(url: str, name: str) -> str:
    """The same server's URL for another database."""
    info = psycopg.conninfo.conninfo_to_dict(url)
    return psycopg.conninfo.make_conninfo(**{**info, "dbname": name})


def create_database(server_url: str, name: str, *, exist_ok: bool = False) -> None:
    with psycopg.connect(server_url, autocommit=True) as conn:
        if exist_ok and conn.execute(EXISTS, (name,)).fetchone():
            return
        conn.execute(CREATE.format(name=name))


def drop_database(server_url: str, name: str) -> None:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(DROP.format(name=name))


def database_size(conn) -> int:
    """Bytes the connected database takes on disk."""
    return conn.execute(SIZE).fetchone()[0]
