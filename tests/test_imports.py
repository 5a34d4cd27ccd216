"""The package's modules import one another without a cycle: every import is read from the
source (module level and inside functions alike; ``if TYPE_CHECKING:`` blocks are left out,
as they never run), and the graph of the package's own modules must be acyclic."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the source folders and the package names they install as (pyproject.toml: package-dir)
PACKAGES = {"bideuchre": ROOT / "solver", "bideuchre.cli": ROOT / "cli"}


def modules() -> dict[str, Path]:
    """``{dotted module name: source file}`` of every Python module of the package."""
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            rel = path.relative_to(folder).with_suffix("")
            parts = [] if rel.parts == ("__init__",) else list(rel.parts)
            if parts and parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package, *parts])] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that module ``name`` (source ``path``) imports."""
    is_package = path.name == "__init__.py"
    base = name.split(".") if is_package else name.split(".")[:-1]
    out: set[str] = set()

    def add(target: str) -> None:
        if target in known and target != name:
            out.add(target)

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(alias.name)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    stem = base[:len(base) - (child.level - 1)]
                    module = ".".join(stem + ([child.module] if child.module else []))
                else:
                    module = child.module or ""
                add(module)
                for alias in child.names:
                    add(f"{module}.{alias.name}")     # ``from . import solve_cmd``
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return out


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (the first repeated at the end), or None."""
    state: dict[str, int] = {}          # 1 on the stack, 2 done
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return None


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_imports_read_relative_and_lazy_imports(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("from typing import TYPE_CHECKING\nfrom .a import x\nif TYPE_CHECKING:\n"
                   "    from .b import y\ndef f():\n    from ..c import z\n    import p.d\n")
    known = {"p.q.a", "p.q.b", "p.c", "p.d", "p.q.m"}
    assert imported("p.q.m", src, known) == {"p.q.a", "p.c", "p.d"}


def test_no_import_cycle_in_the_package():
    mods = modules()
    assert {"bideuchre.rules", "bideuchre.cli.app", "bideuchre.search.solve"} <= set(mods)
    graph = {name: imported(name, path, set(mods)) for name, path in mods.items()}
    assert graph["bideuchre.cli.solve_cmd"] >= {"bideuchre.cli.common", "bideuchre.cli.options"}
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_modules_import_only_public_names_of_one_another():
    """A name another module of the package imports is public (no leading underscore); the
    Cython modules ``_search`` and ``_lone`` are private modules with public contents."""
    mods = modules()
    crossing = []
    for name, path in mods.items():
        base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            module = (".".join(base[:len(base) - (node.level - 1)] + ([node.module] if node.module else []))
                      if node.level else node.module or "")
            if not module.startswith("bideuchre"):
                continue
            crossing += [f"{name} imports {module}.{a.name}" for a in node.names
                         if a.name.startswith("_") and not a.name.startswith("__")
                         and f"{module}.{a.name}" not in ("bideuchre.search._search", "bideuchre.search._lone")]
    assert crossing == []
