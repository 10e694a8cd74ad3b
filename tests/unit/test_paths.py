"""The path helpers every layer shares."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memcheck.paths import ancestors, down_from_root, links_to

FOLDER = st.lists(st.sampled_from(["a", "b", "c", "pkg"]), max_size=6).map("/".join)


@given(st.lists(FOLDER, max_size=12), st.sampled_from(["a", "b", "c", "pkg"]))
def test_down_from_root_combines_each_folder_with_those_above_it(folders: list[str], marked: str) -> None:
    # What a folder holds: its own name when that is the marked one ("" for the root).
    def own(folder: str) -> frozenset[str]:
        return frozenset({folder}) if folder.rpartition("/")[2] == marked else frozenset()

    found = down_from_root(folders, own, frozenset.union)
    for folder in folders:
        assert found[folder] == frozenset().union(*(own(f) for f in ancestors(folder)))


def test_down_from_root_walks_a_deep_tree_without_recursion() -> None:
    deep = "/".join(["d"] * 5000)
    found = down_from_root([deep], lambda f: 1, lambda up, here: up + here)
    assert found[deep] == 5001 and found[""] == 1


def test_links_to_finds_each_link_that_leads_to_a_changed_file() -> None:
    links = {"CLAUDE.md": "AGENTS.md", "AGENTS.md": "docs/guide.txt", ".claude/memory/a.md": "../../docs/a.txt", "up": "..", "etc": "/etc"}
    # A chain of links (CLAUDE.md -> AGENTS.md -> docs/guide.txt) leads to its last target.
    assert links_to(["docs/guide.txt"], links) == ["AGENTS.md", "CLAUDE.md"]
    assert links_to(["docs/a.txt", "README.md"], links) == [".claude/memory/a.md"]
    # A link already among the paths is not named twice; one out of the tree leads to none of them.
    assert links_to(["AGENTS.md", "docs/guide.txt"], links) == ["CLAUDE.md"]
    assert links_to(["etc"], {"x": "/etc"}) == []
