"""The benchmark's tree shapes are what docs/performance.md says they measure (no timings here).

Each shape is built in memory at a small scale (the same code, fewer packages), so a
claim such as "these globs match no file" is checked on the files the shape writes.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pathspec
import pytest
from conftest import REPO_ROOT

BENCH = REPO_ROOT / "bench"
sys.path.insert(0, str(BENCH))
import generate  # noqa: E402  (a script folder, not a package)


def small(name: str) -> generate.Size:
    size = generate.SIZES[name]
    return replace(size, packages=12, stores=min(size.stores, 6), skills=8, memories=min(size.memories, 30))


def build(size: generate.Size) -> dict[str, str]:
    return generate.build_tree(size, Path("/nonexistent")).files


def frontmatter_globs(text: str) -> list[str]:
    for line in text.split("\n")[1:]:
        if line == "---":
            break
        key, _, value = line.partition(": ")
        if key == "globs":
            return [g.strip().strip("'\"") for g in value.strip("[]").split(",")]
        if key == "applyTo":
            return value.strip('"').split(",")
    return []


def matches_any(globs: list[str], files: dict[str, str], folder: str = "") -> bool:
    spec = pathspec.GitIgnoreSpec.from_lines(globs)
    prefix = f"{folder}/" if folder else ""
    return any(spec.match_file(path[len(prefix) :]) for path in files if path.startswith(prefix))


@pytest.mark.parametrize("name, matching", [("M-globs", False), ("M-frontmatter", True)])
def test_glob_shapes_match_as_named(name: str, matching: bool) -> None:
    files = build(small(name))
    guidance = [p for p, text in files.items() if p.endswith("AGENTS.md") and text.startswith("---")]
    rules = [p for p in files if p.startswith((".github/instructions/", ".cursor/rules/"))]
    assert guidance and len(rules) == 2 * 12
    for path in guidance:  # relative to the guidance file's own folder
        assert matches_any(frontmatter_globs(files[path]), files, path.rpartition("/")[0]) is matching, path
    for path in rules:  # relative to the repository root
        assert matches_any(frontmatter_globs(files[path]), files) is matching, path


def test_linkless_indexes_name_every_memory_without_links() -> None:
    files = build(small("M-linkless"))
    indexes = [p for p in files if p.endswith("/MEMORY.md")]
    assert len(indexes) == 6
    for index in indexes:
        folder = index.rpartition("/")[0]
        stems = {p[len(folder) + 1 : -3] for p in files if p.startswith(folder + "/") and p != index}
        text = files[index]
        assert "](" not in text
        assert {line[2:].partition(":")[0] for line in text.split("\n") if line.startswith("- ")} == stems


def test_deep_shape_puts_packages_below_folders_with_guidance() -> None:
    size = small("M-deep")
    files = build(size)
    package = generate.package_folder(size, 3)
    assert package.count("/") == size.depth
    above = package.rpartition("/")[0]
    while above:
        assert f"{above}/AGENTS.md" in files
        above = above.rpartition("/")[0]


def test_doubled_shapes_double_every_count() -> None:
    one, two = small("M-globs"), small("M-globs").doubled()
    a, b = build(one), build(two)
    for kind in ("AGENTS.md", "CLAUDE.md", ".py", "SKILL.md", "MEMORY.md", ".mdc"):
        assert sum(p.endswith(kind) for p in b) == 2 * sum(p.endswith(kind) for p in a), kind


def test_broken_store_differs_from_its_mended_twin_only_in_rejected_frontmatter() -> None:
    from memcheck.text.document import parse

    broken, mended = (build(replace(generate.SIZES[name], memories=28)) for name in ("M-broken", "M-mended"))
    assert broken.keys() == mended.keys()
    memories = [p for p in broken if "/.claude/memory/" in p and not p.endswith("MEMORY.md")]
    assert len(memories) == 28
    differ = [p for p in memories if broken[p] != mended[p]]
    assert len(differ) == 14  # every other memory, each slip twice
    for path in memories:
        for files, rejected in ((broken, path in differ), (mended, False)):
            fm = parse(path, files[path].encode()).frontmatter
            assert fm is not None and (fm.yaml_error is not None) is rejected, (path, files[path])
