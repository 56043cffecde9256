"""While the database is down: tell the user at once, keep what they asked, answer once it is back.

A stopped server (SIGSTOP) keeps its sockets open, so a query on a pooled connection waits for as
long as the stop lasts and no client timeout fires; a host that accepts TCP and never answers is
the same. Before this, a mention during an outage was acknowledged and then met with silence, and
the events were lost. Now:

- every database step a chat adapter takes before it answers (claim the event, queue the turn)
  runs through `Outage.call`, which waits STEP_WAIT_S for it. A step that takes longer, or fails
  as an outage (store.db.is_outage), marks the database down, and the caller tells the user
  UNAVAILABLE_TEXT and `keep`s the event. While the database is down no step is tried: the next
  user is told at once.
- while answers are in flight, a watcher probes the database every PROBE_EVERY_S with a fresh,
  bounded connection (store.health), so a database that stops under an answer is noticed in
  seconds and `on_down` callbacks tell those users too.
- the first probe that answers after an outage replays what was kept, in the order it was kept.
  A step that was stuck when the outage began may still finish once the server resumes: a replay
  first `settle`s it, so an event it claimed is answered, not dropped as a duplicate.

What is kept lives in this process: a process killed during an outage loses its kept events (the
platforms do not redeliver what was acknowledged).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from store import health
from store.db import is_outage

log = logging.getLogger(__name__)

STEP_WAIT_S = 2.0  # a step before answering that takes longer than this is an outage: the user is told at once
PROBE_EVERY_S = 0.5
PROBE_WAIT_S = 3.0  # a probe's connection has a 2 s connect timeout; its query gets the rest
SETTLE_WAIT_S = 5.0  # after the database is back, how long a step stuck in the outage may take to finish
UNAVAILABLE_TEXT = ("Footnote's database isn't answering right now, so I can't look this up yet. "
                    "I've kept your question and will answer it here as soon as the database is back.")


class Unavailable(Exception):
    """The database is down. `pending`: the step that was started and may still finish (None: not tried)."""

    def __init__(self, pending: Future | None = None):
        super().__init__("the database is not answering")
        self.pending = pending


class Outage:
    """The database's availability as the chat adapters of one process see it."""

    def __init__(self, db, *, step_wait_s: float = STEP_WAIT_S, probe_every_s: float = PROBE_EVERY_S,
                 ping: Callable[[], None] | None = None):
        self.step_wait_s = step_wait_s
        self.probe_every_s = probe_every_s
        self._ping = ping or (lambda: health.ping(db.url))
        self._steps = ThreadPoolExecutor(max_workers=16, thread_name_prefix="footnote-db-step")
        self._probes = ThreadPoolExecutor(max_workers=4, thread_name_prefix="footnote-db-probe")
        self._lock = threading.Lock()
        self._down = False
        self.epoch = 0  # one more at the start of each outage: an answer can tell whether one began under it
        self._kept: OrderedDict[str, Callable[[], None]] = OrderedDict()
        self._on_down: list[Callable[[], None]] = []
        self._busy = 0
        self._watching = False

    @property
    def down(self) -> bool:
        return self._down

    def call(self, step: Callable, *args):
        """`step(*args)` if the database answers within step_wait_s; otherwise Unavailable."""
        if self._down:
            raise Unavailable()
        future = self._steps.submit(step, *args)
        try:
            return future.result(timeout=self.step_wait_s)
        except FutureTimeout:
            self._went_down(f"a step took over {self.step_wait_s:.0f} s")
            raise Unavailable(future) from None
        except Exception as exc:
            if is_outage(exc):
                self._went_down(exc.__class__.__name__)
                raise Unavailable() from exc
            raise

    def settle(self, pending: Future | None, step: Callable, *args):
        """The result of a step the outage interrupted, once the database is back: the stuck call's
        own result when it finishes (it may have claimed the event), else the step run again."""
        if pending is not None:
            try:
                return pending.result(timeout=SETTLE_WAIT_S)
            except FutureTimeout:
                log.warning("a database step stuck in the outage has not finished; running it again")
            except Exception as exc:
                if not is_outage(exc):
                    raise
        return self.call(step, *args)

    def keep(self, key: str, job: Callable[[], None]) -> bool:
        """Run `job` once the database answers again, in the order kept. False when `key` is
        already kept (a platform's redelivery of the same event)."""
        with self._lock:
            if key in self._kept:
                return False
            self._kept[key] = job
        log.info("kept %s until the database answers again", key)
        self._watch()
        return True

    def on_down(self, callback: Callable[[], None]) -> None:
        """`callback()` runs (on the watcher's thread) when an outage begins."""
        self._on_down.append(callback)

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """The database is watched while the body runs, so an outage under an answer is noticed."""
        with self._lock:
            self._busy += 1
        self._watch()
        try:
            yield
        finally:
            with self._lock:
                self._busy -= 1

    def probe(self) -> bool:
        future = self._probes.submit(self._ping)
        try:
            future.result(timeout=PROBE_WAIT_S)
            return True
        except Exception:
            return False

    def went_down(self, why: str) -> None:
        """A caller that bounds its own database step says it passed the bound (bot.web.Handoff)."""
        self._went_down(why)

    # --- the watcher -------------------------------------------------------------------------------

    def _went_down(self, why: str) -> None:
        with self._lock:
            if self._down:
                return
            self._down = True
            self.epoch += 1
        log.warning("the database stopped answering (%s): users are told, their questions kept", why)
        for callback in list(self._on_down):
            try:
                callback()
            except Exception:
                log.warning("an outage callback failed", exc_info=True)
        self._watch()

    def _watch(self) -> None:
        with self._lock:
            if self._watching:
                return
            self._watching = True
        threading.Thread(target=self._watcher, name="footnote-db-watch", daemon=True).start()

    def _watcher(self) -> None:
        while True:
            with self._lock:
                if not (self._down or self._busy or self._kept):
                    self._watching = False
                    return
            if self.probe():
                if self._down:
                    with self._lock:
                        self._down = False
                    log.warning("the database answers again: replaying %d kept question(s)", len(self._kept))
                self._replay()
            elif not self._down:
                self._went_down("a health probe got no answer")
            time.sleep(self.probe_every_s)

    def _replay(self) -> None:
        while not self._down:
            with self._lock:
                if not self._kept:
                    return
                key, job = self._kept.popitem(last=False)
            try:
                job()
            except Exception:
                log.exception("a kept question (%s) failed on replay", key)
