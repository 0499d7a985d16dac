"""Extraction on a Dask cluster (a local one with two worker processes) gives
the graph of a local build."""

from __future__ import annotations

import json

import pyoxigraph as ox
import pytest

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

from kg.cli import main  # noqa: E402
from kg.extraction import dask_runner  # noqa: E402
from kg.extraction.dask_runner import DaskError, dask_records  # noqa: E402
from kg.extraction.stream import paper_stream  # noqa: E402
from kg.graph.paper_output import PaperOutput  # noqa: E402

from test_parallel import invented_abstracts  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster:
        yield cluster


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(json.dumps({"id": a.id, "title": a.title, "abstract": a.text}) + "\n"
                            for a in invented_abstracts(30)), encoding="utf-8")
    return path


def _nquads(tmp_path, out_dir) -> list[str]:
    nq = tmp_path / f"{out_dir.name}.nq"
    assert main(["export", "--store", str(out_dir), "--format", "nq", "-o", str(nq)]) == 0
    return sorted(nq.read_text(encoding="utf-8").splitlines())


def test_dask_build_gives_the_same_graph_as_a_local_build(tmp_path, corpus, cluster):
    local, remote = tmp_path / "local", tmp_path / "remote"
    assert main(["build", str(corpus), "-o", str(local), "--no-view"]) == 0
    assert main(["build", str(corpus), "-o", str(remote), "--no-view", "--dask", cluster.scheduler_address]) == 0
    local_quads = _nquads(tmp_path, local)
    assert local_quads == _nquads(tmp_path, remote)
    assert len(local_quads) > 100
    assert (local / "records.jsonl").read_bytes() == (remote / "records.jsonl").read_bytes()
    assert _ttl_triples(local) == _ttl_triples(remote)


def _ttl_triples(out_dir) -> list[str]:
    return sorted(str(q.triple) for q in ox.parse(path=str(out_dir / "graph.ttl"), format=ox.RdfFormat.TURTLE))


def test_dask_workers_make_the_papers_this_process_makes(cluster):
    abstracts = invented_abstracts(9)
    with distributed.Client(cluster) as client:
        remote = [paper for _, paper in dask_records(iter(abstracts), client, partition=4, papers=True)]
    assert remote == list(paper_stream(abstracts))
    assert all(isinstance(p, PaperOutput) and p.nquads for p in remote)


def test_partitions_run_on_both_workers_and_come_back_in_order(cluster):
    abstracts = invented_abstracts(12)
    with distributed.Client(cluster) as client, distributed.get_task_stream(client) as tasks:
        pairs = list(dask_records(iter(abstracts), client, partition=2))
    assert [a.id for a, _ in pairs] == [r["id"] for _, r in pairs] == [a.id for a in abstracts]
    ran = [t for t in tasks.data if t["key"].startswith("extract_partition")]
    assert len(ran) == 6
    assert len({t["worker"] for t in ran}) == 2


def test_extra_gazetteer_files_are_sent_to_the_workers(tmp_path, cluster):
    # The file's stem gives its entries' type, so the name must survive the trip.
    gaz = tmp_path / "datasets.jsonl"
    gaz.write_text('{"name": "Wombat Sightings", "aliases": ["WS-9"]}\n', encoding="utf-8")
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"id": "w1", "abstract": "We count birds on the Wombat Sightings corpus. "
                                                          "The model does well."}) + "\n", encoding="utf-8")
    out = tmp_path / "records.jsonl"
    assert main(["extract", str(corpus), "-o", str(out), "--gazetteer", str(gaz),
                 "--dask", cluster.scheduler_address]) == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    assert "Wombat Sightings" in [e["name"] for e in record["entities"]["Dataset"]]


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path, corpus, monkeypatch, capsys):
    monkeypatch.setattr(dask_runner, "CONNECT_TIMEOUT", "1s")
    code = main(["build", str(corpus), "-o", str(tmp_path / "out"), "--dask", "tcp://127.0.0.1:9"])
    assert code == 2
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err
    assert "Traceback" not in err
    assert not (tmp_path / "out" / "records.jsonl").exists()


def test_connect_refuses_a_missing_dask_with_an_install_hint(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_distributed(name, *args, **kw):
        if name == "distributed":
            raise ImportError(name)
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_distributed)
    with pytest.raises(DaskError, match=r"kg-abstracts\[dask\]"):
        dask_runner.connect("tcp://127.0.0.1:9")
