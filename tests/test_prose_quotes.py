"""What a prose answer may quote: whole statements (a bullet point is one, 'U.S.' ends none), of
a sentence with unverified amounts only its longest figure-free clause, and only sentences that
name what the question is about."""

from __future__ import annotations

from decimal import Decimal

from agent.composing import sentence_rank
from agent.composing.compose import _candidates, _figure_free_clause, compose_extractive
from agent.composing.draft import Evidence
from agent.checking.guards import split_sentences
from agent.planning.plan import Plan
from agent.planning.prose_route import order_items


def _chunk(n: int, item: str, text: str) -> Evidence:
    return Evidence(id=f"c:{n}", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u",
                    item=item, text=text)


def test_an_abbreviation_ends_no_sentence():
    text = "The U.S. Department of Justice filed a complaint against Zed Inc. in March. It seeks damages."
    assert split_sentences(text) == ["The U.S. Department of Justice filed a complaint against Zed Inc. in March.",
                                     "It seeks damages."]


def test_the_clause_rule_keeps_the_longest_figure_free_clause():
    # after the amount, from the words that explain it (no comma needed), dates allowed
    assert _figure_free_clause("Segment loss increased by $6,334 million primarily due to lower deliveries of "
                               "aircraft, a strike and new contract terms.") == \
        "…primarily due to lower deliveries of aircraft, a strike and new contract terms."
    assert _figure_free_clause("Sales fell $6.03 billion, or 8%, in the year ended December 31, 2024, primarily due "
                               "to lower prices.") == "…in the year ended December 31, 2024, primarily due to lower prices."
    # before the amount, when that is where the statement is
    assert _figure_free_clause("We funded the purchase of the distributor with commercial paper and cash on hand, "
                               "with consideration totaling $17.7 billion.") == \
        "We funded the purchase of the distributor with commercial paper and cash on hand…"
    # a subject without its statement, or the rest of a noun phrase, is never a quote
    assert _figure_free_clause("Capital expenditures, including finance leases, were $39.2 billion.") is None
    assert _figure_free_clause("We repurchased $95.0 billion of our common stock during the year.") is None


def test_a_bullet_point_is_a_statement_without_its_marker():
    chunk = _chunk(1, "7", "Highlights\n•Gross margin declined on higher discounts and channel mix, partly offset "
                           "by lower product costs\n•Inventories fell")
    quotes = [c[2] for c in _candidates([chunk])]
    assert quotes == ["Gross margin declined on higher discounts and channel mix, partly offset by lower product costs"]


