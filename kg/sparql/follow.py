"""Which store a server answers from: the newest committed build of its folder.

A build never changes a served store in place. `kg build`, `--update` and
`kg remove` write a whole new store folder in a staging area and commit by
renaming it over `store` (kg.io.outputs), after the build has closed it. So
the folder's identity (device, inode, change time) names the committed
build: when it changes, a newer build is complete, and whatever is found at
the path is a finished store, never one still being written.

A store that is switched away from stays readable: RocksDB opens every
table file of a store when it opens it, and an unlinked file lives on while
a handle holds it, so a query running at the switch finishes on the graph it
began with, even after the commit deletes the old folder.

Imported by the query workers: it imports nothing heavy.
"""

from __future__ import annotations

import os
import stat

import pyoxigraph as ox

StoreIdentity = tuple[int, int, int]


def store_identity(path: str | os.PathLike) -> StoreIdentity | None:
    """The identity of the store folder at `path`, or None while there is none
    (e.g. for the instant of a commit between its two renames)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode):
        return None
    # The change time tells a new folder from an old one that got a freed inode number.
    return (st.st_dev, st.st_ino, st.st_ctime_ns)


class FollowedStore:
    """A read-only pyoxigraph Store at `path`, reopened when a newer build is committed there."""
    def __init__(self, path: str | os.PathLike):
        self._ox = ox
        self.path = str(path)
        self.identity = store_identity(self.path)
        self.store = ox.Store.read_only(self.path)  # fails now, with the store's own message
        self.switches = 0

    def current(self):
        """The store of the newest committed build; the one held so far while no
        other is there to open."""
        found = store_identity(self.path)
        if found is None or found == self.identity:
            return self.store
        try:
            fresh = self._ox.Store.read_only(self.path)
        except Exception:  # noqa: BLE001 - moved away again while opening: keep serving, retry next call
            return self.store
        # Swapped once more while it opened? Then which build was opened is unknown;
        # leave the identity unknown so the next call opens the newest one.
        self.identity = found if store_identity(self.path) == found else None
        self.store = fresh  # the old one closes once the last reference is gone
        self.switches += 1
        return self.store
