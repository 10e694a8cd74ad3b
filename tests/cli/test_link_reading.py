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
from typing import Any

import pytest
from conftest import check_json, fix_json, git, index_findings, memory, unlisted, write

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


def _codes(root: Path, code: str, *args: str) -> list[tuple[str, int]]:
    return sorted((p["path"], p["line"]) for p in check_json(root, *args) if p["code"] == code)


# ---------------------------------------------------------------- IDX003: a code span lists a memory


def _store_with_a_checklist(repo: Path, line: str) -> str:
    write(repo, f"{STORE}/deploy.md", memory("Deploy", "how we deploy", "project"))
    write(repo, f"{STORE}/release-checklist.md", memory("Release checklist", "steps before a release", "project"))
    text = f"# Team memory\n\n- [Deploy](deploy.md) \u2014 how we deploy\n{line}\n"
    write(repo, INDEX, text)
    return text


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("- `release-checklist.md` \u2014 steps before a release", id="list-item"),
        pytest.param("- Before tagging, read `release-checklist.md`.", id="mid-sentence"),
        pytest.param("| `release-checklist.md` | steps before a release |", id="table-row"),
        pytest.param("- `./release-checklist.md` \u2014 steps", id="dot-slash"),
        pytest.param("- `` release-checklist.md `` \u2014 steps", id="double-backticks"),
        pytest.param("- [Also](deploy.md) see `release-checklist.md`", id="beside-a-link"),
        pytest.param("Read `release-checklist.md` before a release.", id="paragraph"),
    ],
)
def test_a_code_span_holding_the_file_name_lists_the_memory(repo: Path, line: str) -> None:
    text = _store_with_a_checklist(repo, line)
    assert unlisted(repo, INDEX) == set()
    # fix (sync mode: the index is curated) adds no second entry for it
    code, report = fix_json(repo)
    assert report["fixed"] == [] and (repo / INDEX).read_text() == text


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("- `release-checklist` \u2014 only the stem", id="stem-only"),
        pytest.param("- run `release-checklist.md --dry-run` first", id="more-than-the-name"),
        pytest.param("- `docs/release-checklist.md` is the public one", id="another-folder"),
        pytest.param("## `release-checklist.md`", id="heading"),
        pytest.param("```\nrelease-checklist.md\n```", id="fenced-code"),
        pytest.param("<!-- `release-checklist.md` -->", id="comment"),
    ],
)
def test_a_code_span_that_is_not_exactly_the_file_lists_nothing(repo: Path, line: str) -> None:
    _store_with_a_checklist(repo, line)
    assert unlisted(repo, INDEX) == {"release-checklist.md"}
    code, report = fix_json(repo)
    assert report["changes"][INDEX]["added"] == ["release-checklist.md"]
    assert (repo / INDEX).read_text().count("(release-checklist.md)") == 1


def test_a_code_span_in_a_subfolder_store_names_the_path_from_the_index(repo: Path) -> None:
    # `..` out of the store and back in is the store's own file.
    write(repo, f"{STORE}/a.md", memory("A", "a", "project"))
    write(repo, f"{STORE}/b.md", memory("B", "b", "project"))
    write(repo, INDEX, "- [A](a.md) \u2014 a\n- `../memory/b.md` \u2014 b\n")
    assert unlisted(repo, INDEX) == set()


def test_fix_keeps_a_dead_entry_whose_item_lists_a_memory_in_a_code_span(repo: Path) -> None:
    # Removing the item would unlist the memory its second line names: the next fix
    # would add it back, and fix would never settle.
    write(repo, f"{STORE}/a.md", memory("A", "a", "project"))
    write(repo, f"{STORE}/b.md", memory("B", "b", "project"))
    text = "- [A](a.md) \u2014 a\n- [Gone](gone.md) \u2014 deleted\n  superseded by `b.md`\n"
    write(repo, INDEX, text)
    (dead,) = index_findings(repo, INDEX, "IDX002")
    assert not dead["fixable"]
    code, report = fix_json(repo)
    assert (repo / INDEX).read_text() == text
    code, report = fix_json(repo)
    assert report["fixed"] == []


# ---------------------------------------------------------------- MEM021 and friends: what a definition is


def _memory_with(repo: Path, body: str) -> None:
    write(repo, f"{STORE}/notes.md", memory("Notes", "queue notes", "project", body=body))
    write(repo, INDEX, "- [Notes](notes.md) \u2014 queue notes\n")


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            "The worker retries with a growing delay\n[retry \u2192 backoff]: when the queue is full it waits.\n",
            id="continuation-of-a-paragraph",
        ),
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
        pytest.param(
            ".claude/skills/retry/SKILL.md",
            "SKL012",
            "---\nname: retry\ndescription: Retry things\n---\n\nRetry with a growing delay\n[backoff]: gone.md\n",
            id="skill",
        ),
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


# ---------------------------------------------------------------- MEM021: [[wiki]] links into a note vault


