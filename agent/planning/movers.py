"""What moved a figure, asked in words that are not "why": a cause or a contribution told in prose.

Why a lexicon of verbs and not phrasings: "what pushed revenue up", "what weighed on margins",
"which costs dragged down earnings", "how much did the strike cost them" ask what MD&A explains,
but the word accounting sees a metric plus a word no line is named after and would look up a line
called "pushed revenue". A small set of verbs that move a figure, with the particles some of them
need, is matched on the verb's whole family (push, pushes, pushed, pushing), in the two forms that
ask for a cause: a subject question ("what / which X / who" + verb) and the size of an effect
("how much did <something that is not the company> hurt / cost ..."). Verbs of the figure's own
movement (grow, rise, fall, increase) stay out: "what increased more, revenue or costs?" asks for
figures.

The same holds for a line lookup whose leftover words are not a line's name at all: a share
"came from" something, a split ("price vs volume", "e-commerce or stores"), a change ("the drop in",
"the hit to"). No statement prints such a row; the filing states them in prose.
"""

from __future__ import annotations

import re

# Verbs that move a figure from outside it; irregular forms are listed with their stem.
_VERBS = ("push", "pull", "drag", "lift", "boost", "hurt", "help", "fuel", "offset", "squeeze", "dent", "erode",
          "hamper", "hit", "pressure", "depress", "dampen", "weaken", "bolster", "buoy", "propel", "spur", "cut",
          "reduce", "lower", "raise", "sink", "curb", "crimp", "trim", "shrink", "inflate", "pad", "power",
          "support", "benefit", "harm", "damage", "undercut", "cannibalize", "cannibalise")
_IRREGULAR = {"sink": ("sank", "sunk"), "shrink": ("shrank", "shrunk"), "hold": ("held",), "eat": ("ate", "eaten"),
              "weigh": (), "drive": ("drove", "driven")}
# Verbs that move a figure only with their particle ("weighed on", "held back", "ate into").
_WITH_PARTICLE = {"weigh": r"(?:on|down)", "hold": r"(?:back|down)", "eat": r"(?:into|away\s+at|up)",
                  "drive": r"(?:up|down)", "prop": r"up", "knock": r"(?:down|off)", "chip": r"away\s+at"}
_CONSONANTS = set("bcdfghjklmnpqrstvwxz")


def forms(stem: str) -> set[str]:
    """The family of a verb: 'drag' -> drag, drags, dragged, dragging."""
    out = {stem, *_IRREGULAR.get(stem, ())}
    out.add(stem + ("es" if stem.endswith(("s", "sh", "ch", "x", "z")) else "s"))
    if stem.endswith("e"):
        out |= {stem + "d", stem[:-1] + "ing"}
    else:
        short = len(stem) <= 4 and stem[-1] in _CONSONANTS and stem[-2] in "aeiou" and stem[-3:-2] not in ("a", "e", "i", "o", "u") \
            and stem[-1] not in "wxy"
        base = stem + stem[-1] if short else stem
        out |= {base + "ed", base + "ing"}
        if stem.endswith("y") and stem[-2] not in "aeiou":
            out.add(stem[:-1] + "ied")
    if stem in ("hurt", "hit", "cut", "offset", "undercut"):  # the past is the stem
        out -= {stem + "ed", stem + stem[-1] + "ed"}
        out.add(stem + stem[-1] + "ing")
    if stem.endswith("l"):
        out |= {stem + "led", stem + "ling"}  # "fuelled"
    return out


def _alternation(words: set[str]) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


MOVER_WORDS = frozenset(w for stem in _VERBS for w in forms(stem))
# The bare stem is often a noun after "what" ("what pressure", "what support"): only the forms that
# are verbs there, and the stems whose past is the stem ("what hurt", "what hit").
_AFTER_WHAT = MOVER_WORDS - (set(_VERBS) - {"hurt", "hit", "cut", "offset", "undercut"})
_PARTICLED = "|".join(f"(?:{_alternation(forms(v))})\\s+{p}" for v, p in _WITH_PARTICLE.items())
_MOVER = rf"(?:{_PARTICLED}|{_alternation(set(_AFTER_WHAT))})"
_ANY_MOVER = rf"(?:{_PARTICLED}|{_alternation(set(MOVER_WORDS))})"

