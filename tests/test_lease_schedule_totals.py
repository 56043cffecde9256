"""A lease schedule's "Total liability" row (us-gaap:OperatingLeaseLiability at Comcast, $6.59 billion) is never
the balance sheet's total liabilities asked for by name: its concept names the leases the user did not say."""

from agent.retrieval.line_items import _narrower_schedule, tokens


def test_a_lease_schedules_total_is_narrower_than_total_liabilities():
    assert _narrower_schedule("us-gaap:OperatingLeaseLiability", tokens("total liabilities"))
    assert not _narrower_schedule("us-gaap:OperatingLeaseLiability", tokens("operating lease liabilities"))
    assert not _narrower_schedule("us-gaap:Liabilities", tokens("total liabilities"))


def test_a_lease_row_asked_in_words_of_its_own_is_the_row_meant():
    assert not _narrower_schedule("us-gaap:OperatingLeaseRightOfUseAsset", tokens("right-of-use assets"))
    assert not _narrower_schedule("us-gaap:OperatingLeaseRightOfUseAsset", tokens("ROU assets"))
    # "leases" said in the plural is the lease the concept names in the singular
    assert not _narrower_schedule("us-gaap:OperatingLeaseLiability", tokens("liabilities for operating leases"))
    # the leases named elsewhere in the question than in the row's own words
    assert not _narrower_schedule("us-gaap:OperatingLeaseWeightedAverageDiscountRatePercent",
                                  tokens("weighted average discount rate"), tokens("discount rate of its operating leases"))
