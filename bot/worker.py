"""`footnote worker`: answers the Slack events and Teams activities that `footnote serve` queued.

The web front only checks a request (Slack's signature, the Bot Framework's token), writes it to
the queue (store/inbound.py) and answers the HTTP request, so an acknowledgement never waits
behind an answer for the interpreter lock. A worker takes the requests in arrival order: a Slack
request goes to the same Bolt App and listeners as `footnote slack` (claiming the event, turn
order, outages, delivery: bot/slack/reply.py), with no second signature check (the front made it,
and a request kept through a database outage may be older than Bolt's five minutes); a Teams
activity goes to the FootnoteBot, which answers through `continue_conversation` as the endpoint
does. Several workers (on several machines) share one queue.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from store import inbound
from store.db import is_outage

log = logging.getLogger(__name__)

POLL_S = 1.0  # a missed NOTIFY costs at most this long
BATCH = 20  # requests taken at once: handing one over is quick (the answer runs on the App's own threads)
PR_SET_PDEATHSIG = 1
# Answers are throughput, acknowledgements are latency: on a shared host the front's acks come first.
NICENESS = 5


def slack_handler(app) -> Callable[[str, dict], None]:
    from slack_bolt.request import BoltRequest

    def handle(body: str, headers: dict) -> None:
        app.dispatch(BoltRequest(body=body, headers=headers))

    return handle


def teams_handler(bot) -> Callable[[str, dict], None]:
    """The bot lives on an event loop of its own thread, as it does in the endpoint."""
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="footnote-worker-teams", daemon=True).start()

    def handle(body: str, headers: dict) -> None:
        asyncio.run_coroutine_threadsafe(bot.take_queued(json.loads(body)), loop).result(60)

    return handle


def run_worker(db, handlers: dict[str, Callable[[str, dict], None]], *, stop: threading.Event | None = None,
               parent: int | None = None) -> None:
    """Take queued requests for each platform in `handlers` until `stop` is set (or the process
    that started this worker has gone)."""
    stop = stop or threading.Event()
    listening = None
    while not stop.is_set():
        if parent is not None and os.getppid() != parent:
            log.warning("the process that started this worker has gone; stopping")
            return
        try:
            if listening is None:
                listening = inbound.listener(db.url)
            taken = [(platform, item) for platform in handlers for item in inbound.take(db, platform, BATCH)]
            if not taken:
                inbound.wait(listening, POLL_S)
                continue
        except Exception as exc:
            if not is_outage(exc):
                raise
            log.warning("the queue is unreachable (%s); trying again", exc.__class__.__name__)
            listening = _close(listening)
            time.sleep(POLL_S)
            continue
        for platform, (request_id, body, headers) in taken:
            try:
                handlers[platform](body, headers)
            except Exception:
                log.exception("a queued %s request (%s) failed", platform, request_id)
        try:
            inbound.done(db, [request_id for _, (request_id, _, _) in taken])
        except Exception:
            log.warning("could not mark %d queued requests done; their lease will pass", len(taken), exc_info=True)
    _close(listening)


def _close(conn) -> None:
    if conn is not None:
        try:
            conn.close()
        except Exception:
            pass
    return None


def as_child() -> None:
    """Popen's preexec_fn for a worker started by the front: a lower CPU priority, and an exit with
    the parent."""
    lower_priority()
    exit_with_parent()


def lower_priority(niceness: int = NICENESS) -> None:
    """This process, its threads and every thread it starts from now on (Linux gives each thread
    its own priority, inherited at creation), yields the CPU to the web front: a nice value of at least
    `niceness`, and SCHED_BATCH, the kernel's policy for CPU-bound work, which does not preempt a
    task that wakes up (the front waking for a request runs at once instead of after a slice)."""
    try:
        threads = [int(t) for t in os.listdir("/proc/self/task")]  # those already started too
    except OSError:
        threads = [0]
    for tid in threads:
        try:
            if os.getpriority(os.PRIO_PROCESS, tid) < niceness:
                os.setpriority(os.PRIO_PROCESS, tid, niceness)
        except OSError:
            pass
        if hasattr(os, "SCHED_BATCH"):
            try:
                os.sched_setscheduler(tid, os.SCHED_BATCH, os.sched_param(0))
            except OSError:
                pass


def exit_with_parent() -> None:
    """On Linux the kernel sends this process SIGTERM when its parent dies."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass


def start_worker(*, workers: int = 4, env: dict | None = None, extra: tuple[str, ...] = ()) -> subprocess.Popen:
    """A `footnote worker` process that exits with this one."""
    return subprocess.Popen([sys.executable, "-m", "bot.cli", "worker", "--workers", str(workers), "--parent", str(os.getpid()),
                             *extra], env=env, stdin=subprocess.DEVNULL, preexec_fn=as_child)
