"""The language server's session on a real repository, in this process: what an edit
re-checks, that its findings are `memcheck check`'s, and `memcheck server` without
the extra. (The server over stdio: tests/e2e/test_server.py.)"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import check_json, git, memory, write
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import memcheck.agents.readers
import memcheck.server
import memcheck.workspace.skills
from memcheck.cli import main
from memcheck.server import INSTALL
from memcheck.server.edits import apply
from memcheck.server.session import Session
from memcheck.workspace.disk import DiskSource


def _store(root: Path, folder: str, names: str) -> None:
    for name in names:
        write(root, f"{folder}/{name}.md", memory(name.upper(), f"about {name}", "user"))
    write(root, f"{folder}/MEMORY.md", f"- [{names[0].upper()}]({names[0]}.md) - about {names[0]}\n")


def _started(root: Path) -> Session:
    session = Session(root)
    assert session.load_config() is None
    session.check_all()
    return session


def test_the_session_finds_what_check_finds(repo: Path) -> None:
    _store(repo, ".claude/agent-memory/a", "xy")
    write(repo, "CLAUDE.md", "# Guide\n\nSee @missing.md for more.\n")
    session = _started(repo)
    found = sorted(
        (p.path, p.line, p.col, p.code, p.message)
        for path in (".claude/agent-memory/a/MEMORY.md", "CLAUDE.md")
        for p in session.findings(path)
    )
    expected = sorted(
        (p["path"], p["line"], p["col"], p["code"], p["message"])
        for p in check_json(repo)
        if p["path"] in (".claude/agent-memory/a/MEMORY.md", "CLAUDE.md")
    )
    assert found == expected
    assert {code for _, _, _, code, _ in found} >= {"IDX003"}


def test_an_edit_rechecks_its_own_store_only(repo: Path) -> None:
    _store(repo, ".claude/agent-memory/a", "xy")
    _store(repo, ".claude/agent-memory/b", "xy")
    session = _started(repo)
    assert [p.code for p in session.findings(".claude/agent-memory/b/MEMORY.md")] == ["IDX003"]
    # Store b changes on disk, unannounced; an edit in store a must not re-read it.
    write(repo, ".claude/agent-memory/b/MEMORY.md", "- [X](x.md) - x\n- [Y](y.md) - y\n")
    session.open_files[".claude/agent-memory/a/MEMORY.md"] = "- [X](x.md) - x\n- [Y](y.md) - y\n"
    published = session.check_paths([".claude/agent-memory/a/MEMORY.md"])
    assert published.by_path[".claude/agent-memory/a/MEMORY.md"] == []
    assert ".claude/agent-memory/b/MEMORY.md" not in published.by_path
    assert [p.code for p in session.findings(".claude/agent-memory/b/MEMORY.md")] == ["IDX003"]
    # Told of the change, it re-reads store b.
    assert session.check_paths([".claude/agent-memory/b/MEMORY.md"]).by_path[".claude/agent-memory/b/MEMORY.md"] == []


def test_an_edit_to_a_store_s_own_document_is_checked_as_it_is_typed(repo: Path) -> None:
    # SOUL.md, named in capitals with no memory field: no memory, but an agent file.
    _store(repo, ".claude/agent-memory/a", "x")
    write(repo, ".claude/agent-memory/a/SOUL.md", "# Soul\n\nBe kind.\n")
    session = _started(repo)
    assert session.findings(".claude/agent-memory/a/SOUL.md") == []
    session.open_files[".claude/agent-memory/a/SOUL.md"] = (
        "# Soul\n\nBe kind.\nDeploy with ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + "\n"
    )
    published = session.check_paths([".claude/agent-memory/a/SOUL.md"])
    assert [(p.line, p.code) for p in published.by_path[".claude/agent-memory/a/SOUL.md"]] == [(4, "SEC002")]
    assert session.findings(".claude/agent-memory/a/MEMORY.md") == []


def test_a_deleted_memory_makes_a_dead_entry(repo: Path) -> None:
    _store(repo, ".memory", "xy")
    write(repo, ".memory/MEMORY.md", "- [X](x.md) - about x\n- [Y](y.md) - about y\n")
    session = _started(repo)
    assert session.findings(".memory/MEMORY.md") == []
    (repo / ".memory/y.md").unlink()
    session.refresh_listing()
    published = session.check_paths([], deleted=[".memory/y.md"])
    assert [(p.line, p.code) for p in published.by_path[".memory/MEMORY.md"]] == [(2, "IDX002")]
    assert [(p["line"], p["code"]) for p in check_json(repo) if p["path"] == ".memory/MEMORY.md"] == [(2, "IDX002")]


def test_the_rebuilt_index_is_what_fix_writes(repo: Path) -> None:
    _store(repo, ".memory", "xyz")
    session = _started(repo)
    rebuilt = session.rebuilt_index(".memory/MEMORY.md")
    assert rebuilt is not None
    assert main(["fix", str(repo / ".memory")]) in (0, 1)
    assert rebuilt == (repo / ".memory/MEMORY.md").read_text(encoding="utf-8")
    session.refresh_listing()
    assert session.rebuilt_index(".memory/MEMORY.md") is None  # nothing left to write


def test_broken_settings_keep_the_last_good_ones(repo: Path) -> None:
    _store(repo, ".memory", "xy")
    session = _started(repo)
    write(repo, ".memcheck.yaml", "ignore: [IDX\n")
    error = session.load_config()
    assert error is not None and error.startswith(".memcheck.yaml")
    assert [p.code for p in session.findings(".memory/MEMORY.md")] == ["IDX003"]
    write(repo, ".memcheck.yaml", "ignore: [IDX003]\n")
    assert session.load_config() is None
    assert session.check_all().by_path[".memory/MEMORY.md"] == []


def test_paths_outside_the_root_are_none_of_the_sessions(repo: Path, tmp_path: Path) -> None:
    session = Session(repo)
    assert session.relative(repo / ".memory" / "a.md") == ".memory/a.md"
    assert session.relative(tmp_path / "elsewhere.md") is None
    assert session.relative(repo) is None


def test_server_without_the_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # As if pygls were not installed: its import fails.
    # Submodules another test imported would still be found in sys.modules: they go too.
    for name in [n for n in sys.modules if n.startswith("pygls.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pygls", None)
    monkeypatch.delitem(sys.modules, "memcheck.server.lsp", raising=False)
    # `from memcheck.server import lsp` takes the package's attribute before sys.modules.
    monkeypatch.delattr(memcheck.server, "lsp", raising=False)
    assert main(["server"]) == 2
    err = capsys.readouterr().err
    assert err == f"memcheck: error: {INSTALL}\n"
    # memcheck is installed from its clone: the command must work there, and never name
    # a package index project called memcheck, which may be someone else's.
    assert "pip install '.[server]'" in err
    assert "memcheck[server]" not in err


def test_a_memory_typed_but_never_saved_counts_as_the_file_it_will_be(repo: Path) -> None:
    _store(repo, ".memory", "x")
    session = _started(repo)
    assert session.findings(".memory/MEMORY.md") == []
    session.open_files[".memory/draft.md"] = memory("Draft", "not saved yet", "user")
    published = session.check_paths([".memory/draft.md"])
    assert [p.message for p in published.by_path[".memory/MEMORY.md"]] == [
        "memory file draft.md is not listed in MEMORY.md; agents that load only the index never see it (run `memcheck fix`)"
    ]
    rebuilt = session.rebuilt_index(".memory/MEMORY.md")
    assert rebuilt is not None and "(draft.md)" in rebuilt and not (repo / ".memory/draft.md").exists()
    # Closed without saving: it was never there.
    del session.open_files[".memory/draft.md"]
    assert session.check_paths([".memory/draft.md"]).by_path[".memory/MEMORY.md"] == []


@pytest.mark.parametrize("mention", ["@docs/notes.md", "[the notes](docs/notes.md)"])
def test_a_file_the_guidance_names_rechecks_the_guidance(repo: Path, mention: str) -> None:
    write(repo, "AGENTS.md", f"# Guide\n\nRead {mention} first.\n")
    session = _started(repo)
    before = [p.code for p in session.findings("AGENTS.md")]
    assert before  # the file named does not exist
    write(repo, "docs/notes.md", "# Notes\n")
    session.refresh_listing()
    assert session.check_paths(["docs/notes.md"]).by_path["AGENTS.md"] == []
    # A file it does not name leaves the guidance alone.
    write(repo, "docs/other.md", "# Other\n")
    session.refresh_listing()
    assert "AGENTS.md" not in session.check_paths(["docs/other.md"]).by_path


def test_a_renamed_memory_repoints_its_entry_as_fix_does(repo: Path) -> None:
    write(repo, ".memory/deploy_steps.md", memory("Deploy steps", "how we deploy", "project"))
    index = "- [Deploy steps](deploy.md) - how we deploy\n"
    write(repo, ".memory/MEMORY.md", index)
    session = _started(repo)
    [dead] = [p for p in session.findings(".memory/MEMORY.md") if p.code == "IDX002"]
    [repoint] = [a for a in session.actions(".memory/MEMORY.md", dead) if a.preferred]
    assert repoint.title == "Point the entry at deploy_steps.md (was deploy.md)"
    after = apply(index, repoint.edit)
    assert main(["fix", str(repo / ".memory")]) == 0
    assert after == (repo / ".memory/MEMORY.md").read_text(encoding="utf-8") == "- [Deploy steps](deploy_steps.md) - how we deploy\n"


_KIND_FILES = {
    ".claude/agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews code.\nmodel: gpt-4\n---\nReview.\n",
    ".github/agents/helper.agent.md": "---\ndescription: Helps.\ntarget: emacs\n---\nHelp.\n",
    ".github/prompts/plan.prompt.md": "---\ndescription: [unclosed\n---\nPlan.\n",
    ".kiro/steering/style.md": "---\ninclusion: sometimes\n---\nStyle.\n",
    ".clinerules/python.md": "---\npaths: 7\n---\nPython.\n",
    ".claude/skills/loose/notes.txt": "notes\n",
}


def test_the_session_finds_what_check_finds_in_subagents_prompts_steering_and_rules(repo: Path) -> None:
    for path, text in _KIND_FILES.items():
        write(repo, path, text)
    session = _started(repo)
    found = sorted((p.path, p.line, p.code, p.message) for path in _KIND_FILES for p in session.findings(path))
    expected = sorted((p["path"], p["line"], p["code"], p["message"]) for p in check_json(repo) if p["path"] in _KIND_FILES)
    assert {path for path, _, _, _ in expected} == set(_KIND_FILES)  # each file has a finding
    assert found == expected


def test_an_edit_to_a_subagent_rechecks_it_and_keeps_the_others(repo: Path) -> None:
    for path, text in _KIND_FILES.items():
        write(repo, path, text)
    session = _started(repo)
    session.open_files[".claude/agents/reviewer.md"] = "---\nname: reviewer\ndescription: Reviews code.\nmodel: sonnet\n---\nReview.\n"
    published = session.check_paths([".claude/agents/reviewer.md"])
    assert published.by_path[".claude/agents/reviewer.md"] == []
    assert [p.code for p in session.findings(".github/agents/helper.agent.md")] == ["AGT005"]
    session.open_files[".claude/agents/reviewer.md"] = "---\nname: reviewer\n---\nReview.\n"
    assert [p.code for p in session.check_paths([".claude/agents/reviewer.md"]).by_path[".claude/agents/reviewer.md"]] == ["AGT004"]


def test_a_skill_folder_given_its_skill_md_loses_its_finding(repo: Path) -> None:
    write(repo, ".claude/skills/loose/notes.txt", "notes\n")
    session = _started(repo)
    assert [p.code for p in session.findings(".claude/skills/loose/notes.txt")] == ["SKL016"]
    write(repo, ".claude/skills/loose/SKILL.md", "---\nname: loose\ndescription: Loose notes, read when asked.\n---\nNotes.\n")
    session.refresh_listing()
    published = session.check_paths([".claude/skills/loose/SKILL.md"])
    assert published.by_path.get(".claude/skills/loose/notes.txt", []) == []
    assert session.findings(".claude/skills/loose/notes.txt") == []


def test_a_deleted_subagent_loses_its_findings(repo: Path) -> None:
    write(repo, ".claude/agents/reviewer.md", _KIND_FILES[".claude/agents/reviewer.md"])
    session = _started(repo)
    assert [p.code for p in session.findings(".claude/agents/reviewer.md")] == ["AGT005"]
    (repo / ".claude/agents/reviewer.md").unlink()
    session.refresh_listing()
    assert session.check_paths([], deleted=[".claude/agents/reviewer.md"]).by_path[".claude/agents/reviewer.md"] == []


def test_the_subagents_are_checked_together_not_one_run_each(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(30):
        write(repo, f".claude/agents/a{n}.md", f"---\nname: a{n}\ndescription: Agent {n}.\nmodel: gpt-4\n---\nBody.\n")
    session = Session(repo)
    assert session.load_config() is None
    runs: list[int] = []
    real = memcheck.server.session.check_part
    monkeypatch.setattr(
        memcheck.server.session, "check_part", lambda ws, part, *rest: runs.append(len(part.kind_files)) or real(ws, part, *rest)
    )
    session.check_all()
    # A run per file repeats each check's set-up (the tree's agent files found again):
    # its cost grows with the square of the number of subagents.
    assert runs == [30]
    assert [p.code for p in session.findings(".claude/agents/a7.md")] == ["AGT005"]


# ------------------------------------------------------------ memory edits, carried

_STORE_FOLDER = ".claude/agent-memory/m"
# Edits to one memory that change findings about its store as a whole (the index,
# names used twice) as well as its own.
_MEMORY_EDITS = [
    ("a.md", memory("B", "about b", "user")),  # a name another memory has
    ("a.md", "---\nname: A\ndescription: [broken\n---\n\nBody.\n"),  # frontmatter that does not parse
    ("a.md", memory("A", "about a, said otherwise", "user")),  # the index's description now differs
    ("MEMORY.md", "- [A](a.md) - about a\n- [B](b.md) - about b\n- [Gone](gone.md) - nothing\n"),  # a dead entry
    ("b.md", memory("B", "about b", "user", body="Same body.\n")),
    ("c.md", memory("C", "about b", "user", body="Same body.\n")),  # a copy of b under another name
    ("a.md", memory("A", "about a", "user")),
]


@pytest.mark.parametrize("in_editor", [True, False], ids=["typed", "on-disk"])
def test_memory_edits_find_what_check_finds(repo: Path, in_editor: bool) -> None:
    _store(repo, _STORE_FOLDER, "abc")
    session = _started(repo)
    assert _all_findings(session) == _checked(repo)
    for name, text in _MEMORY_EDITS:
        _edit(repo, session, f"{_STORE_FOLDER}/{name}", text, in_editor)
        assert _all_findings(session) == _checked(repo), f"after {name} := {text!r}"


def test_a_memory_edit_reads_only_the_edited_memory_again(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _store(repo, _STORE_FOLDER, "abcd")
    session = _started(repo)
    read: list[str] = []
    real = DiskSource.read
    monkeypatch.setattr(DiskSource, "read", lambda source, path: read.append(path) or real(source, path))
    edited = f"{_STORE_FOLDER}/b.md"
    _edit(repo, session, edited, memory("B", "about b, edited", "user"), in_editor=True)
    read.clear()  # the first edit in a store reads it (check_all let its documents go)
    for i in range(3):  # typed: the editor's text is parsed, and no file of the store read
        _edit(repo, session, edited, memory("B", f"about b, edit {i}", "user"), in_editor=True)
        assert read == []
    # Another memory written on disk (the watcher says so): that one file is read again.
    other = f"{_STORE_FOLDER}/c.md"
    _edit(repo, session, other, memory("B", "about c", "user"), in_editor=False)
    assert read == [other]
    assert _all_findings(session) == _checked(repo)


# ------------------------------------------------------------ guidance edits, carried


_GUIDANCE_TREE = {
    "AGENTS.md": "# Guide\n\nRun the tests before a commit.\n",
    "CLAUDE.md": "# Guide\n\nRun the tests before a commit.\n",
    "pkg/AGENTS.md": "# Package\n\nSee @pkg/notes.md for the layout.\n",
    "pkg/CLAUDE.md": "# Package\n\nSee @pkg/notes.md for the layout.\n",
    "pkg/notes.md": "Notes on the layout.\n",
    "docs/GEMINI.md": "# Docs\n\nWrite short pages.\n",
}
# Edits that change findings about files together, or about other files.
_GUIDANCE_EDITS = [
    ("CLAUDE.md", "# Guide\n\nDeploy from main only.\n"),  # the folder's two files now differ
    ("CLAUDE.md", "# Guide\n\nRun the tests before a commit.\n"),  # the same again
    ("AGENTS.md", ""),  # empty
    ("AGENTS.md", "# Guide\n\n@CLAUDE.md\n"),  # a new @-import
    ("pkg/CLAUDE.md", "# Package\n\nNo import any more.\n"),  # an @-import removed
    ("pkg/notes.md", "Notes.\n\n@pkg/missing.md\n"),  # an imported file imports a missing one
    ("pkg/AGENTS.md", "# Package\n\nSee @pkg/notes.md and @docs/GEMINI.md.\n"),
    ("docs/GEMINI.md", "# Docs\n\nWrite short pages, with links.\n"),  # a file another imports
    ("CLAUDE.local.md", "# Mine\n\nLocal notes.\n"),  # a new file: the listing changes
    ("pkg/AGENTS.md", "# Package\n\nDifferent words, same imports @pkg/notes.md and @docs/GEMINI.md.\n"),
]


def _all_findings(session: Session) -> list[tuple[str, int, int, str, str]]:
    return sorted({(p.path, p.line, p.col, p.code, p.message) for found in session._parts.values() for p in found})


def _checked(repo: Path) -> list[tuple[str, int, int, str, str]]:
    return sorted({(p["path"], p["line"], p["col"], p["code"], p["message"]) for p in check_json(repo)})


def _edit(repo: Path, session: Session, path: str, text: str, in_editor: bool) -> None:
    """The edit as the server hears of it: typed in the editor (then saved, as the
    check reads the disk), or written on disk by another program."""
    new = not (repo / path).exists()
    write(repo, path, text)
    if in_editor or path in session.open_files:  # an editor shows a file written under it
        session.open_files[path] = text
    if new:
        session.refresh_listing()
    session.check_paths([path])


@pytest.mark.parametrize("in_editor", [True, False], ids=["typed", "on-disk"])
def test_guidance_edits_find_what_check_finds(repo: Path, in_editor: bool) -> None:
    for path, text in _GUIDANCE_TREE.items():
        write(repo, path, text)
    session = _started(repo)
    assert _all_findings(session) == _checked(repo)
    for path, text in _GUIDANCE_EDITS:
        _edit(repo, session, path, text, in_editor)
        assert _all_findings(session) == _checked(repo), f"after {path} := {text!r}"


def test_a_guidance_edit_keeping_the_imports_checks_only_what_it_can_change(repo: Path) -> None:
    for path, text in _GUIDANCE_TREE.items():
        write(repo, path, text)
    write(repo, "README.md", "# Readme\n\nHello.\n")
    session = _started(repo)
    everything = {"AGENTS.md", "CLAUDE.md", "pkg/AGENTS.md", "pkg/CLAUDE.md", "docs/GEMINI.md"}
    assert session._guidance_memo is not None and session._guidance_memo.checked == everything
    _edit(repo, session, "pkg/AGENTS.md", "# Package\n\nOther words, the same @pkg/notes.md.\n", in_editor=True)
    assert session._guidance_memo is not None and session._guidance_memo.checked == {"pkg/AGENTS.md"}
    # A new import: the model is made again, and the file imported, now read through
    # it, is checked again too.
    _edit(repo, session, "CLAUDE.md", "# Guide\n\n@docs/GEMINI.md\n", in_editor=True)
    assert session._guidance_memo is not None and session._guidance_memo.checked == {"CLAUDE.md", "docs/GEMINI.md"}
    assert _all_findings(session) == _checked(repo)
    # A file imported by another: both are checked again, and only they.
    _edit(repo, session, "docs/GEMINI.md", "# Docs\n\nWrite shorter pages.\n", in_editor=True)
    assert session._guidance_memo is not None and session._guidance_memo.checked == {"docs/GEMINI.md", "CLAUDE.md"}
    # A memory or README edited between: not imported, so nothing more to check.
    _edit(repo, session, "README.md", "# Readme\n", in_editor=True)
    _edit(repo, session, "AGENTS.md", "# Guide\n\nRun the tests.\n", in_editor=True)
    assert session._guidance_memo is not None and session._guidance_memo.checked == {"AGENTS.md"}
    assert _all_findings(session) == _checked(repo)


_SKILL = "---\nname: {name}\ndescription: Ship a release of the package when asked to.\n---\n\nSteps.\n"
# Edits to skills and to the guidance that names them, each changing what a guidance
# file's findings say of the skills (who can see them, names colliding by case).
_SKILL_EDITS = [
    (".agents/skills/release/SKILL.md", _SKILL.format(name="deploy")),  # renamed: the guidance names no skill now
    ("CLAUDE.md", "# Guide\n\nUse the `deploy` skill to ship.\n"),
    (".agents/skills/release/SKILL.md", _SKILL.format(name="release")),
    ("CLAUDE.md", "# Guide\n\nUse the `release` skill to ship, and the skills in .agents/skills/release.\n"),
    (".claude/skills/release/SKILL.md", _SKILL.format(name="release")),  # now Claude Code sees it too
    ("CLAUDE.md", "# Guide\n\nUse the `release` skill to ship.\n"),
    (".claude/skills/Release/SKILL.md", _SKILL.format(name="release")),  # collides by case with another
    ("AGENTS.md", "# Guide\n\nUse the `release` skill.\n"),
]


@pytest.mark.parametrize("in_editor", [True, False], ids=["typed", "on-disk"])
def test_skill_and_guidance_edits_find_what_check_finds(repo: Path, in_editor: bool) -> None:
    write(repo, "CLAUDE.md", "# Guide\n\nUse the `release` skill to ship.\n")
    write(repo, "AGENTS.md", "# Guide\n\nShip with care.\n")
    write(repo, ".agents/skills/release/SKILL.md", _SKILL.format(name="release"))
    session = _started(repo)
    assert any(code == "GDN021" for _, _, _, code, _ in _all_findings(session))
    assert _all_findings(session) == _checked(repo)
    for path, text in _SKILL_EDITS:
        _edit(repo, session, path, text, in_editor)
        assert _all_findings(session) == _checked(repo), f"after {path} := {text!r}"


_RULE = ".claude/rules/testing.md"
_RULE_EDITS = [
    (_RULE, "---\npaths: src/**/*.py\n---\n\nRun the tests.\n"),  # a glob no file matches
    (_RULE, '---\npaths: ["src/**/*.py", "["]\n---\n\nRun the tests.\n'),  # a glob that is no glob
    (_RULE, "---\npaths: lib/*.py\n---\n\nRun the tests.\n"),  # one that matches
    (_RULE, "---\npaths: lib/*.py\n\nRun the tests.\n"),  # the frontmatter never closed
    (_RULE, "---\npaths: lib/*.py\n---\n\nRun the tests; see @CLAUDE.md.\n"),  # an @-import
    ("CLAUDE.md", "# Guide\n\nSee @.claude/rules/testing.md.\n"),  # imports the rule
    (_RULE, "---\npaths: lib/*.py\n---\n\n\n"),  # an imported file emptied
    ("CLAUDE.md", "# Guide\n\nNo imports.\n"),
]


@pytest.mark.parametrize("in_editor", [True, False], ids=["typed", "on-disk"])
def test_rule_edits_find_what_check_finds(repo: Path, in_editor: bool) -> None:
    write(repo, "CLAUDE.md", "# Guide\n\nRun the tests.\n")
    write(repo, "lib/code.py", "x = 1\n")
    write(repo, _RULE, "---\npaths: lib/*.py\n---\n\nRun the tests.\n")
    session = _started(repo)
    assert _all_findings(session) == _checked(repo)
    for path, text in _RULE_EDITS:
        _edit(repo, session, path, text, in_editor)
        assert _all_findings(session) == _checked(repo), f"after {path} := {text!r}"


def test_a_guidance_edit_finds_the_skills_once_per_change_to_them(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "CLAUDE.md", "# Guide\n\nUse the `release` skill to ship.\n")
    write(repo, ".agents/skills/release/SKILL.md", _SKILL.format(name="release"))
    session = _started(repo)
    found: list[int] = []
    real = memcheck.workspace.skills.find_skills
    monkeypatch.setattr(memcheck.workspace.skills, "find_skills", lambda ws: found.append(1) or real(ws))
    _edit(repo, session, "CLAUDE.md", "# Guide\n\nUse the `release` skill, always.\n", in_editor=True)
    assert found == []  # no skill changed: the skills found before stand
    _edit(repo, session, ".agents/skills/release/SKILL.md", _SKILL.format(name="ship"), in_editor=True)
    assert found == [1]
    _edit(repo, session, "CLAUDE.md", "# Guide\n\nUse the `ship` skill.\n", in_editor=True)
    assert found == [1]
    assert _all_findings(session) == _checked(repo)


def test_a_guidance_file_grown_past_an_agents_limit_is_read_again(repo: Path) -> None:
    # Over 1 MiB both times, but only the second time over Claude Code's 4 MiB.
    write(repo, "CLAUDE.md", "# Guide\n\n" + "Run the tests.\n" * 150_000)
    write(repo, "AGENTS.md", "# Guide\n\nRun the tests.\n")
    session = _started(repo)
    assert _all_findings(session) == _checked(repo)
    _edit(repo, session, "CLAUDE.md", "# Guide\n\n" + "Run the tests.\n" * 350_000, in_editor=True)
    assert any("Claude Code skips it too" in message for _, _, _, _, message in _all_findings(session))
    assert _all_findings(session) == _checked(repo)


def test_an_import_edit_walks_the_imports_again_and_judges_no_file_again(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for path, text in _GUIDANCE_TREE.items():
        write(repo, path, text)
    session = _started(repo)
    made: list[int] = []
    real = memcheck.agents.readers.Reading.__init__
    monkeypatch.setattr(memcheck.agents.readers.Reading, "__init__", lambda model, ws: made.append(1) or real(model, ws))
    _edit(repo, session, "AGENTS.md", "# Guide\n\n@docs/GEMINI.md\n", in_editor=True)
    _edit(repo, session, "AGENTS.md", "# Guide\n\nNo import.\n", in_editor=True)
    assert made == []  # who reads each file directly is the same: only the imports are walked
    assert _all_findings(session) == _checked(repo)


def test_deleting_every_guidance_file_clears_their_findings(repo: Path) -> None:
    for path, text in _GUIDANCE_TREE.items():
        write(repo, path, text)
    session = _started(repo)
    assert any(p.path == "pkg/CLAUDE.md" for p in session.findings("pkg/CLAUDE.md"))
    for path in ["CLAUDE.md", "pkg/AGENTS.md", "AGENTS.md", "docs/GEMINI.md", "pkg/CLAUDE.md"]:
        (repo / path).unlink()
        session.refresh_listing()
        session.check_paths([], deleted=[path])
        assert _all_findings(session) == _checked(repo), f"after deleting {path}"
    assert session.findings("pkg/CLAUDE.md") == []


# Texts drawn for the files above: each can add or drop an @-import (one leading to a
# file that is missing, or to another guidance file), make a folder's files differ or
# agree, empty a file, or silence findings another file's edit brings.
_TEXTS = [
    "",
    "# Guide\n\nRun the tests before a commit.\n",
    "# Guide\n\nDeploy from main only.\n",
    "# Guide\n\nSee @pkg/notes.md.\n",
    "# Guide\n\nSee @CLAUDE.md and @docs/GEMINI.md.\n",
    "# Guide\n\nSee @AGENTS.md.\n",
    "# Guide\n\nSee @pkg/missing.md.\n",
    "# Guide\n\nSee [the notes](pkg/notes.md) and [nothing](gone.md).\n",
    "<!-- memcheck-disable-file GDN015 GDN009 -->\n# Guide\n\nDeploy on Fridays.\n",  # what changes elsewhere, silenced here
]
_PATHS = [*_GUIDANCE_TREE, "CLAUDE.local.md", "README.md"]


class GuidanceEdits(RuleBasedStateMachine):
    """Guidance files edited, typed, saved, created and deleted in any order: after
    each change the session reports what a fresh `memcheck check` of the tree does."""

    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp()) / "repo"
        self.root.mkdir()
        git(self.root, "-c", "init.defaultBranch=main", "init", "-q")
        for path, text in _GUIDANCE_TREE.items():
            write(self.root, path, text)
        self.session = _started(self.root)

    def teardown(self) -> None:
        shutil.rmtree(self.root.parent)

    @rule(path=st.sampled_from(_PATHS), text=st.sampled_from(_TEXTS), in_editor=st.booleans())
    def edit(self, path: str, text: str, in_editor: bool) -> None:
        _edit(self.root, self.session, path, text, in_editor)

    @rule(path=st.sampled_from(_PATHS))
    def close(self, path: str) -> None:
        if self.session.open_files.pop(path, None) is not None:
            self.session.check_paths([path])

    @rule(path=st.sampled_from(_PATHS))
    def delete(self, path: str) -> None:
        if (self.root / path).exists():
            (self.root / path).unlink()
            self.session.open_files.pop(path, None)
            self.session.refresh_listing()
            self.session.check_paths([], deleted=[path])

    @invariant()
    def finds_what_check_finds(self) -> None:
        assert _all_findings(self.session) == _checked(self.root)


GuidanceEdits.TestCase.settings = settings(max_examples=15, stateful_step_count=8, deadline=None)
# 15 sequences of 8 edits, each step judged against a whole `memcheck check`: three
# seconds of CPU, in the full suite (the tests above try each kind of edit once).
test_guidance_edits_in_any_order = pytest.mark.slow(GuidanceEdits.TestCase)


def test_a_subagent_edit_rejudges_the_templates_of_its_folder(repo: Path) -> None:
    # A template without frontmatter is no agent while the folder above has agents
    # (AGT002): when the last agent loses its frontmatter, the template is one.
    agent = "---\nname: reviewer\ndescription: Reviews code.\n---\nReview.\n"
    write(repo, ".claude/agents/reviewer.md", agent)
    write(repo, ".claude/agents/templates/report.md", "# Report for {repo}\n")
    session = _started(repo)
    assert session.findings(".claude/agents/templates/report.md") == []
    _edit(repo, session, ".claude/agents/reviewer.md", "# Reviewer\n\nReview.\n", True)
    assert [p.code for p in session.findings(".claude/agents/templates/report.md")] == ["AGT002"]
    assert _all_findings(session) == _checked(repo)
    _edit(repo, session, ".claude/agents/reviewer.md", agent, True)
    assert session.findings(".claude/agents/templates/report.md") == []


def test_a_rule_edit_that_makes_a_key_the_teams_convention_rejudges_the_other_rules(repo: Path) -> None:
    # version: in three Cursor rules is the team's (GDN026); in two, reported.
    for n in range(3):
        write(repo, f".cursor/rules/r{n}.mdc", "---\ndescription: x\n" + ("version: 1\n" if n < 2 else "") + "---\nRules.\n")
    session = _started(repo)
    assert [p.code for p in session.findings(".cursor/rules/r0.mdc")] == ["GDN026"]
    _edit(repo, session, ".cursor/rules/r2.mdc", "---\ndescription: x\nversion: 1\n---\nRules.\n", True)
    assert session.findings(".cursor/rules/r0.mdc") == []
    assert _all_findings(session) == _checked(repo)
