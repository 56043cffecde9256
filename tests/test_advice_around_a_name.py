"""A trade asked with the company between its verbs ("sell VZ or hold?") is investment advice, refused;
the same verbs about what a company itself does ("hold cash or buy back shares") are not."""

import pytest

from agent.planning.scope import out_of_scope


@pytest.mark.parametrize("text", ["sell vz or hold?", "sell wells fargo & company/mn or hold?", "buy $nvda or wait",
                                  "hold nvda, or sell?", "Sell CRM or hold?".lower()])
def test_a_trade_around_a_name_is_advice(text):
    assert out_of_scope(text) == "investment advice"


@pytest.mark.parametrize("text", ["does apple hold cash or buy back shares?", "hold cash or buy back shares?",
                                  "does nike sell footwear or apparel mostly?", "sell products or services"])
def test_what_a_company_does_is_no_advice(text):
    assert out_of_scope(text) is None
