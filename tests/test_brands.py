"""A company named by its brand, told by the corpus; lowercase tickers and topic words in small talk.

The brand names below are invented: what decides is how often each company's filings name the word,
which the tests type in as a lookup (the store's own query is tested on the agent corpus)."""

from __future__ import annotations

import pytest

from agent.checking.cite_check import brand_note
from agent.planning.brands import brands_from, candidates, corpus_lookup, judge, named_counts
from agent.planning.companies import CompanyDirectory
from agent.planning.exemplars import meaning_from
from agent.planning.rules import plan_rules
from store.brands import chunks_naming
from tests import agent_corpus
from tests.test_companies import COVERED, SEC

KO, PEP, SJM = 21344, 77476, 91419
MENTIONS = {
    "fizzara": [(KO, 14), (PEP, 2)],  # KO's brand, a rival names it twice
    "crunchlo": [(PEP, 9), (KO, 7)],  # both name it about as often: ask which
    "harbor": [(KO, 5)],  # an everyday word, named a few times: not enough to be a brand
    "zestiva": [(SJM, 2)],  # named too seldom
    "peacock": [(PEP, 40), (SJM, 3)],  # an everyday word, but named again and again by one company
}


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC, {KO: [2023, 2024], PEP: [2023, 2024], SJM: [2024]})


@pytest.fixture(autouse=True, scope="module")
def _judged_by_meaning(embedder):
    with meaning_from(embedder):
        yield


def lookup(phrase: str) -> list[tuple[int, int]]:
    return MENTIONS.get(phrase.lower(), [])


def plan(directory, text, lent=lookup):
    with brands_from(lent):
        return plan_rules(text, directory=directory)


def test_a_brand_one_company_names_far_more_is_that_company(directory):
    p = plan(directory, "What does the filing say about Fizzara's growth?")
    assert p.route == "domain" and p.tickers == ["KO"]
    assert p.brand == {"word": "Fizzara", "ticker": "KO", "name": "COCA COLA CO"}
    assert "Fizzara" in p.query  # the brand stays the topic of the search
    lower = plan(directory, "what does the 10-k say about fizzara?")  # no dictionary holds it: lowercase counts too
    assert lower.tickers == ["KO"]


def test_the_answer_says_whose_brand_it_read(directory):
    note = brand_note(plan(directory, "Tell me about Fizzara sales trends").brand)
    assert "Fizzara" in note and "KO" in note and "COCA COLA" in note


def test_a_brand_two_companies_share_asks_which(directory):
    p = plan(directory, "What does the 10-K say about Crunchlo?")
    assert p.refusal_reason == "ambiguous_company"
    assert set(p.candidates) == {"PEP", "KO"}


def test_too_few_mentions_or_a_weak_lead_is_no_company(directory):
    assert plan(directory, "What does the 10-K say about Zestiva?").refusal_reason == "no_company"
    # an everyday capitalised word needs many mentions and a clear lead; when it has them it is a brand
    assert plan(directory, "What does the 10-K say about Harbor?").refusal_reason == "no_company"
    assert plan(directory, "What does the 10-K say about Peacock?").tickers == ["PEP"]


def test_without_a_lent_lookup_no_brand_is_resolved(directory):
    p = plan(directory, "What does the filing say about Fizzara's growth?", lent=None)
    assert p.refusal_reason == "no_company" and p.refusal_detail == "Fizzara"


def test_a_named_company_is_never_replaced_by_a_brand(directory):
    # "Fizzara" inside a question about PepsiCo is a topic of PepsiCo's filing
    p = plan(directory, "How does PepsiCo describe competition from Fizzara?")
    assert p.tickers == ["PEP"] and p.brand is None


def test_candidates_skip_question_filing_and_metric_words():
    found = [c[2] for c in candidates("What does the 10-K say about Pratt & Whitney revenue in FY2024?")]
    assert found == ["Pratt & Whitney"]
    assert [c[2] for c in candidates("How are Jif and Folgers doing?")] == ["Jif", "Folgers"]


def test_judge_needs_a_covered_company(directory):
    uncovered = 1594805  # not in the directory at all
    assert judge("Widget", [(uncovered, 50)], directory, everyday=False) is None


def test_the_store_finds_the_chunks_naming_a_phrase(db, embedder):
    agent_corpus.load(db, embedder)
    with db.connection() as conn:
        assert [cik for cik, _ in chunks_naming(conn, "Activision Blizzard")] == [agent_corpus.MICROSOFT]
        assert chunks_naming(conn, "Quuxoria") == []
    lent = corpus_lookup(db)
    assert lent("Activision") == [(agent_corpus.MICROSOFT, 1)]
    assert lent("activision") == [(agent_corpus.MICROSOFT, 1)]  # remembered, case aside
    # the index stems and ignores case; only chunks that write the word as a name count
    assert lent("foundries") == []  # NVIDIA's chunk says "third-party foundries", an everyday word


