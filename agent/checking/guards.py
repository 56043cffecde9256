"""cite_check's rules: deterministic, no model. What a composer drafted ships only if it holds up.

Numbers: every number in a claim must appear, exactly as displayed, in the evidence it cites (an
XBRL fact or a computation rendered with agent.retrieval.finance, or the quoted filing text for prose). No
tolerance: "$391 billion" does not match "$391.04 billion"; a mismatch is logged as a bug.

Prose, in tiers: (1) a verbatim substring of its cited chunk; (2) of any retrieved chunk, and the
citation is re-pointed there; (3) cosine >= 0.85 to one sentence of a retrieved chunk (the
embedder decides; the numbers rule still applies). If at most a third of the claims fail and at
least one passes, the failing ones are dropped and the answer is marked partial; otherwise the
turn is refused with no_grounding.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from agent.checking import quoted_figures
from agent.composing.draft import Claim, Evidence

if TYPE_CHECKING:
    import numpy as np  # imported where vectors are compared: a numeric answer never compares any

log = logging.getLogger(__name__)

PARAPHRASE_MIN_COSINE = 0.85

# Years, Items and form names are labels, not figures.
_LABELS = re.compile(
    r"\b(?:FY\s?|fiscal(?:\s+year)?\s+)(?:19|20)\d\d\b|\bItems?\s+\d+[A-C]?\b(?:(?:,\s*|\s+and\s+|\s*&\s*)\d+[A-C]?\b)*|\b10-[KQ](?:/A)?\b|\b(?:19|20)\d\d(?:-\d\d-\d\d)?\b(?!\s*(?:%|percent|billion|million|thousand))",
    re.I,
)
_NUMBER = re.compile(
    r"(?<![\w.])[-−]?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|percent\b|billion\b|million\b|thousand\b|trillion\b)|[A-Za-z]+\b)?",
    re.I,
)
_MARKER = re.compile(r"\[\d+\]")
# Money and percentages: in prose, these must still come from a fact or computation of the run.
_FINANCIAL = re.compile(
    r"[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:billion|million|thousand|trillion)\b|[A-Za-z]+\b)?"
    r"|(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:%|percent\b|billion\b|million\b|trillion\b)",
    re.I,
)
_SPACE = re.compile(r"\s+")
_SENTENCE = re.compile(r"(?<=[.!?])[\"”’)]?\s+(?=[A-Z(\"“$0-9])")


def number_tokens(text: str) -> list[str]:
    """Figures as displayed (commas kept out, scale words kept in), labels like FY2024 left out."""
    text = _LABELS.sub(" ", _MARKER.sub(" ", text))
    out = []
    for m in _NUMBER.finditer(text):
        token = m.group(0).replace(",", "").replace("−", "-").lower().replace(" ", "")
        token = token.replace("percent", "%")
        out.append(token)
    return out


def financial_figures(text: str) -> list[str]:
    """Money amounts and percentages in `text`, as number_tokens normalizes them."""
    return [t for m in _FINANCIAL.finditer(_MARKER.sub(" ", text)) for t in number_tokens(m.group(0))]


def money_figures(text: str) -> list[str]:
    """The money amounts of `text` (financial_figures without its percentages). Why apart: a percentage
    in a filing's sentence (a rate, a share, a change) is no XBRL amount a fact could equal, and is
    quoted as the filing wrote it; a money amount is stated only as a fact."""
    return [t for t in financial_figures(text) if not t.endswith("%")]


def numbers_supported(text: str, sources: list[str]) -> list[str]:
    """The figures in `text` that none of `sources` displays (empty list: all supported)."""
    allowed: set[str] = set()
    for source in sources:
        allowed.update(number_tokens(source))
    return [t for t in number_tokens(text) if t not in allowed and t.lstrip("-") not in allowed]


def normalize_space(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


# A period that ends an abbreviation, not a sentence ("the U.S. Department of Justice", "Apple Inc. and").
_ABBREVIATION = re.compile(r"(?:\b(?:U\.S|U\.K|Inc|Co|Corp|Ltd|No|Nos|Mr|Ms|Mrs|Dr|St|Jr|vs|e\.g|i\.e|approx)\.)$", re.I)


def split_sentences(text: str) -> list[str]:
    """Sentences, never across a line break: in chunk text a line break ends a heading, a
    paragraph or a table row, so a heading never fuses with the sentence under it. A period after
    an abbreviation ("U.S.", "Inc.") does not end one."""
    out = []
    for line in text.splitlines():
        pieces: list[str] = []
        for piece in _SENTENCE.split(normalize_space(line)):
            piece = piece.strip()
            if not piece:
                continue
            if pieces and _ABBREVIATION.search(pieces[-1]):
                pieces[-1] += " " + piece
            else:
                pieces.append(piece)
        out += pieces
    return out


@dataclass
class CheckedClaim:
    claim: Claim
    evidence_id: str  # after re-pointing
    status: str  # verbatim | repointed | paraphrase | fail
    detail: str = ""
    score: float | None = None


@dataclass
class CheckResult:
    claims: list[CheckedClaim] = field(default_factory=list)
    table_failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> list[CheckedClaim]:
        return [c for c in self.claims if c.status != "fail"]

    @property
    def failed(self) -> list[CheckedClaim]:
        return [c for c in self.claims if c.status == "fail"]

    def verdict(self) -> str:
        """'ok', 'partial' or 'refuse' by the one-third rule; any bad table cell refuses."""
        if self.table_failures:
            return "refuse"
        total, failed = len(self.claims), len(self.failed)
        if total == 0 or failed == total:
            return "refuse"
        if failed == 0:
            return "ok"
        return "partial" if failed * 3 <= total else "refuse"


def evidence_sources(evidence_id: str, evidence: dict[str, Evidence], calc_inputs: dict[str, list[str]]) -> list[str]:
    """What a citation lets a sentence display: the evidence's own text, and for a computation
    the texts of the facts it was computed from."""
    ev = evidence.get(evidence_id)
    if ev is None:
        return []
    sources = [ev.text] + ([ev.value] if ev.value else [])
    for input_id in calc_inputs.get(evidence_id, []):
        if input_id in evidence:
            sources.append(evidence[input_id].text)
    return sources


def check_claims(
    claims: list[Claim],
    evidence: dict[str, Evidence],
    *,
    calc_inputs: dict[str, list[str]] | None = None,
    embedder=None,
) -> CheckResult:
    calc_inputs = calc_inputs or {}
    result = CheckResult()
    chunks = [ev for ev in evidence.values() if ev.kind == "chunk"]
    pending_paraphrase: list[int] = []
    for claim in claims:
        checked = _check_one(claim, evidence, calc_inputs, chunks)
        result.claims.append(checked)
        if checked.status == "fail" and checked.detail == "not verbatim":
            pending_paraphrase.append(len(result.claims) - 1)
    if pending_paraphrase and embedder is not None and chunks:
        _tier3(result, pending_paraphrase, chunks, embedder)
    for c in result.failed:
        log.warning("cite_check dropped a claim (%s): %r cites %s", c.detail, c.claim.text[:200], c.claim.evidence_id)
    return result


def _check_one(claim: Claim, evidence: dict[str, Evidence], calc_inputs, chunks: list[Evidence]) -> CheckedClaim:
    cited = evidence.get(claim.evidence_id)
    if cited is None:
        return CheckedClaim(claim, claim.evidence_id, "fail", "cites unknown evidence")
    if cited.kind in ("fact", "calc"):
        bad = numbers_supported(claim.text, evidence_sources(claim.evidence_id, evidence, calc_inputs))
        if bad:
            return CheckedClaim(claim, claim.evidence_id, "fail", f"unsupported figure {bad[0]}")
        if not number_tokens(claim.text) and claim.kind == "number":
            return CheckedClaim(claim, claim.evidence_id, "fail", "number claim without its figure")
        return CheckedClaim(claim, claim.evidence_id, "verbatim")
    text = normalize_space(claim.text.removeprefix("…").removesuffix("…"))  # an ellipsis marks an elided start or end
    figures = [] if verified_figures(claim.text, _claimed_facts(claim, evidence, cited.accession)) \
        else _prose_figures(claim.text, evidence)
    money = [f for f in figures if not f.endswith("%")]
    if money:
        # every amount Footnote states comes from an XBRL fact, even one a quoted sentence repeats
        return CheckedClaim(claim, claim.evidence_id, "fail", f"figure {money[0]} from prose, not from an XBRL fact")
    if text and _in_order(text, normalize_space(cited.text)):
        return CheckedClaim(claim, cited.id, "verbatim")
    for chunk in chunks:
        if text and _in_order(text, normalize_space(chunk.text)) and (not claim.figures or chunk.accession == cited.accession):
            return CheckedClaim(claim, chunk.id, "repointed", f"re-pointed from {cited.id}")
    if figures:
        # a percentage no fact shows is quotable only in the filing's own words, never in a paraphrase
        return CheckedClaim(claim, claim.evidence_id, "fail", f"figure {figures[0]} from prose, not quoted verbatim")
    return CheckedClaim(claim, claim.evidence_id, "fail", "not verbatim")


def _in_order(text: str, haystack: str) -> bool:
    """`text` is in `haystack` verbatim, or, cut by "…" where amounts were elided, each piece is, in
    order and within one sentence's reach of the one before."""
    if text in haystack:
        return True
    pieces = [p.strip(" ,") for p in text.split("…") if p.strip(" ,")]
    if len(pieces) < 2:
        return False
    at = haystack.find(pieces[0])
    for piece in pieces[1:]:
        if at < 0:
            return False
        nxt = haystack.find(piece, at + 1)
        if nxt < 0 or nxt - at > 600:
            return False
        at = nxt
    return at >= 0


