"""How the extractive composer ranks the sentences it may quote, and what it keeps between answers:
two sentences built on the same template of a change are two answers, not one; the words that ask
how dependent something is name no subject; an amount answers "how much"; a sentence carrying on
from a strong one counts; a sentence's vector is embedded once per embedder."""

from __future__ import annotations

import numpy as np

from agent.composing import sentence_rank
from agent.composing.compose import ADJACENT_BONUS, _carried_on, compose_extractive
from agent.composing.draft import Evidence
from agent.composing.sentence_vectors import SentenceVectors
from agent.planning.plan import Plan


def _chunk(n: int, item: str, text: str) -> Evidence:
    return Evidence(id=f"c:{n}", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u",
                    item=item, text=text)


def test_sentences_sharing_only_the_template_of_a_change_are_both_quotable():
    # nine words of fourteen shared, but one is about operating income and the other about revenue
    assert not sentence_rank.near_duplicate("The decrease in operating income was primarily due to lower revenue.",
                                            "The decrease in net revenue was primarily due to lower console sales.")
    # a risk factor restated in MD&A is still one statement
    assert sentence_rank.near_duplicate(
        "We depend on a small number of suppliers for the lithium cells in our garden tools.",
        "We depend on a small number of suppliers for the lithium cells used in our garden tools.")


def test_the_words_that_ask_how_dependent_name_no_subject():
    asked = sentence_rank.subject_terms(sentence_rank.cased_terms("how dependent is it on foundries"))
    assert asked == {sentence_rank.stem("foundries")}
    assert sentence_rank.broad(sentence_rank.terms("how exposed is it"))  # nothing named: the Item as a whole


def test_an_amount_answers_how_much():
    ask = "how much of zzz's revenue comes from subscriptions?"
    assert sentence_rank.role(ask, "Subscriptions accounted for 90% of our total revenue.") > 0
    assert sentence_rank.role(ask, "Subscriptions accounted for the majority of our total revenue.") > 0
    assert sentence_rank.role(ask, "We sell subscriptions to enterprises and governments.") == 0
    assert sentence_rank.role("who are zzz's customers?", "Subscriptions accounted for 90% of revenue.") == 0


def test_a_sentence_carrying_on_from_a_strong_one_gains_only_then():
    candidates = [(0, 0, "Revenue fell on lower console sales.", "Revenue fell on lower console sales."),
                  (0, 1, "This decrease was partially offset by higher server sales.",
                   "This decrease was partially offset by higher server sales."),
                  (0, 3, "This program ended in the prior year.", "This program ended in the prior year."),
                  (1, 0, "The increase in services was driven by new contracts.",
                   "The increase in services was driven by new contracts.")]
    scored = [(0.80, 0), (0.50, 1), (0.50, 2), (0.50, 3)]
    after = dict((i, s) for s, i in _carried_on(scored, candidates))
    assert after[1] == 0.50 + ADJACENT_BONUS  # right after the strong sentence, and carrying it on
    assert after[2] == 0.50  # "This ...", but the sentence before it (position 2) was not strong
    assert after[3] == 0.50  # first of its chunk: it carries on from nothing here
    assert after[0] == 0.80


