"""SKL004 invalid-name: a skill name that breaks the Agent Skills name rules."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

DESCRIBED = "description: Does a thing. Use when asked.\n"


def _skill(name_line: str) -> str:
    return f"---\n{name_line}{DESCRIBED}---\n\nBody.\n"


def test_the_docs_example_is_reported_and_told_its_folders_name() -> None:
    path = ".claude/skills/my-skill/SKILL.md"
    (found,) = findings({path: _skill(example("SKL004"))})
    assert (found.path, found.line, found.code, found.severity) == (path, 2, "SKL004", "error")
    assert (
        found.message
        == "name 'My_Skill' must be lowercase letters, digits and single hyphens, not starting or ending with one; set name: my-skill, its folder's name"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({".claude/skills/my-skill/SKILL.md": _skill(example("SKL004", "Use instead"))}) == []


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
def test_the_name_rules(name: str, message: str | None) -> None:
    found = [p.message for p in findings({".claude/skills/s/SKILL.md": _skill(f"name: {name}\n")}) if p.code == "SKL004"]
    if message is None:
        assert found == []
    else:
        assert len(found) == 1 and message in found[0]


@pytest.mark.parametrize("path", [".agents/skills/deploy/SKILL.md", "skills/deploy/SKILL.md"])
def test_a_skill_with_no_name_is_told_its_folders_name(path: str) -> None:
    # Codex, Gemini CLI and Amp load .agents/skills, and a collection's skill is
    # installed by whoever wants it: not every reader names it after its folder.
    (found,) = findings({path: _skill("")})
    assert (found.code, found.line) == ("SKL004", 1)
    assert found.message == "no name: give the skill a name of lowercase letters, digits and hyphens (name: deploy, its folder's name)"


def test_no_name_where_only_claude_code_loads_the_skill_is_its_folders_name() -> None:
    # Claude Code alone loads .claude/skills, and names a skill without `name` after
    # its folder: the skill already has the name the rule would ask for.
    assert lint({".claude/skills/deploy/SKILL.md": _skill("")}) == []
    # A folder whose own name breaks the rules is no name to take, and an empty name
    # is a name written wrong: both still reported.
    assert [c for _, _, c in lint({".claude/skills/Deploy_It/SKILL.md": _skill("")})] == ["SKL004"]
    assert [c for _, _, c in lint({".claude/skills/deploy/SKILL.md": _skill("name: ''\n")})] == ["SKL004"]
    # The same skill linked into .agents/skills too is loaded by agents that need the key.
    text = _skill("")
    assert [c for _, _, c in lint({".claude/skills/deploy/SKILL.md": text, ".agents/skills/deploy/SKILL.md": text})] == ["SKL004", "SKL004"]


def test_a_flat_skill_is_given_a_name_made_from_its_own() -> None:
    # No folder names the fix: the name itself, in lowercase and hyphens.
    (found,) = findings({".claude/skills/run-tests.md": _skill("name: Run_Tests\n")})
    assert found.code == "SKL004" and found.message.endswith("use 'run-tests'")


@pytest.mark.parametrize(
    ("folder", "name", "found"),
    [
        pytest.param("café", "café", [], id="letters-of-any-script"),
        pytest.param("Café", "Café", [(2, "SKL004")], id="lowercase-in-any-script"),
    ],
)
def test_names_are_judged_as_the_reference_validator_judges_them(folder: str, name: str, found: list[tuple[int, str]]) -> None:
    path = f".claude/skills/{folder}/SKILL.md"
    assert lint({path: _skill(f"name: {name}\n")}) == [(path, line, code) for line, code in found]


HOME_COPY = {"CLAUDE.md": "# My instructions\n\nBe brief.\n", "settings.json": '{"permissions": {"allow": ["Bash(ls)"]}}\n'}


@pytest.mark.parametrize("folder", ["", "claude/", "dotfiles/home/"])
def test_no_name_in_a_copy_of_the_home_claude_folder_is_its_folders_name(folder: str) -> None:
    # A dotfiles repository keeps a person's ~/.claude (at its root, or in a folder it
    # links or stows there, which the settings name a skills root): CLAUDE.md and
    # settings.json beside skills/. Claude Code loads ~/.claude/skills and names a
    # skill without `name` after its folder.
    files = {folder + name: text for name, text in HOME_COPY.items()}
    roots = {"skills": {"roots": [folder + "skills"]}} if folder else None
    assert lint({**files, f"{folder}skills/deploy/SKILL.md": _skill("")}, config=roots) == []
    # Without the copy's files beside it, the same skill is told its name.
    assert lint({f"{folder}skills/deploy/SKILL.md": _skill("")}, config=roots) == [(f"{folder}skills/deploy/SKILL.md", 1, "SKL004")]
    # Still reported there: a name written wrong, a folder name that is no name.
    assert lint({**files, f"{folder}skills/deploy/SKILL.md": _skill("name: Deploy_It\n")}, config=roots) == [
        (f"{folder}skills/deploy/SKILL.md", 2, "SKL004")
    ]
    assert lint({**files, f"{folder}skills/Deploy_It/SKILL.md": _skill("")}, config=roots) == [
        (f"{folder}skills/Deploy_It/SKILL.md", 1, "SKL004")
    ]


@pytest.mark.parametrize(
    "files",
    [
        {"CLAUDE.md": HOME_COPY["CLAUDE.md"]},  # a project's instructions beside a collection of skills others install
        {"settings.json": HOME_COPY["settings.json"]},  # an editor's settings
        {"claude/CLAUDE.md": HOME_COPY["CLAUDE.md"], "settings.json": HOME_COPY["settings.json"]},  # not side by side
    ],
)
def test_one_of_the_home_folders_files_alone_is_no_copy_of_it(files: dict[str, str]) -> None:
    assert lint({**files, "skills/deploy/SKILL.md": _skill("")}) == [("skills/deploy/SKILL.md", 1, "SKL004")]


@pytest.mark.parametrize(
    "settings",
    [
        '{"port": 8080, "db": "x"}',  # an application's settings beside a skill collection
        "{}",
        "not json{",
        '["permissions"]',
        '{"model": "opus", "env": {"A": "1"}}',  # words other settings files use too
    ],
)
def test_a_settings_file_that_is_not_claude_codes_makes_no_copy(settings: str) -> None:
    files = {"CLAUDE.md": HOME_COPY["CLAUDE.md"], "settings.json": settings}
    assert lint({**files, "skills/deploy/SKILL.md": _skill("")}) == [("skills/deploy/SKILL.md", 1, "SKL004")]


@pytest.mark.parametrize(
    "settings",
    ['{"hooks": {}}', '{"enabledPlugins": {"x@y": true}}', '{"$schema": "https://json.schemastore.org/claude-code-settings.json"}'],
)
def test_a_settings_file_with_one_of_claude_codes_own_settings_makes_a_copy(settings: str) -> None:
    files = {"CLAUDE.md": HOME_COPY["CLAUDE.md"], "settings.json": settings}
    assert lint({**files, "skills/deploy/SKILL.md": _skill("")}) == []


def test_a_copy_of_homes_skill_that_another_agents_folder_holds_too_is_told_its_name() -> None:
    # `.agents/skills` holding the same skill (a copy here; a link in the CLI tests):
    # Codex, Gemini CLI and Amp load it in this repository, and need the key.
    text = _skill("")
    found = lint({**HOME_COPY, "skills/deploy/SKILL.md": text, ".agents/skills/deploy/SKILL.md": text})
    assert found == [(".agents/skills/deploy/SKILL.md", 1, "SKL004"), ("skills/deploy/SKILL.md", 1, "SKL004")]


def test_a_skill_outside_the_copys_skills_folder_is_not_in_it() -> None:
    # Claude Code loads ~/.claude/skills/<name>/SKILL.md: a skill in another folder of
    # the copy, or a flat skills/deploy.md, is loaded by no agent the copy tells of.
    roots = {"skills": {"roots": ["tools"]}}
    assert lint({**HOME_COPY, "tools/deploy/SKILL.md": _skill("")}, config=roots) == [("tools/deploy/SKILL.md", 1, "SKL004")]
    assert lint({**HOME_COPY, "skills/deploy.md": _skill("")}) == [("skills/deploy.md", 1, "SKL004")]


def test_a_skill_in_a_copy_of_the_home_folder_is_judged_as_claude_code_loads_it() -> None:
    # The same skill in .claude/skills and in the copy's skills/ gets the same findings:
    # Claude Code's own checks (here an allowed tool it does not have) included.
    text = "---\nname: deploy\ndescription: Deploys the site. Use when asked to deploy.\nallowed-tools: Bash, Raed\n---\n\nBody.\n"
    in_project = [(code, line) for _path, line, code in lint({".claude/skills/deploy/SKILL.md": text})]
    in_copy = [(code, line) for path, line, code in lint({**HOME_COPY, "skills/deploy/SKILL.md": text}) if path.startswith("skills/")]
    assert in_project and in_copy == in_project


@pytest.mark.parametrize("other", [".agents/skills/other/SKILL.md", "sub/.agents/skills/other/SKILL.md", ".github/skills/other/SKILL.md"])
def test_a_repository_with_another_agents_skills_folder_holds_no_copy_claude_code_alone_loads(other: str) -> None:
    # Another agent's skills folder anywhere in the repository (a link to the copy's
    # skills, under another name, or nested) may load the copy's skills: they are
    # told their name, as in a collection.
    named_other = "---\nname: other\ndescription: Does another thing. Use when asked.\n---\n\nBody.\n"
    found = lint({**HOME_COPY, "skills/deploy/SKILL.md": _skill(""), other: named_other})
    assert ("skills/deploy/SKILL.md", 1, "SKL004") in found


@pytest.mark.parametrize("other", [".Agents/skills/other/SKILL.md", ".agents/Skills/other/SKILL.md"])
def test_another_agents_skills_folder_in_another_case_holds_no_copy_either(other: str) -> None:
    # A file system that ignores case (macOS, Windows) opens it as `.agents/skills`.
    named_other = "---\nname: other\ndescription: Does another thing. Use when asked.\n---\n\nBody.\n"
    assert ("skills/deploy/SKILL.md", 1, "SKL004") in lint({**HOME_COPY, "skills/deploy/SKILL.md": _skill(""), other: named_other})


def test_another_agents_skills_folder_the_settings_exclude_holds_no_copy_either() -> None:
    # `exclude` keeps files from memcheck's checks, not from the agents that load them.
    named_other = "---\nname: other\ndescription: Does another thing. Use when asked.\n---\n\nBody.\n"
    files = {**HOME_COPY, "skills/deploy/SKILL.md": _skill(""), ".agents/skills/other/SKILL.md": named_other}
    assert ("skills/deploy/SKILL.md", 1, "SKL004") in lint(files, config={"exclude": [".agents/"]})
