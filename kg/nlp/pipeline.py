"""Assemble the kg spaCy Language from the project's own components.

No model is downloaded: the pipeline is a blank English Language with a tokenizer
that keeps scientific names whole and rule components, in this order:

  tokenizer          kg.nlp.tokenizer: markup blanked to spaces (offsets kept),
                     "ResNet-50", "GPT-4o", "7.9%", "et al." kept whole
  kg_sentences       kg.nlp.sentences: boundaries that survive "e.g.", "vs."
  kg_abbreviations   kg.nlp.abbreviations: doc._.abbreviations
  kg_gazetteer       kg.nlp.gazetteer: known names (+ --gazetteer files)
  kg_entity_patterns kg.nlp.patterns: names no list holds
  kg_proposals       kg.nlp.proposals: the paper's own proposals
  kg_titles          kg.nlp.titles: the abstract's mentions of the name the
                     title gives (doc._.title) are proposals too
  kg_entities        kg.nlp.entities: settles candidates into doc.spans
  kg_relations       kg.extract.relations (added by kg.extract.pipeline)

Contract with everything downstream (kg.extract.record, kg.extract.relations):
- doc.spans[SPAN_KEY]: the entity spans, label_ one of ENTITY_TYPES, sorted
  by position, never overlapping;
- Span._.kg_name: the name the record uses (the long form for an
  abbreviation, else the text as written); Span._.aliases: list of short
  forms or None; Span._.proposed: True when the paper introduces it;
  Span._.canonical: the gazetteer's name for it, or None;
  Span._.exact_match: IRIs from the gazetteer, or None;
  Span._.source: the rule that found it (proposal, abbreviation, gazetteer,
  variant, cue, name, head);
- kg.nlp.entities.settled_entities(doc): the same entities as plain Entity
  values (offsets, label and the extensions above), kept by kg_entities in
  doc._.kg_entities, or read from doc.spans[SPAN_KEY] when those spans were
  set some other way;
- doc._.abbreviations: list of (long Span, short Span) defined in the text;
- doc._.proposed_name: kg_name of the proposed Method named most often (the
  first on a tie), or None;
- doc._.title: the paper's title, set before the components run (None when
  the input has none); doc._.title_name: the name the title gives the
  paper's work (kg.nlp.titles.TitleName), or None;
- doc._.kg_candidates: every rule's candidates before settling (debugging);
- doc._.kg_relations: relation dicts as in the extraction record, each with
  "span" (start, end of the sentence it came from) and "confidence" (the
  relation rules' raw value; the record carries it calibrated, see
  kg.extract.relation_confidence).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from spacy.lang.en import English
from spacy.language import Language

# Importing the modules registers their components and extensions.
from kg.nlp import abbreviations, entities, gazetteer, patterns, proposals, sentences, titles  # noqa: F401
from kg.nlp.entities import SPAN_KEY
from kg.nlp.tokenizer import tokenizer_with_rules

ENTITY_TYPES = ("Method", "Dataset", "Task", "Metric")
TEXT_TOKENIZER_CACHE = 100_000  # chunks


def make_pipeline(gazetteers: Iterable[str | Path] = (), rules: Iterable[str | Path] = ()) -> Language:
    """The kg Language up to the settled entities. `gazetteers` are extra
    gazetteer files, `rules` the user's rules files (kg.rules), applied in
    order over the packaged rules. kg.extract.pipeline adds the relations."""
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
