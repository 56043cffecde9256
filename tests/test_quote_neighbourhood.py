"""What a sentence sits under decides what it answers: MD&A names a segment once, in a heading, and
explains a change as a list introduced by the change. A why is answered by the sentence under the
asked line's heading or lead-in; a list item under another line's lead-in explains that line; what
offset a change is no cause of it; a section comparing two earlier years is last year's story."""

from __future__ import annotations

from agent.composing import neighbourhood, sentence_rank
from agent.composing.compose import compose_extractive
from agent.composing.draft import Evidence
from agent.planning.plan import Plan


def _chunk(n: int, item: str, text: str, year: int = 2024) -> Evidence:
    return Evidence(id=f"c:{n}", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=year, accession="a", url="u",
                    item=item, text=text)


def _plan(query: str, items=("7",)) -> Plan:
    return Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=list(items),
                query=query)


def test_headings_nest_and_a_heading_after_text_replaces_the_last_level():
    pieces = ["Appliances", "Fiscal 2024 Compared with Fiscal 2023", "Revenue fell on lower kettle sales.",
              "Fiscal 2023 Compared with Fiscal 2022", "Revenue grew on toaster sales.", "GARDEN TOOLS",
              "Revenue grew on mower sales."]
    above = neighbourhood.headings(pieces)
    assert above[2] == "Appliances Fiscal 2024 Compared with Fiscal 2023"
    assert above[4] == "Appliances Fiscal 2023 Compared with Fiscal 2022"
    assert above[6] == "Appliances GARDEN TOOLS"  # capitals are a heading too
    assert 0 not in above and 1 not in above  # a heading has none itself
    # page furniture and sentences are no headings
    assert not neighbourhood.is_heading("ZZZ HOLDINGS, INC.")
    assert not neighbourhood.is_heading("2024 FORM 10-K 41")
    assert not neighbourhood.is_heading("Revenue fell on lower kettle sales.")
    assert not neighbourhood.is_heading("• Lower kettle prices")


def test_a_list_item_is_read_under_its_lead_in_until_the_list_ends():
    pieces = ["Gross margin decreased 120 basis points due to the following:", "•Lower kettle prices;",
              "•Higher freight costs.", "Our outlook is unchanged.", "•An item of no list"]
    found = neighbourhood.leads(pieces)
    assert found[1] == found[2] and found[1].startswith("Gross margin decreased 120 basis points")
    assert 3 not in found and 4 not in found


def test_what_offset_a_change_is_no_cause_of_it():
    why = "why did kettle revenue decline?"
    assert sentence_rank.role(why, "This decrease was partially offset by higher toaster sales driven by pricing.") == 0
    assert sentence_rank.role(why, "Kettle revenue declined primarily due to lower prices, partially offset by "
                                   "higher volume.") > 0
    assert sentence_rank.own_statement("Revenue fell, partially offset by growth in Toasters, driven by pricing.") \
        == "Revenue fell"


def test_a_why_quotes_the_cause_under_the_asked_segments_heading(embedder):
    chunks = [_chunk(1, "7", "Toasters\n\nToaster revenue increased 4%.\n\nThe increase was driven by a new model.\n\n"
                             "Kettles\n\nKettle revenue decreased 9%.\n\n"
                             "Sales declined in both electric and stovetop lines, primarily driven by weak demand "
                             "from hotel chains.\n\nWe opened a new warehouse in Ohio.")]
    quoted = [c.text for c in compose_extractive("why did kettle revenue decline?", _plan("why did kettle revenue decline"),
                                                 chunks, embedder=embedder).claims]
    assert any("hotel chains" in q for q in quoted)
    assert not any("warehouse" in q for q in quoted)


def test_a_section_comparing_earlier_years_is_not_quoted(embedder):
    chunks = [_chunk(1, "7", "Kettles\n\nFiscal 2024 Compared with Fiscal 2023\n\n"
                             "Kettle revenue fell as hotel chains cut their orders.\n\n"
                             "Fiscal 2023 Compared with Fiscal 2022\n\n"
                             "Kettle revenue grew as hotel chains renovated their rooms.")]
    quoted = [c.text for c in compose_extractive("what happened to kettle revenue?", _plan("kettle revenue"),
                                                 chunks, embedder=embedder).claims]
    assert any("cut their orders" in q for q in quoted)
    assert not any("renovated" in q for q in quoted)


