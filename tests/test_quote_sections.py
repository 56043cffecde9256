"""Where a prose answer quotes from and how much: one section (one filing's one Item) per company,
the one the question's form points to when it answers about as well as any; the named year's
filing before the next one's; and an answer that ends when the sentences that answer end."""
from __future__ import annotations

from agent.composing.compose import MAX_SENTENCES, compose_extractive
from agent.composing.draft import Evidence
from agent.planning.plan import Plan


def _chunk(n: int, item: str, text: str, year: int = 2024, accession: str = "a") -> Evidence:
    return Evidence(id=f"c:{n}", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=year, accession=accession,
                    url="u", item=item, text=text)


def _quoted(question: str, plan: Plan, chunks: list[Evidence], embedder) -> list[tuple[str, str]]:
    draft = compose_extractive(question, plan, chunks, embedder=embedder)
    by_id = {c.id: c for c in chunks}
    return [(by_id[c.evidence_id].item, c.text) for c in draft.claims]


COMPETITION_RISK = ("We face intense competition from other manufacturers of household cleaning products, and our "
                    "competitors may spend more on advertising than we do.")
COMPETITION_BUSINESS = ("We compete with large multinational manufacturers of household cleaning products and with "
                        "local producers and retailers' private label products.")


def test_a_business_question_quotes_the_business_description_when_it_answers_as_well(embedder):
    chunks = [_chunk(1, "1A", COMPETITION_RISK), _chunk(2, "1", COMPETITION_BUSINESS)]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], latest=True, items=["1", "1A"],
                query="who does compete with")
    quoted = _quoted("who does zzz compete with?", plan, chunks, embedder)
    assert quoted and {item for item, _ in quoted} == {"1"}, quoted
    # the same passages, asked how exposed it is: the risk factors come first, and they answer
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], latest=True, items=["1A", "1", "7"],
                query="how exposed is to competition")
    quoted = _quoted("how exposed is zzz to competition?", plan, chunks, embedder)
    assert quoted and {item for item, _ in quoted} == {"1A"}, quoted


def test_a_section_further_down_the_order_answers_when_the_first_says_nothing_close(embedder):
    # the business description only mentions the topic in passing: the risk factor is the answer
    chunks = [_chunk(1, "1", "Our products are sold in more than eighty countries through distributors and "
                              "retailers. Cleaning products are our largest category."),
              _chunk(2, "1A", COMPETITION_RISK)]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], latest=True, items=["1", "1A"],
                query="who are competitors in household cleaning products")
    quoted = _quoted("who are zzz's competitors in household cleaning products?", plan, chunks, embedder)
    assert [item for item, _ in quoted] == ["1A"], quoted


def test_an_event_told_in_mdna_and_in_its_note_is_quoted_from_mdna(embedder):
    mdna = _chunk(1, "7", "In August 2024, we completed the acquisition of Widget Therapeutics, which adds treatments "
                          "for sleep disorders to our neuroscience portfolio.")
    note = _chunk(2, "8", "On August 1, 2024, the Company completed its acquisition of Widget Therapeutics for cash "
                          "consideration, accounted for as a business combination.")
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], latest=True, items=["7", "8", "1A"],
                query="tell me about the acquisition of widget therapeutics")
    for chunks in ([mdna, note], [note, mdna]):  # whichever the search ranked first
        quoted = _quoted("tell me about zzz's acquisition of widget therapeutics", plan, chunks, embedder)
        assert [item for item, _ in quoted] == ["7"], quoted


def test_a_named_year_quotes_its_own_filing_when_held(embedder):
    # the next year's 10-K tells the asked year again as its prior year: the asked year's own is quoted
    chunks = [_chunk(1, "7", "Net revenue decreased in the prior year primarily due to lower shipments of consumer "
                             "devices, as retailers reduced their inventories.", year=2024, accession="b"),
              _chunk(2, "7", "Net revenue decreased primarily due to lower shipments of consumer devices and weaker "
                             "pricing in our largest markets.", year=2023, accession="a")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2023], items=["7", "8"],
                query="why did net revenue decrease")
    draft = compose_extractive("why did zzz's net revenue decrease in 2023?", plan, chunks, embedder=embedder)
    assert draft.claims and {c.evidence_id for c in draft.claims} == {"c:2"}, draft.claims


