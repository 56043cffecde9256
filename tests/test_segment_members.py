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


REGIONS = [("srt:StatementGeographicalAxis", "us-gaap:EMEAMember"), ("srt:StatementGeographicalAxis", "srt:AsiaPacificMember"),
           ("srt:StatementGeographicalAxis", "srt:NorthAmericaMember"), ("srt:StatementGeographicalAxis", "srt:LatinAmericaMember")]


def test_region_abbreviations_and_adjectives_name_the_member():
    assert find_member("apac", REGIONS, {})[0] == [REGIONS[1]]
    assert find_member("north american", REGIONS, {})[0] == [REGIONS[2]]
    assert find_member("latam", REGIONS, {})[0] == [REGIONS[3]]
    assert find_member("europe middle east and africa", REGIONS, {})[0] == [REGIONS[0]]  # its initials
    assert find_member("middle east", REGIONS, {})[0] == []  # not a member by itself


def test_a_member_carrying_the_companys_name_is_as_exact_as_a_country():
    members = [("us-gaap:StatementBusinessSegmentsAxis", "wmt:WalmartUSSegmentMember"),
               ("srt:StatementGeographicalAxis", "country:US")]
    found, exact = find_member("us", members, {}, frozenset({"walmart"}))
    assert exact and found[0] == members[0]  # the segment axis is read first
    found, exact = find_member("us", members, {})
    assert found == [members[1]]


def test_a_member_printed_in_two_cases_shows_the_running_case_whatever_the_order():
    # lists stand in for the set so that both iteration orders are tried in one process
    for printed in (["BEAUTY", "Beauty"], ["Beauty", "BEAUTY"], ["Net sales", "BEAUTY", "Beauty"]):
        assert display_name("pg:BeautySegmentMember", printed, frozenset({"net", "sales"})) == "Beauty"