# "what pushed ...", "what's been weighing on ...", "which costs dragged ...", "who was to blame for ..."
_AUX = r"(?:(?:'s|\s+has|\s+have|\s+had|\s+is|\s+are|\s+was|\s+were|\s+did)(?:\s+been)?)?"
MOVED = re.compile(
    rf"(?:^|[,;:.!?]\s*|\b(?:so|and|but)\s+)(?:what|which(?:\s+[\w-]+){{1,2}}?|who){_AUX}\s+(?:really\s+|most\s+|also\s+)?"
    rf"{_MOVER}\b"
    r"|\b(?:(?:was|were|is|are)\s+to\s+blame|(?:was|were|is|are)\s+responsible\s+for|what(?:'s|\s+is|\s+was|\s+were)"
    r"\s+behind)\b")
# "how much did the UAW strike cost GM", "how badly did foreign exchange hurt sales": an effect's size.
# Read on the text with company names masked, so "how much did Apple cut capex" is no cause.
EFFECT = re.compile(
    rf"\bhow\s+(?:much|badly|big|hard|far|many\s+\w+)\s+(?:did|does|do|has|have|had|will|would|could)\s+"
    rf"(?!(?:it|they|he|she|we|you|i|management|the\s+company)\b)[a-z0-9][\w&'-]*(?:\s+[a-z0-9][\w&'-]*){{0,5}}?\s+"
    rf"(?:{_ANY_MOVER}|cost|costs|costing)\b")


def asks_cause(low: str, masked_low: str) -> bool:
    """The question asks what moved a figure, or by how much something moved it. `masked_low`:
    the lowercase question with company names blanked out (agent.planning.reading.read)."""
    return bool(MOVED.search(low) or EFFECT.search(masked_low))


# A run of leftover words that is no row's name: a source ("came from"), a split between two
# things ("price vs volume"), a change ("the drop in", "the hit to"). A mover verb alone is not
# enough: "how much did Apple cut capex?" asks for the change of a line the company moved itself.
_SOURCE = frozenset("came come comes coming contributed contribute contributes contributing".split())
_CHANGE = frozenset("drop drops dip dips hit hits slump slumps surge surges jump jumps swing swings slowdown "
                    "boost boosts decline declines".split())
_SPLIT = frozenset("vs versus or".split())
_OF = frozenset("in to of on from".split())


def not_a_line(trace: list[dict], runs: list[tuple[int, int]], *, split_only: bool = False) -> bool:
    """True when the leftover words of a line lookup are not a line's name (see the module note).
    `split_only`: only a split ("price vs volume"), which is never one member's name either; a source
    or a change may still name a member ("what share of revenue came from Data Center")."""
    left = [] if split_only else [i for start, end in runs for i in range(start, end)]
    if any(trace[i]["word"] in _SOURCE for i in left):
        return True
    # a change of something the filing names ("the drop in Humira sales", "the hit to revenue from the
    # PC slowdown"); the change of the figure alone ("how much did revenue drop") is that figure's, and
    # "DROP TABLE" is no change
    changes = [i for i in left if trace[i]["word"] in _CHANGE and i + 1 < len(trace) and trace[i + 1]["word"] in _OF]
    if changes and any(trace[i]["word"] not in _CHANGE for i in left):
        return True
    if len(runs) >= 2:  # "price vs volume": two leftover runs with only a split word between them
        for (_, end), (start, _) in zip(runs, runs[1:]):
            between = [t["word"] for t in trace[end:start]]
            if between and all(w in _SPLIT or t["as"] == "filler" for w, t in zip(between, trace[end:start])) \
                    and any(w in _SPLIT for w in between):
                return True
    return False
