"""The HTTP client for SEC EDGAR, built to SEC's fair-access policy.

SEC blocks clients that do not declare who they are or that go faster than 10 requests per
second, so every request here carries the configured identity as its User-Agent, waits its turn
in one process-wide rate limiter, backs off on 429/5xx (honouring Retry-After), and lands in an
on-disk cache keyed by URL so a rerun costs SEC nothing. Filing documents never change once
filed; the ticker map, submissions and companyfacts do, so callers give those a maximum age.
"""

from __future__ import annotations

import email.utils
import gzip
import hashlib
import json
import logging
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

from store.errors import FootnoteError

log = logging.getLogger(__name__)

IDENTITY_HELP = (
    "SEC asks every client to declare who it is. Set SEC_IDENTITY to your name and e-mail, e.g. "
    'export SEC_IDENTITY="Jane Analyst jane@example.com" (or put it in .env), '
    "or ingest a local folder instead: footnote ingest --from <folder>."
)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


class SecHttpError(FootnoteError):
    """A request to SEC failed for good (after retries, or with an answer retrying cannot fix)."""

    def __init__(self, message: str, *, url: str, status: int | None = None):
        super().__init__(message)
        self.url = url
        self.status = status


class SecNotFound(SecHttpError):
    """SEC answered 404: the company, filing or document does not exist there."""


class SecBlocked(SecHttpError):
    """SEC answered 403: it refuses this client (undeclared identity or over its rate). Going on
    would only add to the block, so a run stops at the first one."""


def check_identity(identity: str | None) -> str:
    """SEC wants a name and a contact e-mail; refuse early rather than be blocked later."""
    value = (identity or "").strip()
    if "@" not in value:
        raise FootnoteError(f"SEC_IDENTITY is {'not set' if not value else 'missing a contact e-mail'}. {IDENTITY_HELP}")
    if not value.isascii():  # it travels in an HTTP header
        raise FootnoteError(f"SEC_IDENTITY must be plain ASCII (write José as Jose). {IDENTITY_HELP}")
    return value


class RateLimiter:
    """At most `rps` request starts per second, spaced evenly, shared by every thread.

    A caller holds the lock while it waits for its turn, and the next turn is counted from the
    moment the wait actually ended, so even a late wake-up (a busy CPU) never lets two requests
    start closer than 1/rps apart: N requests take at least (N-1)/rps seconds, with no burst.
    """

    def __init__(self, rps: float):
        if rps <= 0:
            raise ValueError("rps must be positive")
        self.interval = 1.0 / rps
        self._next = 0.0
        self._lock = threading.Lock()

    def acquire(self) -> None:
        with self._lock:
            delay = self._next - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self._next = time.monotonic() + self.interval


_limiters: dict[float, RateLimiter] = {}
_limiters_lock = threading.Lock()


def shared_limiter(rps: float) -> RateLimiter:
    """The process-wide limiter for this rate: every SecClient in the process shares it."""
    with _limiters_lock:
        if rps not in _limiters:
            _limiters[rps] = RateLimiter(rps)
        return _limiters[rps]


class DiskCache:
    """Raw response bodies on disk, gzip-compressed, keyed by the SHA-256 of the URL.

    A body is written to a temporary file then renamed, so an interrupted download never leaves
    a truncated entry that a later run would trust.
    """

    def __init__(self, root: Path):
        self.root = Path(root)

    def _paths(self, url: str) -> tuple[Path, Path]:
        key = hashlib.sha256(url.encode()).hexdigest()
        folder = self.root / key[:2]
        return folder / f"{key}.gz", folder / f"{key}.json"

    def get(self, url: str, max_age_s: float | None) -> bytes | None:
        body_path, meta_path = self._paths(url)
        if not body_path.exists() or not meta_path.exists():
            return None
        try:
            meta = json.loads(meta_path.read_text())
        except (OSError, ValueError):
            return None
        if meta.get("url") != url:
            return None
        if max_age_s is not None and time.time() - float(meta.get("fetched_at", 0)) > max_age_s:
            return None
        try:
            return gzip.decompress(body_path.read_bytes())
        except (OSError, EOFError):
            return None

    def put(self, url: str, body: bytes, content_type: str | None) -> None:
        body_path, meta_path = self._paths(url)
        body_path.parent.mkdir(parents=True, exist_ok=True)
        for path, data in (
            (body_path, gzip.compress(body, compresslevel=6)),
            (meta_path, json.dumps({"url": url, "fetched_at": time.time(), "content_type": content_type}).encode()),
        ):
            tmp = path.with_suffix(path.suffix + f".tmp{os.getpid()}-{threading.get_ident()}")
            tmp.write_bytes(data)
            tmp.replace(path)


