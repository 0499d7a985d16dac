"""Every build satisfies schemas/shapes.ttl, uses only declared terms, round-
trips through Turtle, and does not depend on the order abstracts come in."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import rdflib
from rdflib.compare import isomorphic

from kg.builder import build, demo_corpus
from kg.store import KGStore

pyshacl = pytest.importorskip("pyshacl")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SHAPES = ROOT / "schemas" / "shapes.ttl"
ONTOLOGY = ROOT / "schemas" / "ontology.ttl"
MLKG = rdflib.Namespace("https://w3id.org/mlkg/ontology#")


def union_graph(out: Path) -> rdflib.Graph:
    store = KGStore.at(out, read_only=True)
    buf = io.BytesIO()
    store.dump(buf, "nt")
    store.close()
    return rdflib.Graph().parse(data=buf.getvalue().decode("utf-8"), format="nt")


def quads(out: Path) -> set[str]:
    store = KGStore.at(out, read_only=True)
    try:
        return {str(q) for q in store.db}
    finally:
        store.close()


def validate(graph: rdflib.Graph) -> tuple[bool, str]:
    shapes = rdflib.Graph().parse(SHAPES)
    conforms, _, text = pyshacl.validate(graph, shacl_graph=shapes, inference="none")
    return conforms, text


@pytest.fixture(scope="module")
def demo_build(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    build([demo_corpus()], out, view=False)
    return out


@pytest.fixture(scope="module")
def seed_builds(tmp_path_factory) -> tuple[Path, Path]:
    seed = SHARED / "corpus" / "seed-abstracts.jsonl"
    if not seed.exists():
        pytest.skip("../shared/corpus/seed-abstracts.jsonl is not here (only present in the team's workplace)")
    work = tmp_path_factory.mktemp("seed")
    reverse = work / "reverse.jsonl"
    lines = [ln for ln in seed.read_text(encoding="utf-8").splitlines() if ln.strip()]
    reverse.write_text("\n".join(reversed(lines)) + "\n", encoding="utf-8")
    forward_out, reverse_out = work / "forward", work / "reverse"
    build([seed], forward_out, view=False)
    build([reverse], reverse_out, view=False)
    return forward_out, reverse_out


def test_demo_build_conforms_to_the_shapes(demo_build):
    conforms, report = validate(union_graph(demo_build))
    assert conforms, report


@pytest.mark.shared
@pytest.mark.slow
def test_seed_corpus_build_conforms_to_the_shapes(seed_builds):
    conforms, report = validate(union_graph(seed_builds[0]))
    assert conforms, report


@pytest.mark.shared
@pytest.mark.slow
def test_seed_corpus_in_reverse_order_gives_the_same_graph(seed_builds):
    forward, reverse = seed_builds
    assert quads(forward) == quads(reverse)
    g1, g2 = union_graph(forward), union_graph(reverse)
    # Without blank nodes, isomorphic graphs are equal sets of triples.
    assert not any(isinstance(t, rdflib.BNode) for triple in g1 for t in triple)
    assert set(g1) == set(g2)


def test_turtle_export_round_trips_to_an_isomorphic_graph(demo_build):
    ttl = (demo_build / "graph.ttl").read_text(encoding="utf-8")
    parsed = rdflib.Graph().parse(data=ttl, format="turtle")
    assert len(parsed) > 100
    assert isomorphic(parsed, union_graph(demo_build))
    # Through rdflib's own Turtle writer and back: the same graph, numbers compared
    # by value, since rdflib writes the decimal Oxigraph stores as "3" in the form 3.0.
    again = rdflib.Graph().parse(data=parsed.serialize(format="turtle"), format="turtle")
    assert isomorphic(_numbers_by_value(again), _numbers_by_value(parsed))


def _numbers_by_value(graph: rdflib.Graph) -> rdflib.Graph:
    out = rdflib.Graph()
    for s, p, o in graph:
        if isinstance(o, rdflib.Literal) and o.datatype == rdflib.XSD.decimal:
            o = rdflib.Literal(format(o.toPython().normalize(), "f"), datatype=rdflib.XSD.decimal)
        out.add((s, p, o))
    return out


@pytest.mark.parametrize("fmt,rdflib_format", [("nq", "nquads"), ("trig", "trig")])
def test_dataset_exports_keep_one_named_graph_per_paper(demo_build, fmt, rdflib_format):
    store = KGStore.at(demo_build, read_only=True)
    buf = io.BytesIO()
    store.dump(buf, fmt)
    papers = store.papers()
    store.close()
    ds = rdflib.Dataset()
    ds.parse(data=buf.getvalue().decode("utf-8"), format=rdflib_format)
    graphs = {str(g.identifier) for g in ds.graphs() if len(g)}
    demo_ids = {json.loads(ln)["id"] for ln in demo_corpus().read_text(encoding="utf-8").splitlines() if ln.strip()}
    assert papers == demo_ids
    assert graphs == {f"https://w3id.org/mlkg/graph/paper/{pid}" for pid in papers} | {
        "https://w3id.org/mlkg/graph/entities"}


def test_the_shapes_catch_a_broken_graph(demo_build):
    g = union_graph(demo_build)
    entity = sorted(g.subjects(rdflib.RDF.type, MLKG.Entity))[0]
    g.add((entity, rdflib.namespace.SKOS.prefLabel, rdflib.Literal("a second canonical name")))
    orphan = rdflib.URIRef("https://w3id.org/mlkg/id/dataset/nobody-mentions-me")
    g.add((orphan, rdflib.RDF.type, MLKG.Entity))
    g.add((orphan, rdflib.RDF.type, rdflib.URIRef("http://www.w3.org/ns/mls#Dataset")))
    g.add((orphan, rdflib.namespace.SKOS.prefLabel, rdflib.Literal("Nobody")))
    g.add((orphan, MLKG.surfaceName, rdflib.Literal("Nobody")))
    result = rdflib.URIRef("https://w3id.org/mlkg/id/paper/broken/result/0")
    g.add((result, rdflib.RDF.type, rdflib.URIRef("http://www.w3.org/ns/mls#ModelEvaluation")))
    g.add((result, rdflib.RDF.type, MLKG.Score))
    g.add((result, rdflib.URIRef("http://www.w3.org/ns/mls#hasValue"), rdflib.Literal("high")))
    conforms, report = validate(g)
    assert not conforms
    assert str(entity) in report and "nobody-mentions-me" in report and str(result) in report


def test_every_term_of_our_namespace_a_build_uses_is_declared_with_label_and_comment(demo_build):
    onto = rdflib.Graph().parse(ONTOLOGY)
    used = set()
    for s, p, o in union_graph(demo_build):
        used.add(p)
        if p == rdflib.RDF.type:
            used.add(o)
    ours = {t for t in used if str(t).startswith(str(MLKG))}
    assert MLKG.evaluatedOn in ours or MLKG.mentions in ours
    for term in ours | {t for t in used if str(t).startswith("http://www.w3.org/ns/mls#")}:
        assert (term, rdflib.RDFS.label, None) in onto, f"{term} has no rdfs:label in ontology.ttl"
        assert (term, rdflib.RDFS.comment, None) in onto, f"{term} has no rdfs:comment in ontology.ttl"


def test_records_follow_the_record_schema(demo_build):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "schemas" / "record.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    records = [json.loads(ln) for ln in (demo_build / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    gold = demo_corpus().parent / "gold.jsonl"
    if gold.exists():
        records += [json.loads(ln) for ln in gold.read_text(encoding="utf-8").splitlines() if ln.strip()]
    for rec in records:
        errors = list(validator.iter_errors(rec))
        assert not errors, f"{rec['id']}: {errors[0].message}"
    bad = {"id": "x", "entities": {"Model": []}, "relations": [{"s": "A", "p": "achieves"}]}
    messages = sorted(e.message for e in validator.iter_errors(bad))
    assert len(messages) == 3 and any("'Model' was unexpected" in m for m in messages)
