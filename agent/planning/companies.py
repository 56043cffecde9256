"""Which company a question is about: covered ones from the store, the rest from SEC's ticker map.

Why two sources: "MSFT" must be told apart from "FOOBAR". A company in SEC's map but not in the
corpus gets `not_covered`; a name nobody knows gets `no_company`. Tickers are matched with care
because many are ordinary words ("A", "IT", "ALL", "ON", "NOW", "V", "COST", "LOW"): those count
only when typed in capitals or with a "$"; lowercase tickers count only for covered companies
(and a few well-known names) that are not English words. Names lose their legal suffixes
("Apple Inc." → apple), and a small alias list covers what analysts actually type (Google,
Facebook, J&J). A lone first word shared by several covered companies ("General") is ambiguous.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import psycopg

from agent.retrieval.segments import REGION_WORDS
from agent.planning.company_words import (
    ACRONYMS,
    ALIASES,
    COMMON_FIRST_WORDS,
    ENGLISH,
    LEGAL_SUFFIXES,
    PRODUCTS,
    TYPO_STOP,
    UPPER_OK,
    english_words,
)
from agent.retrieval.spelling import one_edit

_TOKEN = re.compile(r"\$?[A-Za-z0-9][A-Za-z0-9.&'\u2019\-]*")
_PERCENT_NEXT = re.compile(r"[ \t]?%")  # a percent sign right after a token, or one space on
_POSSESSIVE = re.compile(r"'s\b")
_VS_BEFORE = re.compile(r"\b(?:vs\.?|versus)\s+$", re.I)
_VS_AFTER = re.compile(r"\s+(?:vs|versus)\b\.?", re.I)
_VS_ANY = re.compile(r"\b(?:vs|versus)\b", re.I)
# What sets two companies side by side, said between them: "ko vs pep", "is v more profitable than ma"
# (the first after the verb that asks of it), "compare v and ma" (a list the message opens by comparing).
_JOINED = re.compile(r"\s+(?:vs\.?|versus|against)\s+|\s*\+\s*|\s+(?P<than>(?:[a-z]+\s+){0,3}than)\s+"
                     r"|\s*(?P<listed>,|&|\band\b|\bor\b)\s*", re.I)
_ONE_LETTER_WORDS = frozenset("ai")  # "a", "i": never a ticker, whatever stands beside them
_ASKED_OF = re.compile(r"\b(?:is|was|are|were|does|did|do|has|had)\s+$", re.I)
_COMPARE_LIST = re.compile(r"\b(?:compare|comparing|between)\s+$", re.I)
_JOINERS_ANY = re.compile(r"\b(?:vs|versus|against|than|and|or)\b|[,&+]", re.I)
_OWNER = re.compile(r"['\u2019]s\b")  # a possessive, typed with either apostrophe
_INNER_DOT = re.compile(r"(?<=\w)\.(?=\w)")
_SLASH = re.compile(r"[/\\]")
_NON_NAME = re.compile(r"[^a-z0-9& ]+")
_LONE_AMP = re.compile(r"\s&\s")
_PREPOSITIONS = frozenset("in to from on at with of by across into within outside near for".split())
_TICKER_SHAPE = re.compile(r"[A-Za-z]{1,5}(?:[.\-][A-Za-z]{1,2})?")


def norm_name(text: str) -> tuple[str, ...]:
    """Name words for matching: lowercase, no possessive, no dots/apostrophes, hyphens split,
    legal suffixes dropped from the end (and a leading "the")."""
    t = text.lower().replace("\u2019", "'")
    t = _POSSESSIVE.sub("", t).replace("'", "")
    t = _INNER_DOT.sub("", t)  # c3.ai -> c3ai
    t = _SLASH.sub(" ", t)
    t = _NON_NAME.sub(" ", t.replace("-", " "))
    t = _LONE_AMP.sub(" ", t)  # "procter & gamble" == "procter and gamble" == "procter gamble"
    words = [w for w in t.split() if w not in ("and", "&")]
    while words and words[-1] in LEGAL_SUFFIXES:
        words.pop()
    while words and words[0] == "the":
        words.pop(0)
    return tuple(words)


@dataclass(frozen=True)
class Company:
    cik: int
    name: str
    tickers: tuple[str, ...]
    covered: bool

    @property
    def ticker(self) -> str:
        return self.tickers[0] if self.tickers else str(self.cik)


@dataclass
class CompanyMatch:
    """One company mention found in a question."""

    kind: str  # 'company' (covered), 'not_covered', 'ambiguous'
    text: str  # as the user wrote it
    start: int  # character offsets in the question
    end: int
    company: Company | None = None
    candidates: list[Company] = field(default_factory=list)
    via: str = "name"  # 'ticker', 'name', 'alias', 'typo', 'partial'


@dataclass
class CompanyDirectory:
    """Covered companies and SEC's ticker map, indexed for matching questions."""

    companies: dict[int, Company]  # by cik, covered and known
    by_ticker: dict[str, int]  # upper-case ticker -> cik
    names: dict[tuple[str, ...], set[int]]  # name words -> ciks
    first_words: dict[str, set[int]]  # first word of multi-word covered names -> ciks
    years: dict[int, list[int]] = field(default_factory=dict)  # covered cik -> fiscal years with filings
    alias_words: set[str] = field(default_factory=set)  # one-word aliases (famous names, any case)
    typo_names: dict[str, int] = field(default_factory=dict)  # one-word names eligible for typo matching
    # covered cik -> word sets of its printed rows named with an "and" (agent.planning.words.join_printed_names)
    joined: dict[int, frozenset[frozenset[str]]] = field(default_factory=dict)
    joined_shared: frozenset[frozenset[str]] = frozenset()  # those several companies print
    # covered cik -> word sets of its primary-statement rows' names, "and" or not (agent.planning.words.claim_printed_rows)
    whole: dict[int, frozenset[frozenset[str]]] = field(default_factory=dict)
    # the word sets of every primary-statement row's printed name and concept name: a formula operand
    # that is no table metric must be one of them (agent.planning.operand_rows); a LazyWordSets after `load`
    line_names: frozenset[frozenset[str]] | LazyWordSets = frozenset()
    # printed row names with a spaced hyphen, as agent.planning.printed_dashes reads them; a Deferred after `load`
    dashed: frozenset[str] | Deferred = frozenset()
    # (joined, joined_shared, whole) read on first use, when `load` was given a way to connect
    joined_index: Deferred | None = field(default=None, repr=False)
    quarters_only: frozenset[int] = frozenset()  # covered ciks held through their 10-Qs alone (no 10-K)

    # --- construction -----------------------------------------------------------------------

    @classmethod
    def from_rows(
        cls,
        covered: list[tuple[int, str, list[str]]],
        sec_tickers: list[tuple[str, int, str]] = (),
        years: dict[int, list[int]] | None = None,
    ) -> CompanyDirectory:
        companies: dict[int, Company] = {}
        by_ticker: dict[str, int] = {}
        sec_by_cik: dict[int, list[str]] = {}
        sec_title: dict[int, str] = {}
        for ticker, cik, title in sec_tickers:
            sec_by_cik.setdefault(int(cik), []).append(ticker.upper())
            sec_title.setdefault(int(cik), title)
        for cik, name, tickers in covered:
            tks = [t.upper() for t in tickers] or sec_by_cik.get(int(cik), [])
            extra = [t for t in sorted(sec_by_cik.get(int(cik), []), key=lambda t: (len(t), t)) if t not in tks]
            companies[int(cik)] = Company(int(cik), name, tuple(tks + extra), True)
        for cik, tks in sec_by_cik.items():
            if cik not in companies:
                ordered = sorted(tks, key=lambda t: (len(t), t))
                companies[cik] = Company(cik, sec_title[cik], tuple(ordered), False)
        for c in companies.values():
            for t in c.tickers:
                by_ticker.setdefault(t, c.cik)
                by_ticker.setdefault(t.replace(".", "-"), c.cik)
        names: dict[tuple[str, ...], set[int]] = {}
        first_words: dict[str, set[int]] = {}
        for c in companies.values():
            key = norm_name(c.name)
            if not key:
                continue
            if c.covered:
                names.setdefault(key, set()).add(c.cik)
                if len(key) > 1:
                    first_words.setdefault(key[0], set()).add(c.cik)
            else:
                names.setdefault(key, set()).add(c.cik)
        for c in companies.values():
            key = norm_name(c.name)
            if not c.covered and len(key) >= 3 and key[-1] in ("us", "usa") and key[:-1] not in names:
                # "T-Mobile US" typed as "t-mobile": that registrant, never AT&T's ticker "T" and a word
                names[key[:-1]] = {c.cik}
        for ticker, aliases in ALIASES.items():
            cik = by_ticker.get(ticker)
            if cik is None:
                continue
            for alias in aliases:
                # an alias overrides a same-named SEC title (e.g. "meta" is Meta Platforms)
                names[norm_name(alias)] = {cik}
        alias_words: set[str] = set()
        for aliases in ALIASES.values():
            alias_words |= {norm_name(a)[0] for a in aliases if len(norm_name(a)) == 1}
        typo_names: dict[str, int] = {}
        for key, ciks in names.items():
            if len(key) == 1 and len(key[0]) >= 5 and len(ciks) == 1 and key[0].isalpha():
                cik = next(iter(ciks))
                if companies[cik].covered or key[0] in alias_words:
                    typo_names[key[0]] = cik
        return cls(companies, by_ticker, names, first_words, dict(years or {}), alias_words, typo_names)

    @classmethod
    def load(cls, conn: psycopg.Connection, *, connect: Callable | None = None) -> CompanyDirectory:
        """The directory from the store. With `connect` (a context manager giving a connection, e.g.
        Database.connection), the two corpus-wide label indexes are read on first use instead: a
        numeric question seldom needs them, and reading and tokenizing every printed row name was
        about half a second of each cold start."""
        from store.companies import directory_rows, quarters_only
        from agent.planning.printed_dashes import dashed_index
        from store.labels import dashed_names, joined_labels, primary_labels, printed_names

        directory = cls.from_rows(*directory_rows(conn))
        directory.quarters_only = quarters_only(conn)
        if connect is None:
            directory.joined, directory.joined_shared, directory.whole = joined_names(joined_labels(conn),
                                                                                      primary_labels(conn))
            directory.line_names = line_names(printed_names(conn))
            directory.dashed = dashed_index(dashed_names(conn))
            return directory

        def read(query):
            with connect() as later:
                return query(later)

        directory.joined_index = Deferred(lambda: read(lambda later: joined_names(joined_labels(later),
                                                                                primary_labels(later))))
        directory.line_names = LazyWordSets(lambda: line_names(read(printed_names)))
        directory.dashed = Deferred(lambda: dashed_index(read(dashed_names)))
        return directory

    def ciks_of(self, tickers) -> set[int]:
        """The CIKs of the tickers this directory knows."""
        return {self.by_ticker.get(t.upper()) for t in tickers} - {None}

    def joined_names(self, tickers: list[str]) -> frozenset[frozenset[str]] | LazyWordSets:
        """The "and" row names of these covered companies, of rows several companies print, and of the
        taxonomy's common concepts, for word accounting: "sales and marketing" is one row's name even
        for a company that prints none (then refused by that name, never answered as revenue).
        Lazy when the index is: only a question with an "and" in it looks."""
        ciks = [self.by_ticker.get(t.upper()) for t in tickers]

        def build() -> frozenset[frozenset[str]]:
            joined, shared, _ = self.joined_index.get() if self.joined_index else (self.joined, self.joined_shared,
                                                                                   self.whole)
            out: set[frozenset[str]] = set(shared) | standard_joined()
            for cik in ciks:
                out |= joined.get(cik, frozenset())
            return frozenset(out)

        return LazyWordSets(build) if self.joined_index and not self.joined_index.ready else build()

    def row_names(self, tickers: list[str]) -> frozenset[frozenset[str]] | LazyWordSets:
        """The names of these covered companies' own primary-statement rows, "and" or not: a question naming one
        whole asks for that row (agent.planning.words.claim_printed_rows). Kept apart from the "and" names, which
        join two asks' words into one name wherever they meet ("term debt" is no "and" name)."""
        ciks = [self.by_ticker.get(t.upper()) for t in tickers]

        def build() -> frozenset[frozenset[str]]:
            whole = self.joined_index.get()[2] if self.joined_index else self.whole
            return frozenset(n for cik in ciks for n in whole.get(cik, frozenset()))

        return LazyWordSets(build) if self.joined_index and not self.joined_index.ready else build()

    # --- lookups ------------------------------------------------------------------------------

    def covered(self) -> list[Company]:
        return sorted((c for c in self.companies.values() if c.covered), key=lambda c: c.ticker)

    def get(self, ticker_or_cik: str | int) -> Company | None:
        if isinstance(ticker_or_cik, int):
            return self.companies.get(ticker_or_cik)
        cik = self.by_ticker.get(ticker_or_cik.upper().lstrip("$"))
        return self.companies.get(cik) if cik is not None else None

    def find(self, text: str, *, mask: list[tuple[int, int]] = ()) -> list[CompanyMatch]:
        """Company mentions in the text, in order, one per company (the first mention).

        `mask` lists character spans to ignore (metric phrases such as "general and administrative").
        """
        all_caps = _mostly_upper(text)
        tokens = [(m.start(), m.end(), m.group(0)) for m in _TOKEN.finditer(text)]
        tokens = [_trim(t) for t in tokens]
        tokens = [t for t in tokens if t[2] and not any(s <= t[0] < e for s, e in mask)
                  and not _PERCENT_NEXT.match(text, t[1]) and not t[2].endswith("%")]  # "gm%", "GM %": a ratio's initials, no ticker
        words = [norm_name(t[2]) for t in tokens]
        owners = frozenset(k for k, t in enumerate(tokens) if _OWNER.match(text, t[1]))  # "Coca-Cola's"
        found: list[CompanyMatch] = []
        i = 0
        while i < len(tokens):
            match, width = self._match_at(tokens, words, i, all_caps, owners)
            if match is None:
                match = self._ticker_in_role(text, tokens[i], all_caps)
            if match:
                found.append(match)
                i += width
            else:
                i += 1
        found = self._compared_tickers(text, tokens, found, all_caps)
        found = [m for m in found if not self._part_of_person(text, m, found, all_caps)]
        # one entry per company; an exact match elsewhere settles an ambiguous partial
        out: list[CompanyMatch] = []
        seen: set[int] = set()
        for m in found:
            if m.kind == "ambiguous":
                if any(f.company and f.company.cik in {c.cik for c in m.candidates} for f in found):
                    continue
                out.append(m)
                continue
            if m.company.cik in seen:
                continue
            seen.add(m.company.cik)
            out.append(m)
        if any(m.kind != "ambiguous" for m in out):
            # a lone capitalised first word ("General") next to a clear company is not a question about it
            out = [m for m in out if m.kind != "ambiguous"]
        return out

    def _ticker_in_role(self, text: str, token: tuple[int, int, str], all_caps: bool, *,
                        compared: bool = False) -> CompanyMatch | None:
        """A covered company's ticker that is an everyday word, typed in lowercase where only a company
        stands: as an owner ("pep's gross margin", "ma's revenue") or, `compared`, across "vs" from a
        company ("ko vs pep"). Why: alone, "pep" or "low" is a word and never a ticker in lowercase
        (`_ticker`), but a word owns no figure and is not compared with a company ("high vs low
        estimates" compares words); the acronyms ("ai's impact") stay words, and so does one letter ("v"),
        except set beside a company as one ("v vs ma"), never one that is a word ("a")."""
        start, end, raw = token
        if all_caps or not raw.islower() or (len(raw) < 2 and (not compared or raw in _ONE_LETTER_WORDS or not raw.isalpha())):
            return None
        if not compared and _OWNER.match(text, end) is None:
            return None
        cik = self.by_ticker.get(raw.upper())
        if cik is None or not self.companies[cik].covered or raw.upper() in ACRONYMS:
            return None
        return self._company_match(cik, raw, start, end, "ticker")

    def _compared_tickers(self, text: str, tokens, found: list[CompanyMatch], all_caps: bool) -> list[CompanyMatch]:
        """`found` with the everyday-word tickers set beside a company (`_ticker_in_role`, `_JOINED`): a
        company found, or another such ticker ("v vs ma revenue": neither is a ticker alone in lowercase,
        but two covered tickers set side by side are two companies, as "high vs low" is not)."""
        if not _JOINERS_ANY.search(text):
            return found  # most messages compare nothing: no pass over their words
        taken = [(m.start, m.end) for m in found]
        free = [t for t in tokens if not any(s <= t[0] < e for s, e in taken)]
        candidates = {t: self._ticker_in_role(text, t, all_caps, compared=True) for t in free}
        sides = [(m.start, m.end) for m in found if m.kind == "company"] + \
                [(t[0], t[1]) for t, m in candidates.items() if m is not None]
        added = []
        for token, match in candidates.items():
            if match is None:
                continue
            start, end = token[0], token[1]
            if any(_joined(text, a, b) for a, b in
                   [((s, e), (start, end)) for s, e in sides if e <= start]
                   + [((start, end), (s, e)) for s, e in sides if s >= end]):
                added.append(match)
        return sorted(found + added, key=lambda m: m.start) if added else found

    def _part_of_person(self, text: str, m: CompanyMatch, found: list[CompanyMatch], all_caps: bool) -> bool:
        """The one-word mention is half of a person's name: a surname after a given name ("Robert
        Ford", "Mark Smucker", "Henry Ford"), or a ticker typed as a given name before a surname
        ("Tim Cook": a short name we do not cover, or a ticker). Two capitalised words in mid-sentence, neither any company's name, are a person
        the way a user writes one; the surname is no question about the company that shares it.
        Not judged in a message written in capitals or in Title Case, where every word is capitalised."""
        if all_caps or " " in m.text or not m.text[:1].isupper() or m.text.isupper() or _title_case(text):
            return False
        before = _GIVEN_BEFORE.search(text, 0, m.start)
        if before and before.start(1) > 0 and not _SENTENCE_END.search(text, 0, before.start(1)):
            given = before.group(1)
            if not self._names_word(given) and not any(o.start <= before.start(1) < o.end for o in found):
                return True
        after = _SURNAME_AFTER.match(text, m.end)
        short = len(m.text) <= 4 and (m.via == "ticker" or m.kind == "not_covered")  # "Tim", "Sam", "Ray"
        return bool(short and after and not self._names_word(after.group(1))
                    and after.group(1).lower() not in LEGAL_SUFFIXES
                    and not any(o.start <= after.start(1) < o.end for o in found))

    def _names_word(self, word: str) -> bool:
        """`word` is (the first word of) some company's name, or one of its one-word aliases."""
        w = word.lower()
        return (w,) in self.names or w in self.first_words or w in self.alias_words or w.upper() in self.by_ticker

    def find_products(self, text: str) -> list[CompanyMatch]:
        """Companies named only through a product ("iPhone", "Azure"), for questions that name no company."""
        low = text.lower().replace("\u2019", "'")
        found: list[CompanyMatch] = []
        for ticker, products in PRODUCTS.items():
            cik = self.by_ticker.get(ticker)
            if cik is None:
                continue
            for product in products:
                m = re.search(rf"(?<![\w]){re.escape(product)}(?![\w])", low)
                if m:
                    found.append(self._company_match(cik, text[m.start() : m.end()], m.start(), m.end(), "product"))
                    break
        return sorted(found, key=lambda m: m.start)[:1]

    # --- internals ----------------------------------------------------------------------------

    def _company_match(self, cik: int, text: str, start: int, end: int, via: str) -> CompanyMatch:
        c = self.companies[cik]
        return CompanyMatch("company" if c.covered else "not_covered", text, start, end, c, via=via)

    def _match_at(self, tokens, words, i, all_caps, owners: frozenset[int] = frozenset()) -> tuple[CompanyMatch | None, int]:
        start, end, raw = tokens[i]
        # 1. names and aliases, longest first (up to 6 words), starting on a word that is part of a name
        for n in range(min(6, len(tokens) - i), 0, -1) if words[i] else ():
            key = tuple(w for ws in words[i : i + n] for w in ws)
            if not key or key not in self.names:
                continue
            if n > 1 and not words[i + n - 1] and tokens[i + n - 1][2].lower() in ("and", "&", "the", "of", "or"):
                continue  # "Apple and" is Apple; the connective stays outside the span
            owner = next((k for k in range(i, i + n - 1) if k in owners), None)
            closed = tuple(w for ws in words[i : owner + 1] for w in ws) if owner is not None else key
            if closed != key and closed in self.names:
                # "Coca-Cola's consolidated net income": the possessive closes the name it ends (Coca-Cola), never
                # a longer registrant's name that runs on past it (Coca-Cola Consolidated)
                continue
            ciks = self.names[key]
            seg_raw = " ".join(t[2] for t in tokens[i : i + n])
            if len(key) == 1 and not self._single_word_ok(key[0], raw, ciks, all_caps, i == 0):
                continue
            span = (start, tokens[i + n - 1][1])
            text = seg_raw
            if len(ciks) == 1:
                return self._company_match(next(iter(ciks)), text, *span, "name"), n
            cands = sorted((self.companies[c] for c in ciks), key=lambda c: (not c.covered, c.ticker))
            covered = [c for c in cands if c.covered]
            if len(covered) == 1:
                return self._company_match(covered[0].cik, text, *span, "name"), n
            return CompanyMatch("ambiguous", text, *span, candidates=covered or cands, via="name"), n
        # 2. tickers
        cik = self._ticker(raw, all_caps)
        if cik is not None:
            return self._company_match(cik, raw, start, end, "ticker"), 1
        # a covered ticker's possessive typed without its apostrophe ("AMDs gaming revenue", "KOs margin")
        stem = raw[:-1]
        if raw.endswith("s") and len(stem) >= 2 and stem.isupper() and not all_caps:
            cik = self._ticker(stem, all_caps)
            if cik is not None and self.companies[cik].covered:
                return self._company_match(cik, raw, start, end, "ticker"), 1
        # 3. a covered name spelled with one letter wrong in one of its words ("proctor and gamble",
        # "General Motor"), or run together or split apart ("cocacola", "Mc Donalds")
        for n in (3, 2, 1):
            key = tuple(x for ws in words[i : i + n] for x in ws)
            if i + n <= len(tokens) and key and words[i] and words[i + n - 1]:
                cik = self._typo_phrase(key)
                if cik is not None:
                    return self._company_match(cik, " ".join(t[2] for t in tokens[i : i + n]), start,
                                               tokens[i + n - 1][1], "typo"), n
        # 4. a capitalised first word shared by several covered companies ("General")
        w = words[i]
        nxt = tokens[i + 1][2].lower() if i + 1 < len(tokens) else ""
        named = raw[:1].isupper() and not all_caps or w and w[0] not in COMMON_FIRST_WORDS
        if (len(w) == 1 and named and w[0] in self.first_words
                and nxt not in ("and", "&", "administrative")):
            ciks = self.first_words[w[0]]
            if len(ciks) > 1:
                cands = sorted((self.companies[c] for c in ciks), key=lambda c: c.ticker)
                return CompanyMatch("ambiguous", raw, start, end, candidates=cands, via="partial"), 1
        if len(w) == 1 and len(self.first_words.get(w[0], ())) == 1 and self._short_name_ok(tokens, i, w[0], all_caps):
            return self._company_match(next(iter(self.first_words[w[0]])), raw, start, end, "partial"), 1
        # 5. a possessive without its apostrophe ("teslas"), then a one-letter typo of a covered name
        # or alias of five letters or more
        if len(w) == 1 and w[0].endswith("s") and w[0][:-1] in self.typo_names and w[0] not in TYPO_STOP:
            return self._company_match(self.typo_names[w[0][:-1]], raw, start, end, "name"), 1
        if len(w) == 1 and len(w[0]) >= 4 and w[0] not in TYPO_STOP and w[0].isalpha() and w[0] not in english_words() \
                and w[0] not in REGION_WORDS:  # "intl", "latam": a region's short name, never a name misspelt
            # four letters: only a letter dropped from a five-letter name ("Aple", "Tesa"); any edit of longer ones
            cik = self._typo(w[0]) if len(w[0]) >= 5 else self._typo(w[0], longer_only=True)
            if cik is not None:
                return self._company_match(cik, raw, start, end, "typo"), 1
        return None, 1

    def _short_name_ok(self, tokens, i: int, word: str, all_caps: bool) -> bool:
        """The first word of one covered company's name, and of no other's, said alone ("Ford's
        warranty costs", "honeywell revenue"): that company. Not a word many names begin with
        ("General", "American"), nor a short one; an everyday word ("ford", "taiwan") only when
        capitalised and not after a preposition ("exposure to Taiwan" is a place)."""
        if word in COMMON_FIRST_WORDS or len(word) < 4 or not word.isalpha():
            return False
        if not self.companies[next(iter(self.first_words[word]))].covered:
            return False
        if word not in english_words():
            return True
        raw = tokens[i][2]
        before = tokens[i - 1][2].lower() if i > 0 else ""
        return raw[:1].isupper() and not all_caps and before not in _PREPOSITIONS

    def _typo_phrase(self, key: tuple[str, ...]) -> int | None:
        """The covered company whose name (or alias) these words spell, if only one: its words with
        one letter wrong in one of them (the others exact, the wrong one of five letters or more),
        or all its letters with the spaces moved ("cocacola", "mc donalds"; six letters or more)."""
        by_words, squashed = self._covered_phrases
        if key in by_words.get(len(key), {}):
            return None  # the name itself is matched (or refused as a word) by the steps before
        hits = set()
        if len("".join(key)) >= 6 and not all(w in english_words() for w in key):  # "sales force" is a phrase
            hits |= squashed.get("".join(key), set())
        for k in range(len(key)) if len(key) >= 2 else ():
            for word, cik in self._one_word_open.get((len(key), k, key[:k] + key[k + 1:]), ()):
                if word != key[k] and len(word) >= 5 and one_edit(key[k], word):
                    hits.add(cik)
        return next(iter(hits)) if len(hits) == 1 else None

    @functools.cached_property
    def by_first_word(self) -> dict[str, list[Company]]:
        """First name word -> companies, over every company the directory knows (covered or not):
        a one-word reply or brand that begins an uncovered registrant's name is that registrant.
        Built once per directory, on first use, so a reload brings its own."""
        index: dict[str, list[Company]] = {}
        for c in self.companies.values():
            words = norm_name(c.name)
            if words:
                index.setdefault(words[0], []).append(c)
        return index

    @functools.cached_property
    def _one_word_open(self) -> dict[tuple[int, int, tuple[str, ...]], list[tuple[str, int]]]:
        """The covered names of two or three words, by their length, one word's place and the other
        words: a phrase with one word misspelt finds its candidates in a few lookups, not a scan of
        every name on every question."""
        out: dict[tuple[int, int, tuple[str, ...]], list[tuple[str, int]]] = {}
        for n, names in self._covered_phrases[0].items():
            for name, cik in names.items() if n >= 2 else ():
                for k in range(n):
                    out.setdefault((n, k, name[:k] + name[k + 1:]), []).append((name[k], cik))
        return out

    @functools.cached_property
    def _covered_phrases(self) -> tuple[dict[int, dict[tuple[str, ...], int]], dict[str, set[int]]]:
        """Names and aliases of up to three words that belong to one covered company, by their
        number of words, and their letters run together."""
        by_words: dict[int, dict[tuple[str, ...], int]] = {}
        squashed: dict[str, set[int]] = {}
        for name, ciks in self.names.items():
            cik = next(iter(ciks))
            if len(name) <= 3 and len(ciks) == 1 and self.companies[cik].covered:
                by_words.setdefault(len(name), {})[name] = cik
                squashed.setdefault("".join(name), set()).add(cik)
        return by_words, squashed

    def _single_word_ok(self, word: str, raw: str, ciks: set[int], all_caps: bool, sentence_start: bool) -> bool:
        """A one-word name counts in lowercase only for covered companies and famous aliases that are
        not everyday words; otherwise it must be capitalised (Target, Oracle)."""
        capitalised = raw.lstrip("$")[:1].isupper() and not all_caps
        covered = any(self.companies[c].covered for c in ciks)
        if word in ENGLISH:
            return capitalised
        if covered or word in self.alias_words:
            return True
        return capitalised and len(word) >= 3 and not sentence_start

    def _ticker(self, raw: str, all_caps: bool) -> int | None:
        dollar = raw.startswith("$")
        t = raw.lstrip("$")
        if not _TICKER_SHAPE.fullmatch(t):
            return None
        up = t.upper()
        cik = self.by_ticker.get(up) or self.by_ticker.get(up.replace(".", "-"))
        if cik is None:
            return None
        if dollar:
            return cik
        if t == up and not all_caps:
            if up in ACRONYMS and up not in UPPER_OK:
                return None
            if len(up) >= 4 and up.lower() in english_words() and not self.companies[cik].covered:
                return None  # "DROP", "LOVE": shouted words, not tickers of companies we do not cover
            if len(up) == 1 and up != "V":
                return None
            return cik
        # lowercase (or an all-caps message): covered companies and famous names only, no English words
        if t.lower() in ENGLISH or len(t) < 2 or up in ACRONYMS:
            return None
        c = self.companies[cik]
        if c.covered or up in ALIASES:
            return cik
        return None

    def _typo(self, word: str, *, longer_only: bool = False) -> int | None:
        hits = {cik for name, cik in self.typo_names.items() if name != word and one_edit(word, name)
                and (not longer_only or len(name) == len(word) + 1)}
        return next(iter(hits)) if len(hits) == 1 else None


