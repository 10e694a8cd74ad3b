"""The layout ARCHITECTURE.md describes, enforced: what each package may import,
no import circles, no module over 800 lines, rules as named objects, and `Any` kept
to the few places that need it.

The import graph is read from the source (ast), not by importing, so a lazy import
inside a function counts as much as one at the top, and an import under
``if TYPE_CHECKING:`` as much as any: a type a module needs from a layer above it, or
from a module that imports it back, is a dependency all the same.
"""

from __future__ import annotations

import ast
import functools
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import source_tree

SRC = Path(__file__).resolve().parents[2] / "src" / "memcheck"

# Each layer may import from its own layer and the layers before it, never after.
# A module not named here is in the layer of its package (its first dotted part).
LAYERS: list[tuple[str, ...]] = [
    ("memcheck", "memcheck.problem", "memcheck.paths", "memcheck.choices", "memcheck.safe_files"),
    ("memcheck.text",),
    # The agent facts and the engine that answers from them read no repository.
    (
        "memcheck.config",
        "memcheck.git",
        "memcheck.git_raw",
        "memcheck.listing",
        "memcheck.gitrefs",
        "memcheck.changes",
        "memcheck.rules",
        "memcheck.agents",
        "memcheck.agents.kinds",
    ),
    # Which paths the guard stops (its categories and patterns) is asked by the rules
    # too: what a symlink out of the repository leads to (workspace/links_out.py).
    (
        "memcheck.agents.expansion",
        "memcheck.agents.readers",
        "memcheck.agents.links",
        "memcheck.agents.guidance_model",
        "memcheck.agents.guidance_kinds",
        "memcheck.workspace",
        "memcheck.guard.categories",
        "memcheck.guard.tiers",
        "memcheck.guard.paths",
    ),
    ("memcheck.index", "memcheck.baseline"),
    ("memcheck.checks",),
    # suppression reports the MCK rules while it applies the comments.
    ("memcheck.engine", "memcheck.suppression", "memcheck.guard", "memcheck.output"),
    ("memcheck.hooks", "memcheck.server"),
    ("memcheck.cli", "memcheck.__main__", "memcheck.launch"),
]


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# The source does not change during a run: each module is read and parsed once, not
# once per test (141 tests here; parsing every module took 0.5-1 s of CPU each time),
# its tree shared with the other tests that walk the source (conftest.source_tree).
@functools.cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(SRC.rglob("*.py"))}


@functools.cache
def source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def tree(path: Path) -> ast.Module:
    return source_tree(path)


def _type_checking(node: ast.If) -> bool:
    return (
        isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def _imports(tree: ast.AST, here: str, is_package: bool) -> Iterator[str]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = here if is_package else here.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            yield base
            yield from (f"{base}.{a.name}" for a in node.names)
        yield from _imports(node, here, is_package)


@functools.cache
def graph() -> dict[str, set[str]]:
    known = modules()
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        found = set(_imports(tree(path), name, path.name == "__init__.py"))
        edges[name] = {m for m in found if m in known and m != name and m != "memcheck"}
    return edges


def layer(name: str) -> int:
    best, depth = None, -1
    for i, members in enumerate(LAYERS):
        for member in members:
            if (name == member or name.startswith(member + ".")) and member.count(".") > depth:
                best, depth = i, member.count(".")
    assert best is not None, f"{name} is in no layer of ARCHITECTURE.md: add it to LAYERS and to the document"
    return best


def test_every_module_imports_only_its_own_layer_or_lower() -> None:
    upward = [f"{a} imports {b}" for a, targets in graph().items() for b in sorted(targets) if layer(b) > layer(a)]
    assert upward == []


def test_a_rule_family_imports_no_command_engine_or_other_family() -> None:
    bad = []
    for name, targets in graph().items():
        if name.startswith("memcheck.checks."):
            family = ".".join(name.split(".")[:3])  # a family's package may hold several modules
            bad += [
                f"{name} imports {t}"
                for t in targets
                if t.startswith(("memcheck.hooks", "memcheck.cli", "memcheck.engine", "memcheck.checks."))
                and not (t == family or t.startswith(family + "."))
            ]
    assert bad == []


def test_reading_a_file_imports_no_rule() -> None:
    edges = graph()
    bad = [
        f"{a} imports {b}"
        for a in edges
        if a.startswith(("memcheck.text", "memcheck.workspace"))
        for b in edges[a]
        if b.startswith(("memcheck.checks", "memcheck.rules", "memcheck.hooks", "memcheck.engine"))
    ]
    assert bad == []


def test_no_module_imports_another_modules_private_name() -> None:
    bad = []
    for name, path in modules().items():
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("memcheck"):
                bad += [
                    f"{name} imports {node.module}.{a.name}" for a in node.names if a.name.startswith("_") and not a.name.startswith("__")
                ]
    assert bad == []


def test_no_import_circle() -> None:
    edges = graph()
    circles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                circles.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert circles == []


MAX_LINES = 800


@pytest.mark.parametrize("name", sorted(modules()))
def test_no_module_is_over_800_lines(name: str) -> None:
    lines = source(modules()[name]).count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines: split it along its sections"


def test_findings_come_from_named_rules_not_string_lookups() -> None:
    lookups = [
        f"{p.relative_to(SRC)}:{i}"
        for p in modules().values()
        for i, line in enumerate(source(p).splitlines(), 1)
        if re.search(r"\bR\[", line)
    ]
    assert lookups == []


def test_record_classes_and_module_patterns_cost_a_hook_little_to_import() -> None:
    # A commit hook imports most modules: their record classes are built by
    # memcheck.records (typing's NamedTuple costs three times as much), their
    # module-level patterns compiled on first use (lazy_regex), their hashes taken
    # without loading OpenSSL (digests).
    typing_records = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if re.search(r"^from typing import .*\bNamedTuple\b", p.read_text(), re.M) and p.name != "records.py"
    ]
    assert typing_records == []
    eager = [
        f"{p.relative_to(SRC)}:{i}"
        for p in SRC.rglob("*.py")
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if re.match(r"[A-Za-z_]\w*(: [^=]+)? = re\.compile\(", line)
    ]
    assert eager == []
    hashing = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if re.search(r"^(import hashlib|import hmac)$", p.read_text(), re.M) and p.parts[-2] != "output"
    ]
    assert hashing == []


