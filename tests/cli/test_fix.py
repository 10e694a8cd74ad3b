"""`memcheck fix`: atomic, idempotent, mode-keeping, and never touching memory files."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import git, memory, run_cli, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memcheck import config as config_mod
from memcheck.hooks import fix as fixer


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}


def test_fix_keeps_mode_and_writes_nothing_when_already_right(repo: Path) -> None:
    write(repo, ".memcheck.yaml", "index:\n  mode: generate\n")  # the stale entry is replaced, not kept as a hook
    write(repo, ".memory/a.md", memory("A", "a", "user"))
    index = write(repo, ".memory/MEMORY.md", "# Memory\n\n## User\n- [A](a.md) - old\n")
    os.chmod(index, 0o640)
    assert run_cli(repo, "fix").returncode == 0
    assert stat.S_IMODE(index.stat().st_mode) == 0o640
    assert index.read_text() == "# Memory\n\n## User\n- [A](a.md) - a\n"
    before = index.stat()
    proc = run_cli(repo, "fix")
    after = index.stat()
    assert proc.stdout == "No problems found in 1 store (1 memory).\n"
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns)  # not even rewritten
    assert [p.name for p in (repo / ".memory").iterdir() if p.name.endswith(".tmp")] == []


def test_fix_normalises_bom_and_crlf_in_the_index_but_never_edits_memory_files(repo: Path) -> None:
    crlf_memory = b"---\r\nname: A\r\ndescription: a\r\ntype: user\r\n---\r\n\r\nBody\r\n"
    write(repo, ".memory/a.md", crlf_memory)
    write(repo, ".memory/MEMORY.md", b"\xef\xbb\xbf# Memory\r\n\r\n## User\r\n- [A](a.md) - a\r\n")
    proc = run_cli(repo, "fix")
    assert (repo / ".memory/MEMORY.md").read_bytes() == b"# Memory\n\n## User\n- [A](a.md) - a\n"
    assert (repo / ".memory/a.md").read_bytes() == crlf_memory
    assert "MEM018" in proc.stdout  # reported, left for the user


def test_fix_creates_a_missing_index_in_a_store_named_by_config(repo: Path) -> None:
    write(repo, "team/mem/a.md", memory("A", "a", "feedback"))
    write(repo, ".memcheck.yaml", "memory:\n  stores: [team/mem]\nindex:\n  style: flat-emdash\n")
    assert run_cli(repo, "fix").returncode == 0
    assert (repo / "team/mem/MEMORY.md").read_text() == "- [A](a.md) \u2014 a\n"


def test_failed_write_leaves_the_old_index_and_no_temporary_file(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, ".memory/a.md", memory("A", "a", "user"))
    index = write(repo, ".memory/MEMORY.md", "old\n")

    def explode(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(fixer.os, "replace", explode)
    with pytest.raises(OSError):
        fixer.atomic_write(index, b"new\n")
    assert index.read_text() == "old\n"
    assert sorted(p.name for p in (repo / ".memory").iterdir()) == ["MEMORY.md", "a.md"]


def test_fix_refuses_an_index_whose_folder_leads_outside_the_repository(repo: Path, tmp_path: Path) -> None:
    with pytest.raises(fixer.UnsafeWrite):
        fixer.safe_target(repo, "../escape/MEMORY.md")


_slug = st.text(alphabet="abcdefghij0123456789_-", min_size=1, max_size=8).filter(lambda s: s[0].isalnum())
_entry_line = st.one_of(
    st.just("# Notes"),
    st.just("free text"),
    st.just(""),
    _slug.map(lambda s: f"- [{s}]({s}.md) \u2014 hook"),
    _slug.map(lambda s: f"- [{s}]({s}.md) - hook"),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    files=st.lists(
        st.tuples(_slug, st.sampled_from(["user", "feedback", "project", "reference", "other"])), max_size=8, unique_by=lambda t: t[0]
    ),
    index_lines=st.one_of(st.none(), st.lists(_entry_line, max_size=10)),
    mode=st.sampled_from([None, "generate", "sync"]),
)
@pytest.mark.slow  # a property test: seconds of examples
def test_fix_twice_equals_fix_once(files: list[tuple[str, str]], index_lines: list[str] | None, mode: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        git(root, "-c", "init.defaultBranch=main", "init", "-q")
        for stem, kind in files:
            write(root, f".memory/{stem}.md", memory(stem.upper(), f"about {stem}", kind))
        write(root, ".memory/keep.md", memory("Keep", "always here", "user"))
        if index_lines is not None:
            write(root, ".memory/MEMORY.md", "\n".join(index_lines))
        data = config_mod.defaults()
        data["index"]["mode"] = mode
        cfg = config_mod.from_mapping(root, data)
        memory_files = {k: v for k, v in _snapshot(root).items() if not k.endswith("MEMORY.md")}
        fixer.fix(cfg, None, fmt="json")
        once = _snapshot(root)
        fixer.fix(cfg, None, fmt="json")
        assert _snapshot(root) == once
        assert {k: v for k, v in once.items() if not k.endswith("MEMORY.md")} == memory_files


def _store_with_a_hand_written_entry_for_an_untracked_memory(repo: Path) -> None:
    write(repo, ".claude/memory/project_a.md", memory("a", "About a", "project"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n## Project\n- [a](project_a.md) - About a\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    write(repo, ".claude/memory/project_b.md", memory("b", "About b", "project"))
    write(
        repo,
        ".claude/memory/MEMORY.md",
        "# Memory\n\n## Project\n- [a](project_a.md) - About a\n- [b](project_b.md) - Curated by hand: b matters\n",
    )
    git(repo, "add", "-u")  # what `git commit -a` stages: MEMORY.md, never the new memory


def test_the_commit_hook_keeps_an_entry_whose_memory_is_on_disk_but_not_staged(repo: Path) -> None:
    _store_with_a_hand_written_entry_for_an_untracked_memory(repo)
    result = run_cli(repo, "fix", "--changed", "--exit-non-zero-on-fix")
    index = (repo / ".claude/memory/MEMORY.md").read_text(encoding="utf-8")
    assert "- [b](project_b.md) - Curated by hand: b matters\n" in index
    assert "which the commit does not hold; the file is on disk but not staged" in result.stdout
    assert "`git add` the file" in result.stdout
    assert result.returncode == 1  # the commit would hold a dead entry: the hook stops it


def test_fix_of_the_work_tree_adds_the_untracked_memory_it_sees(repo: Path) -> None:
    # Judging the work tree, the memory is there: its entry is an entry like any other.
    _store_with_a_hand_written_entry_for_an_untracked_memory(repo)
    run_cli(repo, "fix")
    assert "- [b](project_b.md) - Curated by hand: b matters\n" in (repo / ".claude/memory/MEMORY.md").read_text(encoding="utf-8")


def test_fix_never_removes_a_tracked_file_named_like_its_temporary_file(repo: Path) -> None:
    name = ".claude/memory/.MEMORY.md.memcheck-999999-abcd1234.tmp"
    write(repo, ".claude/memory/project_a.md", memory("a", "About a", "project"))
    write(repo, name, "a file someone committed under this name\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    result = run_cli(repo, "fix")
    assert (repo / name).read_text(encoding="utf-8") == "a file someone committed under this name\n"
    assert "left by an interrupted fix" not in result.stderr
    assert git(repo, "status", "--porcelain", "--", name) == ""


def test_fix_still_removes_an_untracked_leftover_of_its_own(repo: Path) -> None:
    name = ".claude/memory/.MEMORY.md.memcheck-999999-abcd1234.tmp"
    write(repo, ".claude/memory/project_a.md", memory("a", "About a", "project"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    write(repo, name, "half an index\n")
    result = run_cli(repo, "fix")
    assert not (repo / name).exists()
    assert "left by an interrupted fix" in result.stderr


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="the file system keeps only UTF-8 names")
def test_a_memory_whose_file_name_is_not_utf8_is_indexed_without_a_crash(repo: Path) -> None:
    # Its bytes are percent-encoded in the link, and shown as U+FFFD in the text.
    store = repo / ".claude/memory"
    write(repo, ".claude/memory/MEMORY.md", "")
    (store / "MEMORY.md").unlink()
    with open(os.path.join(os.fsencode(store), b"note_\xff.md"), "wb") as f:
        f.write(b"---\ntype: user\n---\n\nBody.\n")
    proc = run_cli(repo, "fix")
    assert proc.returncode in (0, 1) and "internal error" not in proc.stderr, proc.stderr
    index = (store / "MEMORY.md").read_text(encoding="utf-8")
    assert "(note_%FF.md)" in index and "note_\ufffd" in index


def test_a_folder_nested_deeper_than_the_stack_is_walked_without_a_crash(tmp_path: Path) -> None:
    # A folder that is no git repository is walked: a tree 1,100 folders deep (a tool's
    # cache, or a hostile tree) exhausted the stack of a walk that calls itself per level.
    write(tmp_path, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    deep = tmp_path / "deep"
    os.makedirs(deep)
    os.chdir(deep)  # each level made relative to the one before: a path this long is refused whole
    try:
        for _ in range(1_100):
            os.mkdir("d")
            os.chdir("d")
        Path("CLAUDE.md").write_text("# Deep\n", encoding="utf-8")
    finally:
        os.chdir(tmp_path)
    try:
        proc = run_cli(tmp_path, "check", ".")
    finally:
        # Removed here, deepest first: pytest's own clean-up walks a tree by recursion too.
        subprocess.run(["rm", "-rf", str(deep)], check=True)
    assert "internal error" not in proc.stderr, proc.stderr
    assert "1 store" in proc.stdout, proc.stdout


def test_fix_writes_the_stem_a_curated_index_names_its_files_by(repo: Path) -> None:
    """Issue 40's shape: an index in the curator's form `- Title — description (stem)`
    gets a new entry that ends with its stem too, so that an agent can find the file."""
    for i in (1, 2, 3):
        write(repo, f".claude/memory/note_0{i}.md", memory(f"Note {i}", f"note number {i}", "project"))
    index = write(
        repo, ".claude/memory/MEMORY.md", "# Memory\n\n- Note 2 \u2014 note number 2 (note_02)\n- Note 3 \u2014 note number 3 (note_03)\n"
    )
    assert run_cli(repo, "fix").returncode == 0
    assert "- Note 1 \u2014 note number 1 (note_01)\n" in index.read_text()
    assert run_cli(repo, "check").returncode == 0
