"""The report's questions, as SPARQL that runs as it stands with `kg query`.

Each query is shown under its chart, so each carries its own PREFIX lines and
nothing is added to it before it runs. Leaderboards are made per pair of
dataset and metric: `leaderboard_query` writes the query of one pair, with the
pair's IRIs in a VALUES line.
"""

from __future__ import annotations

from dataclasses import dataclass

from kg.sparql.prefixes import PREFIXES as KG_PREFIXES

# The PREFIX lines every shown query carries (the prefixes it uses, from kg's one map).
PREFIXES = "".join(f"PREFIX {name}: <{KG_PREFIXES[name]}>\n" for name in ("rdf", "skos", "mls", "mlkg", "kgg", "fabio"))

# A fact below this confidence is more often wrong than right (docs/rules.md,
# "confidence": the value is the share of such facts that were right on train).
LOW_CONFIDENCE = 0.5
# How many bars a "top" chart shows, and how many leaderboards the report draws.
TOP = 15
LEADERBOARDS = 3


@dataclass(frozen=True)
class Question:
    key: str        # the section's id in the page
    title: str
    about: str      # one sentence under the title: what the chart shows
    sparql: str


def _q(body: str) -> str:
    return PREFIXES + "\n" + body.strip() + "\n"


SUMMARY = Question(
    "summary", "What the graph holds",
    "Papers, entities of each type, relations of each kind and reported results.",
    _q("""
SELECT ?kind ?count WHERE {
  { SELECT ("papers" AS ?kind) (COUNT(DISTINCT ?p) AS ?count) WHERE { ?p a fabio:ResearchPaper } }
  UNION
  { SELECT ?kind (COUNT(DISTINCT ?e) AS ?count) WHERE {
      GRAPH kgg:entities { ?e a ?cls }
      VALUES (?cls ?kind) { (mlkg:Method "methods") (mls:Dataset "datasets") (mls:Task "tasks")
                            (mls:EvaluationMeasure "metrics") }
    } GROUP BY ?kind }
  UNION
  { SELECT ?kind (COUNT(DISTINCT ?f) AS ?count) WHERE {
      ?f a rdf:Statement ; rdf:predicate ?p .
      BIND(CONCAT(STRAFTER(STR(?p), "#"), " facts") AS ?kind)
    } GROUP BY ?kind }
  UNION
  { SELECT ("scores" AS ?kind) (COUNT(DISTINCT ?r) AS ?count) WHERE { ?r a mlkg:Score } }
  UNION
  { SELECT ("improvements with a value" AS ?kind) (COUNT(DISTINCT ?r) AS ?count) WHERE {
      ?r a mlkg:Improvement ; mls:hasValue ?value } }
}
"""))


def _top(key: str, noun: str, cls: str) -> Question:
    return Question(
        key, f"The most named {noun}",
        f"The {TOP} {noun} named in the most papers.",
        _q(f"""
SELECT ?entity (SAMPLE(?name) AS ?label) (COUNT(DISTINCT ?paper) AS ?papers) WHERE {{
  GRAPH kgg:entities {{ ?entity a {cls} ; skos:prefLabel ?name }}
  ?paper mlkg:mentions ?entity .
}}
GROUP BY ?entity
ORDER BY DESC(?papers) ?label
LIMIT {TOP}
"""))


TOP_DATASETS = _top("datasets", "datasets", "mls:Dataset")
TOP_METHODS = _top("methods", "methods", "mlkg:Method")
TOP_TASKS = _top("tasks", "tasks", "mls:Task")
TOP_METRICS = _top("metrics", "metrics", "mls:EvaluationMeasure")

PAIRS = Question(
    "pairs", "The most reported dataset and metric pairs",
    f"Papers and scores reported for each pair of dataset and metric (bars: scores); the {LEADERBOARDS} "
    "reported in the most papers get a leaderboard below.",
    _q(f"""
SELECT ?dataset ?metric (SAMPLE(?dl) AS ?datasetLabel) (SAMPLE(?ml) AS ?metricLabel)
       (COUNT(DISTINCT ?result) AS ?scores) (COUNT(DISTINCT ?paper) AS ?papers) WHERE {{
  ?result a mlkg:Score ; mlkg:dataset ?dataset ; mls:specifiedBy ?metric ; mls:hasValue ?value ;
          mlkg:reportedIn ?paper .
  GRAPH kgg:entities {{ ?dataset skos:prefLabel ?dl . ?metric skos:prefLabel ?ml }}
}}
GROUP BY ?dataset ?metric
ORDER BY DESC(?papers) DESC(?scores) ?datasetLabel ?metricLabel
LIMIT {TOP}
"""))


