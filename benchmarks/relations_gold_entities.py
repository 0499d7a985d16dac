"""Relation quality with the entities taken from the gold file, so that the
relation rules are measured apart from entity extraction.

    python3 benchmarks/relations_gold_entities.py ../shared/gold/dev.gold.jsonl ../shared/gold/dev.input.jsonl
    python3 benchmarks/relations_gold_entities.py ../shared/bench/scirex/dev.gold.jsonl ../shared/bench/scirex/dev.input.jsonl

Gold mentions are used where the gold file has them (SciREX); otherwise every
occurrence of a gold name or alias is marked. Prints the `kg eval` table
(entity rows are then trivially right; read the relation rows).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import spacy
from spacy.matcher import PhraseMatcher
from spacy.tokens import Span
from spacy.util import filter_spans

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kg.eval import evaluate, read_records  # noqa: E402
from kg.extraction.record import doc_to_record  # noqa: E402
from kg.entities.entity import SPAN_KEY  # noqa: E402
import kg.relations.component  # noqa: E402,F401  registers kg_relations


_MAKER = spacy.blank("en")  # makes the pattern docs for the phrase matcher


def gold_spans(doc, gold: dict) -> list[Span]:
    """The gold entities as spans of `doc`, each with its gold name and flags."""
    info = {}
    for etype, ents in gold["entities"].items():
        for e in ents:
            for form in [e["name"], *(e.get("aliases") or [])]:
                info[(etype, form)] = e
    spans = []
    if gold.get("mentions"):
        for m in gold["mentions"]:
            span = doc.char_span(m["start"], m["end"], label=m["type"], alignment_mode="expand")
            if span is None:
                continue
            e = info.get((m["type"], m["text"]), {"name": m["text"]})
            span._.kg_name = e["name"]
            span._.proposed = bool(e.get("proposed"))
            spans.append(span)
    else:
        matcher = PhraseMatcher(doc.vocab, attr="LOWER")
        maker = _MAKER
        keys = {}
        for (etype, form), e in info.items():
            key = f"{etype}|{form}"
            keys[key] = (etype, e)
            matcher.add(key, [maker.make_doc(form)])
        for mid, start, end in matcher(doc):
            etype, e = keys[doc.vocab.strings[mid]]
            span = Span(doc, start, end, label=etype)
            span._.kg_name = e["name"]
            span._.proposed = bool(e.get("proposed"))
            spans.append(span)
    return filter_spans(spans)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gold")
    ap.add_argument("input")
    ap.add_argument("--errors", action="store_true")
    args = ap.parse_args()
    gold = {r["id"]: r for r in read_records(args.gold)}
    texts = {json.loads(line)["id"]: json.loads(line)["abstract"] for line in open(args.input, encoding="utf-8")}
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    rel = nlp.add_pipe("kg_relations")
    preds = []
    t0 = time.perf_counter()
    for pid, g in gold.items():
        doc = nlp.make_doc(texts[pid])
        doc = nlp.get_pipe("sentencizer")(doc)
        doc.spans[SPAN_KEY] = gold_spans(doc, g)
        doc = rel(doc)
        rec = doc_to_record(doc, pid)
        rec["entities"] = g["entities"]
        preds.append(rec)
    report = evaluate(gold.values(), preds)
    print("\n".join(report.lines(errors=args.errors)))
    print(f"relation seconds: {time.perf_counter() - t0:.2f}")


if __name__ == "__main__":
    main()
