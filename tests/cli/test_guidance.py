"""GDN findings on planted guidance files, through the real CLI (SPEC §3, §4; seed 000)."""
from __future__ import annotations

import base64
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import check_json, codes_at, git, invoke, memory, symlink_as_text, write

from memcheck import config, expansion
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
    write(repo, "one/AGENTS.md", "# One\n\n@../two/AGENTS.md\n")
    write(repo, "two/AGENTS.md", "# Two\n\n@../one/AGENTS.md\n")
    write(repo, ".claude/skills/x/SKILL.md", "---\nname: My_Skill\ndescription: Does a thing. Use when asked.\n---\n\nBody.\n")
    write(repo, ".claude/skills/undescribed/SKILL.md", "---\nname: undescribed\n---\n\nBody.\n")
    write(repo, ".claude/skills/run-tests/SKILL.md", "---\nname: run-tests\ndescription: Run the test suite. Use when asked to test.\ntriggers:\n  - run tests\n  - /test\n---\n\nRun pytest.\n")
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
    assert by[("api/CLAUDE.md", "GDN015")].startswith("CLAUDE.md and AGENTS.md differ: Claude Code reads CLAUDE.md and not AGENTS.md, while Codex, Amp and Cline read AGENTS.md")
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


def test_case_variants_make_no_claim_about_readers(repo: Path) -> None:
    # agents.md is found by the AGENTS.md look-up on macOS and Windows only, and which
    # of AGENT.md and agents.md Amp prefers is not confirmed: nothing is claimed.
    write(repo, "AGENT.md", "# a\n")
    write(repo, "agents.md", "# b\n")
    assert not [p for p in _problems(repo) if p["code"] in ("GDN001", "GDN015")]


def test_case_collision(repo: Path) -> None:
    write(repo, "Docs/AGENTS.md", "# a\n")
    write(repo, "docs/AGENTS.md", "# b\n")
    assert "GDN002" in set(codes_at(repo, "docs/AGENTS.md"))


@pytest.mark.parametrize(
    ("frontmatter", "code"),
    [
        pytest.param("description: [a, b]", "GDN005", id="description-list"),
        pytest.param("alwaysApply: 1", "GDN005", id="always-number"),
        pytest.param("globs: src/**", "GDN005", id="globs-string"),
        pytest.param("globs: [3]", "GDN005", id="glob-number"),
        pytest.param("glob: [src/**]", "GDN006", id="misspelt-key"),
        pytest.param("alwaysapply: true", "GDN006", id="misspelt-case"),
        pytest.param('globs: ["src/[a-z.py"]', "GDN007", id="unbalanced-bracket"),
        pytest.param('globs: ["src/{a,b.py"]', "GDN007", id="unbalanced-brace"),
        pytest.param('globs: ["!"]', "GDN007", id="lone-bang"),
        pytest.param('globs: ["vendor/**"]', "GDN008", id="matching-nothing"),
        pytest.param("description: a: b", "GDN004", id="not-yaml"),
        pytest.param("alwaysApply: true\nalwaysApply: false", "GDN004", id="duplicate-key"),
    ],
)
def test_frontmatter_problems(repo: Path, frontmatter: str, code: str) -> None:
    write(repo, "src/app.py", "print()\n")
    write(repo, "AGENTS.md", f"---\n{frontmatter}\n---\n\nRules.\n")
    assert code in set(codes_at(repo, "AGENTS.md"))


@pytest.mark.parametrize(
    "frontmatter",
    [
        "description: Python rules\nalwaysApply: false\nglobs:\n  - 'src/**/*.py'\n  - '!src/**/test_*.py'",
        "globs: ['*.py']",
        "globs: ['app.py']",  # relative to the guidance file's folder
        "globs: ['src/*.{py,pyi}']",
        "globs: []",
        "globs: ['src/**', '!vendor/**']",  # an exclusion matching nothing excludes nothing: harmless
        "updated: 2026-01-02\nowner: platform-team\ngeneration: 3",  # the team's own keys
        "globs: ['src/']",  # a folder: the files below it
    ],
)
def test_valid_frontmatter_is_clean(repo: Path, frontmatter: str) -> None:
    write(repo, "src/app.py", "print()\n")
    write(repo, "src/AGENTS.md", f"---\n{frontmatter}\n---\n\nRules.\n")
    assert _problems(repo) == []