def verified_figures(text: str, facts: list[tuple[str, object, str, str]]) -> list[str] | None:
    """The facts (id, Decimal value, unit, name) that every money amount of `text` equals, and those its
    percentages equal, value and scale (agent.checking.quoted_figures), or None when a money amount equals
    none of them (a percentage that equals none is the filing's own words, see money_figures). Every figure
    financial_figures sees must be one the matcher read, so nothing slips between the two readers."""
    if not facts or len(quoted_figures.amounts(text)) != len(financial_figures(text)):
        return None
    return quoted_figures.verified(text, facts)


def _claimed_facts(claim: Claim, evidence: dict[str, Evidence], accession: str) -> list[tuple[str, object, str, str]]:
    """The XBRL facts a prose claim says its amounts equal, kept only when they come from the
    filing of the chunk it quotes."""
    out = []
    for fid in claim.figures:
        ev = evidence.get(fid)
        if ev is not None and ev.kind == "fact" and ev.value is not None and ev.accession == accession:
            out.append(figure_fact(ev))
    return out


def figure_fact(ev: Evidence) -> tuple:
    """A fact as a quoted amount is checked against it (agent.checking.quoted_figures): (id, value,
    unit, name: concept and printed labels, period end)."""
    return ev.id, Decimal(ev.value), ev.unit or "", ev.text.split(", period ended")[0], ev.period_end