class Deferred:
    """A value computed once, on first use, by whichever thread asks first."""

    def __init__(self, compute: Callable):
        self._compute = compute
        self._value = None
        self._lock = threading.Lock()

    @property
    def ready(self) -> bool:
        return self._value is not None

    def get(self):
        if self._value is None:
            with self._lock:
                if self._value is None:
                    self._value = self._compute()
        return self._value


class LazyWordSets(Deferred):
    """A frozenset of word sets that is computed the first time it is read: membership, iteration,
    truth and length all load it. Hashed by identity (agent.planning.operand_rows caches by the set)."""

    def __contains__(self, words) -> bool:
        return words in self.get()

    def __iter__(self) -> Iterator[frozenset[str]]:
        return iter(self.get())

    def __len__(self) -> int:
        return len(self.get())

    def __bool__(self) -> bool:
        return bool(self.get())

    __hash__ = object.__hash__


def _joined(text: str, first: tuple[int, int], second: tuple[int, int]) -> bool:
    """Whether the words between two mentions set them side by side (`_JOINED`): "vs" always; "than"
    after the verb asking of the first ("is v more profitable than ma"); a list ("and", "&", "or", a
    comma) only in a message comparing it ("compare v and ma") or ending the message ("ko and ma"), where "apple
    and low margins" is not."""
    joined = _JOINED.fullmatch(text, first[1], second[0])
    if joined is None:
        return False
    if joined.group("than"):
        return _ASKED_OF.search(text[: first[0]]) is not None
    if joined.group("listed"):
        # a list the message opens by comparing, or one that ends it ("operating income 2024: ko and ma"), where
        # nothing follows for the word to qualify ("apple and low margins")
        return _COMPARE_LIST.search(text[: first[0]]) is not None or not text[second[1]:].strip(" ?.!")
    return True


