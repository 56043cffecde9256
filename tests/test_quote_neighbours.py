"""What is quoted beside the sentence that answers: the statement a cause points back to (its amounts cut when
no fact backs them), the lead-in of the list an item belongs to, and both of two lines told in one template.
The sentences are ours, written in the manner of MD&A and a business description."""

from __future__ import annotations

from agent.composing import sentence_rank
from agent.composing.compose import compose_extractive
from agent.composing.draft import Evidence
from agent.planning.plan import Plan


def _chunk(n: int, item: str, text: str) -> Evidence:
    return Evidence(id=f"c:{n}", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u",
                    item=item, text=text)


def test_a_cause_weighed_by_any_adverb_points_back():
    assert sentence_rank.points_back("The increase was mostly due to higher headcount in engineering.")
    assert sentence_rank.points_back("The increase was almost entirely driven by subscription revenue.")
    assert sentence_rank.points_back("The decrease was primarily due to lower kiosk volume.")
    assert not sentence_rank.points_back("This was partially offset by lower freight costs.")
    assert not sentence_rank.points_back("It is possible that kiosk volume declines.")


def test_whats_behind_asks_for_a_cause():
    assert sentence_rank.ASK_CAUSE.search("zzz kiosk revenue up 20% - what's behind it")
    assert sentence_rank.ASK_CAUSE.search("how come zzz's margins fell")
    assert not sentence_rank.ASK_CAUSE.search("what does zzz sell")


def test_two_lines_told_in_one_template_are_two_statements():
    expense = ("Interest expense was $925 million, an increase of $169 million versus the prior year due primarily "
               "to higher interest rates.")
    income = ("Interest income was $473 million, an increase of $166 million versus the prior year due primarily "
              "to higher interest rates.")
    assert not sentence_rank.near_duplicate(expense, income)
    # one line told twice with other amounts (a region's and the total's) stays one statement
    assert sentence_rank.near_duplicate("Kiosk direct revenues decreased 12% due to declines in online sales of 22%.",
                                        "Kiosk direct revenues decreased 3% due to declines in online sales of 9%.")
    # and a line beside the cost of that line is one of the two asked, not both
    assert sentence_rank.near_duplicate(
        "Cost of kiosk service revenue increased $2.1 million, or 40%, primarily due to more kiosk visits.",
        "Kiosk service revenue increased $3.4 million, or 61%, primarily due to more kiosk visits.")


def test_a_cause_is_quoted_under_the_statement_it_explains_its_amounts_cut(embedder):
    chunks = [_chunk(1, "7", "Kiosk Services\n"
                             "Kiosk services net revenue of $6.5 billion in 2024 increased by 7%, compared to net revenue "
                             "of $6.0 billion in 2023.\n"
                             "The increase was primarily driven by higher sales of self-service kiosks to grocery chains.\n"
                             "Kiosk services operating income was $1.3 billion in 2024, compared to $1.8 billion in 2023.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=["7"],
                query="kiosk services revenue why up")
    quoted = [c.text for c in compose_extractive("zzz kiosk services revenue 2024 why up", plan, chunks,
                                                 embedder=embedder).claims]
    assert any(q.startswith("The increase was primarily driven by higher sales") for q in quoted)
    # the statement it explains: the line and how it moved, its amounts (no fact backs them) cut
    assert "Kiosk services net revenue of … in 2024 increased by 7%, compared to net revenue of … in 2023." in quoted


def test_a_lists_item_is_read_under_its_lead_in(embedder):
    chunks = [_chunk(1, "1", "COMPETITION\n"
                             "The kiosk industry is highly competitive worldwide.\n"
                             "We hold patents on several of our kiosk designs.\n"
                             "Important aspects of competition in this industry are:\n"
                             "•Product attributes such as durability, screen quality and ease of repair.\n"
                             "•Service coverage, with technicians reaching most stores within a day.\n"
                             "We believe we are competitive in all of these areas.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=["1"],
                query="what are the important aspects of competition for")
    quoted = [c.text for c in compose_extractive("what are the important aspects of competition for zzz", plan,
                                                 chunks, embedder=embedder).claims]
    assert "Important aspects of competition in this industry are:" in quoted
    assert any(q.startswith(("Product attributes such as durability", "Service coverage")) for q in quoted)


def test_a_lead_in_stating_only_rates_is_quoted_as_written(embedder):
    lead = ("Gross margin decreased 190 basis points to 42.7% for fiscal 2024 compared to 44.6% for fiscal 2023 "
            "due to the following:")
    chunks = [_chunk(1, "7", f"{lead}\n"
                             "•Lower kiosk prices (decreasing gross margin approximately 180 basis points), primarily due "
                             "to higher discounts;\n"
                             "•Higher other costs (decreasing gross margin approximately 90 basis points), including "
                             "higher inventory reserves.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=["7"],
                query="gross margin down why")
    quoted = [c.text for c in compose_extractive("zzz gross margin fy24 down 190bps why", plan, chunks,
                                                 embedder=embedder).claims]
    assert lead in quoted  # its rates are the filing's words, as in any quoted sentence: nothing to cut


def test_a_cause_told_with_four_amounts_is_quoted_with_them_cut():
    from agent.composing.compose import _elided

    said = ("Net services sales increased $3.0 billion in 2024 compared to 2023, primarily due to increases in kiosk "
            "repair sales of $1.7 billion at Alpha, $0.8 billion at Beta, and $0.6 billion at Gamma.")
    assert _elided(said) == ("Net services sales increased … in 2024 compared to 2023, primarily due to increases in "
                             "kiosk repair sales of … at Alpha, … at Beta, and … at Gamma.")
    # four sizes with no cause say nothing once cut
    assert _elided("Sales were $4.1 billion at Alpha, $2.2 billion at Beta, $1.3 billion at Gamma and $0.9 billion "
                   "at Delta.") is None


def test_of_two_near_duplicates_the_one_with_fewer_amounts_cut_is_quoted():
    from agent.composing.compose import _choose

    chunks = [_chunk(1, "7", "x"), _chunk(2, "7", "y")]
    overview = ("Kiosk loss from operations was $1.2 billion in 2024 compared with $0.4 billion in 2023 reflecting "
                "reach-forward losses of $0.5 billion on the K7 and K9 kiosk programs and lower deliveries.")
    section = ("Kiosk loss from operations increased by $0.8 billion in 2024 compared with 2023 reflecting "
               "reach-forward losses on the K7 and K9 kiosk programs and lower deliveries.")
    cut = ("Kiosk loss from operations was … in 2024 compared with … in 2023 reflecting reach-forward losses of … on "
           "the K7 and K9 kiosk programs and lower deliveries.")
    assert sentence_rank.near_duplicate(overview, section)
    picked = _choose(chunks, [(0, 3, cut, overview), (1, 5, section, section)])
    assert [s for _, s, _ in picked] == [section]  # its amounts are facts, shown: it says more than the other
    # ranked the other way round, the first is kept as before
    assert [s for _, s, _ in _choose(chunks, [(1, 5, section, section), (0, 3, cut, overview)])] == [section]