def test_any_is_rare_and_each_use_says_why() -> None:
    uses: list[tuple[str, bool]] = []
    for path in modules().values():
        if "Any" not in source(path):
            continue  # most modules never name it: tokenizing them all took a second of CPU
        lines = source(path).splitlines()
        with path.open("rb") as f:
            tokens = list(tokenize.tokenize(f.readline))
        for tok in tokens:
            if tok.type == tokenize.NAME and tok.string == "Any" and not tok.line.lstrip().startswith(("from ", "import ")):
                row = tok.start[0]
                said = "#" in lines[row - 1] or lines[row - 2].lstrip().startswith("#")
                uses.append((f"{path.relative_to(SRC)}:{row}", said))
    assert len(uses) <= 20, uses
    assert [where for where, said in uses if not said] == []


def _all_imports(tree: ast.AST) -> Iterator[str]:
    """Every module a file names in an import, type annotations' included."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            yield from (f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names)


FACTS_LAYER = ("memcheck.agents", "memcheck.agents.facts", "memcheck.agents.engine")


def test_the_agent_facts_and_engine_know_no_repository() -> None:
    assert set(FACTS_LAYER) <= set(modules())
    # Not even for a type annotation: the data and the engine answer from the facts
    # alone, and discovery, links and import expansion (the rest of agents/, which
    # applies the facts to a workspace's files) come after them.
    bad = []
    for name, path in modules().items():
        if name in FACTS_LAYER:
            bad += [
                f"{name} imports {m}"
                for m in _all_imports(tree(path))
                if m.startswith(
                    (
                        "memcheck.workspace",
                        "memcheck.agents.links",
                        "memcheck.agents.expansion",
                        "memcheck.agents.readers",
                        "memcheck.agents.guidance_model",
                        "memcheck.text",
                    )
                )
            ]
    assert bad == []


# What a rule may not do to the disk behind the Workspace's back: the cache would not
# know the part depends on the answer (see ARCHITECTURE.md).
_DISK_CALL = re.compile(
    r"\bos\.path\.(?:exists|lexists|isfile|isdir|islink|realpath|getsize)\(|\bos\.(?:readlink|stat|lstat|scandir|listdir|walk)\(|\bopen\(|\.(?:is_file|is_dir|is_symlink|exists|read_text|read_bytes)\(\)"
)


# The root's own real path, and that of the settings file in use: both in every cache key.
_DISK_ALLOWED = {("agents/expansion.py", "os.path.realpath(ws.root)"), ("checks/meta/nested_config.py", "os.path.realpath(read)")}


def test_rules_ask_the_disk_only_through_the_workspace() -> None:
    # agents/readers.py reads the user's own files for `memcheck context` (never a check's
    # part), and notes what _head reads; workspace/ and text/ are the readers themselves.
    places = [
        *sorted((SRC / "checks").rglob("*.py")),
        *sorted((SRC / "index").rglob("*.py")),
        *(
            SRC / name
            for name in ("agents/links.py", "agents/expansion.py", "agents/guidance_model.py", "agents/guidance_kinds.py", "suppression.py")
        ),
    ]
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in places
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _DISK_CALL.search(line.split("#", 1)[0])
        and not any(str(path.relative_to(SRC)) == file and allowed in line for file, allowed in _DISK_ALLOWED)
    ]
    assert found == []


# The Workspace answers three kinds of question, each in a class of its own (see
# ARCHITECTURE.md): the files of a source, what is found among them, what is worked
# out from them. The class holding the files knows nothing of what is found there.
_FOUND_AMONG_FILES = (
    "memcheck.workspace.found",
    "memcheck.workspace.stores",
    "memcheck.workspace.guidance",
    "memcheck.workspace.skills",
    "memcheck.workspace.agentfiles",
    "memcheck.workspace.derived",
    "memcheck.workspace.discover",
)


def test_the_files_of_a_source_know_nothing_found_among_them() -> None:
    name = "memcheck.workspace.source_files"
    found = [m for m in _all_imports(tree(modules()[name])) if m.startswith(_FOUND_AMONG_FILES)]
    assert found == []
    text = source(modules()[name]).lower()
    words = re.findall(r"\b(?:self|other)\.\w*(?:store|guidance|skill|twin)\w*", text.split('"""', 2)[2])
    assert words == []


def test_the_workspace_is_its_three_parts_and_what_spans_them() -> None:
    from memcheck.workspace.derived import DerivedFacts
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.found import FoundFiles
    from memcheck.workspace.source_files import SourceFiles

    assert Workspace.__mro__[1:] == (FoundFiles, DerivedFacts, SourceFiles, object)
    # Every other question is asked of the part that answers it, and found there.
    own = {n for n in vars(Workspace) if not n.startswith("__")}
    assert own == {"cache_note", "reuse_listing", "reuse_documents", "reuse_skills"}
