"""graph.ttl written while a build streams (kg.graph.union) and the store
loaded in a second thread (kg.store.BackgroundLoad): the same store and the
same union of triples as loading everything first and reading it back."""

from __future__ import annotations

import io

import pyoxigraph as ox
import pytest

from kg.builder import build, demo_corpus
from kg.graph import record_quads
from kg.graph.build import default_resolver
from kg.graph.entities import (Renames, add_namings, canonicalise, namings, paper_graphs, renamed_quads,
                               renames)
from kg.graph.paper_output import paper_output
from kg.graph.union import UnionWriter
from kg.model import Abstract
from kg.store import BackgroundLoad, KGStore, StoreError

TEXT = "We propose BarNet. BarNet is evaluated on Foo Bench and improves over the previous best model."


def paper(pid: str, datasets: list[dict], relations: list[dict] | None = None) -> tuple[Abstract, dict]:
    record = {
        "id": pid, "sentences": [[0, 18], [19, len(TEXT)]],
        "entities": {"Method": [{"name": "BarNet", "mentions": [[11, 17]], "proposed": True}], "Dataset": datasets},
        "relations": relations or [],
        "extractor": {"name": "kg", "version": "test"},
    }
    return Abstract(id=pid, text=TEXT, title=f"Paper {pid}"), record


# p1 names the dataset "Foo Bench"; p2 shows "FB" is its short name, which
# renames p1's node. p3 lists one dataset twice under two spellings (one node,
# its triples stated twice). p4 is like p2: its triples repeat p2's.
PAPERS = [
    paper("p1", [{"name": "Foo Bench", "mentions": [[42, 51]]}],
          [{"p": "evaluatedOn", "s": "BarNet", "o": "Foo Bench", "span": [19, 51]},
           {"p": "improvesOver", "s": "BarNet", "o": "the previous best model", "dataset": "Foo Bench",
            "value": "2.5", "span": [19, 95]}]),
    paper("p2", [{"name": "FB", "aliases": ["Foo Bench"], "mentions": [[42, 51]]}]),
    paper("p3", [{"name": "Foo-Bench", "mentions": [[42, 51]]}, {"name": "Foo Bench", "mentions": [[42, 51]]}],
          [{"p": "evaluatedOn", "s": "BarNet", "o": "Foo Bench"}]),
    paper("p4", [{"name": "FB", "aliases": ["Foo Bench"], "mentions": [[42, 51]]}]),
]


def union_of(db: ox.Store) -> set[ox.Triple]:
    return {q.triple for q in db}


# The rest of graph.ttl written in this process, and by a second one (as a large build does).
IN_PROCESS, SEPARATE = UnionWriter.SEPARATE_BYTES, 0


def streamed(tmp_path, separate_bytes: int = IN_PROCESS) -> tuple[ox.Store, bytes]:
    resolver = default_resolver()
    db = ox.Store()
    writer = UnionWriter(tmp_path / "graph.ttl", tmp_path / ".union.nq", resolver.fresh(), separate_bytes)
    for abstract, record in PAPERS:
        paper = paper_output(abstract, record, resolver)
        db.bulk_extend(record_quads(abstract, record, resolver))
        writer.add_paper(paper)
    report = writer.finish(db)
    assert report.renamed >= 1  # the case this test is about
    assert not list(tmp_path.glob(".union.nq*"))  # the spool (and the resolver handed over) removed
    return db, (tmp_path / "graph.ttl").read_bytes()


@pytest.mark.parametrize("separate_bytes", [IN_PROCESS, SEPARATE])
def test_streamed_store_equals_the_canonical_pass_over_the_store(tmp_path, separate_bytes):
    db, _ = streamed(tmp_path, separate_bytes)
    resolver = default_resolver()
    reference = ox.Store()
    for abstract, record in PAPERS:
        reference.bulk_extend(record_quads(abstract, record, resolver))
    canonicalise(reference, resolver)
    assert set(db) == set(reference)


