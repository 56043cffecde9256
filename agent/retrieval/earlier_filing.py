"""Which 10-K a prose question naming no year is read in: the latest, unless an earlier one held
answers it much better.

Why: a question naming no year is about the company as its latest filing describes it, and that
stays the rule. But an event, a deal or a case the latest 10-K no longer discusses ("the iRobot
deal", "the Embraer arbitration", "the Edley class action") is told in full only in the 10-K of
the year it happened: searched in the latest alone it finds nothing (refused no_grounding) or a
passage that shares a word and answers nothing. The measure is each filing's best passage: its
cosine similarity to the question (comparable across filings, unlike the fused search's ranks).
The latest keeps the question unless an earlier filing's best passage is much better (by a margin
when the latest's is weak, by a clear lead when not), the earlier filing holds a word of the question
the latest holds nowhere (or leads decisively), and the latest does not repeat the passage. A name the
question uses that an earlier filing writes as a name and the latest holds nowhere ("Bystolic", "Selipsky",
"Seiyu") is itself the sign: a name embeds weakly, so the two filings' best passages can match the question
about alike while only one of them tells the thing named. The answer then names the filing it quotes
("From X's fiscal 2023 10-K").
"""

from __future__ import annotations

import re

from agent.retrieval.query_vectors import embed_queries
from store import chunks as chunk_store
from store import lookups

# Where the plan's year came from (Plan.slots) when an earlier filing was read: no year the user named,
# so the thread's next question is read at its own latest filing again (agent.memory.remember).
EARLIER_SLOT = "earlier filing: the latest does not tell it"

# The latest filing's best passage at or above this similarity answers the question well enough to
# keep it there (on the development questions the latest's passage that answers sits at 0.45-0.70,
# while an event it no longer discusses finds only 0.28-0.40).
WEAK = 0.45
# An earlier filing replaces a weak latest when its best passage is this much closer to the question.
# (A smaller lead is two filings' wording of one standing topic: a risk factor reworded a little.)
MARGIN = 0.10
# However well the latest matches, an earlier filing this much closer tells the thing asked and the
# latest only something like it (another lawsuit for "the Harborline arbitration"). On the development
# questions the latest's own answers never trailed an earlier filing by more than 0.08.
CLEAR_LEAD = 0.15
# Short of this lead, an earlier filing is read only when it holds a word of the question the latest
# holds nowhere (the name of a deal, a case, a product it no longer mentions): a question whose words
# the latest all holds is about something the latest still discusses, however it words it.
DECISIVE = 0.20
# A name only an earlier filing holds reads that filing unless its best passage trails the latest's by more than
# this: the question's other words then match the latest much better, and the name may be a passing mention.
NAME_SLACK = 0.05
NAME_MIN = 4  # letters: shorter words (an initial, "AI") are not told apart as names
STEM_MIN = 5  # letters a name's stem keeps: "bond" of "Bondy" would find "bonds"
CAPITALISED = 0.8  # share of a word's uses the filing capitalises for the word to be a name there

# A sentence tells the asked thing when it holds at least this many of the question's own words together
# (their stems): one word alone is a mention, as a later 10-K mentions an event it told the year before.
TOLD_MIN = 2
# ... and one of those words is particular to a few of the filing's passages (held by at most this share of its
# chunks): a name, a drug, a case ("DGX", "opioid": 2% of their 10-Ks' chunks), not the words every passage of a
# 10-K uses ("charges", "liabilities", "valuation", "changes": 6-30%), which tie together in some sentence of any year.
PARTICULAR = 0.03
# A sentence holding this many more of the question's words than any of the latest's nearest passages tells the
# thing clearly more fully: its passage may then match the question a little less well (by NAME_SLACK).
AHEAD = 2
# The thing asked about, named by the question's most particular word: one held by at most this share of a
# filing's chunks (a deal, a program, a case: "layoffs" 1%, "Abiomed" 3-4%, "Kenvue" 6-7% of their 10-Ks' chunks).
SUBJECT_SHARE = 0.08
# The latest refers back to the thing when none of its sentences naming it tells it as its own year's and at
# least half of them name earlier years alone (or say "previously"): a mention in passing, undated, of a thing
# the 10-K goes on discussing in the present (a settlement it still administers) is no reference back.
# A sentence refers back when it names only years before its filing's own, or says so in words.
_BACK = re.compile(r"\b(?:previously|prior[- ]year|previous(?:ly)?\s+(?:year|fiscal year|announced|disclosed))\b", re.I)
_YEAR = re.compile(r"\b(20[0-4]\d)\b")
READ = 8  # each filing's nearest passages whose sentences are weighed (the search reads as many)
# Words a question is framed with rather than about: they say nothing of which filing tells the thing.
_FRAME = {"many", "much", "now", "still", "just", "some", "any", "all", "have", "has", "had", "been", "will", "there",
          "these", "this", "that", "those", "they", "them", "it", "its", "our", "your", "ever", "yet", "happen",
          "happened", "happening", "say", "said", "says"}

