"""Members the year's one-axis facts do not hold: a segment only a 10-Q tags (no 10-K of the company is held),
a product tagged only inside its portfolio and segment, and a member asked "worldwide" or "global".

Real figures (USD millions) are typed in as facts: Honeywell's second quarter of 2023 from its 10-Q,
Johnson & Johnson's fiscal 2024 product sales from its 10-K.
"""

from __future__ import annotations

import uuid
from datetime import date
from decimal import Decimal

import pytest

from agent.answer import Turn
from agent.retrieval.segments import find_member
from tests.test_facts import company, fact, filing

M = 1_000_000
HON, HQ2 = 773840, "0000773840-23-000073"
SEGMENT = "us-gaap:StatementBusinessSegmentsAxis"
PRODUCT = "srt:ProductOrServiceAxis"
MARK = {"srt:ConsolidationItemsAxis": "us-gaap:OperatingSegmentsMember"}


def _q2(conn, value, dims=None, start=date(2023, 4, 1)):
    fact(conn, HON, HQ2, "RevenueFromContractWithCustomerExcludingAssessedTax", str(value * M), date(2023, 6, 30),
         start, fiscal_year=2023, fy=2023, form="10-Q", fp="Q2", filed=date(2023, 7, 27), dims=dims)


@pytest.fixture
def honeywell(db):
    with db.connection() as conn:
        company(conn, HON, "Honeywell International Inc", ["HON"], "1231")
        filing(conn, HON, HQ2, 2023, date(2023, 6, 30), date(2023, 7, 27), form="10-Q")
        _q2(conn, 9146)
        _q2(conn, 18008, start=date(2023, 1, 1))
        _q2(conn, 3341, {**MARK, SEGMENT: "hon:AerospaceMember"})
        _q2(conn, 1510, {**MARK, SEGMENT: "hon:HoneywellBuildingTechnologiesMember"})
        _q2(conn, 2705, {PRODUCT: "us-gaap:ServiceMember"})
        _q2(conn, 6441, {PRODUCT: "us-gaap:ProductMember"})
    return db


def _footnote(db, embedder):
    from bot.settings import Settings
    from bot.wiring import build_footnote

    return build_footnote(db, embedder, Settings(llm="off"), use_cache=False)


def ask(footnote, text):
    return footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u", text=text))


def _values(answer) -> set[Decimal]:
    return {Decimal(n.value) for n in answer.numbers}


def test_a_segments_quarter_is_read_from_the_10q_when_no_10k_names_its_members(honeywell, embedder):
    footnote = _footnote(honeywell, embedder)
    for said in ("Honeywell aerospace sales Q2 2023", "HON Aerospace revenue three months ended June 30, 2023"):
        answer = ask(footnote, said)
        assert _values(answer) == {3341 * M}, answer.text  # the segment's three months: never the total
        assert "Aerospace" in answer.text
    services = ask(footnote, "honeywell services revenue q2 2023")
    assert _values(services) == {2705 * M}, services.text


def test_a_member_no_10q_tags_is_refused_never_the_total(honeywell, embedder):
    answer = ask(_footnote(honeywell, embedder), "Honeywell safety and productivity solutions sales Q2 2023")
    assert answer.kind == "refusal" and not answer.numbers, answer.text


JNJ, K24 = 200406, "0000200406-25-000038"
FY24 = (date(2024, 12, 29), date(2024, 1, 1))
CHAIN = {PRODUCT: "jnj:StelaraMember", SEGMENT: "jnj:InnovativeMedicineMember",
         "jnj:TherapeuticAreaAxis": "jnj:ImmunologyMember"}


@pytest.fixture
def jnj(db):
    with db.connection() as conn:
        company(conn, JNJ, "Johnson & Johnson", ["JNJ"], "1229")
        filing(conn, JNJ, K24, 2024, FY24[0], date(2025, 2, 13))

        def sales(value, dims=None):
            fact(conn, JNJ, K24, "RevenueFromContractWithCustomerExcludingAssessedTax", str(value * M), *FY24,
                 fiscal_year=2024, fy=2024, filed=date(2025, 2, 13), dims=dims)

        sales(88821)
        sales(56964, {SEGMENT: "jnj:InnovativeMedicineMember"})
        sales(31857, {SEGMENT: "jnj:MedTechMember"})
        sales(10361, CHAIN)  # the product's every-region figure, within its portfolio and segment
        sales(6720, {**CHAIN, "srt:StatementGeographicalAxis": "country:US"})
        sales(17828, {SEGMENT: "jnj:InnovativeMedicineMember", "jnj:TherapeuticAreaAxis": "jnj:ImmunologyMember"})
        # a product tagged only inside one country: that country's part, never the product's whole
        sales(402, {PRODUCT: "jnj:ErledaMember", "srt:StatementGeographicalAxis": "country:US",
                    SEGMENT: "jnj:InnovativeMedicineMember"})
    return db


def test_a_product_tagged_only_inside_its_portfolio_and_segment_is_its_own_figure(jnj, embedder):
    footnote = _footnote(jnj, embedder)
    for said in ("jnj stelara sales 2024", "Johnson & Johnson Stelara worldwide revenue fiscal 2024"):
        answer = ask(footnote, said)
        assert _values(answer) == {10361 * M}, answer.text  # never the U.S. cell, never the segment
    immunology = ask(footnote, "jnj immunology sales 2024")
    assert _values(immunology) == {17828 * M}, immunology.text
    one_country = ask(footnote, "jnj erleda sales 2024")
    assert one_country.kind == "refusal" and not one_country.numbers, one_country.text


def test_worldwide_and_global_are_no_part_of_a_members_name_unless_it_prints_them():
    members = [(PRODUCT, "bmy:EliquisMember"), (SEGMENT, "ba:GlobalServicesMember"), (PRODUCT, "us-gaap:ServiceMember")]
    assert find_member("global eliquis", members, {}) == ([members[0]], True)
    assert find_member("eliquis worldwide", members, {}) == ([members[0]], True)
    assert find_member("global services", members, {}) == ([members[1]], True)  # the name holds the word
    assert find_member("worldwide", members, {})[0] == []  # the word alone names nothing
