"""`footnote bench startup`: what a user waits for before the first answer, measured from outside.

Answers are fast once a process is warm; a fresh `footnote ask` or a restarted bot pays for every
import and model load first. So each figure here is a fresh subprocess, timed from spawn: `ask`
for a numeric, a qualitative, a cached and a help question (wall time and peak RSS of that
process), and for `footnote slack --http` and `footnote teams` the time until the server answers
a request. `--baseline DIR` runs another source tree (e.g. an export of the main branch) the same
way in the same run, alternating which goes first, so load on a shared machine favours neither.
Medians of `--runs` runs. Slack's auth.test is answered by a stub on loopback.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
SECRET = "bench-startup-signing-secret"
ASKS = {
    "numeric": ("What was Apple's revenue in fiscal 2024?", True),
    "qualitative": ("What supply chain risks did Apple describe in fiscal 2024?", True),
    "cached": ("What was Apple's revenue in fiscal 2024?", False),  # the second identical ask is a cache hit
    "help": ("help", True),
}
READY_TIMEOUT_S = 120.0


def register(bench_sub) -> None:
    p = bench_sub.add_parser("startup", help="cold `footnote ask` wall time and memory, and bot server ready time")
    p.add_argument("--runs", type=int, default=3, help="fresh processes per figure; medians are reported (default 3)")
    p.add_argument("--baseline", type=Path, default=None, help="another source tree to measure beside this one")
    p.add_argument("--numeric", default=ASKS["numeric"][0], help="the numeric question")
    p.add_argument("--qualitative", default=ASKS["qualitative"][0], help="the prose question")
    p.add_argument("--skip-servers", action="store_true", help="only the `ask` figures")
    p.add_argument("--out", type=Path, default=Path("bench-results/startup.json"), help="where the figures are written (default bench-results/startup.json)")
    p.set_defaults(func=cmd_bench_startup)


def cmd_bench_startup(args, settings) -> int:
    asks = dict(ASKS)
    asks["numeric"] = (args.numeric, True)
    asks["cached"] = (args.numeric, False)
    asks["qualitative"] = (args.qualitative, True)
    trees = {"current": HERE}
    if args.baseline is not None:
        trees["baseline"] = args.baseline.resolve()
    env = _env(settings)
    load_before = os.getloadavg()
    samples: dict[str, dict[str, list[dict]]] = {name: {} for name in trees}
    # One untimed ask per tree first: the embedded Postgres is started, the OS file cache is warm
    # and each tree's bytecode is written, for both, as after any earlier use of the machine or
    # `make install` (which compiles it): with PYTHONDONTWRITEBYTECODE set, a tree nobody compiled
    # was compiled again by every timed process, 0.3 s of CPU no installed copy spends.
    compiling = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for tree in trees.values():
        _ask(tree, compiling, asks["cached"][0], no_cache=False)
    with _AuthStub() as slack_api:
        for run in range(max(1, args.runs)):
            order = list(trees.items()) if run % 2 == 0 else list(reversed(trees.items()))
            for name, tree in order:
                for kind, (question, no_cache) in asks.items():
                    samples[name].setdefault(f"ask_{kind}", []).append(_ask(tree, env, question, no_cache=no_cache))
                if not args.skip_servers:
                    samples[name].setdefault("slack_http", []).append(_serve_slack(tree, env, slack_api))
                    samples[name].setdefault("teams", []).append(_serve_teams(tree, env))
                print(f"run {run + 1}/{args.runs} {name}: done", file=sys.stderr)
    figures = {
        "runs": max(1, args.runs),
        "data_dir": str(Path(env["FOOTNOTE_DATA_DIR"])),
        "questions": {k: q for k, (q, _) in asks.items()},
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "trees": {name: str(tree) for name, tree in trees.items()},
        "results": {name: {what: _median(runs) for what, runs in per.items()} for name, per in samples.items()},
        "samples": samples,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")
    _print_table(figures["results"])
    print(f"written to {out}")
    return 0


def _env(settings) -> dict:
    env = dict(os.environ)
    env["FOOTNOTE_DATA_DIR"] = str(Path(settings.data_dir).resolve())
    env.setdefault("FOOTNOTE_LLM", "off")  # the deterministic path is what a fresh install runs
    env.setdefault("FOOTNOTE_CHAT_PER_USER_PER_MINUTE", "0")  # a dozen cold asks a minute are the bench, not a user
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _command(tree: Path, env: dict, *argv: str) -> tuple[list[str], dict]:
    child = dict(env)
    child["PYTHONPATH"] = os.pathsep.join([str(tree), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return [sys.executable, "-m", "bot.cli", *argv], child


def _ask(tree: Path, env: dict, question: str, *, no_cache: bool) -> dict:
    argv, child = _command(tree, env, "ask", question, *(["--no-cache"] if no_cache else []))
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=tree, env=child, stdout=subprocess.DEVNULL, stderr=err)
        code, rss, cpu = _wait(proc)
        wall = time.perf_counter() - start
        if code != 0:
            err.seek(0)
            raise RuntimeError(f"bench startup: `footnote ask` failed in {tree}:\n{err.read().decode(errors='replace')[-2000:]}")
    return {"wall_s": round(wall, 3), "cpu_s": cpu, "peak_rss_mb": rss}


def _wait(proc: subprocess.Popen) -> tuple[int, float | None, float | None]:
    """Reap the child ourselves: wait4 gives that one process's peak RSS (Linux reports KiB) and
    its CPU seconds, a figure that load on a shared machine inflates far less than wall time."""
    if proc.returncode is not None:  # it died early and poll() reaped it: no figure
        return proc.returncode, None, None
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, round(usage.ru_maxrss / 1024, 1), round(usage.ru_utime + usage.ru_stime, 3)


def _serve_slack(tree: Path, env: dict, slack_api: str) -> dict:
    port = _free_port()
    child_env = {**env, "SLACK_BOT_TOKEN": "xoxb-bench", "SLACK_SIGNING_SECRET": SECRET, "SLACK_API_URL": slack_api}
    argv, child = _command(tree, child_env, "slack", "--http", "--host", "127.0.0.1", "--port", str(port))
    body = json.dumps({"type": "url_verification", "challenge": uuid.uuid4().hex, "token": "bench"}).encode()

    def request() -> urllib.request.Request:
        ts = str(int(time.time()))
        sig = "v0=" + hmac.new(SECRET.encode(), f"v0:{ts}:".encode() + body, hashlib.sha256).hexdigest()
        headers = {"Content-Type": "application/json", "X-Slack-Request-Timestamp": ts, "X-Slack-Signature": sig}
        return urllib.request.Request(f"http://127.0.0.1:{port}/slack/events", data=body, headers=headers)

    return _time_ready(argv, child, tree, request)


def _serve_teams(tree: Path, env: dict) -> dict:
    port = _free_port()
    child_env = {k: v for k, v in env.items() if k not in ("MicrosoftAppId", "MICROSOFT_APP_ID")}
    argv, child = _command(tree, child_env, "teams", "--host", "127.0.0.1", "--port", str(port))
    # A typing activity: authenticated (auth is off with no app id), accepted, and answered with nothing.
    body = json.dumps({
        "type": "typing", "id": "bench", "channelId": "msteams", "serviceUrl": "http://127.0.0.1:9/",
        "from": {"id": "user"}, "recipient": {"id": "bot"}, "conversation": {"id": "bench"},
    }).encode()

    def request() -> urllib.request.Request:
        return urllib.request.Request(f"http://127.0.0.1:{port}/api/messages", data=body,
                                      headers={"Content-Type": "application/json"})

    return _time_ready(argv, child, tree, request)


def _time_ready(argv: list[str], env: dict, tree: Path, request) -> dict:
    """Spawn the server and poll it until a request gets a 2xx; then stop it like a service manager."""
    start = time.perf_counter()
    err = tempfile.TemporaryFile()
    proc = subprocess.Popen(argv, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=err)
    ready = None
    status = None
    try:
        while time.perf_counter() - start < READY_TIMEOUT_S and proc.poll() is None:
            try:
                with urllib.request.urlopen(request(), timeout=5) as resp:
                    status = resp.status
            except urllib.error.HTTPError as exc:
                status = exc.code
            except OSError:
                time.sleep(0.05)
                continue
            if 200 <= status < 300:
                ready = time.perf_counter() - start
                break
            time.sleep(0.05)
    finally:
        killer = threading.Timer(30, proc.kill)
        killer.start()
        proc.terminate()
        _, rss, _ = _wait(proc)
        killer.cancel()
    with err:
        err.seek(0)
        tail = err.read().decode(errors="replace")[-2000:]
    if ready is None:
        raise RuntimeError(f"bench startup: the server in {tree} never answered (last status {status}):\n{tail}")
    return {"ready_s": round(ready, 3), "peak_rss_mb": rss}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _AuthStub:
    """Slack's Web API as far as start-up needs it: auth.test says the token is good."""

    def __enter__(self) -> str:
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                body = json.dumps({"ok": True, "user_id": "UBENCH", "bot_id": "BBENCH", "team_id": "TBENCH",
                                   "user": "footnote", "team": "bench", "url": "https://bench.slack.invalid/"}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self._server.server_port}/api/"

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


def _median(runs: list[dict]) -> dict:
    keys = [k for k in runs[0] if isinstance(runs[0][k], (int, float))]
    return {k: round(statistics.median(r[k] for r in runs if r.get(k) is not None), 3) for k in keys}


def _print_table(results: dict) -> None:
    names = list(results)
    rows = sorted({(what, key) for per in results.values() for what, fig in per.items() for key in fig})
    print(f"{'':32}" + "".join(f"{n:>14}" for n in names))
    for what, key in rows:
        cells = "".join(f"{results[n].get(what, {}).get(key, float('nan')):>14.3f}" for n in names)
        print(f"{what + ' ' + key:32}{cells}")
