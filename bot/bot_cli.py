"""`footnote slack` and `footnote teams`, plus `footnote bench slack`."""

from __future__ import annotations


def register(sub) -> None:
    pass
