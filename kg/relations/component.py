"""The relation component: a spaCy component (registered as "kg_relations")
that reads doc.spans["entities"] and writes doc._.kg_relations, the
relations between the entities of one sentence: evaluatedOn, addresses,
improvesOver, achieves. It walks the sentences of a document, finds the
paper's main proposal (kg.proposals.main), and runs the rules of each
relation on each sentence: improves_over.py (improvesOver), achieves.py
(achieves), evaluated_on.py (evaluatedOn), addresses.py (addresses); the
subject of a sentence is chosen in subjects.py.

Each relation comes from one sentence and is a dict as in
docs/record.md (s, p, o, metric, value, unit, dataset), plus
"span" (the sentence's character offsets), "confidence" (0..1) and, for a
gain the text calls absolute or relative, "gain".
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc

from kg.nlp.tokens import doc_text, sentence_starts_of, view_columns
from kg.proposals.main import main_proposal, title_only_name
from kg.relations.achieves import find_achievements
from kg.relations.address_cues import address_cues
from kg.relations.addresses import find_addresses
from kg.relations.cues import cues
from kg.relations.evaluated_on import (
    evaluations_of_results,
    find_evaluations,
    peer_proposals,
)
from kg.relations.found import FoundRelations
from kg.relations.improves_over import (
    DIGIT,
    find_comparisons,
    find_improvements,
    place_gains,
    unplaced_gains,
)
from kg.relations.metric_dataset import tested_datasets
from kg.relations.numbers import number_reader
from kg.relations.results import result_rules, result_setting
from kg.relations.sentence import Sentence, doc_mentions, sentence_view
from kg.relations.subjects import written_proposal
from kg.relations.title_scores import title_scores

# The title and its name (kg.proposals.titles) are read here too; a pipeline without that component has none.
for _name in ("kg_relations", "title", "title_name"):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=None)


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
        main = main_proposal(ents, text, c.own_before_name) or title_only_name(doc)
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
        title_scores(doc._.title, ents, text, main, c, self.numbers, found)
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
