"""What agents load, and nothing else, gets findings (SPEC §2): skills only in the
folders agents load skills from, and no guidance rule on a skill's own files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import check_json, codes_at, run_cli, write

# A skill every SKL rule is happy with, and one that several fail (no frontmatter).
GOOD = "---\nname: {name}\ndescription: Run the tests. Use when asked to test a change.\n---\n\nBody.\n"
BAD = "# A skill without frontmatter\n"
PLUGIN = '{"name": "p"}\n'


@pytest.mark.parametrize(
    ("path", "beside", "config", "checked"),
    [
        pytest.param(".claude/skills/x/SKILL.md", {}, "", True, id="claude"),
        pytest.param(".agents/skills/x/SKILL.md", {}, "", True, id="codex"),
        pytest.param(".github/skills/x/SKILL.md", {}, "", True, id="copilot"),
        pytest.param(".gemini/skills/x/SKILL.md", {}, "", True, id="gemini"),
        pytest.param("pkg/.claude/skills/x/SKILL.md", {}, "", True, id="claude-any-depth"),
        pytest.param("skills/x/SKILL.md", {}, "", True, id="collection-at-the-root"),
        pytest.param("skills/group/x/SKILL.md", {}, "", True, id="collection-grouped"),
        pytest.param("plugins/p/skills/x/SKILL.md", {"plugins/p/.claude-plugin/plugin.json": PLUGIN}, "", True, id="plugin"),
        pytest.param("docs/skills/x/SKILL.md", {}, "skills:\n  roots: [docs/skills]\n", True, id="configured-root"),
        pytest.param("src/app/skills/x/SKILL.md", {}, "", False, id="application-skills"),
        pytest.param("firmware/agent/skills/x/SKILL.md", {}, "", False, id="on-device-agent"),
        pytest.param("plugins/p/skills/x/SKILL.md", {}, "", False, id="skills-folder-without-plugin-manifest"),
        pytest.param(
            "plugins/p/skills/x/SKILL.md", {"plugins/.claude-plugin/plugin.json": PLUGIN}, "", False, id="manifest-of-another-folder"
        ),
        pytest.param("docs/skills/x/SKILL.md", {}, "", False, id="docs-copy"),
        pytest.param("x/SKILL.md", {}, "", False, id="skill-folder-at-the-root"),
        pytest.param(".skills/x/SKILL.md", {}, "", False, id="unknown-dot-folder"),
    ],
)
def test_a_skill_md_is_checked_only_where_agents_load_skills(
    repo: Path, path: str, beside: dict[str, str], config: str, checked: bool
) -> None:
    write(repo, path, BAD)
    for other, text in beside.items():
        write(repo, other, text)
    if config:
        write(repo, ".memcheck.yaml", config)
    assert bool(codes_at(repo, path)) is checked


@pytest.mark.parametrize(
    ("path", "checked"),
    [
        pytest.param(".claude/skills/run-tests.md", True, id="claude"),
        pytest.param(".github/skills/run-tests.md", True, id="copilot"),
        pytest.param("skills/run-tests.md", True, id="collection-at-the-root"),
        pytest.param("src/app/skills/run-tests.md", False, id="application-skills"),
        pytest.param("lib/skills/run-tests.md", False, id="nested-skills-folder"),
    ],
)
def test_a_flat_skill_follows_the_same_roots(repo: Path, path: str, checked: bool) -> None:
    # A flat skill whose name is not its file's is fine; a bad name is SKL004.
    write(repo, path, "---\nname: Run_Tests\ndescription: Run the tests.\n---\n\nBody.\n")
    assert (codes_at(repo, path) == ["SKL004"]) is checked


def test_verbose_says_which_skill_md_files_were_passed_over_and_why(repo: Path) -> None:
    write(repo, "src/app/skills/x/SKILL.md", BAD)
    write(repo, "firmware/agent/skills/y/SKILL.md", BAD)
    write(repo, ".claude/skills/deploy/SKILL.md", GOOD.format(name="deploy"))
    write(repo, ".claude/skills/deploy/examples/inner/SKILL.md", BAD)
    quiet = run_cli(repo, "check")
    assert quiet.returncode == 0 and quiet.stderr == ""
    for flag in ("-v", "--verbose"):
        loud = run_cli(repo, "check", flag)
        assert loud.returncode == 0 and loud.stdout == quiet.stdout
        lines = [line for line in loud.stderr.splitlines() if line.startswith("memcheck: passed over ")]
        assert lines == sorted(lines) and len(lines) == 3, loud.stderr
        assert lines[0].startswith(
            "memcheck: passed over .claude/skills/deploy/examples/inner/SKILL.md: inside the skill .claude/skills/deploy"
        )
        assert lines[1].startswith("memcheck: passed over firmware/agent/skills/y/SKILL.md: not in a folder agents load skills from (")
        assert lines[2].startswith("memcheck: passed over src/app/skills/x/SKILL.md: not in a folder agents load skills from (")
        assert "skills.roots" in lines[2]


def test_verbose_with_paths_speaks_of_the_given_files_only(repo: Path) -> None:
    write(repo, "src/app/skills/x/SKILL.md", BAD)
    write(repo, "firmware/agent/skills/y/SKILL.md", BAD)
    proc = run_cli(repo, "check", "-v", "src/app/skills/x/SKILL.md")
    assert proc.returncode == 0
    passed_over = [line.split(":")[1] for line in proc.stderr.splitlines() if line.startswith("memcheck: passed over ")]
    assert passed_over == [" passed over src/app/skills/x/SKILL.md"]


BIG = "".join(f"Line {i}: {'a rule the skill follows when it runs. ' * 4}\n" for i in range(700))  # > 32 KiB, > 500 lines


@pytest.mark.parametrize("name", ["AGENTS.md", "CLAUDE.md", "GEMINI.md", "references/AGENTS.md"])
def test_guidance_files_inside_a_skill_folder_are_its_resources(repo: Path, name: str) -> None:
    write(repo, ".agents/skills/review/SKILL.md", GOOD.format(name="review"))
    write(repo, f".agents/skills/review/{name}", BIG)
    write(repo, "AGENTS.md", "# Root\n\nRun the tests.\n")
    found = check_json(repo)
    assert not [p for p in found if p["code"].startswith("GDN")], found
    # Not vacuous: the same file outside a skill folder is over Codex's budget and the size budget.
    write(repo, f"tools/review/{name}", BIG)
    assert {"GDN014"} <= set(codes_at(repo, f"tools/review/{name}"))


def test_guidance_beside_a_skill_md_that_is_no_agent_skill_is_still_guidance(repo: Path) -> None:
    # A repository that is one skill (cloned into a skills folder by its users), and an
    # application's own skills folder: Codex reads their AGENTS.md as any folder's.
    write(repo, "SKILL.md", GOOD.format(name="repo"))
    write(repo, "AGENTS.md", BIG)
    write(repo, "src/app/skills/x/SKILL.md", GOOD.format(name="x"))
    write(repo, "src/app/skills/x/AGENTS.md", BIG)
    assert "GDN016" in codes_at(repo, "AGENTS.md")
    assert "GDN014" in codes_at(repo, "src/app/skills/x/AGENTS.md")


def test_context_does_not_load_a_skill_agents_md_as_folder_guidance(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Root\n")
    write(repo, ".agents/skills/review/SKILL.md", GOOD.format(name="review"))
    write(repo, ".agents/skills/review/AGENTS.md", "# Compiled into the skill\n")
    write(repo, ".agents/skills/review/scripts/run.py", "pass\n")
    proc = run_cli(repo, "context", ".agents/skills/review/scripts/run.py", "--agent", "codex", "--format", "json")
    assert proc.stderr == ""
    (section,) = json.loads(proc.stdout)["agents"]
    assert [f["file"] for f in section["files"]] == ["AGENTS.md"]


def test_a_skill_md_that_links_out_is_reported_where_agents_load_it_only(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("---\nname: x\ndescription: y\n---\n")
    for path in (".claude/skills/SKILL.md", ".claude/skills/deploy/SKILL.md", "src/app/skills/x/SKILL.md"):
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).symlink_to(outside)
    found = {(p["path"], p["code"]) for p in check_json(repo)}
    assert found == {(".claude/skills/SKILL.md", "SKL013"), (".claude/skills/deploy/SKILL.md", "SKL013")}