def joined_names(rows: list[tuple[int, str, str]], whole_rows: list[tuple[int, str, str]] = ()
                 ) -> tuple[dict[int, frozenset[frozenset[str]]], frozenset[frozenset[str]],
                            dict[int, frozenset[frozenset[str]]]]:
    """({cik: word sets}, the word sets several companies print) of printed labels and concept names
    that hold an "and" on both sides, and ({cik: word sets}) of `whole_rows`: (cik, label, concept) of the
    company's primary-statement rows, whose names of two words or more are the company's own, "and" or not
    (never shared: "Equity income" is one company's row, not a name every question may read)."""
    from agent.retrieval.line_items import concept_words, tokens

    out: dict[int, set[frozenset[str]]] = {}
    for cik, label, concept in rows:
        for name in (label, concept_words(concept)):
            if re.search(r"\band\b|&", name, re.I):
                words = tokens(name)
                if len(words) >= 2:
                    out.setdefault(cik, set()).add(words)
    seen: dict[frozenset[str], int] = {}
    for names in out.values():
        for words in names:
            seen[words] = seen.get(words, 0) + 1
    shared = frozenset(words for words, n in seen.items() if n >= 2)  # printed by several companies
    whole: dict[int, set[frozenset[str]]] = {}
    for cik, label, _ in whole_rows:
        words = tokens(label)
        if len(words) >= 2:
            whole.setdefault(cik, set()).add(words)
    return ({cik: frozenset(names) for cik, names in out.items()}, shared,
            {cik: frozenset(names) for cik, names in whole.items()})