# An earlier passage the latest 10-K repeats (its nearest chunk this similar) is no event the latest
# no longer discusses: a 10-K carries most of the one before it over, reworded a little.
REPEATED = 0.90


def _telling_sentences(text: str, words: list[str]) -> list[str]:
    """The chunk's sentences that hold the most of the question's words (prefixes, as stems): where it
    tells what was asked, rather than the rest of the passage around it."""
    from agent.checking.guards import split_sentences

    stems = [w[:5] for w in words if len(w) > 2]
    scored = [(sum(stem in sentence.lower() for stem in stems), sentence) for sentence in split_sentences(text)]
    top = max((n for n, _ in scored), default=0)
    return [sentence for n, sentence in scored if n == top] if top else []


_SPELLED_OUT = re.compile(r"\b([A-Z]{2,6})\s*\([^)]*\)")


def asked_stems(query: str, names: tuple[str, ...] = ()) -> list[str]:
    """The question's own words, as stems (their first five letters): what a sentence must hold to tell it. The
    company's own `names` are no word asked: an older 10-K's sentence naming "Alphabet" beside "competition"
    tells no more of "competition in AI" than the latest's that says "we"."""
    from agent.planning.topics import STOPWORDS

    own = {w[:5] for name in names for w in re.findall(r"[a-z0-9]+", (name or "").lower()) if len(w) > 2}
    # the search's spelling-out of an acronym ("AI (artificial intelligence)") is one word asked, not two more: a
    # sentence holding "artificial" and "intelligence" tells no more of "competition in AI" than one saying "AI"
    query = _SPELLED_OUT.sub(r"\1", query)
    words = re.findall(r"[a-z0-9]+", query.lower())  # a compound by its parts: "year-on-year" is a "year"
    return list(dict.fromkeys(w[:5] for w in words if len(w) > 2 and w not in STOPWORDS and w not in _FRAME
                              and w[:5] not in own))


def telling(passages: list[tuple[int, float, str]], stems: list[str]) -> tuple[int, str]:
    """How fully a filing's nearest passages tell the asked thing: the most of the question's words (stems)
    one sentence of them holds, and that sentence. A 10-K that tells an event in full writes it in a
    sentence naming what was asked ("we launched DGX Cloud"); a later one that only refers back, or tells
    something else about the same name, holds those words apart."""
    from agent.checking.guards import split_sentences

    best = (0, "")
    for _, _, text in passages:
        for sentence in split_sentences(text):
            low = sentence.lower()
            n = sum(stem in low for stem in stems)
            if n > best[0]:
                best = (n, sentence)
    return best


def _names_year(sentence: str, year: int, filing: dict) -> bool:
    """Whether the sentence names the filing's own fiscal year (or the calendar year its period ends in)."""
    years = {str(year)}
    end = str(filing.get("period_end") or "")[:4]
    years |= {end} if end.isdigit() else set()
    return any(re.search(rf"\b{y}\b", sentence) for y in years if y)


def _own_years(year: int, filing: dict) -> set[int]:
    end = str(filing.get("period_end") or "")[:4]
    return {year, *([int(end)] if end.isdigit() else [])}


def told_when(conn, piece: str, year: int, filing: dict) -> tuple[int, int, int]:
    """How a filing tells the thing a word names: its sentences naming it, those telling it as of the filing's
    own year or later (an event of that year, or after it), and those only referring back (naming earlier
    years alone, or "previously", "the prior year"). A 10-K tells an event in full the year it happens; the
    next one mentions it as something past ("in fiscal 2023 we completed ..."), if at all."""
    from agent.checking.guards import split_sentences

    own = _own_years(year, filing)
    named = now = back = 0
    for text in chunk_store.texts_with_piece(conn, piece, accession=filing["accession"]):
        for sentence in split_sentences(text):
            if piece not in sentence.lower():
                continue
            named += 1
            years = {int(y) for y in _YEAR.findall(sentence)}
            if any(y >= min(own) for y in years):
                now += 1
            elif years or _BACK.search(sentence):
                back += 1
    return named, now, back