def _prose_figures(text: str, evidence: dict[str, Evidence]) -> list[str]:
    """Money and percentages a prose claim shows that no fact or computation of this run displays:
    numbers come from XBRL facts, even when the filing's prose repeats them."""
    figures = financial_figures(text)
    if not figures:
        return []
    allowed: set[str] = set()
    for ev in evidence.values():
        if ev.kind in ("fact", "calc"):
            allowed.update(number_tokens(ev.text))
    return [f for f in figures if f not in allowed]


def _tier3(result: CheckResult, indexes: list[int], chunks: list[Evidence], embedder) -> None:
    sentences: list[tuple[str, str]] = []  # (evidence id, sentence)
    for chunk in chunks:
        sentences.extend((chunk.id, s) for s in split_sentences(chunk.text))
    if not sentences:
        return
    claim_texts = [result.claims[i].claim.text for i in indexes]
    vectors = embedder.embed(claim_texts + [s for _, s in sentences])
    claim_vecs, sentence_vecs = vectors[: len(claim_texts)], vectors[len(claim_texts) :]
    import numpy as np

    sims = np.asarray(claim_vecs) @ np.asarray(sentence_vecs).T
    for row, i in enumerate(indexes):
        best = int(np.argmax(sims[row]))
        score = float(sims[row][best])
        evidence_id, sentence = sentences[best]
        checked = result.claims[i]
        if score < PARAPHRASE_MIN_COSINE:
            checked.detail, checked.score = f"no sentence within cosine {PARAPHRASE_MIN_COSINE} (best {score:.2f})", score
            continue
        bad = numbers_supported(checked.claim.text, [sentence])
        if bad:
            checked.detail, checked.score = f"paraphrase adds figure {bad[0]}", score
            continue
        result.claims[i] = CheckedClaim(checked.claim, evidence_id, "paraphrase", sentence, score)


def check_table(table: dict, evidence: dict[str, Evidence], calc_inputs: dict[str, list[str]]) -> list[str]:
    """Every figure in every cell must be displayed by the evidence that cell cites; the first
    column and headers may hold only labels."""
    failures = []
    cells = table.get("cell_citations") or []  # evidence ids in a Draft
    for r, row in enumerate(table.get("rows", [])):
        for c, cell in enumerate(row):
            ids = cells[r][c] if r < len(cells) and c < len(cells[r]) else []
            if not number_tokens(str(cell)):
                continue
            sources = [s for i in ids for s in evidence_sources(i, evidence, calc_inputs)]
            bad = numbers_supported(str(cell), sources) if sources else number_tokens(str(cell))
            if bad:
                failures.append(f"{table.get('title')}: row {r} col {c} shows {bad[0]} without support")
    for header in table.get("columns", []):
        if number_tokens(str(header)):
            failures.append(f"{table.get('title')}: header {header!r} holds a figure")
    return failures