@pytest.mark.parametrize("separate_bytes", [IN_PROCESS, SEPARATE])
def test_streamed_turtle_is_the_union_once_each_with_prefixes(tmp_path, separate_bytes):
    db, ttl = streamed(tmp_path, separate_bytes)
    triples = [q.triple for q in ox.parse(ttl, ox.RdfFormat.TURTLE)]
    assert len(triples) == len(set(triples))
    assert set(triples) == union_of(db)
    text = ttl.decode("utf-8")
    assert text.startswith("@prefix ")
    assert text.count("@prefix mlkg:") == 1  # stated once, at the top
    # prefixed names (Oxigraph escapes the slash of a local name), the renamed entity
    assert "mlkg:mentions" in text and "id:dataset\\/fb " in text
    assert "dataset\\/foo-bench" not in text  # the name p2 showed to be FB's (its lowercase hidden label stays)


def test_fresh_build_writes_the_stores_union(tmp_path):
    out = tmp_path / "out"
    build([demo_corpus()], out, view=False)
    store = KGStore.at(out, read_only=True)
    buf = io.BytesIO()
    store.dump(buf, "nt")  # the union read back from the store
    expected = {q.triple for q in ox.parse(buf.getvalue(), ox.RdfFormat.N_TRIPLES)}
    store.close()
    got = [q.triple for q in ox.parse(path=str(out / "graph.ttl"), format=ox.RdfFormat.TURTLE)]
    assert len(got) == len(set(got)) and set(got) == expected
    assert not list(out.glob(".kg-stage-*"))  # no working files left behind


def _fed_writer(tmp_path, resolver) -> tuple[ox.Store, UnionWriter]:
    """A store and a writer (graph.ttl's rest in a second process) that took in PAPERS."""
    db = ox.Store()
    writer = UnionWriter(tmp_path / "graph.ttl", tmp_path / ".union.nq", resolver.fresh(), SEPARATE)
    for abstract, record in PAPERS:
        db.bulk_extend(record_quads(abstract, record, resolver))
        writer.add_paper(paper_output(abstract, record, resolver))
    return db, writer


def test_the_store_is_renamed_before_the_rest_of_graph_ttl_is_waited_for(tmp_path):
    resolver = default_resolver()
    db, writer = _fed_writer(tmp_path, resolver)
    try:
        writer.rename(db)
        reference = ox.Store()
        for abstract, record in PAPERS:
            reference.bulk_extend(record_quads(abstract, record, resolver))
        canonicalise(reference, resolver)
        assert set(db) == set(reference)  # final while graph.ttl is still being written
        writer.wait()
    finally:
        writer.close()
    ttl = (tmp_path / "graph.ttl").read_bytes()
    assert {q.triple for q in ox.parse(ttl, ox.RdfFormat.TURTLE)} == union_of(db)


def test_the_renames_read_back_only_the_papers_they_change(tmp_path, monkeypatch):
    import kg.graph.union as union

    resolver = default_resolver()
    db = ox.Store()
    # graph.ttl's rest in a second process, so that only the renames' reading is seen here
    writer = UnionWriter(tmp_path / "graph.ttl", tmp_path / ".union.nq", resolver.fresh(), SEPARATE)
    for abstract, record in PAPERS:
        db.bulk_extend(record_quads(abstract, record, resolver))
        writer.add_paper(paper_output(abstract, record, resolver))
    read_back = []
    parse = ox.parse

    def spy(data=None, *args, **kwargs):
        quads = list(parse(data, *args, **kwargs))
        read_back.append({q.graph_name.value for q in quads})
        return iter(quads)

    monkeypatch.setattr(union.ox, "parse", spy)
    report = writer.rename(db)
    writer.wait()
    writer.close()
    # p1's and p3's nodes ("Foo Bench", "Foo-Bench") are renamed to FB's; p2 and p4 named it FB already.
    assert report.renamed >= 2
    assert all(len(graphs) == 1 for graphs in read_back)
    assert [g.pop().rsplit("/", 1)[1] for g in read_back] == ["p1", "p3"]