def test_a_quote_must_name_what_the_question_is_about(embedder):
    chunks = [_chunk(1, "7", "Gross margin decreased on higher discounts and changes in channel mix. "
                             "Working capital improved on lower inventory purchases in the prior year. "
                             "The effective tax rate decreased due to a one-time benefit.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024],
                query="why did gross margin drop")
    draft = compose_extractive("zzz: why did gross margin drop?", plan, chunks, embedder=embedder)
    quoted = [c.text for c in draft.claims]
    assert quoted == ["Gross margin decreased on higher discounts and changes in channel mix."]
    assert sentence_rank.subject_terms(sentence_rank.cased_terms("why did gross margin drop so much")) == \
        {sentence_rank.stem("gross"), sentence_rank.stem("margin")}  # the direction asked about is no subject


def test_a_topic_of_the_business_is_searched_in_its_risk_factors_too():
    assert order_items("what does amd say about competition from intel?", ["1"]) == ["1", "1A"]
    assert order_items("who are nvidia's customers?", ["1"]) == ["1", "7"]  # a description stays Item 1 first
    assert order_items("what are the risk factors?", ["1A"]) == ["1A"]
    assert order_items("how does apple describe its suppliers in item 1?", ["1"]) == ["1"]  # the section named
    assert order_items("where does tesla make its cars?", ["1"]) == ["1"]  # no other business in it


# Invented figures: a company's revenue facts for two years, as retrieval hands them to the composer.
REVENUE_FACTS = [("f:1", Decimal("52400000000"), "USD", "ZZZ us-gaap:Revenues (Total revenues)", "2024-12-31"),
                 ("f:2", Decimal("48200000000"), "USD", "ZZZ us-gaap:Revenues (Total revenues)", "2023-12-31"),
                 ("f:3", Decimal("45100000000"), "USD", "ZZZ us-gaap:Revenues (Total revenues)", "2022-12-31")]


def test_a_change_between_two_facts_a_year_apart_is_quoted_whole_citing_both():
    from agent.checking.quoted_figures import verified

    said = "Total revenues increased $4.2 billion, or 9%, driven by higher volumes of garden tools."
    assert verified(said, REVENUE_FACTS) == ["f:1", "f:2"]
    # a change that equals no pair of the filing's facts, or is not called what they are, is not verified
    assert verified("Total revenues increased $4.3 billion, driven by higher volumes.", REVENUE_FACTS) is None
    assert verified("Operating costs increased $4.2 billion, driven by higher volumes.", REVENUE_FACTS) is None
    chunk = Evidence(id="c:1", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u", item="7",
                     text=said)
    assert [c[2] for c in _candidates([chunk], {"a": REVENUE_FACTS})] == [said]


def test_a_sentence_whose_amounts_are_all_an_earlier_year_is_not_quoted_for_the_filing_year():
    earlier = "Total revenues increased $3.1 billion driven by new stores in the southern region."
    chunk = Evidence(id="c:1", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u", item="7",
                     text=earlier)
    assert _candidates([chunk], {"a": REVENUE_FACTS}) == []  # 2023 against 2022, in the 2024 10-K
    assert [c[2] for c in _candidates([chunk], {"a": REVENUE_FACTS}, 2023)] == [earlier]  # asked about 2023


def test_a_change_shown_with_few_digits_is_taken_when_the_sentence_states_its_later_fact():
    from agent.checking.quoted_figures import verified

    facts = [("f:1", Decimal("17000000000"), "USD", "ZZZ us-gaap:Revenues (Notebook)", "2023-12-30"),
             ("f:2", Decimal("18830000000"), "USD", "ZZZ us-gaap:Revenues (Notebook)", "2022-12-31")]
    assert verified("Notebook revenue was $17.0 billion, down $1.8 billion from 2022.", facts) == ["f:1", "f:2"]
    assert verified("Notebook revenue was down $1.8 billion from 2022.", facts) is None  # too few digits alone


def test_a_clause_comparing_against_an_earlier_year_is_not_quoted_for_the_filing_year():
    chunk = Evidence(id="c:1", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u", item="7",
                     text="Sales of garden tools rose strongly from 2022 due to new stores in the southern region.")
    assert _candidates([chunk]) == []


def test_a_plan_question_prefers_a_sentence_stating_an_expectation():
    ask = "what does zzz expect for capital spending next year?"
    assert sentence_rank.role(ask, "We anticipate making capital expenditures to support our stores.") > 0
    assert sentence_rank.role(ask, "Capital expenditures were directed to stores.") == 0


def test_a_change_in_basis_points_is_a_cause_for_a_why_question():
    assert sentence_rank.states_cause("Higher other costs (decreasing gross margin approximately 90 basis points).")
    assert not sentence_rank.states_cause("Gross margin is reviewed by the chief operating decision maker.")


def test_the_prior_years_comparison_is_quoted_when_that_year_is_asked():
    said = "Sales of garden tools rose in 2023 compared with 2022 due to new stores in the southern region."
    chunk = Evidence(id="c:1", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u", item="7",
                     text=said)
    assert _candidates([chunk]) == []  # the 2024 10-K, asked about 2024
    assert [c[2] for c in _candidates([chunk], None, 2023)] == [said]  # its discussion of 2023, asked about 2023


def test_a_figure_questions_quoted_amount_must_be_of_the_line_it_asked_for():
    from agent.checking.quoted_figures import about

    other = ["AMZN us-gaap:OtherOperatingIncomeExpenseNet (Other operating expense (income), net)"]
    assert not about(other, "amazon advertising expense 2024 (what amzn spent on ads)", "AMZN")
    assert about(["AMZN us-gaap:AdvertisingExpense (Advertising expense)"], "amazon advertising expense 2024", "AMZN")
    # the ticker and the words every line carries ("expense", "net") tie nothing
    assert not about(["RTX rtx:ASRAggregatePurchasePrice"], "rtx stock repurchase expense 2023", "RTX")


def test_an_acronym_the_question_spells_out_is_read_as_its_words():
    names = sentence_rank.initialisms("what drove the bigger operating loss at zed commercial aircraft in 2024")
    assert names["zca"] == "zed commercial aircraft" and names["ca"] == "commercial aircraft"
    assert not {"wd", "db", "ai"} & set(names)  # question words, directions and years spell nothing
    # a joiner is counted or skipped, as filings do both ("DOJ", "BDS")
    assert {"doj", "dj"} <= set(sentence_rank.initialisms("the Department of Justice matter"))
    assert sentence_rank.spelled_out("ZCA deliveries fell. AI demand rose.", names) == \
        "ZCA (zed commercial aircraft) deliveries fell. AI demand rose."



def test_an_abbreviation_the_filing_defines_is_read_as_its_words():
    text = ("Our contract with the Allied Union of Riveters and Welders District 9 (AUR 9) expired in March. "
            "Zed Commercial Aircraft (ZCA) and Services, Parts & Training (SPT) are our segments. "
            "Research and development (R&D) rose.")
    names = sentence_rank.defined([text])
    assert names == {"aur": "allied union of riveters", "zca": "zed commercial aircraft",
                     "spt": "services, parts & training"}  # "R&D" spells no run of capitals
    assert sentence_rank.spelled_out("The AUR 9 work stoppage cut deliveries.", names) == \
        "The AUR (allied union of riveters) 9 work stoppage cut deliveries."


def test_a_sentence_naming_the_asked_unit_by_its_initials_answers_and_is_quoted_as_written(embedder):
    chunks = [_chunk(1, "7", "Deliveries of satellites decreased primarily due to program delays and lower orders. "
                             "ZCA deliveries decreased primarily due to a work stoppage at the main assembly plant. "
                             "Deliveries of services kits decreased primarily due to timing of orders.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024],
                query="why did deliveries at zed commercial aircraft fall", items=["7"])
    draft = compose_extractive("why did deliveries at zed commercial aircraft fall in 2024?", plan, chunks,
                               embedder=embedder)
    quoted = [c.text for c in draft.claims]
    assert quoted[0] == "ZCA deliveries decreased primarily due to a work stoppage at the main assembly plant."
    assert all("(zed commercial aircraft)" not in q for q in quoted)


def test_a_how_dependent_question_is_answered_from_the_risk_factors_first(embedder):
    chunks = [_chunk(1, "1", "Our bottler agreements grant each bottler exclusive rights in a defined territory. "
                             "Each bottler agreement may be renewed for successive terms of ten years."),
              _chunk(2, "1A", "We rely on independent bottling partners for a significant portion of our business. "
                              "If our bottling partners fail to invest in their plants, our sales could decline.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024],
                query="how dependent is on its bottlers", items=order_items("how dependent is zzz on its bottlers",
                                                                             ["1"]))
    assert plan.items[0] == "1A"
    draft = compose_extractive("how dependent is zzz on its bottlers", plan, chunks, embedder=embedder)
    assert draft.claims and {c.evidence_id for c in draft.claims} == {"c:2"}, [c.text for c in draft.claims]
    # "bottlers" and "bottling" are one word family
    assert sentence_rank.stem("bottlers") == sentence_rank.stem("bottling")


def test_a_word_family_holds_the_longer_words_a_term_begins():
    assert sentence_rank.holds({"railroad"}, "rail")  # "the rail network" is told as "a Class I railroad"
    assert sentence_rank.holds({sentence_rank.stem("competitive")}, sentence_rank.stem("competition"))
    assert not sentence_rank.holds({"petroleum"}, "pet")  # too short to begin a family
    assert not sentence_rank.holds({"rai"}, "rail")


def test_the_floor_share_counts_the_question_terms_some_candidate_holds():
    asked = sentence_rank.cased_terms("zzz was sued by the department of justice, correct? what does it disclose")
    candidates = ["The Department of Justice filed a complaint against us in the district court.",
                  "We believe the complaint is without merit and intend to defend ourselves."]
    found = sentence_rank.in_candidates(asked, candidates)
    assert {sentence_rank.stem("department"), sentence_rank.stem("justice")} <= found
    assert sentence_rank.stem("correct") not in found  # the asker's scaffolding tells no sentence from another
    assert sentence_rank.share(candidates[0], found) >= sentence_rank.HALF > sentence_rank.share(candidates[0], asked)
    # one word in common is no subject found: the question's own terms stay
    pet = sentence_rank.cased_terms("what does it say about its pet food strategy")
    assert sentence_rank.in_candidates(pet, ["Packaging uses PET resins and film for convenient foods."]) == pet


def test_a_plan_question_keeps_the_sentences_stating_an_expectation_of_its_subject():
    ask = "what does zzz expect for capital expenditures next year?"
    topic = sentence_rank.subject_terms(sentence_rank.cased_terms("expect for capital expenditures next year"))
    said = {0: "Capital expenditures were directed mainly to new stores and machinery in the year.",
            1: "We expect capital expenditures to increase next year as we build more distribution centers.",
            2: "We expect to increase our dividend on an annual basis."}
    assert sentence_rank.stating_plans(ask, said, topic) == {1}
    # no expectation of the subject itself: what was spent is all the filing says
    assert sentence_rank.stating_plans(ask, {0: said[0], 2: said[2]}, topic) == {0, 2}
    # a question that asks for no plan keeps every sentence
    assert sentence_rank.stating_plans("what were capital expenditures used for?", said, topic) == {0, 1, 2}


def test_a_describe_question_after_the_companys_name_reads_the_business_first():
    assert order_items("union pacific - describe the rail network pls", []) == ["1", "7"]
    assert order_items("visa: who are its clients?", []) == ["1", "7"]
    assert order_items("coca-cola bottlers", []) == []  # a hyphen inside a name opens nothing


def test_an_event_question_is_not_searched_in_the_register_of_causes():
    from agent.retrieval.fetch import EXPLAIN_QUERY, locate

    def queries(question: str) -> list[str]:
        state = {"question": question, "resolved": [],
                 "plan": {"intent": "qualitative", "items": ["7", "8"], "query": question, "sub_queries": []}}
        return locate(state, None, None)["located"]["queries"]

    assert EXPLAIN_QUERY in queries("why did zzz gross margin drop in 2024?")
    # what happened is told with dates and deals, not "primarily due to"
    assert EXPLAIN_QUERY not in queries("zzz acquisitions in 2024? which companies did it buy and why")
    assert EXPLAIN_QUERY not in queries("the strike at zzz: what happened and how did it change deliveries")


def test_an_events_impact_is_quoted_beside_what_happened(embedder):
    chunks = [_chunk(1, "7", "We have substantially mitigated the impact of the cyberattack on members and restored the "
                             "affected claims services. Revenues at our data unit decreased primarily due to business "
                             "disruption from the cyberattack. The medical cost ratio increased on higher utilization "
                             "of outpatient services."),
              _chunk(2, "7", "On February 3, 2024, we identified that criminal threat actors had gained access to our "
                             "claims processing systems. Our share repurchase program was suspended for the year.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], latest=True, items=["7", "8", "1A"],
                query="tell me about the cyberattack at - what happened and what was the impact",
                sub_queries=["tell me about the cyberattack at - what happened",
                             "tell me about the cyberattack at - what happened what was the impact"])
    draft = compose_extractive("tell me about the cyberattack at zzz - what happened and what was the impact",
                               plan, chunks, embedder=embedder)
    quoted = [c.text for c in draft.claims]
    assert any(q.startswith("Revenues at our data unit decreased") for q in quoted), quoted  # the impact
    assert not any("medical cost ratio" in q or "share repurchase" in q for q in quoted), quoted


def test_a_past_cause_reads_mdna_and_the_notes_not_the_risk_factors_its_topic_names():
    # "export controls" points to the risk factors; what they did to a year's revenue is told in MD&A
    assert order_items("how did export controls affect zed's data center revenue in 2024?", ["1A"]) == ["7", "8"]
    assert order_items("why did revenue fall amid the uncertainty?", ["1A", "7"]) == ["7", "8"]
    # what they may do is a risk factor's to tell, and so is a why that asks for the risks themselves
    assert order_items("how do export controls affect zed?", ["1A"]) == ["7", "8", "1A"]
    assert order_items("why did the risks from export controls grow?", ["1A"]) == ["7", "8", "1A"]
    assert order_items("why did revenue fall, per the risk factors?", ["1A"]) == ["7", "8", "1A"]


def test_an_expectation_asked_for_reads_mdna_first_whatever_item_its_topic_names():
    assert order_items("what does zed expect its pension cost to be next year?", ["8"]) == ["7", "8"]
    assert order_items("what uncertainties does zed expect to weigh on its business?", ["1A"]) == ["7", "1A"]
    assert order_items("what does zed plan to spend on its network?", ["1"]) == ["7", "1"]
    # a plan as a thing expects nothing: the note on the pension plan stays where its topic is
    assert order_items("what are the assumptions of zed's pension plan?", ["8"]) == ["8"]


def test_exposure_from_or_of_something_asks_how_dependent():
    assert order_items("what is zed's exposure from hauling hazardous materials?", ["1", "7"]) == ["1A", "1", "7"]
    assert order_items("what is the exposure of zed to a single supplier?", ["1"]) == ["1A", "1", "7"]


def test_a_sentence_telling_the_other_direction_than_the_one_asked_is_told_apart():
    asked = "what drove zed's shipment volume increase in 2024?"
    assert sentence_rank.opposite_direction(asked, "Volumes declined 4% compared to 2023 driven by lower demand for coal.")
    assert not sentence_rank.opposite_direction(asked, "Volume increases were primarily driven by grain shipments, "
                                                       "partially offset by weaker demand for coal.")
    # the cause clause tells no direction of the subject; neither does a question naming none or both
    assert not sentence_rank.opposite_direction(asked, "Volume was driven by lower fuel prices and reduced costs.")
    assert not sentence_rank.opposite_direction("how did zed's volume change?", "Volumes declined 4%.")
    assert not sentence_rank.opposite_direction("did volume rise or fall?", "Volumes declined 4%.")


def test_a_why_quotes_the_sentence_telling_the_direction_asked(embedder):
    # MD&A tells each line's decline before the one increase asked about: the sentences telling
    # the other way must not fill the few places the composer reads (its shortlist) and push it out
    goods = ["coal", "rock", "sand", "lumber", "steel", "paper", "autos", "chemicals", "plastics", "metals", "fertilizer"]
    text = " ".join(f"Carload volume for {g} declined in 2024, driven by weaker demand for {g}." for g in goods)
    chunks = [_chunk(1, "7", text + " Carload volume increases were primarily driven by grain and intermodal shipments.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024],
                query="what drove carload volume increase", items=["7", "8"])
    draft = compose_extractive("what drove zed's carload volume increase in 2024?", plan, chunks, embedder=embedder)
    assert [c.text for c in draft.claims][:1] == ["Carload volume increases were primarily driven by grain and "
                                                  "intermodal shipments."]


def test_a_pointer_to_another_part_of_the_filing_is_never_quoted():
    chunk = _chunk(1, "7", "For more information related to our organizational realignment and related costs, refer to "
                           "Note 19 within the accompanying Notes to the Consolidated Financial Statements. "
                           "Income before income taxes included a restructuring charge related to the streamlining "
                           "of our organization.")
    quotes = [c[2] for c in _candidates([chunk])]
    assert quotes == ["Income before income taxes included a restructuring charge related to the streamlining "
                      "of our organization."]


def test_a_return_on_something_is_spelled_by_its_initials_with_the_on():
    # filings say "ROIC", "ROE": the question's "return on invested capital" must find them
    assert sentence_rank.initialisms("why did return on invested capital go down?")["roic"] == \
        "return on invested capital"
    assert sentence_rank.initialisms("what drove the return on equity?")["roe"] == "return on equity"


def test_a_change_told_with_an_earlier_year_is_last_years_story():
    # the 2024 10-K's MD&A still explains 2023's change: no answer to a question about 2024
    chunk = _chunk(1, "7", "Revenue decreased in 2023 primarily due to lower licensing revenue. "
                           "Revenue increased in 2024 primarily due to higher subscription revenue. "
                           "In November 2021, we acquired the remaining interest in the sports drink maker.")
    quotes = [c[2] for c in _candidates([chunk], year=2024)]
    assert quotes == ["Revenue increased in 2024 primarily due to higher subscription revenue.",
                      "In November 2021, we acquired the remaining interest in the sports drink maker."]


def test_how_a_part_of_the_business_went_in_a_year_reads_mdna_before_its_description():
    # the business description tells the cloud business as it stands; how it did in 2023 is MD&A's
    assert order_items("how did zed's cloud business do in 2023?", ["1"]) == ["7", "1"]
    assert order_items("how did zed's cloud unit fare last year?", ["1"]) == ["7", "1"]
    # what it is, and who its customers are, stay the description's
    assert order_items("what is zed's cloud business?", ["1"]) == ["1", "7"]
    assert order_items("who were zed's cloud customers in 2023?", ["1"]) == ["1"]


def test_how_a_business_is_doing_reads_its_results_first():
    from agent.planning.prose_route import order_items

    # how a business fares is told in MD&A; the business description says what it is
    assert order_items("how is zed's advertising business doing?", ["1"]) == ["7", "1"]
    assert order_items("how are zed's services sales holding up", ["1", "1A"]) == ["7", "1", "1A"]
    # what the company does about something stays with the Items its topic points to, MD&A after
    assert order_items("what's zed doing about manufacturing capacity?", ["1"]) == ["1", "7"]
