"""kg's modules import one another in one direction only.

The graph is read from the source, every import statement counted: those
at the top of a module, inside functions, and under `if TYPE_CHECKING:`,
since an import that runs late still ties the two modules together. A package
imported by name (`from kg.graph import vocab`) counts as the submodule it
names, not as the package's `__init__`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]


def _modules(package: Path) -> dict[str, Path]:
    out = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
              modules: dict[str, Path]) -> set[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            parts = module.split(".") if is_package else module.split(".")[:-1]
            parts = parts[:len(parts) - node.level + 1]
            base = ".".join(parts + ([node.module] if node.module else []))
        # `from kg.graph import vocab` imports the submodule kg.graph.vocab;
        # `from kg.graph.vocab import MLKG` imports kg.graph.vocab.
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
    top = next(iter(modules)).split(".")[0]
    found = {_resolve(n, modules) for n in names if n == top or n.startswith(top + ".")}
    return {m for m in found if m and m != module}


def import_graph(package: Path = ROOT / "kg") -> nx.DiGraph:
    """The package's modules and the imports between them, from the source."""
    modules = _modules(package)
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _imported(node, module, path.name == "__init__.py", modules):
                    graph.add_edge(module, target, line=node.lineno)
    return graph


def test_the_graph_is_read_from_the_source() -> None:
    graph = import_graph()
    # Known edges of each kind: at the top, and inside a function.
    assert graph.has_edge("kg.pipeline", "kg.relations.component")
    assert graph.has_edge("kg.cli", "kg.builder")
    assert len(graph) > 50 and graph.number_of_edges() > 100


def circles(graph: nx.DiGraph) -> list[str]:
    """Each circle of the graph, as one path through it with the lines of its imports."""
    described = []
    for circle in nx.strongly_connected_components(graph):
        if len(circle) < 2:
            continue
        sub = graph.subgraph(circle)
        cycle = nx.find_cycle(sub)
        described.append(" -> ".join(f"{a} (line {sub.edges[a, b]['line']})" for a, b in cycle)
                         + f" -> {cycle[0][0]}")
    return described


def test_no_import_circles() -> None:
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join(found)


def test_a_circle_through_an_import_inside_a_function_is_found(tmp_path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import g\n")
    (package / "b.py").write_text("def g():\n    from pkg import a\n    return a\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import x\n")
    graph = import_graph(package)
    assert set(graph.edges) == {("pkg.a", "pkg.b"), ("pkg.b", "pkg.a"), ("pkg.c", "pkg.a")}
    assert len(circles(graph)) == 1 and "pkg.b (line 2)" in circles(graph)[0]
