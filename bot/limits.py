"""How much one person, and one workspace, may ask: a polite "slow down" before any work is done.

Sliding one-minute windows in memory, per process: a limit protects this process's answer threads
and the model bill; several processes each apply it (so a workspace's ceiling scales with them).
The command line is the exception: each `footnote ask` is its own process, so its per-user window
is counted in Postgres (`shared_check`), where `ask` and `chat` processes see each other's questions.
The input cap is the agent's own (a question, not a pasted document), checked here first so every
surface can say the limit in plain words before it spends anything.
"""

from __future__ import annotations

import threading
import time
from collections import deque

from agent.answer import MAX_QUESTION_CHARS
from store import rate_window

WINDOW_S = 60.0


def too_long(text: str) -> str | None:
    """The message for an over-long question, or None when it fits."""
    n = len((text or "").strip())
    if n <= MAX_QUESTION_CHARS:
        return None
    return (f"That message is too long to answer: {n:,} characters, and Footnote takes questions of up to "
            f"{MAX_QUESTION_CHARS:,}. Ask one question in a sentence or two and I'll look it up.")


def slow_down(asked: int, oldest_s: float) -> str:
    """The polite reply to one person over the limit: `asked` questions in the window, the oldest
    `oldest_s` seconds ago (the wait is until it leaves the window)."""
    wait = int(WINDOW_S - oldest_s) + 1
    return (f"You've asked {asked} question{'' if asked == 1 else 's'} in the last minute, which is as many as "
            f"Footnote takes from one person. Please try again in about {wait} seconds.")


def shared_check(db, user: str, per_user: int) -> str | None:
    """The per-user limit counted in Postgres, for processes that each answer a question or a few:
    None to go ahead (the question is counted), or the polite reply."""
    if not per_user:
        return None
    over = rate_window.take(db, user, per_user, WINDOW_S)
    return slow_down(*over) if over else None


class RateLimits:
    """`check(workspace, user)` -> None to go ahead, or the polite reply to send instead."""

    def __init__(self, per_user: int = 10, per_workspace: int = 120, *, clock=time.monotonic):
        self.per_user = per_user
        self.per_workspace = per_workspace
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: dict[str, deque] = {}

    def check(self, workspace: str, user: str) -> str | None:
        now = self._clock()
        with self._lock:
            user_q = self._window(f"u:{workspace}:{user}", now)
            team_q = self._window(f"w:{workspace}", now)
            if self.per_user and len(user_q) >= self.per_user:
                return slow_down(len(user_q), now - user_q[0])
            if self.per_workspace and len(team_q) >= self.per_workspace:
                wait = int(WINDOW_S - (now - team_q[0])) + 1
                return (f"Footnote is answering as many questions as it can for this workspace right now. "
                        f"Please try again in about {wait} seconds.")
            user_q.append(now)
            team_q.append(now)
        return None

    def _window(self, key: str, now: float) -> deque:
        q = self._seen.setdefault(key, deque())
        while q and now - q[0] >= WINDOW_S:
            q.popleft()
        return q


def from_settings(settings) -> RateLimits:
    return RateLimits(getattr(settings, "chat_per_user_per_minute", 10), getattr(settings, "chat_per_workspace_per_minute", 120))