def test_a_failed_graph_ttl_writer_fails_the_build(tmp_path, monkeypatch):
    import subprocess
    import sys

    from kg.graph import union

    monkeypatch.setattr(union, "_start_writer",
                        lambda *args: subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"]))
    resolver = default_resolver()
    db, writer = _fed_writer(tmp_path, resolver)
    with pytest.raises(RuntimeError, match="graph.ttl"):
        writer.finish(db)
    writer.close()


def test_graph_ttls_writer_is_this_kg_whatever_the_current_folder(tmp_path, monkeypatch):
    # `python -m` looks in the current folder first: another kg there (an
    # older checkout) must not be the one that writes graph.ttl.
    other = tmp_path / "elsewhere"
    (other / "kg" / "graph").mkdir(parents=True)
    (other / "kg" / "__init__.py").write_text("")
    (other / "kg" / "graph" / "__init__.py").write_text("")
    (other / "kg" / "graph" / "union_worker.py").write_text("raise SystemExit(5)\n")
    (tmp_path / "out").mkdir()
    monkeypatch.chdir(other)
    resolver = default_resolver()
    db = ox.Store()
    writer = UnionWriter("../out/graph.ttl", "../out/.union.nq", resolver.fresh(), SEPARATE)  # relative, too
    for abstract, record in PAPERS:
        db.bulk_extend(record_quads(abstract, record, resolver))
        writer.add_paper(paper_output(abstract, record, resolver))
    try:
        writer.finish(db)
    finally:
        writer.close()
    ttl = (tmp_path / "out" / "graph.ttl").read_bytes()
    assert {q.triple for q in ox.parse(ttl, ox.RdfFormat.TURTLE)} == union_of(db)


def test_renamed_quads_from_the_papers_quads_are_those_read_from_the_store():
    resolver = default_resolver()
    db = ox.Store()
    for abstract, record in PAPERS:
        db.bulk_extend(record_quads(abstract, record, resolver))
    resolver = resolver.fresh()
    for g in paper_graphs(db):
        add_namings(resolver, namings(db, g))
    resolver.finish()
    seen = 0
    for g in list(paper_graphs(db)):
        changed = renames(resolver, namings(db, g))
        if changed:
            seen += 1
            old, new = renamed_quads(db, g, changed, db.quads_for_pattern(None, None, None, g))
            read_old, read_new = renamed_quads(db, g, changed)
            assert (set(old), set(new)) == (set(read_old), set(read_new)) and len(old) == len(read_old)
    assert seen  # p1's dataset is renamed


def test_renames_in_one_graph_happen_at_once():
    # A -> B and B -> C: A's quads end at B, the IRI A resolves to, not at C.
    g = ox.NamedNode("https://example.org/g")
    a, b, c, p = (ox.NamedNode(f"https://example.org/{x}") for x in "abcp")
    db = ox.Store()
    db.extend([ox.Quad(a, p, ox.Literal("a"), g), ox.Quad(b, p, ox.Literal("b"), g), ox.Quad(p, p, a, g)])
    renames = Renames(db)
    renames.add(g, {a: b, b: c})
    renames.flush()
    assert set(db) == {ox.Quad(b, p, ox.Literal("a"), g), ox.Quad(c, p, ox.Literal("b"), g), ox.Quad(p, p, b, g)}


def test_background_load_loads_every_batch_and_reports_failures(tmp_path):
    store = KGStore(tmp_path / "store")
    resolver = default_resolver()
    expected = set()
    with store.loader(tmp_path, batch=10) as loader:  # several files
        for abstract, record in PAPERS:
            expected.update(record_quads(abstract, record, resolver))
            paper = paper_output(abstract, record, resolver)
            loader.add(paper.nquads, paper.quads)
    assert set(store.db) == expected
    assert not list(tmp_path.glob(".load-*"))
    store.close()

    class Broken:
        def bulk_load(self, **kw):
            raise OSError("disk full")

    with pytest.raises(StoreError, match="disk full"):
        with BackgroundLoad(Broken(), tmp_path) as loader:
            loader.add(paper.nquads, paper.quads)


def test_background_load_files_grow_with_what_is_queued(tmp_path):
    class Counting:
        """Notes the quads of each file it is given (one N-Quads line each)."""
        def __init__(self):
            self.sizes = []

        def bulk_load(self, path, **kw):
            with open(path, "rb") as fh:
                self.sizes.append(sum(1 for _ in fh))

    db = Counting()
    with BackgroundLoad(db, tmp_path, batch=10, ceiling=40) as loader:
        for _ in range(200):
            loader.add(b"<https://example.org/a> <https://example.org/p> <https://example.org/b> "
                       b"<https://example.org/g> .\n", 1)
    # at least `batch`, then half of what went before, at most `ceiling`; the rest at the end
    assert db.sizes == [10, 10, 10, 15, 22, 33, 40, 40, 20]
    assert not list(tmp_path.glob(".load-*"))
