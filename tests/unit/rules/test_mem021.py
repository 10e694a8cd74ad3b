"""MEM021 broken-link: a memory's Markdown or [[wiki]] link that points at nothing."""

from __future__ import annotations

import pytest
from conftest import example, memory
from memory_rules import MEMORY, STORE, findings, lint

DEPLOY = f"{STORE}/deploy-notes.md"


def _store(body: str) -> dict[str, str]:
    return {MEMORY: memory("Review", "Concise reviews", "user", body=body), DEPLOY: memory("Deploy notes", "Rollout steps", "project")}


def test_the_docs_example_is_reported_and_offers_the_nearest_memory() -> None:
    (found,) = findings(_store(example("MEM021")))
    assert (found.path, found.line, found.col, found.code) == (MEMORY, 7, 7, "MEM021")
    assert (
        found.message
        == "[[deploy_notes]] names no memory of this store and no file of the repository (no file stem or name is 'deploy_notes'); did you mean [[deploy-notes]]? fix the link or remove it"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_store(example("MEM021", "Use instead"))) == []


def test_a_wiki_link_may_name_a_memory_by_its_name() -> None:
    assert lint(_store("See [[Deploy notes]].\n")) == []


def test_a_markdown_link_to_no_file_is_reported() -> None:
    assert [f[1:] for f in lint(_store("See [the notes](gone.md).\n"))] == [(7, "MEM021")]


def test_a_wiki_link_naming_a_skill_of_the_repository_names_something() -> None:
    # `[[backend-design]]` for `.claude/skills/backend-design/SKILL.md`: an agent runs it by that name.
    files = {
        ".claude/memory/MEMORY.md": "- [Admin grid](feedback_grid.md) — filter before load\n",
        ".claude/memory/feedback_grid.md": memory(
            "Admin grid", "filter before load", "feedback", body="Use [[backend-design]] and [[no-such-skill]].\n"
        ),
        ".claude/skills/backend-design/SKILL.md": "---\nname: backend-design\ndescription: Design backend modules. Use when adding one.\n---\n\nSteps.\n",
    }
    assert [p.message.split(" names ")[0] for p in findings(files) if p.code == "MEM021"] == ["[[no-such-skill]]"]


def test_a_link_out_of_the_store_to_a_missing_file_of_the_repository_is_reported() -> None:
    # An outside attack's recipes: links from `.claude/memory/` to the repository's own
    # root and to `.claude/`'s subfolders name files of this checkout; missing, they are dead.
    for link in ("../../README.md", "../CLAUDE.md", "../skills/deploy/SKILL.md", "../../documentation/runbook.md"):
        assert [f[1:] for f in lint(_store(f"See [it]({link}) for details.\n"))] == [(7, "MEM021")], link


def test_each_kind_of_link_is_read_where_markdown_reads_one() -> None:
    # Wiki links with a heading, an alias, an embed's `!` or a file name in another case
    # name a memory; links in code, comments and a shell's `[[ ]]` are none; a path from
    # the repository's root names its file.
    body = (
        "See [[deploy-notes]], [[Review style]], [[deploy-notes#steps|the steps]], ![[team_style]] and [[TEAM_STYLE.md]].\n"
        "Dead: [[deploy_notes]] and [[gone-memory]].\n"
        "`[[in-code]]` <!-- [[commented]] -->\n"
        "Links: [notes](deploy-notes.md), [docs](docs/guide.md), [gone](gone.md)\n"
        "```bash\nif [[ -f x ]]; then echo; fi\n```\n"
    )
    files = {
        f"{STORE}/deploy-notes.md": memory("Deploy notes", "How we deploy", "project"),
        f"{STORE}/team_style.md": memory("Review style", "How we review", "feedback"),
        f"{STORE}/links.md": memory("Links", "Links to others", "reference", body=body),
        "docs/guide.md": "# Guide\n",
    }
    found = [(p.line, p.col, p.message) for p in findings(files) if p.code == "MEM021"]
    assert [(line, col) for line, col, _ in found] == [(8, 9), (8, 30), (10, 64)]
    assert (
        found[0][2]
        == "[[deploy_notes]] names no memory of this store and no file of the repository (no file stem or name is 'deploy_notes'); did you mean [[deploy-notes]]? fix the link or remove it"
    )
    assert found[1][2].startswith("[[gone-memory]] names no memory of this store")
    assert "points at .claude/memory/gone.md, which does not exist" in found[2][2]


def test_a_link_near_several_memories_offers_the_first() -> None:
    files = {
        f"{STORE}/deploy_notes.md": memory("Deploy one", "d1", "project"),
        f"{STORE}/deploy-notes.md": memory("Deploy two", "d2", "project"),
        f"{STORE}/links.md": memory("Links", "l", "project", body="[[deploy notes]] [[deploynotes]] [[de-ploy]]\n"),
    }
    found = [p.message for p in findings(files) if p.code == "MEM021"]
    assert [m.split("; ")[1] for m in found] == ["did you mean [[deploy-notes]]? fix the link or remove it"] * 2 + [
        "fix the link or remove it"
    ]


def test_a_wiki_link_to_a_memory_of_another_store_says_so() -> None:
    # By file stem the link names a note of the repository, as in a note vault; by
    # `name`, only a memory of its own store.
    files = {
        ".claude/agent-memory/api/retry_policy.md": memory("Retry", "Retry policy", "project"),
        ".claude/agent-memory/api/MEMORY.md": "- [Retry](retry_policy.md) — Retry policy\n",
        ".claude/agent-memory/web/ui.md": memory("UI", "UI notes", "project", body="See [[retry]], [[retry_policy]].\n"),
        ".claude/agent-memory/web/MEMORY.md": "- [UI](ui.md) — UI notes\n",
    }
    (p,) = [p for p in findings(files) if p.code == "MEM021"]
    assert (p.path, p.col) == (".claude/agent-memory/web/ui.md", 7)
    assert ".claude/agent-memory/api/retry_policy.md has that name but is in another store" in p.message


def test_a_ticket_cited_by_number_in_brackets_is_no_link() -> None:
    # `Tracked as [[TODO #74]]`: a word, a blank, `#` and a number (an unseen repository's
    # memory was told its link to `TODO` was dead).
    assert lint(_store("Tracked as [[TODO #74]] and [[BUG #3]].\n")) == []
    # A link to a heading has no blank before its `#`; one to a missing note is reported.
    assert [f[1:] for f in lint(_store("See [[Missing Note#74]].\n"))] == [(7, "MEM021")]
    assert [f[1:] for f in lint(_store("See [[Missing Note #setup]].\n"))] == [(7, "MEM021")]


@pytest.mark.parametrize(
    "link",
    [
        "[[gone-notes #2]]",
        "[[notes/roadmap #2]]",
        "[[Roadmap #2|the roadmap]]",
        "![[Roadmap #2]]",
        "[[Roadmap  #2]]",
        "[[Rollback #2]]",
        "[[TODO #٣]]",
    ],
)
def test_a_link_shaped_otherwise_is_still_a_link(link: str) -> None:
    # An outside attack: a folder, an alias, an embed, two blanks or a lower-case name
    # is a link to a note, and a dead one is told.
    assert [f[2] for f in lint(_store(f"See {link}.\n"))] == ["MEM021"]
