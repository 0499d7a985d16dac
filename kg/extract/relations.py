"""Relations between the entities of one sentence: evaluatedOn, addresses,
improvesOver, achieves. A spaCy component that reads doc.spans["entities"]
and writes doc._.kg_relations."""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc

from kg.nlp.pipeline import SPAN_KEY

_EVAL_CUE = re.compile(r"\b(evaluat|experiment|test|benchmark|results?\b|outperform|achiev)", re.I)
_IMPROVE = re.compile(r"\b(outperform|surpass|improv|beat)", re.I)


@Language.component("kg_relations")
def find_relations(doc: Doc) -> Doc:
    """Sentence-level relations with the proposed method as subject."""
    ents = list(doc.spans.get(SPAN_KEY, []))
    proposed = next((s._.kg_name for s in ents if s._.proposed), None)
    rels: list[dict] = []
    seen = set()
    if proposed:
        for sent in doc.sents:
            in_sent = [s for s in ents if s.start >= sent.start and s.end <= sent.end]
            for s in in_sent:
                rel = None
                if s.label_ == "Dataset" and _EVAL_CUE.search(sent.text):
                    rel = {"s": proposed, "p": "evaluatedOn", "o": s._.kg_name}
                elif s.label_ == "Task":
                    rel = {"s": proposed, "p": "addresses", "o": s._.kg_name}
                elif s.label_ == "Method" and not s._.proposed and _IMPROVE.search(sent.text):
                    rel = {"s": proposed, "p": "improvesOver", "o": s._.kg_name}
                if rel and (key := tuple(rel.values())) not in seen:
                    seen.add(key)
                    rel.update(span=[sent.start_char, sent.end_char], confidence=0.5)
                    rels.append(rel)
    doc._.kg_relations = rels
    return doc