def test_a_chunk_counts_when_it_writes_the_phrase_as_a_name():
    chunks = [(1, "Sales of Fizzara rose."), (1, "FIZZARA launched in Peru."), (2, "a fizzara-like drink"),
              (3, "Pratt & Whitney engines"), (3, "pratt and whitney")]
    assert named_counts("fizzara", chunks) == [(1, 2)]
    assert named_counts("Pratt & Whitney", chunks) == [(3, 1)]


@pytest.mark.parametrize("text", ["gm everyone!", "gm, hope the week is going well", "ok ma, thanks!"])
def test_a_lowercase_ticker_in_small_talk_is_no_company(directory, text):
    assert plan(directory, text).route == "meta"


@pytest.mark.parametrize("text, ticker", [("gm net income 2024", "GM"), ("gm revenue", "GM"),
                                          ("what does gm say about warranty costs?", "GM")])
def test_a_lowercase_ticker_with_a_filing_subject_is_the_company(directory, text, ticker):
    p = plan(directory, text)
    assert p.route == "domain" and p.tickers == [ticker]


def test_a_topic_word_in_small_talk_is_small_talk(directory):
    assert plan(directory, "wait, are you some kind of ai?").route == "meta"
    asks = plan(directory, "what do the filings say about ai spending?")
    assert asks.route == "refusal" and asks.refusal_reason == "no_company"  # a question, only the company missing


def test_a_word_the_threads_company_names_stays_with_the_thread(directory):
    with brands_from(lookup):
        first = plan_rules("What does PepsiCo say about competition?", directory=directory)
        # KO's filings name "Fizzara" most, PepsiCo's twice (below a brand's count): a brand names its owner only
        # when the owner is named or in the thread, so a reply in PepsiCo's thread never switches to KO
        assert "KO" not in plan_rules("and Fizzara?", previous=first, directory=directory).tickers
        assert plan_rules("and Coca-Cola's Fizzara?", previous=first, directory=directory).tickers == ["KO"]
        # SJM's filings name "Peacock" three times: in a thread about SJM it is SJM's word, never PEP's brand
        smucker = plan_rules("What does Smucker say about competition?", directory=directory)
        again = plan_rules("what about Peacock?", previous=smucker, directory=directory)
        assert again.tickers == ["SJM"]
        elsewhere = plan_rules("what about Peacock?", previous=first, directory=directory)
        assert elsewhere.tickers == ["PEP"]  # PepsiCo's thread: its own brand


# Our own sentences about an invented NVIDIA product line, for the whole turn through the graph.
KESTREL = [
    "Kestrel accelerators shipped in volume during the year, and Kestrel systems drove most of the growth in data "
    "center revenue as cloud providers expanded their deployments.",
    "Demand for Kestrel platforms exceeded supply for much of the year, which lengthened lead times for customers.",
    "The Company expects the Kestrel product transition to raise manufacturing costs while yields improve.",
]


def test_a_brand_question_is_answered_for_its_maker_and_says_so(db, embedder):
    import uuid

    from agent.answer import Turn
    from bot.settings import Settings
    from bot.wiring import build_footnote

    agent_corpus.load(db, embedder)
    acc = agent_corpus.ACC[("NVDA", 2025)]
    with db.connection() as conn, conn.transaction():
        for ordinal, (text, vec) in enumerate(zip(KESTREL, embedder.embed(KESTREL), strict=True), start=100):
            conn.execute("INSERT INTO chunks (accession, cik, item, ordinal, text, context, n_tokens, embedding)"
                         " VALUES (%s, %s, '7', %s, %s, 'NVIDIA CORP 10-K 2025', 40, %s)",
                         (acc, agent_corpus.NVIDIA, ordinal, text, vec))
    footnote = build_footnote(db, embedder, Settings(llm="off"), use_cache=False)
    answer = footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u",
                                  text="What does the filing say about Kestrel demand?"))
    assert answer.plan["tickers"] == ["NVDA"] and answer.plan["brand"]["word"] == "Kestrel"
    assert answer.kind == "answer", answer.text
    assert '"Kestrel" read as NVIDIA CORP (NVDA)' in answer.text
    assert all(c.ticker == "NVDA" for c in answer.citations)


@pytest.mark.parametrize("text", ["Happy Diwali, everyone!", "Hey, I'm Morgan from Treasury", "Good morning Peacock"])
def test_small_talk_with_a_capitalised_word_is_small_talk(directory, text):
    # a name no company goes by, or an everyday word some company uses as a brand, with nothing of a
    # filing beside it: the message is what it reads as, never a question about a company
    p = plan(directory, text)
    assert p.route == "meta", (p.refusal_reason, p.tickers)


def test_a_capitalised_word_in_a_question_still_names_what_is_missing(directory):
    p = plan(directory, "Is Zorblax profitable?")
    assert p.refusal_reason == "no_company" and p.refusal_detail == "Zorblax"
    assert plan(directory, "What does the filing say about Peacock?").tickers == ["PEP"]


# --- a brand never takes a question away from the company it is about --------------------------