def _subject(shares: dict[str, float]) -> str | None:
    """The question's most particular word (as a stem) that the filing holds (`shares`: of its chunks holding
    each): the thing asked about."""
    held = sorted((share, stem) for stem, share in shares.items() if len(stem) >= 4 and 0 < share <= SUBJECT_SHARE)
    return held[0][1] if held else None


def _holds_sentence(conn, sentence: str, piece: str, accession: str) -> bool:
    """Whether the filing holds the sentence word for word (spaces evened out), looked for among its passages
    holding `piece`, a word of it particular to a few passages: the latest repeats what the earlier told."""
    wanted = " ".join(sentence.split())
    return any(wanted in " ".join(text.split()) for text in chunk_store.texts_with_piece(conn, piece, accession=accession))


def _repeated(conn, chunk: int, words: list[str], latest_accession: str) -> bool:
    """The latest filing tells the earlier chunk's passage too: a chunk of it nearly the same (REPEATED),
    or the sentences of the passage that hold the question's words, word for word (chunks cut a
    repeated passage at other places, so their vectors differ while its sentences do not)."""
    if chunk_store.counterpart_similarity(conn, chunk, accession=latest_accession) >= REPEATED:
        return True
    telling = _telling_sentences(lookups.chunk_text(conn, chunk) or "", words)
    return chunk_store.holds_sentences(conn, telling, accession=latest_accession)


# Where a capital letter says nothing: a sentence's start (after an end mark that closes a word longer than
# an initial or a title, "Mr." or "N."), a line's, a bullet's or a heading's.
_SENTENCE_START = re.compile(r"(?:^|[\n•:;|\"“]|[A-Za-z]{4,}[.!?])\s*$")


def name_stem(word: str) -> str:
    """The part of a word its other forms share ("russi" of "russian", "japa" of "japanese"), no shorter
    than STEM_MIN letters."""
    return word[: max(STEM_MIN, len(word) - 2)]


def is_name(texts: list[str], word: str) -> bool:
    """Whether the filing writes `word` (a query word, lowercase) as a name: capitalised in nearly all its uses
    (CAPITALISED) and at least once where no sentence starts. A plain word the question frames itself with
    ("happened", "tell") is written lowercase; a drug, a deal, a person, a plant is not."""
    if len(word) < NAME_MIN or not word.isalpha():
        return False
    stem = re.escape(name_stem(word))
    uses = inside = capitals = 0
    for text in texts:
        for m in re.finditer(rf"(?<![A-Za-z]){stem}[A-Za-z]*", text, re.I):
            uses += 1
            if m.group(0)[0].isupper():
                capitals += 1
                inside += not _SENTENCE_START.search(text[max(0, m.start() - 40):m.start()])
    return uses > 0 and inside > 0 and capitals >= CAPITALISED * uses


def _names_only_in(conn, absent_latest: set[str], accession: str, latest_accession: str) -> list[str]:
    """The words the latest filing holds nowhere, in no form ("Russia" for "Russian"), that this earlier
    filing holds and writes as names."""
    held = absent_latest - chunk_store.words_absent(conn, sorted(absent_latest), accession=accession)
    return [w for w in sorted(held) if is_name(chunk_store.texts_holding(conn, w, accession=accession), w)
            and not chunk_store.holds_prefix(conn, name_stem(w), accession=latest_accession)]


