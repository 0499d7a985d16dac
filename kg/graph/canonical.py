"""Entity resolution across abstracts: one node per real-world entity.

Each paper names an entity by a `name` and maybe some `aliases` (a
"naming"). Two names are the same entity when

1. they fold to the same key (`CIFAR-10`, `CIFAR10`, `cifar-10`);
2. one gazetteer entry lists both (its name and its aliases);
3. some paper gives one as an alias of the other ("Long Range Arena (LRA)"),
   unless that alias is given for two different entities (SR =
   super-resolution in one paper, speech recognition in another): such an
   alias is ambiguous and joins nothing.

The result depends only on the set of namings, never on their order, so the
canonical IRI and label of an entity are the same whatever order or batch
abstracts arrive in. The resolver is fed in two passes: `add` every naming,
then `finish`, then ask `iri_of` for each naming and read `entities`.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Iterator

from kg.graph import iris
from kg.graph.iris import entity_iri, entity_slug
from kg.io import gazetteer_files
from kg.io.gazetteer_files import Entry

# The resolver folds each name many times (per naming, per pass); names
# repeat across papers, so a bounded cache saves most of the work.
fold = lru_cache(maxsize=1 << 18)(iris.fold)

Key = tuple[str, str]  # (entity type, folded name)


@dataclass
class Entity:
    """The canonical description of one entity, as the entities graph holds it."""

    iri: str
    etype: str
    pref_label: str
    alt_labels: list[str] = field(default_factory=list)
    exact_match: list[str] = field(default_factory=list)


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[Key, Key] = {}

    def find(self, k: Key) -> Key:
        parent = self.parent
        if k not in parent:
            parent[k] = k
            return k
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    def union(self, a: Key, b: Key) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            # The smaller root wins only to keep the structure reproducible;
            # the partition itself does not depend on it.
            if rb < ra:
                ra, rb = rb, ra
            self.parent[rb] = ra


@dataclass
class _Cluster:
    gazetteer: int | None = None  # index of its gazetteer entry, if any
    name_uses: Counter = field(default_factory=Counter)
    forms: set = field(default_factory=set)
    keys: set = field(default_factory=set)


def _naming_key(names: Iterable[str], aliases: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    names = tuple(sorted(set(names)))
    return names, tuple(sorted(set(aliases) - set(names)))


class Resolver:
    """Resolves namings to canonical entities (see the module doc)."""

    def __init__(self, gazetteer: Iterable[Entry] = ()):
        self.entries = list(gazetteer)
        # (type, key) -> index of the first gazetteer entry listing that key
        self.gazetteer_key: dict[Key, int] = {}
        for i, e in enumerate(self.entries):
            for form in (e.name, *e.aliases):
                self.gazetteer_key.setdefault((e.type, fold(form)), i)
        self.namings: Counter = Counter()
        self._done = False
        self._local: dict[tuple, str] = {}

    def fresh(self) -> "Resolver":
        """A resolver with the same gazetteer and no namings yet."""
        other = Resolver.__new__(Resolver)
        other.entries, other.gazetteer_key = self.entries, self.gazetteer_key
        other.namings, other._done, other._local = Counter(), False, self._local
        return other

    # -- a first guess from one paper alone ----------------------------------
    def local_iri(self, etype: str, name: str, aliases: tuple[str, ...] | list[str] = ()) -> str:
        """The IRI from this naming and the gazetteer only. It is what
        `iri_of` gives unless other papers join this entity to another name."""
        key = (etype, name, *aliases)
        iri = self._local.get(key)
        if iri is None:
            if len(self._local) > 200_000:
                self._local.clear()  # a bound on memory; names repeat, so hits stay high
            iri = self._local[key] = self._first_guess(etype, name, aliases)
        return iri

    def _first_guess(self, etype: str, name: str, aliases: Iterable[str]) -> str:
        forms = [name, *aliases]
        for form in forms:
            i = self.gazetteer_key.get((etype, fold(form)))
            if i is not None:
                return str(entity_iri(etype, self.entries[i].name))
        rep = min((fold(f) for f in forms), key=lambda k: (len(k), k))
        return str(entity_iri(etype, _best_form([f for f in forms if fold(f) == rep])))

    # -- pass 1 -----------------------------------------------------------------
    def add(self, etype: str, names: Iterable[str], aliases: Iterable[str] = ()) -> None:
        """One paper's naming of one entity."""
        names, aliases = _naming_key(names, aliases)
        if names:
            self.namings[(etype, names, aliases)] += 1
            self._done = False

    def finish(self) -> None:
        uf = _UnionFind()
        for (etype, key), _ in self.gazetteer_key.items():
            uf.find((etype, key))
        for i, e in enumerate(self.entries):
            head = (e.type, fold(e.name))
            for form in e.aliases:
                uf.union(head, (e.type, fold(form)))
        for etype, names, _ in self.namings:
            for n in names:
                uf.find((etype, fold(n)))
        # Aliases join names only where they point one way: roots are taken
        # before any alias is applied, so the outcome is order-free.
        targets: dict[Key, set[Key]] = defaultdict(set)
        edges: list[tuple[Key, Key]] = []
        for etype, names, aliases in self.namings:
            for a in aliases:
                ak = (etype, fold(a))
                for n in names:
                    nk = (etype, fold(n))
                    if ak != nk:
                        targets[ak].add(uf.find(nk))
                        edges.append((ak, nk))
        for ak, nk in edges:
            if len(targets[ak]) == 1:
                uf.union(ak, nk)
        self.uf = uf

        clusters: dict[Key, _Cluster] = defaultdict(_Cluster)
        for i, e in enumerate(self.entries):
            c = clusters[uf.find((e.type, fold(e.name)))]
            if c.gazetteer is None or i < c.gazetteer:
                c.gazetteer = i
        for (etype, names, aliases), uses in self.namings.items():
            root = self._root(etype, names)
            c = clusters[root]
            for n in names:
                c.name_uses[n] += uses
            for form in (*names, *aliases):
                c.forms.add(form)
                k = (etype, fold(form))
                if uf.find(k) == root:
                    c.keys.add(k[1])
        self.clusters = clusters
        self._iri: dict[Key, str] = {}
        self._named: dict[tuple[str, ...], str] = {}  # (type, *names) -> iri_of
        self._done = True

    def _root(self, etype: str, names: tuple[str, ...]) -> Key:
        # A paper node with two names (merged earlier by another paper's
        # alias) belongs with the one of smallest key.
        return self.uf.find((etype, min(fold(n) for n in names)))

    # -- pass 2 -----------------------------------------------------------------
    def iri_of(self, etype: str, names: Iterable[str], aliases: Iterable[str] = ()) -> str:
        assert self._done, "call finish() after the last add()"
        # The names alone decide (aliases join names in `finish` only), and
        # the same few names come back in paper after paper.
        key = (etype, *names)
        iri = self._named.get(key)
        if iri is None:
            iri = self._named[key] = self._cluster_iri(self._root(etype, _naming_key(key[1:], ())[0]))
        return iri

    def _cluster_iri(self, root: Key) -> str:
        iri = self._iri.get(root)
        if iri is None:
            c = self.clusters[root]
            etype = root[0]
            if c.gazetteer is not None:
                iri = str(entity_iri(etype, self.entries[c.gazetteer].name))
            else:
                rep = min(c.keys, key=lambda k: (len(k), k))
                iri = str(entity_iri(etype, _best_form([f for f in c.forms if fold(f) == rep])))
            self._iri[root] = iri
        return iri

    def entities(self) -> Iterator[Entity]:
        """Every entity some naming refers to, in IRI order."""
        assert self._done, "call finish() after the last add()"
        out = []
        for root, c in self.clusters.items():
            if not c.name_uses:
                continue  # a gazetteer entry no paper mentions
            if c.gazetteer is not None:
                entry = self.entries[c.gazetteer]
                pref, exact = entry.name, sorted(set(entry.exact_match))
            else:
                pref = min(c.name_uses.items(), key=lambda kv: (-kv[1], kv[0]))[0]
                exact = []
            out.append(Entity(self._cluster_iri(root), root[0], pref, sorted(c.forms - {pref}), exact))
        out.sort(key=lambda e: e.iri)
        return iter(out)


def _best_form(forms: list[str]) -> str:
    """Of the spellings of one key, the one whose slug reads best: the
    alphabetically first slug, which prefers word breaks ("cifar-10" < "cifar10")."""
    return min(forms, key=lambda f: (entity_slug(f), f))


def entity_resolver(gazetteers: Iterable[str | os.PathLike] = ()) -> Resolver:
    """The cross-paper entity resolver over the built-in and the user's gazetteers."""
    return Resolver(gazetteer_files.load(gazetteers))
