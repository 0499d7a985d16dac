"""The kg spaCy Language, assembled from the project's own components.

This is the one place that knows the order of the components; each package
below registers its own and knows nothing of the others downstream of it.
No model is downloaded: a blank English Language with a tokenizer that keeps
scientific names whole, then, in this order:

  tokenizer          kg.nlp.tokenizer: markup blanked to spaces (offsets kept),
                     "ResNet-50", "GPT-4o", "7.9%", "et al." kept whole
  kg_sentences       kg.nlp.sentences: boundaries that survive "e.g.", "vs."
  kg_abbreviations   kg.nlp.abbreviations: doc._.abbreviations
  kg_gazetteer       kg.entities.gazetteer: known names (+ --gazetteer files)
  kg_entity_patterns kg.entities.patterns: names no list holds
  kg_proposals       kg.proposals.component: the paper's own proposals
  kg_titles          kg.proposals.titles: the abstract's mentions of the name
                     the title gives (doc._.title) are proposals too
  kg_entities        kg.entities.settle: settles candidates into doc.spans
  kg_relations       kg.relations.component: the four relations

What each component leaves on the Doc:
- the entities: kg.entities.entity (doc.spans[SPAN_KEY], the Span
  extensions, settled_entities(doc));
- doc._.abbreviations: list of (long Span, short Span) defined in the text;
- doc._.proposed_name: kg_name of the proposed Method named most often (the
  first on a tie), or None;
- doc._.title: the paper's title, set before the components run (None when
  the input has none); doc._.title_name: the name the title gives the
  paper's work (kg.proposals.titles.TitleName), or None;
- doc._.kg_candidates: every rule's candidates before settling (debugging);
- doc._.kg_relations: relation dicts as in the extraction record, each with
  "span" (start, end of the sentence it came from) and "confidence" (the
  relation rules' raw value; the record carries it calibrated, see
  kg.relations.confidence).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from spacy.lang.en import English
from spacy.language import Language

# Importing the component modules registers their factories and extensions.
from kg.entities import gazetteer, patterns, settle  # noqa: F401
from kg.learned.model import add_learned, load_learned
from kg.nlp import abbreviations, sentences  # noqa: F401
from kg.nlp.tokenizer import tokenizer_with_rules
from kg.proposals import component, titles  # noqa: F401
from kg.relations import component as relation_component  # noqa: F401

TEXT_TOKENIZER_CACHE = 100_000  # chunks


def entity_pipeline(gazetteers: Iterable[str | Path] = (), rules: Iterable[str | Path] = ()) -> Language:
    """The kg Language up to the settled entities. `gazetteers` are extra
    gazetteer files, `rules` the user's rules files (kg.rules), applied in
    order over the packaged rules."""
    rule_files = [str(p) for p in rules]
    # The Language builds kg's tokenizer as its own; kg never saves the
    # pipeline or builds it again from a config, so no config is needed.
    nlp = English(create_tokenizer=tokenizer_with_rules(rule_files))
    # spaCy remembers how it split at most 10,000 distinct chunks, the first
    # ones met; the 414 abstracts of our seed corpus alone hold 11,000, and a
    # field's vocabulary keeps growing with the corpus. Past the limit every
    # new chunk is split by the affix rules again on every use. 100,000
    # chunks take about 30 MB.
    nlp.tokenizer.inner.max_cache_size = TEXT_TOKENIZER_CACHE
    nlp.add_pipe("kg_sentences", config={"rules": rule_files})
    nlp.add_pipe("kg_abbreviations", config={"rules": rule_files})
    nlp.add_pipe("kg_gazetteer", config={"extra": [str(p) for p in gazetteers], "rules": rule_files})
    nlp.add_pipe("kg_entity_patterns", config={"rules": rule_files})
    nlp.add_pipe("kg_proposals", config={"rules": rule_files})
    nlp.add_pipe("kg_titles", config={"rules": rule_files})
    nlp.add_pipe("kg_entities", config={"rules": rule_files})
    return nlp


def extraction_pipeline(gazetteers: Iterable[str | Path] = (), rules: Iterable[str | Path] = (),
                        model: str | Path | None = None) -> Language:
    """The Language that extraction records are made with: the entities,
    then the relations, and where a `model` folder (kg train) is given, its
    learned components at their places (kg.learned.model). The relation
    component keeps every relation: its values are raw until the record is
    built (kg.extraction.record), and only then can --min-confidence compare
    them."""
    rule_files = [str(p) for p in rules]
    nlp = entity_pipeline(gazetteers, rule_files)
    nlp.add_pipe("kg_relations", config={"rules": rule_files})
    if model is not None:
        add_learned(nlp, load_learned(model))
    return nlp