def test_an_answer_ends_when_the_answering_sentences_end(embedder):
    text = ("Gross margin decreased primarily due to higher discounts and an unfavorable channel mix. "
            "Gross margin was also reduced by higher freight costs. "
            "Gross margin is defined as revenue less cost of sales. "
            "Our gross margin reporting follows the methods described in our accounting policies. "
            "Gross margin data for prior years have been reclassified. "
            "The Company presents gross margin in the segment tables.")
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=["7", "8"],
                query="why did gross margin decrease")
    quoted = [t for _, t in _quoted("why did zzz's gross margin decrease in 2024?", plan, [_chunk(1, "7", text)],
                                    embedder)]
    assert quoted[:1] == ["Gross margin decreased primarily due to higher discounts and an unfavorable channel mix."]
    assert len(quoted) <= MAX_SENTENCES
    assert not any("defined as" in q or "reclassified" in q or "segment tables" in q for q in quoted), quoted


def test_a_legal_matter_is_quoted_from_the_notes_that_tell_it():
    from agent.composing.compose import quote_order

    # the planner's order for an event, MD&A first; a lawsuit or an investigation is told in the notes
    assert quote_order("what does the filing say about the DOJ lawsuit?", ["7", "8", "1A"]) == ["8", "7", "1A"]
    assert quote_order("tell me about the opioid settlements", ["7", "8", "1A"]) == ["8", "7", "1A"]
    assert quote_order("tell me about the acquisition of widget", ["7", "8", "1A"]) == ["7", "8", "1A"]
    assert quote_order("who are its competitors in court reporting?", ["1", "1A"]) == ["1", "1A"]  # no notes searched


def test_a_section_is_judged_by_sentences_naming_the_subject_in_the_questions_words(embedder):
    # a risk factor about investigations in general is close in meaning to a question about one of them;
    # the note naming it answers, though further in meaning
    chunks = [_chunk(1, "1A", "We are involved in numerous litigation matters, investigations and proceedings brought "
                              "by governments and enforcement bodies, alleging violations of competition law."),
              _chunk(2, "8", "In March 2024, the Federal Trade Commission filed a civil complaint against the Company "
                             "alleging that its rebate program restrained competition.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], latest=True, items=["7", "8", "1A"],
                query="what does the filing say about the federal trade commission complaint")
    quoted = _quoted("what does zzz's filing say about the federal trade commission complaint?", plan, chunks, embedder)
    assert [item for item, _ in quoted] == ["8"], quoted


def test_past_the_best_sentence_only_sentences_naming_the_subject_are_quoted(embedder):
    text = ("Our data center platform combines accelerators, networking and software for cloud providers and "
            "enterprises. Demand from cloud providers for accelerated computing remained strong throughout the year. "
            "Data center customers include the largest cloud providers, consumer internet companies and enterprises.")
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], latest=True, items=["1", "7"],
                query="describe data center business")
    quoted = [t for _, t in _quoted("describe zzz's data center business", plan, [_chunk(1, "1", text)], embedder)]
    assert quoted and quoted[0].startswith("Our data center platform"), quoted
    assert not any(q.startswith("Demand from cloud providers") for q in quoted), quoted  # names no data center


def test_what_happened_is_quoted_from_mdna_before_the_risk_factors_retelling_it(embedder):
    # the risk factors retell an event in the words of what may happen, the asker's words among them; what
    # happened, and what it did to the business, is MD&A's to tell
    risk = ("A strike by our warehouse workers could disrupt our operations and harm our business, and a strike "
            "in 2024 halted our warehouses for three weeks.")
    told = ("The walkout by our distribution employees closed four of our six warehouses from May to June 2024, "
            "which reduced shipments in the second quarter.")
    chunks = [_chunk(1, "1A", risk), _chunk(2, "7", told)]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=["7", "8", "1A"],
                query="warehouse strike 2024 what happened and how did it hit the business")
    quoted = _quoted("zzz warehouse strike 2024 - what happened and how did it hit the business?", plan, chunks,
                     embedder)
    assert quoted and {item for item, _ in quoted} == {"7"}, quoted
