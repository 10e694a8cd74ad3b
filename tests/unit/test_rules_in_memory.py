"""Rules on files held in memory, as yamllint's rule tests run: a table of trees, each
with the findings it must give, read through ``MemorySource`` (no disk, no git, no
process). Each tree is also written to disk and checked there: the in-memory source
the editor server and these tests read through must see what the disk does."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import lint, memory

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"
LISTED = "# Memory\n\n## User\n- [Review](review.md) - Concise reviews\n"
REVIEW = memory("Review", "Concise reviews", "user")

CASES = [
    pytest.param({INDEX: LISTED, f"{STORE}/review.md": REVIEW}, "MEM,IDX", [], id="clean-store"),
    pytest.param({INDEX: LISTED, f"{STORE}/review.md": "# Review\nNo frontmatter.\n"}, "MEM", [(f"{STORE}/review.md", 1, "MEM002")], id="MEM002-no-frontmatter"),
    pytest.param(
        {INDEX: LISTED, f"{STORE}/review.md": "---\nname: Review\ndescription: Concise reviews\n---\nBody.\n"},
        "MEM006",
        [(f"{STORE}/review.md", 1, "MEM006")],
        id="MEM006-no-type",
    ),
    pytest.param({INDEX: LISTED, f"{STORE}/review.md": memory("Review", "Concise reviews", "mood")}, "MEM007", [(f"{STORE}/review.md", 4, "MEM007")], id="MEM007-unknown-type"),
    pytest.param(
        {INDEX: LISTED + "- [Gone](gone.md) - Deleted\n", f"{STORE}/review.md": REVIEW},
        "IDX002",
        [(INDEX, 5, "IDX002")],
        id="IDX002-dead-entry",
    ),
    pytest.param(
        {INDEX: LISTED, f"{STORE}/review.md": REVIEW, f"{STORE}/style.md": memory("Style", "House style", "feedback")},
        "IDX003",
        [(INDEX, 4, "IDX003")],
        id="IDX003-unlisted",
    ),
    pytest.param({"AGENTS.md": "# Guide\n\nSee @docs/missing.md first.\n"}, "GDN009", [("AGENTS.md", 3, "GDN009")], id="GDN009-missing-import"),
    pytest.param({"AGENTS.md": "# Guide\n\nSee [the style](docs/style.md).\n", "docs/style.md": "# Style\n"}, "GDN013", [], id="GDN013-link-found"),
    pytest.param(
        {".claude/skills/deploy/SKILL.md": "---\nname: Deploy_It\ndescription: Deploys. Use when shipping.\n---\nBody.\n"},
        "SKL004",
        [(".claude/skills/deploy/SKILL.md", 2, "SKL004")],
        id="SKL004-bad-name",
    ),
    pytest.param(
        {INDEX: LISTED, f"{STORE}/review.md": memory("Review", "Concise reviews", "user", body="token ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2 + "\n")},
        "SEC",
        [(f"{STORE}/review.md", 7, "SEC002")],
        id="SEC002-token",
    ),
]


@pytest.mark.parametrize(("files", "select", "expected"), CASES)
def test_rule_in_memory(files: dict[str, str], select: str, expected: list[tuple[str, int, str]]) -> None:
    assert lint(files, select) == expected


@pytest.mark.parametrize(("files", "select", "expected"), CASES)
def test_the_disk_gives_the_same_findings(files: dict[str, str], select: str, expected: list[tuple[str, int, str]], tmp_path: Path) -> None:
    assert lint(files, select, root=tmp_path) == lint(files, select)
