"""The relation component: a spaCy component (registered as "kg_relations")
that reads doc.spans["entities"] and writes doc._.kg_relations, the
relations between the entities of one sentence: evaluatedOn, addresses,
improvesOver, achieves. It walks the sentences of a document, finds the
paper's main proposal, and runs the rules of each relation on each sentence:
kg/extract/improvements.py (improvesOver), achievements.py (achieves),
evaluations.py (evaluatedOn), addresses.py (addresses); the subject of a
sentence is chosen in subjects.py.

Each relation comes from one sentence and is a dict as in
spec/extraction-record.md (s, p, o, metric, value, unit, dataset), plus
"span" (the sentence's character offsets), "confidence" (0..1) and, for a
gain the text calls absolute or relative, "gain".
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc

from kg.extract.achievements import find_achievements
from kg.extract.address_cues import address_cues
from kg.extract.addresses import find_addresses
from kg.extract.evaluations import evaluations_of_results, find_evaluations, peer_proposals
from kg.extract.found_relations import FoundRelations
from kg.extract.improvements import DIGIT, find_comparisons, find_improvements, place_gains, unplaced_gains
from kg.extract.metric_dataset import tested_datasets
from kg.extract.numbers import number_reader
from kg.extract.relation_cues import Cues, cues
from kg.extract.relation_sentence import Mention, Sentence, doc_mentions, sentence_view
from kg.extract.results import result_rules, result_setting
from kg.extract.subjects import written_proposal
from kg.nlp.tokens import doc_text, sentence_starts_of, view_columns


if not Doc.has_extension("kg_relations"):
    Doc.set_extension("kg_relations", default=None)


@Language.factory("kg_relations", default_config={"min_confidence": 0.0, "rules": []})
def make_relations(nlp: Language, name: str, min_confidence: float, rules: list[str]) -> "RelationFinder":
    """`rules`: the user's rules files (kg.rules), applied over the packaged cues."""
    return RelationFinder(min_confidence, rules)


class RelationFinder:
    """Finds the four relations sentence by sentence."""

    def __init__(self, min_confidence: float = 0.0, rules: Iterable[str] = ()):
        self.min_confidence = min_confidence
        self.cues = cues(rules)
        self.results = result_rules(rules)
        self.numbers = number_reader(rules)
        self.address_cues = address_cues(rules)

    def __call__(self, doc: Doc) -> Doc:
        text = doc_text(doc)
        ents = doc_mentions(doc, text)
        c = self.cues
        main = _main_proposal(ents, text, c) or title_only_name(doc)
        # The ways the text writes its proposals, to find them where no entity span marks them.
        proposals = {text[m.start:m.end]: m.name for m in ents if m.label == "Method" and m.proposed}
        if main is not None:
            proposals.setdefault(main, main)
        starts = [m.tok_start for m in ents]
        any_trigger = c.any_trigger
        found = FoundRelations()
        proposed_at = [(m.start, m.name) for m in ents if m.label == "Method" and m.proposed]
        own_data_at = [(m.start, m.name) for m in ents if m.label == "Dataset" and m.proposed]
        peers_at = peer_proposals(ents, text, _sentences(doc), self.results)
        unplaced: list[tuple[Sentence, dict]] = []  # margins said without a baseline (unplaced_gains)
        named_before = False  # whether the sentence before names a proposal (Sentence.follows_proposal)
        setting = None  # the dataset of the results reported so far (see results.result_setting)
        for bounds in _sentences(doc):
            first, end, char_start, char_end = bounds
            lo, hi = bisect_left(starts, first), bisect_left(starts, end)
            lower = None
            if lo == hi:
                if main is None:
                    continue  # no entity, and no proposal to be the subject: nothing to relate
                lower = text[char_start:char_end].lower()
                if not any_trigger(lower):
                    continue  # no entity, and no comparison whose subject could be the proposal
            before = [name for at, name in proposed_at if at < char_start]
            s = sentence_view(doc, bounds, text, [m for m in ents[lo:hi] if m.tok_end <= end], main, c, proposals, lower)
            s.last_proposal = before[-1] if before else None
            s.follows_proposal = named_before
            s.own_datasets = tuple(dict.fromkeys(name for at, name in own_data_at if at < char_start))
            s.peer_proposals = tuple(dict.fromkeys(name for at, name in peers_at if at < char_start))
            s.context_dataset, s.result_rules, s.numbers = setting, self.results, self.numbers
            s.address_cues = self.address_cues
            comparisons = find_comparisons(s)
            find_improvements(s, comparisons, found)
            find_achievements(s, comparisons, found)
            if not comparisons and s.main is not None and DIGIT.search(s.text):
                unplaced += unplaced_gains(s, found)
            find_evaluations(s, comparisons, found)
            find_addresses(s, found)
            setting = result_setting(s, tested_datasets(s), setting)
            named_before = any(m.proposed and m.label == "Method" for m in s.mentions) \
                or written_proposal(s, s.text) is not None
        place_gains(unplaced, found)  # after every sentence: the baseline may be named later
        evaluations_of_results(found)
        doc._.kg_relations = [r for r in found.items() if r["confidence"] >= self.min_confidence]
        return doc


def _sentences(doc: Doc) -> Iterator[tuple[int, int, int, int]]:
    """Each sentence of `doc` as (first token, end token, start char, end
    char), read from the token columns (kg.nlp.tokens) and its sentence
    starts: Doc.sents makes a Token object for every token, and doc[a:b] a
    Span, and most sentences are skipped unbuilt. The end char is where the
    last token ends (Span.end_char), without the whitespace after it."""
    n = len(doc)
    if not n:
        return
    columns = view_columns(doc)
    texts, idxs = columns[0], columns[2]
    first = 0
    for end in sentence_starts_of(doc)[1:] + [n]:
        yield first, end, idxs[first], idxs[end - 1] + len(texts[end - 1])
        first = end


def _main_proposal(ents: list[Mention], text: str, c: Cues) -> str | None:
    """The paper's own method: the proposed Method the text names most often
    (the first of those on a tie: a part or a variant introduced before the
    system is named less), one written as a name ("Titans", "DEZ") before a
    phrase in lower case ("hidden state"); else the first method the text
    calls its own ("our MambaOut model")."""
    counts: dict[str, int] = {}
    last_end: dict[str, int] = {}
    for m in ents:
        if m.label == "Method" and m.proposed:
            # "Long Form (LF)": a definition names it once
            if m.name not in last_end or text[last_end[m.name]:m.start].strip() not in ("", "("):
                counts[m.name] = counts.get(m.name, 0) + 1
            last_end[m.name] = m.end
    if counts:
        for m in ents:
            # "the FooNet model" names FooNet too
            head = m.name.split(" ", 1)[0]
            if not m.proposed and head != m.name and head in counts:
                counts[head] += 1
        named = {name: n for name, n in counts.items() if not name.islower()}
        return max(named or counts, key=(named or counts).__getitem__)
    for m in ents:
        if m.label == "Method" and c.own_before_name.search(text[max(0, m.start - 20):m.start]):
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
