"""A tiny corpus for the view tests (sentences written for these tests), one
abstract of which carries markup that must never run in the page."""

from __future__ import annotations

import json
from pathlib import Path

PWN_SCRIPT = "</script><script>window.__pwned=1</script>"
PWN_IMG = '<img src=x onerror="window.__pwned=1">'
HOSTILE_TITLE = PWN_SCRIPT + PWN_IMG

CORPUS = [
    {"id": "v-sgm", "title": "Sparse Gated Mixer for image recognition",
     "abstract": "We propose Sparse Gated Mixer (SGM), a convolutional network for image classification. "
                 "We evaluate SGM on CIFAR-10 and ImageNet. "
                 "On ImageNet, SGM improves over ResNet-50 by 1.5 points of top-1 accuracy."},
    {"id": "v-qa", "title": "Reading with less memory",
     "abstract": "We study extractive question answering with BERT. "
                 "BERT is evaluated on SQuAD, where our distilled variant keeps 98% of its F1 score."},
    {"id": "v-evil", "title": HOSTILE_TITLE,
     "abstract": f"We propose HostileNet, a residual network. We evaluate HostileNet on CIFAR-10 {PWN_SCRIPT} "
                 f"and report {PWN_IMG} accuracy."},
]


def write_corpus(folder: Path) -> Path:
    path = folder / "view-corpus.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in CORPUS), encoding="utf-8")
    return path


# What the view must draw, counted in the store (the same triple may sit in several papers' graphs).
ENTITY_COUNT_Q = """
PREFIX mlkg: <https://w3id.org/mlkg/ontology#>
PREFIX mls: <http://www.w3.org/ns/mls#>
SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE {
  VALUES ?c { mlkg:Method mls:Dataset mls:Task mls:EvaluationMeasure mlkg:Baseline }
  ?e a ?c .
}"""
# The relations, and a method's tie to the metric of one of its results (the view's measuredBy).
RELATION_COUNT_Q = """
PREFIX mlkg: <https://w3id.org/mlkg/ontology#>
PREFIX mls: <http://www.w3.org/ns/mls#>
SELECT (COUNT(*) AS ?n) WHERE {
  { SELECT DISTINCT ?s ?p ?o WHERE { VALUES ?p { mlkg:evaluatedOn mlkg:addresses mlkg:improvesOver } ?s ?p ?o . } }
  UNION { SELECT DISTINCT ?s ?o WHERE { ?r mlkg:method ?s ; mls:specifiedBy ?o } }
}"""
