"""Members tagged by ISO country code answer to the country's name, in questions and in answers."""

from __future__ import annotations

from agent.planning.measures import find_measures
from agent.retrieval.segments import display_name, find_member, plan_key

MEMBERS = [("srt:StatementGeographicalAxis", "country:JP"), ("srt:StatementGeographicalAxis", "country:US"),
           ("srt:StatementGeographicalAxis", "country:MX"), ("srt:StatementGeographicalAxis", "abbv:OtherCountriesMember")]


def test_a_country_name_finds_its_iso_coded_member():
    assert find_member("japan", MEMBERS, {}) == ([MEMBERS[0]], True)
    assert find_member("united states", MEMBERS, {}) == ([MEMBERS[1]], True)
    assert find_member("us", MEMBERS, {}) == ([MEMBERS[1]], True)
    assert find_member("germany", MEMBERS, {}) == ([], False)  # not tagged: no member, never another


def test_a_country_member_is_shown_by_its_name():
    assert display_name("country:JP", set(), frozenset({"revenue"})) == "Japan"
    assert display_name("country:US", set(), frozenset({"revenue"})) == "United States"


def test_revenue_in_a_country_is_a_member_ask_not_the_company_total():
    keys, unmappable = find_measures("pepsico revenue in mexico 2023", named_company=True)
    assert unmappable == "revenue in mexico"
    assert plan_key(unmappable, []) == "dim:revenue|mexico"
