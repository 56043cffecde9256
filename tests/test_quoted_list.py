"""How an answer lays out the sentences it quotes from several companies' filings."""

import re

from agent.checking.cite_check import _quoted_list


def test_each_quoted_line_is_the_filing_s_sentence_alone_under_its_company():
    lines = [("ZZZ", "Demand for garden tools rose. [5]"), ("YYY", "Freight costs fell by a third. [6]"),
             ("ZZZ", "Store traffic recovered in the spring. [5]")]
    text = _quoted_list(lines, several=True)
    bullets = [b for b in text.splitlines() if b.startswith("- ")]
    # a line's words up to its markers are the quoted sentence itself, never "ZZZ: <sentence>"
    assert [re.sub(r" \[\d+\]$", "", b[2:]) for b in bullets] == [
        "Demand for garden tools rose.", "Store traffic recovered in the spring.", "Freight costs fell by a third."]
    # each company's quotes together, under its ticker, in the order the companies first appear
    assert text.index("ZZZ:") < text.index("Store traffic") < text.index("YYY:") < text.index("Freight")


def test_one_company_s_quotes_are_a_plain_list():
    assert _quoted_list([("ZZZ", "Demand rose. [1]")], several=False) == "- Demand rose. [1]"
