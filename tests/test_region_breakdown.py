"""A breakdown asked "by region" lists places, and a revenue member is never shown under a cost row's name.

Why: "by region" falls back to a company's segments when it tags no geographic axis, which is right where
the segments are regions (Coca-Cola, McDonald's) and answers another question where they are not (Texas
Instruments' Analog and Embedded Processing). And a member's name is read from the labels printed beside
it: the cost row that shares its words ("Cost of services" beside us-gaap:ServiceMember) is not its name."""

from __future__ import annotations

from agent.retrieval.concepts import METRICS
from agent.retrieval.line_items import tokens
from agent.retrieval.segments import display_name, places_as_asked

SEGMENTS = "us-gaap:StatementBusinessSegmentsAxis"


def test_segments_that_name_no_place_are_no_regional_split():
    assert not places_as_asked("geography", SEGMENTS, ["Analog", "Embedded Processing", "Other"])
    assert not places_as_asked("region", SEGMENTS, ["Commercial", "Government"])
    assert not places_as_asked("regions", SEGMENTS, ["Pet Nutrition", "Total Oral, Personal and Home Care"])


def test_segments_that_are_regions_are_the_regional_split():
    assert places_as_asked("region", SEGMENTS, ["North America", "Latin America", "Europe, Middle East & Africa",
                                                "Asia Pacific", "Global Ventures", "Bottling Investments"])
    assert places_as_asked("region", SEGMENTS, ["US Market", "International Operated Markets",
                                                "International Developmental Licensed Markets & Corporate"])
    assert places_as_asked("geography", SEGMENTS, ["Video Game Brands United States", "Video Game Brands Europe"])


def test_the_geographic_axis_and_other_breakdowns_are_left_alone():
    assert places_as_asked("region", "srt:StatementGeographicalAxis", ["Other"])
    assert places_as_asked("segment", SEGMENTS, ["Analog", "Embedded Processing"])


def test_a_revenue_member_is_named_by_its_sales_row_not_its_cost_row():
    words = tokens(" ".join(METRICS["revenue"].synonyms))
    printed = {"Cost of services", "Sales of services"}
    assert display_name("us-gaap:ServiceMember", printed, words) == "Sales of services"
    assert display_name("us-gaap:ProductMember", {"Cost of products"}, words) == "Product"
    cost = tokens(" ".join(METRICS["cost_of_revenue"].synonyms))
    assert display_name("us-gaap:ServiceMember", printed, cost) == "Cost of services"
