"""GDN findings on planted guidance files, through the real CLI: git, symlinks, the paths given (each rule's own cases: tests/unit/rules/test_gdn0*.py)."""

from __future__ import annotations

import base64
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import check_json, git, invoke, memory, symlink_as_text, write

from memcheck import config
from memcheck.agents import expansion
from memcheck.checks import guidance
from memcheck.text.patterns import applies
from memcheck.text.patterns import problem as glob_problem
from memcheck.workspace.discover import Workspace
from memcheck.workspace.disk import DiskSource

_problems = check_json


def _found(problems: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(str(p["path"]), str(p["code"])) for p in problems}


def private_key_block(seed: int = 0) -> str:
    """A key-shaped block of random bytes: no real key is ever committed to the tests."""
    rnd = random.Random(seed)
    body = "\n".join(base64.b64encode(bytes(rnd.randrange(256) for _ in range(48))).decode() for _ in range(6))
    return f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----\n"


CLEAN_AGENTS = """\
# Project rules

Read @docs/guide.md before you change the API.
Questions go to maintainers@example.com.
Install the types with `npm i -D @types/node`.

```bash
npm install @scope/pkg
```

<!-- @docs/never-read.md is commented out -->
See [the guide](docs/guide.md) and [the site](https://example.com/x.md).
"""


