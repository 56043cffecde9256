"""Line items and members in the user's words: the company's own name in a row, footnote references,
verb forms, one printed row under several concepts, and labels that name a row rather than a member."""

from __future__ import annotations

from agent.planning.words import account
from agent.retrieval.line_items import resolve, same_printed_row, tokens, without_note_refs
from agent.retrieval.segments import find_member


def _row(label, concept, statement="cash"):
    return {"label": label, "concept": concept, "statement": statement, "dims": {}}


def test_a_footnote_reference_is_no_word_of_the_row_and_is_not_shown():
    labels = [_row("Acquisitions, net of cash acquired (Note 18)", "us-gaap:PaymentsToAcquireBusinessesNetOfCashAcquired"),
              _row("Acquired in-process research and development assets (Note 18)", "jnj:PaymentsToAcquiredIPRD")]
    match, _ = resolve("acquisitions net acquired", "acquisitions net cash acquired", labels, [])
    assert match is not None and match.concept == "us-gaap:PaymentsToAcquireBusinessesNetOfCashAcquired"
    assert without_note_refs(match.label) == "Acquisitions, net of cash acquired"
    assert without_note_refs("Restructuring (Note 20)") == "Restructuring"
    assert tokens("Commitments and contingencies (see Note 12)") == tokens("Commitments and contingencies")


def test_a_verb_the_user_writes_finds_the_noun_the_row_prints():
    labels = [_row("Acquisitions of wireless licenses", "us-gaap:PaymentsToAcquireIntangibleAssets"),
              _row("Acquisitions of businesses, net of cash acquired", "us-gaap:PaymentsToAcquireBusinessesNetOfCashAcquired")]
    match, _ = resolve("acquiring wireless licenses", "acquiring wireless licenses", labels, [])
    assert match is not None and match.concept == "us-gaap:PaymentsToAcquireIntangibleAssets"
    # the verb form never widens a match: other words still must be the row's
    match, candidates = resolve("acquiring spectrum", "acquiring spectrum", labels, [])
    assert match is None and not candidates


def test_intangibles_is_the_rows_intangible_assets():
    labels = [_row("Amortization of acquisition-related intangible assets", "us-gaap:AmortizationOfIntangibleAssets")]
    match, _ = resolve("amortization acquisition related intangibles", "amortization acquisition related intangibles",
                       labels, [])
    assert match is not None and match.concept == "us-gaap:AmortizationOfIntangibleAssets"


def test_the_companys_own_name_in_a_row_is_allowed_never_needed():
    labels = [_row("Deferred revenue – Lowe’s protection plans", "us-gaap:ContractWithCustomerLiabilityNoncurrent", "balance"),
              _row("Deferred revenue", "us-gaap:ContractWithCustomerLiabilityCurrent", "balance")]
    match, _ = resolve("deferred protection plans", "deferred revenue protection plans", labels, [],
                       optional="Lowe's Companies, Inc.")
    assert match is not None and match.concept == "us-gaap:ContractWithCustomerLiabilityNoncurrent"
    # without the company's name as an allowed word the row holds a word the user did not write
    match, _ = resolve("deferred protection plans", "deferred revenue protection plans", labels, [])
    assert match is None
    # and the name never stands for a missing word: "deferred revenue" alone is still the current row
    match, _ = resolve("deferred revenue", "deferred revenue", labels, [], optional="Lowe's Companies, Inc.")
    assert match is not None and match.concept == "us-gaap:ContractWithCustomerLiabilityCurrent"


def test_one_label_under_several_concepts_is_one_printed_row():
    labels = [_row("Medical costs", "us-gaap:PolicyholderBenefitsAndClaimsIncurredHealthCare", "income"),
              _row("Medical costs", "us-gaap:PolicyholderBenefitsAndClaimsIncurredNet", "income"),
              _row("Medical costs payable", "us-gaap:LiabilityForClaimsAndClaimsAdjustmentExpense", "balance")]
    match, candidates = resolve("medical costs", "medical costs", labels, [])
    assert match is None and same_printed_row(candidates)
    two = [_row("Other income, net", "us-gaap:OtherNonoperatingIncomeExpense", "income"),
           _row("Other income", "us-gaap:NonoperatingIncomeExpense", "income")]
    assert not same_printed_row(resolve("other income", "other income", two, [])[1])


def test_a_row_label_holding_the_metrics_word_names_no_member_by_part_of_its_words():
    members = [("us-gaap:StatementBusinessSegmentsAxis", "vz:VerizonConsumerGroupSegmentMember"),
               ("us-gaap:StatementBusinessSegmentsAxis", "vz:VerizonBusinessGroupSegmentMember")]
    # the goodwill roll-forward prints a row of one segment's impairment beside both segments' columns
    row = "Verizon Business Group goodwill impairment"
    labels = {"vz:VerizonConsumerGroupSegmentMember": {"Consumer", row},
              "vz:VerizonBusinessGroupSegmentMember": {"Business", row}}
    owner = frozenset({"verizon", "communication"})
    found, _ = find_member("business group impairment", members, labels, owner, metric_words=frozenset({"goodwill"}))
    assert found == []
    # the company's name and "group" are no member's words: "consumer" finds the consumer segment only
    found, exact = find_member("consumer", members, labels, owner, metric_words=frozenset({"goodwill"}))
    assert exact and found == [members[0]]