ZORVANI = 999001  # an uncovered registrant KO's filings discuss as a partner
REGISTRANT_MENTIONS = {
    **MENTIONS,
    "zorvani": [(KO, 20)],
    "pharmacies": [(PEP, 40)],  # PEP's filings capitalise it in a segment name ("Fizz Pharmacies")
    "glintora": [(PEP, 30)],  # PEP's brand, asked about inside a thread about KO
}


@pytest.fixture(scope="module")
def wider() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, [*SEC, ("ZRVN", ZORVANI, "Zorvani Therapeutics, Inc.")],
                                      {KO: [2023, 2024], PEP: [2023, 2024], SJM: [2024]})


def wide_lookup(phrase: str) -> list[tuple[int, int]]:
    return REGISTRANT_MENTIONS.get(phrase.lower(), [])


def test_a_word_that_begins_an_uncovered_registrants_name_is_that_registrant(wider):
    """Twenty KO chunks name Zorvani, yet the user asked about Zorvani: it is not covered."""
    single = plan(wider, "How much did zorvani spend on R&D in 2023?", lent=wide_lookup)
    assert single.refusal_reason == "not_covered" and "ZRVN" in single.refusal_detail
    with brands_from(wide_lookup):
        first = plan_rules("What was Coca-Cola's revenue in 2023?", directory=wider)
        reply = plan_rules("what about zorvani?", previous=first, directory=wider)
    assert reply.refusal_reason == "not_covered" and "ZRVN" in reply.refusal_detail
    # without the registrant in SEC's map, the word is KO's brand as before
    assert plan(directory=CompanyDirectory.from_rows(COVERED, SEC, {KO: [2023, 2024]}),
                text="What does the filing say about Zorvani?", lent=wide_lookup).tickers == ["KO"]


def test_a_lowercase_plural_of_a_dictionary_word_is_no_brand():
    assert "pharmacies" not in [c[2] for c in candidates("what does it say about pharmacies?")]
    assert "fizzara" in [c[2] for c in candidates("what does it say about fizzara?")]


def test_in_a_thread_a_brand_never_switches_away_from_the_threads_company(wider):
    with brands_from(wide_lookup):
        first = plan_rules("What does Coca-Cola say about competition?", directory=wider)
        for reply in ("what does it say about pharmacies?", "and what does it say about glintora?"):
            p = plan_rules(reply, previous=first, directory=wider)
            assert p.tickers == ["KO"] and p.route == "domain", reply
        # outside a thread the brand is still its maker's
        assert plan_rules("What does the filing say about Glintora?", directory=wider).tickers == ["PEP"]


def test_a_first_name_the_filings_follow_with_a_surname_is_a_person_not_a_brand(directory):
    officers = [(KO, "Quorin Zaltec, Chairman and Chief Executive Officer"), (KO, "signed by Quorin Zaltec"),
                (KO, "Quorin Zaltec joined in 2017"), (PEP, "letter from Quorin Zaltec")]
    assert named_counts("quorin", officers) == []
    assert named_counts("Quorin", [(KO, "Quorin sales grew"), (KO, "Quorin Zero launched")]) == [(KO, 2)]

    def person(phrase):
        return named_counts(phrase, officers * 3)

    p = plan(directory, "is quorin a good ceo?", lent=person)
    assert p.route == "refusal" and not p.tickers


def test_a_sentences_first_word_that_begins_a_run_of_names_is_the_names_first_word():
    # "Collins" at a sentence's start is a dictionary word, yet "Collins Aerospace" is one name; a lone
    # capitalised first word ("Converse revenue") stays the sentence's capital, and so does a question word
    assert "Collins Aerospace" in [c[2] for c in candidates("Collins Aerospace operating profit in 2023")]
    assert [c[2] for c in candidates("What does Boeing say?")] == ["Boeing"]
    assert [c[2] for c in candidates("Compare revenue in 2023")] == []


def test_a_name_written_as_a_person_or_another_company_is_no_brand():
    """"Mr. Vellar" makes "Orin Vellar" a person the filings name; "Quillwise, PBC" another company
    the filer invested in: neither is the filer's brand, so neither reads as a question about it."""
    person = [(KO, "Orin Vellar, our founder, leads the board."), (KO, "Orin Vellar spoke."),
              (KO, "Orin Vellar again"), (KO, "If Mr. Vellar were to leave, we may suffer.")]
    assert named_counts("Orin Vellar", person) == []
    investee = [(KO, "a note from Quillwise, PBC, convertible to equity"), (KO, "our stake in Quillwise, PBC grew"),
                (KO, "Quillwise models")]
    assert named_counts("Quillwise", investee) == []
    rival = [(KO, "competitors include Zelmor Holdings Inc., Quillwise, and Brantix Corporation"),
             (KO, "such as Zelmor Ltd., or Quillwise, and others")]
    assert named_counts("Quillwise", rival) == []
    brand = [(KO, "Quillwise sales grew"), (KO, "Quillwise Zero launched"), (KO, "sold by Quillwise, Inc., our unit")]
    assert named_counts("Quillwise", brand) == [(KO, 3)]
