"""Sub-commands of `footnote` owned by this package."""

from __future__ import annotations


def register(sub) -> None:
    pass
