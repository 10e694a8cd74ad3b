"""Memories, skills and indexes that are symlinks out of the repository (an outside
attack: `.claude/memory/runtime.md -> /proc/self/environ`, listed in MEMORY.md as
"read first", puts the machine's environment into the agent's context), and the
secret locations a staged symlink must not point at (GRD002). Real git repositories,
real symlinks; the CLI in this process."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import check_json, commit, git, memory, run_cli, write

STORE = ".claude/memory"
ENVIRON = "/proc/self/environ"
SKILL = "---\nname: {name}\ndescription: Deploy the service. Use when asked to deploy.\n---\n\nSteps.\n"
# What the file outside the repository says: read, it would be reported (bad
# frontmatter), suppress the finding on it, or show up in a message.
OUTSIDE_TEXT = (
    "---\nname: [unclosed\ntype: nonsense\n---\n\n<!-- memcheck-disable-file -->\nOUTSIDE-MARKER sk-live-0123456789abcdef0123456789abcdef\n"
)

pytestmark = pytest.mark.skipif(not os.path.exists(ENVIRON), reason="needs /proc/self/environ (Linux)")


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A Markdown file beside the repository, not in it."""
    path = tmp_path / "elsewhere" / "notes.md"
    write(path.parent, path.name, OUTSIDE_TEXT)
    return path


def link(root: Path, rel: str, target: str | Path) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(str(target), root / rel)


def store(repo: Path) -> None:
    """A store with one real memory and an index that lists runtime.md first."""
    write(repo, f"{STORE}/project_a.md", memory("a", "About a", "project"))
    write(repo, f"{STORE}/MEMORY.md", "# Memory\n\n- [runtime](runtime.md) - read first\n- [a](project_a.md) - About a\n")


def skill(repo: Path, name: str = "deploy") -> None:
    write(repo, f".claude/skills/{name}/SKILL.md", SKILL.format(name=name))


def on(problems: list[dict[str, Any]], path: str) -> list[dict[str, Any]]:
    return [p for p in problems if p["path"] == path]


def only_code(problems: list[dict[str, Any]], path: str) -> dict[str, Any]:
    """The one finding on ``path``."""
    found = on(problems, path)
    assert len(found) == 1, found
    return found[0]


def assert_not_read(problems: list[dict[str, Any]], outside: Path) -> None:
    # Had memcheck read the file outside, its text would be in a message, its
    # frontmatter reported, or its suppression comment would have hidden the finding.
    assert "OUTSIDE-MARKER" not in json.dumps(problems)
    assert not [p for p in problems if str(outside) in p["path"]]


# --- memories -----------------------------------------------------------------------


@pytest.mark.parametrize("to", ["environ", "outside"])
def test_a_memory_that_links_out_of_the_repository_is_an_error(repo: Path, outside: Path, to: str) -> None:
    store(repo)
    target = ENVIRON if to == "environ" else str(outside)
    link(repo, f"{STORE}/runtime.md", target)
    git(repo, "add", "-A")
    problems = check_json(repo)
    found = only_code(problems, f"{STORE}/runtime.md")
    assert found["code"] == "MEM022" and found["severity"] == "error"
    message = found["message"]
    assert f"symlink to {target}, outside the repository" in message
    assert "memcheck does not follow it" in message and "keep the memory in the repository" in message
    if to == "environ":
        assert "a secret location (guarded by category env, pattern /proc/*/environ)" in message
    else:
        assert "secret location" not in message
    assert_not_read(problems, outside)


def test_a_memory_linked_by_a_relative_path_out_of_the_repository(repo: Path, outside: Path) -> None:
    store(repo)
    link(repo, f"{STORE}/runtime.md", os.path.relpath(outside, repo / STORE))
    problems = check_json(repo)
    assert only_code(problems, f"{STORE}/runtime.md")["code"] == "MEM022"
    assert_not_read(problems, outside)


def test_a_memory_linked_to_a_dangling_path_out_of_the_repository(repo: Path) -> None:
    # Not there on this machine, maybe there on the next (a container's secrets).
    store(repo)
    link(repo, f"{STORE}/runtime.md", "/run/secrets/memcheck-test-does-not-exist")
    found = only_code(check_json(repo), f"{STORE}/runtime.md")
    assert found["code"] == "MEM022" and "guarded by category credentials" in found["message"]


def test_a_memory_that_links_inside_the_repository_is_fine(repo: Path) -> None:
    store(repo)
    write(repo, "docs/runtime.md", memory("runtime", "Runtime notes", "reference"))
    link(repo, f"{STORE}/runtime.md", "../../docs/runtime.md")
    problems = check_json(repo)
    assert not [p for p in problems if p["code"] in ("MEM022", "IDX014", "SKL013")]


