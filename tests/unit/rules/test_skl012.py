"""SKL012 broken-link: a relative link in a skill file that points at a missing file."""

from __future__ import annotations

from conftest import example, findings, lint

SKILL = ".claude/skills/deploy/SKILL.md"
HEAD = "---\nname: deploy\ndescription: Deploys the app. Use when shipping.\n---\n\n"


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({SKILL: HEAD + example("SKL012")})
    assert (found.path, found.line, found.col, found.code, found.severity) == (SKILL, 6, 21, "SKL012", "warning")
    assert (
        found.message
        == "link 'references/api.md' points at .claude/skills/deploy/references/api.md, which does not exist; fix the path or remove the link"
    )


def test_the_docs_use_instead_the_link_to_the_files_current_path_is_not_reported() -> None:
    assert lint({SKILL: HEAD + example("SKL012", "Use instead"), ".claude/skills/deploy/references/api-v2.md": "# API\n"}) == []


def test_the_file_beside_the_skill_is_not_reported() -> None:
    assert lint({SKILL: HEAD + example("SKL012"), ".claude/skills/deploy/references/api.md": "# API\n"}) == []


def test_links_images_and_what_is_no_link() -> None:
    body = (
        "See [the API](references/api.md), [gone](references/gone.md) and ![chart](img/chart.png).\n"
        "`[in code](nope.md)` and <!-- [commented](nope.md) -->\n"
        "[site](https://example.com/x.md) [anchor](#usage) [up](../../../../x.md)\n"
    )
    found = findings({SKILL: HEAD + body, ".claude/skills/deploy/references/api.md": "# API\n"})
    assert [(p.line, p.code, p.severity) for p in found] == [(6, "SKL012", "warning"), (6, "SKL012", "warning"), (8, "SKL012", "warning")]
    assert "points at .claude/skills/deploy/references/gone.md, which does not exist" in found[0].message + found[1].message
    assert "climbs above the repository root" in found[2].message


def test_links_are_checked_in_a_skill_without_frontmatter() -> None:
    assert lint({SKILL: "# Deploy\n\n[steps](steps.md)\n"}) == [(SKILL, 1, "SKL002"), (SKILL, 3, "SKL012")]


def test_links_are_checked_in_a_skill_whose_frontmatter_does_not_parse() -> None:
    text = "---\nname: deploy\ndescription: Deploy: now\n---\n\n[steps](steps.md)\n"
    assert lint({SKILL: text}) == [(SKILL, 3, "SKL003"), (SKILL, 6, "SKL012")]


def test_a_reference_definition_is_read_as_commonmark_reads_it() -> None:
    body = "Retry with a growing delay\n[backoff]: gone.md\n\n[table]: missing.md\n"
    assert lint({SKILL: HEAD + body}) == [(SKILL, 9, "SKL012")]
