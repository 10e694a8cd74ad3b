"""Links read as agents and CommonMark read them, through the real CLI: a memory
named in a code span of its index is listed; a `[text]: more` line inside a
paragraph, or one CommonMark would not take as a link reference definition, is text;
and `[[wiki]]` links resolve into the repository's notes as in a note vault.

Each case is a minimal reproduction of a false finding a team kept seeing: IDX003 on
memories a curated index names in code spans, MEM021 on a continuation line that
looks like a definition, MEM021 on `[[wiki]]` links into an Obsidian-style vault.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import check_json, fix_json, index_findings, memory, write

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


def _codes(root: Path, code: str, *args: str) -> list[tuple[str, int]]:
    return sorted((p["path"], p["line"]) for p in check_json(root, *args) if p["code"] == code)


# ---------------------------------------------------------------- MEM021 and friends: what a definition is


def _memory_with(repo: Path, body: str) -> None:
    write(repo, f"{STORE}/notes.md", memory("Notes", "queue notes", "project", body=body))
    write(repo, INDEX, "- [Notes](notes.md) \u2014 queue notes\n")


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("The worker retries with a growing delay\n[retry \u2192 backoff]: when the queue is full it waits.\n", id="continuation-of-a-paragraph"),
        pytest.param("The worker retries with a growing delay\n[backoff]: gone.md\n", id="valid-definition-inside-a-paragraph"),
        pytest.param("- the worker retries\n[backoff]: gone.md\n", id="lazy-line-of-a-list-item"),
        pytest.param("> the worker retries\n[backoff]: gone.md\n", id="lazy-line-of-a-quote"),
        pytest.param("Intro.\n\n[retry \u2192 backoff]: when the queue is full it waits.\n", id="text-after-the-destination"),
        pytest.param('Intro.\n\n[backoff]: gone.md "Backoff" and more\n', id="text-after-the-title"),
        pytest.param("Intro.\n\n[retry [and] backoff]: gone.md\n", id="unescaped-brackets-in-the-label"),
        pytest.param("Intro.\n\n[backoff]: <gone.md\n", id="unclosed-angle-destination"),
        pytest.param("Intro.\n\n[backoff]: gone(.md\n", id="unbalanced-parenthesis"),
        pytest.param("Intro.\n\n[ ]: gone.md\n", id="blank-label"),
    ],
)
def test_a_line_commonmark_reads_as_text_is_no_link(repo: Path, body: str) -> None:
    _memory_with(repo, body)
    assert _codes(repo, "MEM021") == []


@pytest.mark.parametrize(
    ("body", "line"),
    [
        pytest.param("Intro.\n\n[backoff]: gone.md\n", 9, id="after-a-blank-line"),
        pytest.param("# Retry\n[backoff]: gone.md\n", 8, id="after-a-heading"),
        pytest.param('[backoff]: <gone.md> "Backoff"\n', 7, id="first-line-with-a-title"),
        pytest.param("[a]: a-is-fine.md\n[backoff]: gone.md\n", 8, id="after-another-definition"),
        pytest.param("```\ncode\n```\n[backoff]: gone.md\n", 10, id="after-a-fence"),
        pytest.param("Intro.\n\n[retry \\[and\\] backoff]: gone.md\n", 9, id="escaped-brackets-in-the-label"),
        pytest.param("Intro.\n\n[backoff]: gone(1).md\n", 9, id="balanced-parentheses"),
        pytest.param("Intro.\n\n  [backoff]: gone.md  \n", 9, id="indented-and-trailing-spaces"),
    ],
)
def test_a_real_definition_to_a_missing_file_is_still_reported(repo: Path, body: str, line: int) -> None:
    _memory_with(repo, body)
    write(repo, f"{STORE}/a-is-fine.md", "x\n")
    assert _codes(repo, "MEM021") == [(f"{STORE}/notes.md", line)]


@pytest.mark.parametrize(
    ("path", "code", "text"),
    [
        pytest.param("AGENTS.md", "GDN013", "# Rules\n\nRetry with a growing delay\n[backoff]: gone.md\n", id="guidance"),
        pytest.param(".claude/skills/retry/SKILL.md", "SKL012", "---\nname: retry\ndescription: Retry things\n---\n\nRetry with a growing delay\n[backoff]: gone.md\n", id="skill"),
    ],
)
def test_guidance_and_skills_read_definitions_as_commonmark_does(repo: Path, path: str, code: str, text: str) -> None:
    write(repo, path, text)
    assert _codes(repo, code) == []
    # the same definition after a blank line is one, and its target is missing
    write(repo, path, text.replace("delay\n[", "delay\n\n["))
    assert _codes(repo, code) == [(path, text.count("\n") + 1)]


def test_an_index_definition_inside_a_list_item_is_text(repo: Path) -> None:
    # `[1]: gone.md` continues the item's paragraph: no definition, so no dead link
    # for check to report and none for fix to remove.
    write(repo, f"{STORE}/a.md", memory("A", "a", "project"))
    text = "- [A](a.md) \u2014 a\n- [Old][1] \u2014 an old note\n[1]: gone.md\n"
    write(repo, INDEX, text)
    assert index_findings(repo, INDEX) == []
    code, report = fix_json(repo)
    assert report["fixed"] == [] and (repo / INDEX).read_text() == text
    # After a blank line it is a definition: the reference is dead, and fix removes both.
    write(repo, INDEX, text.replace("\n[1]", "\n\n[1]"))
    (dead,) = index_findings(repo, INDEX, "IDX002")
    assert dead["line"] == 4 and dead["fixable"]
