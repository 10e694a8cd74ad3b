"""IDX002 dead-entry: an index link to a file that does not exist."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import example, findings, lint, memory

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({INDEX: example("IDX002")})
    assert (found.path, found.line, found.col, found.code, found.fixable) == (INDEX, 1, 3, "IDX002", True)
    assert found.message == "entry points at 'project_old_plan.md', which does not exist; `memcheck fix` regenerates the index without it"


def test_the_docs_use_instead_the_entry_pointed_at_the_renamed_file_is_not_reported() -> None:
    files = {f"{STORE}/project_plan.md": memory("Old plan", "deleted last week", "project"), INDEX: example("IDX002", "Use instead")}
    assert lint(files) == []


def test_an_entry_whose_file_exists_is_not_reported() -> None:
    files = {f"{STORE}/project_old_plan.md": memory("Old plan", "deleted last week", "project"), INDEX: "# Memory\n\n" + example("IDX002")}
    assert lint(files, select="IDX002") == []


def test_a_renamed_memory_is_named_and_fix_re_points_the_entry() -> None:
    files = {
        f"{STORE}/a.md": memory("A", "about a", "user"),
        f"{STORE}/project_plan_v2.md": memory("Plan", "the plan", "project"),
        INDEX: "# Notes\n- [A](a.md) — about a\n- [Plan](project-plan-v2.md) — the plan\n",
    }
    (found,) = findings(files, select="IDX002")
    assert (found.line, found.col, found.fixable) == (3, 3, True)
    assert found.message.endswith("it looks renamed to project_plan_v2.md: `memcheck fix` re-points the entry there")


def test_a_dead_link_outside_the_store_is_left_to_you() -> None:
    files = {f"{STORE}/a.md": memory("A", "about a", "user"), INDEX: "# Notes\n- [A](a.md) — about a, see [guide](../../docs/gone.md)\n"}
    (found,) = findings(files, select="IDX002")
    assert (found.line, found.fixable) == (2, False)
    assert "'../../docs/gone.md', which does not exist" in found.message


def test_an_entry_for_a_memory_git_ignores_is_not_reported(tmp_path: Path) -> None:
    # Issue 40's shape: the memory holds credentials and git ignores it on purpose; the
    # index names it for the machines that have it. fix leaves the entry (tests/cli).
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    files = {
        ".gitignore": "security_*.md\n",
        f"{STORE}/a.md": memory("a", "a", "project"),
        INDEX: "# Memory\n\n- [a](a.md) - a\n- [Assessment](security_assessment.md) - local only\n- [Gone](gone.md) - removed\n",
    }
    assert lint(files, select="IDX002", root=tmp_path) == [(INDEX, 5, "IDX002")]
