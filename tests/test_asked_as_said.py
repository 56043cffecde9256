"""A question is read as it is asked: the thing a company uses is no amount, a divestiture said in plain words is
an event, a word the filing writes in another number or as a verb is the same word, and a brand typed in
lowercase is found inside the words a refusal named."""

from __future__ import annotations

import pytest

from agent.planning.company_mentions import names_as_written
from agent.planning.in_words import names_all
from agent.planning.no_amount import asks_no_amount, deed_verbs
from agent.planning.prose_route import EVENT, order_items
from tests.test_plan_rules import directory, plan  # noqa: F401  (fixture)


def test_a_plural_names_its_singular_however_short():
    # "taxes" keeps its plural under a five-letter stem; the filing's "income tax payments" says it
    sentence = "Income tax payments related to the sale of our investment in Hulu will primarily be made in 2024."
    assert names_all(sentence, ["pay", "taxes", "hulu"])
    assert names_all("We charge fees to members.", ["fee"])
    assert names_all("Our fee income rose.", ["fees"])
    assert not names_all(sentence, ["fees", "hulu"])


def test_a_noun_in_ation_is_named_by_its_verb():
    said = "We value the majority of our inventory under the retail inventory method."
    assert names_all(said, ["inventory", "valuation", "method"])
    assert not names_all("Valuable assets were sold.", ["valuation"])  # another word sharing its letters
    assert not names_all("We value our brands.", ["inventory", "valuation"])


def test_the_thing_a_company_uses_is_no_amount():
    assert asks_no_amount("what inventory valuation method does company use?")
    assert asks_no_amount("which accounting standard did company adopt in 2024")
    assert deed_verbs("what inventory valuation method does company use?") == {"use"}
    # a figure's word, or an amount's noun, before the verb: an amount, whatever the verb
    assert not asks_no_amount("what dividends did company declare in 2023")
    assert not asks_no_amount("what amount did company repurchase")
    assert not asks_no_amount("what discount rate does company use")
    assert not asks_no_amount("what revenue did company report")


def test_how_a_thing_is_done_is_no_amount():
    assert asks_no_amount("how does company amortize content assets")
    assert asks_no_amount("how did company fund the acquisition")
    assert deed_verbs("how does company amortize content assets") == set()  # the verb is what is asked
    # how the company went, or how much: figures and MD&A's account, as before
    assert not asks_no_amount("how did company do in 2023")
    assert not asks_no_amount("how does company compare to peers")
    assert not asks_no_amount("how did company grow revenue")
    assert not asks_no_amount("how much did company spend")
    assert not asks_no_amount("how does company make money")


@pytest.mark.parametrize("text, event", [
    ("what did lowe's say about selling its canadian retail business", True),
    ("what happened with the seiyu sale at walmart", True),
    ("the sale of its hulu interest", True),
    ("it sold the business to a buyer", True),
    ("how did sales of its iphone do", False),
    ("point of sale systems", False),
    ("what were net sales in 2023", False),
])
def test_a_divestiture_in_plain_words_is_an_event(text, event):
    assert bool(EVENT.search(text)) is event


def test_an_event_in_plain_words_is_searched_where_events_are_told():
    # MD&A, the notes and the risk factors, before the business description a topic word pointed to
    assert order_items("what did lowe's say about selling its canadian retail business", ["1"])[:3] == ["7", "8", "1A"]


def test_a_brand_is_found_inside_the_words_a_refusal_named():
    written = [name for _, name in names_as_written("frito lay performance 2023", "frito lay performance")]
    assert written[:2] == ["Frito Lay Performance", "Frito Lay"]
    assert [name for _, name in names_as_written("frito-lay performance 2023", "frito lay performance")][1] == "Frito-Lay"
    # a possessive inside the name is kept as typed
    found = names_as_written("hill's pet nutrition sales growth", "hill pet nutrition")
    assert found[0] == ("Hill's Pet Nutrition sales growth", "Hill's Pet Nutrition")
    # a single short or small word is never tried as a name
    assert all(name != "The" for _, name in names_as_written("the acme revenue", "the acme"))


def test_a_method_asked_is_searched_in_prose(directory):  # noqa: F811
    p = plan(directory, "What inventory valuation method does Walmart use?")
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == ["WMT"], p
    assert not p.probe
    # a passage must name the thing asked, never the verb it is asked with; nothing found is no_grounding
    assert p.unless_named["reason"] == "no_grounding" and "use" not in p.unless_named["words"], p.unless_named
    assert {"inventory", "valuation", "method"} <= set(p.unless_named["words"])


def test_a_search_that_found_nothing_says_where_and_for_what():
    from agent.planning.plan import Plan
    from agent.refusals import refuse

    plan = Plan(route="domain", intent="qualitative", tickers=["CMCSA"],
                unless_named={"reason": "no_grounding", "detail": None, "words": ["taxes", "hulu", "737-9"]})
    state = {"plan": plan.model_dump(mode="json"), "refusal": {"reason": "no_grounding", "detail": None},
             "resolved": [{"ticker": "CMCSA", "name": "Comcast", "fiscal_years": [2023],
                           "filings": {"2023": {"form": "10-K"}}}],
             "located": {"items": ["7", "8", "1A"]}}
    answer = refuse(state, None, None)["answer"]
    assert answer["refusal_reason"] == "no_grounding"
    assert "Comcast's fiscal 2023 10-K (Items 7, 8 and 1A)" in answer["text"], answer["text"]
    assert "\u201ctaxes\u201d and \u201chulu\u201d" in answer["text"]
    assert "737" not in answer["text"]  # a refusal never carries a figure, even one the user typed