def test_a_why_quotes_both_causes_told_on_the_same_template(embedder):
    chunks = [_chunk(1, "7", "The decrease in operating income was primarily due to lower revenue. "
                             "The decrease in net revenue was primarily due to lower console sales. "
                             "Our headquarters lease was renewed for ten years.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=["7"],
                query="revenue declined - why")
    quoted = [c.text for c in compose_extractive("zzz revenue declined - why?", plan, chunks, embedder=embedder).claims]
    assert "The decrease in net revenue was primarily due to lower console sales." in quoted
    assert not any("lease" in q for q in quoted)


class _Counting:
    def __init__(self, inner):
        self.inner, self.texts = inner, []

    def embed(self, texts, **kw):
        self.texts += list(texts)
        return self.inner.embed(texts, **kw)


def test_a_sentence_is_embedded_once_per_embedder(embedder):
    held = SentenceVectors(size=3)
    first, other = _Counting(embedder), _Counting(embedder)
    a = held.embed(first, ["Severe weather closed stores.", "Fuel prices rose."])
    b = held.embed(first, ["Fuel prices rose.", "Severe weather closed stores.", "Fuel prices rose."])
    assert first.texts == ["Severe weather closed stores.", "Fuel prices rose."]  # the second call embedded nothing
    assert np.allclose(a[::-1], b[:2]) and np.allclose(a, embedder.embed(["Severe weather closed stores.",
                                                                          "Fuel prices rose."]))
    held.embed(other, ["Fuel prices rose."])
    assert other.texts == ["Fuel prices rose."]  # another embedder never reads the first one's vectors
    # bounded: the least recently used goes first
    held.embed(first, ["Wages rose.", "Stores opened."])
    first.texts.clear()
    held.embed(first, ["Fuel prices rose.", "Severe weather closed stores."])
    assert first.texts == ["Severe weather closed stores."]


def test_a_subject_nothing_found_holds_is_refused_not_padded(embedder):
    offices = ("Operating leases for our offices are recorded in our balance sheets. "
               "The weighted-average remaining lease term of our office leases was six years.")
    topic = sentence_rank.subject_terms(sentence_rank.cased_terms("oil and gas drilling leases"))
    assert sentence_rank.subject_missing(topic, [offices])  # oil, gas and drilling: none of them found
    assert not sentence_rank.subject_missing(sentence_rank.subject_terms(sentence_rank.cased_terms("office leases")),
                                             [offices])
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=["8"],
                query="oil and gas drilling leases")
    draft = compose_extractive("what does zzz say about its oil and gas drilling leases?", plan,
                               [_chunk(1, "8", offices)], embedder=embedder)
    assert not any(c.kind == "prose" for c in draft.claims)  # the compose node then refuses, saying where it looked
    plan = plan.model_copy(update={"query": "office leases"})
    draft = compose_extractive("what does zzz say about its office leases?", plan, [_chunk(1, "8", offices)],
                               embedder=embedder)
    assert any("Operating leases" in c.text for c in draft.claims)


def test_the_clause_rule_ends_on_a_sentence_without_amounts():
    from agent.composing.compose import _figure_free_clause

    # it used to search the commas of a sentence with no amount forever
    assert _figure_free_clause("On March 3, 2024, we ended the merger agreement, as both parties agreed.") is None


def test_how_much_it_depends_asks_for_a_reliance_not_an_amount():
    ask = "how much does zzz depend on contract manufacturers?"
    assert sentence_rank.role(ask, "Contract manufacturers made 90% of our units.") == sentence_rank.role(
        ask, "Contract manufacturers made our units.")


def test_a_share_of_revenue_answers_how_exposed_more_than_a_reliance_word():
    ask = "how exposed is zzz to customers in Brazil?"
    share = sentence_rank.role(ask, "Customers in Brazil accounted for about 18% of our net sales.")
    told = sentence_rank.role(ask, "We depend on customers in Brazil.")
    assert share > told > 0
    assert sentence_rank.role(ask, "About 18% of our revenue comes from customers in Brazil.") == share
    # not for another question, and not a share of something else
    assert sentence_rank.role("who are zzz's customers?", "Brazil accounted for 18% of our net sales.") == 0
    assert sentence_rank.role(ask, "Sales in Brazil grew 18% compared with last year.") == 0


def test_the_subject_is_judged_on_the_askers_words_not_the_plans_other_names_for_them():
    # "capex" is searched as "capital expenditures" too: the filing's words for it are enough
    asker = sentence_rank.subject_terms(sentence_rank.cased_terms(
        sentence_rank.ASK_PLAN.sub(" ", "what does the 10-K say they expect for capex in 2025?")))
    assert not sentence_rank.subject_missing(asker, ["We anticipate capital expenditures to grow in 2025."])


def test_a_subject_renamed_by_the_plan_is_not_missing():
    texts = ["We expect capital expenditures to exceed the prior year's in 2025."]
    assert sentence_rank.subject_missing({"capex", "beyond"}, texts)
    assert not sentence_rank.subject_missing({"capex", "beyond"}, texts, {"capital", sentence_rank.stem("expenditures")})


