"""Extraction on an existing Dask cluster.

Partitions of abstracts are sent to the cluster's workers, which run the same
kg.extraction.worker.Worker as a local build; records (or, for a build, each
paper's share of the build) come back in input order and the caller loads
them into the store, so the graph is the same as a local build's. A few
partitions per worker thread are in flight at a time, so the client's memory
stays bounded. Workers need kg installed; extra gazetteer and rules files are sent to
them, so they need not share a file system with the client.
"""

from __future__ import annotations

import hashlib
import tempfile
import threading
from pathlib import Path
from typing import Any, Iterable, Iterator

from kg.errors import UserError
from kg.extraction.parallel import Pair, chunked, ordered_results
from kg.extraction.worker import Worker
from kg.model import Abstract, ExtractOptions

PARTITION = 256
IN_FLIGHT_PER_THREAD = 2
CONNECT_TIMEOUT = "20s"


class DaskError(UserError, RuntimeError):
    """The cluster cannot be used: dask missing, scheduler unreachable."""


def dask_records(abstracts: Iterable[Abstract], scheduler: Any, options: ExtractOptions = ExtractOptions(), *,
                 partition: int = PARTITION, papers: bool = False) -> Iterator[Pair]:
    """(abstract, record) pairs in input order, extracted on the Dask cluster at
    `scheduler` (an address such as tcp://host:8786, or a distributed.Client);
    for `papers`, (abstract, PaperOutput) pairs (kg.extraction.worker)."""
    client, owned = connect(scheduler)
    try:
        files = (tuple((Path(p).name, Path(p).read_bytes()) for p in options.gazetteers),
                 tuple((Path(p).name, Path(p).read_bytes()) for p in options.rules),
                 _folder_files(options.model) if options.model and options.use_model else ())
        key = hashlib.sha256(repr((files, options.min_confidence, options.use_model)).encode()).hexdigest()[:16]
        # Sent once to every worker, not once per partition.
        [files_on_cluster] = client.scatter([files], broadcast=True, hash=False)
        threads = sum(client.nthreads().values()) or 1
        try:
            yield from ordered_results(
                chunked(abstracts, partition),
                lambda chunk: client.submit(extract_partition, chunk, key, files_on_cluster, options.min_confidence,
                                             papers, options.use_model, pure=False),
                window=max(2, threads * IN_FLIGHT_PER_THREAD),
            )
        except ImportError as err:  # raised on a worker, re-raised here
            raise DaskError(f"a Dask worker cannot run kg ({err}); install kg-abstracts, the same version, "
                            "on every worker") from None
    finally:
        if owned:
            client.close()


def connect(scheduler: Any) -> tuple[Any, bool]:
    """A Client for `scheduler`, and whether we opened it (and must close it)."""
    try:
        from distributed import Client  # lazy: an optional dependency
    except ImportError:
        raise DaskError("--dask needs Dask: pip install 'kg-abstracts[dask]'") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    try:
        return Client(str(scheduler), timeout=CONNECT_TIMEOUT), True
    except (OSError, TimeoutError, ValueError) as err:
        raise DaskError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None


# -- worker side ----------------------------------------------------------------
# One Worker per worker thread, set of user files and kind of result: a spaCy
# pipeline is built once, not once per partition, and is never shared between threads.
_local = threading.local()
MODEL_GROUP = 2  # files: gazetteers, rules, the model folder
_worker_dirs: dict[str, list[list[str]]] = {}
_dirs_lock = threading.Lock()


def _folder_files(folder: str) -> tuple[tuple[str, bytes], ...]:
    """Every file of a model folder, by its path inside the folder."""
    root = Path(folder)
    return tuple((str(p.relative_to(root)), p.read_bytes()) for p in sorted(root.rglob("*")) if p.is_file())


def extract_partition(chunk: list[Abstract], key: str, files: tuple[tuple[tuple[str, bytes], ...], ...],
                      min_confidence: float, papers: bool = False, use_model: bool = True) -> list:
    workers = getattr(_local, "workers", None)
    if workers is None:
        workers = _local.workers = {}
    worker = workers.get((key, papers))
    if worker is None:

        gazetteers, rules, model = _worker_files(key, files)
        options = ExtractOptions(tuple(gazetteers), tuple(rules), min_confidence,
                                 model=model[0] if model else None, use_model=use_model)
        worker = workers[(key, papers)] = Worker(options, papers)
    return worker.chunk(chunk)


def _worker_files(key: str, files: tuple[tuple[tuple[str, bytes], ...], ...]) -> list[list[str]]:
    """The user's files (gazetteers, rules, a model folder's files) written to
    this worker's disk, once per process. Names are kept: a gazetteer file's
    stem ("datasets") gives its entries' type; a model folder is written whole
    and stands as one path."""
    with _dirs_lock:
        if key not in _worker_dirs:
            root = Path(tempfile.mkdtemp(prefix=f"kg-files-{key}-"))
            groups = []
            for g, group in enumerate(files):
                paths = []
                for i, (name, data) in enumerate(group):
                    path = root / str(g) / (name if g == MODEL_GROUP else f"{i}/{name}")
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(data)
                    paths.append(str(path))
                groups.append([str(root / str(g))] if g == MODEL_GROUP and paths else paths)
            _worker_dirs[key] = groups
        return _worker_dirs[key]
