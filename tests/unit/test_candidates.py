"""workspace/candidates: a path it rules out is never an agent file (discovery, which
reads the agent data, decides the rest)."""

from __future__ import annotations

from pathlib import Path

from conftest import memory

from memcheck import agents, config
from memcheck.agents import kinds as agentkinds
from memcheck.engine.targets import targets_for
from memcheck.workspace.candidates import DECIDES_SKILLS, KIND_NAMES, READ_ALSO, may_be_agent_file, none_among, relative_files
from memcheck.workspace.discover import Workspace
from memcheck.workspace.memory import MemorySource


def _literal(segment: str) -> bool:
    return not any(c in segment for c in "*?[")


def test_every_kind_glob_names_a_segment_the_names_rule_in() -> None:
    # A path a glob names holds each of its literal segments: one of them in
    # KIND_NAMES lets through every file of the kind that is not Markdown (Cline's
    # .clinerules) and every folder of the kind's files that is a symlink.
    globs = [glob for kind in agentkinds.kinds() for glob in kind.globs]
    assert globs
    for glob in globs:
        literal = {s for s in glob.strip("/").split("/") if s and s != "**" and _literal(s)}
        assert literal & KIND_NAMES, f"{glob}: add one of {sorted(literal)} to candidates.KIND_NAMES"


def test_the_files_that_decide_which_agents_load_a_skills_folder_are_let_through() -> None:
    # A change to a plugin's manifest or to the settings of a copy of ~/.claude changes
    # which agents load the skills beside it, and so what their check says.
    from memcheck import agents

    deciding = {m.rsplit("/", 1)[-1] for m in agents.plugin_manifests()}
    deciding |= {name for copy in agents.home_copies() for name in copy.files}
    assert deciding and deciding <= DECIDES_SKILLS, f"add {sorted(deciding - DECIDES_SKILLS)} to candidates.DECIDES_SKILLS"
    assert all(may_be_agent_file(path) for path in ("settings.json", "dotfiles/claude/settings.json", "tools/.claude-plugin/plugin.json"))


def test_whatever_discovery_finds_is_let_through() -> None:
    files = {
        "AGENTS.md": "Run the tests.\n",
        "pkg/CLAUDE.md": "Be brief.\n",
        ".cursor/rules/style.mdc": "---\ndescription: style\n---\nTabs.\n",
        ".github/copilot-instructions.md": "Use pytest.\n",
        ".clinerules": "Rules.\n",
        ".memory/a.md": memory("A", "first", "user"),
        ".memory/MEMORY.md": "- [A](a.md) — first\n",
        ".claude/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Use when deploying.\n---\nDo it.\n",
        ".claude/skills/loose/run.sh": "echo\n",
        "sub/pyproject.toml": "[tool.memcheck]\n",
        "src/main.py": "x = 1\n",
        ".github/workflows/ci.yml": "on: push\n",
    }
    for kind in agentkinds.kinds():
        for glob in kind.globs:
            files.setdefault("/".join("x" if s == "**" else s.replace("*", "k") for s in glob.strip("/").split("/")), "Text.\n")
    for kind in agents.facts.file_kinds():
        for name in kind.names:
            files.setdefault(f"{kind.in_folder or kind.parent_folder or 'here'}/{name}", "Text.\n")
    ws = Workspace(
        config.from_mapping(Path("/nonexistent/memcheck-in-memory"), config.defaults()),
        MemorySource({p: t.encode() for p, t in files.items()}),
    )
    targets = targets_for(ws, None)
    found = {*targets.agent_files(), *targets.configs}
    assert {".clinerules", ".claude/skills/loose/run.sh", "sub/pyproject.toml", ".memory/a.md", "AGENTS.md"} <= found
    assert all(may_be_agent_file(p) for p in found), sorted(p for p in found if not may_be_agent_file(p))
    assert not may_be_agent_file("src/main.py") and not may_be_agent_file(".github/workflows/ci.yml")


def test_skills_roots_set_rule_nothing_out() -> None:
    assert none_among(["src/main.py", "README.txt"])
    assert not none_among(["src/main.py"], ["tools/*"])
    assert not none_among(["src/main.py", "docs/README.md"])


def test_given_paths_are_regular_files_inside_the_root(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("x\n")
    (tmp_path / "link.py").symlink_to(tmp_path / "src" / "a.py")
    assert relative_files(tmp_path, [str(tmp_path / "src" / "a.py")]) == ["src/a.py"]
    assert relative_files(tmp_path, [str(tmp_path / "src")]) is None  # a folder: everything below it
    assert relative_files(tmp_path, [str(tmp_path / "link.py")]) is None
    assert relative_files(tmp_path, [str(tmp_path / "gone.py")]) is None
    (tmp_path / "b.py").write_text("x\n")
    assert relative_files(tmp_path / "src", [str(tmp_path / "b.py")]) is None  # outside the root


def test_a_settings_file_with_no_skills_folder_beside_it_is_nothing_to_check(tmp_path: Path) -> None:
    # A commit touching `.vscode/settings.json` alone stays the cheap "nothing to check";
    # one touching the settings of a copy of ~/.claude, or a plugin's manifest, is not.
    (tmp_path / ".vscode").mkdir()
    assert none_among([".vscode/settings.json", "tools/.claude-plugin/plugin.json"], root=tmp_path)
    (tmp_path / "skills").mkdir()
    assert not none_among(["settings.json"], root=tmp_path)
    (tmp_path / "tools" / "skills").mkdir(parents=True)
    assert not none_among(["tools/.claude-plugin/plugin.json"], root=tmp_path)
    assert none_among([".vscode/settings.json"], root=tmp_path)


def test_the_files_agents_read_beside_agent_files_are_let_through() -> None:
    # `.mcp.json`, `.claude/settings.json`: the secret rules read them; a commit that
    # touched one alone was "nothing to check" (an outside attack).
    from memcheck.workspace.agentfiles import READ_ALSO as read_by_the_rules

    assert set(read_by_the_rules) == READ_ALSO
    assert all(may_be_agent_file(p) for p in READ_ALSO)
    assert not may_be_agent_file("tools/.mcp.json.example")