def test_the_memory_is_found_when_only_its_path_is_checked(repo: Path, outside: Path) -> None:
    store(repo)
    link(repo, f"{STORE}/runtime.md", outside)
    assert [p["code"] for p in check_json(repo, f"{STORE}/runtime.md")] == ["MEM022"]


def test_the_memory_is_found_in_a_staged_change(repo: Path) -> None:
    store(repo)
    commit(repo)
    link(repo, f"{STORE}/runtime.md", ENVIRON)
    git(repo, "add", "-A")
    assert "MEM022" in {p["code"] for p in check_json(repo, "--changed")}


# --- skills -------------------------------------------------------------------------


@pytest.mark.parametrize("to", ["environ", "outside"])
def test_a_skill_md_that_links_out_of_the_repository_is_an_error(repo: Path, outside: Path, to: str) -> None:
    skill(repo)
    target = ENVIRON if to == "environ" else str(outside)
    link(repo, ".claude/skills/evil/SKILL.md", target)
    problems = check_json(repo)
    found = only_code(problems, ".claude/skills/evil/SKILL.md")
    assert found["code"] == "SKL013" and found["severity"] == "error"
    assert f"symlink to {target}, outside the repository" in found["message"]
    assert ("secret location" in found["message"]) == (to == "environ")
    assert on(problems, ".claude/skills/deploy/SKILL.md") == []
    assert_not_read(problems, outside)


@pytest.mark.parametrize("to", ["environ", "outside"])
def test_a_file_in_a_skill_folder_that_links_out_is_an_error(repo: Path, outside: Path, to: str) -> None:
    skill(repo)
    target = ENVIRON if to == "environ" else str(outside)
    link(repo, ".claude/skills/deploy/references/runtime.md", target)
    link(repo, ".claude/skills/deploy/scripts/env.sh", target)
    problems = check_json(repo)
    for path in (".claude/skills/deploy/references/runtime.md", ".claude/skills/deploy/scripts/env.sh"):
        assert only_code(problems, path)["code"] == "SKL013"
    assert_not_read(problems, outside)


def test_a_flat_skill_that_links_out_is_reported_and_not_read(repo: Path, outside: Path) -> None:
    # A Markdown file directly in a skills root is a skill when its frontmatter says
    # so: memcheck must not read the file outside to find out.
    outside.write_text("---\nname: Not_A_Valid_Name\ndescription: x\n---\nOUTSIDE-MARKER\n")
    write(repo, ".claude/skills/keep.md", SKILL.format(name="keep"))
    link(repo, ".claude/skills/runtime.md", outside)
    problems = check_json(repo)
    assert [p["code"] for p in on(problems, ".claude/skills/runtime.md")] == ["SKL013"]
    assert_not_read(problems, outside)


def test_a_skill_that_links_inside_the_repository_is_fine(repo: Path) -> None:
    skill(repo)
    write(repo, "docs/reference.md", "# Reference\n")
    link(repo, ".claude/skills/deploy/reference.md", "../../../docs/reference.md")
    assert check_json(repo) == []


def test_the_skill_is_found_when_only_its_path_is_checked(repo: Path) -> None:
    skill(repo)
    link(repo, ".claude/skills/deploy/references/runtime.md", ENVIRON)
    link(repo, ".claude/skills/evil/SKILL.md", ENVIRON)
    assert [p["code"] for p in check_json(repo, ".claude/skills/deploy/references/runtime.md")] == ["SKL013"]
    assert [p["code"] for p in check_json(repo, ".claude/skills/evil/SKILL.md")] == ["SKL013"]


# --- indexes ------------------------------------------------------------------------


@pytest.mark.parametrize("to", ["environ", "outside"])
def test_an_index_that_links_out_of_the_repository_is_an_error(repo: Path, outside: Path, to: str) -> None:
    write(repo, f"{STORE}/project_a.md", memory("a", "About a", "project"))
    target = ENVIRON if to == "environ" else str(outside)
    link(repo, f"{STORE}/MEMORY.md", target)
    problems = check_json(repo)
    found = only_code(problems, f"{STORE}/MEMORY.md")
    assert found["code"] == "IDX014" and found["severity"] == "error"
    assert f"MEMORY.md is a symlink to {target}, outside the repository" in found["message"]
    assert "at the start of every session" in found["message"]
    assert ("secret location" in found["message"]) == (to == "environ")
    assert_not_read(problems, outside)


