"""GDN012 import-too-deep: an @-import chain deeper than the reading agent follows."""

from __future__ import annotations

import re

import pytest
from conftest import example, findings, lint


def _files_of(shown: str) -> dict[str, str]:
    """The files of a `head` over several files, as it prints them (`==> name <==`)."""
    parts = re.split(r"^==> (\S+) <==\n", shown.split("\n", 1)[1], flags=re.M)[1:]
    return {name: text.rstrip("\n") + "\n" for name, text in zip(parts[::2], parts[1::2])}


def test_the_docs_example_a_chain_of_five_hops_is_reported() -> None:
    files = _files_of(example("GDN012"))
    assert list(files) == ["CLAUDE.md", "a.md", "b.md", "c.md", "d.md", "e.md"]
    (found,) = findings(files)
    assert (found.path, found.line, found.code) == ("CLAUDE.md", 1, "GDN012")
    assert (
        found.message
        == "import chain CLAUDE.md -> a.md -> b.md -> c.md -> d.md -> e.md is 5 hops deep, and Claude Code follows 4, so it never loads e.md; import it from a shallower file"
    )


def test_the_docs_use_instead_the_deep_file_imported_directly_is_not_reported() -> None:
    assert lint({**_files_of(example("GDN012")), "CLAUDE.md": example("GDN012", "Use instead")}) == []


def test_a_file_claude_md_imports_directly_is_not_called_never_loaded() -> None:
    # From a peer linter's fixtures: x.md sits five hops down one chain, and CLAUDE.md
    # imports it directly too; Claude Code loads it through the direct import.
    files = {"CLAUDE.md": "@a.md\n@x.md\n", "a.md": "@b.md\n", "b.md": "@c.md\n", "c.md": "@d.md\n", "d.md": "@x.md\n", "x.md": "x\n"}
    assert lint(files, select="GDN012") == []
    deeper = {**files, "CLAUDE.md": "@a.md\n", "d.md": "@e.md\n", "e.md": "@x.md\n"}
    assert lint(deeper, select="GDN012") == [("CLAUDE.md", 1, "GDN012")]


def _chain(first: str, hops: int) -> dict[str, str]:
    names = [first] + [f"{chr(ord('a') + i)}.md" for i in range(hops)]
    return {name: f"@{names[i + 1]}\n" if i + 1 < len(names) else "end\n" for i, name in enumerate(names)}


def test_importing_the_deep_file_directly_passes() -> None:
    assert lint({**_chain("CLAUDE.md", 5), "CLAUDE.md": "@a.md\n@e.md\n"}, select="GDN012") == []


def test_the_house_import_depth_limit() -> None:
    # AGENTS.md: Amp follows its imports to a depth nobody has confirmed, Codex not at
    # all: only the repository's own limit, when set, speaks about it.
    files = {"AGENTS.md": "@d/1.md\n", **{f"d/{i}.md": f"@{i + 1}.md\n" if i < 6 else "end\n" for i in range(1, 7)}}
    assert lint(files, select="GDN012") == []
    (found,) = findings(files, select="GDN012", config={"guidance": {"max-import-depth": 5}})
    assert found.path == "AGENTS.md" and "d/6.md" in found.message and "over guidance.max-import-depth 5" in found.message


def _deep(first: str, hops: int) -> dict[str, str]:
    up = "../" * first.count("/")  # imports resolve from the importing file's folder
    return {first: f"@{up}d/1.md\n", **{f"d/{i}.md": f"@{i + 1}.md\n" if i < hops else "end\n" for i in range(1, hops + 1)}}


@pytest.mark.parametrize(
    ("first", "hops", "agent"),
    [
        pytest.param("CLAUDE.md", 4, None, id="claude-4-hops-ok"),
        pytest.param("CLAUDE.md", 5, "Claude Code follows 4", id="claude-5-hops"),
        pytest.param(".claude/rules/deep.md", 5, "Claude Code follows 4", id="claude-rule-5-hops"),  # @../../d/1.md
        pytest.param("GEMINI.md", 5, None, id="gemini-5-hops-ok"),
        pytest.param("GEMINI.md", 6, "Gemini CLI follows 5", id="gemini-6-hops"),
        pytest.param("AGENTS.md", 9, None, id="amp-depth-unconfirmed-codex-none"),
    ],
)
def test_import_depth_per_agent(first: str, hops: int, agent: str | None) -> None:
    found = findings(_deep(first, hops), select="GDN012")
    if agent is None:
        assert found == []
    else:
        (p,) = found
        assert p.path == first and f"is {hops} hops deep, and {agent}, so it never loads d/{hops}.md" in p.message


def test_depth_counts_from_the_file_the_agent_reads() -> None:
    # Claude Code reads CLAUDE.md, which imports AGENTS.md: the hops count from CLAUDE.md.
    (p,) = findings({**_deep("AGENTS.md", 4), "CLAUDE.md": "@AGENTS.md\n"}, select="GDN012")
    assert p.path == "CLAUDE.md" and "CLAUDE.md -> AGENTS.md -> d/1.md -> d/2.md -> d/3.md -> d/4.md is 5 hops deep" in p.message
