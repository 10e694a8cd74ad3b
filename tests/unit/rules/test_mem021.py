"""MEM021 broken-link: a memory's Markdown or [[wiki]] link that points at nothing."""

from __future__ import annotations

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