def test_a_name_is_capitalised_inside_sentences_an_everyday_word_only_where_one_begins():
    from agent.planning.brands import capitalised_share

    named = [(1, f"We sold Chevrolet and GMC trucks in year {i}. Chevrolet dealers grew.") for i in range(8)]
    assert capitalised_share("chevrolet", named) == 1.0
    everyday = [(2, f"Restaurant margins rose. Each restaurant in market {i} opened; a restaurant closed.")
                for i in range(10)]
    assert capitalised_share("restaurant", everyday) == 0.0
    assert capitalised_share("chevrolet", named[:2]) == 0.0  # too few to tell


def _lent(counts: dict, shares: dict):
    def lookup(phrase: str):
        return counts.get(phrase.lower(), [])
    lookup.proper = lambda phrase: shares.get(phrase.lower(), 0.0)
    return lookup


def test_a_lowercase_word_the_filings_write_as_a_name_is_written_so():
    from agent.planning.brands import brands_from
    from agent.planning.company_mentions import proper_as_written

    with brands_from(_lent({}, {"harbor": 0.95, "pratt & whitney": 0.99, "restaurant": 0.1})):
        assert proper_as_written("how is harbor doing") == [("how is Harbor doing", "Harbor")]
        assert proper_as_written("pratt & whitney gtf engine problem")[0][1] == "Pratt & Whitney"
        assert proper_as_written("what's a good restaurant in nyc") == []
    assert proper_as_written("how is harbor doing") == []  # no lookup lent: nothing is a name


def test_a_brand_typed_in_lowercase_is_read_before_a_likeness_refusal(directory, embedder):  # noqa: F811
    from agent.planning.brands import brands_from
    from agent.planning.exemplars import meaning_from

    lent = _lent({"harbor": [(104169, 40)]}, {"harbor": 0.95})  # Walmart's filings write it, always capitalised
    with meaning_from(embedder), brands_from(lent):
        p = plan(directory, "how is harbor doing")
        assert p.route == "domain" and p.tickers == ["WMT"], p
        # an everyday word the filings capitalise only where a sentence begins stays what it was
        plain = _lent({"restaurant": [(104169, 40)]}, {"restaurant": 0.05})
    with meaning_from(embedder), brands_from(plain):
        assert plan(directory, "what's a good restaurant in nyc").route == "refusal"


def test_a_first_word_the_filings_write_as_a_name_is_a_brand_candidate():
    from agent.planning.brands import brands_from, candidates

    with brands_from(_lent({}, {"peacock": 0.97, "restaurant": 0.04})):
        assert [c[2] for c in candidates("Peacock subscribers")] == ["Peacock"]
        assert candidates("Restaurant sales trends") == []  # a sentence's capital on an everyday word
        assert candidates("Tell me about sales") == []
    assert candidates("Peacock subscribers") == []  # no lookup lent: a sentence's first dictionary word


def test_a_word_ticker_in_the_subject_slot_is_the_company_asked_about():
    from agent.planning.companies import Company, CompanyMatch
    from agent.planning.word_tickers import drop_word_tickers

    meta = Company(cik=1326801, name="Meta Platforms, Inc.", tickers=("META",), covered=True)
    google = Company(cik=1652044, name="Alphabet Inc.", tickers=("GOOGL",), covered=True)

    def read(text: str) -> list[str]:
        at, g = text.index("meta"), text.index("google") if "google" in text else text.index("home depot")
        found = [CompanyMatch("company", "meta", at, at + 4, meta, via="ticker"),
                 CompanyMatch("company", text[g:g + 6], g, g + 6, google, via="name")]
        return [m.company.ticker for m in drop_word_tickers(text, found)]

    # "does meta say": the subject between the auxiliary and its verb, whoever else is named as its topic
    assert read("what does meta say about competition from google") == ["META", "GOOGL"]
    # a word where it stands as one: after an article, or beside a company named clearly
    assert read("any meta commentary from google?") == ["GOOGL"]
    assert read("meta commentary from google in the 10-k") == ["GOOGL"]


@pytest.mark.parametrize("text", ["can you help me with my taxes?", "how do i lower my tax bill", "pay off my credit card debt"])
def test_the_users_own_money_is_out_of_scope_though_it_names_a_figures_word(directory, text):  # noqa: F811
    p = plan(directory, text)
    # never a figure whose company is missing (no_company): no company's filing speaks of the user's taxes
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope"), p


def test_a_companys_own_taxes_and_debt_stay_its_figures(directory):  # noqa: F811
    assert plan(directory, "what is walmart's effective tax rate in fiscal 2024").route == "domain"
    assert plan(directory, "what does apple say about our debt").route != "refusal" or \
        plan(directory, "what does apple say about our debt").refusal_reason != "out_of_scope"


def test_a_known_company_that_files_nothing_is_named_wherever_the_message_names_it():
    from agent.planning.company_mentions import non_registrant

    # the refusal named "employees"; the message names OpenAI, which files nothing with the SEC
    assert non_registrant("employees", "how many employees does openai have") == "openai"
    assert non_registrant("employees", "how many employees does the zorblax guild have") is None


def test_a_question_opening_puts_a_word_ticker_in_the_subjects_slot():
    from agent.planning.rules import _ASKS_OF

    assert _ASKS_OF.search("what does ")  # "what does gm financial do": GM, never good morning
    assert _ASKS_OF.search("tell me about the ")
    assert not _ASKS_OF.search("what's up ")  # "what's up gm": a greeting
    assert not _ASKS_OF.search("")  # "gm everyone!"