def test_an_item_of_another_lines_list_is_not_the_asked_lines_cause(embedder):
    chunks = [_chunk(1, "7", "Gross margin decreased 150 basis points for fiscal 2024 due to the following:\n\n"
                             "•Lower average selling prices of kettles (decreasing gross margin approximately 100 "
                             "basis points), primarily due to higher discounts;\n\n"
                             "•Higher freight costs (decreasing gross margin approximately 50 basis points).\n\n"
                             "EUROPE\n\nReported EBIT decreased 30% reflecting lower revenues and the following:\n\n"
                             "•Gross margin contraction of 200 basis points primarily due to unfavorable currency rates.\n\n"
                             "•Operating overhead expense decreased 4% primarily due to lower wages.")]
    quoted = [c.text for c in compose_extractive("why did gross margin drop?", _plan("why did gross margin drop"),
                                                 chunks, embedder=embedder).claims]
    assert any("higher discounts" in q for q in quoted) and any("freight" in q for q in quoted)
    assert not any("unfavorable currency" in q for q in quoted)  # Europe's EBIT story, not the company's margin


def test_a_line_asked_by_its_common_name_is_found_in_the_filings_words(embedder):
    lines = sentence_rank.line_names("why did zzz's revenue change?")
    assert sentence_rank.with_line_names("Kettle net sales increased.", lines) == "Kettle net sales (revenue) increased."
    assert sentence_rank.line_names("why did zzz's net sales change?") == []  # asked in the filing's words
    assert sentence_rank.with_line_names("We may not realize our sales potential.", lines) \
        == "We may not realize our sales potential."  # "sales" alone is any sale
    chunks = [_chunk(1, "7", "Kettle net sales increased during 2024 compared to 2023 due primarily to higher hotel "
                             "demand."),
              _chunk(2, "8", "Total revenue includes amounts recognized from deferred revenue balances.")]
    plan = _plan("why did revenue change", items=("7", "8"))
    quoted = [c.text for c in compose_extractive("why did zzz's revenue change?", plan, chunks, embedder=embedder).claims]
    assert any("hotel demand" in q for q in quoted)
    assert not any("deferred revenue" in q for q in quoted)


def test_a_heading_adds_to_the_shortlist_and_pushes_out_nothing():
    from agent.composing.compose import SHORTLIST, UNDER_EXTRA, _shortlist

    # eleven sentences naming kettle revenue, and one under the "Kettles" heading that does not
    own = [(0, k, f"Kettle revenue fell in region {k} as hotel chains cut orders.",
            f"Kettle revenue fell in region {k} as hotel chains cut orders.") for k in range(SHORTLIST + 1)]
    lifted = (1, 1, "Sales declined in both electric and stovetop lines.", "Sales declined in both electric and stovetop lines.")
    first = (1, 0, "Kettle revenue fell in the north as hotel chains cut orders.",
             "Kettle revenue fell in the north as hotel chains cut orders.")  # its chunk's best
    candidates = own + [first, lifted]
    terms = {"kettl", "revenu"}
    plain = _shortlist(candidates, terms)
    with_heading = _shortlist(candidates, terms, under={(1, 1): "Kettles"})
    assert lifted not in plain
    assert lifted in with_heading and set(plain) <= set(with_heading)
    assert len(with_heading) <= SHORTLIST + UNDER_EXTRA


def test_a_line_name_is_matched_word_for_word_and_not_as_a_ratios_base():
    # "operating income" asked: "net earnings" is not read as it, though both are an income
    assert [name for _, name in sentence_rank.line_names("what drove zzz's operating income?")] == ["operating income"]
    lines = sentence_rank.line_names("why did zzz's revenue change?")
    assert sentence_rank.with_line_names("SG&A as a percentage of net sales increased.", lines) \
        == "SG&A as a percentage of net sales increased."
    for base in ("segment net sales", "total segment net sales", "Kettle Co. net sales"):  # which sales, named between
        said = f"Operating expenses as a percentage of {base} increased."
        assert sentence_rank.with_line_names(said, lines) == said