def line_names(rows: list[tuple[str, str]]) -> frozenset[frozenset[str]]:
    """The word sets (agent.retrieval.line_items.tokens) of printed row names and their concepts' names."""
    from agent.retrieval.line_items import concept_words, tokens

    names = {label for label, _ in rows} | {concept_words(concept) for concept in {c for _, c in rows}}
    return frozenset(words for words in map(tokens, names) if words)


# Common us-gaap concepts whose names join two things with "and" (their standard labels).
STANDARD_JOINED = (
    "SellingAndMarketingExpense", "GeneralAndAdministrativeExpense", "SellingGeneralAndAdministrativeExpense",
    "ResearchAndDevelopmentExpense", "LiabilitiesAndStockholdersEquity", "CashAndCashEquivalentsAtCarryingValue",
    "PropertyPlantAndEquipmentNet", "DepreciationDepletionAndAmortization", "DepreciationAndAmortization",
    "AccountsPayableAndAccruedLiabilitiesCurrent", "MarketingAndAdvertisingExpense", "InterestAndDebtExpense",
    "InterestAndDividendIncomeOperating", "CostOfGoodsAndServicesSold", "GoodwillAndIntangibleAssetImpairment",
    "RestructuringAndRelatedCostIncurredCost", "AccruedLiabilitiesAndOtherLiabilities",
    "PrepaidExpenseAndOtherAssetsCurrent", "OtherAssetsAndLiabilitiesNet", "TechnologyAndDevelopmentExpense",
    "SalesAndMarketingExpense", "MergersAndAcquisitions",
)


