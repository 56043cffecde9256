"""A lease schedule's "Total liability" row (us-gaap:OperatingLeaseLiability at Comcast, $6.59 billion) is never
the balance sheet's total liabilities asked for by name: printed under a generic total's name, its concept names the
leases the user did not say. A lease row printed under its own name is the row asked for by that name."""

from agent.retrieval.line_items import _narrower_schedule, tokens


def test_a_lease_schedules_total_is_narrower_than_total_liabilities():
    total = tokens("Total liability")
    assert _narrower_schedule("us-gaap:OperatingLeaseLiability", tokens("total liabilities"), total)
    assert _narrower_schedule("us-gaap:OperatingLeaseLiability", tokens("liability"), total)
    assert not _narrower_schedule("us-gaap:OperatingLeaseLiability", tokens("operating lease liabilities"), total)
    assert not _narrower_schedule("us-gaap:Liabilities", tokens("total liabilities"), total)


def test_a_lease_row_under_its_own_name_is_the_row_asked():
    assert not _narrower_schedule("us-gaap:OperatingLeaseRightOfUseAsset", tokens("right-of-use assets"),
                                  tokens("Right-of-use assets"))
    assert not _narrower_schedule("us-gaap:OperatingLeaseWeightedAverageDiscountRatePercent",
                                  tokens("weighted average discount rate"), tokens("Weighted-average discount rate"))
