"""Python's garbage collector around a command's start: paused while the command loads, and never
again walking what it loaded.

A cold `footnote ask` makes some 140,000 objects that live as long as the process (modules,
phrase tables, compiled patterns, the graph). CPython's cyclic collector walked them over and over
while they were being made (about 190 ms of a cold numeric ask) and once more while the
interpreter shut down (about 300 ms), and found almost nothing to free. So the command line pauses
the collector until the command has built what it answers with, then freezes that heap
(`gc.freeze`: kept, never walked again) and collects as usual from there, so a long `chat`, batch
or bot frees its own garbage; at exit the heap is frozen once more.

Only the `footnote` program does this (`bot.cli.main` called without argv); a test calling `main`
or a command function leaves the collector alone.
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """Stop collecting until `resume`; nothing when the collector was already off."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Freeze everything made so far and collect again; nothing unless `pause` stopped it."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()


def before_exit() -> None:
    """Leave the heap to the process's end: the interpreter's last collection skips it."""
    resume()
    gc.freeze()
