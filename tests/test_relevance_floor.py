"""The relevance floor quotes what answers, never what shares one word with the question: a name of several
words no candidate holds is held by none in part, and a sentence close in meaning by a word of that name alone
is not close enough; a sentence close in meaning in other words still answers. Prose is ours, written in a
filing's manner."""

from __future__ import annotations

from agent.composing import sentence_rank
from agent.composing.compose import compose_extractive
from agent.composing.draft import Evidence
from agent.planning.plan import Plan


def _chunk(n: int, item: str, text: str) -> Evidence:
    return Evidence(id=f"c:{n}", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u",
                    item=item, text=text)


def _plan(**kw) -> Plan:
    return Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], **kw)


def _quoted(draft) -> list[str]:
    return [c.text for c in draft.claims if c.kind == "prose"]


def test_a_name_of_several_words_is_held_whole_or_not_at_all():
    names = sentence_rank.names_in("what does tsla say about Optum Bank")
    assert names == (sentence_rank.cased_terms("Optum Bank"),)
    asked = sentence_rank.cased_terms("Optum Bank")
    loan = "Borrowed funds bear interest at a rate set by the People's Bank of China."
    assert sentence_rank.share(loan, asked) > 0 and sentence_rank.share(loan, asked, names=names) == 0.0
    assert sentence_rank.share("Optum Bank is regulated by the Utah authorities.", asked, names=names) == 1.0
    assert sentence_rank.names_in("how much does it depend on Foxconn and other contract manufacturers") == ()


def test_close_in_meaning_by_no_word_of_the_question_is_not_close_enough():
    assert sentence_rank.answers(0.42, 0.0) and not sentence_rank.answers(0.42, 0.0, says=False)
    assert sentence_rank.answers(0.52, 0.0, says=False)  # says the same thing in other words


def test_a_sentence_close_in_other_words_still_answers(embedder):
    # "vendors" is no word of "suppliers", and the question names nothing the filing lacks
    chunk = _chunk(1, "1A", "The vendors with whom we contract provide software, hardware and services on which our "
                            "kettle ordering systems depend. Fraud could harm our brand.")
    plan = _plan(items=["1A"], query="how reliant is on suppliers")
    quoted = _quoted(compose_extractive("how reliant is zzz on suppliers?", plan, [chunk], embedder=embedder))
    assert any(q.startswith("The vendors") for q in quoted), quoted


def test_a_sentence_sharing_one_word_of_a_name_is_not_quoted(embedder):
    chunk = _chunk(1, "7", "The Company has access to substantial sources of funds at numerous banks worldwide. "
                           "Commitment fees under the credit agreement are not material.")
    plan = _plan(items=["7"], query="Optum Bank - details")
    assert _quoted(compose_extractive("ZZZ Optum Bank - details?", plan, [chunk], embedder=embedder)) == []