def test_a_naming_word_before_a_noun_is_part_of_the_name_and_own_is_filler():
    trace, runs = account("Business Group goodwill impairment in 2023", [])
    kinds = {t["word"]: t["as"] for t in trace}
    assert kinds["business"] == "unaccounted" and kinds["group"] == "unaccounted"
    trace, _ = account("what was the group's revenue in 2023", [])
    assert {t["word"]: t["as"] for t in trace}.get("revenue", "").startswith("metric:")
    trace, _ = account("its business in 2023", [])
    assert all(t["as"] != "unaccounted" for t in trace)
    trace, _ = account("how much did it spend buying back its own stock in 2023", [])
    assert all(t["as"] != "unaccounted" for t in trace)


def test_among_rows_that_fit_alike_the_one_printing_fewest_unsaid_words_wins():
    rows = [_row("Earnings (loss) from continuing operations attributable to GE common shareholders",
                 "ge:IncomeLossFromContinuingOperationsNetOfTaxAvailableToCommonStockholders", "income"),
            _row("Net earnings (loss) attributable to GE common shareholders",
                 "us-gaap:NetIncomeLossAvailableToCommonStockholdersBasic", "income")]
    match, _ = resolve("attributable ge common shareholders", "net earnings attributable ge common shareholders", rows, [])
    assert match is not None and match.concept == "us-gaap:NetIncomeLossAvailableToCommonStockholdersBasic"
    match, _ = resolve("continuing operations attributable ge common shareholders",
                       "earnings continuing operations attributable ge common shareholders", rows, [])
    assert match is not None and match.concept.startswith("ge:IncomeLossFromContinuingOperations")
    # when the user's words tell them apart by nothing, it is still a question back
    both = [_row("Amortization expense", "us-gaap:AmortizationOfIntangibleAssets", "income"),
            _row("Amortization costs", "us-gaap:AmortizationOfDeferredCharges", "income")]
    match, candidates = resolve("amortization", "amortization", both, [])
    assert match is None and len(candidates) == 2


def test_a_rows_note_of_what_it_includes_is_optional_never_in_the_way():
    rows = [_row("Other cost of revenues (exclusive of depreciation and amortization shown separately below)",
                 "us-gaap:OtherCostOfOperatingRevenue", "income"),
            _row("Capital expenditures (including capitalized software)", "us-gaap:PaymentsToAcquireOtherProductiveAssets")]
    match, _ = resolve("other", "other cost of revenues", rows, [])
    assert match is not None and match.concept == "us-gaap:OtherCostOfOperatingRevenue"
    match, _ = resolve("capital expenditures including capitalized software",
                       "capital expenditures including capitalized software", rows, [])
    assert match is not None and match.concept == "us-gaap:PaymentsToAcquireOtherProductiveAssets"
    match, _ = resolve("capital expenditures", "capital expenditures", rows, [])
    assert match is not None and match.concept == "us-gaap:PaymentsToAcquireOtherProductiveAssets"


def test_a_qualifier_inside_the_members_own_qname_still_names_it_through_a_row_label():
    members = [("srt:SalesChannelAxis", "us-gaap:SalesChannelDirectlyToConsumerMember"),
               ("srt:SalesChannelAxis", "us-gaap:SalesChannelThroughIntermediaryMember")]
    labels = {"us-gaap:SalesChannelDirectlyToConsumerMember": {"Revenues through direct to consumer"},
              "us-gaap:SalesChannelThroughIntermediaryMember": {"Revenues through wholesale partners"}}
    found, _ = find_member("direct consumer", members, labels, frozenset({"acme"}),
                           metric_words=frozenset({"revenue", "sale"}))
    assert found == [members[0]]
    # a word the QName lacks ("impairment") still makes the label a row's name
    found, _ = find_member("direct consumer impairment", members,
                           {members[0][1]: {"Revenues through direct to consumer impairment"}}, frozenset(),
                           metric_words=frozenset({"revenue"}))
    assert found == []


def test_what_a_filing_says_of_a_line_leads_its_words_with_the_amount(offline_footnote):
    from tests.conftest import thread_of

    answer = thread_of(offline_footnote)("what did Apple's 10-K say about other income/(expense), net in fiscal 2024?")
    # the line's amount leads, and the question stays one about the filing's words (never the amount alone)
    assert answer.plan["intent"] == "qualitative" and answer.plan["metrics"][0].startswith("line:"), answer.plan
    assert any(n.ticker == "AAPL" and n.fiscal_year == 2024 for n in answer.numbers), answer.text