# --- guidance files (GDN018, a warning already) say so too ------------------------------


def test_a_guidance_file_linked_to_a_secret_location_says_so(repo: Path) -> None:
    link(repo, "CLAUDE.md", ENVIRON)
    found = only_code(check_json(repo), "CLAUDE.md")
    assert found["code"] == "GDN018"
    assert (
        f"symlink to {ENVIRON}, outside the repository and a secret location (guarded by category env, pattern /proc/*/environ)"
        in found["message"]
    )


# --- the other commands neither follow nor stumble -----------------------------------


def everything_linked_out(repo: Path, outside: Path) -> None:
    store(repo)
    link(repo, f"{STORE}/runtime.md", outside)
    write(repo, ".agents/memory/project_b.md", memory("b", "About b", "project"))
    link(repo, ".agents/memory/MEMORY.md", outside)
    skill(repo)
    link(repo, ".claude/skills/deploy/reference.md", outside)
    link(repo, ".claude/skills/evil/SKILL.md", ENVIRON)


def test_fix_writes_nothing_through_a_link_out_and_reports_it(repo: Path, outside: Path) -> None:
    everything_linked_out(repo, outside)
    before = outside.read_bytes()
    proc = run_cli(repo, "fix", "--format", "json")
    assert proc.returncode == 1 and proc.stderr == "", proc.stderr
    assert outside.read_bytes() == before
    assert os.path.islink(repo / ".agents/memory/MEMORY.md") and os.path.islink(repo / f"{STORE}/runtime.md")
    codes = {(p["path"], p["code"]) for p in json.loads(proc.stdout)["problems"]}
    assert {(f"{STORE}/runtime.md", "MEM022"), (".agents/memory/MEMORY.md", "IDX014"), (".claude/skills/evil/SKILL.md", "SKL013")} <= codes
    assert "OUTSIDE-MARKER" not in proc.stdout
    # The index is never made to list the link out twice (fix adds only memories it read).
    assert (repo / f"{STORE}/MEMORY.md").read_text().count("runtime.md") <= 1


def test_context_counts_no_file_a_link_out_leads_to(repo: Path, outside: Path) -> None:
    everything_linked_out(repo, outside)
    proc = run_cli(repo, "context", ".", "--format", "json")
    assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr
    report = json.loads(proc.stdout)
    assert "OUTSIDE-MARKER" not in proc.stdout
    assert report["skills"]["count"] == 1  # the deploy skill, not the link out
    # An index that links out is not missing: agents load what it leads to.
    (linked,) = [i for i in report["indexes"] if i["file"] == ".agents/memory/MEMORY.md"]
    assert linked["tokens"] == 0 and "memcheck does not follow it" in " ".join(linked["notes"])
    text = run_cli(repo, "context", ".").stdout
    assert f".agents/memory/MEMORY.md  a symlink to {outside}, out of the repository: agents load that file at start-up" in text


# --- the user's own home folder (--user) ------------------------------------------------


def test_links_out_of_the_home_folder_are_the_users_own(repo: Path, outside: Path) -> None:
    # Dotfile managers link ~/.claude/skills and memories into a store elsewhere
    # (/nix/store, a dotfiles clone): the user's own choice, not a repository's
    # content. Not reported as links out, and followed, as the agents follow them:
    # what they lead to is checked (its suppression comment honoured).
    home = Path(os.environ["HOME"])
    write(home, ".nano_claude/memory/style.md", memory("Style", "Coding style", "user"))
    link(home, ".nano_claude/memory/runtime.md", outside)
    link(home, ".claude/skills/deploy/SKILL.md", outside)
    write(repo, "AGENTS.md", "# Project\n")
    problems = check_json(repo, "--user")
    assert not [p for p in problems if p["code"] in ("MEM022", "SKL013", "IDX014", "GDN018")]
    assert "OUTSIDE-MARKER" not in json.dumps(problems)  # only a redacted excerpt of a secret is ever quoted


def test_a_skill_folder_that_links_out_is_an_error(repo: Path, outside: Path) -> None:
    skill(repo)
    write(outside.parent, "SKILL.md", SKILL.format(name="evil") + OUTSIDE_TEXT)
    link(repo, ".claude/skills/evil", outside.parent)  # git lists the link as one file
    problems = check_json(repo)
    found = only_code(problems, ".claude/skills/evil")
    assert found["code"] == "SKL013" and found["severity"] == "error"
    assert f"symlink to {outside.parent}, outside the repository" in found["message"]
    assert on(problems, ".claude/skills/deploy/SKILL.md") == []
    assert_not_read(problems, outside)
