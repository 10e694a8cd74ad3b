"""`memcheck context PATH`: what an agent working on PATH loads (seed 000's discovery
and scope order, imports, index caps, the budget)."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke, memory, run_cli, write


def _context(root: Path, path: str, *args: str) -> tuple[int, dict[str, Any]]:
    proc = run_cli(root, "context", path, "--format", "json", *args)
    assert proc.stderr == "", proc.stderr
    return proc.returncode, json.loads(proc.stdout)


@pytest.fixture
def project(repo: Path) -> Path:
    write(repo, "AGENTS.md", "# Root\n\n@docs/style.md\n")
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    write(repo, "docs/style.md", "# Style\n\n@deeper.md and @missing.md\n")
    write(repo, "docs/deeper.md", "Deeper.\n")
    write(repo, "src/AGENTS.md", "# Src\n")
    write(repo, "src/CLAUDE.md", "# Src for Claude\n")
    write(repo, "src/api/AGENTS.md", "---\nglobs:\n  - 'src/api/**/*.py'\n  - '!src/api/**/test_*.py'\n---\n\nAPI rules.\n")
    write(repo, "src/api/handler.py", "pass\n")
    write(repo, "src/api/test_handler.py", "pass\n")
    write(repo, "web/AGENTS.md", "# Web: not on the way to src\n")
    for i in range(3):
        write(repo, f".claude/memory/m{i}.md", memory(f"M{i}", f"memory {i}", "user"))
    index = "".join(f"- [M{i}](m{i}.md) \u2014 memory {i}\n" for i in range(3))
    write(repo, ".claude/memory/MEMORY.md", index)
    write(repo, "web/.memory/MEMORY.md", "- [W](w.md) \u2014 web only\n")
    write(repo, ".claude/skills/run-tests/SKILL.md", "---\nname: run-tests\ndescription: Run the tests.\n---\n\nBody.\n")
    return repo


def test_chain_root_to_path_with_shadowed_variants_and_imports(project: Path) -> None:
    code, report = _context(project, "src/api/handler.py")
    assert code == 0
    chain = [(g["scope"], g["file"], g["loaded"]) for g in report["guidance"]]
    assert chain == [("project", "AGENTS.md", True), ("parent", "src/AGENTS.md", True), ("subtree", "src/api/AGENTS.md", True)]
    root, src, api = report["guidance"]
    assert root["shadowed"] == [{"file": "CLAUDE.md", "reason": "the same file as AGENTS.md (symlink): nothing is lost"}]
    assert src["shadowed"][0]["file"] == "src/CLAUDE.md" and "agents read AGENTS.md instead" in src["shadowed"][0]["reason"]
    assert [(i["file"], i["depth"]) for i in root["imports"]] == [("docs/style.md", 1), ("docs/deeper.md", 2)]
    assert any("@missing.md does not exist" in n for n in root["notes"])
    assert api["reason"] == "glob 'src/api/**/*.py' includes src/api/handler.py"


def test_globs_exclude_the_path(project: Path) -> None:
    _, report = _context(project, "src/api/test_handler.py")
    api = report["guidance"][-1]
    assert api["loaded"] is False and api["reason"] == "glob '!src/api/**/test_*.py' excludes src/api/test_handler.py"
    assert api["total_tokens"] == 0


def test_indexes_loaded_at_start_up_with_caps(project: Path) -> None:
    write(project, ".memcheck.yaml", "index:\n  max-lines: 2\n")
    _, report = _context(project, "src")
    (index,) = report["indexes"]  # web/.memory belongs to web/, not on the way to src
    assert index["file"] == ".claude/memory/MEMORY.md"
    assert (index["lines"], index["loaded_lines"], index["past_cap"]) == (3, 2, ["m2.md"])
    _, web = _context(project, "web")
    assert [i["file"] for i in web["indexes"]] == [".claude/memory/MEMORY.md", "web/.memory/MEMORY.md"]


def test_total_against_the_budget_exit_1_when_over(project: Path) -> None:
    code, report = _context(project, "src/api/handler.py")
    total = report["total"]
    parts = sum(g["total_tokens"] for g in report["guidance"]) + sum(i["tokens"] for i in report["indexes"]) + report["skills"]["tokens"]
    assert total["tokens"] == parts and total["budget"] == 25000 and code == 0
    write(project, ".memcheck.yaml", "context:\n  max-tokens: 10\n")
    code, report = _context(project, "src/api/handler.py")
    assert code == 1 and report["total"]["over"] is True


def test_user_level_guidance_and_memory_come_first(project: Path) -> None:
    home = Path(os.environ["HOME"])
    write(home, ".config/amp/AGENTS.md", "# Mine\n")
    write(home, ".agh/memory/MEMORY.md", "- [Me](me.md) - me\n")
    write(home, ".agh/memory/me.md", memory("Me", "me", "user"))
    _, report = _context(project, "src")
    assert report["guidance"][0]["file"] == "~/.config/amp/AGENTS.md" and report["guidance"][0]["scope"] == "user"
    assert report["indexes"][0]["file"] == "~/.agh/memory/MEMORY.md"


def test_text_output_through_click_runner(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = invoke(project, "context", "src/api/handler.py", monkeypatch=monkeypatch)
    assert result.exit_code == 0
    out = result.output
    assert "project  AGENTS.md" in out
    assert "shadowed: src/CLAUDE.md" in out
    assert "@docs/deeper.md" in out
    assert "Total: ~" in out and "context.max-tokens 25,000" in out


def test_path_outside_the_repository_is_a_usage_error(project: Path, tmp_path: Path) -> None:
    proc = run_cli(project, "context", str(tmp_path))
    assert proc.returncode == 2 and "outside the repository" in proc.stderr and "Traceback" not in proc.stderr