def test_unclosed_frontmatter(repo: Path) -> None:
    write(repo, "AGENTS.md", "---\nglobs: []\n\nRules.\n")
    assert "GDN004" in set(codes_at(repo, "AGENTS.md"))


def test_applies_follows_seed_000_exclusions_first() -> None:
    globs = ["src/**/*.ts", "!src/**/*.test.ts"]
    assert applies(globs, "src/a.ts", "") == (True, "src/**/*.ts")
    assert applies(globs, "src/a.test.ts", "") == (False, "!src/**/*.test.ts")
    assert applies(globs, "lib/a.ts", "") == (False, None)


@pytest.mark.parametrize(("pattern", "bad"), [("", True), ("!", True), ("a***", True), ("a/{b", True), ("a}", True), ("[ab", True), ("[z-a].md", True), ("src/**", False), ("!x/{a,b}", False)])
def test_glob_problem(pattern: str, bad: bool) -> None:
    assert (glob_problem(pattern) is not None) is bad


def test_import_escaping_the_repository_and_home_imports(repo: Path) -> None:
    write(repo, "AGENTS.md", "@../outside.md\n@/etc/rules.md\n@~/.agents/base.md\n")
    problems = [p for p in _problems(repo) if p["path"] == "AGENTS.md"]
    assert [(p["code"], p["line"]) for p in problems] == [("GDN010", 1), ("GDN010", 2)]


def test_house_import_depth_limit(repo: Path) -> None:
    # AGENTS.md: Amp follows its imports to a depth nobody has confirmed, Codex not at
    # all: only the repository's own limit, when set, speaks about it.
    write(repo, "AGENTS.md", "@d/1.md\n")
    for i in range(1, 7):
        write(repo, f"d/{i}.md", f"@{i + 1}.md\n" if i < 6 else "end\n")
    assert not [p for p in _problems(repo) if p["code"] == "GDN012"]
    write(repo, ".memcheck.yaml", "guidance:\n  max-import-depth: 5\n")
    (p,) = [p for p in _problems(repo) if p["code"] == "GDN012"]
    assert p["path"] == "AGENTS.md" and "d/6.md" in str(p["message"]) and "over guidance.max-import-depth 5" in str(p["message"])


def test_cycle_through_plain_documents_is_reported_on_the_guidance_file(repo: Path) -> None:
    write(repo, "AGENTS.md", "@a.md\n")
    write(repo, "a.md", "@b.md\n")
    write(repo, "b.md", "@a.md\n")
    (p,) = [p for p in _problems(repo) if p["code"] == "GDN011"]
    assert p["path"] == "AGENTS.md" and "a.md -> b.md -> a.md" in str(p["message"])


def test_broken_links(repo: Path) -> None:
    write(repo, "docs/real.md", "x\n")
    write(repo, "docs/AGENTS.md", "[ok](real.md) [ok2](../docs/real.md#top) [folder](.)\n[gone](gone.md)\n[up](../../x.md)\n[win](\\.claude\\x.md)\n`[code](nope.md)`\n")
    problems = sorted((int(p["line"]), str(p["message"])) for p in _problems(repo) if p["code"] == "GDN013")  # type: ignore[call-overload]
    assert [line for line, _ in problems] == [2, 3, 4]
    assert "climbs above the repository root" in problems[1][1]
    assert "not '\\'" in problems[2][1]


def test_size_budget_warnings(repo: Path) -> None:
    write(repo, ".memcheck.yaml", "guidance:\n  max-lines: 10\n  max-bytes: 80\n  max-tokens: 30\n")
    write(repo, "big.md", "x" * 200 + "\n")
    write(repo, "AGENTS.md", "".join(f"line {i}\n" for i in range(11)) + "@big.md\n")
    messages = [str(p["message"]) for p in _problems(repo) if p["code"] == "GDN014"]
    assert len(messages) == 3
    assert any("12 lines, over guidance.max-lines 10" in m for m in messages)
    assert any("with its 1 import(s) loads about" in m for m in messages)
    assert all(p["severity"] == "warning" for p in _problems(repo) if p["code"] == "GDN014")


def test_binary_guidance_file_is_a_finding_not_a_traceback(repo: Path) -> None:
    write(repo, "AGENTS.md", b"\xff\xfe# R\x00u\x00l\x00e\x00s\x00")
    write(repo, "CLAUDE.md", b"caf\xe9\n")
    found = _found(_problems(repo))
    assert ("AGENTS.md", "GDN003") in found and ("CLAUDE.md", "GDN003") in found


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
