"""A worked example of kg from Python: build the demo corpus, ask three
questions, draw one chart.

    python docs/example.py [OUT_DIR]

OUT_DIR (default: a new temporary folder) receives the build (records,
graph, view, store) and the chart, leaderboard.png. Run it cell by cell in a
notebook if you like: every step is a plain statement at the top level.
"""

import sys
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # draw to files; no window needed
import matplotlib.pyplot as plt  # noqa: E402

import kg  # noqa: E402

out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="kg-example-"))

# 1. Build. With no inputs, kg.build takes the demo corpus shipped with kg
#    (invented abstracts); give it file paths, or dicts with id, title and abstract.
graph = kg.build(None, out / "demo")
print(f"built {graph.summary.read} abstracts into {out / 'demo'}")

with graph:
    # 2. Question one: which datasets do the papers use most? (a ready question: kg.questions())
    top = graph.ask("top-datasets")
    print("\nMost used datasets:")
    for row in top[:5]:
        print(f"  {row['datasetLabel']:<20} {row['papers']} papers")

    # 3. Question two, in SPARQL: which dataset and metric have the most scores?
    pairs = graph.query("""
        PREFIX mls:  <http://www.w3.org/ns/mls#>
        PREFIX mlkg: <https://w3id.org/mlkg/ontology#>
        PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
        SELECT ?dataset ?metric (COUNT(DISTINCT ?r) AS ?scores) WHERE {
          ?r a mlkg:Score ; mlkg:dataset ?d ; mls:specifiedBy ?m .
          ?d skos:prefLabel ?dataset . ?m skos:prefLabel ?metric .
        } GROUP BY ?dataset ?metric ORDER BY DESC(?scores) ?dataset LIMIT 3""")
    print("\nMost reported dataset and metric pairs:")
    for row in pairs:
        print(f"  {row['dataset']} / {row['metric']}: {row['scores']} scores")

    # 4. Question three: the leaderboard of the first pair, best first. Values
    #    come back as Python numbers (Decimal for xsd:decimal).
    best = pairs[0]
    board = graph.ask("leaderboard", dataset=best["dataset"], metric=best["metric"])
    print(f"\nLeaderboard, {best['dataset']} ({best['metric']}):")
    for row in board:
        print(f"  {row['methodLabel']:<20} {row['value']} {row['unit'] or ''}  (paper {row['paperId']})")
    try:  # with pandas installed, rows become a DataFrame in one call
        print(board.to_pandas()[["methodLabel", "value", "paperId"]].to_string(index=False))
    except kg.KGError as err:
        print(f"  ({err})")

# 5. One chart: the leaderboard as bars.
fig, ax = plt.subplots(figsize=(6, 0.5 + 0.4 * len(board)))
labels = [f"{r['methodLabel']} ({r['paperId']})" for r in board][::-1]
ax.barh(labels, [float(r["value"]) for r in board][::-1], color="#4e79a7")
ax.set_xlabel(best["metric"])
ax.set_title(f"{best['dataset']}: {best['metric']}")
fig.tight_layout()
fig.savefig(out / "leaderboard.png", dpi=120)
print(f"\nchart: {out / 'leaderboard.png'}")
