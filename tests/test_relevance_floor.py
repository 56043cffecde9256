"""The relevance floor quotes what answers, never what shares one word with the question: a word every
10-K says everywhere ("December") holds no subject, a name of several words is held whole, and a sentence
close in meaning by one shared word of a name is not close enough. Prose is ours, written in a filing's manner."""

from __future__ import annotations

from agent.composing import sentence_rank
from agent.composing.compose import compose_extractive
from agent.composing.draft import Evidence
from agent.composing.informative import COMMON, Informative, read
from agent.planning.plan import Plan

from tests import agent_corpus


def _chunk(n: int, item: str, text: str) -> Evidence:
    return Evidence(id=f"c:{n}", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u",
                    item=item, text=text)


def _plan(**kw) -> Plan:
    return Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], **kw)


def _quoted(draft) -> list[str]:
    return [c.text for c in draft.claims if c.kind == "prose"]


def test_a_sentence_holding_only_common_words_of_the_question_holds_none():
    asked = sentence_rank.cased_terms("the shooting of its executive in december")
    dated = "For the year ended December 31, 2024, we incurred restructuring costs at our kettle plants."
    assert sentence_rank.share(dated, asked) > 0  # one word of three, counted as any other
    december = sentence_rank.stem("december")
    assert sentence_rank.share(dated, asked, frozenset({december})) == 0.0
    officer = "Our executive officers serve until their successors are elected, as of December 31, 2024."
    assert sentence_rank.share(officer, asked, frozenset({december})) > 0  # a word that counts beside it


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


def test_the_common_words_are_those_of_the_filing_read_and_of_every_filing(db, embedder):
    agent_corpus.load(db, embedder)
    acc = agent_corpus.ACC[("NVDA", 2025)]
    dated = [f"For the year ended December 31, 2024, kettle shipments to region {n} grew." for n in range(12)]
    rare = ["Our kettle foundry partner in Taiwan makes the heating plates."]
    with db.connection() as conn, conn.transaction():
        for ordinal, text in enumerate(dated + rare, start=200):
            conn.execute("INSERT INTO chunks (accession, cik, item, ordinal, text, context, n_tokens, embedding)"
                         " VALUES (%s, %s, '7', %s, %s, 'NVIDIA CORP 10-K 2025', 20, %s)",
                         (acc, agent_corpus.NVIDIA, ordinal, text, embedder.embed([text])[0]))
    with db.connection() as conn:
        total = conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        here = conn.execute("SELECT count(*) FROM chunks WHERE accession = %s", (acc,)).fetchone()[0]
        found = read(conn, ["what did it say about the kettle foundry in December"], [acc], memo := {})
    assert 12 > COMMON * total and 12 > COMMON * here  # the fixture is what the test says it is
    # "December" is in most of this filing's chunks and of all chunks (few here); "foundry" in one
    assert sentence_rank.stem("december") in found.common and sentence_rank.stem("foundry") not in found.common
    assert memo[("held_widely", "december")] is True


def test_a_sentence_sharing_only_a_common_word_is_not_quoted(embedder):
    chunk = _chunk(1, "7", "For the year ended December 31, 2024, we incurred restructuring costs at our kettle "
                           "plants. Our executive officers are listed in Part III of this report.")
    question = "what did zzz say about the shooting of its executive in december 2024"
    plan = _plan(items=["7"], query="what did say about the shooting of its executive in december")
    dated = [q for q in _quoted(compose_extractive(question, plan, [chunk], embedder=embedder)) if "December" in q]
    assert dated  # "December" was enough
    draft = compose_extractive(question, plan, [chunk], embedder=embedder,
                               informative=Informative(frozenset({sentence_rank.stem("december")})))
    assert not [q for q in _quoted(draft) if "December" in q]


def test_a_sentence_sharing_one_word_of_a_name_is_not_quoted(embedder):
    chunk = _chunk(1, "7", "The Company has access to substantial sources of funds at numerous banks worldwide. "
                           "Commitment fees under the credit agreement are not material.")
    plan = _plan(items=["7"], query="Optum Bank - details")
    assert _quoted(compose_extractive("ZZZ Optum Bank - details?", plan, [chunk], embedder=embedder)) == []
