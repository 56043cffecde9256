"""A fake SEC EDGAR on 127.0.0.1, serving a corpus folder in SEC's layout over real HTTP.

It answers the paths Footnote's SEC client asks for, under two prefixes standing in for SEC's two
hosts (`<base>/www` for www.sec.gov, `<base>/data` for data.sec.gov), so a client that sends a
request to the wrong host gets a 404 here as it would at SEC:

    /www/files/company_tickers.json
    /www/Archives/edgar/data/<cik>/<accession-no-dashes>/<primary document>
    /data/submissions/CIK##########.json
    /data/api/xbrl/companyfacts/CIK##########.json

It records every request with its headers, can be told to fail a path with given statuses before
answering it (to exercise retries), and gzip-encodes bodies when asked, as SEC does.
"""

from __future__ import annotations

import csv
import gzip
import json
import re
import threading
from collections import defaultdict, deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FILE_RE = re.compile(r"^(?P<cik>\d{10})-(?P<acc>\d{10}-\d{2}-\d{6}|noacc)-(?P<end>\d{4}-\d{2}-\d{2})\.htm$")


@dataclass(frozen=True)
class Request:
    path: str
    headers: dict[str, str]  # lower-cased names


class FakeSec:
    """Start with `with FakeSec(routes) as sec:`; point settings at `sec.www_url` / `sec.data_url`."""

    def __init__(self, routes: dict[str, bytes] | None = None):
        self.routes: dict[str, bytes] = dict(routes or {})
        self.requests: list[Request] = []
        self._failures: dict[str, deque] = defaultdict(deque)
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- building the content ------------------------------------------------------------------

    @classmethod
    def from_folder(cls, root: Path) -> FakeSec:
        """Serve a corpus folder in SEC's layout (files gzipped or not).

        Each 10-K and 10-Q document is served at the Archives path of its accession; a company whose
        submissions file lacks a row for one of its filings (or that has no submissions file) gets
        the row added, so the fake's submissions always list what its Archives hold.
        """
        root = Path(root)
        fake = cls()
        fake.routes["/www/files/company_tickers.json"] = _read(root / "company_tickers.json")
        submissions: dict[int, dict] = {}
        changed: set[int] = set()  # submissions served re-serialised because rows were added
        for path in sorted((root / "submissions").glob("CIK*.json*")):
            cik = int(re.sub(r"\D", "", path.name.split(".")[0]))
            fake.routes[f"/data/submissions/CIK{cik:010d}.json"] = _read(path)
            submissions[cik] = json.loads(fake.routes[f"/data/submissions/CIK{cik:010d}.json"])
        for path in sorted((root / "companyfacts").glob("CIK*.json*")):
            fake.routes[f"/data/api/xbrl/companyfacts/{path.name.split('.')[0]}.json"] = _read(path)
        index = _index_rows(root)
        names = _ticker_names(root)
        paths = sorted((root / "filings" / "10-K").glob("*/*.htm*")) + sorted((root / "filings" / "10-Q").glob("*/*.htm*"))
        for path in paths:
            m = FILE_RE.match(path.name.removesuffix(".gz"))
            if not m or m["acc"] == "noacc":
                continue
            cik, accession, period_end, ticker = int(m["cik"]), m["acc"], m["end"], path.parent.name
            row = index.get(path.relative_to(root).as_posix().removesuffix(".gz"), {})
            document = (row.get("sec_url") or "").rsplit("/", 1)[-1] or f"{ticker.lower()}-{period_end.replace('-', '')}.htm"
            body = _read(path)
            base = path.parent.parent.name  # 10-K or 10-Q
            form = f"{base}/A" if re.search(rb"dei:DocumentType[^>]*>\s*" + base.encode() + rb"/A", body) else base
            fake.routes[f"/www/Archives/edgar/data/{cik}/{accession.replace('-', '')}/{document}"] = body
            sub = submissions.setdefault(cik, _empty_submissions(cik, names.get(cik, ticker), ticker))
            if _ensure_row(sub, accession, form, period_end, row.get("filing_date") or "", document):
                changed.add(cik)
        for cik in changed:
            fake.routes[f"/data/submissions/CIK{cik:010d}.json"] = json.dumps(submissions[cik]).encode()
        return fake

    def fail(self, path: str, *statuses: int, retry_after: str | None = None) -> None:
        """Answer the next requests for `path` with these statuses, in order, then normally."""
        with self._lock:
            self._failures[path].extend((status, retry_after) for status in statuses)

    # -- what was asked ------------------------------------------------------------------------

    def paths(self, prefix: str = "") -> list[str]:
        with self._lock:
            return [r.path for r in self.requests if r.path.startswith(prefix)]

    def clear(self) -> None:
        with self._lock:
            self.requests.clear()

    # -- the server ----------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        assert self._server is not None, "start the fake first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def www_url(self) -> str:
        return f"{self.base_url}/www"

    @property
    def data_url(self) -> str:
        return f"{self.base_url}/data"

    def __enter__(self) -> FakeSec:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):  # noqa: N802 (http.server's naming)
                fake._handle(self)

            def log_message(self, *args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        path = handler.path.split("?", 1)[0]
        with self._lock:
            self.requests.append(Request(path, {k.lower(): v for k, v in handler.headers.items()}))
            failure = self._failures[path].popleft() if self._failures.get(path) else None
        if failure is not None:
            status, retry_after = failure
            extra = {"Retry-After": retry_after} if retry_after is not None else {}
            return _send(handler, status, b"<html>Request Rate Threshold Exceeded</html>", "text/html", extra)
        body = self.routes.get(path)
        if body is None:
            return _send(handler, 404, b"Not Found", "text/plain")
        kind = "application/json" if path.endswith(".json") else "text/html"
        extra = {}
        if "gzip" in handler.headers.get("Accept-Encoding", "") and len(body) > 512:
            body, extra = gzip.compress(body), {"Content-Encoding": "gzip"}
        _send(handler, 200, body, kind, extra)


def _send(handler, status: int, body: bytes, kind: str, extra: dict | None = None) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", kind)
    handler.send_header("Content-Length", str(len(body)))
    for name, value in (extra or {}).items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(body)


def _read(path: Path) -> bytes:
    if not path.exists() and path.with_name(path.name + ".gz").exists():
        path = path.with_name(path.name + ".gz")
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


def _index_rows(root: Path) -> dict[str, dict]:
    index = root / "filings" / "index.csv"
    if not index.exists():
        return {}
    with open(index, newline="", encoding="utf-8") as fh:
        return {row["file"].removesuffix(".gz"): row for row in csv.DictReader(fh)}


def _ticker_names(root: Path) -> dict[int, str]:
    try:
        data = json.loads(_read(root / "company_tickers.json"))
    except (OSError, ValueError):
        return {}
    return {int(row["cik_str"]): row["title"] for row in data.values()}


def _empty_submissions(cik: int, name: str, ticker: str) -> dict:
    columns = ("accessionNumber", "filingDate", "reportDate", "form", "primaryDocument", "isInlineXBRL")
    return {
        "cik": str(cik),
        "name": name,
        "tickers": [ticker],
        "fiscalYearEnd": "",
        "filings": {"recent": {c: [] for c in columns}, "files": []},
    }


def _ensure_row(sub: dict, accession: str, form: str, report_date: str, filing_date: str, document: str) -> bool:
    """Add a row for this 10-K unless one exists; True when the submissions changed."""
    recent = sub.setdefault("filings", {}).setdefault("recent", {})
    if accession in recent.get("accessionNumber", []):
        i = recent["accessionNumber"].index(accession)
        if recent["primaryDocument"][i] == document:
            return False
        recent["primaryDocument"][i] = document  # serve the document under the name the row gives
        return True
    n = len(recent.get("accessionNumber", []))
    values = {
        "accessionNumber": accession,
        "filingDate": filing_date,
        "reportDate": report_date,
        "form": form,
        "primaryDocument": document,
        "isInlineXBRL": 1,
    }
    for column in set(recent) | set(values):
        recent.setdefault(column, [""] * n).append(values.get(column, ""))
    return True
