"""SKL findings and skill discovery (SPEC §2, §3; Agent Skills specification; seed 000)."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import check_json, codes_at, write
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck import config
from memcheck.checks.skills import duplicates
from memcheck.workspace.discover import Workspace

GOOD = "---\nname: {name}\ndescription: Run the tests. Use when asked to test a change.\n{extra}---\n\nBody.\n"


_problems = check_json



def test_discovery_skill_folders_flat_skills_and_resources(repo: Path) -> None:
    write(repo, ".claude/skills/deploy/SKILL.md", GOOD.format(name="deploy", extra=""))
    write(repo, ".claude/skills/deploy/reference.md", "---\nname: not-a-skill\n---\n")  # a resource
    write(repo, ".claude/skills/deploy/examples/inner/SKILL.md", GOOD.format(name="inner", extra=""))  # a resource too
    write(repo, ".claude/skills/README.md", "---\nname: readme\ndescription: x\n---\n")
    write(repo, ".claude/skills/notes.md", "# no frontmatter: not a skill\n")
    write(repo, "pkg/.agents/skills/run-tests.md", GOOD.format(name="run-tests", extra=""))  # flat, any depth
    write(repo, "plugins/p/.claude-plugin/plugin.json", '{"name": "p"}\n')
    write(repo, "plugins/p/skills/lint/SKILL.md", GOOD.format(name="lint", extra=""))  # a plugin's skill
    write(repo, "src/app/skills/own/SKILL.md", "# the application's own: no agent's skill\n")
    ws = Workspace(config.load(repo))
    assert ws.skills == (".claude/skills/deploy/SKILL.md", "pkg/.agents/skills/run-tests.md", "plugins/p/skills/lint/SKILL.md")
    assert _problems(repo) == []


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("My_Skill", "set name: s, its folder's name"),
        ("-lead", "not starting or ending"),
        ("trail-", "not starting or ending"),
        ("dou--ble", "single hyphens"),
        ("x" * 65, "65 characters, over the 64"),
        ("'123'", None),  # digits are fine
        ("[a, b]", "is a list"),
        ("''", "no name"),
    ],
)
def test_name_rules(repo: Path, name: str, message: str | None) -> None:
    write(repo, ".claude/skills/s/SKILL.md", GOOD.format(name=name, extra=""))
    found = [str(p["message"]) for p in _problems(repo) if p["code"] == "SKL004"]
    if message is None:
        assert found == []
    else:
        assert len(found) == 1 and message in found[0]


@pytest.mark.parametrize(
    ("folder", "name", "expected"),
    [
        # Title-case names in a collection of skills: one finding each, not two.
        pytest.param("action-converter", "Action Converter", [("SKL004", "set name: action-converter, its folder's name")], id="title-case"),
        pytest.param("deploy", "Ship_It", [("SKL004", "set name: deploy, its folder's name")], id="other-words"),
        # A folder that is no valid name either: the name to use, and the folder to rename.
        pytest.param("My Skill", "My Skill", [("SKL004", "use 'my-skill'")], id="both-bad-same"),
        pytest.param("My Skill", "Other", [("SKL004", "use 'other'"), ("SKL005", "rename the folder")], id="both-bad"),
    ],
)
def test_a_bad_name_is_one_finding_when_its_folder_names_the_fix(repo: Path, folder: str, name: str, expected: list[tuple[str, str]]) -> None:
    write(repo, f".claude/skills/{folder}/SKILL.md", GOOD.format(name=f"'{name}'", extra=""))
    found = sorted((str(p["code"]), str(p["message"])) for p in _problems(repo))
    assert [code for code, _ in found] == [code for code, _ in expected]
    assert all(text in message for (_, message), (_, text) in zip(found, expected))


def test_name_must_equal_folder_for_skill_md_only(repo: Path) -> None:
    write(repo, ".claude/skills/x/SKILL.md", GOOD.format(name="run-tests", extra=""))
    write(repo, ".claude/skills/flat.md", GOOD.format(name="other-name", extra=""))
    assert codes_at(repo, ".claude/skills/x/SKILL.md") == ["SKL005"]
    assert codes_at(repo, ".claude/skills/flat.md") == []


@pytest.mark.parametrize(
    ("text", "code"),
    [
        pytest.param("# Deploy\n", "SKL002", id="no-frontmatter"),
        pytest.param("---\nname: s\ndescription: a: b\n---\n", "SKL003", id="not-yaml"),
        pytest.param("---\nname: s\n", "SKL003", id="unclosed"),
        pytest.param("---\nname: s\nname: s\ndescription: d\n---\n", "SKL003", id="duplicate-key"),
        pytest.param("---\nname: s\n---\n", "SKL006", id="no-description"),
        pytest.param("---\nname: s\ndescription: ''\n---\n", "SKL006", id="empty-description"),
        pytest.param("---\nname: s\ndescription: [a]\n---\n", "SKL006", id="description-list"),
        pytest.param("---\nname: s\ndescription: " + "d" * 1025 + "\n---\n", "SKL006", id="description-too-long"),
        pytest.param("---\nname: s\ndescription: d\ncompatibility: " + "c" * 501 + "\n---\n", "SKL007", id="compatibility-too-long"),
        pytest.param("---\nname: s\ndescription: d\nmetadata: x\n---\n", "SKL007", id="metadata-string"),
        pytest.param("---\nname: s\ndescription: d\nallowed-tools: {Bash: true}\n---\n", "SKL007", id="tools-mapping"),
        pytest.param("---\nname: s\ndescription: d\nlicense: 3\n---\n", "SKL007", id="license-number"),
        pytest.param("---\nname: s\ndescription: d\ntriggers: run tests\n---\n", "SKL008", id="triggers-string"),
        pytest.param("---\nname: s\ndescription: d\ntriggers: ['']\n---\n", "SKL008", id="empty-trigger"),
        pytest.param("---\nname: s\ndescription: d\ntriggers: [3]\n---\n", "SKL008", id="number-trigger"),
        pytest.param("---\nname: s\ndescription: d\ntriggers: [a, A ]\n---\n", "SKL011", id="trigger-twice"),
        pytest.param("---\nname: s\ndescription: d\ntrigger: run\n---\n", "SKL010", id="unknown-key"),
    ],
)
def test_schema_problems(repo: Path, text: str, code: str) -> None:
    write(repo, ".claude/skills/s/SKILL.md", text)
    assert code in codes_at(repo, ".claude/skills/s/SKILL.md")


@pytest.mark.parametrize(
    "extra",
    [
        "allowed-tools: Bash, Read, Grep\n",
        "allowed-tools:\n  - Bash\n  - Read\n",
        "license: MIT\ncompatibility: Needs git\nmetadata:\n  owner: me\n",
        "argument-hint: '[file]'\nuser-invocable: true\nmodel: sonnet\nversion: 1.0.0\ndisable-model-invocation: false\n",
        "triggers:\n  - run tests\n  - /test\n",
    ],
)
def test_valid_skills_are_clean(repo: Path, extra: str) -> None:
    write(repo, ".agents/skills/run-tests/SKILL.md", GOOD.format(name="run-tests", extra=extra))
    assert _problems(repo) == []


def test_misspelt_keys_are_warnings_and_a_team_s_own_keys_pass(repo: Path) -> None:
    write(repo, ".claude/skills/s/SKILL.md", GOOD.format(name="s", extra="owner: me\nreviewd: 2026-01-01\n"))
    assert _problems(repo) == []  # agents ignore a team's own keys
    write(repo, ".claude/skills/s/SKILL.md", GOOD.format(name="s", extra="owner: me\nuser_invocable: false\n"))
    (p,) = _problems(repo)
    assert p["code"] == "SKL010" and p["severity"] == "warning" and p["line"] == 5 and "rename it to user-invocable" in p["message"]
    # A key of skills.allowed-keys is known too: a key near it is a misspelling of it.
    write(repo, ".claude/skills/s/SKILL.md", GOOD.format(name="s", extra="owner: me\nreviewd: 2026-01-01\n"))
    write(repo, ".memcheck.yaml", "skills:\n  allowed-keys: [reviewed]\n")
    (p,) = _problems(repo)
    assert p["code"] == "SKL010" and "misspelling of 'reviewed'" in p["message"]


def test_duplicate_names_across_roots_and_scopes(repo: Path) -> None:
    # Codex loads .agents/skills, Claude Code .claude/skills: the same name in each is
    # one skill per agent, not a clash.
    write(repo, ".agents/skills/deploy/SKILL.md", GOOD.format(name="deploy", extra="triggers: [/ship]\n"))
    write(repo, ".claude/skills/deploy/SKILL.md", GOOD.format(name="deploy", extra="triggers: [/ship]\n"))
    write(repo, "pkg/.agents/skills/deploy/SKILL.md", GOOD.format(name="deploy", extra="license: MIT\n"))
    write(repo, "pkg/.claude/skills/ship/SKILL.md", GOOD.format(name="ship", extra="triggers: [/ship]\n"))
    # siblings in a monorepo never see each other's skills
    write(repo, "a/.claude/skills/lint/SKILL.md", GOOD.format(name="lint", extra=""))
    write(repo, "b/.claude/skills/lint/SKILL.md", GOOD.format(name="lint", extra=""))
    # copies outside the skills roots (docs) are not discovered together with them
    write(repo, "docs/skills/deploy/SKILL.md", GOOD.format(name="deploy", extra=""))
    found = {(str(p["path"]), str(p["code"])) for p in _problems(repo)}
    assert found == {("pkg/.agents/skills/deploy/SKILL.md", "SKL009"), ("pkg/.claude/skills/ship/SKILL.md", "SKL011")}


def test_one_skill_copied_into_each_agent_s_folder_is_no_duplicate(repo: Path) -> None:
    # Gemini CLI loads both .agents/skills and .gemini/skills: an identical copy there is one skill.
    for root in (".agents/skills", ".claude/skills", ".gemini/skills", ".github/skills"):
        write(repo, f"{root}/deploy/SKILL.md", GOOD.format(name="deploy", extra="triggers: [/ship]\n"))
    assert [p for p in _problems(repo) if p["code"] in ("SKL009", "SKL011")] == []


def test_dead_relative_links_in_a_skill(repo: Path) -> None:
    body = (
        "See [the API](references/api.md), [gone](references/gone.md) and ![chart](img/chart.png).\n"
        "`[in code](nope.md)` and <!-- [commented](nope.md) -->\n"
        "[site](https://example.com/x.md) [anchor](#usage) [up](../../../../x.md)\n"
    )
    write(repo, ".claude/skills/deploy/SKILL.md", GOOD.format(name="deploy", extra="") + body)
    write(repo, ".claude/skills/deploy/references/api.md", "# API\n")
    found = sorted((p["line"], p["code"], p["message"]) for p in _problems(repo) if p["path"] == ".claude/skills/deploy/SKILL.md")
    assert [(line, code) for line, code, _ in found] == [(7, "SKL012"), (7, "SKL012"), (9, "SKL012")]
    assert "points at .claude/skills/deploy/references/gone.md, which does not exist" in found[0][2] + found[1][2]
    assert "climbs above the repository root" in found[2][2]
    assert all(p["severity"] == "warning" for p in _problems(repo) if p["code"] == "SKL012")


def test_links_are_checked_in_a_skill_without_frontmatter(repo: Path) -> None:
    write(repo, ".claude/skills/deploy/SKILL.md", "# Deploy\n\n[steps](steps.md)\n")
    assert codes_at(repo, ".claude/skills/deploy/SKILL.md") == ["SKL002", "SKL012"]


# ---------------------------------------------------------------- which skills an agent sees together


def _seen_together(a: str, b: str) -> bool:
    """The rule, pair by pair: one folder is the other or above it; a "?" folder (no
    agent discovers it) only with itself."""
    if a.startswith("?") or b.startswith("?"):
        return a == b
    return a == b or a == "" or b == "" or a.startswith(b + "/") or b.startswith(a + "/")


_folder = st.lists(st.sampled_from(["a", "b", "ab", "a.b"]), max_size=3).map("/".join)
_scope = st.one_of(_folder, _folder.map(lambda f: "?" + f))


@settings(max_examples=300, deadline=None)
@given(st.lists(_scope, max_size=25))
@pytest.mark.slow  # a property test: seconds of examples
def test_the_first_skill_seen_together_is_the_first_earlier_one_on_the_same_line(scopes: list[str]) -> None:
    """SKL009/SKL011 name the first earlier skill an agent sees with this one; found by
    folder rather than by trying every earlier skill, the answer is the same."""
    seen = duplicates._SkillsSeen()
    for i, scope in enumerate(scopes):
        expected = next((f"s{j}" for j in range(i) if _seen_together(scope, scopes[j])), None)
        assert seen.first_with(scope) == expected
        seen.add(scope, f"s{i}")
