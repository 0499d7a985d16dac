"""Which proposal is the paper's main one: the proposed Method the text
names most often, the first of those on a tie (a part or a variant
introduced before the system is named less), one written as a name ("Titans",
"DEZ") before a phrase in lower case ("hidden state"). The entity component
keeps it as doc._.proposed_name; the relation rules take it as the subject of
"our method" and "we".
"""

from __future__ import annotations

import re
from typing import Iterable, Protocol

from spacy.tokens import Doc


class Named(Protocol):
    """An entity mention as the relation rules see it (kg.relations.sentence.Mention)."""

    label: str
    name: str
    proposed: bool
    start: int
    end: int


def namings(proposals: Iterable[tuple[str, int, int]], text: str) -> dict[str, int]:
    """How often `text` names each proposal, given as (name, start char, end
    char) in order: a definition "Long Form (LF)" names it once."""
    counts: dict[str, int] = {}
    last_end: dict[str, int] = {}
    for name, start, end in proposals:
        if name not in last_end or text[last_end[name]:start].strip() not in ("", "("):
            counts[name] = counts.get(name, 0) + 1
        last_end[name] = end
    return counts


def most_named(counts: dict[str, int]) -> str | None:
    """The name counted most, preferring names to phrases in lower case; the first on a tie."""
    named = {name: n for name, n in counts.items() if not name.islower()}
    pool = named or counts
    return max(pool, key=pool.__getitem__) if pool else None


def main_proposal(mentions: list[Named], text: str, own_before_name: re.Pattern) -> str | None:
    """The paper's own method among `mentions`; where nothing is proposed by
    name, the first method the text calls its own ("our MambaOut model"),
    `own_before_name` being the words that do so (rule family relation_cues)."""
    counts = namings(((m.name, m.start, m.end) for m in mentions if m.label == "Method" and m.proposed), text)
    if counts:
        for m in mentions:
            # "the FooNet model" names FooNet too
            head = m.name.split(" ", 1)[0]
            if not m.proposed and head != m.name and head in counts:
                counts[head] += 1
        return most_named(counts)
    for m in mentions:
        if m.label == "Method" and own_before_name.search(text[max(0, m.start - 20):m.start]):
            return m.name
    return None


def title_only_name(doc: Doc) -> str | None:
    """The method the title names where the abstract never writes it
    ("FooNet: ..." over an abstract about "our network"): the paper's
    proposal when the abstract names none of its own."""
    name = doc._.title_name
    if name is None or name.label != "Method" or name.in_abstract:
        return None
    return name.text
