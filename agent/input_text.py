"""Text from outside, made safe to store and process before anything else sees it.

Postgres text cannot hold NUL, UTF-8 cannot encode an unpaired surrogate (a lone half of a UTF-16
pair, which JSON's "\\ud800" escapes and some clients produce), and other C0/C1 control characters
only confuse matching and rendering. Either of the first two used to fail the turn as an internal
error, with a traceback that quoted the question. Controls become spaces (so "Apple\\x00revenue"
still reads as two words), as do the Unicode line and paragraph separators; unpaired surrogates
become U+FFFD; tabs and newlines stay.
"""

from __future__ import annotations

import re

_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")
# Invisible format characters (zero-width spaces and joiners, bidi controls, BOM): removed, so
# "19\u200b99" is still 1999 and a ticker with a zero-width space inside is still the ticker.
_INVISIBLE = re.compile(r"[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
_SURROGATES = re.compile(r"[\ud800-\udfff]")  # in a Python str, any surrogate left is unpaired


def clean_text(text: str) -> str:
    return _SURROGATES.sub("\ufffd", _INVISIBLE.sub("", _CONTROLS.sub(" ", text)))