@pytest.fixture
def planted(repo: Path) -> Path:
    """The issue's "Done when" repository: one problem of each kind, and clean files."""
    write(repo, "AGENTS.md", CLEAN_AGENTS)
    write(repo, "docs/guide.md", "# Guide\n\nUse REST.\n")
    # CLAUDE.md beside AGENTS.md, with its own text
    write(repo, "api/AGENTS.md", "# API\n\nUse FastAPI.\n")
    write(repo, "api/CLAUDE.md", "# API (Claude)\n\nUse Flask.\n")
    write(repo, "web/AGENTS.md", "# Web\n\nSee @docs/missing-guide.md for the release steps.\n")
    write(repo, "rules/AGENTS.md", '---\ndescription: Rules\nalwaysApply: "yes"\n---\n\nBe nice.\n')
    write(repo, "scoped/AGENTS.md", '---\nglobs:\n  - "src/**/*.rs"\n---\n\nRust rules.\n')
    write(repo, "scoped/src/main.py", "print()\n")  # a project with code, and no Rust (see GDN008)
    write(repo, "one/AGENTS.md", "# One\n\n@../two/AGENTS.md\n")
    write(repo, "two/AGENTS.md", "# Two\n\n@../one/AGENTS.md\n")
    write(repo, ".claude/skills/x/SKILL.md", "---\nname: My_Skill\ndescription: Does a thing. Use when asked.\n---\n\nBody.\n")
    write(repo, ".claude/skills/undescribed/SKILL.md", "---\nname: undescribed\n---\n\nBody.\n")
    write(
        repo,
        ".claude/skills/run-tests/SKILL.md",
        "---\nname: run-tests\ndescription: Run the test suite. Use when asked to test.\ntriggers:\n  - run tests\n  - /test\n---\n\nRun pytest.\n",
    )
    write(repo, ".claude/memory/deploy.md", memory("Deploy", "How we deploy", "project", body="The key:\n\n" + private_key_block()))
    write(repo, ".claude/memory/MEMORY.md", "- [Deploy](deploy.md) \u2014 How we deploy\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "planted")
    return repo


def test_done_when_each_planted_problem_is_reported_on_its_file(planted: Path) -> None:
    found = _found(_problems(planted))
    assert ("api/CLAUDE.md", "GDN015") in found
    assert ("web/AGENTS.md", "GDN009") in found
    assert ("rules/AGENTS.md", "GDN005") in found
    assert ("scoped/AGENTS.md", "GDN008") in found
    assert ("one/AGENTS.md", "GDN011") in found
    assert ("two/AGENTS.md", "GDN011") in found
    assert (".claude/skills/x/SKILL.md", "SKL004") in found
    assert (".claude/skills/x/SKILL.md", "SKL005") not in found  # one cause: SKL004 says to set name: x
    assert (".claude/skills/undescribed/SKILL.md", "SKL006") in found
    assert (".claude/memory/deploy.md", "SEC001") in found
    # the clean AGENTS.md (an import, an e-mail, @types/node in a code span, @scope/pkg
    # in a fence) and the clean skill get nothing
    assert not [f for f in found if f[0] in ("AGENTS.md", ".claude/skills/run-tests/SKILL.md", "docs/guide.md")]
    assert not [f for f in found if f[0] == "api/AGENTS.md"]


def test_done_when_messages_say_what_to_do(planted: Path) -> None:
    by = {(str(p["path"]), str(p["code"])): str(p["message"]) for p in _problems(planted)}
    assert by[("api/CLAUDE.md", "GDN015")].startswith(
        "CLAUDE.md and AGENTS.md differ: Claude Code reads CLAUDE.md and not AGENTS.md, while Codex, Amp and Cline read AGENTS.md"
    )
    assert "web/docs/missing-guide.md, which does not exist" in by[("web/AGENTS.md", "GDN009")]
    assert "write alwaysApply: true" in by[("rules/AGENTS.md", "GDN005")]
    assert "one/AGENTS.md -> two/AGENTS.md -> one/AGENTS.md" in by[("one/AGENTS.md", "GDN011")]


def test_done_when_through_click_runner_too(planted: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = invoke(planted, "check", monkeypatch=monkeypatch)
    assert result.exit_code == 1
    assert "web/AGENTS.md:3:5: GDN009 " in result.output


def test_symlinked_twin_is_one_file(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Rules\n")
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    ws = Workspace(config.load(repo))
    assert ws.guidance == ("AGENTS.md",) and ws.twins == {"CLAUDE.md": "AGENTS.md"}
    assert _problems(repo) == []


def test_checking_a_twin_checks_the_file_it_is(repo: Path) -> None:
    write(repo, "AGENTS.md", "@gone.md\n")
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    assert _found(_problems(repo, "CLAUDE.md")) == {("AGENTS.md", "GDN009")}


def test_symlink_checked_out_as_text_is_a_twin(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Rules\n")
    symlink_as_text(repo, "CLAUDE.md", "AGENTS.md")  # what git writes for a symlink with core.symlinks=false
    assert _problems(repo) == []


def test_variant_importing_the_one_agents_read_is_not_shadowed(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Rules\n")
    write(repo, "CLAUDE.md", "# Claude\n\n@AGENTS.md\n")
    assert _problems(repo) == []


def test_applies_follows_seed_000_exclusions_first() -> None:
    globs = ["src/**/*.ts", "!src/**/*.test.ts"]
    assert applies(globs, "src/a.ts", "") == (True, "src/**/*.ts")
    assert applies(globs, "src/a.test.ts", "") == (False, "!src/**/*.test.ts")
    assert applies(globs, "lib/a.ts", "") == (False, None)


@pytest.mark.parametrize(
    ("pattern", "bad"),
    [
        ("", True),
        ("!", True),
        ("a***", True),
        ("a/{b", True),
        ("a}", True),
        ("[ab", True),
        ("[z-a].md", True),
        ("src/**", False),
        ("!x/{a,b}", False),
    ],
)
def test_glob_problem(pattern: str, bad: bool) -> None:
    assert (glob_problem(pattern) is not None) is bad


def test_paths_limit_the_check_to_the_given_guidance_files(planted: Path) -> None:
    found = _found(_problems(planted, "web/AGENTS.md"))
    assert found == {("web/AGENTS.md", "GDN009")}


def test_files_importing_one_hub_look_at_its_imports_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each AGENTS.md imports one hub of 20 files: the hub's reach is worked out once and
    # shared, not expanded again for every file importing it (files x files imported).
    files = ["hub.md"]
    write(tmp_path, "hub.md", "".join(f"@lib/f{j}.md\n" for j in range(20)))
    for j in range(20):
        files.append(f"lib/f{j}.md")
        write(tmp_path, f"lib/f{j}.md", "x\n")
    for i in range(30):
        files.append(f"p{i}/AGENTS.md")
        write(tmp_path, f"p{i}/AGENTS.md", "# p\n@../hub.md\n")
    ws = Workspace(config.default_config(tmp_path), DiskSource(tmp_path, files=files))
    asked: list[str] = []
    real_imports = expansion.imports

    def counting(ws: Workspace, doc: Any) -> list[expansion.Import]:
        asked.append(doc.path)
        return real_imports(ws, doc)

    monkeypatch.setattr(expansion, "imports", counting)
    for i in range(30):
        list(guidance.check_file(ws, ws.document(f"p{i}/AGENTS.md")))
    # A few askers (who reads what, the reach at each depth limit), not one per importer.
    assert asked.count("hub.md") < 10 and asked.count("lib/f7.md") < 10