def test_a_cause_whose_subject_points_back_is_read_with_the_sentence_before_it(embedder):
    # MD&A states the change, then its cause in a sentence of its own whose subject only points back:
    # read alone it names nothing asked; read with the change it ends, it is the answer, quoted beside it
    assert sentence_rank.points_back("This increase was primarily due to higher renewal rates.")
    assert sentence_rank.points_back("The growth was driven by our northern markets.")
    assert not sentence_rank.points_back("The increase in freight costs was primarily due to fuel.")  # names its own
    assert not sentence_rank.points_back("Membership fee income rose over the prior year.")
    assert not sentence_rank.points_back("It is possible that the outage could harm our reputation.")  # points nowhere
    assert not sentence_rank.points_back("These decreases were partially offset by higher freight costs.")  # no cause
    chunks = [_chunk(1, "7", "Membership fee income rose over the prior year. "
                             "This was primarily due to higher renewal rates in our northern markets. "
                             "Our distribution centers are located near major highways and rail lines. "
                             "Inventory shrink is measured by physical counts at each location.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=["7"],
                query="why did membership fee income rise")
    quoted = [c.text for c in compose_extractive("why did zzz's membership fee income rise?", plan, chunks,
                                                 embedder=embedder).claims]
    assert quoted[:2] == ["Membership fee income rose over the prior year.",
                          "This was primarily due to higher renewal rates in our northern markets."]
    assert not any("highways" in q or "shrink" in q for q in quoted)


def test_a_cause_naming_nothing_asked_is_quoted_only_as_the_best_answer(embedder):
    chunks = [_chunk(1, "7", "Membership fee income rose over the prior year, driven by record renewal rates. "
                             "Membership fee income in our northern region grew faster than in any other region. "
                             "This was primarily due to the price change we introduced there in the spring. "
                             "Our distribution centers are located near major highways and rail lines.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=["7"],
                query="why did membership fee income rise")
    quoted = [c.text for c in compose_extractive("why did zzz's membership fee income rise?", plan, chunks,
                                                 embedder=embedder).claims]
    assert quoted and quoted[0].startswith("Membership fee income rose")
    assert not any("price change" in q for q in quoted), quoted  # beside a better answer, it names nothing asked


def test_a_why_is_answered_by_the_change_of_the_line_it_names(embedder):
    # the neighbouring line holds every word of the asked one and one more ("cost of"), on the same template
    assert sentence_rank.other_subject("Cost of kiosk service revenue increased $2.1 million, or 40%, due to volume.",
                                       {"kiosk", "servic", "revenu"}) > 0
    assert sentence_rank.other_subject("Kiosk service revenue increased $3.4 million, or 61%, due to volume.",
                                       {"kiosk", "servic", "revenu"}) == 0
    # a part of the asked line explains it; a subject said late, or none at all, is no evidence either way
    assert sentence_rank.other_subject("Revenue from kiosk service plans grew 30% on renewals.", {"revenu"}) == 0
    assert sentence_rank.other_subject("Kiosk service revenue increased on volume.", {"kiosk", "rev"}) == 0  # "rev"
    # the provision for income taxes is the tax asked about; a list of risks asks no line's change
    assert sentence_rank.other_subject("The provision for income taxes included a one-time charge.",
                                       {"effectiv", "tax", "rate"}) == 0
    assert not sentence_rank.asks_a_lines_change("summarize zed's risk factors", True)
    assert sentence_rank.asks_a_lines_change("what drove zed's kiosk revenue growth?", True)
    assert sentence_rank.other_subject("Primarily as a result of colder weather across all of our northern and "
                                       "coastal regions during the winter months, costs rose.", {"kiosk"}) == 0
    chunks = [_chunk(1, "7", "Cost of kiosk service revenue increased $2.1 million, or 40%, in the year ended "
                             "December 31, 2024 compared with the prior year, primarily due to more kiosk service "
                             "visits and higher technician wages. "
                             "Kiosk service revenue increased $3.4 million, or 61%, in the year ended December 31, "
                             "2024 compared with the prior year, primarily due to more kiosk service visits and "
                             "higher service plan prices.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=["7"],
                query="what drove kiosk service revenue growth")
    quoted = [c.text for c in compose_extractive("what drove zzz's kiosk service revenue growth?", plan, chunks,
                                                 embedder=embedder).claims]
    assert quoted and quoted[0].startswith("Kiosk service revenue increased")


def test_a_pointer_to_a_table_and_an_amount_only_sentence_are_never_quoted():
    from agent.composing.compose import _BOILERPLATE, _elided

    assert _BOILERPLATE.search("The following summarizes select 2024 comparisons to 2023 and other results.")
    assert _BOILERPLATE.search("The following table presents our revenue by segment.")
    assert not _BOILERPLATE.search("The following factors drove the decline in kettle revenue: price and volume.")
    assert _elided("Earnings from operations of $4.1 billion compared to $3.9 billion last year.") is None
    assert _elided("We expect capital expenditures of about $2 billion in 2025 to support new kettle plants.")


def test_a_sentence_says_the_askers_word_as_written_not_one_of_its_family():
    from agent.composing.sentence_rank import cased_terms, says_asked_word, subject_terms

    asked = subject_terms(cased_terms("main competitors in kettles"))
    assert says_asked_word(asked, "Our competitors include Acme and Globex.")
    assert says_asked_word(asked, "Kettle prices fell in the second half.")  # a plural is the same word
    assert not says_asked_word(asked, "Private label brands are also a source of competition.")
    assert not says_asked_word(asked, "We compete on price and quality.")
    assert not says_asked_word(subject_terms(cased_terms("why did it increase so much")), "Sales increased on demand.")
    assert not says_asked_word(subject_terms(cased_terms("AI chips")), "We use AI across our services.")  # too short


def test_a_subject_that_is_a_measure_alone_is_bare():
    from agent.composing.sentence_rank import bare_subject

    assert bare_subject("Volumes declined 4% compared with last year driven by lower kettle demand.")
    assert bare_subject("Operating profit decreased primarily due to higher manufacturing costs.")
    assert bare_subject("Unfavorable volume/mix was primarily due to elasticity from pricing actions.")
    assert not bare_subject("Kettle revenue increased due to the mix of products shipped.")
    assert not bare_subject("Revenue from Garden Tools increased on higher demand.")
    assert not bare_subject("We expect kettle demand to recover next year.")  # no measure as its subject


def test_a_sentence_carries_on_the_one_before_when_it_points_back_or_names_the_change_just_stated():
    stated = "Sales in the Kettle segment increased 12 percent in 2024 and 3 percent in 2023."
    assert sentence_rank.continues(stated, "The sales increases in 2024 and 2023 were driven by electric kettles.")
    assert sentence_rank.continues("The sales increases were driven by electric kettles.",
                                   "The 2024 increase was also driven by growth in stovetop kettles.")
    assert sentence_rank.continues(stated, "This increase reflects new garden stores.")
    assert sentence_rank.continues(stated, "We also sell teapots through the same stores.")
    assert sentence_rank.continues(stated, "Additional factors include the timing of garden shows.")
    # a change of something the sentence before does not name is a statement of its own
    assert not sentence_rank.continues(stated, "The increase in gross profit was due to lower clay costs.")
    assert not sentence_rank.continues(stated, "Store traffic rose during the holiday season.")
    assert not sentence_rank.continues(stated, "This is possible only when stores reopen.")


def test_the_sentences_carrying_on_a_quoted_one_stop_at_a_heading_a_list_item_or_a_new_statement():
    from agent.composing import neighbourhood

    pieces = ["Kettle sales increased 12 percent.", "This increase reflects new garden stores.",
              "The increase was also driven by pricing.", "These gains came late in the year.",
              "Teapots", "This line was launched in spring."]
    assert neighbourhood.carried_on(pieces, 0, sentence_rank.continues) == [1, 2]  # at most CARRY_ON
    assert neighbourhood.carried_on(pieces, 3, sentence_rank.continues) == []  # a heading ends it
    assert neighbourhood.carried_on(["Kettle sales increased 12 percent.", "Store traffic rose."], 0,
                                    sentence_rank.continues) == []


def test_an_acronym_with_an_ampersand_is_one_term_so_a_question_typed_in_lowercase_finds_it():
    from agent.composing.compose import typed_in_lowercase

    assert "#sg&a" in sentence_rank.cased_terms("SG&A expenses decreased in 2024.")
    assert "#at&t" in sentence_rank.cased_terms("We compete with AT&T.")
    assert "r&d" in sentence_rank.cased_terms("R&D expenses rose.")  # single letters: read as typed
    asked = typed_in_lowercase(sentence_rank.cased_terms("why was sg&a lower"), ["SG&A expenses decreased in 2024."])
    assert "#sg&a" in asked


def test_a_paragraph_goes_on_past_a_statement_only_when_asked_for_it():
    from agent.composing import neighbourhood

    lines = [["Kettle sales increased 12 percent.", "Garden stores ordered more electric kettles."],
             ["Teapot sales fell 3 percent."]]
    pieces = [p for line in lines for p in line]
    paragraph = neighbourhood.paragraphs(lines)
    assert paragraph == [0, 0, 1]
    never = lambda previous, sentence: False  # noqa: E731
    assert neighbourhood.carried_on(pieces, 0, never, paragraph) == [1]  # its paragraph, not the next one
    assert neighbourhood.carried_on(pieces, 0, never) == []