@functools.cache
def standard_joined() -> frozenset[frozenset[str]]:
    from agent.retrieval.line_items import concept_words, tokens

    return frozenset(tokens(concept_words(c)) for c in STANDARD_JOINED)


# A name listed beside a company mention ("Nike and Adidas", "Adidas, Nike", "Nike vs. Adidas")
_LIST = r"(?:,|&|\b(?:and|or|vs|versus|compared\s+(?:to|with))\b\.?)"
_NAME = r"[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,2}"
_LISTED_AFTER = re.compile(rf"(?:['\u2019]s)?\s*{_LIST}\s+(?:the\s+)?({_NAME})")
_LISTED_BEFORE = re.compile(rf"(?<![\w&.-])({_NAME})(?:['\u2019]s)?\s*{_LIST}\s+$")


# A lowercase name joined to a company mention ("tesla vs ford", "boeing and lockheed"): typed in chat's
# lowercase, a name is told from the figure's words only by what the caller knows of it, so only the
# words are found here (`listed_lowercase`). A comma, "&" or "or" lists figures as often as companies.
_LOWER_LIST = r"(?:\b(?:and|vs|versus|against|compare[sd]?\s+(?:to|with))\b\.?)"
_LOWER_WORD = r"[a-z][\w&.-]*(?:['\u2019]s)?"
_LOWER_AFTER = re.compile(rf"(?:['\u2019]s)?\s*({_LOWER_LIST})\s+(?:the\s+)?({_LOWER_WORD}(?:\s+{_LOWER_WORD}){{0,2}})")
_LOWER_BEFORE = re.compile(rf"(?<![\w&.'\u2019-])({_LOWER_WORD}(?:\s+{_LOWER_WORD})?)\s*({_LOWER_LIST})\s+$")


