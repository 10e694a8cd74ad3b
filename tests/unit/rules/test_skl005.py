"""SKL005 name-folder-mismatch: a SKILL.md whose name is not its folder's.

SKL004 and SKL005 share one module (``checks/skills/name.py``): a bad name in a folder
whose own name is a valid one is reported once, by SKL004, which names the folder's
name as the fix.
"""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

DESCRIBED = "description: Runs the tests. Use when asked to test a change.\n"


def _skill(name: str) -> str:
    return f"---\nname: {name}\n{DESCRIBED}---\n\nBody.\n"


def test_the_docs_example_is_reported() -> None:
    path = ".claude/skills/x/SKILL.md"
    (found,) = findings({path: example("SKL005")})
    assert (found.path, found.line, found.code, found.severity) == (path, 2, "SKL005", "error")
    assert found.message == "name 'run-tests' differs from the skill's folder 'x'; rename the folder or set name: x"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({".claude/skills/x/SKILL.md": example("SKL005", "Use instead")}) == []


@pytest.mark.parametrize(
    ("path", "name"),
    [
        pytest.param(".claude/skills/run-tests/SKILL.md", "run-tests", id="folder-renamed"),
        pytest.param(".claude/skills/x/SKILL.md", "x", id="name-set"),
    ],
)
def test_the_folder_renamed_or_the_name_set_is_not_reported(path: str, name: str) -> None:
    assert lint({path: _skill(name)}) == []


def test_a_flat_skill_has_no_folder_to_match() -> None:
    assert lint({".claude/skills/flat.md": _skill("other-name")}) == []


@pytest.mark.parametrize(
    ("folder", "name", "expected"),
    [
        # Title-case names in a collection of skills: one finding each, not two.
        pytest.param(
            "action-converter", "Action Converter", [("SKL004", "set name: action-converter, its folder's name")], id="title-case"
        ),
        pytest.param("deploy", "Ship_It", [("SKL004", "set name: deploy, its folder's name")], id="other-words"),
        # A folder that is no valid name either: the name to use, and the folder to rename.
        pytest.param("My Skill", "My Skill", [("SKL004", "use 'my-skill'")], id="both-bad-same"),
        pytest.param("My Skill", "Other", [("SKL004", "use 'other'"), ("SKL005", "rename the folder")], id="both-bad"),
    ],
)
def test_a_bad_name_is_one_finding_when_its_folder_names_the_fix(folder: str, name: str, expected: list[tuple[str, str]]) -> None:
    found = sorted((p.code, p.message) for p in findings({f".claude/skills/{folder}/SKILL.md": _skill(f"'{name}'")}))
    assert [code for code, _ in found] == [code for code, _ in expected]
    assert all(text in message for (_, message), (_, text) in zip(found, expected))


def test_names_are_compared_with_their_folder_as_the_reference_validator_compares_them() -> None:
    # Both NFKC-normalised: "ﬁle" (one ligature letter) is "file".
    assert lint({".claude/skills/file/SKILL.md": _skill("ﬁle")}) == []


def test_a_generated_skill_is_left_to_its_generator() -> None:
    # A vendor's generator writes each skill into a prefixed folder from a template the
    # repository holds, and says so first thing: an edit here is undone at its next run
    # (26 such skills on an unseen repository, each judged unwanted).
    path = ".agents/skills/gstack-review/SKILL.md"
    template = {".claude/skills/gstack/review/SKILL.md.tmpl": "---\nname: review\n---\n"}
    marker = "<!-- AUTO-GENERATED from SKILL.md.tmpl — do not edit directly -->\n"
    text = "---\nname: review\ndescription: Reviews a change. Use when asked to review.\n---\n" + marker + "\nReview it.\n"
    assert [f for f in lint({path: text, **template}) if f[2] == "SKL005"] == []


@pytest.mark.parametrize(
    "marker",
    [
        "",  # no marker
        "Check the generated report by hand.\n",  # the word in prose
        "<!-- Not auto-generated: edit this file by hand. -->\n",  # an outside attack's: the opposite
        "<!-- was auto-generated once, now maintained by hand -->\n",
        "\nIntro.\n<!-- AUTO-GENERATED from SKILL.md.tmpl — do not edit directly -->\n",  # not first
    ],
)
def test_a_skill_that_does_not_say_first_that_a_template_generates_it_is_reported(marker: str) -> None:
    path = ".agents/skills/gstack-review/SKILL.md"
    template = {".claude/skills/gstack/review/SKILL.md.tmpl": "---\nname: review\n---\n"}
    text = "---\nname: review\ndescription: Reviews a change. Use when asked to review.\n---\n" + marker + "\nReview it.\n"
    assert [f[2] for f in lint({path: text, **template}) if f[2] == "SKL005"] == ["SKL005"]


def test_a_marker_naming_a_template_the_tree_lacks_is_reported() -> None:
    # A copied skill in a renamed folder keeps its vendor's marker (an outside attack):
    # nothing here generates it.
    path = ".claude/skills/ship/SKILL.md"
    text = "---\nname: gstack-ship\ndescription: Ships. Use when shipping.\n---\n<!-- AUTO-GENERATED from SKILL.md.tmpl — do not edit directly -->\n"
    assert [f[2] for f in lint({path: text}) if f[2] == "SKL005"] == ["SKL005"]


@pytest.mark.parametrize(
    "templates",
    [
        {".claude/skills/gstack/other/SKILL.md.tmpl": "---\nname: other\n---\n"},  # another skill's
        {"SKILL.md.tmpl": "---\nname: review\n---\n"},  # at the root
        {".agents/skills/gstack-review/SKILL.md.tmpl": "---\nname: ship\n---\n"},  # beside, of another skill
        {".claude/skills/gstack/review/SKILL.md.tmpl": ""},  # empty
    ],
)
def test_a_template_that_is_not_this_skills_exempts_nothing(templates: dict[str, str]) -> None:
    # An outside attack: any template anywhere let every marked skill pass.
    path = ".agents/skills/gstack-review/SKILL.md"
    text = (
        "---\nname: review\ndescription: Reviews. Use when asked.\n---\n<!-- AUTO-GENERATED from SKILL.md.tmpl — do not edit directly -->\n"
    )
    assert [f[2] for f in lint({path: text, **templates}) if f[2] == "SKL005"] == ["SKL005"]