def leaderboard_query(dataset_iri: str, metric_iri: str) -> str:
    """The scores reported on one dataset for one metric, best first: lowest
    first for error-like metrics, as the ready question `leaderboard` orders."""
    return _q(f"""
SELECT ?methodLabel ?value ?unit ?paperId WHERE {{
  VALUES (?dataset ?metric) {{ (<{dataset_iri}> <{metric_iri}>) }}
  ?result a mlkg:Score ; mlkg:dataset ?dataset ; mls:specifiedBy ?metric ; mls:hasValue ?value ;
          mlkg:method ?method ; mlkg:reportedIn ?paper .
  ?paper <http://purl.org/dc/terms/identifier> ?paperId .
  GRAPH kgg:entities {{ ?metric skos:prefLabel ?metricLabel }}
  ?method skos:prefLabel ?methodLabel .
  OPTIONAL {{ ?result mlkg:unit ?unit }}
  BIND(REGEX(?metricLabel, "error|wer|cer|perplexity|fid|loss|latency|mse|mae|eer", "i") AS ?lowerIsBetter)
}}
ORDER BY (IF(?lowerIsBetter, ?value, -?value)) ?methodLabel
""")


PROPOSALS = Question(
    "proposals", "Proposals per task",
    f"For the {TOP} tasks with the most proposals: papers that propose a method and say it addresses the task.",
    _q(f"""
SELECT ?task (SAMPLE(?name) AS ?taskLabel) (COUNT(DISTINCT ?paper) AS ?proposals) WHERE {{
  GRAPH ?g {{ ?paper mlkg:proposes ?method . ?method mlkg:addresses ?task }}
  GRAPH kgg:entities {{ ?task a mls:Task ; skos:prefLabel ?name }}
}}
GROUP BY ?task
ORDER BY DESC(?proposals) ?taskLabel
LIMIT {TOP}
"""))

CO_USED = Question(
    "co-used", "Datasets used together",
    "Pairs of datasets named in the same papers, by the number of papers they share.",
    _q(f"""
SELECT ?a ?b (SAMPLE(?al) AS ?aLabel) (SAMPLE(?bl) AS ?bLabel) (COUNT(DISTINCT ?paper) AS ?papers) WHERE {{
  GRAPH kgg:entities {{ ?a a mls:Dataset ; skos:prefLabel ?al . ?b a mls:Dataset ; skos:prefLabel ?bl }}
  ?paper mlkg:mentions ?a , ?b .
  FILTER(STR(?a) < STR(?b))
}}
GROUP BY ?a ?b
ORDER BY DESC(?papers) ?aLabel ?bLabel
LIMIT {TOP}
"""))

LOW_EDGES = Question(
    "low-confidence", "Relations that rest on low-confidence facts",
    f"For each kind of relation: the relations between two entities that some fact with confidence "
    f"of at least {LOW_CONFIDENCE} supports, and those whose every supporting fact is below it "
    f"(more often wrong than right).",
    _q(f"""
SELECT ?relation (COUNT(*) AS ?relations) (SUM(IF(?best < {LOW_CONFIDENCE}, 1, 0)) AS ?onlyLow) WHERE {{
  {{ SELECT ?s ?p ?o (MAX(?c) AS ?best) WHERE {{
      ?fact a rdf:Statement ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ; mlkg:confidence ?c .
    }} GROUP BY ?s ?p ?o }}
  BIND(STRAFTER(STR(?p), "#") AS ?relation)
}}
GROUP BY ?relation
ORDER BY ?relation
"""))

CONFIDENCE = Question(
    "confidence", "Confidence of the facts",
    "How many facts (relations and results) the extractor stated at each tenth of confidence.",
    _q("""
SELECT ?band (COUNT(DISTINCT ?fact) AS ?facts) WHERE {
  ?fact mlkg:confidence ?c .
  BIND(IF(?c >= 1, 0.9, FLOOR(?c * 10) / 10) AS ?band)
}
GROUP BY ?band
ORDER BY ?band
"""))

# In the order the page shows them; leaderboards come after PAIRS.
QUESTIONS = [SUMMARY, TOP_DATASETS, TOP_METHODS, TOP_TASKS, TOP_METRICS, PAIRS, PROPOSALS, CO_USED,
             LOW_EDGES, CONFIDENCE]
