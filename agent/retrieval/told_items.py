"""The Item of the filing where the question's own particular words are written together, added to the Items a
prose question searches when the planned route does not hold them as well.

Why: a route chosen from the question's form or topic words (or the planner's default for a question with
neither: the business description, then MD&A) bounds the search, so a thing told only elsewhere is never
found: the settlement of a state's lawsuit told in the risk factors, a term loan told in the debt note, damages
claims still unresolved told in the legal note. The question's particular words (held by a few of the filing's
passages: a name, a deal, a case, not the words every passage of a 10-K uses) show where the filing tells it:
the Item whose passages hold most of them together. That Item joins the route, after the route's own Items: the
search still ranks the passages, so a route that tells the thing keeps it.
"""

from __future__ import annotations

import re

from agent.retrieval.earlier_filing import NAME_MIN, PARTICULAR, asked_stems, is_name
from store import chunks as chunk_store

# A dotted or ampersanded name ("JD.com", "AT&T") is one word asked, not its pieces (too short to tell apart).
_JOINED = re.compile(r"\b[a-z0-9]+(?:[.&][a-z0-9]+)+\b")
_CALENDAR = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "mon", "tue", "wed",
             "thu", "fri", "sat", "sun"}
TOGETHER = 2  # particular words one passage holds together: where the thing is told, beside any name
MIN_PIECE = 4  # letters: a shorter stem ("pay", "uk") sits inside too many other words to place a thing


def asked_pieces(query: str, names: tuple[str, ...] = ()) -> list[str]:
    """The question's own words as the pieces a passage telling the thing holds: stems (agent.retrieval.
    earlier_filing.asked_stems) and joined names whole."""
    joined = _JOINED.findall(query.lower())
    stems = [s for s in asked_stems(_JOINED.sub(" ", query), names) if len(s) >= MIN_PIECE]
    return list(dict.fromkeys([*joined, *stems]))


def _named(conn, piece: str, accession: str) -> bool:
    """Whether a piece is a name the filing writes ("Texas", "JD.com"): joined, or capitalised where no sentence
    starts (agent.retrieval.earlier_filing.is_name)."""
    if _JOINED.fullmatch(piece):
        return True
    word = next((w for w in re.findall(r"[a-z]+", piece)), "")
    if word[:3] in _CALENDAR:
        return False  # a month is capitalised, yet names no thing: dates are in every Item
    return len(word) >= NAME_MIN and is_name(chunk_store.texts_with_piece(conn, word, accession=accession, limit=20), word)


def _weights(chunks: list[tuple[str, set[str]]]) -> dict[str, tuple[int, int]]:
    """Per Item: the most particular pieces one of its passages holds together, and how many of its passages do."""
    best: dict[str, tuple[int, int]] = {}
    for item, held in chunks:
        most, count = best.get(item, (0, 0))
        n = len(held)
        best[item] = (n, 1) if n > most else (most, count + (n == most))
    return best


def told_items(conn, query: str, items: list[str], accession: str, names: tuple[str, ...] = (),
               bound: bool = False) -> list[str]:
    """The route's `items` with the Item where the filing (`accession`) writes the question's particular words
    together after them, when no Item of the route holds them as well: the route's order still weighs the search
    (store.chunks.in_item_order), so the added Item's passage is read when it matches clearly better. A route that
    `bound`s the search is widened only when none of its passages holds any of those words: a passage of the route
    that answers in other words than the question's would otherwise compete with the added Item's."""
    pieces = asked_pieces(query, names)
    chunks, total = chunk_store.pieces_by_item(conn, pieces, accession=accession)
    held = {p: sum(p in h for _, h in chunks) for p in pieces}
    particular = {p for p in pieces if 0 < held[p] <= PARTICULAR * total}
    if not particular:
        return items
    weights = _weights([(item, h & particular) for item, h in chunks if h & particular])
    top = max(weights.values())
    if top[0] < TOGETHER and not any(_named(conn, p, accession) for p in particular):
        return items  # one plain word ("planned") places nothing: a name, or words written together, do
    routed = max((weights.get(i, (0, 0)) for i in items), default=(0, 0))
    if routed >= top or (bound and routed > (0, 0)):
        return items
    return [*items, *sorted(i for i, w in weights.items() if w == top and i not in items)]
