"""Company names as people say them, derived from SEC's registrant names."""

from __future__ import annotations

import pytest

from store.display_names import display_name


@pytest.mark.parametrize("registrant, shown", [
    ("WALMART INC.", "Walmart"),
    ("Apple Inc.", "Apple"),
    ("NVIDIA CORP", "Nvidia"),
    ("Tesla, Inc.", "Tesla"),
    ("WELLS FARGO & COMPANY/MN", "Wells Fargo"),
    ("WALT DISNEY CO/", "Walt Disney"),
    ("McDONALD’S CORPORATION", "McDonald’s"),
    ("THE J. M. SMUCKER COMPANY", "J. M. Smucker"),
    ("PROCTER & GAMBLE CO", "Procter & Gamble"),
    ("AMAZON.COM, INC.", "Amazon.com"),
    ("COLGATE-PALMOLIVE COMPANY", "Colgate-Palmolive"),
    ("AMC ENTERTAINMENT HOLDINGS,\u00a0INC.", "AMC Entertainment Holdings"),
    ("AT&T INC.", "AT&T"),
    ("3M COMPANY", "3M"),
    ("Johnson & Johnson", "Johnson & Johnson"),
    ("Rocket Companies, Inc.", "Rocket Companies"),
    ("AbbVie Inc.", "AbbVie"),
    ("Medtronic plc", "Medtronic"),
    ("Merck & Co., Inc.", "Merck"),
])  # fmt: skip
def test_display_name(registrant, shown):
    assert display_name(registrant) == shown


def test_an_empty_name_stays_empty():
    assert display_name("") == "" and display_name(None) == ""
