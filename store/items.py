"""The Items of a 10-K and of a 10-Q, and which Item of one form holds what the other's does.

A 10-Q numbers its Items within two Parts, and the numbers collide with each other and with a
10-K's: Part I Item 2 is MD&A, Part II Item 2 is share repurchases, and a 10-K's Item 2 is
Properties. So a 10-Q's Items are stored with their Part in the key ('I-2', 'II-1A'), which no
10-K Item can be mistaken for, and a question's topic reaches the right Item of either form
through `item_for` (or `quarterly_item` from the 10-K Item a planner already names).
"""

from __future__ import annotations

# The 10-Q Items Footnote reads, in document order.
QUARTERLY_ITEMS = ("I-1", "I-2", "I-3", "I-4", "II-1", "II-1A", "II-5")

QUARTERLY_TITLES = {
    "I-1": "Financial Statements",
    "I-2": "Management's Discussion and Analysis",
    "I-3": "Quantitative and Qualitative Disclosures About Market Risk",
    "I-4": "Controls and Procedures",
    "II-1": "Legal Proceedings",
    "II-1A": "Risk Factors",
    "II-2": "Unregistered Sales of Equity Securities and Use of Proceeds",
    "II-3": "Defaults Upon Senior Securities",
    "II-4": "Mine Safety Disclosures",
    "II-5": "Other Information",
    "II-6": "Exhibits",
}

# topic -> {form family -> Item}. A topic a form does not have is absent (a 10-Q has no Item 1
# Business and no cybersecurity Item).
TOPIC_ITEMS = {
    "business": {"10-K": "1"},
    "risk_factors": {"10-K": "1A", "10-Q": "II-1A"},
    "cybersecurity": {"10-K": "1C"},
    "legal_proceedings": {"10-K": "3", "10-Q": "II-1"},
    "mdna": {"10-K": "7", "10-Q": "I-2"},
    "market_risk": {"10-K": "7A", "10-Q": "I-3"},
    "financial_statements": {"10-K": "8", "10-Q": "I-1"},
    "controls": {"10-K": "9A", "10-Q": "I-4"},
    "other_information": {"10-K": "9B", "10-Q": "II-5"},
}

_ANNUAL_TO_QUARTERLY = {forms["10-K"]: forms["10-Q"] for forms in TOPIC_ITEMS.values() if len(forms) == 2}
_QUARTERLY_TO_ANNUAL = {q: a for a, q in _ANNUAL_TO_QUARTERLY.items()}


def form_family(form: str) -> str:
    """'10-K' for 10-K, 10-K/A, 10-KT...; '10-Q' for 10-Q and 10-Q/A."""
    return "10-Q" if form.upper().startswith("10-Q") else "10-K"


def item_for(topic: str, form: str) -> str | None:
    """The Item holding `topic` ('mdna', 'risk_factors', ...) in a filing of `form`, or None."""
    return TOPIC_ITEMS.get(topic, {}).get(form_family(form))


def quarterly_item(annual_item: str) -> str | None:
    """The 10-Q Item that holds what 10-K Item `annual_item` holds: '7' -> 'I-2', '1A' -> 'II-1A'."""
    return _ANNUAL_TO_QUARTERLY.get(annual_item.upper())


def annual_item(quarterly: str) -> str | None:
    """The 10-K Item that holds what a 10-Q Item holds: 'II-1A' -> '1A'."""
    return _QUARTERLY_TO_ANNUAL.get(quarterly.upper())


def is_quarterly_item(item: str) -> bool:
    return "-" in item


def item_label(item: str) -> str:
    """How a filing names the Item: '7' -> 'Item 7', 'II-1A' -> 'Part II, Item 1A'."""
    if is_quarterly_item(item):
        part, number = item.split("-", 1)
        return f"Part {part}, Item {number}"
    return f"Item {item}"
