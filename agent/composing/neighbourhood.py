"""What a chunk's sentence sits under: the heading of its part of the section, or the sentence that
introduces the list it is an item of.

Why: MD&A tells each segment under its own heading ("Client", "Networking") and then speaks of it
without naming it ("Revenue declined in both campus switching and data center switching, primarily
driven by ..."); it explains a change with a list introduced by the change ("Gross margin decreased
190 basis points ... due to the following:" then "•Lower ASP (decreasing gross margin approximately
180 basis points), primarily due to higher discounts"). Read alone, such a sentence names nothing
asked and is far in meaning from the question; read under its heading or lead-in, it is the answer,
and a sentence under another segment's heading that shares the question's words is the neighbour.
"""

from __future__ import annotations

import re

HEADING_WORDS = 8  # a line longer than this without a closing stop is a broken sentence, not a heading
LEAD_WORDS = 12  # the opening of a lead-in that is read with each item: its subject and its change
_BULLET = re.compile(r"^[•▪●◦‣·\-–—*]\s*")
_HEADING = re.compile(r"^[A-Z][\w’'&,/()\- ]*$")
_LEAD_ENDS = re.compile(r":\s*$")


def is_heading(piece: str) -> bool:
    """A short line opening with a capital, with no stop at all: "Client", "Gross Margin", "GREATER
    CHINA". Not a table row, not a list item, not a page header ("2025 FORM 10-K 34", "CISCO
    SYSTEMS, INC.")."""
    return 0 < len(piece.split()) <= HEADING_WORDS and bool(_HEADING.match(piece)) and not _BULLET.match(piece)


def headings(pieces: list[str]) -> dict[int, str]:
    """By position in `pieces` (a chunk's split sentences), the headings above the sentence there,
    outermost first: a segment's name and the years it compares ("Networking Fiscal 2024 Compared
    with Fiscal 2023"). A heading itself, and a sentence before any, has none."""
    out: dict[int, str] = {}
    path: list[str] = []
    after_heading = False
    for k, piece in enumerate(pieces):
        if is_heading(piece):
            # a heading right under another is a level below it; one after text replaces the last level
            path = [*path, piece] if after_heading or not path else [*path[:-1], piece]
            after_heading = True
            continue
        after_heading = False
        if path:
            out[k] = " ".join(path)
    return out


def leads(pieces: list[str], whole: bool = False) -> dict[int, str]:
    """By position, the opening words of the sentence that introduces the list the item there belongs
    to ("Gross margin decreased 190 basis points ... due to the following:"); all of it, if `whole`."""
    out: dict[int, str] = {}
    lead = ""
    for k, piece in enumerate(pieces):
        if _BULLET.match(piece):
            if lead:
                out[k] = lead
        elif is_heading(piece):
            lead = ""
        else:
            lead = (piece if whole else " ".join(piece.split()[:LEAD_WORDS])) if _LEAD_ENDS.search(piece) else ""
    return out


def lead_positions(pieces: list[str]) -> dict[int, int]:
    """By position of a list item, the position of the sentence introducing its list (see `leads`)."""
    out: dict[int, int] = {}
    lead = None
    for k, piece in enumerate(pieces):
        if _BULLET.match(piece):
            if lead is not None:
                out[k] = lead
        else:
            lead = k if not is_heading(piece) and _LEAD_ENDS.search(piece) else None
    return out


def context(pieces: list[str]) -> dict[int, str]:
    """By position, what the sentence there is read under: the lead-in of its list, else its headings."""
    return {**headings(pieces), **leads(pieces)}


CARRY_ON = 2  # sentences read past a quoted one: a statement's cause, and the second cause it adds


def carried_on(pieces: list[str], position: int, goes_on, paragraph: list[int] | None = None) -> list[int]:
    """The positions right after `position` in `pieces` (a chunk's split sentences) that each carry on the
    sentence before them (`goes_on(previous, sentence)`) or sit in its paragraph (`paragraph`: each piece's, from
    `paragraphs`), at most CARRY_ON, stopping at a heading or a list item. Why: the sentences that follow a
    statement in its paragraph, or point back to it, are the rest of it."""
    out = []
    for k in range(position + 1, min(len(pieces), position + 1 + CARRY_ON)):
        if is_heading(pieces[k]) or _BULLET.match(pieces[k]):
            break
        if not (goes_on(pieces[k - 1], pieces[k]) or (paragraph and paragraph[k] == paragraph[k - 1])):
            break
        out.append(k)
    return out


def paragraphs(lines: list[list[str]]) -> list[int]:
    """Each piece's paragraph number, given the pieces of each line of a chunk in order (a line break ends a
    paragraph in chunk text: split_sentences never joins two lines)."""
    return [n for n, pieces in enumerate(lines) for _ in pieces]
