"""Key sentences by reference: which filing sentences answer a qualitative question, stored as
hashes so the project never holds a sentence copied from a filing.

A reference is {ticker, fiscal_year, item, sha1, chars}: the sha1 of the sentence's normalised
text (`norm`: lowercase, typographic quotes and dashes made plain, whitespace collapsed) and that
text's length. Choosing one is done with `pick`, which reads the 10-K from the shared corpus with
the ingest parser and searches it for a substring the question writer keeps outside the project:

    python -m evals.key_sentences pick NVDA 2025 7 "some words of the sentence" [--json]

At scoring time `Resolver` turns a reference back into text by scanning that filing's Item in the
eval database (its chunks, then the section text): every window of `chars` normalised characters
that starts at a word is hashed, so the chunker's sentence boundaries never matter.

Scoring (functions of plain data, the runner passes resolved texts in):
- a key sentence is *recalled* when one of the answer's quotes matches it: the normalised quote
  contains the sentence, or lies inside it and covers at least COVER of its length (pieces of a
  quote cut with "..." count together);
- a quote is *unrelated* when it is no piece of a key sentence of the question (however short:
  a cut-down key sentence is a recall miss, not an unrelated quote) and shares no content
  word with the question (a word of 4+ letters, not a stop word, not the company's name, compared
  after trimming plural and tense endings; in a thread, the question and the turns before it, so
  "why?" is about the figure asked just before). An answer with one unrelated quote is an
  unrelated-quote answer: the issue's "verbatim but unrelated" failure.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import weakref
from collections.abc import Iterable
from pathlib import Path

from evals.sentence_hash import digest, find_hashed, norm
from store import lookups

COVER = 0.6  # a partial quote must cover this share of the key sentence

_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)\s*")
# The end of a sentence: . ! ? (maybe closed by a quote or bracket), space, a likely sentence start.
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"')\]]))\s+(?=[\"'(\[]?[A-Z0-9$•])")


def reference(ticker: str, fiscal_year: int, item: str, sentence: str) -> dict:
    return {"ticker": ticker.upper(), "fiscal_year": int(fiscal_year), "item": str(item).upper(),
            "sha1": digest(sentence), "chars": len(norm(sentence))}


_ABBREVIATION = re.compile(r"(?:\b(?:U\.S|U\.K|Inc|Co|Corp|Ltd|No|Nos|Mr|Ms|Dr|St|Jr|vs|e\.g|i\.e|approx)\.)$", re.I)


def sentences(text: str) -> list[str]:
    """Lines, then sentences within a line (not after "U.S." or "Inc."): what `pick` offers."""
    out = []
    for line in (text or "").splitlines():
        pieces: list[str] = []
        for piece in (p.strip() for p in _SENTENCE_END.split(line)):
            if not piece:
                continue
            if pieces and _ABBREVIATION.search(pieces[-1]):
                pieces[-1] += " " + piece
            else:
                pieces.append(piece)
        out += pieces
    return out


# ---------------------------------------------------------------------------------------------
# Matching answers against key sentences


def _trim(text: str) -> str:
    return norm(text).strip(" \"'.;:,-*_`>")


def quote_matches(quote: str, sentence: str) -> bool:
    s = _trim(sentence)
    parts = [_trim(p) for p in _ELLIPSIS.split(quote or "")]
    parts = [p for p in parts if p]
    if not s or not parts:
        return False
    if len(parts) == 1 and s in parts[0]:
        return True
    return all(p in s for p in parts) and sum(len(p) for p in parts) >= COVER * len(s)


def quote_overlaps(quote: str, sentence: str) -> bool:
    """The quote is a piece of the sentence (however short) or holds it: related, if not recalled."""
    s = _trim(sentence)
    parts = [p for p in (_trim(p) for p in _ELLIPSIS.split(quote or "")) if p]
    return bool(s and parts) and (all(p in s for p in parts) or any(s in p for p in parts))


def answer_quotes(answer: dict) -> list[str]:
    """What the answer quotes from prose: each prose citation's quote and each claim it marks."""
    from evals.scorers import prose_claims

    if answer.get("kind") != "answer":
        return []
    quotes = [c["quote"] for c in answer.get("citations") or [] if not c.get("concept") and c.get("quote")]
    quotes += [c.text for c in prose_claims(answer)]
    seen, out = set(), []
    for q in quotes:
        if _trim(q) and _trim(q) not in seen:
            seen.add(_trim(q))
            out.append(q)
    return out


