"""A quoted sentence's amount verifies against the line the sentence names, not a look-alike value of another
line: the best-named fact or change wins over the first one found, and an amount shown with few digits needs a
word of the line's own name. Real figures from the hunt, typed in (Procter & Gamble's fiscal 2024 10-K, Walgreens'
fiscal 2024 10-K); the sentences are ours, written in the filings' manner."""

from __future__ import annotations

from decimal import Decimal

from agent.checking.quoted_figures import verified

M = Decimal(10) ** 6
OPERATING = "NetCashProvidedByUsedInOperatingActivities Net cash from operating activities"
FINANCING = "NetCashProvidedByUsedInFinancingActivities Net cash used for financing activities"


def test_a_change_is_the_pair_of_the_line_the_sentence_states_not_another_that_changed_alike():
    facts = [("fin23", -12146 * M, "USD", FINANCING, "2023-06-30"), ("fin22", -14876 * M, "USD", FINANCING, "2022-06-30"),
             ("ocf24", 19846 * M, "USD", OPERATING, "2024-06-30"), ("ocf23", 16848 * M, "USD", OPERATING, "2023-06-30")]
    found = verified("Operating cash flow came to $19.8 billion for the year, up 18% on the year before.", facts)
    assert found is not None and set(found) == {"ocf24", "ocf23"}


def test_a_round_amount_needs_a_word_of_the_lines_own_name():
    facts = [("eq", 17 * M, "USD", "IncomeLossFromOtherEquityMethodInvestments Income from equity method investments",
              "2024-08-31")]
    sentence = "Segment operating income gained $17 million from currency translation."
    assert verified(sentence, facts) is None
    # named by its own words, the same round amount is the line's
    assert verified("Income from equity method investments was $17 million.", facts) == ["eq"]


def test_a_round_rate_is_no_rate_of_another_line_by_the_word_percentage():
    facts = [("alloc", Decimal("0.04"), "pure", "DefinedBenefitPlanPlanAssetsTargetAllocationPercentage", "2023-12-30")]
    assert verified("Segment profit grew 4% while its margin slipped 0.2 percentage points.", facts) == []


AFS_LOSS = ("AMZN us-gaap:AvailableForSaleDebtSecuritiesAccumulatedGrossUnrealizedLossBeforeTax "
            "(Gross Unrealized Losses)")
SALES = "AMZN us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax ({member}) (Net sales | Total net sales)"


def test_a_change_verifies_only_against_a_line_the_sentence_names_not_one_word_of_a_long_name():
    # Amazon's fiscal 2023 10-K: a debt securities' unrealized loss moved from $61 million to $149 million; the
    # currency effect on International sales was $88 million too. "sale" of "available-for-sale" is no name of it
    facts = [("afs23", 149 * M, "USD", AFS_LOSS, "2023-12-31"), ("afs22", 61 * M, "USD", AFS_LOSS, "2022-12-31")]
    assert verified("Changes in foreign exchange rates increased International net sales by $88 million.", facts) is None
    # the same change, said of the line by its own words, is its change
    assert verified("Gross unrealized losses on available-for-sale debt securities increased $88 million.",
                    facts) == ["afs23", "afs22"]


def test_a_members_change_is_named_by_its_line_whatever_the_segment_is_called():
    # a filing calls its segments by initials ("BCA revenues decreased by ..."): the line's label is its name
    intl = SALES.format(member="amzn:InternationalSegmentMember")
    facts = [("i23", 131200 * M, "USD", intl, "2023-12-31"), ("i22", 118007 * M, "USD", intl, "2022-12-31")]
    assert verified("International segment net sales rose $13.19 billion in 2023.", facts) == ["i23", "i22"]
    assert verified("INTL net sales rose $13.19 billion in 2023.", facts) == ["i23", "i22"]
    assert verified("Unrealized gains on INTL securities rose $13.19 billion in 2023.", facts) is None
