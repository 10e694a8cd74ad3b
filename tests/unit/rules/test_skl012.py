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


def test_the_links_of_every_markdown_file_a_skill_ships_are_checked() -> None:
    """Issue 40's shape: an AGENTS.md inside a skill folder (`.agents/skills/<skill>/`)
    with links under references/, which are dead. It is the skill's, not guidance;
    its links are checked as the skill's own are, from its own folder."""
    skill = ".agents/skills/deploy"
    files = {
        f"{skill}/SKILL.md": HEAD + "See [the rules](AGENTS.md).\n",
        f"{skill}/AGENTS.md": "# Deploy\n\n- [API](references/api.md)\n- [Gone](references/gone.md)\n- [Up](../deploy/SKILL.md)\n",
        f"{skill}/references/api.md": "# API\n\nSee [the index](../AGENTS.md) and [old](old.md).\n",
    }
    assert lint(files) == [(f"{skill}/AGENTS.md", 4, "SKL012"), (f"{skill}/references/api.md", 3, "SKL012")]
    assert lint(files, select="GDN") == []


def test_markdown_outside_a_skill_folder_is_not_the_skills() -> None:
    files = {"docs/AGENTS.md": "# Docs\n\n- [Gone](references/gone.md)\n"}
    assert ("docs/AGENTS.md", 3, "SKL012") not in lint(files)


def test_samples_of_what_a_skill_writes_keep_their_links() -> None:
    """An API-docs skill ships `references/example-class.md`, a page as it would write
    one: its links are relative to where that page goes, not the skill's pointers."""
    skill = ".agents/skills/api-docs"
    page = "# Broadcast\n\n## Related\n\n- [useBus](../react/use-bus.md)\n"
    files = {
        f"{skill}/SKILL.md": HEAD + "Follow [the class example](references/example-class.md).\n",
        f"{skill}/references/example-class.md": page,
        f"{skill}/templates/page.md": page,
        # A fourth unseen set: the word further in the name (a digest the skill fills in).
        f"{skill}/assets/digest-template.md": "## Updates\n\n- [<tag>](url)\n",
        f"{skill}/references/quick-start.md": "**Reference:** [reduce-looping.md](reduce-looping.md)\n",
        f"{skill}/references/templating.md": "See [the engine](engine.md).\n",  # a page about templates: its links are the skill's
    }
    assert lint(files, select="SKL012") == [
        (f"{skill}/references/quick-start.md", 1, "SKL012"),
        (f"{skill}/references/templating.md", 1, "SKL012"),
    ]


def test_a_basedir_link_is_resolved_from_the_skill_folder() -> None:
    """Issue 40 (a third unseen set): `{baseDir}/references/x.md`, the skill-folder
    placeholder, names the file beside the SKILL.md; a dead one is still found, in the
    SKILL.md and in the Markdown the skill ships (from the skill's folder, not the file's)."""
    folder = ".claude/skills/deploy"
    files = {
        SKILL: HEAD + "See [api]({baseDir}/references/api.md) and [gone]({baseDir}/references/gone.md).\n",
        f"{folder}/references/api.md": "# API\n\nBack to [steps]({baseDir}/steps.md) and [old]({baseDir}/old.md).\n",
        f"{folder}/steps.md": "# Steps\n",
    }
    found = findings(files)
    assert [(p.path, p.line, p.code) for p in found] == [(SKILL, 6, "SKL012"), (f"{folder}/references/api.md", 3, "SKL012")]
    assert "points at .claude/skills/deploy/references/gone.md, which does not exist" in found[0].message
    assert "points at .claude/skills/deploy/old.md, which does not exist" in found[1].message


def test_a_basedir_link_outside_a_skill_is_left_alone() -> None:
    assert lint({"AGENTS.md": "# Repo\n\nSee [x]({baseDir}/references/x.md).\n"}) == []


def test_a_changelog_the_skill_ships_is_not_followed() -> None:
    """Issue 40 (a third unseen set): a skill's CHANGELOG.md links the files of the
    project its author audited; the agent running the skill is not sent there. The
    skill's other Markdown is still checked."""
    folder = ".claude/skills/deploy"
    files = {
        SKILL: HEAD + "Deploy.\n",
        f"{folder}/CHANGELOG.md": "# Changes\n\n- found in [tx](cosmos-sdk/types/tx_msg.go)\n",
        f"{folder}/references/notes.md": "# Notes\n\n- [gone](gone.md)\n",
    }
    assert lint(files) == [(f"{folder}/references/notes.md", 3, "SKL012")]