@dataclass
class ClientStats:
    requests: int = 0  # HTTP requests actually sent (retries included)
    cache_hits: int = 0
    retries: int = 0


class SecClient:
    """GET with identity, rate limit, retries and the disk cache. Thread-safe."""

    def __init__(
        self,
        identity: str | None,
        cache_dir: Path,
        *,
        max_rps: float = 10.0,
        max_tries: int = 5,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
        timeout_s: float = 60.0,
    ):
        self.identity = check_identity(identity)
        self.cache = DiskCache(Path(cache_dir) / "raw")
        self.limiter = shared_limiter(max_rps)
        self.max_tries = max_tries
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.stats = ClientStats()
        self._stats_lock = threading.Lock()
        self._http = httpx.Client(
            headers={"User-Agent": self.identity, "Accept-Encoding": "gzip, deflate"},
            timeout=timeout_s,
            follow_redirects=True,
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> SecClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def get(self, url: str, *, max_age_s: float | None = None, check: Callable[[bytes], object] | None = None) -> bytes:
        """The body of `url`, from the cache when fresh enough (None: forever), else from SEC.

        `check` (e.g. json.loads) must accept the body: a cached body it rejects is fetched again,
        and a fetched one it rejects is an error and is not cached, so a damaged answer never sticks.
        When SEC cannot be reached (after the retries), a stale cached copy is better than nothing.
        """
        cached = self.cache.get(url, max_age_s)
        if cached is not None and _accepts(check, cached):
            self._count(cache_hits=1)
            return cached
        try:
            body, content_type = self._fetch(url)
        except SecHttpError as exc:
            stale = None if isinstance(exc, (SecNotFound, SecBlocked)) else self.cache.get(url, None)
            if stale is None or not _accepts(check, stale):
                raise
            log.warning("SEC unreachable for %s (%s); using the copy cached earlier", url, exc)
            self._count(cache_hits=1)
            return stale
        if not _accepts(check, body):
            raise SecHttpError(f"SEC returned a malformed answer for {url}", url=url)
        self.cache.put(url, body, content_type)
        return body

    def get_json(self, url: str, *, max_age_s: float | None = None):
        return json.loads(self.get(url, max_age_s=max_age_s, check=json.loads))

    def _fetch(self, url: str) -> tuple[bytes, str | None]:
        last = ""
        for attempt in range(1, self.max_tries + 1):
            self.limiter.acquire()
            self._count(requests=1)
            try:
                response = self._http.get(url)
            except httpx.TransportError as exc:
                last = f"{type(exc).__name__}"
                wait = self._backoff(attempt, None)
            else:
                status = response.status_code
                if status == 200:
                    return response.content, response.headers.get("content-type")
                if status == 404:
                    raise SecNotFound(f"SEC has no such document: {url}", url=url, status=404)
                if status == 403:
                    raise SecBlocked(
                        f"SEC refused {url} (HTTP 403). SEC blocks clients without a proper User-Agent "
                        "or above its request rate; check SEC_IDENTITY and try again in a few minutes.",
                        url=url,
                        status=403,
                    )
                if status not in RETRY_STATUSES:
                    raise SecHttpError(f"SEC answered HTTP {status} for {url}", url=url, status=status)
                last = f"HTTP {status}"
                wait = self._backoff(attempt, response.headers.get("retry-after"))
            if attempt < self.max_tries:
                self._count(retries=1)
                log.info("SEC %s for %s; retry %d/%d in %.1fs", last, url, attempt, self.max_tries - 1, wait)
                time.sleep(wait)
        raise SecHttpError(f"SEC request failed after {self.max_tries} tries ({last}): {url}", url=url)

    def _backoff(self, attempt: int, retry_after: str | None) -> float:
        """Exponential backoff with full jitter; a Retry-After from SEC wins when it asks for longer."""
        wait = random.uniform(0, min(self.backoff_max_s, self.backoff_base_s * 2 ** (attempt - 1)))
        asked = _parse_retry_after(retry_after)
        if asked is not None:
            wait = max(wait, min(asked, self.backoff_max_s * 4))
        return wait

    def _count(self, **deltas: int) -> None:
        with self._stats_lock:
            for name, delta in deltas.items():
                setattr(self.stats, name, getattr(self.stats, name) + delta)


def _accepts(check: Callable[[bytes], object] | None, body: bytes) -> bool:
    if check is None:
        return True
    try:
        check(body)
    except (ValueError, TypeError, KeyError, AttributeError):
        return False
    return True


def _parse_retry_after(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