def _note_vault(repo: Path, body: str) -> None:
    write(repo, "notes/Deploy Runbook.md", "# Deploy runbook\n")
    write(repo, "notes/adr/0001-queue.md", "# Queue\n")
    write(repo, "docs/adr/0002-cache.md", "# Cache\n")
    write(repo, "assets/diagram.png", "png")
    write(repo, f"{STORE}/links.md", memory("Links", "links into the notes", "reference", body=body))
    write(repo, INDEX, "- [Links](links.md) \u2014 links into the notes\n")


@pytest.mark.parametrize(
    "link",
    [
        pytest.param("[[Deploy Runbook]]", id="stem"),
        pytest.param("[[deploy runbook]]", id="stem-in-another-case"),
        pytest.param("[[Deploy Runbook|the runbook]]", id="alias"),
        pytest.param("[[Deploy Runbook#Rollback]]", id="heading"),
        pytest.param("[[Deploy Runbook#Rollback|rolling back]]", id="heading-and-alias"),
        pytest.param("[[0001-queue]]", id="nested-stem"),
        pytest.param("[[adr/0001-queue]]", id="folder-and-stem"),
        pytest.param("[[notes/adr/0001-queue]]", id="path-from-the-root"),
        pytest.param("[[Docs/ADR/0002-cache.md]]", id="path-with-extension-in-another-case"),
        pytest.param("![[diagram.png]]", id="embedded-attachment"),
        pytest.param("[[../../notes/Deploy Runbook]]", id="relative-to-the-memory"),
    ],
)
def test_a_wiki_link_into_the_note_vault_resolves(repo: Path, link: str) -> None:
    _note_vault(repo, f"See {link}.\n")
    assert _codes(repo, "MEM021") == []


@pytest.mark.parametrize(
    "link",
    [
        pytest.param("[[Deploy Runbok]]", id="misspelt-stem"),
        pytest.param("[[docs/0001-queue]]", id="wrong-folder"),
        pytest.param("[[queue]]", id="part-of-a-stem"),
        pytest.param("[[diagram]]", id="attachment-without-its-extension"),
    ],
)
def test_a_wiki_link_to_no_note_is_still_reported(repo: Path, link: str) -> None:
    _note_vault(repo, f"See {link}.\n")
    assert _codes(repo, "MEM021") == [(f"{STORE}/links.md", 7)]


def test_a_hook_run_on_the_memory_alone_resolves_into_the_whole_vault(repo: Path) -> None:
    # pre-commit passes only the changed memory: its folder is all that is listed,
    # and the notes elsewhere must still count.
    _note_vault(repo, "See [[Deploy Runbook]] and [[gone note]].\n")
    git(repo, "add", "-A")
    for args in ((f"{STORE}/links.md",), ("--changed",)):
        found = [(p["path"], p["line"], p["col"]) for p in check_json(repo, *args) if p["code"] == "MEM021"]
        assert found == [(f"{STORE}/links.md", 7, 30)], args


_VAULT_LISTINGS: list[object] = []


def _counted_vault(ws: Any) -> Any:
    _VAULT_LISTINGS.append(ws)
    return _REAL_VAULT(ws)


def test_the_vault_is_listed_once_per_run(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    global _REAL_VAULT
    from memcheck.agents import links as link_reading

    _REAL_VAULT = link_reading._vault
    monkeypatch.setattr(link_reading, "_vault", _counted_vault)
    _VAULT_LISTINGS.clear()
    for n in range(3):
        write(repo, f".claude/agent-memory/a{n}/m.md", memory(f"M{n}", "m", "project", body="[[Deploy Runbook]] [[x1]] [[x2]] [[x3]]\n"))
        write(repo, f".claude/agent-memory/a{n}/MEMORY.md", f"- [M{n}](m.md) \u2014 m\n")
    write(repo, "notes/Deploy Runbook.md", "# Deploy runbook\n")
    assert len(_codes(repo, "MEM021")) == 9
    assert len(_VAULT_LISTINGS) == 1


def test_the_vault_holds_only_the_parts_of_each_path_links_ask_for() -> None:
    # Every ending of a path 1,500 folders deep, as strings, would be a million
    # characters; one entry per folder, for 1,300 such paths, 200 MB. The vault keeps
    # as many parts of each path as links have asked for (twice that when it grows).
    from memcheck import config
    from memcheck.agents import links as link_reading
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.memory import MemorySource

    deep = "/".join(f"d{n}" for n in range(1500))
    files = {f"{deep}/Note.md": b"# Note\n", "notes/Note.md": b"# Note\n", "assets/x.PNG": b"png"}
    ws = Workspace(config.from_mapping(Path("/nonexistent/memcheck-in-memory"), config.defaults()), MemorySource(files))
    assert link_reading.names_a_note(ws, "note", "") and link_reading.names_a_note(ws, "x.png", "")
    vault = ws.once(link_reading._vault)
    assert len(vault._endings) == 1  # note.md
    assert link_reading.names_a_note(ws, "d1498/D1499/note", "")
    assert not link_reading.names_a_note(ws, "d1497/d1499/note", "")
    assert len(vault._endings) == 1 + 2 + 1  # note.md; d1499 and d1498 before it; notes
    assert link_reading.names_a_note(ws, f"{deep}/note.md", "")
    assert len(vault._endings) == 1 + 1500 + 1
