"""Extraction on an existing Dask cluster.

Partitions of abstracts are sent to the cluster's workers, which run the same
Extractor as a local build; records come back in input order and the caller
loads them into the store, so the graph is the same as a local build's. A few
partitions per worker thread are in flight at a time, so the client's memory
stays bounded. Workers need kg installed; extra gazetteer files are sent to
them, so they need not share a file system with the client.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from pathlib import Path
from typing import Any, Iterable, Iterator

from kg.extract.parallel import Pair, chunked, ordered_results
from kg.model import Abstract

PARTITION = 256
IN_FLIGHT_PER_THREAD = 2
CONNECT_TIMEOUT = "20s"


class DaskError(RuntimeError):
    """The cluster cannot be used: dask missing, scheduler unreachable."""


def dask_records(abstracts: Iterable[Abstract], scheduler: Any, gazetteers: Iterable[str | os.PathLike] = (), *,
                 partition: int = PARTITION) -> Iterator[Pair]:
    """(abstract, record) pairs in input order, extracted on the Dask cluster at
    `scheduler` (an address such as tcp://host:8786, or a distributed.Client)."""
    client, owned = connect(scheduler)
    try:
        files = tuple((Path(p).name, Path(p).read_bytes()) for p in gazetteers)
        key = hashlib.sha256(repr(files).encode()).hexdigest()[:16]
        # Sent once to every worker, not once per partition.
        [files_on_cluster] = client.scatter([files], broadcast=True, hash=False)
        threads = sum(client.nthreads().values()) or 1
        try:
            yield from ordered_results(
                chunked(abstracts, partition),
                lambda chunk: client.submit(extract_partition, chunk, key, files_on_cluster, pure=False),
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
        from distributed import Client
    except ImportError:
        raise DaskError("--dask needs Dask: pip install 'kg-abstracts[dask]'") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    try:
        return Client(str(scheduler), timeout=CONNECT_TIMEOUT), True
    except (OSError, TimeoutError, ValueError) as err:
        raise DaskError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None


# -- worker side ----------------------------------------------------------------
# One Extractor per worker thread and gazetteer set: a spaCy pipeline is built
# once, not once per partition, and is never shared between threads.
_local = threading.local()
_gazetteer_dirs: dict[str, list[str]] = {}
_dirs_lock = threading.Lock()


def extract_partition(chunk: list[Abstract], key: str, files: tuple[tuple[str, bytes], ...]) -> list[dict]:
    extractors = getattr(_local, "extractors", None)
    if extractors is None:
        extractors = _local.extractors = {}
    extractor = extractors.get(key)
    if extractor is None:
        from kg.extract.record import Extractor

        extractor = extractors[key] = Extractor(_gazetteer_paths(key, files))
    return [rec for _, rec in extractor.records(chunk, batch_size=len(chunk))]


def _gazetteer_paths(key: str, files: tuple[tuple[str, bytes], ...]) -> list[str]:
    """The gazetteer files written to this worker's disk, once per process.
    Names are kept: a file's stem ("datasets") gives its entries' type."""
    with _dirs_lock:
        if key not in _gazetteer_dirs:
            root = Path(tempfile.mkdtemp(prefix=f"kg-gazetteers-{key}-"))
            paths = []
            for i, (name, data) in enumerate(files):
                path = root / str(i) / name
                path.parent.mkdir()
                path.write_bytes(data)
                paths.append(str(path))
            _gazetteer_dirs[key] = paths
        return _gazetteer_dirs[key]
