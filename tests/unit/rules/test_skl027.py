"""SKL027 nested-reference: a skill file reached only through another reference (opt-in advice)."""

from __future__ import annotations

from conftest import example, findings, lint

ON = {"select": ["ALL", "SKL027"]}  # opt-in: on only where select names it
SKILL = ".claude/skills/call-api/SKILL.md"
HEAD = "---\nname: call-api\ndescription: Calls the API. Use when asked to call it.\n---\n\n"
API = ".claude/skills/call-api/references/api.md"
ERRORS = ".claude/skills/call-api/references/errors.md"


def _files(body: str, api: str = "Details in [errors](errors.md).\n") -> dict[str, str]:
    return {SKILL: HEAD + body, API: api, ERRORS: "# Errors\n\nE1: retry.\n"}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings(_files(example("SKL027")), config=ON)
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 6, "SKL027", "warning")
    assert found.message.startswith(f"{API} links {ERRORS} (its line 1), which SKILL.md does not link: a reference two levels deep")
    assert "platform.claude.com" in found.message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_files(example("SKL027", "Use instead")), config=ON) == []


def test_off_by_default_and_under_a_prefix() -> None:
    files = _files(example("SKL027"))
    assert lint(files) == lint(files, select="SKL") == []


def test_only_files_of_the_skills_own_folder_that_exist_count() -> None:
    body = "See [the API notes](references/api.md).\n"
    outside = "See [the style guide](../../../../docs/style.md), [a site](https://example.com) and [a heading](#retries).\n"
    assert lint({**_files(body, outside), "docs/style.md": "# Style\n"}, select="SKL027") == []
    # A dead link is SKL012's; a link back to SKILL.md or to itself is no deeper file.
    back = "Gone: [old](old.md). Up: [skill](../SKILL.md). Here: [top](api.md#top).\n"
    assert lint(_files(body, back), select="SKL027") == []


def test_each_first_level_file_is_reported_once_with_the_count_of_the_rest() -> None:
    api = "See [errors](errors.md), [limits](limits.md) and [errors again](errors.md#e1).\n"
    files = {**_files("See [the API notes](references/api.md) and [again](references/api.md).\n", api)}
    files[".claude/skills/call-api/references/limits.md"] = "# Limits\n"
    (found,) = findings(files, select="SKL027")
    assert f"{API} links {ERRORS} (its line 1) (and 1 more)" in found.message


def test_samples_of_what_a_skill_writes_and_flat_skills_are_left_out() -> None:
    sample = {
        SKILL: HEAD + "Write pages like [the example](templates/page.md).\n",
        ".claude/skills/call-api/templates/page.md": "See [the errors](../references/errors.md).\n",
        ERRORS: "# Errors\n",
    }
    assert lint(sample, select="SKL027") == []
    flat = {".claude/skills/call-api.md": HEAD + "See [notes](notes.md).\n", ".claude/skills/notes.md": "See [more](more.md).\n"}
    assert lint({**flat, ".claude/skills/more.md": "x\n"}, select="SKL027") == []


def test_a_file_of_any_kind_the_reference_links_counts() -> None:
    # The guidance is about what Claude must read to do the task: a script the second
    # file names is as far away as a page.
    api = "Run [the check](../scripts/check.py) first.\n"
    files = {**_files("See [the API notes](references/api.md).\n", api), ".claude/skills/call-api/scripts/check.py": "print()\n"}
    (found,) = findings(files, select="SKL027")
    assert "links .claude/skills/call-api/scripts/check.py" in found.message


def test_a_file_inside_a_folder_skill_md_links_is_one_step_away() -> None:
    # Seen on a public skill: SKILL.md links `assets/`, and a reference links a file in it.
    api = "Copy [the config](../assets/config/.tool.yaml).\n"
    body = "See [the API notes](references/api.md) and [the assets](assets/).\n"
    files = {**_files(body, api), ".claude/skills/call-api/assets/config/.tool.yaml": "x: 1\n"}
    assert lint(files, select="SKL027") == []
