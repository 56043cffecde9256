"""Text from outside, made safe to store and process before anything else sees it.

Postgres text cannot hold NUL, UTF-8 cannot encode an unpaired surrogate (a lone half of a UTF-16
pair, which JSON's "\\ud800" escapes and some clients produce), and other C0/C1 control characters
only confuse matching and rendering. Either of the first two used to fail the turn as an internal
error, with a traceback that quoted the question. Controls become spaces (so "Apple\\x00revenue"
still reads as two words) and unpaired surrogates become U+FFFD; tabs and newlines stay.
"""

from __future__ import annotations

import re

_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATES = re.compile(r"[\ud800-\udfff]")  # in a Python str, any surrogate left is unpaired


def clean_text(text: str) -> str:
    return _SURROGATES.sub("\ufffd", _CONTROLS.sub(" ", text))