# "nike revenue and adidas's?": a possessive after a joiner, past the first company's figure, owns a figure of its own
_LOWER_OWNER = re.compile(rf"\b({_LOWER_LIST})\s+(?:the\s+)?([a-z][\w&.-]*)['\u2019]s?(?=[\s?.!,]|$)")


def listed_lowercase(text: str, matches: list[CompanyMatch]) -> list[tuple[list[str], bool, bool]]:
    """The lowercase words joined to a company mention by "vs", "and", "compared with" ("tesla vs ford
    revenue", "adidas vs nike"), as (words, after, strong): `words` in the order written, nearest the
    mention first when `after`, last when not; `strong` when the joiner compares ("vs", "versus",
    "compared with"), which puts a company on both sides, unlike "and"."""
    spans = [(m.start, m.end) for m in matches]
    inside = lambda i: any(s <= i < e for s, e in spans)  # noqa: E731
    found = []
    for m in matches:
        after = _LOWER_AFTER.match(text, m.end)
        if after and not inside(after.start(2)):
            found.append((after.group(2).split(), True, after.group(1) != "and"))
        before = _LOWER_BEFORE.search(text, 0, m.start)
        # the word nearest the joiner is the name listed: a company already found there ("compare v and ma") is none
        if before and not inside(before.start(1)) and not inside(before.end(1) - 1):
            found.append((before.group(1).split(), False, before.group(2) != "and"))
    if matches:
        first = min(m.end for m in matches)
        for owner in _LOWER_OWNER.finditer(text, first):
            if not inside(owner.start(2)) and ([owner.group(2)], True, owner.group(1) != "and") not in found:
                found.append(([owner.group(2)], True, owner.group(1) != "and"))
    return found


