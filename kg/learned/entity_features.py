"""What the entity scorer knows of each entity a Doc names: its mentions
grouped as the record groups them (one entity per name up to case and a
plural), and features read from the rules that found it, the tagger's
agreement, its shape, its place and the words around it."""

from __future__ import annotations

from dataclasses import dataclass, field

from spacy.tokens import Doc

from kg.entities.entity import Entity, fold_name, settled_entities
from kg.nlp.tokens import doc_text, sentence_starts_of, token_view

# doc.user_data key of the other part's text, lower case: an abstract's title, a title's abstract.
OTHER_TEXT = "kg_other_text"
# Words that, right before a mention, tell a paper's own proposal.
_OWN_CUES = frozenset({"our", "propose", "proposed", "present", "introduce", "introduces", "called", "named",
                       "dubbed", "termed", "novel", "new", "we"})


@dataclass
class Group:
    """One entity of a Doc: its mentions (settled spans) under one key."""

    label: str
    key: str
    name: str
    mentions: list[Entity] = field(default_factory=list)


def entity_groups(doc: Doc) -> list[Group]:
    """The settled entities of `doc` grouped by type and folded name (the
    gazetteer's name where it has one), in order of first mention."""
    groups: dict[tuple[str, str], Group] = {}
    text = doc_text(doc)
    for e in settled_entities(doc):
        name = e.name or text[e.start_char:e.end_char]
        key = fold_name(e.canonical or name)
        groups.setdefault((e.label, key), Group(e.label, key, name)).mentions.append(e)
    return list(groups.values())


def _shape(name: str) -> str:
    if any(c.isdigit() for c in name):
        return "digit"
    if name.isupper() and len(name) > 1:
        return "caps"
    if name.islower():
        return "lower"
    words = name.split()
    if all(w[:1].isupper() for w in words if w[:1].isalpha()):
        return "title" if len(words) > 1 else "capitalised"
    if any(c.isupper() for c in name[1:]):
        return "mixed"
    return "other"


def _bucket(n: int, top: int) -> str:
    return str(n) if n < top else f"{top}+"


def group_features(group: Group, doc: Doc, in_title: bool = False,
                   tagged: list[tuple[int, int, str]] | None = None) -> dict[str, float]:
    """The features of one entity of `doc`; `in_title`: the Doc is a title;
    `tagged`: the tagger's names as (start, end, label), read from doc.ents
    when not given (a caller with many entities reads them once)."""
    v = token_view(doc)
    label = group.label
    first = group.mentions[0]
    words = group.name.split()
    f: dict[str, float] = {"bias|" + label: 1.0, "shape=" + _shape(group.name) + "|" + label: 1.0,
                           "words=" + _bucket(len(words), 5) + "|" + label: 1.0,
                           "mentions=" + _bucket(len(group.mentions), 4) + "|" + label: 1.0,
                           "head=" + words[-1].lower() + "|" + label: 1.0 if words else 0.0,
                           "first=" + words[0].lower() + "|" + label: 1.0 if words else 0.0}
    if in_title:
        f["title|" + label] = 1.0
        f["title_shape=" + _shape(group.name) + "|" + label] = 1.0
    for m in group.mentions:
        f["source=" + str(m.source) + "|" + label] = 1.0
        if m.aliases:
            f["has_alias|" + label] = 1.0
        if m.proposed:
            f["proposed_by_rules|" + label] = 1.0
        if m.canonical:
            f["gazetteer_name|" + label] = 1.0
    learned = _tagger_labels(group, [(e.start, e.end, e.label_) for e in doc.ents] if tagged is None else tagged)
    for other in learned:
        f["tagger=" + other + "|" + label] = 1.0
    if not learned:
        f["tagger=none|" + label] = 1.0
    starts = sentence_starts_of(doc)
    sentence = sum(1 for s in starts if s <= first.start) - 1
    f["sentence=" + ("last" if sentence == len(starts) - 1 and sentence > 0 else _bucket(sentence, 3))
      + "|" + label] = 1.0
    before = v[first.start - 1].lower_ if first.start > 0 else "<s>"
    after = v[first.end].lower_ if first.end < len(v) else "</s>"
    f["before=" + before + "|" + label] = 1.0
    f["after=" + after + "|" + label] = 1.0
    for m in group.mentions:
        near = {v[k].lower_ for k in range(max(0, m.start - 3), m.start)}
        for cue in near & _OWN_CUES:
            f["own_cue=" + cue + "|" + label] = 1.0
        for k in range(max(0, m.start - 3), min(len(v), m.end + 3)):
            if (k < m.start or k >= m.end) and not v[k].is_space:
                f["near=" + v[k].lower_ + "|" + label] = 1.0
    for word in words:
        f["word=" + word.lower() + "|" + label] = 1.0
    if words:
        f["suffix=" + words[-1][-3:].lower() + "|" + label] = 1.0
    other = doc.user_data.get(OTHER_TEXT)
    if other is not None:
        f[("also_in_abstract" if in_title else "also_in_title") + "=" + str(group.name.lower() in other) + "|"
          + label] = 1.0
    if in_title:
        if first.start == 0:
            f["title_start|" + label] = 1.0
        if first.end < len(v) and v[first.end].text in (":", "-", "\u2013", "\u2014"):
            f["before_colon|" + label] = 1.0
    return f


def _tagger_labels(group: Group, tagged: list[tuple[int, int, str]]) -> set[str]:
    """The labels the learned tagger gave to spans overlapping the group's
    mentions; "~" marks one that overlaps without the same bounds."""
    labels = set()
    for start, end, label in tagged:
        for m in group.mentions:
            if start < m.end and m.start < end:
                labels.add(label if (start, end) == (m.start, m.end) else label + "~")
    return labels
