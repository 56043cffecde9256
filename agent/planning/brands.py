"""A company named by its brand: a product, drug, service or subsidiary ("Humira", "Peacock",
"Gulfstream") is its maker's, told by the corpus itself.

Why the corpus and not a list: no list keeps up with every drug, streaming service and subsidiary,
but the maker's filings name its brands again and again while other companies' filings name them
seldom. A word the company index does not know is looked up in the filings' full-text index
(store.brands), and a chunk counts for a company when it writes the word as a name, capitalised
("footnote" is in every filing, in lowercase: no brand). When one covered company's filings name it
far more than any other's (DOMINANCE), the question is about that company, and the answer says why (Plan.brand); when two or
three share nearly all the mentions, Footnote asks which one; otherwise it is no company we know.

An everyday word ("Peacock", "Tide", "Texas") may be a brand too, but it may also be a place or a
topic several companies discuss: such a word needs more mentions and a clearer lead
(WORD_MIN_CHUNKS, WORD_DOMINANCE), and is never asked about when split. Only a capitalised
everyday word counts; a word no dictionary holds counts in any case ("humira").

A brand never takes a question away from the company it is about. A coined word that begins an
uncovered SEC registrant's name ("micron", "biontech") is that registrant, refused as not covered,
however often a covered peer's filings discuss it (`uncovered_registrant`). A lowercase plural of a
dictionary word ("pharmacies") is a common noun, never a brand. A word the filings write as a first
name followed by a surname ("Sundar Pichai") is a person, never a brand (`named_counts`). In a
thread, a word inside a question about the thread's company is a topic: only a reply that is
nothing but the name ("and Humira?") may move the thread to the brand's maker.

The planner is a pure function of the question; the planning node lends it the lookup for the run
(`brands_from`), as it lends the sentence model (agent.planning.exemplars.meaning_from). Without a
lookup (a test's planner, the model planner's tools) no brand is resolved.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Callable
from contextvars import ContextVar

from agent.planning.companies import Company, CompanyDirectory, CompanyMatch, norm_name
from agent.planning.company_words import ACRONYMS, LEGAL_SUFFIXES, english_words
from agent.planning.followups import lead_subject
from agent.planning.topics import STOPWORDS
from agent.retrieval.finance import MEASURE_PHRASES
from agent.planning.words import FILLER
from agent.retrieval.concepts import find_phrases, normalize

MIN_CHUNKS = 3  # a word no dictionary holds: named in at least this many of the maker's chunks
DOMINANCE = 2.5  # and this many times as often as in the next company's filings
WORD_MIN_CHUNKS = 8  # an everyday word ("Peacock", "Cadillac"): more mentions
WRITTEN_CHUNKS = 3  # a phrase of a thread's question its companies' filings write: in this many chunks
WORD_DOMINANCE = 5.0  # and a clearer lead
SPLIT_SHARE = 0.8  # two or three companies holding this share of the mentions: ask which one
MAX_LOOKUPS = 3  # candidate words looked up per message

Lookup = Callable[[str], list[tuple[int, int]]]  # phrase -> [(cik, chunks naming it)], most first
_LOOKUP: ContextVar[Lookup | None] = ContextVar("brand_lookup", default=None)

# a run of capitalised words, joined by "&" or "-" ("Pratt & Whitney", "Frito-Lay", "Sam's Club")
_CAPITALISED_RUN = re.compile(r"(?<![\w$&-])([A-Z][A-Za-z0-9]*(?:[-'\u2019][A-Za-z]+)*"
                              r"(?:\s+(?:&\s+)?[A-Z][A-Za-z0-9]*(?:[-'\u2019][A-Za-z]+)*)*)")
_LOWER_WORD = re.compile(r"(?<![\w$&'-])([a-z][a-z]{3,})(?![\w'-])")
_POSSESSIVE = re.compile(r"['\u2019]s$")
_FILING_WORDS = frozenset("item items part form annual report reports filing filings md&a note notes k q".split())


@contextlib.contextmanager
def brands_from(lookup: Lookup | None):
    """Within the block, the planner resolves brands with `lookup` (the planning node lends one over
    the service's database). A context variable: one run's lookup never leaks into another's."""
    token = _LOOKUP.set(lookup)
    try:
        yield
    finally:
        _LOOKUP.reset(token)


def corpus_lookup(db) -> Lookup:
    """A lookup over `db` (agent.context.Database), remembered per phrase: the same brand asked
    twice is one query. It lives in the run's memo (agent.context.Deps.memo), which the service
    clears when an ingest changes the corpus, so a new filing is seen without asking the corpus
    version on every lookup."""
    from store.brands import chunks_naming, chunks_writing

    lock = threading.Lock()
    lookup = _remembered(lock, lambda phrase: phrase.lower(),
                         lambda conn, phrase: named_counts(phrase, chunks_naming(conn, phrase)), db)
    lookup.writes = _remembered(  # type: ignore[attr-defined]
        lock, lambda phrase, ciks: (phrase.lower(), ciks),
        lambda conn, phrase, ciks: chunks_writing(conn, phrase, sorted(ciks)), db)
    lookup.proper = _remembered(  # type: ignore[attr-defined]
        lock, lambda phrase: phrase.lower(),
        lambda conn, phrase: capitalised_share(phrase, chunks_naming(conn, phrase)), db)
    return lookup


def _remembered(lock: threading.Lock, key_of, query, db, most: int = 4096):
    """`query` over a pooled connection, its answers kept per key (cleared past `most`): the lock guards the
    memo, never the query, so one slow lookup does not hold up the planner's other threads."""
    memo: dict = {}

    def remembered(*args):
        key = key_of(*args)
        with lock:
            if key in memo:
                return memo[key]
        with db.connection() as conn:
            value = query(conn, *args)
        with lock:
            if len(memo) > most:
                memo.clear()
            memo[key] = value
        return value

    return remembered


PROPER_SHARE = 0.8  # of a word's occurrences in the filings, written with its capital inside a sentence: a name
PROPER_LEAST = 8  # and at least this many such occurrences


def capitalised_share(phrase: str, chunks: list[tuple[int, str]]) -> float:
    """The share of `phrase`'s occurrences in `chunks` written with a capital where no sentence begins ("sold
    Chevrolet and GMC vehicles"), 0.0 with fewer than PROPER_LEAST of them. Why: a name is capitalised wherever it
    stands; an everyday word ("Restaurant", "Streaming") only where a sentence or a heading begins, however often
    one company's filings write it so."""
    words = [re.escape(w) for w in re.findall(r"[A-Za-z0-9]+", phrase)]
    if not words:
        return 0.0
    pattern = re.compile(r"(?<![A-Za-z0-9])" + r"[\W_]{1,3}".join(words) + r"(?![a-z0-9])", re.I)
    inside = capital = 0
    for _, text in chunks:
        for m in pattern.finditer(text):
            before = text[max(0, m.start() - 3): m.start()].rstrip()
            if not before or before[-1] in ".!?:;\u2022\n\"\u201c(":
                continue  # where a sentence, a quotation or a list item begins: a capital tells nothing
            inside += 1
            capital += m.group(0)[0].isupper()
    return capital / inside if capital >= PROPER_LEAST else 0.0


def proper_name(phrase: str) -> bool:
    """The filings write `phrase` as a name (capitalised inside sentences: `capitalised_share`), when the
    planning node lent a lookup. False otherwise."""
    lookup = _LOOKUP.get()
    proper = getattr(lookup, "proper", None)
    return proper is not None and proper(phrase) >= PROPER_SHARE


def named_counts(phrase: str, chunks: list[tuple[int, str]]) -> list[tuple[int, int]]:
    """[(cik, chunks that write `phrase` as a name)], most first: at least one of its occurrences
    there has a capital letter. A word filings write in lowercase ("footnote", "tide" of the sea) is
    an everyday word in them, whatever a user typed. A company whose chunks mostly write the name
    with a legal form after it, or a title before its last word, names another company or a person:
    not counted."""
    words = [re.escape(w) for w in re.findall(r"[A-Za-z0-9]+", phrase)]
    if not words:
        return []
    pattern = re.compile(r"(?<![A-Za-z0-9])" + r"[\W_]{1,3}".join(words) + r"(?![a-z0-9])", re.I)
    titled = re.compile(rf"\b(?:Mr|Ms|Mrs|Dr)\.?\s+{words[-1]}\b", re.I)
    counts: dict[int, int] = {}
    entity: dict[int, int] = {}
    person: set[int] = set()
    for cik, text in chunks:
        found = [m for m in pattern.finditer(text) if any(ch.isupper() for ch in m.group(0))
                 and not _first_name(text, m.end())]
        if found:
            counts[cik] = counts.get(cik, 0) + 1
            if any(_ENTITY_AFTER.match(text, m.end()) or _ENTITY_BEFORE.search(text[max(0, m.start() - 40) : m.start()])
                   for m in found):
                entity[cik] = entity.get(cik, 0) + 1
        if titled.search(text):
            person.add(cik)
    # a name a company's filings write as a person's ("Mr. Zuckerberg"), or mostly as another company's
    # ("Anthropic, PBC", or listed among companies by their legal names), is who it is, never their brand
    counts = {cik: n for cik, n in counts.items() if 2 * entity.get(cik, 0) < n and cik not in person}
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


# A name listed right after another company's legal form: "Hewlett Packard Enterprise Company, Huawei, Intel"
_ENTITY_BEFORE = re.compile(r"\b(?:Inc|Corp|Corporation|Company|Co|Ltd|Limited|LLC|PBC|[Pp]lc|AG|SE|N\.V|GmbH|L\.P)\.?"
                            r"[,;]\s*(?:(?:and|or)\s+)?$")
# A legal form right after a name (a word or two between): "Anthropic, PBC", "Huawei Technologies Co., Ltd."
_ENTITY_AFTER = re.compile(r",?\s+(?:[A-Z][\w&-]*\s+){0,2}(?:Inc|Corp|Corporation|Co|Ltd|Limited|LLC|L\.L\.C|PBC|"
                           r"[Pp]lc|AG|SE|S\.A|N\.V|GmbH|LP|L\.P)\b\.?")


_SURNAME = re.compile(r" (?:[A-Z]\. )?([A-Z][a-z]+)\b")


def _first_name(text: str, end: int) -> bool:
    """The word ending at `end` is a person's first name: a capitalised word no dictionary holds
    follows it ("Sundar Pichai", "Lisa T. Su"). Officer lists and signatures name executives so;
    a first name is a person, never a brand, and "is sundar a good ceo?" stays an opinion about one."""
    m = _SURNAME.match(text, end)
    return bool(m) and m.group(1).lower() not in english_words()


def candidates(text: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, phrase, everyday) for the words of `text` that may be a brand: capitalised runs
    (not a sentence's first everyday word, not a question word, a metric, a filing word or an
    abbreviation analysts use), and lowercase words no dictionary holds. `everyday`: every word of
    the phrase is a dictionary word."""
    words = english_words()
    out: list[tuple[int, int, str, bool]] = []
    first = len(text) - len(text.lstrip())
    for m in _CAPITALISED_RUN.finditer(text):
        phrase, start = m.group(1), m.start(1)
        parts = phrase.split()
        # a sentence's first dictionary word that begins a run of capitalised names ("Collins Aerospace
        # operating profit") is the name's own first word, not the sentence's capital
        named_run = start == first and len(parts) >= 2 and not _ordinary(parts[0], False, words) \
            and not _ordinary(parts[1], False, words)
        while parts and not named_run and _ordinary(parts[0], start == first, words) \
                and not (start == first and _first_word_named(parts[0], words)):  # "What does", "How is", "Tell me"
            start = text.index(parts[1], start + len(parts[0])) if len(parts) > 1 else m.end(1)
            parts.pop(0)
        while parts and _ordinary(parts[-1], False, words):
            parts.pop()
        phrase = _POSSESSIVE.sub("", " ".join(parts)).strip(" -&")
        if not phrase or len(phrase) < 3:
            continue
        out.append((start, start + len(phrase), phrase, everyday(phrase)))
    for m in _LOWER_WORD.finditer(text):
        word = m.group(1)
        if (word in words or _plural_of(word, words) or word in STOPWORDS or word in _FILING_WORDS
                or normalize(word) in MEASURE_PHRASES or not words):
            continue
        if any(s <= m.start() < e for s, e, _, _ in out):
            continue
        out.append((m.start(), m.end(), word, False))
    return sorted(out)[:MAX_LOOKUPS]


def _first_word_named(word: str, words: frozenset[str]) -> bool:
    """A message's first word, a dictionary word, that the filings write as a name wherever it stands
    (`proper_name`: "Peacock subscribers", "Chevrolet sales"): a name, though a sentence's capital tells nothing.
    Never a word of a question, a filing or a figure (`_ordinary` without the sentence's start)."""
    return not _ordinary(word, False, words) and proper_name(_POSSESSIVE.sub("", word))


def _plural_of(word: str, words: frozenset[str]) -> bool:
    """A lowercase plural of a dictionary word ("pharmacies", "razors"): a common noun the user
    asked about, however often one company's filings capitalise it in a product or segment name.
    The dictionary (a WordPiece vocabulary) holds mostly singulars."""
    stems = [word[:-1]] if word.endswith("s") else []
    if word.endswith("es"):
        stems.append(word[:-2])
    if word.endswith("ies"):
        stems.append(word[:-3] + "y")
    return any(s in words for s in stems)


def everyday(phrase: str) -> bool:
    """Every word of the phrase is a dictionary word ("Peacock", "Pratt & Whitney"), not a coined name."""
    words = english_words()
    return bool(words) and all(w.lower() in words for w in re.split(r"[\s&-]+", phrase) if w)


def _ordinary(word: str, sentence_start: bool, words: frozenset[str]) -> bool:
    """A capitalised word that names nothing: a question or filing word, a metric, an abbreviation,
    a year, or a sentence's first dictionary word."""
    bare = _POSSESSIVE.sub("", word)
    low = bare.lower()
    if low in STOPWORDS or low in _FILING_WORDS or normalize(bare) in MEASURE_PHRASES:
        return True
    if bare.upper() in ACRONYMS or re.fullmatch(r"(?:FY|Q)?\d+\w*", bare, re.I) or re.fullmatch(r"\d+-?[KQ]", bare, re.I):
        return True
    return sentence_start and low in words


def find_brands(text: str, directory: CompanyDirectory, thread: list[str] = ()) -> list[CompanyMatch]:
    """The covered companies `text` names through a brand, at most one match per brand (an
    'ambiguous' one when two or three companies share it), when the planning node lent a lookup.

    `thread`: the tickers the thread has discussed. A word one of their filings names as often as
    a brand needs ("and Eliquis?" after Pfizer, which sells it with another company) is theirs: it
    stays the thread's company, never replaced by the company that names it most. Another company's
    brand moves the thread only when the reply is nothing but the name ("and Humira?"): inside a
    question about the thread's company ("what does it say about pharmacies?") it is a topic."""
    lookup = _LOOKUP.get()
    if lookup is None:
        return []
    own = directory.ciks_of(thread)
    # a reply that is only the name ("and Humira?", "what about Peacock?") asks about it, and may
    # move the thread to its maker; a word in a question about the thread's company does not
    bare = bool(own) and lead_subject(text) is not None
    found: list[CompanyMatch] = []
    for start, end, phrase, everyday in candidates(text):
        registrant = None if everyday else uncovered_registrant(phrase, directory)
        if registrant is not None and not name_goes_on(phrase, text):  # "micron", "biontech": that registrant, which we do not cover
            found.append(CompanyMatch("not_covered", phrase, start, end, registrant, via="registrant"))
            continue
        counts = lookup(phrase)
        theirs = [cik for cik, n in counts if cik in own and n >= MIN_CHUNKS]
        if theirs:  # counts are most first: the thread's company that names it most
            found.append(CompanyMatch("company", phrase, start, end, directory.companies[theirs[0]], via="brand"))
            continue
        if own and not bare:  # a word inside a reply about the thread's company is a topic, never a switch
            continue
        match = judge(phrase, counts, directory, everyday=everyday, start=start, end=end)
        if match is not None:
            found.append(match)
    seen: set[int] = set()
    out = []
    for m in found:  # "How are Jif and Folgers doing?": one company, once
        if m.company is not None and m.company.cik in seen:
            continue
        if m.company is not None:
            seen.add(m.company.cik)
        out.append(m)
    return out


def named_by(phrase: str, ciks: set[int]) -> bool:
    """One of these companies' filings name `phrase` most, and as often as a brand needs (MIN_CHUNKS):
    its brand, segment or product ("Disney and Hulu"), not another company the user listed beside
    it (Ford's filings name Rivian, Amazon's name it more). False when no lookup is lent."""
    lookup = _LOOKUP.get()
    counts = lookup(phrase) if lookup is not None else []
    return bool(counts) and counts[0][0] in ciks and counts[0][1] >= MIN_CHUNKS


def written_by(phrase: str, ciks: set[int]) -> bool:
    """One of these companies' filings write `phrase` as often as a brand needs (MIN_CHUNKS; WORD_MIN_CHUNKS
    for a dictionary word), whoever writes it more. False when no lookup is lent."""
    lookup = _LOOKUP.get()
    counts = lookup(phrase) if lookup is not None else []
    least = WORD_MIN_CHUNKS if everyday(phrase) else MIN_CHUNKS
    return any(cik in ciks and n >= least for cik, n in counts)


def filings_term(word: str) -> bool:
    """Some covered company's filings name `word` as often as a brand needs (MIN_CHUNKS): a product, segment or
    term of filings ("wearables"), whichever company writes it. False when no lookup is lent."""
    lookup = _LOOKUP.get()
    counts = lookup(word) if lookup is not None else []
    return bool(counts) and counts[0][1] >= MIN_CHUNKS


def writes_phrase(phrase: str, ciks: set[int], least: int = WRITTEN_CHUNKS) -> bool:
    """These companies' filings write `phrase` (in any case, as words of their own prose) in at least `least`
    chunks: a market, product or activity of theirs ("gaming market", "housing market"), whoever else writes
    it. False when no lookup is lent, or the lookup counts no such thing."""
    writes = getattr(_LOOKUP.get(), "writes", None)
    return bool(ciks) and writes is not None and writes(phrase, frozenset(ciks)) >= least


def registrant_not_theirs(text: str, directory: CompanyDirectory, thread: list[str]) -> tuple[str, Company] | None:
    """(word, registrant) for a capitalised word in a follow-up that begins an uncovered SEC
    registrant's name and that none of the thread's companies' filings write ("and Toyota in
    2022?" after Ford): that registrant, not the thread's company. A word the thread's filings
    write ("and Asia?" after Nike) is a region, segment or brand of theirs; a word after a
    preposition ("in Canada") is a place. Only when the planning node lent a lookup."""
    lookup = _LOOKUP.get()
    if lookup is None:
        return None
    own = directory.ciks_of(thread)
    for m in _CAPITALISED_WORD.finditer(text):
        word = m.group(1)
        if word.lower() in STOPWORDS or _AFTER_PREPOSITION.search(text, 0, m.start(1)):
            continue
        registrant = uncovered_registrant(word, directory)
        if registrant is None:
            continue
        if not any(cik in own for cik, _ in lookup(word)):
            return word, registrant
    return None


_CAPITALISED_WORD = re.compile(r"(?<![\w$&'-])([A-Z][a-z]{2,})(?![\w'-])")
_AFTER_PREPOSITION = re.compile(r"\b(?:in|into|from|for|across|outside|within|to|of|at|on|throughout)\s+(?:the\s+)?$", re.I)


def name_goes_on(name: str, text: str) -> bool:
    """The message writes more of the name after `name`: a word that is no legal suffix, no filler,
    no figure's word and no number ("acme widgets corp" goes on past "acme"; "tjx companies total
    assets" and "csl total assets 2024" do not)."""
    at = text.lower().find(name.lower())
    if at < 0:
        return False
    after = re.findall(r"[\w&'\u2019.-]+", text[at + len(name):])
    said = text[at : at + len(name)]
    if said[:1].isupper() and after and after[0].islower() \
            and not any(re.sub(r"[.'\u2019]", "", w.lower()) in LEGAL_SUFFIXES for w in after[:3]):
        # "Rivian deliveries 2023": a name typed with its capital, then a word in lowercase, has ended (a
        # name going on is written on in capitals, or runs to its legal form: "acme widgets corp")
        return False
    for word in after:
        w = re.sub(r"['\u2019]s$", "", word.lower()).strip(".'\u2019")
        if w in LEGAL_SUFFIXES:
            continue
        return bool(w) and w not in FILLER and w not in STOPWORDS and not w[:1].isdigit() \
            and not find_phrases(normalize(" ".join(after[after.index(word):][:3])), MEASURE_PHRASES)
    return False


def uncovered_registrant(phrase: str, directory: CompanyDirectory) -> Company | None:
    """The uncovered SEC registrant a coined word names ("micron" is Micron Technology, "biontech"
    BioNTech), else None. Such a word is that company, a peer or partner the covered company's
    filings discuss, never the covered company's brand: the user asked about the registrant, and is
    told we do not cover it. The word must be the first of the registrant's name (as SEC's map
    writes it, legal suffixes aside) and not one many names begin with ("general", "united"); a
    covered company by the name is found by the directory before brands are read."""
    from agent.planning.company_words import COMMON_FIRST_WORDS

    words = [w for w in norm_name(phrase) if w not in LEGAL_SUFFIXES]
    if len(words) != 1 or words[0] in COMMON_FIRST_WORDS:
        return None
    ticker_of = directory.by_ticker.get(words[0].upper())
    if ticker_of is not None and directory.companies[ticker_of].covered:
        return None  # "v's", "ai's": a covered company's ticker, never V.F. Corp or AI Transportation by their names
    named = directory.by_first_word.get(words[0], [])
    if any(c.covered for c in named):
        return None  # "apple" is Apple Inc., never Apple iSports: the covered company a word begins is the one meant
    found = [c for c in named if not c.covered]
    return min(found, key=lambda c: (len(norm_name(c.name)), *best_known(c))) if found else None


def best_known(company: Company) -> tuple[bool, int]:
    """Which of the registrants sharing a name a user means, as a sort key: the one whose ticker is drawn
    from its name's letters (TGT for Target Corp, not CBDY for Target Group), then the oldest registrant
    (the lowest CIK). Why: SEC's map holds shells and renamed filers under famous names; the company
    known by the name trades under letters of it, and has filed longest."""
    letters = re.sub(r"[^a-z]", "", company.name.lower())
    it = iter(letters)
    spelled = bool(company.tickers) and company.tickers[0][:1].lower() == letters[:1] \
        and all(ch in it for ch in re.sub(r"[^a-z]", "", company.ticker.lower()))
    return (not spelled, company.cik)


def judge(phrase: str, counts: list[tuple[int, int]], directory: CompanyDirectory, *, everyday: bool,
          start: int = 0, end: int = 0) -> CompanyMatch | None:
    """The company whose filings name `phrase` most, when they lead clearly; an 'ambiguous' match
    when two or three share nearly all mentions (a word no dictionary holds only); else None."""
    counts = [(cik, n) for cik, n in counts if cik in directory.companies and directory.companies[cik].covered]
    if not counts:
        return None
    least, lead = (WORD_MIN_CHUNKS, WORD_DOMINANCE) if everyday else (MIN_CHUNKS, DOMINANCE)
    top_cik, top = counts[0]
    second = counts[1][1] if len(counts) > 1 else 0
    if top >= least and top >= lead * second:
        return CompanyMatch("company", phrase, start, end, directory.companies[top_cik], via="brand")
    total = sum(n for _, n in counts)
    shared = [(cik, n) for cik, n in counts if n >= least]
    if not everyday and 2 <= len(shared) <= 3 and sum(n for _, n in shared) >= SPLIT_SHARE * total:
        return CompanyMatch("ambiguous", phrase, start, end, via="brand",
                            candidates=[directory.companies[cik] for cik, _ in shared])
    return None


def covered_by_word(name: str, directory: CompanyDirectory) -> Company | None:
    """The one covered company whose name begins with `name`, a single word no name match takes because
    it is an everyday word typed in lower case ("and ford?"), when that company's own filings name the
    word most (named_by): "taiwan" begins a registrant's name, but the filings that name Taiwan are
    other companies', writing of a place. None for any other word, or a word many names begin with."""
    from agent.planning.company_words import COMMON_FIRST_WORDS

    words = norm_name(name)
    if len(words) != 1 or words[0] in COMMON_FIRST_WORDS:
        return None
    found = [c for c in directory.by_first_word.get(words[0], []) if c.covered]
    return found[0] if len(found) == 1 and named_by(words[0], {found[0].cik}) else None