def named_beside(text: str, matches: list[CompanyMatch]) -> str | None:
    """A capitalised name listed next to a company mention by "and", "or", "vs", a comma ("compare
    Nike and Adidas revenue"), which the directory did not resolve: another company the user named,
    not words of the figure asked. None when there is none; the caller decides what it means."""
    spans = [(m.start, m.end) for m in matches]
    inside = lambda i: any(s <= i < e for s, e in spans)  # noqa: E731
    for m in matches:
        after = _LISTED_AFTER.match(text, m.end)
        if after and not inside(after.start(1)):
            return re.sub(r"['\u2019]s$", "", after.group(1)).strip(" .,")
        before = _LISTED_BEFORE.search(text, 0, m.start)
        if before and before.start(1) > 0 and not inside(before.start(1)):
            return re.sub(r"['\u2019]s$", "", before.group(1)).strip(" .,")
    return None


# A given name just before a mention, and a surname just after one (agent.planning.companies._part_of_person)
_GIVEN_BEFORE = re.compile(r"(?<![\w'\u2019&.-])([A-Z][a-z]+)\s+$")
_SURNAME_AFTER = re.compile(r"\s+([A-Z][a-z]+)\b(?![&.-]\w)")
_SENTENCE_END = re.compile(r"(?:^|[.?!:;\n\"(])\s*$")


_FUNCTION_WORDS = frozenset("what was were is are the and for than does did how its their with from about in of to "
                            "say has have much many by on at".split())


def _title_case(text: str) -> bool:
    """The message is written in Title Case ("What Was Ford's Revenue In 2023?"): capitals say nothing.
    Told by its small words after the first (names are capitalised in any sentence), or, with none,
    by most of its words."""
    words = re.findall(r"[A-Za-z]+", text)[1:]
    small = [w for w in words if w.lower() in _FUNCTION_WORDS]
    if small:
        return sum(w[0].isupper() for w in small) / len(small) >= 0.6
    words = [w for w in words if len(w) >= 3]
    return len(words) >= 3 and sum(w[0].isupper() for w in words) / len(words) >= 0.6


def _mostly_upper(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 12 and sum(ch.isupper() for ch in letters) / len(letters) > 0.8


def _trim(tok: tuple[int, int, str]) -> tuple[int, int, str]:
    start, end, raw = tok
    while raw and raw[-1] in ".-'\u2019&":
        raw = raw[:-1]
        end -= 1
    raw = re.sub(r"['\u2019]s$", "", raw)
    return start, start + len(raw), raw
