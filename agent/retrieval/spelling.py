"""A word the user misspelled by one letter ("liabilties", "incme", "solutons"): the one printed word it can be.

Why a module of its own: line items (agent.retrieval.line_items) and member names (agent.retrieval.segments)
both read a question's words against what the company prints; a typo that leaves a word unmatched refused a
figure the filing holds. Only a single edit (a letter dropped, added, changed, or two neighbours swapped) of
a word of five letters or more, and only when exactly one printed word is that near: otherwise the word
stays as typed and the lookup refuses by it, never guesses. `one_edit` is the one such test in the project:
company names (agent.planning.companies) and ratio names (agent.planning.measure_spelling) use it too.
"""

from __future__ import annotations

TYPO_MIN = 5


def as_printed(words: frozenset[str], vocabulary: frozenset[str] | set[str]) -> frozenset[str]:
    """`words` with each word `vocabulary` lacks replaced by the one vocabulary word a single edit away."""
    out = set()
    for word in words:
        if word in vocabulary or len(word) < TYPO_MIN or not word.isalpha():
            out.add(word)
            continue
        near = [v for v in vocabulary if abs(len(v) - len(word)) <= 1 and one_edit(word, v)]
        out.add(near[0] if len(near) == 1 else word)
    return frozenset(out)


def one_edit(a: str, b: str) -> bool:
    """Whether `a` becomes `b` by one letter dropped, added or changed, or two neighbours swapped."""
    if a == b:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                   and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k, (x, y) in enumerate(zip(short, long_)) if x != y), len(short))
    return short[i:] == long_[i + 1:]
