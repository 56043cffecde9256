"""A member's figure is the member the question names, as the filing prints it: never a member a vague word
("other") falls inside, never the row of an elimination or corporate column read as a segment's name, never a
row the filing prints under another member's name than its tag, and a quarter's reply keeps the quarter."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from psycopg.types.json import Jsonb

from agent.planning.companies import CompanyDirectory
from agent.planning.rules import plan_rules
from agent.retrieval.segments import find_member
from tests.test_companies import COVERED, SEC

SEGMENT = "us-gaap:StatementBusinessSegmentsAxis"
PRODUCT = "srt:ProductOrServiceAxis"
GEO = "srt:StatementGeographicalAxis"
MARK = "srt:ConsolidationItemsAxis"


def test_other_alone_names_no_member_it_falls_inside():
    members = [(PRODUCT, "vz:ServiceAndOtherMember"), (PRODUCT, "us-gaap:ProductMember"),
               (GEO, "abt:AllOtherCountriesMember")]
    labels = {"vz:ServiceAndOtherMember": {"Service revenues and other"}, "us-gaap:ProductMember": {"Wireless equipment"}}
    assert find_member("other", members, labels) == ([], False)
    # a member printed "Other", and only that one, is what "other" names
    named = [*members, (PRODUCT, "nke:OtherMember")]
    assert find_member("other", named, {**labels, "nke:OtherMember": {"Other"}}) == ([(PRODUCT, "nke:OtherMember")], True)
    # the words that do name a member still find it by part of its name
    assert find_member("service", members, labels)[0] == [(PRODUCT, "vz:ServiceAndOtherMember")]


@pytest.fixture(scope="module")
def tagged_db(make_database):
    """A cable company's business-unit revenue beside its corporate column, and a chip maker's quarter whose
    segment rows carry another segment's tag (as AMD's 10-Q for the quarter ended July 1, 2023 does). Figures
    typed in from those filings; labels as the tables print them."""
    db = make_database()
    cable, chips = 1166691, 2488
    unit, corp = "cmcsa:BusinessUnitAxis", "us-gaap:CorporateNonSegmentMember"
    with db.connection() as conn, conn.transaction():
        for cik, name, acc, form, end in ((cable, "COMCAST CORP", "acc-cable", "10-K", date(2023, 12, 31)),
                                          (chips, "ADVANCED MICRO DEVICES INC", "acc-chips", "10-Q", date(2023, 7, 1))):
            conn.execute("INSERT INTO companies (cik, name, tickers) VALUES (%s, %s, %s)", (cik, name, []))
            conn.execute("INSERT INTO filings (accession, cik, form, fiscal_year, fiscal_period, period_end, url,"
                         " content_hash) VALUES (%s, %s, %s, 2023, %s, %s, 'https://www.sec.gov/x', 'x')",
                         (acc, cik, form, "FY" if form == "10-K" else "Q2", end))
        rows = [
            # (cik, accession, label, dims, value, start, end)
            (cable, "acc-cable", "Content & Experiences", {unit: "cmcsa:ContentAndExperiencesMember"}, "43191000000",
             date(2023, 1, 1), date(2023, 12, 31)),
            (cable, "acc-cable", "Headquarters and Other", {unit: "cmcsa:ContentAndExperiencesMember", MARK: corp},
             "64000000", date(2023, 1, 1), date(2023, 12, 31)),
            (chips, "acc-chips", "Data Center", {SEGMENT: "amd:ClientMember"}, "1321000000", date(2023, 4, 2), date(2023, 7, 1)),
            (chips, "acc-chips", "Client", {SEGMENT: "amd:GamingMember"}, "998000000", date(2023, 4, 2), date(2023, 7, 1)),
            (chips, "acc-chips", "Gaming", {SEGMENT: "amd:DataCenterMember"}, "1581000000", date(2023, 4, 2), date(2023, 7, 1)),
            (chips, "acc-chips", "Embedded", {SEGMENT: "amd:EmbeddedMember"}, "1459000000", date(2023, 4, 2), date(2023, 7, 1)),
            # two members of one meaning, each printed under the name: no shuffle (figures made up for the shape)
            (chips, "acc-chips", "International", {GEO: "us-gaap:NonUsMember"}, "3000000000", date(2023, 4, 2), date(2023, 7, 1)),
            (chips, "acc-chips", "International", {GEO: "x:InternationalMember"}, "3000000000", date(2023, 4, 2),
             date(2023, 7, 1)),
        ]
        for n, (cik, acc, label, dims, value, start, end) in enumerate(rows):
            conn.execute("INSERT INTO line_labels (accession, cik, taxonomy, concept, label, statement, table_no, row_no,"
                         " negated, dims) VALUES (%s, %s, 'us-gaap', 'Revenues', %s, 'other', 1, %s, false, %s)",
                         (acc, cik, label, n, Jsonb(dims)))
            conn.execute(
                "INSERT INTO facts (cik, accession, taxonomy, concept, unit, value, period_start, period_end, fiscal_year,"
                " fy, fp, form, filed, source, fact_key, dimensional, dims) VALUES (%s, %s, 'us-gaap', 'Revenues', 'USD',"
                " %s, %s, %s, 2023, 2023, %s, %s, %s, 'ixbrl', %s, true, %s)",
                (cik, acc, value, start, end, "FY" if cik == cable else "Q2", "10-K" if cik == cable else "10-Q",
                 date(2024, 1, 30), f"t{n}", Jsonb(dims)))
    return db


def test_a_corporate_columns_row_is_no_name_of_the_segment_beside_it(tagged_db):
    from store.segments import member_labels

    with tagged_db.connection() as conn:
        labels = member_labels(conn, 1166691)
    assert "Headquarters and Other" not in labels.get("cmcsa:ContentAndExperiencesMember", set())
    assert "Content & Experiences" in labels["cmcsa:ContentAndExperiencesMember"]


def test_a_row_printed_under_another_members_name_is_no_figure_of_its_tag(tagged_db):
    from store.quarters import member_period_facts
    from store.segments import mistagged

    with tagged_db.connection() as conn:
        wrong = mistagged(conn, 2488)
        assert wrong == {("acc-chips", SEGMENT, m) for m in ("amd:ClientMember", "amd:GamingMember", "amd:DataCenterMember")}
        # (us-gaap:NonUsMember printed "International" is no shuffle: x:InternationalMember is printed as itself)
        # the Client row's $998 million is never "gaming revenue"; a member printed under its own name stays
        assert member_period_facts(conn, 2488, ["us-gaap:Revenues"], SEGMENT, "amd:GamingMember") == []
        embedded = member_period_facts(conn, 2488, ["us-gaap:Revenues"], SEGMENT, "amd:EmbeddedMember")
        assert [f.value for f in embedded] == [Decimal("1459000000")]
        assert embedded[0].dims == {SEGMENT: "amd:EmbeddedMember"}  # the answer's figure says which member it is
        assert mistagged(conn, 1166691) == set()


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC, {1045810: [2024, 2025], 320193: [2023, 2024]})


def test_a_reply_naming_a_row_after_a_quarter_keeps_the_quarter(directory):
    first = plan_rules("nvidia revenue q1 fy2024", directory=directory)
    assert first.period and first.period["quarter"] == 1
    reply = plan_rules("and data center?", previous=first, directory=directory)
    assert reply.probe and reply.probe_period and reply.probe_period["quarter"] == 1
    assert reply.probe_period["fiscal_year"] == 2024
    assert reply.probe == ["dim:revenue|data center"]  # the thread's figure narrowed to the member, for that quarter
    # after a year's figure the reply stays the year's
    year = plan_rules("nvidia revenue fiscal 2024", directory=directory)
    assert not plan_rules("and data center?", previous=year, directory=directory).probe_period


def test_a_quarters_figure_read_as_prose_searches_that_quarters_10q_never_the_years_10k(directory):
    plan = plan_rules("how much revenue did gaming bring in for nvidia in Q2 FY2024", directory=directory)
    assert plan.intent == "qualitative"
    assert plan.period and plan.period["kind"] == "quarter" and plan.period["quarter"] == 2
    assert plan.items and all(i.startswith(("I-", "II-")) for i in plan.items)  # the 10-Q's Items
    assert plan.probe_period == plan.period  # a row the probe names is that quarter's


def test_a_reply_naming_a_member_and_a_quarter_is_the_members_figure_of_the_threads_year(directory):
    year = plan_rules("nvidia revenue fiscal 2024", directory=directory)
    reply = plan_rules("and data center in q2?", previous=year, directory=directory)
    assert reply.probe == ["dim:revenue|data center"]  # never a member named "data center in q2"
    assert reply.period and reply.period["quarter"] == 2 and reply.period["fiscal_year"] == 2024
    assert not reply.period.get("latest")


def test_a_members_names_are_its_own_rows_never_the_lines_printed_in_its_column():
    """A table by segment (rows are the members) names them; a table whose columns are the segments prints line
    names beside each column, and a table of one member prints its lines: neither is a name of the member."""
    from store.segments import _naming_rows

    consumer, business = "vz:ConsumerSegmentMember", "vz:BusinessSegmentMember"
    found = [  # (accession, table, label, dims): labels written for the test
        ("a", 1, "Consumer", {SEGMENT: consumer}), ("a", 1, "Business", {SEGMENT: business}),
        ("a", 2, "Cost of services", {SEGMENT: consumer}), ("a", 2, "Cost of services", {SEGMENT: business}),
        ("a", 2, "Operating income", {SEGMENT: consumer}), ("a", 2, "Operating income", {SEGMENT: business}),
        ("a", 2, "Selling expense", {SEGMENT: consumer}),
        ("a", 3, "Cost of equipment", {SEGMENT: consumer}), ("a", 3, "Consumer total", {SEGMENT: consumer}),
    ]
    named = set(_naming_rows(found))
    assert ("Consumer", consumer) in named and ("Business", business) in named
    assert ("Consumer total", consumer) in named  # its own table's row holding its name
    assert not {label for label, _ in named} & {"Cost of services", "Operating income", "Selling expense",
                                                "Cost of equipment"}