def better_earlier(conn, embedder, query: str, filings: dict[int, dict], latest: int,
                   names: tuple[str, ...] = ()) -> int | None:
    """The fiscal year of an earlier held 10-K that answers `query` much better than the latest's,
    or None to keep the latest. `filings` maps fiscal years to their 10-K (with its accession); `names`, the
    company's own (asked_stems)."""
    earlier = sorted((y for y in filings if y < latest), reverse=True)
    if not earlier or latest not in filings or not query.strip():
        return None
    vector = embed_queries(embedder, [query])[0]  # the search embeds the same text: one embedding
    latest_accession = filings[latest]["accession"]
    near = chunk_store.nearest(conn, vector, accession=latest_accession, limit=READ)
    if not near:
        return None
    base = near[0][1]
    stems = asked_stems(query, names)
    told_latest, latest_sentence = telling(near, stems)
    # the latest tells the asked words as its own year's ("revenue rose in 2024 on higher volumes"): a
    # standing topic each 10-K tells anew, not an event told once, in the year it happened
    anew = _names_year(latest_sentence, latest, filings[latest])
    lead_needed = MARGIN if base < WEAK else CLEAR_LEAD
    words = [w for w in chunk_store.keyword_query(query).split(" or ") if w]
    absent_latest = chunk_store.words_absent(conn, words, accession=latest_accession)
    subject = _subject(chunk_store.shares_holding(conn, stems, accession=latest_accession))
    # the latest names the thing asked about only as something past: where it tells it as its own year's news
    latest_told = told_when(conn, subject, latest, filings[latest]) if subject else (0, 0, 0)
    refers_back = latest_told[1] == 0 and latest_told[2] > 0 and 2 * latest_told[2] >= latest_told[0]
    best: tuple[float, int] | None = None
    for year in earlier:
        accession = filings[year]["accession"]
        passages = chunk_store.nearest(conn, vector, accession=accession, limit=READ)
        if not passages:
            continue
        chunk, similarity = passages[0][:2]
        if (absent_latest and similarity >= base - NAME_SLACK
                and _names_only_in(conn, absent_latest, accession, latest_accession)):
            if best is None or similarity > best[0]:
                best = (similarity, year)  # it names what the latest no longer mentions at all
            continue
        if refers_back and similarity >= base - NAME_SLACK:
            named, now, _ = told_when(conn, subject, year, filings[year])
            if now > 0 and named > latest_told[0]:
                # it tells the thing as its own year's, in more sentences than the latest, which only refers back
                if best is None or similarity > best[0]:
                    best = (similarity, year)
                continue
        told, sentence = telling(passages, stems)
        shares = chunk_store.shares_holding(conn, [stem for stem in stems if stem in sentence.lower()],
                                            accession=accession) if told >= TOLD_MIN and told > told_latest else {}
        particular = min(shares, key=shares.get) if shares else None
        # a sentence holding clearly more of the asked words (AHEAD) tells the thing though its passage matches a
        # little less (the question's frame words, "could you explain", match any filing's passages alike)
        slack = NAME_SLACK if told >= told_latest + AHEAD else 0.0
        if (told >= TOLD_MIN and told > told_latest and similarity >= base - slack and not anew
                and particular is not None and shares[particular] <= PARTICULAR):
            # it tells the thing in one sentence, the latest only in part, and its passages match no worse
            if not _holds_sentence(conn, sentence, particular, latest_accession):
                if best is None or similarity > best[0]:
                    best = (similarity, year)
                continue
        if similarity - base < lead_needed:
            continue
        if similarity - base < DECISIVE:
            if not absent_latest - chunk_store.words_absent(conn, words, accession=accession):
                continue  # every word asked is in the latest too: it still discusses the thing
        if _repeated(conn, chunk, words, latest_accession):
            continue  # the latest repeats the passage: it tells the thing too, and stays the filing read
        if best is None or similarity > best[0]:
            best = (similarity, year)
    return best[1] if best else None


def told_earlier(conn, embedder, query: str, filings: dict[int, dict], latest: int,
                 names: tuple[str, ...] = ()) -> int | None:
    """The fiscal year of an earlier held 10-K that tells what was asked, once the latest's whole filing was
    searched and nothing in it answered (refused no_grounding), or None: the refusal stands.

    Why: an event the latest 10-K does not mention at all is told in the 10-K of its year, and a question naming
    no year was refused for want of it in the latest. The earlier filing is read only when one sentence of its
    nearest passages holds at least TOLD_MIN of the question's own words, more than any of the latest's, one of them
    particular to a few of its passages, and its passage matches the question no worse than the latest's by more
    than NAME_SLACK: a question no filing tells (a word no 10-K of the company uses) is still refused, and the
    composer's relevance floor judges the earlier filing's passages as it judged the latest's."""
    earlier = sorted((y for y in filings if y < latest), reverse=True)
    if not earlier or latest not in filings or not query.strip():
        return None
    vector = embed_queries(embedder, [query])[0]
    stems = asked_stems(query, names)
    near = chunk_store.nearest(conn, vector, accession=filings[latest]["accession"], limit=READ)
    told_latest, _ = telling(near, stems)
    base = near[0][1] if near else 0.0
    for year in earlier:
        accession = filings[year]["accession"]
        passages = chunk_store.nearest(conn, vector, accession=accession, limit=READ)
        if not passages or passages[0][1] < base - NAME_SLACK:
            continue
        told, sentence = telling(passages, stems)
        if told < TOLD_MIN or told <= told_latest:
            continue
        shares = chunk_store.shares_holding(conn, [stem for stem in stems if stem in sentence.lower()], accession=accession)
        if any(0 < share <= PARTICULAR for share in shares.values()):
            return year
    return None