STOP = frozenset(
    """what which when where whose does did have has had been were will would could should shall about from into
    their there them they this that these those with without than then also more most much many such other over
    under between during year years fiscal filing filings company company's companies 10-k annual report reports
    say says said tell describe explain give show please anything something quote quotes item items according
    main biggest major thanks just like really pls plz your you know want need some kind sort each both happen
    happened story behind going forward look mention mentions talk name names actually correct""".split()
)


def _stem(word: str) -> str:
    """Crude on purpose: revenue/revenues, increase/increased/increasing meet at one stem."""
    if word.endswith("ies") and len(word) > 5:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    for suffix in ("ing", "ed", "ly", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _words(text: str) -> list[str]:
    out = []
    for w in re.findall(r"[a-z][a-z'&-]{3,}", norm(text)):
        w = w.strip("'-")
        out.append(w[:-2] if w.endswith("'s") else w)
    return out


def content_words(question: str, names: Iterable[str] = ()) -> set[str]:
    """The question's words that a relevant quote would likely share (stems of 4+ letters)."""
    named = {_stem(w) for n in names for w in _words(n)}
    return {_stem(w) for w in _words(question) if w not in STOP and len(w) >= 4} - named


def shares_content(quote: str, words: set[str]) -> bool:
    return bool(words & {_stem(w) for w in _words(quote)})


def score_answer(question: str, answer: dict, key_texts: list[str | None], names: Iterable[str] = ()) -> dict:
    """{recalled, matched: [i of key sentences quoted], quotes, unrelated: [quotes], unresolved}."""
    quotes = answer_quotes(answer)
    resolved = [(i, t) for i, t in enumerate(key_texts) if t]
    matched = sorted({i for i, t in resolved for q in quotes if quote_matches(q, t)})
    words = content_words(question, names)
    unrelated = [
        q for q in quotes
        if not any(quote_overlaps(q, t) for _, t in resolved) and not shares_content(q, words)
    ]
    return {
        "recalled": bool(matched),
        "matched": matched,
        "quotes": len(quotes),
        "unrelated": [q[:200] for q in unrelated],
        "unresolved": [i for i, t in enumerate(key_texts) if not t],
    }


def key_refs(expect: dict) -> list[dict]:
    return [ev for ev in expect.get("evidence") or [] if ev.get("sha1")]


# ---------------------------------------------------------------------------------------------
# Resolving references against the eval database




class Resolver:
    """Reference -> normalised sentence text, read from the filing's Item in the database."""

    def __init__(self, db):
        self.db = db
        self._texts: dict[tuple, str | None] = {}

    def _read(self, query, *args):
        with self.db.connection() as conn:
            return query(conn, *args)

    def cik(self, ticker: str) -> int | None:
        return self._read(lookups.cik_for_ticker, ticker)

    def names(self, tickers: Iterable[str]) -> list[str]:
        out = []
        for t in tickers:
            cik = self.cik(t)
            out += [t] + (self._read(lookups.company_names, cik) if cik is not None else [])
        return out

    def text(self, ref: dict) -> str | None:
        key = (ref["ticker"].upper(), ref["fiscal_year"], str(ref["item"]).upper(), ref["sha1"])
        if key not in self._texts:
            self._texts[key] = self._find(ref)
        return self._texts[key]

    def _find(self, ref: dict) -> str | None:
        cik = self.cik(ref["ticker"])
        if cik is None:
            return None
        where = (cik, ref["fiscal_year"], str(ref["item"]).upper())
        chunks = self._read(lookups.item_chunks, *where)
        for text in chunks + [" ".join(chunks)]:
            found = find_hashed(text, ref["sha1"], ref["chars"])
            if found:
                return found
        for text in self._read(lookups.item_sections, *where):
            found = find_hashed(text, ref["sha1"], ref["chars"])
            if found:
                return found
        return None


def score_case(case_question: str, expect: dict, answer: dict, resolver: Resolver) -> dict | None:
    """The key-sentence findings of one case, or None when it names no key sentence."""
    refs = key_refs(expect)
    if not refs:
        return None
    texts = [resolver.text(r) for r in refs]
    names = resolver.names({r["ticker"] for r in refs})
    return score_answer(case_question, answer, texts, names)


# ---------------------------------------------------------------------------------------------
# Picking: read a 10-K of the shared corpus and find the sentence a substring points at


def filing_path(corpus: Path, ticker: str, fiscal_year: int) -> Path:
    import csv

    with open(corpus / "filings" / "index.csv", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if row["ticker"].upper() == ticker.upper() and row["form"] == "10-K" and row["fiscal_year"] == str(fiscal_year):
                return corpus / row["file"]
    raise SystemExit(f"no 10-K of {ticker} for fiscal {fiscal_year} in {corpus}")


def filing_items(corpus: Path, ticker: str, fiscal_year: int, cache: Path | None = None) -> dict[str, str]:
    """{item: text} as the ingest parser reads it (cached as JSON outside the project, if asked)."""
    cached = cache / f"{ticker.upper()}-{fiscal_year}.json" if cache else None
    if cached and cached.exists():
        return json.loads(cached.read_text(encoding="utf-8"))
    import gzip

    from ingest.html10k import parse_10k

    path = filing_path(corpus, ticker, fiscal_year)
    raw = gzip.open(path, "rb").read() if path.suffix == ".gz" else path.read_bytes()
    items = {s.item: s.text for s in parse_10k(raw, source=str(path)).sections}
    if cached:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(items), encoding="utf-8")
    return items


def pick(items: dict[str, str], item: str, needle: str) -> list[str]:
    """The sentences of the Item that contain the (normalised) substring."""
    want = norm(needle)
    return [s for s in sentences(items.get(item.upper(), "")) if want in norm(s)]


def main(argv: list[str] | None = None) -> int:
    from evals.corpus import SHARED_CORPUS

    p = argparse.ArgumentParser(description="find a filing sentence by substring and print its reference")
    sub = p.add_subparsers(dest="cmd", required=True)
    k = sub.add_parser("pick")
    k.add_argument("ticker")
    k.add_argument("fiscal_year", type=int)
    k.add_argument("item")
    k.add_argument("needle")
    k.add_argument("--from", dest="corpus", type=Path, default=SHARED_CORPUS)
    k.add_argument("--cache", type=Path, default=None, help="a folder outside the project for parsed filings")
    k.add_argument("--json", action="store_true", help="print only the reference (exactly one match required)")
    args = p.parse_args(argv)
    items = filing_items(args.corpus, args.ticker, args.fiscal_year, args.cache)
    found = list({norm(s): s for s in pick(items, args.item, args.needle)}.values())  # repeats count once
    if args.json:
        if len(found) != 1:
            print(f"{len(found)} sentences match", file=sys.stderr)
            return 1
        print(json.dumps(reference(args.ticker, args.fiscal_year, args.item, found[0])))
        return 0
    for s in found:
        print(json.dumps(reference(args.ticker, args.fiscal_year, args.item, s)), "\n   ", s, "\n")
    print(f"{len(found)} match(es) in Item {args.item.upper()} ({', '.join(sorted(items))} parsed)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())


_RESOLVERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def findings(question: str, expect: dict, answer: dict, lookup) -> dict:
    """The runner's findings for a case with key sentences ({} without): one Resolver per lookup,
    so each reference is resolved once per run."""
    if not key_refs(expect) or lookup is None:
        return {}
    resolver = _RESOLVERS.get(lookup)
    if resolver is None:
        resolver = _RESOLVERS[lookup] = Resolver(lookup.db)
    found = score_case(question, expect, answer, resolver)
    wants_answer = expect.get("answer") == "answer"
    return {
        "key_sentences": found,
        "key_sentence_miss": wants_answer and not found["recalled"],
        "unrelated_quote": bool(found["unrelated"]),
        "key_unresolved": found["unresolved"],
    }
